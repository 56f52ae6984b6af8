"""Per-board calibration from the opening position: orientation, colours, bar width, checker colours.

At the start of a game the position is known (each variant's starting position, RULES 1), so
one frame of it is enough to learn, for this board and camera:

- the corner order, i.e. which long edge carries which row and which side each colour plays
  (:mod:`vision.orientation`); light is the side whose checkers the network sees as the lighter;
- the bar's share of the field, searched round the edge estimate for the value under which the
  known position is likeliest;
- the mean colours of this board's light and dark checkers (kept for the tracker and reports);
- a verdict: the calibration is *accepted* only if at most :data:`TOLERANCE` locations' best
  readings differ from the known position; otherwise it is reported as rejected with the number
  of locations that disagree, and the caller must not use it silently.

>>> cal = Calibration(np.zeros((4, 2)), 0.09, False, True, -1.0, 26)
>>> cal.to_json()["accepted"]
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import checkers
from vision.layout import Physical, recognizer_form, start_board
from vision.orientation import best_reading_matches, candidate_orders, expected_classes, log_likelihood
from vision.rectify import Field, estimate_bar

# Locations whose best reading may differ from the opening before the calibration is rejected.
# The orientation and colours come from the likelihood of the whole position, so one misread
# stack does not turn the board; a wrong board or a game in progress disagrees in many places.
TOLERANCE = 2


@dataclass
class Calibration:
    """What the opening frame taught about this board."""

    corners: np.ndarray  # the field's corners in the order TL, TR, BR, BL
    bar: float  # the bar's share of the field's width
    swapped: bool  # the network's "light" is this board's dark
    accepted: bool
    log_likelihood: float
    matches: int  # locations (of 26) whose best reading is the known one
    colours: dict | None = None  # mean BGR of each side's checkers

    def to_json(self) -> dict:
        return {"corners": np.round(self.corners, 2).tolist(), "bar_share": round(self.bar, 4),
                "colours_swapped": self.swapped, "accepted": self.accepted, "matches": self.matches,
                "log_likelihood": round(self.log_likelihood, 3), "checker_colours": self.colours}


def opening_form(variant: str) -> dict:
    """The starting position as the recognizer reports it (the same whoever moves first)."""
    return recognizer_form(Physical.from_board(start_board(variant), "light"), [], False, None)


def calibrate(image: np.ndarray, corners, variant: str, model: checkers.CheckerModel) -> Calibration:
    """Calibrate from a frame of ``variant``'s starting position seen with the field ``corners``."""
    expected = expected_classes(opening_form(variant))
    best = None
    for order in candidate_orders(np.asarray(corners, np.float64)):
        b0 = estimate_bar(image, order)
        for bar in sorted({round(b, 4) for b in np.clip(b0 + np.array([-0.01, 0.0, 0.01]), 0.04, 0.16)}):
            probs = checkers.read(image, Field(order, bar), model)
            # Both openings look the same turned half round with the colours exchanged, so the
            # colours are not searched: light is what the network sees as the lighter side, and
            # the turn that puts it where light starts wins.
            swapped = False
            ll = log_likelihood(probs, expected)
            if best is None or ll > best[0]:
                best = (ll, order, bar, swapped, probs)
    ll, order, bar, swapped, probs = best
    matches = best_reading_matches(probs, expected)
    cal = Calibration(order, float(bar), swapped, matches >= len(expected) - TOLERANCE, ll, matches)
    cal.colours = checker_colours(image, Field(order, bar), expected)
    return cal


def checker_colours(image: np.ndarray, field: Field, expected: np.ndarray) -> dict:
    """Mean BGR near the rail end of the stacks the known position puts there, per side."""
    crops = checkers.crops(image, field)
    out = {}
    for colour, classes in (("light", range(1, 16)), ("dark", range(16, 31))):
        idx = [i for i, e in enumerate(expected) if e in classes]
        if not idx:
            continue
        w, h = checkers.CROP
        patch = crops[idx, int(h * 0.02):int(h * 0.07), w // 3: 2 * w // 3].reshape(-1, 3)
        out[colour] = [round(float(v), 1) for v in patch.mean(axis=0)]
    return out
