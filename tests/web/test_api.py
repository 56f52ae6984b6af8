"""The JSON API, the referee actions' security (token, CSRF, validation) and SSE framing."""

from __future__ import annotations

import json
import re

import pytest

from engine import Position
from web_ui.app import ACTIONS, create_app
from web_ui.board import board_state, pip_counts
from web_ui.feed import ActionRejected, LiveFeed

from web_helpers import TOKEN, bearer, play_until


# --- board JSON in player 1's numbering ---------------------------------------------------
def test_board_backgammon_player_numbering():
    pos = Position.start().apply("24/18 13/11")  # player 1 moved
    board = board_state(pos, on_roll=1)
    assert board["points"][17] == [1, 1] and board["points"][10] == [1, 1]
    assert board["points"][0] == [2, 2]  # player 2's 24 is player 1's 1
    # the same position with player 2 to move draws the same board
    assert board_state(pos.swapped(), on_roll=2) == board


def test_board_long_nardy_both_heads():
    board = board_state(Position.start("long"), on_roll=1)
    assert board["points"][23] == [1, 15]
    assert board["points"][11] == [2, 15]  # player 2's 24 is player 1's 12
    assert pip_counts(Position.start("long"), on_roll=1) == {"1": 360, "2": 360}
    moved = Position.start("long").apply("24/18")  # player 1's checker off the head
    assert pip_counts(moved.swapped(), on_roll=2) == {"1": 354, "2": 360}


# --- read-only API ------------------------------------------------------------------------
def test_state_events_ids_transcript(client, demo):
    for _ in range(6):
        demo.step()
    state = client.get("/api/state")
    assert state.status_code == 200 and state.headers["Cache-Control"] == "no-store"
    body = state.get_json()
    assert body["variant"] == "backgammon" and len(body["board"]["points"]) == 24
    assert int(state.headers["X-Last-Event-Id"]) == 7
    events = client.get("/api/events?since=3").get_json()
    assert [e["id"] for e in events["events"]] == [4, 5, 6, 7]
    assert client.get("/api/events?since=-1").status_code == 400
    assert client.get("/api/events?since=x").status_code == 400
    ids = client.get("/api/ids").get_json()
    assert re.fullmatch(r"[A-Za-z0-9+/]{14}", ids["gnubg"]) and ids["xgid"].startswith("XGID=")
    assert Position.parse(ids["xgid"]).position_id() == ids["gnubg"]
    text = client.get("/api/match.txt")
    assert text.mimetype == "text/plain"
    assert "7 point match" in text.get_data(as_text=True)
    first = body["plays"][0]
    assert f"{first['dice'][0]}{first['dice'][1]}: {first['play']}" in text.get_data(as_text=True)


def test_the_demo_transcript_reads_back_with_every_play_and_result():
    """RULES 9: /api/match.txt of a whole demo game, dances ("63:") and the result included,
    is read by the engine's parser play for play (it once wrote "(no play)", which no reader
    takes, and its own column widths)."""
    from engine.transcript import parse_transcript, write_transcript
    from web_ui.demo_feed import DemoSession

    demo = DemoSession(LiveFeed(), seed=3)
    while len(demo.results) < 2:
        demo.step()
    state, text = demo.state(), demo.transcript()
    transcript = parse_transcript(text)
    first = transcript.games[0]
    plays = [(a.number, a.side + 1, list(a.dice), a.play) for a in first.actions if a.kind == "play"]
    assert plays == [(p["turn"], p["player"], p["dice"], p["play"]) for p in state["plays"] if p["game"] == 1]
    assert any(play == "" for *_, play in plays)  # a dance
    result = demo.results[1]
    assert (first.result.side + 1, first.result.value) == (result["winner"], result["points"])
    assert write_transcript(transcript) == text


