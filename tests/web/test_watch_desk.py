"""The referee page while a game is watched (gammoncam.watch.WatchDesk): an official acknowledges
a call, switches to silent mode (RULES 7.3), names the players, gives the board's corners and
amends a roll the record got wrong; each is kept in the referee log. What would rewrite the
record's plays by hand is refused with a reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.profiles import profile
from gammoncam.referee import Referee
from gammoncam.watch import Watcher, WatchDesk, transcript_text
from web_ui.app import create_app
from web_ui.board import empty_state
from web_ui.feed import LiveFeed

from web_helpers import TOKEN, bearer

DATA = Path(__file__).resolve().parent.parent / "tracker" / "data"
CALL = {"t": 41.5, "frame": 622, "type": "call", "kind": "illegal_play", "reason": "no_such_play",
        "text": "13/9 13/10 is not a play of 6-4", "player": 2, "game": 1}


class Box:
    """The two calls of device.driver.RefereeBox the call book makes, recorded."""

    def __init__(self):
        self.lit, self.cleared = [], []

    def call(self, kind: str) -> int:
        self.lit.append(kind)
        return 40 + len(self.lit)

    def clear(self, seq: int) -> None:
        self.cleared.append(seq)


@pytest.fixture
def desk(tmp_path):
    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=3))
    feed = LiveFeed(empty_state())
    box = Box()
    desk = WatchDesk(referee, feed, box)
    yield desk, create_app(feed, token=TOKEN).test_client(), box
    referee.close()


def act(client, action: str, **body):
    return client.post(f"/api/referee/{action}", headers=bearer(), json={"author": "Chief TD", **body})


def test_a_call_acknowledged_on_the_page_stops_waiting_and_its_light_goes_out(desk):
    desk, client, box = desk
    desk.hear(CALL)
    assert desk.feed.state()["calls"][0]["pending"] and box.lit == ["ILLEGAL_PLAY"]
    answer = act(client, "acknowledge", call_id=1)
    assert answer.status_code == 200, answer.get_json()
    call = desk.feed.state()["calls"][0]
    assert (call["pending"], call["resolution"], call["acknowledged_by"]) == (False, "acknowledged", "Chief TD")
    assert box.cleared == [41]
    assert [e["type"] for e in desk.feed.events_since(0)][-2:] == ["call_resolved", "referee"]
    again = act(client, "acknowledge", call_id=1)
    assert again.status_code == 409 and "no call is waiting" in again.get_json()["error"]
    assert desk.referee.notes == [{"after": 0, "type": "acknowledged", "call_id": 1, "author": "Chief TD"}]


def test_a_call_made_in_silent_mode_is_listed_as_logged_and_the_box_stays_dark(desk):
    """RULES 7.3: silent mode only logs. The official's page lists the call (the live page and the
    overlay show no banner in silent mode); it waits for nobody, and nothing lights."""
    desk, client, box = desk
    assert act(client, "set_mode", mode="silent").status_code == 200
    desk.hear({**CALL, "silent": True})
    call = desk.feed.state()["calls"][0]
    assert (call["pending"], call["resolution"]) == (False, "logged") and box.lit == []
    refused = act(client, "acknowledge", call_id=1)
    assert refused.status_code == 409 and "no call is waiting" in refused.get_json()["error"]


def test_silent_mode_players_and_what_the_watch_refuses(desk, tmp_path):
    desk, client, _ = desk
    assert act(client, "set_mode", mode="silent").status_code == 200
    assert desk.referee.mode == "silent" and desk.feed.state()["mode"] == "silent"
    assert act(client, "set_players", player1="Ana", player2="Bea").status_code == 200
    assert desk.feed.state()["players"] == {"1": "Ana", "2": "Bea"}
    assert '[Player 1 "Ana"]' in transcript_text(desk.referee)
    assert desk.feed.state()["actions"] == ["acknowledge", "set_mode", "set_players", "calibrate", "amend_roll",
                                           "correct_dice", "state_result", "state_double"]
    for action, body in (("undo", {}), ("correct", {"play": "8/5 6/5"}), ("new_game", {})):
        refused = act(client, action, **body)
        assert refused.status_code == 409 and "the record follows the board" in refused.get_json()["error"]
    refused = act(client, "calibrate", corners=[[10, 10], [300, 10], [300, 200], [10, 200]])
    assert refused.status_code == 409 and "no camera frame yet" in refused.get_json()["error"]
    desk.referee.close()
    with Referee.open(tmp_path / "log.sqlite") as again:  # the officials' actions are in the log
        assert [n["type"] for n in again.notes] == ["mode", "players"] and again.players == ("Ana", "Bea")
        assert again.mode == "silent"  # a watch resumed on this log stays silent


def test_an_action_the_log_cannot_keep_is_refused_with_503_and_changes_nothing(desk, tmp_path):
    """Another program holds the log's write lock (a full disk reads the same): the players'
    names are refused, not kept in memory only, and taken once the log can be written again."""
    import sqlite3

    desk, client, _ = desk
    other = sqlite3.connect(tmp_path / "log.sqlite", isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    desk.referee._db.execute("PRAGMA busy_timeout=0")  # refused at once, not after the usual 5 s
    try:
        refused = act(client, "set_players", player1="Ana", player2="Bea")
    finally:
        other.rollback()
        other.close()
    assert refused.status_code == 503
    assert refused.get_json()["error"] == ("the referee log cannot be written (database is locked): "
                                           "set players is not kept")
    assert desk.referee.players == ("Light", "Dark") and desk.feed.state()["players"] != {"1": "Ana", "2": "Bea"}
    assert act(client, "set_players", player1="Ana", player2="Bea").status_code == 200
    assert desk.referee.players == ("Ana", "Bea")


def test_corners_given_on_the_calibration_page_are_read_from_the_next_frame(desk):
    """The calibration page shows the latest frame and takes the corners dragged on it; the
    watch reads the board there from the next frame and calibrates it again."""
    from gammoncam.frames import FrameSource
    from vision.synth.observer import TruthObserver

    desk, client, _ = desk
    stage = json.loads((DATA / "stage.json").read_text())
    corners = [[round(x + 3.0, 1), round(y - 2.0, 1)] for x, y in stage["field"]]
    seen = []
    with FrameSource(str(DATA / "clip.mp4")) as source:
        desk.watcher = Watcher(source, TruthObserver.from_file(DATA / "clip_truth.jsonl"), desk.referee,
                               stage["field"], emit=lambda e: (seen.append(e), desk.hear(e)))

        def first_frames(frame, reading):  # the official drags the corners once the video shows
            if frame.index == 5:
                assert client.get("/api/frame.jpg").data[:2] == b"\xff\xd8"  # a JPEG of the latest frame
                assert act(client, "calibrate", corners=corners).status_code == 200
                assert client.get("/api/calibration").get_json()["corners"] == corners

        desk.watcher.on_frame = first_frames
        desk.watcher.run()
    given = [e for e in seen if e["type"] == "corners_given"]
    assert len(given) == 1 and given[0]["corners"] == corners
    assert desk.watcher.gate.corners.tolist() == corners
    desk.close()
    late = act(client, "set_mode", mode="silent")
    assert late.status_code == 409 and "has ended" in late.get_json()["error"]


def test_a_watch_resumed_on_its_log_lists_the_doubts_kept(desk, tmp_path):
    desk, _, _ = desk
    doubt = {"t": 97.0, "type": "dice_misread", "player": 2,
             "what": "the play is a 4-3's, the dice were read 6-3: one die misread, or a foul"}
    desk.hear({"frame": 1455, **doubt})
    desk.referee.close()
    with Referee.open(tmp_path / "log.sqlite") as again:
        resumed = WatchDesk(again, LiveFeed(empty_state()))
        assert resumed.doubts.told == desk.doubts.told == [{**doubt, "game": 0}]


def test_a_watch_resumed_on_its_log_books_its_calls_as_they_stood(tmp_path, dark_turn):
    """The watch stopped (a crash, a camera gone) and is started again on its log: the page shows
    at once, before the board is read again, the record and the calls made before, numbered as
    before, acknowledged, put right (RULES 7.2) or logged in silent mode (RULES 7.3) as they were;
    the one nobody has dealt with waits again and lights the box; a call made after the restart is
    numbered after them."""
    from engine.match import Played, Throw
    from gammoncam.watch import call_event

    def watched(referee, desk):  # as the Watcher books the referee's calls
        referee.recorders.append(lambda i, ruling, state: desk.hear(call_event(referee, i, ruling, state,
                                                                               referee.mode)))

    log = tmp_path / "log.sqlite"
    referee = Referee.open(log, profile("tournament", match_length=3, condone=True))
    feed, box = LiveFeed(empty_state()), Box()
    desk = WatchDesk(referee, feed, box)
    client = create_app(feed, token=TOKEN).test_client()
    watched(referee, desk)
    assert not dark_turn(referee, (6, 3), "13/9 13/10").accepted  # call 1; light has thrown 5-2
    assert act(client, "acknowledge", call_id=1).status_code == 200
    assert not referee.submit(Played(referee.state.position.apply("13/7"))).accepted  # call 2: a 6 for a 5-2
    assert referee.submit(Played(referee.state.before.apply("13/8 13/11"))).accepted
    desk.hear({"type": "play", "player": 1, "dice": [5, 2], "accepted": True, "put_right": "no_such_play"})
    assert act(client, "set_mode", mode="silent").status_code == 200
    referee.submit(Throw(4, 1))
    assert not referee.submit(Played(referee.state.position.apply("13/7"))).accepted  # call 3, silent
    assert act(client, "set_mode", mode="monitor").status_code == 200
    referee.submit(Throw(6, 5))
    assert not referee.submit(Played(referee.state.position.apply("13/10"))).accepted  # call 4
    before = [(c["id"], c["turn"], c["pending"], c.get("resolution")) for c in desk.book.calls]
    assert before == [(1, 1, False, "acknowledged"), (2, 2, False, "corrected"), (3, 2, False, "logged"),
                      (4, 3, True, None)]
    assert box.lit == ["ILLEGAL_PLAY"] * 3 and box.cleared == [41, 42]
    referee.close()

    again = Referee.open(log)
    feed, box = LiveFeed(empty_state()), Box()
    resumed = WatchDesk(again, feed, box)
    assert resumed.book.calls == desk.book.calls
    shown = feed.state()  # at once, before anything is seen on the board
    assert [c["id"] for c in shown["calls"]] == [1, 2, 3, 4] and shown["turn"] == 3 and shown["dice"] == [6, 5]
    assert box.lit == ["ILLEGAL_PLAY"]
    watched(again, resumed)
    again.submit(Throw(3, 2))
    assert not again.submit(Played(again.state.position.apply("24/18"))).accepted
    assert [(c["id"], c["pending"]) for c in resumed.book.calls][-1] == (5, True)
    client = create_app(feed, token=TOKEN).test_client()
    assert act(client, "acknowledge", call_id=4).status_code == 200 and box.cleared == [41]
    again.close()


def test_the_dice_being_played_are_corrected_on_the_page_and_a_call_on_the_misread_falls(tmp_path):
    """Light's 6-1 was read surely as 6-4 and its play, 13/7 8/7, called (RULES 3.1) before light
    picked the dice up: the box lights. The official, who sees the 1, corrects the dice on the page
    while the turn is still light's: the play is judged again on 6-1, the call is overruled and
    its light goes out; the log keeps the correction (an event) and who made it (a note), and a
    watch resumed on the log books the call as overruled. Dark's dice cannot be corrected before
    dark throws, nor light's to what they are already."""
    from looks import two_turns

    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=3, condone=True))
    feed, box = LiveFeed(empty_state()), Box()
    desk = WatchDesk(referee, feed, box)
    client = create_app(feed, token=TOKEN).test_client()
    desk.watcher = Watcher(None, None, referee, None, emit=desk.hear, lock=desk.lock)
    look, opening, dark_played = two_turns(10)
    played = dark_played.apply("13/7 8/7")
    for t, obs in enumerate(opening + [look(dark_played, (6, 4)), look(played)]):
        desk.watcher.tracker.observe(obs, float(t))
    assert [c["reason"] for c in feed.state()["calls"]] == ["no_such_play"] and box.lit == ["ILLEGAL_PLAY"]
    refused = act(client, "correct_dice", player=2, dice=[5, 2])
    assert refused.status_code == 409 and "no throw of player 2 is being played" in refused.get_json()["error"]
    same = act(client, "correct_dice", player=1, dice=[4, 6])
    assert same.status_code == 409 and "already" in same.get_json()["error"]
    assert act(client, "correct_dice", player=1, dice="6").status_code == 422
    answer = act(client, "correct_dice", player=1, dice=[1, 6])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == "player 1's throw is 6-1 (was 6-4); call 1 overruled"
    call = feed.state()["calls"][0]
    assert (call["pending"], call["resolution"], call["overruled_by"]) == (False, "overruled", "Chief TD")
    assert box.cleared == [41] and feed.state()["dice"] == [6, 1] and referee.state.pending is None
    assert "61: 13/7* 8/7" in transcript_text(referee)
    referee.close()
    with Referee.open(tmp_path / "log.sqlite") as again:
        assert type(again.events[-1]).__name__ == "DiceCorrected" and again.state.dice == (6, 1)
        assert [(n["type"], n["dice"], n["withdrawn"], n["author"]) for n in again.notes if "dice" in n] == [
            ("dice_given", [6, 1], [7], "Chief TD")]
        resumed = WatchDesk(again, LiveFeed(empty_state()), Box())
        assert resumed.book.calls == desk.book.calls and resumed.book.box.lit == []


