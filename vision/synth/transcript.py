"""The turns of one game of a transcript, for :mod:`vision.synth.video`.

The transcript is read by the engine's parser (:func:`engine.transcript.parse_transcript`);
this only turns its actions into :class:`vision.synth.video.Turn` lists: player 1 (the
transcript's left column) plays light, player 2 dark, and plays are rendered as written,
illegal ones included, so the referee can be tested on them.

>>> text = " 1 point match\\n\\n Game 1\\n a : 0      b : 0\\n  1) 31: 8/5 6/5    64: 24/18 18/14\\n"
>>> [(t.colour, t.dice, t.steps) for t in read_game(text, 1)]
[('light', (3, 1), [(8, 5), (6, 5)]), ('dark', (6, 4), [(24, 18), (18, 14)])]
"""

from __future__ import annotations

from engine import parse_play
from engine.transcript import parse_transcript
from vision.synth.video import Turn

COLOURS = ("light", "dark")


def read_game(text: str, number: int = 1) -> list[Turn]:
    """The turns of game ``number`` (1-based); ValueError (a TranscriptError or a missing
    game) for a text that cannot be read."""
    transcript = parse_transcript(text)
    games = {game.number: game for game in transcript.games}
    if number not in games:
        raise ValueError(f"the transcript has no game {number}")
    turns: list[Turn] = []
    for action in games[number].actions:
        colour = COLOURS[action.side]
        if action.kind == "play" and action.play is not None:
            steps = [(src, dst) for src, dst, _ in parse_play(action.play)]
            turns.append(Turn(colour, action.dice, steps))
        elif action.kind in ("double", "take"):
            turns.append(Turn(colour, cube=action.kind))
        elif action.kind == "drop":
            break
    return turns
