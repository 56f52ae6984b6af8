"""Positions, plays and the transition check: the engine's value types.

A :class:`Position` is always seen from the side to move (RULES 1, 9): ``mover`` and
``opponent`` are 24 counts in each side's own numbering (index 0 = its point 1), plus bars.

>>> start = Position.start()
>>> len(start.plays(3, 1))
16
>>> after = start.apply("8/5 6/5")
>>> start.check(3, 1, after).play
'8/5 6/5'
>>> start.check(3, 1, start).reason
'too_few_dice'
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

import numpy as np

from engine import ids, kernels
from engine.errors import InvalidDiceError, InvalidPlayError, InvalidPositionError
from engine.notation import Move, format_play, parse_play
from engine.reasons import CODE_OF, REASONS
from engine.variant import BACKGAMMON, VARIANTS, Variant

_workspaces = threading.local()


def workspace() -> tuple:
    """This thread's kernel buffers (the kernels write into them)."""
    ws = getattr(_workspaces, "ws", None)
    if ws is None:
        ws = _workspaces.ws = kernels.Workspace().arrays
    return ws


def validate_dice(d1, d2) -> tuple[int, int]:
    """Two dice as ints 1..6, or :class:`InvalidDiceError`."""
    out = []
    for die in (d1, d2):
        if isinstance(die, bool) or not isinstance(die, (int, np.integer)) or not 1 <= die <= 6:
            raise InvalidDiceError(f"a die shows 1 to 6, not {die!r}")
        out.append(int(die))
    return out[0], out[1]


@dataclass(frozen=True)
class Play:
    """One legal play: its steps ``(from, to, hit)``, its notation and the position after."""

    steps: tuple[Move, ...]
    position: "Position"

    @property
    def notation(self) -> str:
        return format_play(self.steps)

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True)
class Verdict:
    """The answer of :meth:`Position.check`: legal with its play, or illegal with a reason."""

    legal: bool
    play: str | None = None
    reason: str | None = None

    @property
    def detail(self) -> str | None:
        return REASONS[self.reason] if self.reason else None

    def to_json(self) -> dict:
        if self.legal:
            return {"legal": True, "play": self.play}
        return {"legal": False, "reason": self.reason, "detail": self.detail}


