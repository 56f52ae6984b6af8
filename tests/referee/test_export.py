"""``gammoncam export``: a referee log read back as the transcript watch wrote, and event by
event with each verdict and the position's IDs (RULES 9)."""

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
