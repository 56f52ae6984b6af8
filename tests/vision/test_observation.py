"""The counted board reading (RULES 1: at most fifteen checkers a side) against every reading."""

import itertools

import numpy as np

from vision.checkers import CLASSES
from vision.observation import likeliest_classes

LIGHT = np.array([n if c == "light" else 0 for c, n in CLASSES])
DARK = np.array([n if c == "dark" else 0 for c, n in CLASSES])


def _best_of_all(logp, prior):
    """The best score over every reading of three locations with at most fifteen a side."""
    best = -np.inf
    for ks in itertools.product(range(len(CLASSES)), repeat=len(logp)):
        light, dark = LIGHT[list(ks)].sum(), DARK[list(ks)].sum()
        if light <= 15 and dark <= 15:
            best = max(best, logp[range(len(logp)), ks].sum() + prior[light, dark])
    return best


def test_the_counted_reading_is_the_best_of_every_reading_the_count_allows():
    rng = np.random.default_rng(7)
    for _ in range(3):
        # stacks of ten and more are likeliest, so the count binds
        logp = np.log(rng.dirichlet(np.full(len(CLASSES), 0.2), size=3))
        logp[:, [CLASSES.index(("light", 12)), CLASSES.index(("dark", 9))]] += 3.0
        prior = 6 * np.log(rng.random((16, 16)))  # strong enough to choose the counts
        classes = likeliest_classes(logp, prior)
        light, dark = LIGHT[classes].sum(), DARK[classes].sum()
        assert light <= 15 and dark <= 15
        got = logp[range(3), classes].sum() + prior[light, dark]
        assert np.isclose(got, _best_of_all(logp, prior))