def test_a_double_the_watch_did_not_see_is_stated_on_the_page_and_one_the_rules_forbid_is_called(tmp_path):
    """RULES 5.3: the official saw dark double and light take where the watch did not (the cube
    turned under a hand): stated on the page, light owns the cube at 2, the log keeps the event
    and who stated it, and the transcript writes the double before light's next throw. Dark
    doubling again is stated too, but dark no longer owns the cube (RULES 5.2): called, the box
    lit, the cube as it was. Nothing is stated before a game is followed or with a bad player."""
    from looks import two_turns

    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=5, condone=True))
    feed, box = LiveFeed(empty_state()), Box()
    desk = WatchDesk(referee, feed, box)
    client = create_app(feed, token=TOKEN).test_client()
    early = act(client, "state_double", player=2)
    assert early.status_code == 409 and "no game is watched yet" in early.get_json()["error"]
    desk.watcher = Watcher(None, None, referee, None, emit=desk.hear, lock=desk.lock)
    idle = act(client, "state_double", player=2)
    assert idle.status_code == 409 and "while a game is played" in idle.get_json()["error"]
    look, turns, _ = two_turns(52)
    for t, obs in enumerate(turns):
        desk.watcher.tracker.observe(obs, float(t))
    assert act(client, "state_double", player=3).status_code == 422
    answer = act(client, "state_double", player=2)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == "player 2 doubled to 2 and player 1 took: player 1 owns the cube"
    assert feed.state()["cube"] == {"value": 2, "owner": 1, "offered": False}
    assert "  2)  Takes" in transcript_text(referee) and "Doubles => 2" in transcript_text(referee)
    again = act(client, "state_double", player=2)
    assert again.status_code == 200
    assert again.get_json()["message"].startswith(
        "player 2's double to 4: called (Only the cube's owner may redouble.)")
    assert [(c["kind"], c["reason"], c["player"]) for c in feed.state()["calls"]] == [
        ("illegal_double", "not_cube_owner", 2)]
    assert box.lit == ["ILLEGAL_DOUBLE"] and (referee.state.cube, referee.state.owner) == (2, 0)
    referee.close()
    with Referee.open(tmp_path / "log.sqlite") as log:
        assert [type(e).__name__ for e in log.events[-2:]] == ["CubeUnseen", "CubeUnseen"]
        assert [(n["player"], n["value"], n["accepted"], n["author"]) for n in log.notes
                if n["type"] == "double_stated"] == [(2, 2, True, "Chief TD"), (2, 4, False, "Chief TD")]
        assert (log.state.cube, log.state.owner) == (2, 0)


