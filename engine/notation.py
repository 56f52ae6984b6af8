"""Play notation, GNU Backgammon style, in both transcript dialects (RULES 9).

A play is written from the mover's point of view: ``13/7 8/7``, ``bar/22*``, ``6/off``,
``24/18(2)``, ``24/18*/13``. The Backgammon Galaxy dialect writes the bar as ``25``, off as
``0`` and each checker of a double separately (``13/7 13/7 13/7 8/2``); both are read.

Parsing gives *moves*: ``(from, to, hit)`` with from 1..25 (25 the bar) and to 0..24 (0 off).
A move may span several dice (``24/13``); :func:`format_play` writes steps the way GNU
Backgammon does, joining the steps of one checker and counting repeats.

>>> parse_play("bar/22* 13/9(2)")
((25, 22, True), (13, 9, False), (13, 9, False))
>>> format_play([(13, 7, False), (8, 7, False)])
'13/7 8/7'
>>> format_play([(24, 18, False), (18, 13, False)])
'24/13'
>>> format_play([(13, 9, False)] * 2)
'13/9(2)'
"""

from __future__ import annotations

import re

from engine.errors import InvalidPlayError

Move = tuple[int, int, bool]

_POINT = r"(?:bar|off|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$", re.IGNORECASE)


def _point(text: str, *, source: bool) -> int:
    low = text.lower()
    if low == "bar":
        if not source:
            raise InvalidPlayError("a checker cannot move to the bar")
        return 25
    if low == "off":
        if source:
            raise InvalidPlayError("a checker cannot move from off the board")
        return 0
    value = int(low)
    if not 0 <= value <= 25 or (source and value == 0) or (not source and value == 25):
        raise InvalidPlayError(f"no point {value} to move {'from' if source else 'to'}")
    return value


def parse_play(text: str) -> tuple[Move, ...]:
    """The moves of a play in notation; ``""`` is the empty play."""
    moves: list[Move] = []
    for token in text.split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidPlayError(f"not a move: {token!r} (expected e.g. 13/7, bar/22*, 6/off, 8/5(2))")
        parts = match.group(1).split("/")
        repeat = int(match.group(2) or 1)
        if repeat < 1 or repeat > 4:
            raise InvalidPlayError(f"a move repeated {repeat} times: {token!r}")
        segment: list[Move] = []
        for a, b in zip(parts, parts[1:]):
            src = _point(a.rstrip("*"), source=True)
            dst = _point(b.rstrip("*"), source=False)
            if dst >= src:
                raise InvalidPlayError(f"a checker moves down from its point: {token!r}")
            segment.append((src, dst, b.endswith("*")))
        moves.extend(segment * repeat)
    return tuple(moves)


def _point_name(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def format_play(steps) -> str:
    """GNU-style notation of steps ``(from, to, hit)``, each one die of the roll.

    The text reads back to itself: ``format_play(parse_play(text)) == text``. Joining steps
    into chains can be done more than one way when several checkers pass through one point,
    and reading the text back gives the joined moves, not the steps; so the chains are written,
    read back and written once more, which settles on the one text the moves give.

    >>> format_play([(19, 18, True), (18, 15, False), (18, 15, False), (15, 14, False)])
    '19/18*/15 18/14'
    """
    return _chains_text(parse_play(_chains_text(steps)))


def _chains_text(steps) -> str:
    # Join each step to a checker that arrived at its source, so ``24/18 18/13`` reads
    # ``24/13`` while ``24/18* 18/13`` keeps ``24/18*/13``. Taking the steps in one order
    # (from the highest source down, a hit before a step to the same point without one)
    # makes the text depend only on the steps, not on the order they come in.
    chains: list[tuple[list[int], list[bool]]] = []  # (points, hit at each point after the first)
    for src, dst, hit in sorted(steps, key=lambda step: (-step[0], -step[1], not step[2])):
        for points, hits in chains:
            if points[-1] == src:
                points.append(dst)
                hits.append(bool(hit))
                break
        else:
            chains.append(([src, dst], [bool(hit)]))
    texts = []
    for points, hits in chains:
        parts = [_point_name(points[0])]
        for k in range(1, len(points)):
            if hits[k - 1] or k == len(points) - 1:
                parts.append(_point_name(points[k]) + ("*" if hits[k - 1] else ""))
        texts.append(((points[0], points[-1]), "/".join(parts)))
    texts.sort(key=lambda item: (-item[0][0], -item[0][1]))
    out: list[str] = []
    counts: list[int] = []
    for _, text in texts:
        if out and out[-1] == text:
            counts[-1] += 1
        else:
            out.append(text)
            counts.append(1)
    return " ".join(t if c == 1 else f"{t}({c})" for t, c in zip(out, counts))
