"""Dice and the doubling cube: where they come to rest, valid throws and the three invalid ones.

A throw counts only if both dice lie flat on the board in the thrower's right-hand half
(RULES 2.3). Light sits at the bottom, so its right-hand half is the right of the board as
drawn; dark's is the left. The invalid throws drawn are a die cocked against a checker (or the
rail when the half has none), a die in the other half and a die off the board.

The cube (RULES 5.1) shows 64 when its value is 1 and lies in the middle of the bar; an owned
cube lies at its owner's end of the bar, on its owner's rail or on the table at its side.

>>> import numpy as np
>>> faces = orient(DIE_FACES, 5, np.random.default_rng(0))
>>> faces[4], faces[5], sorted(faces)
(5, 2, [1, 2, 3, 4, 5, 6])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product

import cv2
import numpy as np

from vision.synth.camera import rotation
from vision.synth.geometry import D, Checker, Geometry
from vision.synth.solids import NORMALS, Box

# Numbers on faces +x, -x, +y, -y, +z (up), -z of a die and of the cube; opposite faces pair up.
DIE_FACES = [3, 4, 2, 5, 1, 6]
CUBE_FACES = [4, 32, 8, 16, 64, 2]
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
INVALID_KINDS = ("cocked", "other_half", "off_board")
PIPS = {1: [(0.5, 0.5)], 2: [(0.27, 0.27), (0.73, 0.73)], 3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)]}
# The 24 turns of a cube, as signed permutation matrices of determinant 1.
TURNS = [np.diag(s)[list(p)] for p in permutations(range(3)) for s in product((1, -1), repeat=3)
         if round(np.linalg.det(np.diag(s)[list(p)])) == 1]


def orient(numbers: list, top, rng: np.random.Generator) -> list:
    """The numbers on faces 0..5 after a random turn that brings ``top`` up (face 4)."""
    turns = []
    for q in TURNS:
        faces = [numbers[int(np.argmax(NORMALS @ (q.T @ n)))] for n in NORMALS]
        if faces[4] == top:
            turns.append(faces)
    return turns[rng.integers(len(turns))]


@lru_cache(maxsize=64)
def die_picture(n: int, colour: tuple, pip: tuple, size: int = 48) -> np.ndarray:
    """A die's face with ``n`` pips: rounded edges darker, pips slightly sunk."""
    img = np.full((size, size, 3), colour, np.uint8)
    cv2.rectangle(img, (0, 0), (size - 1, size - 1), tuple(int(v * 0.72) for v in colour), 2, cv2.LINE_AA)
    for u, v in PIPS[n]:
        centre = (int(u * size * 16), int(v * size * 16))
        cv2.circle(img, centre, int(size * 0.095 * 16), pip, -1, cv2.LINE_AA, shift=4)
    return img


