"""The bundled demo followed by the trained recognizer (no oracle), as `gammoncam demo` runs it.

demo/make_demo.py says what the video holds: a 3 point match whose game 1 has dark's illegal
2-2 (6/3 with a 2, RULES 3.1) and ends in a drop, and whose game 2 has a double on a dead cube
(RULES 6.3) at 0-1 with the cube on 2.
"""

import json
from pathlib import Path

from gammoncam.cli import main

DEMO = Path(__file__).resolve().parents[2] / "demo"


def test_the_text_output_says_what_to_look_at_again(capsys):
    """Without --json a moment the tracker was unsure of reads as one line for the official."""
    from argparse import Namespace

    from gammoncam.commands.watch_cmds import _printer

    _printer(Namespace(json=False))({"t": 77.6, "frame": 1164, "type": "unclear", "player": 1,
                                     "what": "the play fits 2-1, a roll the dice were read less likely to show than 1-1"})
    assert capsys.readouterr().out == ("   77.60s  SECOND LOOK (player 1): the play fits 2-1, a roll the dice were "
                                       "read less likely to show than 1-1\n")
    _printer(Namespace(json=False))({"t": 97.0, "frame": 1455, "type": "dice_misread", "player": 2,
                                     "what": "the play is a 4-3's, the dice were read 6-3: one die misread, or a foul",
                                     "dice": [6, 3], "foul_if_read": True, "probability": 0.93, "px": 26})
    assert capsys.readouterr().out == ("   97.00s  SECOND LOOK (player 2) (could hide a foul): the play is a 4-3's, "
                                       "the dice were read 6-3: one die misread, or a foul\n")


def test_the_demo_is_followed_from_its_frames(tmp_path, capsys):
    """Watched in silent mode (RULES 7.3): the calls are made and logged, each marked silent."""
    from gammoncam.referee import Referee

    meta = json.loads((DEMO / "demo.json").read_text())
    corners = ",".join(str(v) for xy in meta["field"] for v in xy)
    code = main(["watch", "--video", str(DEMO / "demo.mp4"), "--corners", corners, "--match", "3", "--json",
                 "--mode", "silent", "--log", str(tmp_path / "log.sqlite"),
                 "--transcript-out", str(tmp_path / "seen.mat")])
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert code == 1  # something was called
    calls = [(e["player"], e["reason"], e["game"], e["turn"], e["silent"]) for e in events if e["type"] == "call"]
    # the transcript's game and turn
    assert calls == [(2, "no_such_play", 1, 2, True), (2, "dead_cube", 2, 3, True)]
    with Referee.open(tmp_path / "log.sqlite") as log:
        assert log.mode == "silent" and [r.reason for _, r in log.calls] == ["no_such_play", "dead_cube"]
    legal = [(e["player"], e["dice"], e["play"]) for e in events if e["type"] == "play" and "play" in e]
    assert legal == [(2, [5, 1], "24/23 13/8"), (1, [2, 1], "24/23 13/11"), (1, [5, 5], "23/13 6/1* 6/1"),
                     (1, [3, 1], "8/5 6/5"), (2, [6, 4], "24/18 13/9"), (1, [2, 1], "24/23 13/11"),
                     (2, [3, 2], "13/11 13/10")]
    kinds = [e["type"] for e in events if e["type"] in ("game_start", "double", "take", "drop")]
    assert kinds == ["game_start", "double", "drop", "game_start", "double", "take", "double"]


def test_the_readme_s_first_command_runs_through_and_exits_0(capsys):
    """`gammoncam demo` (served page, video at full speed): its calls are the demo, not a failure."""
    code = main(["demo", "--no-browser", "--speed", "0", "--port", "0", "--json"])
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert code == 0
    assert [(e["reason"], e["silent"]) for e in events if e["type"] == "call"] == [("no_such_play", False),
                                                                                  ("dead_cube", False)]
