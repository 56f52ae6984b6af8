"""Compact text IDs of positions: GNU Backgammon's Position ID and the long nardy ID.

Both pack the checkers as a run of ones (one per checker) closed by a zero for each place,
in the order GNU Backgammon uses: first the side *not* on roll, then the side on roll, each
in its own numbering. The bits fill bytes from the least significant bit and are written in
base64 without padding.

* GNU Position ID (RULES 9): 25 places a side (points 1..24, then the bar), 80 bits,
  14 characters, bit for bit as GNU Backgammon writes it.
* Long nardy ID: ``LN:`` and 24 places a side (no bar), at most 78 bits in 10 bytes,
  14 characters.

>>> start = ((0,) * 5 + (5, 0, 3) + (0,) * 4 + (5,) + (0,) * 10 + (2, 0))
>>> encode_gnu(start, start)
'4HPwATDgc/ABMA'
>>> decode_gnu('4HPwATDgc/ABMA') == (start, start)
True
"""

from __future__ import annotations

import base64
import binascii

from engine.errors import InvalidPositionError

LONG_PREFIX = "LN:"
_GNU_CHARS = 14
_LONG_CHARS = 14


def _pack(sides: tuple[tuple[int, ...], ...], nbytes: int) -> bytes:
    bits = 0
    pos = 0
    for side in sides:
        for count in side:
            bits |= ((1 << count) - 1) << pos
            pos += count + 1
    return bits.to_bytes(nbytes, "little")


def _unpack(data: bytes, places: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    bits = int.from_bytes(data, "little")
    total = len(data) * 8
    sides = []
    pos = 0
    for _ in range(2):
        side = []
        for _ in range(places):
            count = 0
            while pos < total and (bits >> pos) & 1:
                count += 1
                pos += 1
            if pos >= total:
                raise InvalidPositionError("the ID runs out of bits before the last point")
            pos += 1  # the closing zero
            side.append(count)
        if sum(side) > 15:
            raise InvalidPositionError(f"the ID gives one side {sum(side)} checkers (at most 15)")
        sides.append(tuple(side))
    if bits >> pos:
        raise InvalidPositionError("the ID has checkers beyond the last point")
    return sides[0], sides[1]


def _b64decode(text: str, chars: int, what: str) -> bytes:
    if len(text) != chars:
        raise InvalidPositionError(f"a {what} has {chars} characters, not {len(text)}: {text!r}")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPositionError(f"not a {what} (base64 letters, digits, + and /): {text!r}") from None


def encode_gnu(mover: tuple[int, ...], opponent: tuple[int, ...]) -> str:
    """GNU Position ID of a position: 25 counts a side (points 1..24 and the bar)."""
    return base64.b64encode(_pack((opponent, mover), 10)).decode()[:_GNU_CHARS]


def decode_gnu(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(mover, opponent)``, 25 counts each, from a GNU Position ID."""
    data = _b64decode(text, _GNU_CHARS, "GNU Position ID")[:10]
    opponent, mover = _unpack(data, 25)
    return mover, opponent


def encode_long(mover: tuple[int, ...], opponent: tuple[int, ...]) -> str:
    """Long nardy ID of a position: 24 counts a side.

    >>> encode_long((0,) * 23 + (15,), (0,) * 23 + (15,))
    'LN:AACA/z8AAMD/Hw'
    """
    return LONG_PREFIX + base64.b64encode(_pack((opponent, mover), 10)).decode()[:_LONG_CHARS]


def decode_long(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(mover, opponent)``, 24 counts each, from a long nardy ID."""
    if not text.startswith(LONG_PREFIX):
        raise InvalidPositionError(f"a long nardy ID starts with {LONG_PREFIX!r}: {text!r}")
    body = text[len(LONG_PREFIX):]
    data = _b64decode(body, _LONG_CHARS, "long nardy ID")[:10]
    opponent, mover = _unpack(data, 24)
    return mover, opponent
