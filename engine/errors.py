"""Exceptions of the engine.

Bad input (text that is not a position, a roll that is not a roll) and a rules violation
(an illegal play) are different things, as in python-chess:

>>> from engine import Position
>>> Position.parse("not an id")
Traceback (most recent call last):
...
engine.errors.InvalidPositionError: not a GNU Position ID, XGID, long nardy ID or Board JSON: 'not an id'
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises for input it cannot use."""


class InvalidPositionError(EngineError):
    """A position ID, XGID or Board JSON that cannot be read, or a board no game can have."""


class InvalidDiceError(EngineError):
    """Dice that are not two numbers from 1 to 6."""


class InvalidPlayError(EngineError):
    """Play notation that cannot be read (``13/7 8/x``)."""


class IllegalPlayError(Exception):
    """A readable play that the rules forbid; carries the reason code and a sentence.

    ``reason`` is one of :data:`engine.reasons.REASONS`.
    """

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