def test_fallback_ids_and_transcript_without_a_session():
    feed = LiveFeed()
    feed.publish({"type": "x"}, {"players": {"1": "A", "2": "B"}, "match_length": 3,
                                 "plays": [{"game": 1, "turn": 1, "player": 1, "dice": [3, 1],
                                            "play": "8/5 6/5"}],
                                 "ids": {"gnubg": "4HPwATDgc/ABMA:cAkAAAAAAAAA", "xgid": "XGID=x"}})
    client = create_app(feed, token=TOKEN).test_client()
    assert client.get("/api/ids").get_json()["gnubg"] == "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    assert "1) 31: 8/5 6/5" in client.get("/api/match.txt").get_data(as_text=True)
    # no referee session connected: the action is valid but nobody can apply it
    answer = client.post("/api/referee/undo", headers=bearer())
    assert answer.status_code == 503


def test_pages_are_read_only_and_carry_security_headers(client):
    for path in ("/", "/overlay", "/referee", "/calibrate"):
        page = client.get(path)
        assert page.status_code == 200, path
        csp = page.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "<script>" not in page.get_data(as_text=True)  # no inline scripts
    assert client.get("/").headers["X-Frame-Options"] == "DENY"
    overlay = client.get("/overlay")
    assert "X-Frame-Options" not in overlay.headers
    assert "frame-ancestors *" in overlay.headers["Content-Security-Policy"]
    for path in ("/", "/overlay", "/api/state"):
        assert client.post(path).status_code == 405
    assert client.get("/api/referee/undo").status_code == 405
    assert client.get("/nope").status_code == 404


@pytest.mark.parametrize("query", ["theme=neon", "elements=board,clock", "elements=", "corner=mid",
                                   "scale=9", "scale=abc", "scale=nan", "bogus=1", "sound=2"])
def test_overlay_query_is_validated(client, query):
    assert client.get("/overlay?" + query).status_code == 400


def test_overlay_options_choose_elements(client):
    page = client.get("/overlay?theme=light&elements=score,plays&corner=tl&scale=0.5").get_data(as_text=True)
    assert 'class="overlay theme-light corner-tl"' in page
    assert 'id="board"' not in page and 'id="ovplays"' in page and 'id="ovcall"' not in page
    assert "<button" not in page and "<form" not in page  # no controls


# --- referee actions: token ----------------------------------------------------------------
def test_no_token_401_wrong_token_403_right_token_200(client, feed):
    answer = client.post("/api/referee/set_mode", data={"mode": "silent"})
    assert answer.status_code == 401 and answer.headers["WWW-Authenticate"].startswith("Bearer")
    answer = client.post("/api/referee/set_mode", json={"mode": "silent"}, headers=bearer("wrong-token-x"))
    assert answer.status_code == 403
    answer = client.post("/api/referee/set_mode", json={"mode": "silent"},
                         headers={"Authorization": "Basic " + TOKEN})
    assert answer.status_code == 401
    assert feed.state()["mode"] == "monitor"
    answer = client.post("/api/referee/set_mode", json={"mode": "silent", "author": "Chief TD"},
                         headers=bearer())
    assert answer.status_code == 200, answer.get_json()
    assert feed.state()["mode"] == "silent"
    log = feed.events_since(0)[-1]
    assert log["type"] == "referee" and log["author"] == "Chief TD" and log["result"] == "applied"


def test_unknown_action_404_only_after_the_token(client):
    assert client.post("/api/referee/launch").status_code == 401
    assert client.post("/api/referee/launch", headers=bearer()).status_code == 404


def test_actions_are_logged_with_their_author(client, caplog):
    caplog.set_level("INFO", logger="gammoncam.web")
    client.post("/api/referee/set_players", json={"player1": "Ann", "player2": "Bo", "author": "Mia"},
                headers=bearer())
    assert any("set_players by Mia" in r.getMessage() for r in caplog.records)


# --- referee actions: CSRF on form posts ----------------------------------------------------
def _csrf(client) -> str:
    page = client.get("/referee").get_data(as_text=True)
    return re.search(r'data-csrf="([^"]+)"', page).group(1)


