"""gammoncam synth images|video|sheet: files written, bad input refused with exit status 2."""

import json
from pathlib import Path

import cv2

from gammoncam.cli import main
from vision.synth.transcript import selfplay_turns
from vision.synth.video import Turn, game_events, write_video

TRANSCRIPT = """ 3 point match

 Game 1
 lasse : 0                       mglough : 0
  1)                             51: 24/23 13/8
  2) 21: 13/11 24/23             22: 6/4 6/4 13/11 13/11
  3)  Doubles => 2                Takes
  4) 62: 24/18* 13/11            31: 25/22 6/5
"""


def test_images(tmp_path):
    assert main(["synth", "images", "--n", "3", "--seed", "4", "--out", str(tmp_path), "--size", "320x180",
                 "--workers", "1"]) == 0
    names = sorted(p.stem for p in (tmp_path / "images").iterdir())
    assert names == ["000000", "000001", "000002"]
    for name in names:
        assert (tmp_path / "labels" / f"{name}.txt").read_text().startswith("0 ")  # the board first
        truth = json.loads((tmp_path / "truth" / f"{name}.json").read_text())
        assert {"board", "recognized", "corners", "points", "camera"} <= set(truth)
    assert "kpt_shape: [4, 3]" in (tmp_path / "data.yaml").read_text()


def test_images_in_the_bear_off_fill_the_trays(tmp_path):
    """``--bear-off 1``: every board in the bear-off, all checkers home, some borne off."""
    assert main(["synth", "images", "--n", "4", "--seed", "4", "--out", str(tmp_path), "--size", "320x180",
                 "--workers", "1", "--bear-off", "1"]) == 0
    for path in sorted((tmp_path / "truth").iterdir()):
        board = json.loads(path.read_text())["board"]
        assert sum(board["player"][6:]) + sum(board["opponent"][6:]) + board["player_bar"] == 0
    offs = [json.loads(p.read_text())["recognized"]["off"] for p in (tmp_path / "truth").iterdir()]
    assert sum(off["light"] + off["dark"] for off in offs) > 0


