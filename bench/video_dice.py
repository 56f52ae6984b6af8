"""How the dice reader does on rendered *videos* (compressed, lit and sized as a game is), by die size.

For every fourth frame of each video whose dice lie at rest with no hand over the board, the
recognizer reads the frame (corners from the render's ``stage.json``, thrower known) and each
die it finds on a true die is scored: read surely (the reader's likeliest face 0.8 or surer,
``vision.dice.SURE_DIE``), read surely and wrong, and the true face ruled out (the reader gave
it under 0.02, which :func:`vision.dice.honest` takes as 0.0008 likely: a foul could be called
on it). Dice sizes are the width of 0.067 field units (a die) in image pixels where the die lies.
The dice read surely and wrong are counted by true face and face read as well ("4->6": which faces
the reader takes for which, ``gammoncam.readings.TWIN_FACES``).

By the resolution it is read at (the reading crop's side in the frame's pixels,
:func:`vision.dice.crop_px`), each die *at rest* (the frames of one throw's die lying still are
one die) is counted once, with whether some look read it surely with its true face ruled out,
whether every look did (the watch keeps possible a roll any look read,
``gammoncam.readings.DiceReading.rolls_read``), and whether the face read was the true face's
twin (a 4 for a 6 or a 6 for a 4, ``gammoncam.readings.TWIN_FACES``, kept possible however
surely read): under ``gammoncam.readings.LEGIBLE_PX`` the watch calls no foul a misread of one
die could explain.

A die read right is not enough for the watch, so each frame with both dice in view (neither
cocked) is also scored as the watch takes a throw (``gammoncam.readings.read_dice``): recorded
at once (its roll at least ``gammoncam.tracker.HOLD`` likely and surely counting; and then right
or wrong), held till its play tells the roll, or only glimpsed (a face read under 0.6, or not two
dice found), which the watch uses only to tell a turn it missed. A reader that read more dice
right lost turns in the watch where a throw the shipped one held became a glimpse
(``models/dice.md``, twelfth stop).

    PYTHONPATH=. python bench/video_dice.py /work/data_vision/vid7312 /work/data_vision/vid7305 ...
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

from gammoncam.readings import TWIN_FACES, DiceReading, read_dice  # noqa: E402
from gammoncam.tracker import HOLD  # noqa: E402
from vision.dice import SURE_DIE, DiceReader, crop_px  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.rectify import Field  # noqa: E402

SIZES = (0, 12, 14, 16, 18, 20, 24, 28, 40, 10_000)
CROPS = (0, 24, 26, 28, 30, 36, 10_000)  # reading crops, frame pixels


def die_width_px(field: Field, uv) -> float:
    """A die's width in image pixels where it lies (the longer of its two field-aligned sides)."""
    u, v = uv
    a, b, c, d = field.to_image([[u - 0.0335, v], [u + 0.0335, v], [u, v - 0.043], [u, v + 0.043]])
    return float(max(np.hypot(*(a - b)), np.hypot(*(c - d))))


def reads(video_dir: Path, rec: Recognizer, every: int = 4) -> tuple[list[dict], list[dict]]:
    """Every die found on a true die at rest, with its true face and size; and every throw at rest
    with both dice in view, as the watch would take it (recorded at once, and right)."""
    field_corners = np.array(json.loads((video_dir / "stage.json").read_text())["field"])
    truths = [json.loads(line) for line in open(video_dir / "frames.jsonl")]
    cap = cv2.VideoCapture(str(video_dir / "game.mp4"))
    out, throws = [], []
    for i, truth in enumerate(truths):
        ok, image = cap.read()
        if not ok:
            break
        throw = truth["throw"]
        if i % every or not throw["dice"] or throw["rolling"] or truth["hands"]:
            continue
        obs = rec(image, field_corners, mover=truth["mover"])
        field = Field(field_corners, obs.extra["bar_share"])
        dice = []
        for o in truth["objects"]:
            if o["box"] is not None and o["class"].startswith("die"):
                x0, y0, x1, y1 = o["box"]
                dice.append((field.to_field([[(x0 + x1) / 2, (y0 + y1) / 2]])[0], o))
        if len(dice) == 2 and not any(o["class"] == "die_cocked" for _, o in dice):
            reading = read_dice(obs)
            read = isinstance(reading, DiceReading) and reading.faces_sure
            at_once = read and reading.valid_sure and reading.likely()[1] >= HOLD
            true_roll = tuple(sorted((o["value"] for _, o in dice), reverse=True))
            throws.append({"at_once": bool(at_once), "glimpsed": not read,
                           "wrong": bool(at_once and tuple(sorted(reading.likely()[0], reverse=True)) != true_roll)})
        for found in obs.dice:
            near = min(dice, key=lambda d: np.hypot(*(np.asarray(found["uv"]) - d[0])), default=None)
            if near is None or np.hypot(*(np.asarray(found["uv"]) - near[0])) >= 0.03:
                continue
            read = np.asarray(found["read"], np.float64)
            x0, y0 = near[1]["box"][:2]
            out.append({"px": die_width_px(field, found["uv"]), "crop_px": crop_px(field, found["uv"]),
                        "at_rest": f"{video_dir.name}:{x0:.0f}:{y0:.0f}:{near[1]['value']}", "face": near[1]["value"],
                        "cocked": near[1]["class"] == "die_cocked", "sure": bool(read.max() >= SURE_DIE),
                        "read": int(np.argmax(read)) + 1, "wrong": int(np.argmax(read)) + 1 != near[1]["value"],
                        "ruled_out": bool(read[near[1]["value"] - 1] < 0.02)})
    return out, throws


