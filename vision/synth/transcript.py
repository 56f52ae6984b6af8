"""A minimal reader of the bglab match transcripts, only to feed :mod:`vision.synth.video`.

This is a stand-in: the real transcript parser belongs to the engine (RULES 9) and is written
elsewhere; when it lands, :func:`read_game` should be replaced by it. It reads one game of a
JellyFish/XG-style ".mat" text (both the Galaxy and the Studio dialects) into
:class:`vision.synth.video.Turn` lists, checking nothing: player 1 (the left column) plays
light, player 2 dark, and plays are rendered as written.

>>> text = " Game 1\\n lasse : 0      mg : 0\\n  1) 31: 8/5 6/5                 64: 24/18 18/14\\n"
>>> [(t.colour, t.dice, t.steps) for t in read_game(text, 1)]
[('light', (3, 1), [(8, 5), (6, 5)]), ('dark', (6, 4), [(24, 18), (18, 14)])]
"""

from __future__ import annotations

import re

from vision.synth.video import Turn

MOVE = re.compile(r"^(bar|\d+)/(off|\d+)\*?(?:\((\d)\))?$")
ENTRY = re.compile(r"(\d)(\d):|Doubles\s*=>\s*\d+|Takes|Drops")


def _point(text: str) -> int:
    return 25 if text == "bar" else 0 if text == "off" else int(text)


def _steps(tokens: list[str]) -> list[tuple[int, int]]:
    steps = []
    for token in tokens:
        m = MOVE.match(token)
        if m:
            steps += [(_point(m[1]), _point(m[2]))] * int(m[3] or 1)
    return steps


def read_game(text: str, number: int = 1) -> list[Turn]:
    """The turns of game ``number`` (1-based) in a transcript's ``text``."""
    games = re.split(r"^\s*Game\s+(\d+)\s*$", text, flags=re.M)
    bodies = {int(games[i]): games[i + 1] for i in range(1, len(games) - 1, 2)}
    if number not in bodies:
        raise ValueError(f"the transcript has no game {number}")
    lines = bodies[number].splitlines()
    # The right-hand column starts where the second player's name does in the score line.
    column = 34
    for line in lines:
        m = re.match(r"^(\s*\S.*?:\s*\d+\s+)(\S)", line)
        if m and ")" not in line.split(":")[0]:
            column = len(m[1]) - 2
            break
    turns: list[Turn] = []
    for line in lines:
        m = re.match(r"^\s*\d+\)", line)
        if not m:
            continue
        entries = list(ENTRY.finditer(line, m.end()))
        for k, e in enumerate(entries):
            colour = "light" if e.start() < column else "dark"
            end = entries[k + 1].start() if k + 1 < len(entries) else len(line)
            token = e.group(0)
            if token.startswith("Doubles"):
                turns.append(Turn(colour, cube="double"))
            elif token == "Takes":
                turns.append(Turn(colour, cube="take"))
            elif token == "Drops":
                return turns
            else:
                turns.append(Turn(colour, (int(e[1]), int(e[2])), _steps(line[e.end():end].split())))
    return turns
