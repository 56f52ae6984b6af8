"""Replaying transcripts: the corpus without a call, and copies of corpus files with one
injected irregularity called at exactly its game, turn and player (issue 4, acceptance)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from engine.transcript import parse_transcript
from gammoncam.replay import Replay

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "fixtures" / "matches" / "bglab"
FILES = sorted(CORPUS.glob("*.txt"))


def replay_text(text: str, name: str = "t.txt") -> Replay:
    replay = Replay(name)
    replay.run(parse_transcript(text))
    return replay


def test_whole_corpus_replays_without_a_call():
    """1,698 files, 4,379 games: no call; every result agrees or is a named warning."""
    assert len(FILES) == 1698
    replay = Replay("")
    for path in FILES:
        replay.file = path.name
        replay.run(parse_transcript(path.read_text(encoding="utf-8")))
    summary = replay.summary
    assert replay.calls == []
    assert summary["files"] == 1698 and summary["games"] == 4379
    # The oddities of real files are warnings that name file and game.
    texts = [str(w) for w in replay.warnings]
    assert any("Wins 4016 point" in t and "game 2" in t for t in texts)
    assert all(w.file for w in replay.warnings)
    assert summary["warnings"] == len(replay.warnings) < 20


# --- injecting one irregularity into a copy of a corpus file ---------------------------

def turn_lines(lines: list[str], game: int) -> list[int]:
    """Indexes of the numbered turn lines of ``game``."""
    out, current = [], 0
    for k, line in enumerate(lines):
        m = re.match(r"^\s*Game (\d+)\s*$", line)
        if m:
            current = int(m.group(1))
        elif current == game and re.match(r"^\s*\d+\)", line):
            out.append(k)
    return out


def split_turn(line: str, split: int) -> tuple[str, str, str]:
    """(number prefix, Player 1's entry, Player 2's entry) of a turn line."""
    m = re.match(r"^(\s*\d+\)\s?)", line)
    prefix = m.group(1)
    return prefix, line[len(prefix):split].strip(), line[split:].strip()


def insert_double(text: str, game: int, index: int, side: int, value: int) -> tuple[str, int]:
    """Put a double by ``side`` and its take before that side's entry on the ``index``-th turn
    line of ``game``, renumbering the turns after it. Returns the text and the turn number."""
    lines = text.split("\n")
    score_line = next(lines[k + 1] for k, l in enumerate(lines) if re.match(rf"^\s*Game {game}\s*$", l))
    split = re.search(r"\S+\s*:\s*\d+\s*$", score_line).start()
    turns = turn_lines(lines, game)
    k = turns[index]
    prefix, left, right = split_turn(lines[k], split)
    number = int(prefix.strip().rstrip(")"))
    width = split

    def row(n, a, b):
        head = f"{n:3d}) "
        return (head + a.ljust(width - len(head)) + b).rstrip()

    if side == 0:
        new = [row(number, f" Doubles => {value}", " Takes"), row(number + 1, left, right)]
    else:
        new = [row(number, left, f" Doubles => {value}"), row(number + 1, " Takes", right)]
    rest = [row(int(split_turn(lines[j], split)[0].strip().rstrip(")")) + 1,
                *split_turn(lines[j], split)[1:]) for j in turns[index + 1:]]
    out = lines[:k] + new + lines[k + 1:turns[-1] + 1]
    for j, r in zip(turns[index + 1:], rest):
        out[j + 1] = r
    out += lines[turns[-1] + 1:]
    return "\n".join(out), number


def only_call(replay: Replay):
    assert len(replay.calls) == 1, replay.calls
    return replay.calls[0]


def test_injected_illegal_play_is_called_at_its_turn(tmp_path):
    """Change the dice of one turn so that the play written is not a play of them."""
    path = CORPUS / "match10013413.txt"
    text = path.read_text()
    # game 2, turn 5, Player 1: "32: 6/3 13/11" becomes "42: 6/3 13/11"
    assert " 5) 32: 6/3 13/11" in text
    bad = text.replace(" 5) 32: 6/3 13/11", " 5) 42: 6/3 13/11", 1)
    call = only_call(replay_text(bad, "x.txt"))
    assert (call.game, call.turn, call.player, call.kind) == (2, 5, 1, "illegal_play")
    assert call.reason in ("no_such_play", "too_few_dice")


def test_injected_landing_on_a_held_point_is_called_not_unreadable(tmp_path):
    """RULES 3.2: a checker put on a point the opponent holds; the game then goes on from
    the position as recorded and nothing else is called."""
    path = CORPUS / "Magic - Lasse 5pt Backgammon Studio 2024_04_22 19_06_30.txt"
    text = path.read_text()
    # game 1 turn 3, Player 1 (Magic) plays 53: 8/3 6/3. Lasse holds Magic's point 19
    # (his 6 point), so 8/3 13/8 written as 24/19 is a landing on a held point.
    old = "  3) 53: 8/3 6/3 "
    assert old in text
    bad = text.replace(old, "  3) 53: 24/19 6/3", 1)
    target = tmp_path / "held.txt"
    target.write_text(bad)
    replay = replay_text(bad)
    call = only_call(replay)
    assert (call.game, call.turn, call.player, call.kind) == (1, 3, 1, "illegal_play")
    assert call.reason in ("blocked_point", "shared_point")


def test_injected_double_in_the_crawford_game_is_called(tmp_path):
    """RULES 6.2, 6.4: called, and no effect on the cube or the score."""
    text = (CORPUS / "match10090882.txt").read_text()  # 5 point match, game 5 at 1-4
    t = parse_transcript(text)
    game = t.games[4]
    assert game.score == (1, 4) and not any(a.kind == "double" for a in game.actions)
    first = next(a for a in game.actions if a.kind == "play")
    index = 2  # the third turn line: both sides have played
    side = 1 - first.side  # someone who is to act on that line with a play
    bad, turn = insert_double(text, game.number, index, side, 2)
    replay = replay_text(bad)
    call = only_call(replay)
    assert (call.game, call.turn, call.player) == (game.number, turn, side + 1)
    assert (call.kind, call.reason) == ("illegal_double", "crawford_game")
    assert replay.summary["warnings"] == replay_text(text).summary["warnings"]


def test_a_record_begun_after_the_crawford_game_replays_without_a_call():
    """RULES 6.2: a session watched from 2-0 in a 3-point match, the Crawford game said to be
    behind (``watch --crawford-played``), has dark double in its first game. Its transcript
    says so (``CrawfordPlayed``) and replays without a call; without that tag the double would
    be the Crawford game's, called."""
    from engine import Position
    from engine.match import Double, NewGame, OpeningThrow, Played, Take
    from engine.profiles import profile
    from engine.transcript import session_transcript, write_transcript
    from gammoncam.referee import Referee

    referee = Referee(profile("tournament", match_length=3))
    opened = Position.start().apply("8/5 6/5")
    for event in (NewGame(score=(2, 0), crawford_played=True), OpeningThrow(3, 1), Played(opened), Double(), Take()):
        assert referee.submit(event).accepted
    text = write_transcript(session_transcript(referee.profile, referee.events))
    assert '; [CrawfordPlayed "Yes"]' in text and "Doubles => 2" in text
    assert replay_text(text).calls == []
    untagged = only_call(replay_text(text.replace('; [CrawfordPlayed "Yes"]\n', "")))
    assert (untagged.kind, untagged.reason) == ("illegal_double", "crawford_game")