def table(rows: list[dict]) -> list[dict]:
    """Counts by die width (flat dice; cocked ones apart)."""
    out = []
    for lo, hi in zip(SIZES, SIZES[1:]):
        for cocked in (False, True):
            sel = [r for r in rows if lo <= r["px"] < hi and r["cocked"] == cocked]
            sure = [r for r in sel if r["sure"]]
            if sel:
                out.append({"px": f"{lo}-{hi}" if hi < 10_000 else f"{lo}+", "cocked": cocked, "dice": len(sel),
                            "wrong": sum(r["wrong"] for r in sel), "sure": len(sure),
                            "sure_wrong": sum(r["wrong"] for r in sure),
                            "sure_true_face_ruled_out": sum(r["ruled_out"] for r in sure)})
    return out


def legibility(rows: list[dict]) -> list[dict]:
    """Flat dice at rest by the resolution they were read at: how many, how many some look read
    surely with the true face ruled out, how many every look did, and how many of those some
    look read as the true face's twin."""
    out = []
    for lo, hi in zip(CROPS, CROPS[1:]):
        dice: dict = {}  # each die at rest: (ruled out at some look, at every look, a 4 or 6 read as its twin)
        for r in rows:
            if lo <= r["crop_px"] < hi and not r["cocked"]:
                out_here = r["sure"] and r["ruled_out"]
                some, every, twin = dice.get(r["at_rest"], (False, True, False))
                dice[r["at_rest"]] = (some or out_here, every and out_here,
                                      twin or (out_here and TWIN_FACES.get(r["face"]) == r["read"]))
        out.append({"crop_px": f"{lo}-{hi}" if hi < 10_000 else f"{lo}+", "dice_at_rest": len(dice),
                    "true_face_ruled_out": sum(some for some, _, _ in dice.values()),
                    "at_every_look": sum(every for _, every, _ in dice.values()),
                    "as_its_twin": sum(twin for _, _, twin in dice.values())})
    return out


def sure_misreads(rows: list[dict]) -> dict:
    """Dice read surely and wrong, by their true face and the face read ("4->6"), commonest first:
    which faces the reader confuses when it is sure."""
    pairs: dict = {}
    for r in rows:
        if r["sure"] and r["wrong"]:
            key = f"{r['face']}->{r['read']}"
            pairs[key] = pairs.get(key, 0) + 1
    return dict(sorted(pairs.items(), key=lambda kv: -kv[1]))


def throw_counts(throws: list[dict]) -> dict:
    at_once = sum(t["at_once"] for t in throws)
    glimpsed = sum(t["glimpsed"] for t in throws)
    return {"throws": len(throws), "at_once": at_once, "at_once_wrong": sum(t["wrong"] for t in throws),
            "held": len(throws) - at_once - glimpsed, "glimpsed": glimpsed}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("videos", nargs="+", type=Path, help="directories written by `gammoncam synth video`")
    ap.add_argument("--every", type=int, default=4, help="read every Nth frame")
    ap.add_argument("--reader", type=Path, help="another die reader (ONNX) to measure in place of the shipped one")
    ap.add_argument("--rows", type=Path, help="write every die read on a true die here, one JSON object a line")
    args = ap.parse_args()
    rec = Recognizer()
    if args.reader:
        rec.extras = [DiceReader(reader=args.reader)]
    rows, throws = [], []
    for v in tqdm(args.videos, desc="videos", unit="video"):
        dice, thrown = reads(v, rec, args.every)
        rows += dice
        throws += thrown
        print(json.dumps({"video": v.name, **throw_counts(thrown)}))
    for line in table(rows):
        print(json.dumps(line))
    flat = [r for r in rows if not r["cocked"]]
    print(json.dumps({"px": "all", "cocked": False, "dice": len(flat), "wrong": sum(r["wrong"] for r in flat),
                      "sure_wrong": sum(r["wrong"] and r["sure"] for r in flat),
                      "sure_true_face_ruled_out": sum(r["ruled_out"] and r["sure"] for r in flat)}))
    print(json.dumps({"sure_misreads_by_face": sure_misreads(flat)}))
    print(json.dumps({"video": "all", **throw_counts(throws)}))
    for line in legibility(rows):
        print(json.dumps(line))
    if args.rows:
        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
