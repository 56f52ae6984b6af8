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


def _observation(location_probs: dict, off=None):
    """An observation whose locations read as ``location_probs`` says ({index: {class: p}},
    the rest surely empty), with the trays read as ``off`` ({colour: (16,) probabilities})."""
    from vision.observation import Observation

    p = np.full((26, len(CLASSES)), 1e-9)
    p[:, 0] = 1.0
    for index, classes in location_probs.items():
        p[index] = 1e-9
        for reading, q in classes.items():
            p[index, CLASSES.index(reading)] = q
    obs = Observation.from_locations(p / p.sum(axis=1, keepdims=True))
    obs.off = off
    return obs


def test_the_trays_tell_a_stack_from_checkers_borne_off():
    """RULES 1: light has three checkers on its 1 point and twelve borne off; a point across the
    board is read as empty or as a light stack of twelve alike (a shadow, a hand's edge). Counted
    alone, fifteen checkers on the board is likelier than twelve borne off (real play has none
    off 82.5% of the time), so the phantom stack is read. A tray read holding twelve says the
    point is empty; a tray read empty keeps the stack."""
    light_1, dark_stack, unsure = 12 + 11, 0, 12  # bottom-right, top-left, bottom-left (LOCATIONS order)
    reading = {light_1: {("light", 3): 1.0}, dark_stack: {("dark", 15): 1.0},
               unsure: {(None, 0): 0.5, ("light", 12): 0.5}}
    tray = np.full(16, 0.01)

    def off(light_off: int) -> dict:
        light = tray.copy()
        light[light_off] = 0.85
        dark = tray.copy()
        dark[0] = 0.85
        return {"light": light / light.sum(), "dark": dark / dark.sum()}

    def read(obs) -> tuple:
        best = obs.best()
        return best["bottom"][0], best["off"]

    assert read(_observation(reading)) == (["light", 12], {"light": 0, "dark": 0})
    assert read(_observation(reading, off(12))) == ([None, 0], {"light": 12, "dark": 0})
    assert read(_observation(reading, off(0))) == (["light", 12], {"light": 0, "dark": 0})
