"""Exact ground truth for a rendered frame, and its labels in ultralytics YOLO pose format.

Every label line is ``class cx cy w h`` (normalised) followed by the board's four corners as
keypoints ``x y visibility`` (top-left, top-right, bottom-right, bottom-left as light sees the
board). Only the ``board`` object carries real keypoints; the others carry zeros, as the pose
format wants one keypoint layout for all classes.

>>> CLASSES[:4], CLASSES.index("cube_64")
(['board', 'checker_light', 'checker_dark', 'die_1'], 10)
"""

from __future__ import annotations

import numpy as np

from vision.layout import ROWS, recognizer_form
from vision.synth.dice import CUBE_FACES
from vision.synth.scene import Content

CLASSES = (["board", "checker_light", "checker_dark"] + [f"die_{n}" for n in range(1, 7)] + ["die_cocked"]
           + [f"cube_{v}" for v in sorted(CUBE_FACES, key=lambda v: (v != 64, v))]
           + ["hand", "off_light", "off_dark"])
FLIP_IDX = [1, 0, 3, 2]  # the corners swap left and right when an image is mirrored
MIN_VISIBLE = 0.4  # an object hidden more than this under a hand gets no box


def data_yaml() -> str:
    """The ``data.yaml`` an ultralytics pose training reads next to ``images/`` and ``labels/``."""
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASSES))
    return ("# gammoncam synthetic boards (vision/synth); keypoints: the board's corners TL, TR, BR, BL\n"
            "path: .\ntrain: images\nval: images\n"
            f"kpt_shape: [4, 3]\nflip_idx: {FLIP_IDX}\nnames:\n{names}\n")


def box_of(px: np.ndarray, size: tuple) -> list | None:
    """Pixel bounding box [x0, y0, x1, y1] of image points, clipped to the image; None if outside."""
    w, h = size
    x0, y0 = np.clip(px.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(px.max(axis=0), 0, [w, h])
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    return [round(float(v), 2) for v in (x0, y0, x1, y1)]


def rounded(pts: np.ndarray) -> list:
    return np.round(np.asarray(pts, float), 2).tolist()


class TruthBuilder:
    """Collects the labelled objects of one frame as it is drawn, then writes truth and labels."""

    def __init__(self, cam, geo):
        self.cam, self.geo = cam, geo
        self.objects = []  # (class name, image box, visible fraction, extra dict)

    def add(self, name: str, world_pts: np.ndarray, visible: float = 1.0, **extra) -> dict:
        box = box_of(self.cam.project(world_pts), self.cam.size)
        item = {"class": name, "box": box, "visible": round(float(visible), 3), **extra}
        self.objects.append(item)
        return item

    def plane_to_image(self, pts) -> list:
        pts = np.asarray(pts, float)
        return rounded(self.cam.project(np.c_[pts, np.zeros(len(pts))]))

    def truth(self, content: Content, hands_cover: float, extra: dict) -> dict:
        """The truth JSON: Board JSON, the recognizer's form, geometry in the image, objects."""
        geo = self.geo
        outline = geo.outline()
        cube = None
        if content.cube is not None:
            cube = {"value": content.cube_value, "location": content.cube_owner or "middle"}
        dice = [] if content.rolling else [int(d.value) for d in content.dice]
        return {
            "board": content.phys.to_board(content.mover),
            "mover": content.mover,
            "recognized": recognizer_form(content.phys, dice, bool(dice) and content.invalid is None, cube),
            "mixed": [[row, slot] for row in ROWS for slot, stack in enumerate(content.phys.rows[row])
                      if len(set(stack)) > 1],
            "held": [c.colour for c, _ in content.held],
            "throw": {"dice": dice, "valid": bool(dice) and content.invalid is None, "invalid": content.invalid,
                      "halves": [self.half(d) for d in content.dice] if dice else [],
                      "flat": [d.flat for d in content.dice] if dice else [], "rolling": content.rolling},
            "cube": None if cube is None else {**cube, "spot": content.cube_spot},
            "corners": self.plane_to_image(outline["corners"]),
            "field": self.plane_to_image(outline["field"]),
            "points": {row: [self.plane_to_image(p) for p in outline["points"][row]] for row in ROWS},
            "bar": self.plane_to_image(outline["bar"]),
            "trays": None if outline["trays"] is None else
            {c: self.plane_to_image(p) for c, p in outline["trays"].items()},
            "hands": len(content.hands),
            "hands_cover_board": hands_cover > 0,
            "hands_cover_fraction": round(float(hands_cover), 4),
            "objects": self.objects,
            **extra,
        }

    def half(self, die) -> str:
        (x0, y0), (x1, y1) = self.geo.board[0], self.geo.board[2]
        x, y = die.box.centre[:2]
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return "off"
        return self.geo.half_of(x)

    def yolo(self, corners_px: list) -> str:
        """The YOLO pose label file: one line per visible object."""
        w, h = self.cam.size
        kpts = np.asarray(corners_px) / [w, h]
        inside = ((kpts >= 0) & (kpts <= 1)).all(axis=1)
        board_kpts = " ".join(f"{x:.5f} {y:.5f} {2 if v else 0}" for (x, y), v in zip(kpts.clip(0, 1), inside))
        none = " ".join(["0 0 0"] * 4)
        lines = []
        board_box = box_of(np.asarray(corners_px), (w, h))
        for name, box, vis in [("board", board_box, 1.0)] + [(o["class"], o["box"], o["visible"]) for o in self.objects]:
            if box is None or vis < MIN_VISIBLE:
                continue
            x0, y0, x1, y1 = box
            cls = CLASSES.index(name)
            kp = board_kpts if name == "board" else none
            lines.append(f"{cls} {(x0 + x1) / 2 / w:.5f} {(y0 + y1) / 2 / h:.5f} {(x1 - x0) / w:.5f} "
                         f"{(y1 - y0) / h:.5f} {kp}")
        return "\n".join(lines) + "\n"