def test_injected_double_on_a_dead_cube_is_called():
    """RULES 6.3: the leader at N-1 after the Crawford game may not double (1 + 4 >= 5)."""
    text = (CORPUS / "match10090882.txt").read_text()  # game 6 at 2-4, after the Crawford game
    t = parse_transcript(text)
    game = t.games[5]
    assert game.score == (2, 4)
    leader = 1
    bad, turn = insert_double(text, game.number, 2, leader, 2)
    call = only_call(replay_text(bad))
    assert (call.game, call.turn, call.player) == (game.number, turn, leader + 1)
    assert (call.kind, call.reason) == ("illegal_double", "dead_cube")


def test_injected_redouble_by_the_side_without_the_cube_is_called():
    """RULES 5.2: after A doubles and B takes, B owns the cube; A may not redouble."""
    text = (CORPUS / "match10013413.txt").read_text()
    t = parse_transcript(text)
    # game 2: Player 1 doubles at turn 3 and Player 2 takes; Player 1 owns nothing
    game = t.games[1]
    double = next(a for a in game.actions if a.kind == "double")
    assert (double.number, double.side) == (3, 0)
    lines = text.split("\n")
    index = next(i for i, j in enumerate(turn_lines(lines, 2)) if i > 4)
    bad, turn = insert_double(text, 2, index, 0, 4)
    call = only_call(replay_text(bad))
    assert (call.game, call.turn, call.player) == (2, turn, 1)
    assert (call.kind, call.reason) == ("illegal_double", "not_cube_owner")


