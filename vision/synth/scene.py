"""What lies on the board in one picture, and random but plausible choices of it for training.

:class:`Content` is everything that changes from frame to frame: the checkers, who is to move,
the dice as they lie, the cube, the hands. Random positions come from a random walk from the
start (random checkers moved by random dice, blocked points respected, blots hit, bearing off
once home), which gives the stacks, bars and trays real games have without needing the engine.

>>> import numpy as np
>>> board = random_board(np.random.default_rng(4), "backgammon")
>>> sum(board["player"]) + board["player_bar"] <= 15
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine import VARIANTS
from vision.dice import MIDDLE_SHARE, OWNED_CUBE
from vision.layout import CHECKERS, COLOURS, Physical, start_board
from vision.synth.dice import CUBE_VALUES, INVALID_KINDS, Solid, place_cube, throw
from vision.synth.geometry import Checker, Geometry
from vision.synth.hands import Hand, sample_hand


@dataclass
class Content:
    """The things on the board for one frame."""

    phys: Physical
    mover: str  # the colour of the side to move ("player" in Board JSON)
    dice: list[Solid] = field(default_factory=list)
    invalid: str | None = None  # why the throw does not count (RULES 2.3), None if it counts
    rolling: bool = False  # dice still tumbling: no throw to report yet
    cube: Solid | None = None
    cube_value: int = 1
    cube_owner: str | None = None  # None: in the middle
    cube_spot: str = "bar_middle"
    hands: list[Hand] = field(default_factory=list)
    held: list[tuple[Checker, float]] = field(default_factory=list)  # checkers lifted in a hand


def random_board(rng: np.random.Generator, variant: str) -> dict:
    """A position reached by a random walk of random length from the start, as Board JSON."""
    start = start_board(variant)
    points = {0: list(start["player"]), 1: list(start["opponent"])}
    bar, off = [0, 0], [0, 0]
    steps = 0 if rng.random() < 0.1 else int(rng.integers(1, 260))
    for _ in range(steps):
        side = int(rng.integers(2))
        mine, theirs = points[side], points[1 - side]
        die = int(rng.integers(1, 7))
        if bar[side]:
            src = 25
        else:
            occupied = [p for p in range(1, 25) if mine[p - 1]]
            if not occupied:
                continue
            src = occupied[rng.integers(len(occupied))]
        dest = src - die
        if dest < 1:
            if bar[side] or sum(mine[6:]) or (dest < 0 and any(mine[src:6])):
                continue
            mine[src - 1] -= 1
            off[side] += 1
            continue
        opp = theirs[VARIANTS[variant].opponent_point(dest) - 1]
        if opp >= (2 if variant == "backgammon" else 1):
            continue
        if opp == 1:  # a blot is hit (backgammon only: in long nardy any checker blocks)
            theirs[VARIANTS[variant].opponent_point(dest) - 1] = 0
            bar[1 - side] += 1
        if src == 25:
            bar[side] -= 1
        else:
            mine[src - 1] -= 1
        mine[dest - 1] += 1
    assert all(sum(points[s]) + bar[s] + off[s] == CHECKERS for s in (0, 1))
    return {"variant": variant, "player": points[0], "player_bar": bar[0],
            "opponent": points[1], "opponent_bar": bar[1]}


def bearing_off_board(rng: np.random.Generator, variant: str) -> dict:
    """A position of the bear-off, as Board JSON: each side's checkers still on the board all in
    its home (points 1-6, spread at random), 0 to 15 of them borne off (not both sides all
    fifteen). A random walk (:func:`random_board`) seldom gets there, so the trays it fills are
    few (2.2% of sides on the test renders against 17.5% in real play).

    >>> board = bearing_off_board(np.random.default_rng(2), "long")
    >>> sum(board["player"][6:]) + sum(board["opponent"][6:]), sum(board["player"]) <= 15
    (0, True)
    """
    off = rng.integers(0, 16, 2)
    if off.min() == CHECKERS:
        off[1] = rng.integers(0, CHECKERS)
    home = [rng.multinomial(CHECKERS - n, rng.dirichlet(np.full(6, 0.8))) for n in off]
    return {"variant": variant, "player": [int(c) for c in home[0]] + [0] * 18, "player_bar": 0,
            "opponent": [int(c) for c in home[1]] + [0] * 18, "opponent_bar": 0}


def land_on_held_point(rng: np.random.Generator, phys: Physical) -> None:
    """Move a checker (now and then two) of a random side onto a stack of the other side, laid
    on top as a player lays it: the mixed stack a foul onto a point the opponent holds leaves
    (RULES 3.1, 3.2), which the recognizer must notice. Nothing changes where no stack of one
    side and no checker of the other lie on the points."""
    colour = COLOURS[rng.integers(2)]
    stacks = [stack for row in phys.rows.values() for stack in row]
    held = [s for s in stacks if s and colour not in s]
    own = [s for s in stacks if s and set(s) == {colour}]
    if not held or not own:
        return
    # The opponent's points of two or more are the fouls; a blot is now and then left under
    # the hitter too (a hit not finished).
    weights = np.array([1.0 if len(s) >= 2 else 0.25 for s in held])
    target = held[rng.choice(len(held), p=weights / weights.sum())]
    for _ in range(1 + int(rng.random() < 0.1)):
        source = own[rng.integers(len(own))]
        if source:
            source.pop()
            target.append(colour)


def random_content(rng: np.random.Generator, geo: Geometry, variant: str, fouls: float = 0.0,
                   bear_off: float = 0.0) -> Content:
    """A random position with, at random, a throw (sometimes invalid), the cube and hands;
    with probability ``fouls``, checkers moved onto the other side's stack
    (:func:`land_on_held_point`); with probability ``bear_off``, a position of the bear-off
    (:func:`bearing_off_board`). Without either the same random numbers are drawn as before
    they were added, so a seed renders the boards it always did."""
    mover = COLOURS[rng.integers(2)]
    board = bearing_off_board(rng, variant) if bear_off and rng.random() < bear_off else random_board(rng, variant)
    content = Content(Physical.from_board(board, mover), mover)
    if fouls and rng.random() < fouls:
        land_on_held_point(rng, content.phys)
    checkers = geo.checkers(content.phys)
    if rng.random() < 0.75:
        values = tuple(int(v) for v in rng.integers(1, 7, 2))
        content.invalid = INVALID_KINDS[rng.integers(3)] if rng.random() < 0.25 else None
        content.dice = throw(rng, geo, checkers, mover, values, content.invalid, variant)
    if rng.random() < (0.85 if variant == "backgammon" else 0.25):
        if rng.random() < MIDDLE_SHARE:
            content.cube_value = 1
        else:
            content.cube_value = int(rng.choice(CUBE_VALUES[1:], p=OWNED_CUBE))
            content.cube_owner = COLOURS[rng.integers(2)]
        content.cube, content.cube_spot = place_cube(rng, geo, content.cube_value, content.cube_owner)
    hands = rng.choice(3, p=[0.62, 0.32, 0.06])
    content.hands = [sample_hand(rng, geo, mover if i == 0 else COLOURS[rng.integers(2)]) for i in range(hands)]
    return content
