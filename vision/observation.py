"""An observation: a probability for every reading of every location, dice and cube.

The tracker combines observations with the rules, so the recognizer hands over the whole
distribution, not only its best guess. ``points[row][slot]`` and ``bar[colour]`` are
probability vectors over :data:`vision.checkers.CLASSES` (empty, light 1..15, dark 1..15);
``off[colour]``, where the trays were read (:mod:`vision.trays`), a probability vector over
0..15 borne off, which the joint reading weighs against the fifteen less the checkers seen.
Dice and cube carry their own small distributions.

>>> import numpy as np
>>> obs = Observation.uniform()
>>> round(float(obs.points["top"][0].sum()), 6), obs.best()["top"][0]
(1.0, [None, 0])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from vision.checkers import CLASSES, LOCATIONS

CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
# How often a side has 0..15 checkers borne off after a play, over 118,250 sides of positions
# in 400 of the real matches in ../shared/fixtures/matches/bglab: none 82.5% of the time.
BORNE_OFF = np.array([0.8251, 0.0184, 0.0168, 0.0162, 0.0149, 0.0141, 0.0133, 0.0118, 0.0122, 0.0097,
                      0.011, 0.0091, 0.0084, 0.0067, 0.0064, 0.0058])
# The prior's weight, chosen on the 1,000 calibration renders weighed to the real matches' mix
# (a quarter of positions with a checker borne off): at full weight it pulled phantom checkers
# onto boards with checkers borne off (whole boards right there 42 -> 31 of 53) as much as it
# helped the others; at half weight those stay as read without it (41 of 53) and boards with
# none borne off go from 740 to 811 right of 947. Chosen again for the wide checker network
# (models/checkers.md), which reads fewer stacks short: weighed to the real mix, whole boards
# right 83.6% at half weight, 84.2% at three quarters (boards with checkers off 39 -> 37 of 53,
# the others 823 -> 843 of 947), 83.1% at full weight.
BORNE_OFF_WEIGHT = 0.75
# The tray network's weight against the location readings (its odds are a likelihood: it was
# trained with every count drawn equally often, vision.train.TASKS).
TRAY_WEIGHT = 1.0
_COUNT = {colour: np.array([n if c == colour else 0 for c, n in CLASSES]) for colour in ("light", "dark")}
CUBE_LOCATIONS = ("middle", "light", "dark")


def likeliest_classes(logp: np.ndarray, on_board: np.ndarray | None = None) -> np.ndarray:
    """The class of every location (rows of ``logp``, log-probabilities over :data:`CLASSES`)
    that together are likeliest with at most fifteen checkers of a colour (RULES 1), by dynamic
    programming over the two colours' counts; ``on_board``: a log-prior over how many of a
    colour's checkers are on the board (0..15), added for each colour, or a (16, 16) one over
    (light, dark) counts together.

    >>> lp = np.log(np.full((2, len(CLASSES)), 1e-6)); lp[:, CLASSES.index(("light", 10))] = 0.0
    >>> lp[1, CLASSES.index(("light", 5))] = -1.0
    >>> [CLASSES[k] for k in likeliest_classes(lp)]  # 10 and 10 would be twenty: 10 and 5
    [('light', 10), ('light', 5)]
    """
    alone = np.argmax(logp, axis=1)
    if on_board is None and _COUNT["light"][alone].sum() <= 15 and _COUNT["dark"][alone].sum() <= 15:
        return alone
    prior = np.zeros((16, 16)) if on_board is None else (
        on_board if on_board.ndim == 2 else on_board[:, None] + on_board[None, :])
    return _counted_classes(np.ascontiguousarray(logp, np.float64), np.ascontiguousarray(prior, np.float64),
                            _COUNT["light"], _COUNT["dark"])


@njit(cache=True)
def _counted_classes(logp, prior, light, dark):
    """:func:`likeliest_classes`' programme, compiled: the tracker reads a board this way for
    every roll it tries on a turn whose throw went unseen (21 a settle, 5 ms each in Python)."""
    n, kinds = logp.shape
    # score[l, d]: the best log-likelihood of the locations so far with l light and d dark checkers
    score = np.full((16, 16), -np.inf)
    score[0, 0] = 0.0
    new = np.empty((16, 16))
    choice = np.zeros((n, 16, 16), np.int64)
    for loc in range(n):
        new[:] = -np.inf
        for k in range(kinds):
            nl, nd, here = light[k], dark[k], logp[loc, k]
            for l in range(nl, 16):
                for d in range(nd, 16):
                    moved = score[l - nl, d - nd] + here
                    if moved > new[l, d]:  # the first class of equals kept
                        new[l, d] = moved
                        choice[loc, l, d] = k
        score[:] = new
    best_l, best_d, best = 0, 0, -np.inf
    for l in range(16):
        for d in range(16):
            if score[l, d] + prior[l, d] > best:
                best_l, best_d, best = l, d, score[l, d] + prior[l, d]
    out = np.zeros(n, np.int64)
    for loc in range(n - 1, -1, -1):
        out[loc] = k = choice[loc, best_l, best_d]
        best_l, best_d = best_l - light[k], best_d - dark[k]
    return out


def fifteen_a_side_probability(logp: np.ndarray, classes: np.ndarray) -> float:
    """How likely the reading ``classes`` is among every reading of ``logp``'s locations with
    fifteen checkers of each colour (none borne off): the locations read together, each
    weighed by the others' counts (the forward sum of :func:`likeliest_classes`' programme).
    A stack read unsurely whose count the rest pins down is then read surely.

    >>> lp = np.log(np.full((3, len(CLASSES)), 1e-6))
    >>> lp[0, CLASSES.index(("light", 10))], lp[0, CLASSES.index(("light", 11))] = np.log(0.6), np.log(0.4)
    >>> lp[1, CLASSES.index(("light", 5))] = lp[2, CLASSES.index(("dark", 15))] = 0.0
    >>> reading = np.array([CLASSES.index(("light", 10)), CLASSES.index(("light", 5)), CLASSES.index(("dark", 15))])
    >>> round(fifteen_a_side_probability(lp, reading), 4)  # 11 and 5 would be sixteen
    1.0
    """
    # total[l, d]: the log of the summed likelihood of the locations so far with l light, d dark
    total = np.full((16, 16), -np.inf)
    total[0, 0] = 0.0
    for row in logp:
        new = np.full((16, 16), -np.inf)
        for k, (nl, nd) in enumerate(zip(_COUNT["light"], _COUNT["dark"])):
            new[nl:, nd:] = np.logaddexp(new[nl:, nd:], total[:16 - nl, :16 - nd] + row[k])
        total = new
    return float(np.exp(logp[np.arange(len(logp)), classes].sum() - total[15, 15]))


def fold_bar(p: np.ndarray, colour: str) -> np.ndarray:
    """A bar half holds only its own colour: the other colour's mass moves to the same counts."""
    out = np.zeros_like(p)
    out[0] = p[0]
    own, other = (slice(1, 16), slice(16, 31)) if colour == "light" else (slice(16, 31), slice(1, 16))
    out[own] = p[own] + p[other]
    return out