def gammoncam(*args, cwd=ROOT):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "gammoncam", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_command_json_lines_and_exit_codes(tmp_path):
    text = (CORPUS / "match10013413.txt").read_text()
    clean = tmp_path / "clean.txt"
    clean.write_text(text)
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace(" 5) 32: 6/3 13/11", " 5) 42: 6/3 13/11", 1))

    ok = gammoncam("replay", "--json", str(clean))
    assert ok.returncode == 0, ok.stderr
    lines = [json.loads(line) for line in ok.stdout.splitlines()]
    assert lines == [{"summary": {"files": 1, "games": 5, "plays": lines[0]["summary"]["plays"],
                                  "cube_actions": lines[0]["summary"]["cube_actions"],
                                  "calls": 0, "warnings": 0}}]

    called = gammoncam("replay", "--json", str(clean), str(bad))
    assert called.returncode == 1
    lines = [json.loads(line) for line in called.stdout.splitlines()]
    assert lines[0] == {"file": str(bad), "game": 2, "turn": 5, "player": 1,
                        "kind": "illegal_play", "reason": lines[0]["reason"]}
    assert lines[-1]["summary"]["files"] == 2 and lines[-1]["summary"]["calls"] == 1

    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace(" 5) 32: 6/3 13/11", " 5) 32: 6/3 13/x", 1))
    unreadable = gammoncam("replay", "--json", str(clean), str(broken))
    assert unreadable.returncode == 2
    assert unreadable.stdout == ""
    message = unreadable.stderr.strip()
    assert "\n" not in message and "Traceback" not in message
    assert str(broken) in message and "line 34:" in message and "expected a move" in message


def test_quirks_of_real_files_are_warnings_not_crashes():
    """No newline at the end, '????', numbered empty turn lines, a capped Wins line."""
    name = "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt"
    text = (CORPUS / name).read_text()
    assert not text.endswith("\n") or text.rstrip("\n") != text
    replay = replay_text(text.rstrip("\n"), name)
    assert replay.calls == []
    assert [w.game for w in replay.warnings] == [2]


def test_a_money_profile_on_a_match_is_unreadable_input(tmp_path):
    clean = tmp_path / "clean.txt"
    clean.write_text((CORPUS / "match10013413.txt").read_text())
    assert gammoncam("replay", "--profile", "tournament", str(clean)).returncode == 0
    result = gammoncam("replay", "--profile", "money", str(clean))
    assert result.returncode == 2 and result.stdout == ""
    assert str(clean) in result.stderr and "money play only" in result.stderr