def test_a_double_found_after_its_turn_is_stated_on_the_page_and_the_cube_judged_again(desk, dark_turn):
    """Dark doubled before their 4-1 and light took, unseen; two turns on, dark turned the cube
    again and the record took it for the cube's first double. The official states the first on
    the page with its game and turn: the record has it before the 4-1, the cube is light's at 2,
    and dark's later double is called (RULES 5.2: not the owner) as the official's, never pending
    (the game went on). Half a place, or a double the record has already, is refused; a desk
    resumed on the log books the same call."""
    from engine.match import Double, Played

    desk, client, box = desk
    referee = desk.referee
    dark_turn(referee, (4, 1), "13/8")
    assert referee.submit(Played(referee.state.position.apply("13/8 13/11"))).accepted
    assert referee.submit(Double()).accepted
    half = act(client, "state_double", player=2, game=1)
    assert half.status_code == 409 and "names both the game and the doubler's turn" in half.get_json()["error"]
    answer = act(client, "state_double", player=2, game=1, turn=1)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == ("game 1, turn 1: player 2 doubled to 2 and player 1 took; the score "
                                            "is 0-0; call 1 recorded: Only the cube's owner may redouble.")
    assert (referee.state.cube, referee.state.owner) == (2, 0) and box.lit == []
    assert [(c["kind"], c["reason"], c["player"], c["pending"]) for c in desk.feed.state()["calls"]] == [
        ("illegal_double", "not_cube_owner", 2, False)]
    assert "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes                      41: 13/8\n" in transcript_text(referee)
    again = act(client, "state_double", player=2, game=1, turn=2)
    assert again.status_code == 409 and "already has player 2's double there" in again.get_json()["error"]
    assert [(n["type"], n["seq"], n["author"]) for n in referee.notes if n.get("type") == "double"] == [
        ("double", 4, "Chief TD")]
    resumed = WatchDesk(referee, LiveFeed(empty_state()), Box())
    assert resumed.book.calls == desk.book.calls


