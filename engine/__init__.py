"""The rules engine: positions, legal plays, the transition check and the text formats.

It imports nothing else of gammoncam; everything above builds on it.

>>> from engine import Position
>>> Position.start().check(6, 5, Position.start().apply("24/13")).legal
True
"""

from engine.errors import (EngineError, IllegalPlayError, InvalidDiceError, InvalidPlayError,
                           InvalidPositionError)
from engine.notation import format_play, parse_play
from engine.position import Play, Position, Verdict, validate_dice
from engine.reasons import REASONS
from engine.variant import BACKGAMMON, LONG_NARDY, VARIANTS, Backgammon, LongNardy, Variant

__all__ = [
    "BACKGAMMON", "LONG_NARDY", "VARIANTS", "Backgammon", "LongNardy", "Variant",
    "Position", "Play", "Verdict", "validate_dice", "format_play", "parse_play", "REASONS",
    "EngineError", "IllegalPlayError", "InvalidDiceError", "InvalidPlayError",
    "InvalidPositionError",
]