def test_a_game_joined_in_progress_replays_and_its_fouls_are_called():
    """A record begun mid-game (``; [Start ...]``, a camera that joined it): game 2 of a real
    match from its eighth play on replays without a call, to the same end as the whole game;
    a play made illegal after the start is called at its turn."""
    from engine.match import GameStart, MatchState, NewGame, Played
    from engine.transcript import session_transcript, write_transcript
    from gammoncam.referee import Referee

    referee = Replay("whole").run(parse_transcript((CORPUS / "match10013413.txt").read_text()))
    second, third = [k for k, e in enumerate(referee.events) if isinstance(e, NewGame)][1:3]
    state, plays, k = MatchState.new(referee.profile), 0, 0
    for k, event in enumerate(referee.events[:third]):
        state, _ = state.apply(event)
        plays += k > second and isinstance(event, Played)
        if plays == 8:
            break
    start = GameStart(state.position.swapped(), 1 - state.on_roll, state.cube, state.owner)
    joined = Referee(referee.profile)
    for event in [NewGame(score=state.score, start=start), *referee.events[k + 1:third]]:
        assert joined.submit(event).accepted
    end = MatchState.new(referee.profile)
    for event in referee.events[:third]:
        end, _ = end.apply(event)
    assert joined.state.score == end.score and joined.state.result == end.result
    text = write_transcript(session_transcript(joined.profile, joined.events))
    assert f'; [Start "{start}"]' in text
    again = replay_text(text)
    assert again.calls == [] and again.summary["games"] == 1
    assert "  1)                             41: 24/20 8/7*\n" in text  # Player 2 on roll at the start
    call = only_call(replay_text(text.replace(" 41: 24/20 8/7*", " 42: 24/20 8/7*")))
    assert (call.game, call.turn, call.player, call.kind) == (1, 1, 2, "illegal_play")


def test_a_game_with_no_result_ends_unseen_and_the_next_is_judged():
    """A record whose game stops with no result (a watched game whose end no camera saw, a
    resignation agreed at the table) and goes on with the next game: a warning, and the next
    game is judged from its own opening (before: its plays were judged on the unfinished
    game's board, and its illegal play went uncalled)."""
    text = ("5 point match\n\n Game 1\n a : 0                       b : 0\n"
            "  1) 31: 8/5 6/5              52: 13/11 13/8\n\n Game 2\n a : 0                       b : 0\n"
            "  1) 31: 8/5 6/5              52: 13/11 13/8\n")
    replay = replay_text(text)
    assert replay.calls == [] and [w.text for w in replay.warnings] == ["game 1 has no result: taken as ended unseen"]
    call = only_call(replay_text(text.replace("Game 2\n a : 0                       b : 0\n  1) 31: 8/5 6/5",
                                              "Game 2\n a : 0                       b : 0\n  1) 31: 8/4 6/5")))
    assert (call.game, call.turn, call.player, call.kind) == (2, 1, 1, "illegal_play")


def test_the_page_names_the_crawford_game_and_counts_each_games_turns():
    """RULES 6.2 on the page: a 5-point match at 0-0, 2-0, then 4-0: the third game is the
    Crawford game, the fourth and fifth come after it (``feed_state``'s ``crawford``). Its
    ``turn`` is the transcript's move number in the game on view, and a tournament's players
    are shown no pip counts (web_ui/SCHEMA.md)."""
    from engine.match import NewGame
    from gammoncam.referee import Referee
    from gammoncam.replay import transcript_profile
    from gammoncam.watch import feed_state

    transcript = parse_transcript((CORPUS / "match10329741.txt").read_text(encoding="utf-8"))
    assert [g.score for g in transcript.games] == [(0, 0), (2, 0), (4, 0), (4, 1), (4, 2)]
    referee, at_new_games = Referee(transcript_profile(transcript)), []
    for event in Replay("match10329741.txt").run(transcript).events:
        referee.submit(event)
        if isinstance(event, NewGame):
            state = feed_state(referee)
            at_new_games.append((state["crawford"], state["turn"], state["pips"]))
    assert at_new_games == [(flag, 0, None) for flag in ("pre", "pre", "crawford", "post", "post")]
    end = feed_state(referee)
    # the session's transcript of the last game ends " 17)  Wins 2 point and the match"
    assert end["turn"] == 17 and len(end["plays"]) > 17
    assert {"game": 2, "turn": 7, "player": 1, "dice": [4, 4], "play": ""} in end["plays"]  # a dance


def test_pips_are_shown_in_money_play_only():
    from engine.match import NewGame, OpeningThrow
    from engine.profiles import profile
    from gammoncam.referee import Referee
    from gammoncam.watch import feed_state

    for name, pips in (("money", {"1": 167, "2": 167}), ("tournament", None)):
        referee = Referee(profile(name))
        referee.submit(NewGame())
        referee.submit(OpeningThrow(3, 1))
        assert feed_state(referee)["pips"] == pips