def test_the_page_names_the_watched_position_by_its_ids(desk):
    """The live page shows the GNU Backgammon ID and the XGID of the position watched."""
    from engine.match import NewGame, OpeningThrow
    from engine.matchid import gnubg_id, xgid

    desk, client, _ = desk
    assert desk.referee.submit(NewGame()).accepted and desk.referee.submit(OpeningThrow(5, 1)).accepted
    desk.hear({"t": 2.0, "frame": 30, "type": "opening", "dice": [5, 1], "player": 1, "accepted": True})
    ids = desk.feed.state()["ids"]
    assert ids == {"gnubg": gnubg_id(desk.referee.state), "xgid": str(xgid(desk.referee.state))}
    assert client.get("/api/ids").get_json()["gnubg"] == ids["gnubg"] == "4HPwATDgc/ABMA:MIFmAAAAAAAE"


def test_a_roll_recorded_wrong_is_amended_on_the_page_and_its_play_stands(desk, tmp_path, dark_turn):
    """Dark's 13/8 was recorded as a 4-1 (13/9/8); the official saw a 3-2 thrown (13/10/8, the
    same play) and amends it: the page's plays and the transcript say 3-2, the log keeps the
    events as seen and the amendment with its author. A roll the play does not fit is refused."""
    from engine.match import Throw

    desk, client, _ = desk
    referee = desk.referee
    dark_turn(referee, (4, 1), "13/8")
    desk.hear({"t": 9.0, "frame": 135, "type": "play", "player": 2, "dice": [4, 1], "accepted": True, "play": "13/8"})
    foul = act(client, "amend_roll", game=1, turn=1, player=2, dice=[6, 4])
    assert foul.status_code == 409 and "13/8 is not a legal play of 6-4" in foul.get_json()["error"]
    nothing = act(client, "amend_roll", game=1, turn=2, player=2, dice=[3, 2])
    assert nothing.status_code == 409 and "no roll of player 2 there" in nothing.get_json()["error"]
    answer = act(client, "amend_roll", game=1, turn=1, player=2, dice=[2, 3])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == "game 1, turn 1: the roll is now 3-2 (was 4-1)"
    assert desk.feed.state()["plays"][-1] == {"game": 1, "turn": 1, "player": 2, "dice": [3, 2], "play": "13/8"}
    assert "32: 13/8" in transcript_text(referee)
    referee.close()
    with Referee.open(tmp_path / "log.sqlite") as again:
        assert again.events[3] == Throw(4, 1)  # as seen
        (note,) = [n for n in again.notes if n.get("type") == "amended"]
        assert (note["seq"], note["dice"], note["was"], note["author"]) == (4, [3, 2], [4, 1], "Chief TD")
        assert "32: 13/8" in transcript_text(again)


