"""How the calibration from a game in progress does on rendered games' mid-game frames.

For each rendered game directory (``gammoncam synth video`` output: game.mp4, frames.jsonl,
stage.json), ``--per-game`` frames are taken evenly between 20% and 90% of the video among those
whose truth shows the board at rest with no hand over it and no dice thrown; each is calibrated
(:func:`vision.adapt.calibrate`) from the field's corners given upside down, as a camera joining
mid-game would have them, and counted: accepted the right way round, accepted wrong (the record
would follow a board turned round: never acceptable), rejected; and of those accepted, how many
on the reading the fifteen checkers a side pin down (fewer than all but two locations sure).

    PYTHONPATH=. python bench/calibration_in_play.py runs/suite/vid* [--per-game 4]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def still_frames(vdir: Path, per_game: int) -> list[int]:
    """Indexes of ``per_game`` frames at rest, hands away, no dice, spread over 20-90% of the game."""
    truth = [json.loads(line) for line in open(vdir / "frames.jsonl")]
    n = len(truth)
    calm = [k for k in range(int(0.2 * n), int(0.9 * n))
            if truth[k]["event"] == "rest" and not truth[k]["hands_cover_board"] and not truth[k]["hands"]
            and not (truth[k].get("throw") or {}).get("dice")]
    if not calm:
        return []
    return sorted({calm[int(i * (len(calm) - 1) / max(per_game - 1, 1))] for i in range(per_game)})


def frame_at(video: Path, index: int) -> np.ndarray | None:
    cap = cv2.VideoCapture(str(video))
    cap.set(cv2.CAP_PROP_POS_FRAMES, index)
    ok, image = cap.read()
    cap.release()
    return image if ok else None


def main() -> int:
    from vision.adapt import TOLERANCE, calibrate
    from vision.recognize import Recognizer

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="rendered game directories")
    ap.add_argument("--per-game", type=int, default=4)
    args = ap.parse_args()
    model = Recognizer().checker_model
    counts = {"right": 0, "wrong": 0, "rejected": 0, "pinned": 0}
    wrong = []
    jobs = [(Path(g), k) for g in args.games for k in still_frames(Path(g), args.per_game)]
    for vdir, k in tqdm(jobs, desc="frames", unit="frame"):
        stage = json.loads((vdir / "stage.json").read_text())
        image = frame_at(vdir / "game.mp4", k)
        if image is None:
            continue
        field = np.array(stage["field"], np.float64)
        cal = calibrate(image, np.roll(field, 2, axis=0), stage["variant"], model)
        if not cal.accepted:
            counts["rejected"] += 1
        elif np.abs(cal.corners - field).max() < 1e-6:
            counts["right"] += 1
            counts["pinned"] += cal.in_play and cal.matches < 26 - TOLERANCE
        else:
            counts["wrong"] += 1
            wrong.append(f"{vdir.name}:{k}")
    print(json.dumps({"frames": len(jobs), **counts, "accepted_wrong_at": wrong}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