class Position:
    """A position of either variant, from the point of view of the side to move."""

    __slots__ = ("variant", "_board", "_key")

    def __init__(self, mover, opponent, *, mover_bar: int = 0, opponent_bar: int = 0,
                 variant: Variant = BACKGAMMON):
        board = np.zeros(kernels.BOARD_SIZE, np.int8)
        if len(mover) != 24 or len(opponent) != 24:
            raise InvalidPositionError("each side has 24 points")
        counts = list(mover) + [mover_bar] + list(opponent) + [opponent_bar]
        for count in counts:
            if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or not 0 <= count <= 15:
                raise InvalidPositionError(f"a point holds 0 to 15 checkers, not {count!r}")
        if variant.block_min == 1 and (mover_bar or opponent_bar):
            raise InvalidPositionError(f"{variant.name} has no bar")
        board[:] = counts
        for side in (board[:25], board[25:]):
            if int(side.sum()) > 15:
                raise InvalidPositionError(f"a side has {int(side.sum())} checkers (at most 15)")
        board.setflags(write=False)
        self.variant = variant
        self._board = board
        self._key = board.tobytes()

    # --- construction ------------------------------------------------------------------
    @classmethod
    def start(cls, variant: Variant | str = BACKGAMMON) -> "Position":
        """The starting position of a variant (RULES 1)."""
        variant = _variant(variant)
        return cls(variant.start, variant.start, variant=variant)

    @classmethod
    def from_board(cls, board, variant: Variant = BACKGAMMON) -> "Position":
        """From a kernel board (see :mod:`engine.kernels`)."""
        b = [int(x) for x in board]
        return cls(b[0:24], b[25:49], mover_bar=b[24], opponent_bar=b[49], variant=variant)

    @classmethod
    def _of_board(cls, board: np.ndarray, variant: Variant) -> "Position":
        """From a kernel board this module made from a valid one: no checks (hot path)."""
        pos = object.__new__(cls)
        board = board.astype(np.int8)
        board.setflags(write=False)
        pos.variant = variant
        pos._board = board
        pos._key = board.tobytes()
        return pos

    @classmethod
    def from_json(cls, data) -> "Position":
        """From Board JSON (RULES 9), a dict or its text.

        >>> Position.from_json({"variant": "long", "player": [0] * 23 + [15], "player_bar": 0,
        ...                     "opponent": [0] * 23 + [15], "opponent_bar": 0}).position_id()
        'LN:AACA/z8AAMD/Hw'
        """
        if isinstance(data, str):
            data = _json_object(data)
        if not isinstance(data, dict):
            raise InvalidPositionError("Board JSON is an object")
        unknown = set(data) - {"variant", "player", "player_bar", "opponent", "opponent_bar"}
        if unknown:
            raise InvalidPositionError(f"Board JSON has unknown keys: {', '.join(sorted(unknown))}")
        try:
            variant = _variant(data.get("variant", "backgammon"))
            return cls(data["player"], data["opponent"], mover_bar=data.get("player_bar", 0),
                       opponent_bar=data.get("opponent_bar", 0), variant=variant)
        except KeyError as exc:
            raise InvalidPositionError(f"Board JSON lacks {exc.args[0]!r}") from None
        except TypeError:
            raise InvalidPositionError("Board JSON's player and opponent are lists of 24 counts") from None

    @classmethod
    def parse(cls, text, variant: Variant | str | None = None) -> "Position":
        """From any text form: GNU Position ID or XGID (backgammon), long nardy ID, or
        Board JSON (text or dict; its ``variant`` defaults to ``variant``).

        >>> Position.parse("4HPwATDgc/ABMA") == Position.start()
        True
        """
        wanted = _variant(variant) if variant is not None else None
        if isinstance(text, str) and text.strip().startswith("{"):
            text = _json_object(text)
        if isinstance(text, dict):
            if wanted is not None and "variant" not in text:
                text = {**text, "variant": wanted.name}
            pos = cls.from_json(text)
        elif not isinstance(text, str):
            raise InvalidPositionError(f"a position is text or Board JSON, not {type(text).__name__}")
        else:
            text = text.strip()
            if text.startswith(ids.LONG_PREFIX):
                mover, opponent = ids.decode_long(text)
                pos = cls(mover, opponent, variant=VARIANTS["long"])
            elif text.upper().startswith("XGID=") or text.count(":") >= 8:
                from engine.xgid import XGID

                pos = XGID.parse(text).position
            elif len(text) == 14 and ":" not in text:
                mover, opponent = ids.decode_gnu(text)
                pos = cls(mover[:24], opponent[:24], mover_bar=mover[24],
                          opponent_bar=opponent[24])
            else:
                raise InvalidPositionError(
                    f"not a GNU Position ID, XGID, long nardy ID or Board JSON: {text!r}")
        if wanted is not None and pos.variant is not wanted:
            raise InvalidPositionError(f"the position is {pos.variant.name}, not {wanted.name}")
        return pos

    # --- reading -----------------------------------------------------------------------
    @property
    def board(self) -> np.ndarray:
        """The kernel board (read-only ``int8[50]``)."""
        return self._board

    @property
    def mover(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self._board[0:24])

    @property
    def opponent(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self._board[25:49])

    @property
    def mover_bar(self) -> int:
        return int(self._board[24])

    @property
    def opponent_bar(self) -> int:
        return int(self._board[49])

    @property
    def mover_off(self) -> int:
        return 15 - int(self._board[:25].sum())

    @property
    def opponent_off(self) -> int:
        return 15 - int(self._board[25:].sum())

    def pip_counts(self) -> tuple[int, int]:
        """Pips the mover and the opponent still have to travel (the bar counts 25)."""
        weights = np.arange(1, 26)
        return (int((self._board[:25] * weights).sum()), int((self._board[25:] * weights).sum()))

    def shared_points(self) -> list[int]:
        """The mover's points where both colours stand (a camera can see that)."""
        b = self._board
        return (np.flatnonzero((b[:24] > 0) & (b[25:49][self.variant.facing] > 0)) + 1).tolist()

    def problem(self) -> str | None:
        """Why no game can be in this position, or None: a point that holds both colours
        (RULES 1), or in long nardy a side that has borne off with checkers outside its home
        board (bearing off begins with all of them home, 3.6, and without hits, 3.3, none ever
        leaves it). The engine plays from the second (:meth:`validate`), a camera's reading of
        it is a misread.

        >>> Position.start("long").problem() is None
        True
        >>> long = VARIANTS["long"]
        >>> Position([2] * 6 + [0] * 6 + [1, 1] + [0] * 10, Position.start(long).opponent, variant=long).problem()
        'the mover has borne off with checkers outside its home board (long nardy: RULES 3.3, 3.6)'
        """
        shared = self.shared_points()
        if shared:
            return f"both colours stand on the mover's point {shared[0]} (RULES 1)"
        if not self.variant.hits:
            for side, name in ((self._board[:25], "the mover"), (self._board[25:], "the opponent")):
                if int(side.sum()) < 15 and int(side[6:].sum()):
                    return f"{name} has borne off with checkers outside its home board (long nardy: RULES 3.3, 3.6)"
        return None

    def validate(self) -> "Position":
        """Itself, if the rules can be applied to it (no point holds both colours); else
        :class:`InvalidPositionError`."""
        shared = self.shared_points()
        if shared:
            raise InvalidPositionError(f"both colours stand on the mover's point {shared[0]}")
        return self

    def swapped(self) -> "Position":
        """The same position with the other side to move."""
        b = self._board
        return Position._of_board(np.concatenate((b[25:], b[:25])), self.variant)

    # --- formats -----------------------------------------------------------------------
    def position_id(self) -> str:
        """GNU Position ID (backgammon) or long nardy ID, the mover as the side on roll."""
        b = self._board
        if self.variant.mirrored:
            return ids.encode_gnu(tuple(b[:25].tolist()), tuple(b[25:].tolist()))
        return ids.encode_long(tuple(b[:24].tolist()), tuple(b[25:49].tolist()))

    def to_json(self) -> dict:
        """Board JSON (RULES 9)."""
        return {"variant": self.variant.name, "player": list(self.mover),
                "player_bar": self.mover_bar, "opponent": list(self.opponent),
                "opponent_bar": self.opponent_bar}

    # --- rules -------------------------------------------------------------------------
    def plays(self, d1: int, d2: int) -> list[Play]:
        """Every distinct result of a legal play of the roll (RULES 3), one play each.

        When nothing can be played the list holds one play with no steps.
        """
        ws, boards = self._enumerate(d1, d2)
        steps, nsteps = ws[kernels.W_RES_STEPS], ws[kernels.W_RES_N]
        return [Play(_steps(steps[k], nsteps[k]), Position._of_board(boards[k], self.variant))
                for k in range(len(boards))]

    def play_boards(self, d1: int, d2: int) -> np.ndarray:
        """The results of :meth:`plays` as kernel boards, one row each, in the same order and
        without the moves: the batch form, for scoring every result at once (building a
        :class:`Play` for each costs more than finding them all).

        >>> Position.start().play_boards(6, 6).shape
        (11, 50)
        """
        return self._enumerate(d1, d2)[1]

    def _enumerate(self, d1: int, d2: int) -> tuple[np.ndarray, np.ndarray]:
        d1, d2 = validate_dice(d1, d2)
        self.validate()
        ws = workspace()
        boards = np.empty((kernels.MAX_PLAYS, kernels.BOARD_SIZE), np.int8)
        count = kernels.enumerate_plays(ws, self._board, d1, d2, self.variant.rules_array, boards)
        return ws, boards[:count]

    def check(self, d1: int, d2: int, after: "Position") -> Verdict:
        """Is ``self`` -> ``after`` a legal play of ``d1-d2`` (RULES 3.9)?

        ``after`` may be anything a camera could see: an illegal arrangement is an illegal
        play with its reason, not an error. Only a position before that no game can have is
        :class:`InvalidPositionError`.
        """
        d1, d2 = validate_dice(d1, d2)
        self.validate()
        if after.variant is not self.variant:
            raise InvalidPositionError(f"the position after is {after.variant.name}, not {self.variant.name}")
        ws = workspace()
        code = kernels.check_play(ws, self._board, d1, d2, after._board, self.variant.rules_array)
        if code == kernels.LEGAL:
            steps = _steps(ws[kernels.W_RES_STEPS][0], ws[kernels.W_RES_N][0])
            return Verdict(True, play=format_play(steps))
        return Verdict(False, reason=CODE_OF[int(code)])

    def apply(self, play) -> "Position":
        """The position after moving checkers as written, without judging the play.

        ``play`` is notation or moves ``(from, to, hit)``. A backgammon checker that ends a
        move on a lone opposing checker hits it, and so does a ``*`` mark. This is how an
        observed or transcribed play becomes a position for :meth:`check`.

        >>> Position.start().apply("24/18 13/11").mover[17]
        1
        """
        moves = parse_play(play) if isinstance(play, str) else tuple(play)
        b = self._board.astype(np.int16)
        for src, dst, hit in moves:
            if b[src - 1] <= 0:
                raise InvalidPlayError(f"no checker of the mover on {'the bar' if src == 25 else src}")
            b[src - 1] -= 1
            if dst == 0:
                continue
            b[dst - 1] += 1
            there = 25 + self.variant.opponent_point(dst) - 1
            if self.variant.hits and (hit or b[there] == 1) and b[there] == 1:
                b[there] = 0
                b[49] += 1
        # sides keep their fifteen and no count goes below zero, so the board is one a
        # Position can hold
        return Position._of_board(b, self.variant)

    # --- end of the game -----------------------------------------------------------------
    def game_result(self) -> tuple[str, str] | None:
        """``(winner, kind)`` once a side has borne off all fifteen, else None.

        ``winner`` is "mover" or "opponent"; ``kind`` is "single", "gammon" or "backgammon"
        (RULES 4.2; long nardy has no backgammon, RULES 4.3).

        >>> Position([0] * 24, [0] * 23 + [15]).game_result()
        ('mover', 'backgammon')
        """
        b = self._board
        for winner, win, lose in (("mover", 0, 25), ("opponent", 25, 0)):
            if b[win:win + 25].sum() > 0:
                continue
            if b[lose:lose + 25].sum() < 15:
                return winner, "single"
            if "backgammon" in self.variant.result_values:
                # the loser on the bar or in the winner's home board (its points 1-6)
                loser_home = [self.variant.opponent_point(p) for p in range(1, 7)]
                if b[lose + 24] or any(b[lose + q - 1] for q in loser_home):
                    return winner, "backgammon"
            return winner, "gammon"
        return None

    # --- value semantics -----------------------------------------------------------------
    def __eq__(self, other) -> bool:
        return (isinstance(other, Position) and other.variant is self.variant
                and other._key == self._key)

    def __hash__(self) -> int:
        return hash((self.variant.name, self._key))

    def __repr__(self) -> str:
        return f"Position.parse({self.position_id()!r})"


def _json_object(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidPositionError(f"Board JSON does not parse: {exc.msg}") from None


def _variant(v) -> Variant:
    if isinstance(v, Variant):
        return v
    try:
        return VARIANTS[v]
    except KeyError:
        raise InvalidPositionError(f"unknown variant {v!r} (backgammon or long)") from None


def _steps(buf, n) -> tuple[Move, ...]:
    return tuple((int(buf[k, 0]), int(buf[k, 1]), bool(buf[k, 2])) for k in range(int(n)))