def test_form_posts_need_the_csrf_token(client, feed):
    form = {"token": TOKEN, "mode": "silent", "author": "Mia"}
    assert client.post("/api/referee/set_mode", data=form).status_code == 403  # no session yet
    csrf = _csrf(client)
    assert client.post("/api/referee/set_mode", data={**form, "csrf": "forged"}).status_code == 403
    assert feed.state()["mode"] == "monitor"
    answer = client.post("/api/referee/set_mode", data={**form, "csrf": csrf})
    assert answer.status_code == 200 and feed.state()["mode"] == "silent"
    # another browser (another session) cannot reuse it
    other = client.application.test_client()
    assert other.post("/api/referee/set_mode", data={**form, "csrf": csrf}).status_code == 403


def test_form_token_wrong_is_403_before_csrf(client):
    csrf = _csrf(client)
    answer = client.post("/api/referee/undo", data={"token": "not-the-token", "csrf": csrf})
    assert answer.status_code == 403


# --- referee actions: validation ----------------------------------------------------------
@pytest.mark.parametrize("action,body", [
    ("set_mode", {"mode": "loud"}),
    ("set_mode", {}),
    ("set_match_length", {"match_length": 65}),
    ("set_match_length", {"match_length": -1}),
    ("set_match_length", {"match_length": "7"}),  # JSON takes numbers as numbers
    ("set_match_length", {"match_length": True}),
    ("set_players", {"player1": "", "player2": "B"}),
    ("set_players", {"player1": "A" * 41, "player2": "B"}),
    ("set_players", {"player1": "<script>", "player2": "B"}),
    ("set_profile", {"profile": "casino"}),
    ("correct", {"play": "8/5 6/5; rm -rf"}),
    ("correct", {"play": "30/5"}),
    ("correct", {"play": 85}),
    ("enter_play", {"play": "8/5", "dice": [0, 7]}),
    ("enter_play", {"play": "8/5", "dice": [3]}),
    ("new_match", {"variant": "chess"}),
    ("acknowledge", {"call_id": 0}),
    ("calibrate", {"corners": [[0, 0], [1, 1], [2, 2]]}),
    ("calibrate", {"corners": [[0, 0], [1, 1], [2, 2], [1e9, 3]]}),
    ("undo", {"extra": 1}),
    ("undo", {"author": ""}),
])
def test_invalid_fields_are_422(client, action, body):
    if body == {"author": ""}:
        body = {"author": "\x01bad"}
    answer = client.post(f"/api/referee/{action}", json=body, headers=bearer())
    assert answer.status_code == 422, (action, body, answer.get_json())
    assert answer.get_json()["ok"] is False and answer.get_json()["error"]


def test_malformed_bodies_are_4xx(client):
    assert client.post("/api/referee/undo", data=b"{nope", headers={**bearer(), "Content-Type": "application/json"}).status_code == 400
    assert client.post("/api/referee/undo", json=[1, 2], headers=bearer()).status_code == 400
    assert client.post("/api/referee/undo", data=b"x", headers={**bearer(), "Content-Type": "text/plain"}).status_code == 415
    big = {"player1": "A", "player2": "B", "author": "x" * 20000}
    assert client.post("/api/referee/set_players", json=big, headers=bearer()).status_code == 413


def test_rejected_action_is_409_and_logged(client, feed):
    answer = client.post("/api/referee/acknowledge", json={}, headers=bearer())
    assert answer.status_code == 409
    log = feed.events_since(0)[-1]
    assert log["type"] == "referee" and log["result"] == "rejected"