def test_a_call_made_on_a_roll_misread_is_overruled_by_amending_the_roll(tmp_path, dark_turn):
    """Dark's 4-3 was read 6-3 and 13/9 13/10 called (RULES 3.1); the players went on (the watch
    judges as `condone`). The official, who saw the 4-3, amends the roll: the call is overruled on
    the page, its light goes out, the transcript shows 43: 13/10 13/9, the log keeps the call."""
    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=3, condone=True))
    feed, box = LiveFeed(empty_state()), Box()
    desk = WatchDesk(referee, feed, box)
    client = create_app(feed, token=TOKEN).test_client()
    assert not dark_turn(referee, (6, 3), "13/9 13/10").accepted
    desk.hear({**CALL, "text": "13/10 13/9 is not a play of 6-3", "seq": 5, "turn": 1})
    assert box.lit == ["ILLEGAL_PLAY"]
    answer = act(client, "amend_roll", game=1, turn=1, player=2, dice=[4, 3])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == "game 1, turn 1: the roll is now 4-3 (was 6-3); call 1 overruled"
    call = feed.state()["calls"][0]
    assert (call["pending"], call["resolution"], call["overruled_by"]) == (False, "overruled", "Chief TD")
    assert box.cleared == [41]
    assert "43: 13/10 13/9" in transcript_text(referee)
    assert [r.accepted for r in referee.rulings][4] is False  # the verdict as it was made stays in the log
    (note,) = [n for n in referee.notes if n.get("type") == "amended"]
    assert (note["seq"], note["withdrawn"]) == (4, [5])
    referee.close()