@dataclass
class Observation:
    """What one frame shows, with probabilities."""

    points: dict  # row -> (12, 31) probabilities
    bar: dict  # colour -> (31,) probabilities (only that colour's classes are meaningful)
    dice: list = field(default_factory=list)  # per die: {"faces": (6,) probs, "read": (6,) the reader's own, "flat": p, ...}
    # field (u, v) of finds read as a die but too faint to count as one (vision.dice.FAINT_DIE)
    faint_dice: list = field(default_factory=list)
    throw_valid: float = 0.0  # probability that the throw counts (RULES 2.3)
    cube: dict | None = None  # {"value": (7,) probs over CUBE_VALUES, "location": (3,) probs}
    # (26,) in LOCATIONS order: the probability that the stack holds both colours (None: not read)
    mixed: np.ndarray | None = None
    # colour -> (16,) the tray's probabilities of 0..15 borne off, a likelihood (None: not read)
    off: dict | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_locations(cls, probs: np.ndarray, **kw) -> "Observation":
        """From the (26, 31) location probabilities in :data:`LOCATIONS` order."""
        points = {"top": probs[:12].copy(), "bottom": probs[12:24].copy()}
        return cls(points, {"light": fold_bar(probs[24], "light"), "dark": fold_bar(probs[25], "dark")}, **kw)

    @classmethod
    def uniform(cls) -> "Observation":
        p = np.zeros((len(LOCATIONS), len(CLASSES)))
        p[:, 0] = 1.0
        return cls.from_locations(p)

    def location_probs(self) -> np.ndarray:
        """(26, 31): every location's probabilities in :data:`LOCATIONS` order."""
        return np.vstack([self.points["top"], self.points["bottom"], self.bar["light"][None], self.bar["dark"][None]])

    def best_classes(self) -> np.ndarray:
        """The likeliest class of every location, jointly, with at most fifteen checkers of a
        colour on the board (RULES 1) and the rest borne off, as often as :data:`BORNE_OFF`
        says and, where the trays were read, as the trays show: where reading each location
        alone gives more (two pale colours, both taken for light), the locations likeliest to
        be the other colour are; where it gives fewer with nothing borne off likely (a long
        nardy head of 12 read as empty), the count is weighed against fifteen."""
        p = self.location_probs()
        alone = np.argmax(p, axis=1)
        trays_empty = self.off is None or all(int(np.argmax(q)) == 0 for q in self.off.values())
        if _COUNT["light"][alone].sum() == 15 and _COUNT["dark"][alone].sum() == 15 and trays_empty:
            return alone  # the likeliest reading, and nothing borne off: the likeliest count
        return likeliest_classes(np.log(np.maximum(p, 1e-12)), self.on_board_prior())

    def on_board_prior(self) -> np.ndarray:
        """(16, 16): the log-likelihood of each count of light and dark checkers on the board,
        from how often real play has the rest borne off (:data:`BORNE_OFF`) and what the trays
        show (``off``)."""
        by_side = []
        for colour in ("light", "dark"):
            off = BORNE_OFF_WEIGHT * np.log(BORNE_OFF)  # by checkers borne off, 0..15
            if self.off is not None:
                off = off + TRAY_WEIGHT * np.log(np.maximum(self.off[colour], 1e-6))
            by_side.append(off[::-1])  # by checkers on the board
        return by_side[0][:, None] + by_side[1][None, :]

    def best(self) -> dict:
        """The most likely reading in the recognizer's form (without confidence)."""
        classes = [CLASSES[k] for k in self.best_classes()]
        rows = {"top": [list(c) for c in classes[:12]], "bottom": [list(c) for c in classes[12:24]]}
        bar = {}
        for colour, (c, n) in zip(("light", "dark"), classes[24:]):
            bar[colour] = n if c == colour else 0
        off = {}
        for colour in ("light", "dark"):
            on = sum(n for row in rows.values() for c, n in row if c == colour) + bar[colour]
            off[colour] = max(0, 15 - on)
        dice = [int(np.argmax(d["faces"])) + 1 for d in self.dice]
        cube = None
        if self.cube is not None:
            cube = {"value": CUBE_VALUES[int(np.argmax(self.cube["value"]))],
                    "location": CUBE_LOCATIONS[int(np.argmax(self.cube["location"]))]}
        return {**rows, "bar": bar, "off": off, "dice": dice, "throw_valid": bool(dice) and self.throw_valid >= 0.5,
                "cube": cube}

    def confidence(self) -> float:
        """The probability that every location's best reading is right, taken as independent."""
        logp = sum(float(np.log(max(p.max(), 1e-12))) for row in self.points.values() for p in row)
        logp += sum(float(np.log(max(p.max(), 1e-12))) for p in self.bar.values())
        for d in self.dice:
            logp += float(np.log(max(np.max(d["faces"]), 1e-12)))
        if self.cube is not None:
            logp += float(np.log(max(np.max(self.cube["value"]), 1e-12)))
        return float(np.exp(logp))

    def to_json(self, full: bool = False) -> dict:
        """The recognizer's form plus ``confidence``; with ``full``, every probability vector too."""
        out = {**self.best(), "confidence": round(self.confidence(), 6)}
        if full:
            out["probabilities"] = {
                "classes": [[c, n] for c, n in CLASSES],
                "top": np.round(self.points["top"], 6).tolist(),
                "bottom": np.round(self.points["bottom"], 6).tolist(),
                "bar": {c: np.round(p, 6).tolist() for c, p in self.bar.items()},
                "dice": [{k: (np.round(v, 6).tolist() if isinstance(v, np.ndarray) else v) for k, v in d.items()}
                         for d in self.dice],
                "throw_valid": round(float(self.throw_valid), 6),
                "cube": None if self.cube is None else {k: np.round(v, 6).tolist() for k, v in self.cube.items()},
                "mixed": None if self.mixed is None else np.round(self.mixed, 6).tolist(),
                "off": None if self.off is None else {c: np.round(p, 6).tolist() for c, p in self.off.items()},
            }
        out.update(self.extra)
        return out
