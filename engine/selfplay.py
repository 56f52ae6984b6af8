"""Positions from random self-play: every phase of a game, for tests and benchmarks.

>>> positions = random_positions("backgammon", 50, seed=1)
>>> len(positions), positions[0] == Position.start()
(50, True)
"""

from __future__ import annotations

import random

from engine.position import Position

#: The 21 distinct rolls.
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def random_positions(variant, count: int, seed: int) -> list[Position]:
    """``count`` positions met in random games (openings, middle games, bear-offs), each
    seen by the side to move."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.start(variant)
        while len(out) < count:
            out.append(pos)
            nxt = rng.choice(pos.plays(rng.randint(1, 6), rng.randint(1, 6))).position
            if nxt.game_result():
                break
            pos = nxt.swapped()
    return out