def test_a_foul_the_watch_missed_is_recorded_on_the_page_by_amending_its_roll(tmp_path, dark_turn):
    """Dark threw 6-4 and played 13/8, which the watch took for a 4-1's 13/9/8 (RULES 7.2: a foul,
    but a legal play of the roll read). The official who saw the 6-4 amends the roll as a foul: a
    call of theirs is booked, recorded, never pending and its light dark (the game went on); the
    transcript says 64: 13/8. Amended back to a roll the play fits, the call is overruled."""
    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=3, condone=True))
    feed, box = LiveFeed(empty_state()), Box()
    desk = WatchDesk(referee, feed, box)
    client = create_app(feed, token=TOKEN).test_client()
    assert dark_turn(referee, (4, 1), "13/8").accepted
    refused = act(client, "amend_roll", game=1, turn=1, player=2, dice=[6, 4])
    assert refused.status_code == 409 and "amend it as a foul" in refused.get_json()["error"]
    not_bool = act(client, "amend_roll", game=1, turn=1, player=2, dice=[6, 4], foul="maybe")
    assert not_bool.status_code == 422
    answer = act(client, "amend_roll", game=1, turn=1, player=2, dice=[6, 4], foul=True)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"].startswith("game 1, turn 1: the roll is now 6-4 (was 4-1); call 1 recorded: ")
    (call,) = feed.state()["calls"]
    assert (call["kind"], call["turn"], call["player"], call["pending"], call["resolution"], call["recorded_by"]) == \
        ("illegal_play", 1, 2, False, "recorded", "Chief TD")
    assert box.lit == []
    assert "64: 13/8" in transcript_text(referee)
    back = act(client, "amend_roll", game=1, turn=1, player=2, dice=[3, 2])
    assert back.get_json()["message"] == "game 1, turn 1: the roll is now 3-2 (was 6-4); call 1 overruled"
    assert feed.state()["calls"][0]["resolution"] == "overruled"
    referee.close()