def test_every_action_has_a_working_demo_handler(client, demo, feed):
    play_until(demo, "call")
    call = feed.state()["call"]
    assert call["pending"] and call["kind"] == "illegal_play" and call["detail"]
    answer = client.post("/api/referee/acknowledge", json={"call_id": call["id"], "author": "TD"}, headers=bearer())
    assert answer.status_code == 200
    assert feed.state()["call"]["pending"] is False and feed.state()["calls"][-1]["acknowledged_by"] == "TD"
    demo.step()  # the player takes the illegal play back
    play_until(demo, "play")
    before = feed.state()
    last = before["plays"][-1]
    assert client.post("/api/referee/undo", json={}, headers=bearer()).status_code == 200
    assert len(feed.state()["plays"]) == len(before["plays"]) - 1
    # enter the same play by hand again
    answer = client.post("/api/referee/enter_play", json={"play": last["play"]}, headers=bearer())
    assert answer.status_code == 200, answer.get_json()
    assert feed.state()["plays"][-1]["play"] == last["play"]
    assert feed.state()["plays"][-1]["entered_by"] == "referee"
    # an illegal correction is refused and changes nothing
    state = feed.state()
    answer = client.post("/api/referee/correct", json={"play": "24/23"}, headers=bearer())
    assert answer.status_code in (409, 422)
    assert feed.state()["plays"] == state["plays"] and feed.state()["board"] == state["board"]
    # a roll amended: the play must be legal for it, and only the roll changes
    first = feed.state()["plays"][0]
    wrong = {**{k: first[k] for k in ("game", "turn", "player")}, "dice": [1, 1] if first["dice"] != [1, 1] else [2, 2]}
    bad = client.post("/api/referee/amend_roll", json=wrong, headers=bearer())
    assert bad.status_code == 409 and "is not a legal play of" in bad.get_json()["error"]
    assert client.post("/api/referee/amend_roll", json={"game": 1, "turn": 99, "player": 1, "dice": [3, 1]},
                       headers=bearer()).status_code == 409
    assert feed.state()["plays"][0] == first
    # the same roll as a foul the official saw (RULES 7.2): a call of theirs, recorded, never pending
    foul = {**wrong, "foul": True}  # the play stays; the roll is the official's
    answer = client.post("/api/referee/amend_roll", json=foul, headers=bearer())
    assert answer.status_code == 200 and "recorded" in answer.get_json()["message"], answer.get_json()
    call = feed.state()["calls"][-1]
    assert (call["turn"], call["pending"], call["resolution"]) == (first["turn"], False, "recorded")
    assert feed.state()["plays"][0] == {**first, "dice": sorted(foul["dice"], reverse=True), "amended_by": "referee"}
    # the throw being played, misread: corrected before it is played, for its player only
    roll = play_until(demo, "roll")
    dice = [6, 5] if sorted(roll["dice"]) != [5, 6] else [4, 3]
    other = client.post("/api/referee/correct_dice", json={"player": 3 - roll["player"], "dice": dice},
                        headers=bearer())
    assert other.status_code == 409 and "no throw of player" in other.get_json()["error"]
    answer = client.post("/api/referee/correct_dice", json={"player": roll["player"], "dice": dice}, headers=bearer())
    assert answer.status_code == 200 and feed.state()["dice"] == dice, answer.get_json()
    assert feed.events_since(0)[-2]["type"] == "dice_corrected"
    # a double and take the camera missed: the cube is the taker's; the doubler cannot double again
    doubler = roll["player"]
    answer = client.post("/api/referee/state_double", json={"player": doubler}, headers=bearer())
    assert answer.status_code == 200 and feed.state()["cube"]["owner"] == 3 - doubler, answer.get_json()
    assert feed.events_since(0)[-2]["type"] == "cube_unseen"
    again = client.post("/api/referee/state_double", json={"player": doubler}, headers=bearer())
    assert again.status_code == 409 and "Only the cube's owner may redouble." in again.get_json()["error"]
    after = client.post("/api/referee/state_double", json={"player": 3 - doubler, "game": 1, "turn": 1},
                        headers=bearer())  # found after its turn: the demo keeps no such record
    assert after.status_code == 409 and "only while its game is played" in after.get_json()["error"]
    bad = client.post("/api/referee/state_double", json={"player": 1, "turn": 0}, headers=bearer())
    assert bad.status_code == 422
    # a resignation agreed across the table: the game on hand ends with the result stated
    game = feed.state()["game"]
    seen = client.post("/api/referee/state_result", json={"game": game + 1, "winner": 2, "points": 2},
                       headers=bearer())
    assert seen.status_code == 409 and "only the game on hand" in seen.get_json()["error"]
    score = feed.state()["score"]["2"]
    answer = client.post("/api/referee/state_result", json={"game": game, "winner": 2, "points": 2}, headers=bearer())
    assert answer.status_code == 200 and feed.state()["score"]["2"] == score + 2, answer.get_json()
    assert feed.events_since(0)[-2]["type"] == "game_end"
    for action, body in [("set_profile", {"profile": "money"}), ("set_match_length", {"match_length": 11}),
                         ("set_players", {"player1": "Ann", "player2": "Bo"}), ("new_game", {}),
                         ("calibrate", {"corners": [[1, 2], [3, 4], [5, 6], [7, 8]]}),
                         ("new_match", {"variant": "long", "match_length": 5})]:
        answer = client.post(f"/api/referee/{action}", json=body, headers=bearer())
        assert answer.status_code == 200, (action, answer.get_json())
    state = feed.state()
    assert state["variant"] == "long" and state["match_length"] == 5 and state["players"]["1"] == "Ann"
    assert state["profile"] == "money" and state["pips"] == {"1": 360, "2": 360}
    assert feed.corners == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
    assert set(ACTIONS) == {"acknowledge", "undo", "correct", "enter_play", "amend_roll", "correct_dice",
                            "state_result", "state_double", "set_profile", "set_players", "set_match_length",
                            "new_game", "new_match", "set_mode", "calibrate"}


