"""XGID, eXtreme Gammon's position-and-match string (RULES 9).

``XGID=<position>:<cube>:<owner>:<turn>:<dice>:<score bottom>:<score top>:<flags>:<length>:<max cube>``

* position: 26 characters. The first is the top player's bar, then points 1..24 counted
  from the bottom player's side, then the bottom player's bar. ``-`` is empty, ``A``..``O``
  are 1..15 checkers of the bottom player, ``a``..``o`` of the top player.
* cube: log2 of its value; owner: 1 bottom, -1 top, 0 centred; turn: 1 bottom, -1 top.
* dice: two digits, ``00`` not yet thrown, ``D`` double offered, ``B`` beaver, ``R`` raccoon.
* flags: in a match 1 for the Crawford game; in money play Jacoby (1) plus beaver (2).
* length: the match length, 0 for money play; max cube: log2 of the cube limit.

:attr:`XGID.position` is, like every engine position, seen from the side on roll.

>>> x = XGID.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
>>> x.position == Position.start(), x.dice, x.match_length
(True, (5, 2), 7)
>>> str(x)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidPositionError
from engine.position import Position
from engine.variant import BACKGAMMON

DICE_MARKS = ("D", "B", "R")


def _count(char: str) -> tuple[int, int]:
    """(bottom, top) checkers for one position character."""
    if char == "-":
        return 0, 0
    if "A" <= char <= "O":
        return ord(char) - ord("A") + 1, 0
    if "a" <= char <= "o":
        return 0, ord(char) - ord("a") + 1
    raise InvalidPositionError(f"not an XGID position character: {char!r}")


def _char(bottom: int, top: int) -> str:
    if bottom and top:
        raise InvalidPositionError("XGID cannot write both colours on one point")
    if bottom:
        return chr(ord("A") + bottom - 1)
    if top:
        return chr(ord("a") + top - 1)
    return "-"


@dataclass(frozen=True)
class XGID:
    """A position with its cube, score and dice, as XGID writes them."""

    position: Position
    cube_value: int = 1
    cube_owner: int = 0  # 1 bottom, -1 top, 0 centred
    turn: int = 1  # 1: the bottom player is on roll (is the mover); -1: the top player
    dice: tuple[int, int] | str | None = None  # None not thrown, or one of DICE_MARKS
    score_bottom: int = 0
    score_top: int = 0
    crawford: bool = False  # match play: this is the Crawford game
    jacoby: bool = False  # money play
    beaver: bool = False  # money play
    match_length: int = 0
    max_cube: int = 1 << 10

    @classmethod
    def parse(cls, text: str) -> "XGID":
        body = text.strip()
        if body.upper().startswith("XGID="):
            body = body[5:]
        fields = body.split(":")
        if len(fields) not in (9, 10):
            raise InvalidPositionError(f"an XGID has 9 or 10 fields separated by ':', not {len(fields)}: {text!r}")
        chars = fields[0]
        if len(chars) != 26:
            raise InvalidPositionError(f"an XGID position has 26 characters, not {len(chars)}")
        counts = [_count(c) for c in chars]
        try:
            cube_log, owner, turn = int(fields[1]), int(fields[2]), int(fields[3])
            score_bottom, score_top = int(fields[5]), int(fields[6])
            flags, length = int(fields[7]), int(fields[8])
            max_log = int(fields[9]) if len(fields) == 10 else 10
        except ValueError:
            raise InvalidPositionError(f"XGID fields 2-4 and 6-10 are whole numbers: {text!r}") from None
        if not 0 <= cube_log <= 15 or owner not in (-1, 0, 1) or turn not in (-1, 1):
            raise InvalidPositionError(f"XGID cube, owner or turn out of range: {text!r}")
        if min(score_bottom, score_top, length, flags) < 0 or not 0 <= max_log <= 15:
            raise InvalidPositionError(f"XGID score, length, flags or cube limit out of range: {text!r}")
        dice_field = fields[4]
        if dice_field in DICE_MARKS:
            dice = dice_field
        elif len(dice_field) == 2 and dice_field.isdigit():
            a, b = int(dice_field[0]), int(dice_field[1])
            if (a, b) == (0, 0):
                dice = None
            elif 1 <= a <= 6 and 1 <= b <= 6:
                dice = (a, b)
            else:
                raise InvalidPositionError(f"XGID dice must be 00 or two digits 1-6: {dice_field!r}")
        else:
            raise InvalidPositionError(f"XGID dice must be 00, two digits, D, B or R: {dice_field!r}")
        # points 1..24 from the bottom player's side; the top player's p is index 25 - p.
        bottom = [counts[p][0] for p in range(1, 25)]
        top = [counts[25 - p][1] for p in range(1, 25)]
        bottom_bar, top_bar = counts[25][0], counts[0][1]
        if counts[25][1] or counts[0][0]:
            raise InvalidPositionError("an XGID bar holds the wrong colour")
        if turn == 1:
            position = Position(bottom, top, mover_bar=bottom_bar, opponent_bar=top_bar,
                                variant=BACKGAMMON)
        else:
            position = Position(top, bottom, mover_bar=top_bar, opponent_bar=bottom_bar,
                                variant=BACKGAMMON)
        match = length > 0
        return cls(position, 1 << cube_log, owner, turn, dice, score_bottom, score_top,
                   crawford=match and flags & 1 == 1, jacoby=not match and flags & 1 == 1,
                   beaver=not match and flags & 2 == 2, match_length=length,
                   max_cube=1 << max_log)

    def __str__(self) -> str:
        pos = self.position
        if self.turn == 1:
            bottom, top = pos.mover, pos.opponent
            bottom_bar, top_bar = pos.mover_bar, pos.opponent_bar
        else:
            bottom, top = pos.opponent, pos.mover
            bottom_bar, top_bar = pos.opponent_bar, pos.mover_bar
        chars = [_char(0, top_bar)]
        chars += [_char(bottom[p - 1], top[24 - p]) for p in range(1, 25)]
        chars.append(_char(bottom_bar, 0))
        if self.dice is None:
            dice = "00"
        elif isinstance(self.dice, str):
            dice = self.dice
        else:
            dice = f"{self.dice[0]}{self.dice[1]}"
        if self.match_length:
            flags = int(self.crawford)
        else:
            flags = int(self.jacoby) + 2 * int(self.beaver)
        fields = ["".join(chars), str(self.cube_value.bit_length() - 1), str(self.cube_owner),
                  str(self.turn), dice, str(self.score_bottom), str(self.score_top), str(flags),
                  str(self.match_length), str(self.max_cube.bit_length() - 1)]
        return "XGID=" + ":".join(fields)