def test_a_game_ended_unseen_gets_the_result_an_official_states_on_the_page(tmp_path):
    """Game 1 of a 5 point match ended unseen (the board set up again); in game 2 dark doubled
    and light took. The official states that dark won game 1 for 4 points: the score is 0-4, game
    2 is the Crawford game (RULES 6.2), so the double is booked as a call of theirs, recorded,
    its light dark (the game went on); a watch resumed on the log books it so again."""
    from engine.match import Double, EndUnseen, NewGame, OpeningThrow, Played, Take
    from engine.position import Position
    from gammoncam.watch import CallBook

    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=5))
    feed, box = LiveFeed(empty_state()), Box()
    desk = WatchDesk(referee, feed, box)
    client = create_app(feed, token=TOKEN).test_client()
    for event in (NewGame(), OpeningThrow(3, 1), Played(Position.start().apply("8/5 6/5")), EndUnseen(),
                  NewGame(), OpeningThrow(5, 2), Played(Position.start().apply("13/8 13/11")), Double(), Take()):
        referee.submit(event)
    assert act(client, "state_result", game=1, winner=3, points=4).status_code == 422
    refused = act(client, "state_result", game=1, winner=2, points=5)
    assert refused.status_code == 409 and "win player 2 the match" in refused.get_json()["error"]
    answer = act(client, "state_result", game=1, winner=2, points=4)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == ("game 1: player 2 won 4 point(s); the score is 0-4; call 1 recorded: "
                                            "No doubling in the Crawford game.")
    (call,) = feed.state()["calls"]
    assert (call["kind"], call["game"], call["turn"], call["player"], call["pending"], call["resolution"]) == \
        ("illegal_double", 2, 1, 2, False, "recorded")
    assert box.lit == [] and feed.state()["score"] == {"1": 0, "2": 4}
    assert "Wins 4 point" in transcript_text(referee)
    referee.close()
    with Referee.open(tmp_path / "log.sqlite") as again:
        assert CallBook.from_log(again).calls == desk.book.calls


def test_the_result_of_the_game_on_hand_ends_it_and_the_tracker_lets_go_of_it(tmp_path):
    """The players agreed a gammon resignation across the table and leave; the watch still holds
    the game in progress. The official states it on the page: the tracker ends the game (what it
    waited for goes with it), the score counts it and the transcript writes it."""
    from types import SimpleNamespace

    from engine.match import NewGame, OpeningThrow
    from gammoncam.tracker import Tracker

    referee = Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=5))
    feed = LiveFeed(empty_state())
    desk = WatchDesk(referee, feed)
    client = create_app(feed, token=TOKEN).test_client()
    heard = []
    tracker = Tracker(referee, heard.append)
    desk.watcher = SimpleNamespace(tracker=tracker, corners_given=None, observer=None, latest=None)
    for event in (NewGame(), OpeningThrow(3, 1)):
        referee.submit(event)
    tracker.turn_path = [object()]  # something it waited for
    too_many = act(client, "state_result", game=1, winner=1, points=200)  # the cube stops at 64: 192 at most
    assert too_many.status_code == 409 and "a game scores 1 to 192 points" in too_many.get_json()["error"]
    assert len(tracker.turn_path) == 1 and referee.state.phase == "moving"  # refused before anything was let go
    answer = act(client, "state_result", game=1, winner=1, points=2)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["message"] == "game 1: player 1 won 2 point(s); the score is 2-0"
    assert (referee.state.phase, referee.state.score, tracker.turn_path) == ("game_over", (2, 0), [])
    assert heard[-1]["type"] == "game_end_unseen" and heard[-1]["stated_by"] == "Chief TD"
    assert "Wins 2 point" in transcript_text(referee)
    again = act(client, "state_result", game=1, winner=1, points=2)
    assert again.status_code == 409 and "already has 2 point(s) to player 1" in again.get_json()["error"]
    (note,) = [n for n in referee.notes if n.get("type") == "result"]
    assert (note["seq"], note["winner"], note["points"], note["author"]) == (3, 1, 2, "Chief TD")
    referee.close()
