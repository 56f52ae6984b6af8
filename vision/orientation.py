"""Orientation: which long edge carries which row and which colour is which, from a known position.

Corners found automatically, or clicked in the wrong order, may start at any corner, so the
candidates are the four turns of the corner order. (Each opening looks the same turned half
round with the colours exchanged, so the colours are not a free choice: light is the lighter
side, and the turn puts light where light starts; :func:`vision.adapt.calibrate`.) Each
candidate is scored by the log-probability the checker network gives the known position (each
variant's starting position at the start of a game); the best wins.

>>> import numpy as np
>>> c = np.array([[0, 0], [10, 0], [10, 6], [0, 6]], float)
>>> [o.tolist()[0] for o in candidate_orders(c)]
[[0.0, 0.0], [10.0, 6.0], [10.0, 0.0], [0.0, 6.0]]
"""

from __future__ import annotations

import numpy as np

from engine.position import Position
from vision.checkers import CLASSES, LOCATIONS, class_of
from vision.layout import other, point_slot
from vision.observation import fifteen_a_side_probability, likeliest_classes

LOCATION_INDEX = {where: i for i, where in enumerate(LOCATIONS)}
_MAPS: dict = {}


def candidate_orders(corners: np.ndarray, quarter_turns: bool = True) -> list[np.ndarray]:
    """The corner orders (TL, TR, BR, BL) to try: as given, turned half round and, with
    ``quarter_turns``, a quarter either way (a near-square field seen at a slant gives no
    reliable long edge)."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    return [np.roll(c, -k, axis=0) for k in ((0, 2, 1, 3) if quarter_turns else (0, 2))]


def location_map(colour: str, variant: str) -> np.ndarray:
    """For ``colour``'s points 1..24 (index 0..23), the index of their location in LOCATIONS."""
    key = (colour, variant)
    if key not in _MAPS:
        _MAPS[key] = np.array([LOCATION_INDEX[point_slot(colour, p, variant)] for p in range(1, 25)])
    return _MAPS[key]


def reading_position(classes: np.ndarray, mover: str, variant) -> Position | None:
    """The position (seen from ``mover``, an engine variant) that a reading of every location
    (a class index each, LOCATIONS order) describes, or None if no position can look like that
    (more than 15 checkers a side, a bar in long nardy)."""
    opp = other(mover)
    sides = {}
    for colour in (mover, opp):
        counts = []
        for index in location_map(colour, variant.name):
            c, n = CLASSES[int(classes[index])]
            counts.append(n if c == colour else 0)
        c, n = CLASSES[int(classes[LOCATION_INDEX[("bar", colour)]])]
        bar = n if c == colour else 0
        if sum(counts) + bar > 15 or (bar and variant.name == "long"):
            return None
        sides[colour] = (counts, bar)
    (m, mb), (o, ob) = sides[mover], sides[opp]
    return Position(m, o, mover_bar=mb, opponent_bar=ob, variant=variant)


def pinned_reading(logp: np.ndarray, mover: str, variant, sure: float) -> tuple[np.ndarray, Position] | None:
    """The likeliest reading of every location (``logp``: log-probabilities over CLASSES) with
    all fifteen checkers of each side on the board, and its position seen from ``mover``, where
    that reading is at least ``sure`` likely among such readings and each side has a checker
    outside its home (so none can have been borne off: long nardy has no hits to send one back,
    and in backgammon a checker hit after others were borne off is rare); else None. A stack
    read unsurely whose count the other locations pin down is then read surely (vid 7705: long
    nardy heads of twelve at 252 px, read 0.6-0.9, their colours' other checkers read surely).

    >>> from engine.variant import VARIANTS
    >>> lp = np.log(np.full((len(LOCATIONS), len(CLASSES)), 1e-6))
    >>> lp[:, 0] = 0.0  # every location read empty but: dark's head of 15, light's checkers on 20, 18, 10 ...
    >>> lp[location_map("dark", "long")[23], [0, class_of("dark", 15)]] = -20, 0.0
    >>> lp[location_map("light", "long")[[19, 17, 9]], 0], lp[location_map("light", "long")[[19, 17, 9]], 1] = -20, 0
    >>> head = location_map("light", "long")[23]  # ... and light's head, read 11, 12 or 13
    >>> lp[head, [0, 11, 12, 13]] = -20, np.log(0.3), np.log(0.5), np.log(0.2)
    >>> classes, position = pinned_reading(lp, "light", VARIANTS["long"], 0.9)
    >>> position.mover[23], position.opponent[23]
    (12, 15)
    """
    fifteen = np.full(16, -np.inf)
    fifteen[15] = 0.0
    classes = likeliest_classes(logp, fifteen)
    position = reading_position(classes, mover, variant)
    if position is None or any(not bar and not any(points[6:]) for points, bar in (
            (position.mover, position.mover_bar), (position.opponent, position.opponent_bar))):
        return None
    return (classes, position) if fifteen_a_side_probability(logp, classes) >= sure else None


def expected_classes(recognized: dict) -> np.ndarray:
    """The 26 class indices of a known position in the recognizer's form."""
    out = []
    for kind, which in LOCATIONS:
        if kind == "bar":
            out.append(class_of(which, recognized["bar"][which]))
        else:
            out.append(class_of(*recognized[kind][which]))
    return np.array(out)


def log_likelihood(probs: np.ndarray, expected: np.ndarray) -> float:
    """Sum over locations of log P(expected reading)."""
    return float(np.log(np.maximum(probs[np.arange(len(expected)), expected], 1e-9)).sum())


def best_reading_matches(probs: np.ndarray, expected: np.ndarray) -> int:
    """How many locations' best readings are the expected ones."""
    return int((probs.argmax(axis=1) == expected).sum())


__all__ = ["CLASSES", "LOCATION_INDEX", "candidate_orders", "expected_classes", "location_map",
           "log_likelihood", "best_reading_matches", "reading_position"]