def test_bad_input(tmp_path, capsys):
    assert main(["synth", "images", "--n", "0", "--seed", "1", "--out", str(tmp_path)]) == 2
    assert main(["synth", "images", "--n", "2", "--seed", "1", "--out", "/proc/nowhere/x"]) == 2
    assert main(["synth", "images", "--n", "2", "--seed", "1", "--out", str(tmp_path), "--bear-off", "1.5"]) == 2
    assert main(["synth", "video", "--transcript", str(tmp_path / "missing.txt"), "--seed", "1",
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("gammoncam synth:") for line in err)
    assert "--bear-off must be a share between 0 and 1" in err[2]


def test_video_from_transcript(tmp_path, capsys):
    source = tmp_path / "m.txt"
    source.write_text(TRANSCRIPT)
    assert main(["synth", "video", "--transcript", str(source), "--seed", "2", "--out", str(tmp_path / "v"),
                 "--size", "320x180", "--fps", "4"]) == 0
    frames = [json.loads(line) for line in (tmp_path / "v" / "frames.jsonl").read_text().splitlines()]
    cap = cv2.VideoCapture(str(tmp_path / "v" / "game.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == len(frames) > 10
    rolling = [f for f in frames if f["event"] == "throw_rolling"]
    assert rolling and all(f["recognized"]["dice"] == [] for f in rolling)
    assert {tuple(sorted(f["recognized"]["dice"])) for f in frames if f["event"] == "throw_at_rest"} == \
        {(1, 5), (1, 2), (2, 2), (2, 6), (1, 3)}
    # Light (player 1, the left column) doubled, dark took: dark owns the cube at 2.
    assert frames[-1]["recognized"]["cube"] == {"value": 2, "location": "dark"}
    # Dark's 25/22 has no checker on the bar to move: the board stays legal, the frame says why,
    # and so does a one-line warning, for whoever injected the play to see the video differs.
    assert any("no checker there" in f["event"] for f in frames)
    warned = [line for line in capsys.readouterr().err.splitlines() if line.startswith("gammoncam synth:")]
    assert len(warned) == 1 and warned[0].startswith("gammoncam synth: warning: dark's move 25/22 at ")
    assert frames[-1]["board"]["variant"] == "backgammon" and frames[-1]["recognized"]["bar"]["dark"] == 0
    assert (tmp_path / "v" / "stage.json").exists()


def test_video_renders_illegal_plays(tmp_path):
    # Light moves onto dark's made 6 point (light's 19): rendered as told, a mixed stack.
    events = game_events("backgammon", [Turn("light", (6, 5), [(24, 19)])])
    write_video(events, Path(tmp_path), seed=1, variant="backgammon", size=(320, 180), fps=4, progress=False)
    last = json.loads((tmp_path / "frames.jsonl").read_text().splitlines()[-1])
    top = last["recognized"]["top"]
    assert top[6] == ["light", 6]   # light's 19 = top slot 6, 5 dark + 1 light on top


def test_video_renders_a_throw_that_does_not_count_and_the_throw_again(tmp_path):
    """RULES 2.3: a die cocked is picked up and both dice thrown again before the play."""
    turns = [Turn("light", (3, 1), [(8, 5), (6, 5)]), Turn("dark", (6, 4), [(24, 18), (13, 9)])]
    events = game_events("backgammon", turns, rerolls={1: ("cocked", (2, 2))})
    write_video(events, Path(tmp_path), seed=4, variant="backgammon", size=(320, 180), fps=4, progress=False)
    frames = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    throws = []
    for f in frames:
        if f["event"] == "throw_at_rest" and (not throws or throws[-1] != f["throw"]):
            throws.append(f["throw"])
    assert [(t["dice"], t["valid"], t["invalid"]) for t in throws] == [
        ([3, 1], True, None), ([2, 2], False, "cocked"), ([6, 4], True, None)]


def test_synth_video_rerolls_option(tmp_path, capsys):
    source = tmp_path / "m.txt"
    source.write_text(TRANSCRIPT)
    assert main(["synth", "video", "--transcript", str(source), "--seed", "2", "--out", str(tmp_path / "v"),
                 "--rerolls", "-1"]) == 2
    assert "--rerolls" in capsys.readouterr().err


def test_long_nardy_video_of_a_game_played_by_the_engine(tmp_path):
    assert main(["synth", "video", "--selfplay", "long", "--seed", "3", "--max-turns", "3",
                 "--out", str(tmp_path / "v"), "--size", "320x180", "--fps", "4"]) == 0
    frames = [json.loads(line) for line in (tmp_path / "v" / "frames.jsonl").read_text().splitlines()]
    assert frames[0]["board"]["variant"] == "long"
    played = selfplay_turns("long", 3, 3)
    assert {tuple(sorted(f["recognized"]["dice"])) for f in frames if f["event"] == "throw_at_rest"} == \
        {tuple(sorted(t.dice)) for t in played}


def test_synth_video_puts_a_foul_right(tmp_path, capsys):
    """RULES 7.2: light's 3-1 played 8/5 6/4 in the edited transcript is put right to the
    original's 8/5 6/5 once the dice are picked up: the last frame shows the original's board.
    Light's 2-1 played 13/7* (a 6 for a 2-1, hitting dark's blot) is taken back, the blot coming
    back from the bar, and put right to 13/11 24/23. A transcript whose turns are not the same
    is no original: refused with one line and exit status 2."""
    original = """ 1 point match

 Game 1
 a : 0                           b : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 21: 13/11 24/23
"""
    texts = {"original": original, "edited": original.replace("6/5   ", "6/4   "),
             "hit": original.replace("13/11 24/23", "13/7*"), "other": original.replace("31:", "42:")}
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text)

    def video(name, put_right=None):
        extra = ["--put-right", str(tmp_path / f"{put_right}.txt")] if put_right else []
        return main(["synth", "video", "--transcript", str(tmp_path / f"{name}.txt"), "--seed", "2",
                     "--out", str(tmp_path / name), "--size", "320x180", "--fps", "4", *extra])

    assert video("original") == 0 and video("edited", put_right="original") == 0
    assert video("hit", put_right="original") == 0
    frames = {name: [json.loads(line) for line in (tmp_path / name / "frames.jsonl").read_text().splitlines()]
              for name in ("original", "edited", "hit")}
    assert frames["edited"][-1]["board"] == frames["original"][-1]["board"]
    assert frames["hit"][-1]["board"] == frames["original"][-1]["board"]
    assert any(f["board"]["opponent_bar"] == 1 or f["board"]["player_bar"] == 1 for f in frames["hit"])
    capsys.readouterr()
    assert video("other", put_right="original") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not the same turn" in err[0]


def test_synth_video_doubles_after_a_throw(tmp_path, capsys):
    """RULES 5.2: at turn 2 dark throws 6-4, then turns the cube to 2 and lays it at light's
    side with the dice at rest, puts it back as it lay (the double called) and plays: the truth
    shows the cube offered while the throw lies there, then back in the middle at 1 before dark's
    first checker moves. A turn that is not a throw is refused with one line and exit status 2."""
    text = """ 1 point match

 Game 1
 a : 0                           b : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
"""
    (tmp_path / "game.txt").write_text(text)

    def video(turn):
        return main(["synth", "video", "--transcript", str(tmp_path / "game.txt"), "--seed", "2", "--out",
                     str(tmp_path / str(turn)), "--size", "320x180", "--fps", "4", "--double-after-throw", str(turn)])

    assert video(2) == 0
    frames = [json.loads(line) for line in (tmp_path / "2" / "frames.jsonl").read_text().splitlines()]
    offered = [f for f in frames if f["cube"] and f["cube"]["value"] == 2]
    assert offered and all(f["cube"]["location"] == "light" and sorted(f["throw"]["dice"]) == [4, 6] for f in offered)
    first_move = next(i for i, f in enumerate(frames) if f["event"].startswith("move") and f["mover"] == "dark")
    assert frames[first_move]["cube"] == {"value": 1, "location": "middle", "spot": "bar_middle"}
    assert frames.index(offered[-1]) < first_move
    capsys.readouterr()
    assert video(3) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "turn 3 is not a throw" in err[0]
