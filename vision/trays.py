"""Trays: how many checkers each side has borne off, read from the board's bear-off end.

Light bears off into the tray beside the bottom half of the field's right-hand end, dark into
the one beside the top half (:mod:`vision.layout`); a board without trays has the checkers laid
on the table there. Each side's is read from one crop taken in field coordinates
(:mod:`vision.rectify`): from the field's right edge out to :data:`SPAN` of its width (a rail and
a tray, or the pile beside the board), and a little more than that half of the field's height,
turned so that the end the side's checkers fill from (the field's top for dark, its bottom for
light) is at the top. It is the checker crop's size (:data:`vision.checkers.CROP`), read by a
network of the same design (:func:`vision.train.checker_net`) with 16 outputs: 0 to 15 borne off.

Checkers on edge in a tray are thin (a sixth of a checker's width, about 5 crop pixels each at
1280x720), so the reading is a likelihood for the joint reading of the board
(:meth:`vision.observation.Observation.best_classes`): it tells an empty tray from a full one
surely, a count within one or two less so.

>>> import numpy as np
>>> from vision.rectify import Field
>>> field = Field(np.array([[100, 100], [900, 100], [900, 700], [100, 700]], float))
>>> field.to_image(tray_quad("light"))[:2].round(1).tolist()  # its top edge: the field's bottom end
[[900.0, 724.0], [1076.0, 724.0]]
>>> labels({"off": {"light": 4, "dark": 0}}).tolist()
[4, 0]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.checkers import CROP, CheckerModel
from vision.layout import COLOURS
from vision.rectify import Field, quad

SPAN = 0.22  # how far beyond the field's right edge a crop reaches, in field widths
REACH = 0.04  # how far beyond the field's end a crop starts, and past its middle it ends (heights)
COUNTS = 16  # 0..15 borne off
MODEL = Path(__file__).resolve().parent.parent / "models" / "trays.onnx"


def tray_quad(colour: str) -> np.ndarray:
    """The field quadrilateral of ``colour``'s tray crop (TL, TR, BR, BL), its filling end on top."""
    if colour == "dark":
        return quad(1.0, 1.0 + SPAN, -REACH, 0.5 + REACH)
    return quad(1.0, 1.0 + SPAN, 1.0 + REACH, 0.5 - REACH)


def crops(image: np.ndarray, field: Field) -> np.ndarray:
    """The (2, h, w, 3) uint8 crops of the light and the dark tray, in :data:`vision.layout.COLOURS` order."""
    return np.stack([field.crop(image, tray_quad(colour), CROP) for colour in COLOURS])


def labels(recognized: dict) -> np.ndarray:
    """The checkers each side has borne off, light's and dark's, in a truth's recognizer form."""
    return np.array([recognized["off"][colour] for colour in COLOURS], np.int64)


class TrayReader:
    """The tray network (:data:`MODEL`) as a stage of the recognizer: puts each side's
    probabilities of 0..15 borne off into ``obs.off``."""

    def __init__(self, path: Path | str = MODEL):
        self.model = CheckerModel(path, outputs=COUNTS)

    def __call__(self, image: np.ndarray, field: Field, obs, mover: str | None = None) -> None:
        obs.off = dict(zip(COLOURS, self.model(crops(image, field))))
