"""The turns of a game for :mod:`vision.synth.video`: from a transcript, or played by the engine.

The transcript is read by the engine's parser (:func:`engine.transcript.parse_transcript`);
this only turns its actions into :class:`vision.synth.video.Turn` lists: player 1 (the
transcript's left column) plays light, player 2 dark, and plays are rendered as written,
illegal ones included, so the referee can be tested on them.

>>> text = " 1 point match\\n\\n Game 1\\n a : 0      b : 0\\n  1) 31: 8/5 6/5    64: 24/18 18/14\\n"
>>> [(t.colour, t.dice, t.steps) for t in read_game(text, 1)]
[('light', (3, 1), [(8, 5), (6, 5)]), ('dark', (6, 4), [(24, 18), (18, 14)])]
"""

from __future__ import annotations

import random

from engine import Position, parse_play
from engine.transcript import Action, GameRecord, Transcript, parse_transcript, write_transcript
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


def turns_transcript(variant: str, turns: list[Turn]) -> str:
    """A game of legal plays (:func:`selfplay_turns`) as a one-game transcript (player 1 light,
    in the left column), so that what a video of it shows can be compared with what was seen.
    Each play is written as the engine writes that legal play, hits marked: ``14/11*/5``, not
    ``14/5``, which reads back as one checker passing the blot on 11.

    >>> print(turns_transcript("long", [Turn("light", (6, 5), [(24, 18), (18, 13)])]).splitlines()[-1])
      1) 65: 24/13
    >>> hit = [Turn("light", (6, 4), [(24, 18), (13, 9)]), Turn("dark", (3, 3), [(13, 10), (10, 7), (7, 4), (6, 3)])]
    >>> print(turns_transcript("backgammon", hit).splitlines()[-1])
      1) 64: 24/18 13/9              33: 13/7*/4 6/3
    """
    position = Position.start(variant)
    actions = []
    for k, t in enumerate(turns):
        play = next((p for p in position.plays(*t.dice) if [(src, dst) for src, dst, _ in p.steps] == list(t.steps)),
                    None)
        if play is None:
            raise ValueError(f"turn {k + 1} ({t.colour} {t.dice}: {t.steps}) is not a legal play")
        actions.append(Action(k // 2 + 1, COLOURS.index(t.colour), "play", tuple(t.dice), str(play)))
        position = play.position.swapped()
    tags = (("Variation", "LongNardy"),) if variant == "long" else ()
    return write_transcript(Transcript(tags, 1, (GameRecord(1, (0, 0), tuple(actions)),), ("light", "dark")))


def selfplay_turns(variant: str, seed: int, turns: int) -> list[Turn]:
    """A game played by the engine with random legal plays, ``turns`` turns long at most:
    light moves first, the sides alternate, and it stops when a side has borne off all.
    Backgammon's first play is never a double (RULES 2.1: equal opening dice are thrown again).

    >>> [t.colour for t in selfplay_turns("long", 1, 3)]
    ['light', 'dark', 'light']
    >>> selfplay_turns("backgammon", 7312, 1)[0].dice  # 1-1 drawn first, thrown again
    (1, 4)
    """
    rng = random.Random(seed)
    position = Position.start(variant)
    out: list[Turn] = []
    for k in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while k == 0 and variant == "backgammon" and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(position.plays(*dice))
        out.append(Turn(COLOURS[k % 2], dice, [(src, dst) for src, dst, _ in play.steps]))
        if play.position.game_result():
            break
        position = play.position.swapped()
    return out
