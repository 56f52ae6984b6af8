"""``gammoncam export``: a referee log read back as the transcript watch wrote, and event by
event with each verdict and the position's IDs (RULES 9); ``gammoncam amend``: a roll the log
recorded wrong, amended by an official."""

import json
from pathlib import Path

from engine.match import event_to_json
from engine.profiles import profile
from gammoncam.cli import main
from gammoncam.referee import Referee

DATA = Path(__file__).resolve().parent.parent / "tracker" / "data"


def test_a_watched_log_exports_the_transcript_watch_wrote_and_every_event(tmp_path, capsys):
    log, seen = tmp_path / "log.sqlite", tmp_path / "seen.mat"
    assert main(["watch", "--video", str(DATA / "clip.mp4"), "--truth", str(DATA / "clip_truth.jsonl"),
                 "--corners-file", str(DATA / "stage.json"), "--match", "3", "--log", str(log),
                 "--transcript-out", str(seen)]) == 0
    capsys.readouterr()
    assert main(["export", str(log)]) == 0
    assert capsys.readouterr().out == seen.read_text()
    assert main(["export", str(log), "--format", "jsonl", "--out", str(tmp_path / "events.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    with Referee.open(log) as ref:  # the log is read, not changed
        assert [r["event"] for r in records] == [event_to_json(e) for e in ref.events]
    assert all(r["verdict"]["accepted"] for r in records)
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    plays = [r for r in records if r["event"]["event"] == "play"]
    assert plays[0]["verdict"]["play"] == "24/23 13/8"
    assert all(r["after"]["gnubg_id"].count(":") == 1 and r["after"]["xgid"].startswith("XGID=") for r in plays)


def test_the_notes_for_the_official_come_after_the_event_they_followed(tmp_path, capsys):
    from engine.match import NewGame, OpeningThrow, Played
    from engine.position import Position

    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=3)) as ref:
        ref.note({"t": 0.4, "what": "cube turned before the opening throw was seen"})
        ref.submit(NewGame())
        ref.submit(OpeningThrow(4, 3))
        ref.note({"t": 9.0, "player": 1, "what": "the play is a 4-3's, the dice were read 6-3: one die misread, "
                                                 "or a foul"})
        ref.submit(Played(Position.start().apply("13/9 13/10")))
    assert main(["export", str(log), "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("seq") or line["note"]["t"] for line in lines] == [0.4, 1, 2, 9.0, 3]
    assert lines[3]["note"] == {"after": 2, "t": 9.0, "player": 1,
                                "what": "the play is a 4-3's, the dice were read 6-3: one die misread, or a foul"}


def test_export_refuses_what_is_not_a_log_in_one_line(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not a log")
    for bad in ([str(tmp_path / "none.sqlite")], [str(tmp_path / "notes.txt")], [str(tmp_path)]):
        assert main(["export", *bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, err
    Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=3)).close()
    assert main(["export", str(tmp_path / "log.sqlite"), "--out", str(tmp_path / "no" / "dir.mat")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_a_roll_amended_after_the_watch_is_exported_amended_and_logged(tmp_path, capsys, dark_turn):
    """Dark's 13/8 was recorded as a 4-1 (a 3-2's play too: 13/10/8)."""
    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=3)) as ref:
        dark_turn(ref, (4, 1), "13/8")
    assert main(["amend", str(log), "--game", "1", "--turn", "1", "--player", "2", "--dice", "3-2",
                 "--by", "Chief TD"]) == 0
    assert capsys.readouterr().out == "game 1, turn 1, player 2: 3-2 (was 4-1), amended by Chief TD\n"
    assert main(["export", str(log)]) == 0
    assert "1) 31: 8/5 6/5                 32: 13/8\n  2) 52: ????" in capsys.readouterr().out
    assert main(["export", str(log), "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[3]["event"] == {"event": "throw", "die1": 4, "die2": 1, "valid": True}  # the events as seen
    assert lines[-1]["note"] == {"after": 6, "type": "amended", "seq": 4, "game": 1, "turn": 1, "player": 2,
                                 "dice": [3, 2], "was": [4, 1], "withdrawn": [], "foul": False, "called": [],
                                 "author": "Chief TD"}
    assert lines[3]["seq"] == 4  # the note names the event by the number the export gives it


def test_a_log_a_watch_writes_is_exported_but_not_amended_behind_its_back(tmp_path, capsys, dark_turn):
    """While a watch holds the log, an amendment or a result from the command line would go
    unseen by the watch, and an event it logged could take the number the watch's next one
    needs: both are refused in one line pointing to the watch's page; the record exports as it
    stands. Once the watch has stopped, the amendment is taken."""
    log = tmp_path / "log.sqlite"
    amend = ["amend", str(log), "--game", "1", "--turn", "1", "--player", "2", "--dice", "3-2"]
    with Referee.open(log, profile("tournament", match_length=3)) as watching:
        dark_turn(watching, (4, 1), "13/8")
        for words in (amend, ["result", str(log), "--game", "1", "--winner", "1", "--points", "1"]):
            assert main(words) == 2
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1 and "is writing this log" in err[0] and "referee page" in err[0], err
        assert main(["export", str(log)]) == 0
        assert "32: 13/8" not in capsys.readouterr().out  # nothing amended
        assert watching.notes == [] and len(watching.events) == 6
    assert main(amend) == 0
    assert "3-2 (was 4-1)" in capsys.readouterr().out


def test_an_amendment_refused_is_one_line_and_changes_nothing(tmp_path, capsys, dark_turn):
    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=3)) as ref:
        dark_turn(ref, (4, 1), "13/8")
    for dice, why in (("6-4", "13/8 is not a legal play of 6-4"), ("64x", "--dice must be two dice")):
        assert main(["amend", str(log), "--game", "1", "--turn", "1", "--player", "2", "--dice", dice]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and why in err[0], err
    assert main(["amend", str(tmp_path / "none.sqlite"), "--game", "1", "--turn", "1", "--player", "2",
                 "--dice", "3-2"]) == 2
    assert "no such file" in capsys.readouterr().err
    with Referee.open(log) as ref:
        assert ref.notes == [] and ref.record == ref.events


def test_a_log_whose_amendment_names_no_roll_is_refused_in_one_line(tmp_path, capsys, dark_turn):
    import sqlite3

    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=3)) as ref:
        dark_turn(ref, (4, 1), "13/8")
    with sqlite3.connect(log) as db:  # notes written by hand: one naming an event that is no throw, one none
        db.execute("CREATE TABLE IF NOT EXISTS notes(id INTEGER PRIMARY KEY, note TEXT NOT NULL)")
        db.execute("INSERT INTO notes(note) VALUES (?)", (json.dumps(
            {"after": 6, "type": "amended", "seq": 3, "game": 1, "turn": 1, "player": 2, "dice": [3, 2]}),))
    assert main(["export", str(log)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a note cannot be read" in err[0], err
    with sqlite3.connect(log) as db:
        db.execute("UPDATE notes SET note = ?", (json.dumps(
            {"after": 6, "type": "amended", "seq": 0, "game": 1, "turn": 1, "player": 2, "dice": [3, 2]}),))
    assert main(["export", str(log)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "names event 0" in err[0], err
    with sqlite3.connect(log) as db:  # a result stated for a throw, which ended no game
        db.execute("UPDATE notes SET note = ?", (json.dumps(
            {"after": 6, "type": "result", "seq": 4, "game": 1, "winner": 2, "points": 1}),))
    assert main(["export", str(log)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "event 4, which ended no game unseen" in err[0], err
    from engine.match import EndUnseen, NewGame, OpeningThrow

    ended = tmp_path / "ended.sqlite"  # a result noted before the game's end it names was logged
    with Referee.open(ended, profile("tournament", match_length=3)) as ref:
        for event in (NewGame(), OpeningThrow(3, 1), EndUnseen(), NewGame()):
            ref.submit(event)
    with sqlite3.connect(ended) as db:
        db.execute("INSERT INTO notes(note) VALUES (?)", (json.dumps(
            {"after": 1, "type": "result", "seq": 3, "game": 1, "winner": 2, "points": 1}),))
    assert main(["export", str(ended)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a note cannot be read" in err[0] and "names event 3" in err[0], err


def test_a_call_on_a_roll_misread_is_withdrawn_by_the_amendment(tmp_path, capsys, dark_turn):
    """Dark's 4-3 read 6-3, 13/9 13/10 called and left standing (a watch judges as `condone`):
    amended to 4-3 after the watch, the call is withdrawn and the transcript writes the 4-3."""
    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=3, condone=True)) as ref:
        assert not dark_turn(ref, (6, 3), "13/9 13/10").accepted
    assert main(["amend", str(log), "--game", "1", "--turn", "1", "--player", "2", "--dice", "4 3"]) == 0
    assert capsys.readouterr().out == ("game 1, turn 1, player 2: 4-3 (was 6-3), amended by referee; "
                                       "the call on event 5 withdrawn\n")
    assert main(["export", str(log)]) == 0
    assert "43: 13/10 13/9" in capsys.readouterr().out


def test_a_foul_the_watch_missed_is_recorded_by_the_amendment(tmp_path, capsys, dark_turn):
    """Dark's 13/8 was recorded as a 4-1's; the official saw 6-4 thrown, so 13/8 was a foul (RULES
    7.2) the watch could not tell from the dice: amended with --foul, the play is called in the
    log's note, the game goes on from the board as it stood, and the transcript writes the 6-4."""
    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=3, condone=True)) as ref:
        assert dark_turn(ref, (4, 1), "13/8").accepted
    amend = ["amend", str(log), "--game", "1", "--turn", "1", "--player", "2", "--dice", "6-4", "--by", "TD"]
    assert main(amend) == 2
    assert "amend it as a foul" in capsys.readouterr().err
    assert main([*amend, "--foul"]) == 0
    assert capsys.readouterr().out == ("game 1, turn 1, player 2: 6-4 (was 4-1), amended by TD; event 5 called: "
                                       "No play of these dice leads from the position before to the position after.\n")
    assert main(["export", str(log)]) == 0
    assert "1) 31: 8/5 6/5                 64: 13/8\n  2) 52: ????" in capsys.readouterr().out
    with Referee.open(log) as ref:
        assert [(c["seq"], c["reason"]) for c in ref.notes[-1]["called"]] == [(5, "no_such_play")]
    assert main([*amend[:-4], "--dice", "3-2", "--foul"]) == 2  # 13/8 is a 3-2's legal play: no foul
    assert "no foul to record" in capsys.readouterr().err


def test_a_result_stated_after_the_watch_is_exported_and_logged(tmp_path, capsys):
    """Game 1 ended unseen (a resignation agreed at the table); the watch stopped in game 2 with
    its game still in progress. The official states both results afterwards: game 1 (dark, 2
    points), then the game the log holds in progress (light, 1 point), which ends it. The
    transcript writes both and the score; a refused statement is one line and changes nothing."""
    from engine.match import EndUnseen, NewGame, OpeningThrow, Played
    from engine.position import Position

    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=5)) as ref:
        for event in (NewGame(), OpeningThrow(3, 1), Played(Position.start().apply("8/5 6/5")), EndUnseen(),
                      NewGame(), OpeningThrow(5, 2)):
            ref.submit(event)
    for args, why in ((["--game", "3", "--winner", "1", "--points", "1"], "game 3: the record has 2 game(s)"),
                      (["--game", "1", "--winner", "2", "--points", "5"], "win player 2 the match"),
                      (["--game", "1", "--winner", "2", "--points", "0"], "a game scores 1 to 192 points")):
        assert main(["result", str(log), *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and why in err[0], err
    with Referee.open(log) as ref:
        assert ref.notes == [] and len(ref.events) == 6
    assert main(["result", str(log), "--game", "1", "--winner", "2", "--points", "2", "--by", "Chief TD"]) == 0
    assert capsys.readouterr().out == "game 1: player 2 won 2 point(s), stated by Chief TD; the score is 0-2\n"
    assert main(["result", str(log), "--game", "2", "--winner", "1", "--points", "1", "--by", "Chief TD"]) == 0
    assert capsys.readouterr().out == "game 2: player 1 won 1 point(s), stated by Chief TD; the score is 1-2\n"
    assert main(["export", str(log)]) == 0
    text = capsys.readouterr().out
    assert "  1) 31: 8/5 6/5                  Wins 2 point\n" in text
    assert " Game 2\n Light : 0                       Dark : 2\n  1) 52: ????\n  2)  Wins 1 point\n" in text
    assert main(["export", str(log), "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[3]["event"] == {"event": "end_unseen", "winner": None, "points": None}  # as seen
    assert [n["note"]["seq"] for n in lines if "note" in n] == [4, 7]
    assert lines[-2]["after"]["score"] == [1, 2]  # the game on hand ended with the result stated


def test_a_result_stated_that_makes_a_double_illegal_says_so(tmp_path, capsys):
    """RULES 6.2: dark's 4 points for game 1 (ended unseen) make game 2, where dark doubled and
    light took, the Crawford game: the double is called and said so; stated again for 1 point, the
    call is withdrawn."""
    from engine.match import Double, EndUnseen, NewGame, OpeningThrow, Played, Take
    from engine.position import Position

    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=5)) as ref:
        for event in (NewGame(), OpeningThrow(3, 1), EndUnseen(), NewGame(), OpeningThrow(5, 2),
                      Played(Position.start().apply("13/8 13/11")), Double(), Take()):
            ref.submit(event)
    assert main(["result", str(log), "--game", "1", "--winner", "2", "--points", "4", "--by", "TD"]) == 0
    assert capsys.readouterr().out == ("game 1: player 2 won 4 point(s), stated by TD; the score is 0-4; "
                                       "event 7 called: No doubling in the Crawford game.\n")
    assert main(["result", str(log), "--game", "1", "--winner", "2", "--points", "1", "--by", "TD"]) == 0
    assert capsys.readouterr().out == ("game 1: player 2 won 1 point(s) (was player 2, 4 point(s)), stated by TD; "
                                       "the score is 0-1; the call on event 7 withdrawn\n")


def test_a_double_stated_after_the_watch_is_exported_and_logged(tmp_path, capsys):
    """Dark's double before their 6-4, taken, went unseen; light then doubled and dark dropped, so
    the record gave light 1 point. The official states dark's double afterwards: light's double
    was a redouble to 4 and the drop scores 2 (RULES 5.3). The transcript writes the double and
    take before the 6-4; the log keeps the note; a double the record cannot take is one line and
    changes nothing."""
    from engine.match import Double, Drop, NewGame, OpeningThrow, Played, Throw
    from engine.position import Position

    log = tmp_path / "log.sqlite"
    opened = Position.start().apply("8/5 6/5")
    with Referee.open(log, profile("tournament", match_length=5)) as ref:
        for event in (NewGame(), OpeningThrow(3, 1), Played(opened), Throw(6, 4),
                      Played(opened.swapped().apply("24/18 13/9")), Double(), Drop()):
            ref.submit(event)
        assert ref.state.score == (1, 0)
    for args, why in ((["--turn", "1", "--player", "1"], "no double comes before the opening throw"),
                      (["--turn", "2", "--player", "2"], "the record has no roll of player 2 there"),
                      (["--game", "2", "--turn", "1", "--player", "2"], "the record has no roll of player 2")):
        assert main(["double", str(log), *(["--game", "1"] if "--game" not in args else []), *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and why in err[0], err
    with Referee.open(log) as ref:
        assert ref.notes == []
    assert main(["double", str(log), "--game", "1", "--turn", "1", "--player", "2", "--by", "Chief TD"]) == 0
    assert capsys.readouterr().out == ("game 1, turn 1: player 2 doubled to 2 and player 1 took, stated by Chief TD; "
                                       "the score is 2-0\n")
    assert main(["export", str(log)]) == 0
    assert ("  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes                      64: 24/18 13/9\n"
            "  3)  Doubles => 4                Drops\n  4)  Wins 2 point\n") in capsys.readouterr().out
    assert main(["export", str(log), "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(n["note"]["type"], n["note"]["seq"], n["note"]["author"]) for n in lines if "note" in n] == \
        [("double", 4, "Chief TD")]
    assert main(["double", str(log), "--game", "1", "--turn", "2", "--player", "2"]) == 2
    assert "already has player 2's double there" in capsys.readouterr().err
