"""Where a position's checkers lie on the physical board, and back.

The physical board is seen from the light player's seat. It has two rows of 12 points, each
numbered here as a *slot* 0..11 from left to right, a bar in the middle of each row (between
slots 5 and 6) and the borne-off trays at the right-hand end.

Which checkers lie where (RULES 1):

- Light sits at the bottom. Light's point 1 is the bottom-right point, 12 the bottom-left, 13
  the top-left and 24 the top-right, in both variants.
- Backgammon: dark moves the other way, dark's point p is light's point 25 - p (dark's 1 is the
  top-right point, its 24 the bottom-right).
- Long nardy: both move the same way round; dark's point p is light's point p + 12 (mod 24), so
  light's head (its 24) is the top-right point and dark's head the bottom-left.
- Light's hit checkers lie on the bottom half of the bar, dark's on the top half; light bears
  off into the bottom tray, dark into the top one.

A position is Board JSON (RULES 9), written for the side to move, so turning it into checkers
also needs that side's colour. The recognizer's form of a board is :func:`recognizer_form`.

>>> board = start_board("long")
>>> phys = Physical.from_board(board, mover="dark")
>>> phys.rows["top"][11].count("light"), phys.rows["bottom"][0].count("dark")
(15, 15)
>>> phys.to_board(mover="dark") == board
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import VARIANTS, Position

COLOURS = ("light", "dark")
CHECKERS = 15
ROWS = ("top", "bottom")


def other(colour: str) -> str:
    """The other colour: ``other("light") == "dark"``."""
    return "dark" if colour == "light" else "light"


def light_point_slot(point: int) -> tuple[str, int]:
    """The row and slot of light's ``point`` (1..24): ``light_point_slot(1) == ("bottom", 11)``."""
    if not 1 <= point <= 24:
        raise ValueError(f"point {point} is not in 1..24")
    if point <= 12:
        return "bottom", 12 - point
    return "top", point - 13


def light_point(colour: str, point: int, variant: str) -> int:
    """Light's number for ``colour``'s ``point``: ``light_point("dark", 1, "backgammon") == 24``."""
    return point if colour == "light" else VARIANTS[variant].opponent_point(point)


def point_slot(colour: str, point: int, variant: str) -> tuple[str, int]:
    """The row and slot of ``colour``'s ``point``: ``point_slot("dark", 24, "long") == ("bottom", 0)``."""
    return light_point_slot(light_point(colour, point, variant))


def slot_point(colour: str, row: str, slot: int, variant: str) -> int:
    """``colour``'s number of a slot, the inverse of :func:`point_slot`.

    >>> slot_point("dark", "bottom", 0, "long")
    24
    """
    light = 12 - slot if row == "bottom" else 13 + slot
    for point in range(1, 25):
        if light_point(colour, point, variant) == light:
            return point
    raise AssertionError("light_point is a bijection")


def start_board(variant: str) -> dict:
    """The starting position in Board JSON (RULES 1)."""
    return Position.start(variant).to_json()


@dataclass
class Physical:
    """Checkers as they lie: per row, per slot, the colours bottom to top; bar and off per colour.

    A slot normally holds one colour. It holds a list of colours, not a count, because the
    renderer must show exactly what a transcript says, even an illegal play onto an opponent's
    point, and the recognizer must then see the mixed stack.
    """

    variant: str
    rows: dict = field(default_factory=dict)  # row -> 12 stacks, each a list of colours
    bar: dict = field(default_factory=lambda: {c: 0 for c in COLOURS})
    off: dict = field(default_factory=lambda: {c: 0 for c in COLOURS})

    def __post_init__(self):
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}")
        for row in ROWS:
            self.rows.setdefault(row, [[] for _ in range(12)])

    @classmethod
    def from_board(cls, board: dict, mover: str) -> "Physical":
        """The checkers of Board JSON ``board`` whose side to move plays ``mover``."""
        check_board(board)
        phys = cls(board["variant"])
        for colour, key in ((mover, "player"), (other(mover), "opponent")):
            for index, n in enumerate(board[key]):
                row, slot = point_slot(colour, index + 1, phys.variant)
                phys.rows[row][slot].extend([colour] * n)
            phys.bar[colour] = board[f"{key}_bar"]
            phys.off[colour] = CHECKERS - sum(board[key]) - board[f"{key}_bar"]
        return phys

    def counts(self, colour: str) -> list[int]:
        """``colour``'s checkers per point in its own numbering (index 0 = its point 1)."""
        out = [0] * 24
        for row in ROWS:
            for slot, stack in enumerate(self.rows[row]):
                out[slot_point(colour, row, slot, self.variant) - 1] += stack.count(colour)
        return out

    def to_board(self, mover: str) -> dict:
        """Board JSON with ``mover`` as the side to move (the held checkers count as off)."""
        opp = other(mover)
        return {"variant": self.variant, "player": self.counts(mover), "player_bar": self.bar[mover],
                "opponent": self.counts(opp), "opponent_bar": self.bar[opp]}

    def stack(self, colour: str, point: int) -> list:
        """The stack holding ``colour``'s ``point``."""
        row, slot = point_slot(colour, point, self.variant)
        return self.rows[row][slot]

    def on_board(self, colour: str) -> int:
        """How many of ``colour``'s checkers are on points or on the bar."""
        return sum(self.counts(colour)) + self.bar[colour]

    def copy(self) -> "Physical":
        return Physical(self.variant, {r: [list(s) for s in self.rows[r]] for r in ROWS},
                        dict(self.bar), dict(self.off))


def check_board(board: dict) -> None:
    """Raise ``ValueError`` unless ``board`` is well-formed Board JSON with 15 checkers or fewer a side."""
    if board.get("variant") not in VARIANTS:
        raise ValueError(f"variant must be one of {tuple(VARIANTS)}")
    for key in ("player", "opponent"):
        counts, bar = board.get(key), board.get(f"{key}_bar", 0)
        if not (isinstance(counts, list) and len(counts) == 24
                and all(isinstance(n, int) and n >= 0 for n in counts)):
            raise ValueError(f"{key} must be 24 counts")
        if not (isinstance(bar, int) and bar >= 0):
            raise ValueError(f"{key}_bar must be a count")
        if sum(counts) + bar > CHECKERS:
            raise ValueError(f"{key} has more than {CHECKERS} checkers")
        if board["variant"] == "long" and bar:
            raise ValueError("long nardy has no bar")


def recognizer_form(phys: Physical, dice: list, throw_valid: bool, cube: dict | None) -> dict:
    """The board as the recognizer reports it.

    ``top`` and ``bottom`` list ``[colour, count]`` per slot left to right (colour ``None`` on an
    empty point; on a mixed stack, the colour of the checker on top); ``cube`` is
    ``{"value": v, "location": "middle" | "light" | "dark"}`` or ``None`` when no cube is on view.

    >>> form = recognizer_form(Physical.from_board(start_board("long"), "light"), [], False, None)
    >>> form["top"][11], form["off"]
    (['light', 15], {'light': 0, 'dark': 0})
    """
    rows = {row: [[stack[-1] if stack else None, len(stack)] for stack in phys.rows[row]]
            for row in ROWS}
    return {**rows, "bar": dict(phys.bar), "off": dict(phys.off), "dice": list(dice),
            "throw_valid": bool(throw_valid), "cube": dict(cube) if cube else None}
