"""The whole chain: image and field corners in, an :class:`~vision.observation.Observation` out.

1. Corners: given by the user (the field's TL, TR, BR, BL) or found (:mod:`vision.corners`,
   :meth:`Recognizer.find_board`: of the finder's likeliest fields, the one read surest).
   Corners given by hand are also re-fitted by the corner refiner, and the surer reading kept
   (``refit``): a click a hundredth of the field's diagonal off misreads stacks.
2. The bar's share of the field, from its edges (:func:`vision.rectify.estimate_bar`), unless a
   calibration (:mod:`vision.adapt`) already knows it.
3. Checkers on every point and on the bar (:mod:`vision.checkers`); on a board whose colours
   the network cannot tell apart, each stack's colour from the colours the opening taught
   (:class:`vision.adapt.CheckerColours`) or, on a frame alone, from the frame's own two
   colours (:func:`vision.adapt.untold_colours`).
4. Whether a stack holds both colours (a checker laid on a point the opponent holds), from the
   same crops, when the mixed-stack network is installed (``obs.mixed``).
5. Dice and cube (:mod:`vision.dice`) and the checkers borne off
   (:mod:`vision.trays`) when their models are installed.

>>> rec = Recognizer()  # doctest: +SKIP
>>> rec(image, corners).best()["top"]  # doctest: +SKIP
"""

from __future__ import annotations

import time

import numpy as np

from vision import checkers, trays
from vision.adapt import untold_colours
from vision.corners import BOARDS_TRIED, REFIT_SURER, boards_found, refitted
from vision.observation import Observation
from vision.rectify import Field, estimate_bar


FOUND_SURER = 1.0  # nats a field after the finder's first must read surer by to be taken


class Recognizer:
    """Loads the models once; call it on each frame."""

    def __init__(self, checker_model: str | None = None):
        self.checker_model = checkers.CheckerModel(checker_model or checkers.MODEL)
        self.mixed_model = (checkers.CheckerModel(checkers.MIXED_MODEL, outputs=2)
                            if checkers.MIXED_MODEL.exists() else None)
        self.extras = []
        try:
            from vision import dice

            if dice.MODEL.exists():
                self.extras.append(dice.DiceReader())
        except ImportError:  # dice stage not installed
            pass
        if trays.MODEL.exists():
            self.extras.append(trays.TrayReader())

    def __call__(self, image: np.ndarray, corners, bar: float | None = None, mover: str | None = None,
                 colours=None, frame_colours: bool = True, refit: bool = False) -> Observation:
        """Read one frame. ``colours``: this board's checker colours, learned from its opening,
        read every stack's colour; without them and with ``frame_colours``, the frame's own two
        colours do where the network reads both alike (:func:`vision.adapt.untold_colours`). A
        game's calibration has settled which applies, so the watch loop turns that off.

        ``refit``: the corners were given by hand. The corner refiner re-fits them
        (:func:`vision.corners.refitted`), the checkers are read with both, and the re-fit is
        kept where its reading is surer by :data:`~vision.corners.REFIT_SURER` nats
        (``obs.extra["corners"]``, ``["refitted"]``). On the 1,000 calibration renders (seed
        7001) given corners a hundredth of the field's diagonal off (``eval-vision
        --corner-noise 0.01``): points read wrong 755 -> 328, whole boards 74.4% -> 86.4%; given
        them exact, 240 -> 241 and 88.8% -> 88.8%. The re-fit taken always would misread exact
        corners under a hand (258 points for 226): a hand over a corner misleads the refiner,
        and the reading it gives is the less sure."""
        t0 = time.perf_counter()
        corners = np.asarray(corners, np.float64).reshape(4, 2)
        field, probs, crops = self._checkers(image, corners, bar, colours, frame_colours)
        kept_refit = False
        if refit:
            moved = refitted(image, corners)
            if moved is not None:
                other, other_probs, other_crops = self._checkers(image, moved, bar, colours, frame_colours)
                if surety(other_probs) > surety(probs) + REFIT_SURER:
                    corners, field, probs, crops, kept_refit = moved, other, other_probs, other_crops, True
        obs = Observation.from_locations(probs)
        if self.mixed_model is not None:
            obs.mixed = self.mixed_model(crops)[:, 1]
        for stage in self.extras:
            stage(image, field, obs, mover)
        obs.extra["ms"] = round((time.perf_counter() - t0) * 1000, 2)
        obs.extra["bar_share"] = round(field.bar, 4)
        obs.extra["corners"] = corners
        obs.extra["refitted"] = kept_refit
        return obs

    def find_board(self, image: np.ndarray) -> np.ndarray | None:
        """The field's corners found in a frame with no help, or None: of the corner finder's
        :data:`~vision.corners.BOARDS_TRIED` likeliest fields, the one whose checkers read surest, a field after
        the finder's first only if surer by :data:`FOUND_SURER` nats (a tray's outer corner may
        outscore the field's). On 400 test renders (seed 9001) the field found within 1% of the
        image diagonal: 365 as the finder ranks them, 372 so."""
        found = boards_found(image, BOARDS_TRIED)
        best, best_surety = None, -np.inf
        for k, corners in enumerate(found):
            sure = surety(self._checkers(image, corners, None, None, True)[1]) - (FOUND_SURER if k else 0.0)
            if sure > best_surety:
                best, best_surety = corners, sure
        return best

    def _checkers(self, image: np.ndarray, corners: np.ndarray, bar: float | None, colours,
                  frame_colours: bool) -> tuple[Field, np.ndarray, np.ndarray]:
        """The field, the (26, 31) location probabilities read with ``corners`` and the crops."""
        field = Field(corners, estimate_bar(image, corners) if bar is None else bar)
        crops = checkers.crops(image, field)
        probs = self.checker_model(crops)
        if colours is None and frame_colours:
            colours = untold_colours(probs, crops)
        if colours is not None:
            probs = colours.apply(probs, crops)
        return field, probs, crops


def surety(probs: np.ndarray) -> float:
    """How surely the checkers are read: the log-probability of every location's likeliest reading."""
    return float(np.log(np.maximum(probs.max(axis=1), 1e-12)).sum())
