"""A second, deliberately plain implementation of the long nardy move rules.

Written from ``shared/RULES.md`` (sections 1, 3.1, 3.2, 3.5-3.8) and seed 002, without
reading the engine's kernels, so that the engine can be checked against it. It is slow on
purpose: it tries every sequence of steps in every order of the dice and keeps the plays the
rules allow. Nothing here is shared with :mod:`engine`.

A position is two tuples of 24 counts: the mover's points and the opponent's points, each in
its own side's numbering, index 0 = point 1 (RULES 1). Borne-off checkers are 15 minus the rest.

Where a sentence of RULES.md can be read two ways, this module reads it so:

* 3.7 "two checkers may leave the head (one checker cannot play the whole roll past the
  opponent's head)": the limit is two on the first turn with 6-6, 4-4 or 3-3 whatever the
  board; the parenthesis is the reason, not a condition (seed 002 words it as a condition:
  "Если одна шашка ... не проходит по сумме выпавших очков, можно снять вторую"). On a first
  turn of a real game the opponent's head (our 12) always stops one checker, so the readings
  differ only on boards no game reaches.
* 3.5 "it must be the larger one when a legal play of that die alone exists for each die":
  when the most steps a legal play uses is one, the plays of the larger die are the legal
  ones if there are any, else those of the smaller; a one-step play ending in a forbidden
  block (3.8) is no legal play of its die.
* 3.8 "only the position at the end of the whole play is tested": the empty play (nothing
  can be played) is always allowed, even if the board before held a forbidden block, since
  the mover made no block. A game never reaches that: a block once allowed stays allowed, as
  opposing checkers ahead of it never come back.

>>> head = (0,) * 23 + (15,)
>>> sorted(point for point in range(1, 25) if legal_results(head, head, 6, 6).pop()[0][point - 1])
[18, 24]
"""

from __future__ import annotations

HEAD = 24
FIRST_TURN_DOUBLES = (6, 4, 3)


def mover_point(opponent_point: int) -> int:
    """The mover's number of the opponent's point (RULES 1: opponent's p is mover's p + 12)."""
    return (opponent_point + 12 - 1) % 24 + 1


def opponent_on(opponent, point: int) -> int:
    """Opposing checkers on the mover's ``point``: the mover's p is the opponent's p - 12."""
    return opponent[mover_point(point) - 1]  # adding 12 and subtracting 12 agree mod 24


def is_blocked(opponent, point: int) -> bool:
    """RULES 3.2: in long nardy one opposing checker blocks a point."""
    return opponent_on(opponent, point) >= 1


def all_home(mover) -> bool:
    """RULES 3.6: no checker outside points 1-6 (borne-off checkers count as home)."""
    return all(mover[point - 1] == 0 for point in range(7, 25))


def highest_point(mover) -> int:
    return max(point for point in range(1, 25) if mover[point - 1])


def step(mover, opponent, source: int, die: int):
    """The mover's checkers after one checker on ``source`` plays ``die``, or None.

    RULES 3.1: a step moves one checker ``die`` points towards point 1. The landing point
    must not be blocked (3.2). Below point 1 it bears off, allowed only when all are home
    before this step (3.6): with the exact die, or with a larger die from the highest point.
    """
    if mover[source - 1] == 0:
        return None
    target = source - die
    after = list(mover)
    after[source - 1] -= 1
    if target >= 1:
        if is_blocked(opponent, target):
            return None
        after[target - 1] += 1
        return tuple(after)
    if not all_home(mover):
        return None
    if target == 0 or source == highest_point(mover):
        return tuple(after)
    return None  # a smaller die is played inside the home board (3.6)


def head_limit(mover, dice) -> int:
    """RULES 3.7: one checker leaves the head per turn; two on the very first turn (all 15 on
    the head) with 6-6, 4-4 or 3-3."""
    first_turn = mover[HEAD - 1] == 15
    if first_turn and dice[0] == dice[1] and dice[0] in FIRST_TURN_DOUBLES:
        return 2
    return 1


def forbidden_block(mover, opponent) -> bool:
    """RULES 3.8: the mover holds six points in a row along the opponent's route (opponent's
    points q..q+5, q from 1 to 19) and no opposing checker is ahead of it (on an opponent's
    point below q) and none is borne off."""
    for q in range(1, 20):
        if all(mover[mover_point(r) - 1] >= 1 for r in range(q, q + 6)):
            if not opponent_ahead(opponent, q):
                return True
    return False


def opponent_ahead(opponent, q: int) -> bool:
    """RULES 3.8: an opposing checker on an opponent's point below q, or borne off."""
    borne_off = 15 - sum(opponent)
    return borne_off > 0 or any(opponent[r - 1] for r in range(1, q))


def plays_in_order(mover, opponent, order, heads_left):
    """Every play of the dice in the order given, and every shorter play (a prefix of one).

    Returns ``{(mover after, number of steps)}``. Level k holds the positions k steps reach,
    with how many checkers may still leave the head; two equal states have the same futures,
    so each is kept once. Positions between steps are never tested for the six-block
    (RULES 3.8 "на проходе").
    """
    plays = {(mover, 0)}
    level = {(mover, heads_left)}
    for steps, die in enumerate(order, 1):
        next_level = set()
        for before, left in level:
            for source in range(1, 25):
                if source == HEAD and left == 0:
                    continue  # RULES 3.7
                after = step(before, opponent, source, die)
                if after is not None:
                    next_level.add((after, left - (source == HEAD)))
        level = next_level
        plays |= {(after, steps) for after, _ in level}
    return plays


def legal_plays(mover, opponent, d1: int, d2: int):
    """The legal plays of the roll as ``{(mover after, number of steps, first die)}``
    (RULES 3.5, 3.9); the empty play's first die is None."""
    mover, opponent = tuple(mover), tuple(opponent)
    if d1 == d2:
        orders = [(d1,) * 4]  # RULES 3.1: a double gives four steps of that number
    else:
        orders = [(d1, d2), (d2, d1)]  # either die may be played first
    limit = head_limit(mover, (d1, d2))
    # A play that ends in a forbidden block is not legal and does not count for 3.5 (3.8).
    # The empty play moves nothing, so it makes no block: it stays, for when nothing can move.
    plays = {(after, steps, order[0] if steps else None)
             for order in orders
             for after, steps in plays_in_order(mover, opponent, order, limit)
             if not steps or not forbidden_block(after, opponent)}
    # RULES 3.5: as many steps as possible.
    most = max(steps for _, steps, _ in plays)
    plays = {play for play in plays if play[1] == most}
    # RULES 3.5: only one die of a non-double playable -> the larger one, if it can be played.
    if d1 != d2 and most == 1:
        larger = max(d1, d2)
        if any(first == larger for _, _, first in plays):
            plays = {play for play in plays if play[2] == larger}
    return plays


def legal_results(mover, opponent, d1: int, d2: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The distinct positions ``(mover, opponent)`` after the legal plays of ``d1-d2``.

    When nothing can be played this is the position before, unchanged (RULES 3.5).
    """
    opponent = tuple(opponent)
    return {(after, opponent) for after, _, _ in legal_plays(mover, opponent, d1, d2)}
