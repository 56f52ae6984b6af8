"""How the settle gate (:class:`vision.motion.SettleGate`) does on rendered videos, against the truth.

Every frame of each video goes through the gate, with the field's corners from the render's
``stage.json``, as ``gammoncam watch`` runs it; the render's ``frames.jsonl`` says what moved.
Counted per video:

- *settles*: frames where the board became settled (the frames the watch reads);
- *while moving*: settles on a frame where, on it or the next, something moved on the board in
  the truth (within the gate's view: a die or the cube moved more than half a pixel, a checker
  carried, dice still rolling). Those are the readings the tracker must not trust;
- *rests* and *rests missed*: stretches of half a second or more with nothing moving and no hand
  in view, and those in which the board never settled (a throw or a play the watch never reads).

A settle with a hand at rest over the board, nothing else moving, is no fault: the gate takes
a still hand after ``hand_quiet_s``.

    PYTHONPATH=. python bench/settle_gate.py runs/suite/vid9924 runs/suite/vid9950 --condition dim
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from vision.conditions import CONDITIONS, apply  # noqa: E402
from vision.motion import SettleGate, expand  # noqa: E402

REST_S = 0.5  # a stretch this long with nothing moving is a rest the gate should take


def moved(before: dict, after: dict, view: np.ndarray) -> list[str]:
    """What moved on the board between two truth frames, within the gate's ``view`` (image
    pixels): ``["rolling"]``, ``["carried"]`` and each object moved, with how far."""
    out = ["rolling"] * after["throw"]["rolling"] + ["carried"] * bool(after["held"])
    boxes = {(o["class"], k): o["box"] for k, o in enumerate(before["objects"])
             if o["class"] != "hand" and o.get("box")}
    for k, o in enumerate(after["objects"]):
        was = boxes.get((o["class"], k))
        if was is None or not o.get("box"):
            continue
        centre = ((o["box"][0] + o["box"][2]) / 2, (o["box"][1] + o["box"][3]) / 2)
        far = max(abs(a - b) for a, b in zip(was, o["box"]))
        if far > 0.5 and cv2.pointPolygonTest(view, centre, False) >= 0:
            out.append(f"{o['class']} {far:.1f} px")
    return out


def follow(video_dir: Path, condition: str | None) -> dict:
    """The gate run over one rendered video: its settles against the truth."""
    truths = [json.loads(line) for line in open(video_dir / "frames.jsonl")]
    corners = np.array(json.loads((video_dir / "stage.json").read_text())["field"], float)
    cap = cv2.VideoCapture(str(video_dir / "game.mp4"))
    gate = SettleGate(corners, fps=cap.get(cv2.CAP_PROP_FPS))
    view = expand(corners, gate.margin).astype(np.float32)
    motion = [[]] + [moved(a, b, view) for a, b in zip(truths, truths[1:])]
    settled, moving_settles, settles = [], [], 0
    for k, truth in enumerate(truths):
        ok, image = cap.read()
        if not ok:
            break
        if condition:
            image, _ = apply(condition, image, {"field": corners.tolist(), "objects": []})
        reading = gate(image)
        settled.append(reading.settled)
        if reading.settled_now:
            settles += 1
            what = motion[k] + (motion[k + 1] if k + 1 < len(motion) else [])
            if what:
                moving_settles.append({"t": round(truth["time"], 2), "moved": what[:3]})
    rests, missed, start = 0, [], None
    for k in range(len(settled) + 1):
        quiet = k < len(settled) and not motion[k] and not truths[k]["hands"]
        if quiet and start is None:
            start = k
        elif not quiet and start is not None:
            if truths[k - 1]["time"] - truths[start]["time"] >= REST_S:
                rests += 1
                if not any(settled[start:k]):
                    missed.append(round(truths[start]["time"], 2))
            start = None
    return {"video": video_dir.name, "condition": condition, "frames": len(settled), "settles": settles,
            "while_moving": len(moving_settles), "rests": rests, "rests_missed": len(missed),
            "first_while_moving": moving_settles[:4], "first_missed": missed[:4]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("videos", nargs="+", type=Path, help="directories written by `gammoncam synth video`")
    ap.add_argument("--condition", choices=sorted(CONDITIONS), help="a camera or room condition put on each frame")
    args = ap.parse_args()
    totals = {"settles": 0, "while_moving": 0, "rests": 0, "rests_missed": 0}
    for video in tqdm(args.videos, desc="videos", unit="video"):
        report = follow(video, args.condition)
        print(json.dumps(report), flush=True)
        for key in totals:
            totals[key] += report[key]
    print(json.dumps({"video": "all", "condition": args.condition, **totals}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
