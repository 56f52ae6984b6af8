"""Settled observations made from positions, for tests that drive the tracker without a video:
each location read as the position has it (a little noise), dice read surely where told."""

from __future__ import annotations

import numpy as np

from engine.position import Position
from gammoncam.decoding import expected_classes
from vision.dice import honest


def observation_of(position: Position, mover: str, rng, noise=0.05) -> np.ndarray:
    """Log-probabilities (26 locations x 31 classes) of a reading of ``position`` seen with
    ``mover`` on roll: its class at each location at 0.95-1."""
    classes = expected_classes(position.board[None], mover, position.variant.name)[0]
    p = np.full((26, 31), 1e-4)
    p[np.arange(26), classes] = 1 - noise * rng.random(26)
    p /= p.sum(axis=1, keepdims=True)
    return np.log(p)


def look(position_from_light, rng, dice=(), half="right", valid=1.0):
    """A settled observation of a board with dice read surely lying in ``half``, the throw
    counting with probability ``valid``."""
    from vision.observation import Observation

    obs = Observation.from_locations(np.exp(observation_of(position_from_light, "light", rng)))
    u = 0.7 if half == "right" else 0.2
    obs.dice = [{"faces": honest(np.eye(6)[d - 1]), "flat": 1.0, "score": 0.9, "uv": [u + 0.1 * k, 0.5],
                 "on_board": True, "half": half} for k, d in enumerate(dice)]
    obs.throw_valid = valid if dice else 0.0
    return obs


def two_turns(seed: int) -> tuple:
    """A ``look`` (:func:`look` on a noise generator seeded ``seed``), the looks at a game's
    first two turns, light's 3-1 (8/5 6/5) and dark's 6-4 (24/18 13/9), each thrown, played and
    picked up, and the board after them (from light's side)."""
    rng = np.random.default_rng(seed)
    seen = lambda position, dice=(), half="right": look(position, rng, dice, half)
    start = Position.start()
    light_played = start.apply("8/5 6/5")
    dark_played = light_played.swapped().apply("24/18 13/9").swapped()
    return seen, [seen(start), seen(start, (3, 1)), seen(light_played, (3, 1)), seen(light_played),
                  seen(dark_played, (6, 4), "left"), seen(dark_played)], dark_played


def dark_reply(seed: int, begun: str, played: str) -> tuple:
    """A ``look`` (:func:`look` on a noise generator seeded ``seed``) and the boards of a game
    light opened 3-1 (8/5 6/5), from light's side: the start, light's play, and dark's reply
    ``begun`` (its first moves) and ``played`` (all of it)."""
    rng = np.random.default_rng(seed)
    seen = lambda position, dice=(), half="right": look(position, rng, dice, half)
    start = Position.start()
    light_played = start.apply("8/5 6/5")
    dark = lambda play: light_played.swapped().apply(play).swapped()
    return seen, start, light_played, dark(begun), dark(played)
