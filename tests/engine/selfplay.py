"""Positions from random self-play, for the differential tests."""

from __future__ import annotations

import random

from engine import Position

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def self_play_positions(variant, count: int, seed: int) -> list[Position]:
    """``count`` positions met in random games: openings, middle games, bear-offs."""
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
