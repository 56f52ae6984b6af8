"""Orientation: which long edge carries which row and which colour is which, from a known position.

Corners found automatically, or clicked in the wrong order, may start at any corner. The field
is longer than it is high and its rows run along the long edges, so the candidates are the
corner orders that put a long edge on top (two turns), each read with the colours as the network
names them or swapped (a board whose "light" checkers are the darker pair). Each candidate is
scored by the log-probability the checker network gives the known position (each variant's
starting position at the start of a game); the best wins.

>>> import numpy as np
>>> c = np.array([[0, 0], [10, 0], [10, 6], [0, 6]], float)
>>> [o.tolist()[0] for o in candidate_orders(c)]
[[0.0, 0.0], [10.0, 6.0]]
"""

from __future__ import annotations

import numpy as np

from vision.checkers import CLASSES, LOCATIONS, class_of


def candidate_orders(corners: np.ndarray) -> list[np.ndarray]:
    """The corner orders (TL, TR, BR, BL) with a long edge on top: as given and turned half round."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    top = np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])
    side = np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])
    if side > top:  # the given top edge is a short one: start one corner on
        c = np.roll(c, -1, axis=0)
    return [c, np.roll(c, 2, axis=0)]


def swap_colours(probs: np.ndarray) -> np.ndarray:
    """(N, 31) probabilities with light and dark exchanged."""
    out = probs.copy()
    out[:, 1:16], out[:, 16:31] = probs[:, 16:31], probs[:, 1:16]
    return out


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


__all__ = ["CLASSES", "candidate_orders", "swap_colours", "expected_classes", "log_likelihood",
           "best_reading_matches"]
