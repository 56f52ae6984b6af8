"""The two games as rule sets over one engine (RULES 1, 3, 4).

A variant states what differs as class attributes; the kernels in :mod:`engine.kernels` read
them through :meth:`Variant.rules_array` and share every line of the move generator.

>>> VARIANTS["long"].start[23], BACKGAMMON.block_min
(15, 2)
"""

from __future__ import annotations

import numpy as np

from engine import kernels


class Variant:
    """A rule set. Subclasses set the attributes; nothing else is overridden."""

    name: str
    #: Start position of each side in its own numbering (index 0 = point 1), RULES 1.
    start: tuple[int, ...]
    #: Opposing checkers that block a point (RULES 3.2).
    block_min: int
    #: Whether a lone opposing checker is hit and sent to the bar (RULES 3.3, 3.4).
    hits: bool
    #: True when the opponent's point p is the mover's 25 - p (opposite directions);
    #: False when it is p + 12 mod 24 (both sides travel the same way).
    mirrored: bool
    #: At most one checker leaves the head (point 24) per turn (RULES 3.7).
    head_rule: bool
    #: A play may not end in a six-block no opposing checker is ahead of (RULES 3.8).
    six_block: bool
    #: Values of a win by kind, in RULES 4.2 / 4.3 order; a kind absent here does not exist.
    result_values: dict[str, int]

    def __init__(self):
        rules = np.zeros(kernels.R_COUNT, np.int64)
        rules[kernels.R_BLOCK_MIN] = self.block_min
        rules[kernels.R_HITS] = int(self.hits)
        rules[kernels.R_MIRRORED] = int(self.mirrored)
        rules[kernels.R_HEAD_RULE] = int(self.head_rule)
        rules[kernels.R_SIX_BLOCK] = int(self.six_block)
        rules.setflags(write=False)
        self._rules = rules
        # the opponent's index (its own numbering) of each of the mover's points 1..24
        facing = np.array([self.opponent_point(p) - 1 for p in range(1, 25)])
        facing.setflags(write=False)
        self.facing = facing

    @property
    def rules_array(self) -> np.ndarray:
        """The rule parameters as the kernels read them."""
        return self._rules

    def opponent_point(self, point: int) -> int:
        """The mover's number of the opponent's point ``point`` (1..24), RULES 1.

        >>> BACKGAMMON.opponent_point(1), LONG_NARDY.opponent_point(1)
        (24, 13)
        """
        if self.mirrored:
            return 25 - point
        return (point + 11) % 24 + 1

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class Backgammon(Variant):
    """Backgammon ("short nardy", tavla): opposite directions, blots are hit."""

    name = "backgammon"
    start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)
    block_min = 2
    hits = True
    mirrored = True
    head_rule = False
    six_block = False
    result_values = {"single": 1, "gammon": 2, "backgammon": 3}


class LongNardy(Variant):
    """Long nardy: all fifteen on the head, the same direction, one checker holds a point."""

    name = "long"
    start = (0,) * 23 + (15,)
    block_min = 1
    hits = False
    mirrored = False
    head_rule = True
    six_block = True
    # "oin" 1, "mars" 2 (home mars counts 2 as well); there is no koks (RULES 4.3).
    result_values = {"single": 1, "gammon": 2}


BACKGAMMON = Backgammon()
LONG_NARDY = LongNardy()
VARIANTS: dict[str, Variant] = {v.name: v for v in (BACKGAMMON, LONG_NARDY)}
