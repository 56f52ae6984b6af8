"""The whole chain: image and field corners in, an :class:`~vision.observation.Observation` out.

1. Corners: given by the user (the field's TL, TR, BR, BL) or found (:mod:`vision.corners`).
2. The bar's share of the field, from its edges (:func:`vision.rectify.estimate_bar`), unless a
   calibration (:mod:`vision.adapt`) already knows it.
3. Checkers on every point and on the bar (:mod:`vision.checkers`); on a board whose colours
   the network cannot tell apart, each stack's colour from the colours the opening taught
   (:class:`vision.adapt.CheckerColours`) or, on a frame alone, from the frame's own two
   colours (:func:`vision.adapt.untold_colours`).
4. Dice and cube (:mod:`vision.dice`, :mod:`vision.cube`) when their models are installed.

>>> rec = Recognizer()  # doctest: +SKIP
>>> rec(image, corners).best()["top"]  # doctest: +SKIP
"""

from __future__ import annotations

import time

import numpy as np

from vision import checkers
from vision.adapt import untold_colours
from vision.observation import Observation
from vision.rectify import Field, estimate_bar


class Recognizer:
    """Loads the models once; call it on each frame."""

    def __init__(self, checker_model: str | None = None):
        self.checker_model = checkers.CheckerModel(checker_model or checkers.MODEL)
        self.extras = []
        try:
            from vision import dice

            if dice.MODEL.exists():
                self.extras.append(dice.DiceReader())
        except ImportError:  # dice stage not installed
            pass

    def __call__(self, image: np.ndarray, corners, bar: float | None = None, mover: str | None = None,
                 colours=None, frame_colours: bool = True) -> Observation:
        """Read one frame. ``colours``: this board's checker colours, learned from its opening,
        read every stack's colour; without them and with ``frame_colours``, the frame's own two
        colours do where the network reads both alike (:func:`vision.adapt.untold_colours`). A
        game's calibration has settled which applies, so the watch loop turns that off."""
        t0 = time.perf_counter()
        corners = np.asarray(corners, np.float64).reshape(4, 2)
        if bar is None:
            bar = estimate_bar(image, corners)
        field = Field(corners, bar)
        crops = checkers.crops(image, field)
        probs = self.checker_model(crops)
        if colours is None and frame_colours:
            colours = untold_colours(probs, crops)
        if colours is not None:
            probs = colours.apply(probs, crops)
        obs = Observation.from_locations(probs)
        for stage in self.extras:
            stage(image, field, obs, mover)
        obs.extra["ms"] = round((time.perf_counter() - t0) * 1000, 2)
        obs.extra["bar_share"] = round(bar, 4)
        return obs
