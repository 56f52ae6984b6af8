"""Which way round is the board? A prior over positions that tells a board from its half-turn.

The field's corners fix the board up to a half turn (:mod:`vision.corners`): read with the
corner order turned half round, colours kept, every checker lands on the diagonally opposite
point. Each side numbers its points from its own home (RULES 1), and in both variants the point
diagonally opposite a side's point p is its point p + 12 (mod 24, in 1..24), so the misread
board is :func:`half_turned`: each side's 24 points rolled by 12 in its own numbering, bars and
borne-off counts unchanged. At the start of a game the starting position (RULES 1) settles the
turn; a camera that joins a game in progress needs to know which of the two readings a game is
likelier to reach.

:class:`PositionPrior` is a naive-Bayes model of one variant's positions: a side's counts on its
points 1..24 (in its own numbering), on its bar and borne off are taken as independent, each
with its own table of log-probabilities of the counts 0..15, and both sides share the tables.
Learned by counting, with add-one (Laplace) smoothing. :meth:`PositionPrior.turn_evidence` is the log-likelihood
ratio of a board against its half-turn, in nats; bars and borne-off counts cancel in it, so it
rests on the points alone. ``vision/train_prior.py`` learns the shipped tables
(``models/position_prior.npz``, card ``models/position_prior.md``).

>>> from engine.position import Position
>>> home = Position([3, 3, 3, 2, 2, 2] + [0] * 18, [2, 2, 2, 3, 3, 3] + [0] * 18).board
>>> half_turned(home)[[0, 12]].tolist()  # the mover's three checkers on point 1 go to point 13
[0, 3]
>>> bool(load_default()["backgammon"].turn_evidence(home) > DECIDES)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).resolve().parent.parent / "models" / "position_prior.npz"
POINTS = 24
COUNTS = 16  # a side has 15 checkers: 0..15 on a point, on the bar or borne off
# Nats of evidence a turn needs: weaker evidence, in absolute value, decides nothing. Measured on
# the held-out boards of models/position_prior.md: no board was wrong by 3 nats or more (the
# worst: -2.8 in backgammon, 83,084 boards of human play; -1.2 in long nardy, 40,000 of random
# self-play), and 60 backgammon boards were wrong by 1 nat or more. 5 leaves room for a misread
# stack or two and still decides 98.9% (backgammon) and 99.3% (long nardy) of the boards.
DECIDES = 5.0

# Where each side's points and bar lie on a kernel board (engine.kernels): the mover first.
_SIDE_POINTS = (slice(0, 24), slice(25, 49))
_SIDE_BARS = (24, 49)


def half_turned(boards) -> np.ndarray:
    """Kernel boards, (K, 50) or (50,), as read with the corner order turned half round: each
    side's point p holds what was on its point p + 12 (mod 24); bars and borne-off unchanged.

    >>> b = np.zeros(50, int); b[5] = 2; b[25 + 20] = 1   # mover's 6, opponent's 21
    >>> np.flatnonzero(half_turned(b)).tolist()           # mover's 18, opponent's 9
    [17, 33]
    """
    boards = np.asarray(boards)
    out = boards.copy()
    for points in _SIDE_POINTS:
        out[..., points] = np.roll(boards[..., points], 12, axis=-1)
    return out


@dataclass(frozen=True, eq=False)
class PositionPrior:
    """Log-probabilities of one variant's positions, per side in the side's own numbering.

    ``points[p - 1, c]`` = log P(c checkers on the side's point p); ``bar[c]`` and ``off[c]`` the
    same for its bar and its borne-off checkers.
    """

    variant: str
    points: np.ndarray  # (24, 16)
    bar: np.ndarray  # (16,)
    off: np.ndarray  # (16,)

    @classmethod
    def learn(cls, boards, variant: str) -> "PositionPrior":
        """Count both sides of every kernel board (K, 50), with add-one smoothing.

        >>> b = np.zeros((1, 50), int); b[0, 23] = 15; b[0, 25 + 23] = 15   # long nardy start
        >>> prior = PositionPrior.learn(b, "long")
        >>> round(float(np.exp(prior.points[23, 15])), 4), round(float(np.exp(prior.points[0, 0])), 4)
        (0.1667, 0.1667)
        """
        points, bars, offs = _side_counts(boards)  # (K * 2, 24), (K * 2,), (K * 2,)
        sides = len(points)
        seen = np.zeros((POINTS, COUNTS))
        np.add.at(seen, (np.broadcast_to(np.arange(POINTS), points.shape), points), 1)

        def log_share(counts):
            return np.log((counts + 1) / (sides + COUNTS))

        return cls(variant, log_share(seen), log_share(np.bincount(bars, minlength=COUNTS)),
                   log_share(np.bincount(offs, minlength=COUNTS)))

    def log_likelihood(self, boards) -> np.ndarray:
        """log P(board) for kernel boards (K, 50), or one (50,) to a scalar: both sides' terms summed."""
        return self._terms(boards).sum(axis=-1)

    def turn_evidence(self, boards) -> np.ndarray:
        """log P(board) - log P(half-turned board), in nats: positive when the board as read is
        the likelier way round. (K,) for (K, 50), a scalar for (50,); exactly 0 for a board that
        is its own half-turn."""
        boards = np.asarray(boards)
        # term by term, so that equal terms cancel exactly
        return (self._terms(boards) - self._terms(half_turned(boards))).sum(axis=-1)

    def _terms(self, boards) -> np.ndarray:
        """Each side's 24 point terms, bar term and borne-off term: (..., 2 * 26)."""
        boards = np.asarray(boards)
        points, bars, offs = _side_counts(boards.reshape(-1, boards.shape[-1]))
        terms = np.concatenate((self.points[np.arange(POINTS), points], self.bar[bars][:, None],
                                self.off[offs][:, None]), axis=1)
        return terms.reshape(boards.shape[:-1] + (2 * (POINTS + 2),))


def _side_counts(boards) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side (rows: board 0's mover, board 0's opponent, board 1's mover, ...): its counts on
    its points 1..24, on its bar and borne off, clipped to 0..15."""
    boards = np.asarray(boards, np.int64)
    points = np.stack([boards[:, s] for s in _SIDE_POINTS], axis=1).reshape(-1, POINTS)
    bars = boards[:, _SIDE_BARS].reshape(-1)
    offs = 15 - points.sum(axis=1) - bars
    top = COUNTS - 1
    return np.clip(points, 0, top), np.clip(bars, 0, top), np.clip(offs, 0, top)


def save(priors: dict[str, PositionPrior], path) -> None:
    """Write priors keyed by variant name to one ``.npz`` (arrays ``<variant>.points`` etc.)."""
    arrays = {}
    for name, prior in priors.items():
        arrays.update({f"{name}.points": prior.points, f"{name}.bar": prior.bar, f"{name}.off": prior.off})
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # a file object, so that numpy adds no ".npz" to the name
        np.savez(f, **arrays)


def load(path) -> dict[str, PositionPrior]:
    """The priors :func:`save` wrote, keyed by variant name."""
    with np.load(path) as data:
        names = sorted({key.rsplit(".", 1)[0] for key in data.files})
        return {name: PositionPrior(name, data[f"{name}.points"], data[f"{name}.bar"], data[f"{name}.off"])
                for name in names}


@lru_cache(maxsize=1)
def load_default() -> dict[str, PositionPrior]:
    """The shipped priors (:data:`MODEL`), keyed by variant name ("backgammon", "long"); read once."""
    return load(MODEL)