@lru_cache(maxsize=64)
def cube_picture(value: int, colour: tuple, ink: tuple, size: int = 64) -> np.ndarray:
    """A face of the doubling cube showing ``value`` in bold figures."""
    img = np.full((size, size, 3), colour, np.uint8)
    cv2.rectangle(img, (0, 0), (size - 1, size - 1), tuple(int(v * 0.75) for v in colour), 2, cv2.LINE_AA)
    text = str(value)
    font, thick = cv2.FONT_HERSHEY_DUPLEX, 3
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = min(0.7 * size / tw, 0.55 * size / th)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(img, text, ((size - tw) // 2, (size + th) // 2), font, scale, ink, thick, cv2.LINE_AA)
    return img


@dataclass
class Solid:
    """A die or the cube as placed: its box, the numbers on its faces and the one that counts."""

    kind: str  # "die" or "cube"
    box: Box
    faces: list

    @property
    def value(self) -> int:
        return self.faces[self.box.up_face()]

    @property
    def flat(self) -> bool:
        return bool(self.box.normals()[self.box.up_face(), 2] < -0.985)

    def pictures(self, style) -> list:
        if self.kind == "die":
            return [die_picture(n, style.dice_colour, style.pip_colour) for n in self.faces]
        return [cube_picture(n, style.cube_colour, style.cube_ink) for n in self.faces]


def die(rng: np.random.Generator, value: int, xy, size: float, lean: tuple | None = None) -> Solid:
    """A die showing ``value`` at plane ``xy``; ``lean`` = (direction in degrees, angle) cocks it."""
    yaw = rotation("z", rng.uniform(0, 360))
    half = np.full(3, size / 2)
    if lean is None:
        return Solid("die", Box(np.array([xy[0], xy[1], -size / 2]), half, yaw), orient(DIE_FACES, value, rng))
    direction, angle = lean
    # Tilt about the horizontal axis across the lean, then rest the lowest corner on the board
    # (the upper face leans on the checker's edge).
    r = rotation("z", direction) @ rotation("y", angle) @ rotation("z", -direction) @ yaw
    box = Box(np.array([xy[0], xy[1], 0.0]), half, r)
    box.centre[2] = -box.corners()[:, 2].max()
    return Solid("die", box, orient(DIE_FACES, value, rng))


def throw(rng: np.random.Generator, geo: Geometry, checkers: list[Checker], thrower: str,
          values: tuple, invalid: str | None = None, variant: str = "backgammon") -> list[Solid]:
    """Two dice showing ``values`` thrown by ``thrower``; ``invalid`` is one of INVALID_KINDS or None.
    A throw in the other half is both dice there or one, in backgammon (the thrower's right-hand
    half, RULES 2.3); in long nardy, where either half counts, the dice across both (seed 002)."""
    size = D * rng.uniform(0.55, 0.72)
    own = "right" if thrower == "light" else "left"
    other_half = "left" if own == "right" else "right"
    bad = int(rng.integers(2))  # which die is the faulty one
    halves = [own, own]
    if invalid == "other_half":
        both = rng.random() < 0.4 and variant == "backgammon"
        halves = [other_half, other_half] if both else [other_half if i == bad else own for i in range(2)]
    spots: list = []
    solids = []
    for i, value in enumerate(values):
        if invalid == "off_board" and i == bad:
            xy = off_board_spot(rng, geo, size)
            solids.append(die(rng, value, xy, size))
        elif invalid == "cocked" and i == bad:
            xy, direction = lean_spot(rng, geo, checkers, halves[i], size)
            solids.append(die(rng, value, xy, size, lean=(direction, rng.uniform(18, 38))))
        else:
            xy = free_spot(rng, geo, checkers, halves[i], size, spots)
            solids.append(die(rng, value, xy, size))
        spots.append(xy)
    return solids


def free_spot(rng, geo: Geometry, checkers: list[Checker], half: str, size: float, taken: list) -> tuple:
    """A resting place in ``half`` of the field clear of checkers and of the other die."""
    x0, x1 = geo.halves[0] if half == "left" else geo.halves[1]
    pad = size * 0.75
    best, best_gap = None, -np.inf
    for _ in range(40):
        xy = (rng.uniform(x0 + pad, x1 - pad), rng.uniform(geo.field_top + pad, geo.field_bottom - pad))
        gap = min([np.hypot(c.x - xy[0], c.y - xy[1]) - D / 2 - pad for c in checkers if c.where == "point"]
                  + [np.hypot(t[0] - xy[0], t[1] - xy[1]) - 2 * pad for t in taken] + [D])
        if gap > 0:
            return xy
        if gap > best_gap:
            best, best_gap = xy, gap
    return best


def lean_spot(rng, geo: Geometry, checkers: list[Checker], half: str, size: float) -> tuple:
    """Where a cocked die rests against a checker of ``half`` (or the rail) and its lean direction."""
    x0, x1 = geo.halves[0] if half == "left" else geo.halves[1]
    near = [c for c in checkers if c.where == "point" and x0 < c.x < x1 and c.base == 0]
    if near:
        c = near[rng.integers(len(near))]
        towards = np.radians(90 if c.y > (geo.field_top + geo.field_bottom) / 2 else -90) + rng.normal(0, 0.5)
        centre = np.array([c.x, c.y]) - np.array([np.cos(towards), np.sin(towards)]) * (D / 2 + size * 0.55)
        return tuple(centre), float(np.degrees(towards))
    top = rng.random() < 0.5
    y = geo.field_top + size * 0.55 if top else geo.field_bottom - size * 0.55
    return (rng.uniform(x0 + size, x1 - size), y), -90.0 if top else 90.0


def off_board_spot(rng, geo: Geometry, size: float) -> tuple:
    """A place on the table just beyond the board's frame, above or below it."""
    x0, y0 = geo.board[0]
    x1, y1 = geo.board[2]
    gap = rng.uniform(0.8, 3.0) * size
    y = y0 - gap if rng.random() < 0.5 else y1 + gap
    return rng.uniform(x0, x1), y


def place_cube(rng: np.random.Generator, geo: Geometry, value: int, owner: str | None) -> tuple[Solid, str]:
    """The cube showing ``value`` (1 shows 64), in the middle or at ``owner``'s side; and where exactly."""
    size = D * rng.uniform(0.75, 0.95)
    bar_x = (geo.bar[0] + geo.bar[1]) / 2
    mid = (geo.field_top + geo.field_bottom) / 2
    if owner is None:
        spot, xy = "bar_middle", (bar_x, mid)
    else:
        sign = 1 if owner == "light" else -1
        spot = ("bar_end", "rail", "table")[rng.choice(3, p=[0.5, 0.3, 0.2])]
        if spot == "bar_end":
            xy = (bar_x, mid + sign * (geo.field_h / 2 - size * 0.7))
        elif spot == "rail":
            rail_y = geo.board[2, 1] if owner == "light" else geo.board[0, 1]
            xy = (rng.uniform(geo.halves[0][0], geo.halves[1][1]), rail_y - sign * (geo.field_top - geo.board[0, 1]) / 2)
        else:
            xy = (rng.uniform(geo.halves[0][0], geo.halves[1][1]),
                  (geo.board[2, 1] if owner == "light" else geo.board[0, 1]) + sign * size * rng.uniform(1.0, 2.5))
    box = Box(np.array([xy[0], xy[1], -size / 2]), np.full(3, size / 2), rotation("z", rng.normal(0, 12)))
    return Solid("cube", box, orient(CUBE_FACES, 64 if value == 1 else value, rng)), spot
