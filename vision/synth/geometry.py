"""The board plane: where the rails, points, bar and trays lie, and where each checker is laid.

Everything is drawn top-down in a *board plane* image whose unit is the plane pixel; a checker
is ``D`` plane pixels across. The plane also holds a margin of table round the board, for the
clutter and the arms. Heights (a checker's thickness, a die's size, a hand above the board) are
in the same unit, measured upwards; the camera turns them into parallax.

Stacks are laid as players lay them: from the rail towards the middle in a row of five, then a
second, third... layer on top, each shifted half a checker so its edge shows (5 + 4 + 3 + 2 + 1
holds all 15); with ``long_stacks`` a row runs on past the middle while the point opposite
leaves room, as the long nardy head is often laid.

>>> import numpy as np
>>> from vision.synth.styles import sample_style
>>> geo = Geometry(sample_style(np.random.default_rng(1)), np.random.default_rng(1))
>>> stack_places(7, 5)
[(0.0, 0), (1.0, 0), (2.0, 0), (3.0, 0), (4.0, 0), (0.5, 1), (1.5, 1)]
>>> len(geo.point_polygons["top"]), geo.point_polygons["top"][0].shape
(12, (3, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.layout import COLOURS, ROWS, Physical
from vision.synth.styles import Style

D = 48  # plane pixels per checker diameter


def stack_places(n: int, row_length: int) -> list[tuple[float, int]]:
    """(distance from the rail in checkers, layer) of each of ``n`` checkers in a stack."""
    places, layer = [], 0
    while len(places) < n:
        length = max(1, row_length - layer)
        places += [(j + 0.5 * layer, layer) for j in range(length)][: n - len(places)]
        layer += 1
    return places


@dataclass
class Checker:
    """One checker to draw: its colour, centre on the plane, how high its base lies, where it is."""

    colour: str
    x: float
    y: float
    base: float  # height of its underside above the board, plane pixels
    where: str  # "point", "bar" or "off"
    on_edge: bool = False  # standing on its edge in a tray


class Geometry:
    """The measurements of one board in the plane, drawn from its style's proportions."""

    def __init__(self, style: Style, rng: np.random.Generator):
        self.style = style
        w, length = style.point_width * D, style.point_length * D
        rail, bar = style.rail_width * D, style.bar_width * D
        self.point_w, self.point_len = w, length
        self.field_h = 2 * length + style.middle_gap * D
        tray = style.tray_width * D if style.has_trays else 0.0
        board_w = 2 * rail + 12 * w + bar + (tray + rail if tray else 0)
        board_h = 2 * rail + self.field_h
        margin = int(0.45 * board_w)
        self.size = (int(board_w + 2 * margin), int(board_h + 2 * margin))  # plane (width, height)
        x0, y0 = float(margin), float(margin)
        self.board = np.array([[x0, y0], [x0 + board_w, y0], [x0 + board_w, y0 + board_h], [x0, y0 + board_h]])
        self.field_top, self.field_bottom = y0 + rail, y0 + rail + self.field_h
        self.halves = ((x0 + rail, x0 + rail + 6 * w), (x0 + rail + 6 * w + bar, x0 + rail + 12 * w + bar))
        self.bar = (self.halves[0][1], self.halves[1][0])
        self.field = np.array([[self.halves[0][0], self.field_top], [self.halves[1][1], self.field_top],
                               [self.halves[1][1], self.field_bottom], [self.halves[0][0], self.field_bottom]])
        self.trays = None
        if tray:
            tx0, tx1 = self.halves[1][1] + rail, self.halves[1][1] + rail + tray
            mid = (self.field_top + self.field_bottom) / 2
            self.trays = {"dark": np.array([tx0, self.field_top, tx1, mid - rail / 4]),
                          "light": np.array([tx0, mid + rail / 4, tx1, self.field_bottom])}
        self.point_polygons = {row: [self._point_polygon(row, slot) for slot in range(12)] for row in ROWS}
        # Players never lay checkers exactly in line: a fixed small offset per place keeps a
        # stack still from frame to frame of a video.
        self.wobble = rng.normal(0, 0.035 * D, (2, 12, 16, 2))

    def slot_x(self, slot: int) -> float:
        """Centre x of slot 0..11 (left to right)."""
        half = self.halves[slot // 6]
        return half[0] + (slot % 6 + 0.5) * self.point_w

    def rail_y(self, row: str) -> tuple[float, int]:
        """The rail end of a point in ``row`` and the direction (+1 down) towards the middle."""
        return (self.field_top, 1) if row == "top" else (self.field_bottom, -1)

    def _point_polygon(self, row: str, slot: int) -> np.ndarray:
        x, (y, sign) = self.slot_x(slot), self.rail_y(row)
        half = self.point_w / 2
        return np.array([[x - half, y], [x + half, y], [x, y + sign * self.point_len]])

    def bar_polygon(self) -> np.ndarray:
        return np.array([[self.bar[0], self.field_top], [self.bar[1], self.field_top],
                         [self.bar[1], self.field_bottom], [self.bar[0], self.field_bottom]])

    def tray_polygon(self, colour: str) -> np.ndarray | None:
        if self.trays is None:
            return None
        x0, y0, x1, y1 = self.trays[colour]
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    def half_of(self, x: float) -> str:
        """"left" or "right" half of the board for a plane x."""
        return "left" if x < (self.bar[0] + self.bar[1]) / 2 else "right"

    def checkers(self, phys: Physical) -> list[Checker]:
        """Every checker of ``phys`` with its place, in drawing order (lower layers first)."""
        h = self.style.checker_height * D
        out = []
        fit = int(self.field_h / D - 0.25)
        for r, row in enumerate(ROWS):
            other_row = phys.rows[ROWS[1 - r]]
            for slot, stack in enumerate(phys.rows[row]):
                facing = len(other_row[slot])
                length = max(5, fit - facing) if self.style.long_stacks and facing <= 5 else 5
                x, (y, sign) = self.slot_x(slot), self.rail_y(row)
                for k, ((along, layer), colour) in enumerate(zip(stack_places(len(stack), length), stack)):
                    dx, dy = self.wobble[r, slot, min(k, 15)]
                    out.append(Checker(colour, x + dx, y + sign * (D / 2 + along * D) + dy, layer * h, "point"))
        mid, bar_x = (self.field_top + self.field_bottom) / 2, (self.bar[0] + self.bar[1]) / 2
        # A bar stack starts clear of a cube in the middle of the bar (at most 0.95 D across,
        # turned a little), as a player lays a checker hit beside it, not under it.
        first = 1.1 * D
        half_fit = max(1, int((self.field_h / 2 - first + D / 2) / D))
        for colour, sign in (("light", 1), ("dark", -1)):
            for along, layer in stack_places(phys.bar[colour], half_fit):
                out.append(Checker(colour, bar_x, mid + sign * (first + along * D), layer * h, "bar"))
            out += self._off(colour, phys.off[colour])
        return sorted(out, key=lambda c: c.base)

    def _off(self, colour: str, n: int) -> list[Checker]:
        """Borne-off checkers: on edge, side by side, in the tray; else in a pile beside the board."""
        h = self.style.checker_height * D
        sign = 1 if colour == "light" else -1
        if self.trays is not None:
            x0, y0, x1, y1 = self.trays[colour]
            start = y1 - 0.1 * D if colour == "light" else y0 + 0.1 * D
            return [Checker(colour, (x0 + x1) / 2, start - sign * (k + 0.5) * h * 1.05, 0.0, "off", on_edge=True)
                    for k in range(n)]
        x = self.board[1, 0] + 0.9 * D
        start = self.board[2, 1] - 0.5 * D if colour == "light" else self.board[1, 1] + 0.5 * D
        return [Checker(colour, x + 0.02 * D * layer, start - sign * along * D, layer * h, "off")
                for along, layer in stack_places(n, 4)]

    def outline(self) -> dict:
        """The truth's geometry on the plane: corners, field, 24 points, bar and trays."""
        return {"corners": self.board, "field": self.field,
                "points": {row: list(self.point_polygons[row]) for row in ROWS},
                "bar": self.bar_polygon(),
                "trays": {c: self.tray_polygon(c) for c in COLOURS} if self.trays is not None else None}
