"""The closed set of reasons a play is illegal, each with a sentence a player understands.

Codes are the strings callers see (``check --json`` prints them as ``reason``); the kernels
use the small integers of :mod:`engine.kernels`.

>>> REASONS["blocked_point"]
'A checker landed on, or passed through, a point the opponent holds.'
"""

from __future__ import annotations

from engine import kernels

#: code -> (RULES section, kernel number, sentence).
_TABLE = {
    "checker_count": ("1", kernels.CHECKER_COUNT,
                      "The number of checkers changed: checkers appeared, vanished or came back from off the board."),
    "shared_point": ("3.2", kernels.SHARED_POINT,
                     "Checkers of both colours stand on one point: a checker was put on a point the opponent holds."),
    "opponent_moved": ("3.3", kernels.OPPONENT_MOVED,
                       "The opponent's checkers moved, other than a blot being hit to the bar."),
    "moved_backwards": ("1", kernels.MOVED_BACKWARDS,
                        "A checker moved backwards."),
    "head_rule": ("3.7", kernels.HEAD_RULE,
                  "More checkers left the head than this roll allows (one, or two on the first turn with 6-6, 4-4 or 3-3)."),
    "six_block": ("3.8", kernels.SIX_BLOCK,
                  "The play ends with six points in a row blocked and no opposing checker ahead of them."),
    "too_few_dice": ("3.5", kernels.TOO_FEW_DICE,
                     "Fewer dice were played than the position allows: every die that can be played must be."),
    "larger_die_required": ("3.5", kernels.LARGER_DIE_REQUIRED,
                            "Only one die could be played, and then it must be the larger one."),
    "bar_first": ("3.4", kernels.BAR_FIRST,
                  "A checker moved while another of the same side was still on the bar."),
    "bear_off_early": ("3.6", kernels.BEAR_OFF_EARLY,
                       "A checker was borne off before all checkers of that side were in the home board."),
    "blocked_point": ("3.1, 3.2", kernels.BLOCKED_POINT,
                      "A checker landed on, or passed through, a point the opponent holds."),
    "no_such_play": ("3.9", kernels.NO_SUCH_PLAY,
                     "No play of these dice leads from the position before to the position after."),
}

#: code -> sentence
REASONS: dict[str, str] = {code: sentence for code, (_, _, sentence) in _TABLE.items()}
#: code -> the RULES section it enforces
SECTION: dict[str, str] = {code: section for code, (section, _, _) in _TABLE.items()}
#: kernel number -> code
CODE_OF: dict[int, str] = {number: code for code, (_, number, _) in _TABLE.items()}