def test_handler_rejection_status_passes_through(feed):
    def refuse(action, params, author):
        raise ActionRejected("the dice are still rolling", status=409)
    feed.on_referee_action = refuse
    client = create_app(feed, token=TOKEN).test_client()
    answer = client.post("/api/referee/new_game", headers=bearer())
    assert answer.status_code == 409 and answer.get_json()["error"] == "the dice are still rolling"


def test_token_must_be_long_enough(feed):
    with pytest.raises(ValueError):
        create_app(feed, token="short")


def test_frame_and_calibration(client, demo):
    frame = client.get("/api/frame.jpg")
    assert frame.status_code == 200 and frame.data[:2] == b"\xff\xd8"
    info = client.get("/api/calibration").get_json()
    assert info["frame"] is True and len(info["corners"]) == 4


# --- SSE framing ------------------------------------------------------------------------------
def _read_frames(response, count):
    """The first ``count`` SSE messages of a streamed response, as dicts of their fields."""
    buffer, frames = b"", []
    for chunk in response.response:
        buffer += chunk
        while b"\n\n" in buffer:
            raw, buffer = buffer.split(b"\n\n", 1)
            fields = {}
            for line in raw.decode().split("\n"):
                if line.startswith(":"):
                    continue
                key, _, value = line.partition(": ")
                fields[key] = value
            frames.append(fields)
            if len(frames) >= count:
                return frames
    return frames


def test_sse_starts_with_a_snapshot_then_updates(client, demo, feed):
    demo.step()
    response = client.get("/api/stream", buffered=False)
    assert response.mimetype == "text/event-stream" and response.headers["Cache-Control"] == "no-store"
    demo.step()
    frames = _read_frames(response, 3)
    assert frames[0] == {"retry": "1500"}
    assert frames[1]["event"] == "state" and frames[1]["id"] == "2"
    assert json.loads(frames[1]["data"])["state"]["variant"] == "backgammon"
    assert frames[2]["event"] == "update" and frames[2]["id"] == "3"
    data = json.loads(frames[2]["data"])
    assert data["event"]["id"] == 3 and data["state"]["turn"] >= 1
    feed.close()
    response.close()


def test_sse_resumes_after_last_event_id(client, demo, feed):
    for _ in range(5):
        demo.step()
    response = client.get("/api/stream", headers={"Last-Event-ID": "3"}, buffered=False)
    frames = _read_frames(response, 4)
    assert [f.get("id") for f in frames[1:]] == ["4", "5", "6"]
    assert all(f["event"] == "update" for f in frames[1:])
    feed.close()
    response.close()
    assert client.get("/api/stream", headers={"Last-Event-ID": "abc"}).status_code == 400


def test_sse_snapshot_when_history_is_gone():
    feed = LiveFeed(history=3)
    for n in range(10):
        feed.publish({"type": "n", "n": n}, {"n": n})
    client = create_app(feed, token=TOKEN).test_client()
    response = client.get("/api/stream?last_id=2", buffered=False)
    frames = _read_frames(response, 2)
    assert frames[1]["event"] == "state" and frames[1]["id"] == "10"
    feed.close()
    response.close()
