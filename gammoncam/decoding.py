"""Reading a play off the board, guided by the rules: what a settled observation says was played.

Every position a legal play of the thrown dice reaches (:meth:`engine.Position.plays`) is scored
by the observation's log-likelihood, the sum over the 26 locations of log P(the reading that
position puts there). The best legal position is compared with the best reading with at most
fifteen checkers of a colour, the rules aside (:func:`free_reading`). The play is legal when the
margin is small; it is called illegal only when the margin is large *and* the locations read
with high confidence rule the legal plays out *and* the reading is a board the thrower could
have left (none of the opponent's checkers gone, the mover's gone forward no further than a throw
carries them); otherwise the moment is *unclear* (:func:`decode`). A false call costs more than a
late one. A play is legal, too, when it explains the board as well as the likeliest reading with
the checkers counted (:func:`counted_margin`): an opponent's checker hidden from the camera is
still in play.

Two boards also tell of turns the camera missed: the opponent's legal play (a missed throw, not a
foul: :func:`opponent_played`), checkers no play of the mover's puts where they lie
(:func:`mover_reached`), two turns of the mover with a dance between (:func:`danced_between`),
and which roll a play was made with, from a board seen mid-turn (:func:`passes_through`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.position import Position
from gammoncam.readings import ROLLS
from vision.checkers import LOCATIONS, MAX_COUNT, class_of
from vision.layout import other
from vision.orientation import LOCATION_INDEX, location_map, reading_position
from vision.observation import Observation, likeliest_classes

LIGHT_OFFSET, DARK_OFFSET = class_of("light", 1), class_of("dark", 1)  # each colour's count 1


@dataclass(frozen=True)
class Thresholds:
    """Where decoding decides. Margins are in nats of log-likelihood (free reading - best legal)."""

    legal: float = 1.0  # at most this: the likeliest legal play
    call: float = 8.0  # at least this (and confident): an illegal play
    confident: float = 0.75  # a call rests on locations read at least this surely (:func:`_surely_none`)


# --- positions and locations ---------------------------------------------------------------
def expected_classes(boards: np.ndarray, mover: str, variant: str) -> np.ndarray:
    """(K, 26) class indices that positions put on every location.

    ``boards`` are kernel boards (K, 50) seen from the mover: 24 points and the bar for the mover,
    then the same for the opponent. A point both colours stand on (only an illegal arrangement)
    is read as the mover's colour with the total count.
    """
    boards = np.asarray(boards, np.int64).reshape(-1, 50)
    k = len(boards)
    out = np.zeros((k, len(LOCATIONS)), np.int64)
    count = np.zeros((k, len(LOCATIONS)), np.int64)
    opp = other(mover)
    for colour, part in ((opp, boards[:, 25:49]), (mover, boards[:, 0:24])):
        loc = location_map(colour, variant)
        base = LIGHT_OFFSET if colour == "light" else DARK_OFFSET
        count[:, loc] += part
        has = part > 0
        out[:, loc] = np.where(has, base - 1 + np.minimum(count[:, loc], 15), out[:, loc])
    for colour, column in ((mover, 24), (opp, 49)):
        n = boards[:, column]
        base = LIGHT_OFFSET if colour == "light" else DARK_OFFSET
        out[:, LOCATION_INDEX[("bar", colour)]] = np.where(n > 0, base - 1 + np.minimum(n, 15), 0)
    return out


def log_probs(obs: Observation) -> np.ndarray:
    """(26, 31) log-probabilities of the observation, in LOCATIONS order."""
    return np.log(np.maximum(obs.location_probs(), 1e-9))


_FREE: dict = {}  # free_reading's answers by the reading's bytes: one board is measured against many plays


def free_reading(logp: np.ndarray) -> tuple[np.ndarray, float]:
    """The likeliest reading of every location with at most fifteen checkers of a colour, and
    its log-likelihood: what a position is measured against. Each location read alone can
    count more (a long nardy head of 14 read as 15 with a checker gone from it: 16 light
    checkers), and a margin against a reading no position can have calls every play unclear
    and every board changed (vid 7409: 4 of 40 turns, one made up)."""
    key = logp.tobytes()
    if key not in _FREE:
        classes = likeliest_classes(logp)
        if len(_FREE) > 64:
            _FREE.clear()
        _FREE[key] = (classes, float(logp[np.arange(len(logp)), classes].sum()))
    return _FREE[key]


@dataclass
class Decision:
    """What an observation says about a play: legal, illegal or unclear."""

    kind: str  # "legal" | "illegal" | "unclear"
    position: Position  # the legal play's position, or the illegal reading
    margin: float  # log-likelihood of the free reading minus that of the best legal position
    candidates: int
    best_legal: Position | None = None
    # Legal only with all the mover's fifteen counted, none of them within the dice's reach of
    # the edge (:func:`within_reach`), or those the count puts back all in tall stacks beyond it
    # (:func:`short_beyond_reach`): a tall stack read short (vid 9814: a long nardy head of 14
    # read as 10) still has them. The board read freely is further from the play than for an
    # opponent's checker hidden, so it shows no agreement of record and board.
    counted: bool = False
    # The board read freely differs from the play only where a tall stack of it is counted
    # short (:func:`counted_short`): the two agree all the same.
    stacks_short: bool = False

    def to_json(self) -> dict:
        return {"decision": self.kind, "margin": round(self.margin, 2), "candidates": self.candidates}


def decode(before: Position, dice: tuple, mover: str, logp: np.ndarray,
           thresholds: Thresholds = Thresholds()) -> Decision:
    """Which position after ``before`` and ``dice`` best explains ``logp`` (see the module doc).

    >>> from vision.layout import Physical, recognizer_form
    >>> pos = Position.start()
    >>> after = pos.apply("8/5 6/5")
    >>> lp = np.log(np.full((26, 31), 1e-6)); truth = expected_classes(after.board[None], "light", "backgammon")[0]
    >>> lp[np.arange(26), truth] = 0.0
    >>> decode(pos, (3, 1), "light", lp).kind
    'legal'
    """
    variant = before.variant
    boards = before.play_boards(*dice)
    classes = expected_classes(boards, mover, variant.name)
    ll = logp[np.arange(logp.shape[0]), classes].sum(axis=1)
    k = int(np.argmax(ll))
    best = Position.from_board(boards[k], variant)
    free, ll_free = free_reading(logp)
    margin = ll_free - float(ll[k])
    if margin <= thresholds.legal or counted_margin(before, mover, logp, float(ll[k])) <= thresholds.legal:
        return Decision("legal", best, margin, len(boards), best, stacks_short=counted_short(free, classes[k]))
    mine, theirs = int(before.board[0:25].sum()), int(before.board[25:50].sum())
    kept, ll_kept = counted_reading(logp, mover, range(mine, mine + 1), theirs)
    if ll_kept - float(ll[k]) <= thresholds.legal and (not within_reach(before, dice)
                                                      or short_beyond_reach(free, kept, mover, variant.name, dice)):
        return Decision("legal", best, margin, len(boards), best, counted=True,
                        stacks_short=counted_short(free, classes[k]))
    reading = reading_position(free, mover, variant)
    possible = reading is not None and _possible(before, dice, reading)
    if not possible:
        # Tall stacks read short leave the free reading checkers short of any board a play
        # makes (vid 9921: both long nardy heads, seen steeply, one to four short all game).
        # Read with the checkers counted, as a legal play is (:func:`counted_margin`; the
        # mover's all kept where none is within the dice's reach of the edge), where that
        # reading differs from the free one by such stacks alone.
        off = MOST_BORNE_OFF if within_reach(before, dice) else 0
        counted, ll_counted = counted_reading(logp, mover, range(max(0, mine - off), mine + 1), theirs)
        if counted_short(free, counted):
            free, margin = counted, ll_counted - float(ll[k])
            reading = reading_position(free, mover, variant)
            possible = reading is not None and _possible(before, dice, reading)
    if margin >= thresholds.call and possible and _surely_none(logp, free, classes, k, thresholds):
        return Decision("illegal", reading, margin, len(boards), best)
    return Decision("unclear", best, margin, len(boards), best)


MOST_BORNE_OFF = 4  # checkers one turn can bear off (a double's four steps)


def counted_margin(before: Position, mover: str, logp: np.ndarray, ll_legal: float,
                   borne_off: int = MOST_BORNE_OFF) -> float:
    """The margin of a play scored ``ll_legal`` against the likeliest reading with the checkers
    a play leaves in play: the opponent's as many as ``before`` (hit ones go to the bar), the
    mover's as many or up to ``borne_off`` fewer (taken off, by a legal play or not). An
    opponent's checker hidden from the camera (behind the cube in the middle of the bar, vid
    8707: a dark checker on the bar read as none at 0.97 through five of light's plays) makes the
    free reading, which may leave it out, beat every play; read with the checkers counted, the
    play is legal. A mover's checker hidden is not told from one taken off the board, unless no
    checker of theirs lies within the dice's reach of the edge (:func:`within_reach`), or the
    count puts it back into a tall stack beyond that reach (:func:`short_beyond_reach`): then
    ``borne_off`` is 0 (:func:`decode`). Only a play's legality is taken from it: what is called
    illegal is measured, as before, against the free reading.

    >>> before = Position.start()
    >>> after = before.apply("8/5 6/5")
    >>> truth = expected_classes(after.board[None], "light", "backgammon")[0]
    >>> lp = np.log(np.full((26, 31), 1e-6)); lp[np.arange(26), truth] = 0.0
    >>> back = location_map("dark", "backgammon")[23]  # dark's two on its 24, one read hidden
    >>> lp[back] = np.log(1e-6); lp[back, DARK_OFFSET], lp[back, DARK_OFFSET + 1] = np.log(0.8), np.log(0.2)
    >>> round(free_reading(lp)[1] - float(lp[np.arange(26), truth].sum()), 2)  # dark 1 there: unclear
    1.39
    >>> round(counted_margin(before, "light", lp, float(lp[np.arange(26), truth].sum())), 2)
    0.0
    >>> decode(before, (3, 1), "light", lp).kind
    'legal'
    """
    mine, theirs = int(before.board[0:25].sum()), int(before.board[25:50].sum())
    return counted_reading(logp, mover, range(max(0, mine - borne_off), mine + 1), theirs)[1] - ll_legal


def counted_reading(logp: np.ndarray, mover: str, mine: range, theirs: int) -> tuple[np.ndarray, float]:
    """The likeliest reading (a class per location) with ``theirs`` of the opponent's checkers
    on the board (the bar included) and as many of the mover's as one of ``mine``, and its
    log-likelihood."""
    counts = np.full((16, 16), -np.inf)
    for left in mine:
        light, dark = (left, theirs) if mover == "light" else (theirs, left)
        counts[light, dark] = 0.0
    classes = likeliest_classes(logp, counts)
    return classes, float(logp[np.arange(len(logp)), classes].sum())


# A stack of more than five lies as a long column or in a second layer, and is the one the
# checker network counts short most often (vid 9921: long nardy heads of 11-14 seen steeply,
# read one to four short at every settle of the game).
TALL = 6


def counted_short(read: np.ndarray, classes: np.ndarray) -> bool:
    """Whether a reading (``read``, a class per location) differs from a position's (``classes``)
    only by stacks of at least :data:`TALL` checkers of the position read as fewer of their colour.

    >>> head, short = class_of("light", 13), class_of("light", 11)
    >>> counted_short(np.array([short, 0]), np.array([head, 0])), counted_short(np.array([0, 0]), np.array([head, 0]))
    (True, False)
    """
    differ = read != classes
    want, got = classes[differ], read[differ]
    return bool(((want > 0) & (got > 0) & (_colour_of(want) == _colour_of(got))
                 & (_count_of(want) >= TALL) & (_count_of(got) < _count_of(want))).all())


def _colour_of(classes):
    return (classes - 1) // MAX_COUNT  # 0 light, 1 dark; for counts of 1 and more


def _count_of(classes):
    return (classes - 1) % MAX_COUNT + 1  # for counts of 1 and more


def reach(dice: tuple) -> int:
    """The most pips ``dice`` carry a checker: the throw's pips, four times a double's die."""
    return min(24, 4 * dice[0] if dice[0] == dice[1] else dice[0] + dice[1])


def within_reach(before: Position, dice: tuple) -> bool:
    """Whether a checker of the mover's lies where ``dice`` could take it off the board: on a
    point no further from the edge than the throw's pips (four times a double's die).

    >>> long = Position.start("long")  # light's fifteen on the head, its point 24
    >>> within_reach(long, (6, 5)), within_reach(long, (6, 6)), within_reach(Position.start(), (3, 1))
    (False, True, False)
    """
    return bool(before.board[0:reach(dice)].any())


def short_beyond_reach(read: np.ndarray, counted: np.ndarray, mover: str, variant: str, dice: tuple) -> bool:
    """Whether the mover's checkers that a reading with all of them counted (``counted``) puts
    back into the one read freely (``read``) all go to stacks of at least :data:`TALL` on points
    the dice cannot take a checker off from (further from the edge than the throw's pips): such
    checkers were hidden in a tall stack, not taken off, by a legal play or a foul (vid 7705,
    long nardy: dark's head of 8 read 7 at 2.8 nats, some of dark's checkers home; the play was
    recorded unclear and light's head-rule foul two turns later went uncalled). A checker
    missing nearer the edge, or from the bar, may have been taken off: not so.

    >>> light = lambda n: class_of("light", n) if n else 0
    >>> read, counted = np.zeros(26, int), np.zeros(26, int)
    >>> head = location_map("light", "long")[23]
    >>> read[head], counted[head] = light(7), light(8)
    >>> short_beyond_reach(read, counted, "light", "long", (4, 2)), short_beyond_reach(read, counted, "light", "long", (6, 6))
    (True, False)
    """
    colour = 0 if mover == "light" else 1
    mine = lambda classes: np.where((classes > 0) & (_colour_of(classes) == colour), _count_of(classes), 0)
    added = np.nonzero(mine(counted) > mine(read))[0]
    beyond = set(location_map(mover, variant)[reach(dice):24].tolist())
    return len(added) > 0 and all(int(loc) in beyond and mine(counted)[loc] >= TALL for loc in added)


MOST_PIPS = 24  # a turn's most: four sixes


def may_bear_off(position: Position) -> bool:
    """Whether the mover could take a checker off the board in the turn ``position`` starts
    (RULES 3.6): the pips that bring every checker of theirs home are fewer than a turn's most.
    Counted in pips, not dice, so a turn that cannot is never said to.

    >>> may_bear_off(Position.start())
    False
    >>> home = Position.from_board(np.r_[[3, 3, 3, 3, 0, 2, 1], np.zeros(18, int), Position.start().board[25:]])
    >>> may_bear_off(home)  # the last checker on the 7, one pip from home
    True
    """
    outside = position.board[6:25]  # points 7..24 and the bar (point 25): 1..19 pips from home
    return int((outside * np.arange(1, 20)).sum()) < MOST_PIPS


def _surely_none(logp: np.ndarray, free: np.ndarray, classes: np.ndarray, k: int, thresholds: Thresholds) -> bool:
    """Whether the locations read with confidence rule out every legal play (``classes``, the
    best ``k``) by a call's margin: the best legal play differs from the reading only where it is
    read with confidence, or those locations alone rule out every legal play, whatever the rest
    show (vid 8506: a 4-1's bar/21 6/4, a 4-2's play, the two points it changes read at 0.98 and
    0.99, the bar at 0.63 empty to 0.30 holding the checker 6/5* hits: left unclear, the 6/5*
    recorded on the benefit of the doubt, and the record off the board for the rest of the game)."""
    rows = np.arange(len(free))
    sure = np.exp(logp[rows, free]) >= thresholds.confident
    if sure[free != classes[k]].all():
        return True
    gaps = logp[rows, free][None] - logp[rows[None], classes]
    return float(gaps[:, sure].sum(axis=1).min()) >= thresholds.call


# A stack read mixed at least this surely may be read by the checker network as either colour's
# checkers alone: it never saw a stack of both colours, and counts them as it may (vid 8902:
# light's checker on dark's two read dark 2 at 0.70, dark 3 at 0.17; vid 8506: three dark and
# one light read dark 4).
MIXED_SURE = 0.999


def read_either_colour(boards: np.ndarray, mover: str, variant: str, logp: np.ndarray,
                       mixed: np.ndarray | None = None) -> tuple:
    """For kernel ``boards`` (K, 50) seen from ``mover``: the (K, 26) classes they put on every
    location, each location's log-likelihood under ``logp``, and where both colours stand. The
    checker network reads one colour a stack (vid 7904, long nardy: dark's checker on light's six
    read light 7 at 0.54, dark 7 at 0.15), so a point both colours stand on is scored by the
    likelier colour at the total count; where ``mixed`` reads it mixed surely
    (:data:`MIXED_SURE`), also by either colour's checkers alone."""
    boards = np.asarray(boards, np.int64).reshape(-1, 50)
    classes = expected_classes(boards, mover, variant)
    opp = other(mover)
    count = {mover: np.zeros(classes.shape, np.int64), opp: np.zeros(classes.shape, np.int64)}
    count[mover][:, location_map(mover, variant)] = boards[:, 0:24]
    count[opp][:, location_map(opp, variant)] = boards[:, 25:49]
    shared = (count[mover] > 0) & (count[opp] > 0)
    switch = (DARK_OFFSET - LIGHT_OFFSET) * (1 if mover == "light" else -1)
    rows = np.arange(logp.shape[0])
    at = logp[rows, classes]
    either = np.where(shared, np.maximum(at, logp[rows, classes + switch * shared]), at)
    if mixed is not None and shared.any():
        alone = shared & (mixed >= MIXED_SURE)
        for colour, n in count.items():
            base = LIGHT_OFFSET if colour == "light" else DARK_OFFSET
            one = logp[rows, base - 1 + np.clip(n, 1, 15)]
            either = np.where(alone, np.maximum(either, one), either)
    return classes, either, shared


def _likeliest_landing(boards: np.ndarray, mover: str, variant: str, logp: np.ndarray, best_legal: Position,
                       thresholds: Thresholds, mixed: np.ndarray | None = None) -> int | None:
    """The index of the likeliest of ``boards`` (each with a point both colours stand on), when
    it explains the board as well as a legal play would (within ``thresholds.legal`` of the
    reading with its checkers counted, tall stacks of one colour read one off aside), the stack
    shows the checker added (its total likelier than what ``best_legal`` leaves there, unless
    ``mixed`` reads it mixed surely), and every other location where it differs from
    ``best_legal`` is read with confidence: else a checker missed elsewhere could pass for one
    hidden in the stack. Or None."""
    classes, either, shared = read_either_colour(boards, mover, variant, logp, mixed)
    k = int(np.argmax(either.sum(axis=1)))
    # Against the likeliest reading with the landing's checkers in play, as a legal play is
    # (:func:`counted_margin`): a long nardy head of eleven seen steeply and read as ten leaves
    # the free reading a checker short of any landing (vid 9921: 24/21 24/19 onto dark's checker
    # left unclear 17 nats from the board).
    # Tall stacks of one colour read one off, the landing's own stack aside, count for nothing
    # there: the count of fifteen can trade one head's checker for the other's (vid 9921 with the
    # network of the sixty-fourth stop: light's head of eleven read as ten at 0.72, dark's of
    # thirteen as fourteen at 0.30, the landing 3.3 nats behind that reading, the record then
    # judged lost).
    mine, theirs = int(boards[k, 0:25].sum()), int(boards[k, 25:50].sum())
    counted = counted_reading(logp, mover, range(mine, mine + 1), theirs)[0]
    rows = np.arange(logp.shape[0])
    one_off = (~shared[k] & (classes[k] > 0) & (counted > 0) & (_colour_of(classes[k]) == _colour_of(counted))
               & (np.minimum(_count_of(classes[k]), _count_of(counted)) >= TALL)
               & (np.abs(_count_of(classes[k]) - _count_of(counted)) == 1))
    if float((logp[rows, counted] - either[k])[~one_off].sum()) > thresholds.legal:
        return None
    legal = expected_classes(best_legal.board[None], mover, variant)[0]
    stack = shared[k]
    shown = either[k] > logp[np.arange(logp.shape[0]), legal]
    if mixed is not None:
        shown |= mixed >= MIXED_SURE
    if not shown[stack].all():
        return None
    # Elsewhere the board must rule the legal play out: each location where the two differ
    # read as the landing has it, or as the legal play has it only unsurely (vid 9921: a head
    # of eleven read 10 at 0.51, 11 at 0.38, the legal play's 12 at 0.08)
    differ = ~stack & (classes[k] != legal)
    rows = np.arange(logp.shape[0])[differ]
    if not ((np.exp(either[k][differ]) >= thresholds.confident)
            | (np.exp(logp[rows, legal[differ]]) <= 1 - thresholds.confident)).all():
        return None
    return k


def shared_point_play(before: Position, dice: tuple, mover: str, logp: np.ndarray, decision: Decision,
                      thresholds: Thresholds = Thresholds()) -> Decision | None:
    """The play of ``dice`` that lands a checker on a point the opponent holds (RULES 3.1, 3.2:
    both colours on one point) as an illegal :class:`Decision`, when it explains the board where
    no legal play does (``decision``, from :func:`decode`, is ``margin`` >= ``thresholds.call``
    from the board), or None. Such a stack is scored by the likelier colour at the total count
    (:func:`read_either_colour`) and the play taken as :func:`_likeliest_landing` says.

    >>> before = Position.start()
    >>> after = before.apply("6/1 13/11")  # 6/1 lands on the opponent's two checkers there
    >>> truth = expected_classes(after.board[None], "light", "backgammon")[0]
    >>> lp = np.log(np.full((26, 31), 1e-6)); lp[np.arange(26), truth] = 0.0
    >>> stack = location_map("light", "backgammon")[0]  # the stack of three read as dark's
    >>> lp[stack] = np.log(1e-6); lp[stack, DARK_OFFSET + 2] = 0.0
    >>> decision = decode(before, (5, 2), "light", lp)
    >>> decision.kind, shared_point_play(before, (5, 2), "light", lp, decision).position == after
    ('unclear', True)
    """
    if decision.kind == "legal" or decision.margin < thresholds.call:
        return None
    candidates = _landings(before, dice)
    if not candidates:
        return None
    boards = np.stack([c.board for c in candidates])
    k = _likeliest_landing(boards, mover, before.variant.name, logp, decision.best_legal, thresholds)
    if k is None:
        return None
    return Decision("illegal", candidates[k], decision.margin, decision.candidates, decision.best_legal)


# The mixed-stack network's probabilities are taken no surer than this far from 0 and 1, so
# that no call rests on its saying "mixed" alone: a margin of at most 13.8 nats from it.
MIXED_FLOOR = 1e-6
# Stacks read mixed less surely than this are not looked at (a cost bound: most boards have none).
MIXED_LOOKED_AT = 0.5


def explained(position: Position, mover: str, logp: np.ndarray, mixed: np.ndarray | None = None) -> float:
    """How well ``position`` (seen from ``mover``) explains the reading: the log-likelihood of
    the reading it puts on every location, a point both colours stand on read as either colour
    (:func:`read_either_colour`), and with a mixed-stack reading (``mixed``,
    :attr:`~vision.observation.Observation.mixed`), the odds of such a point being read mixed
    added: a position of one colour everywhere scores as without it, so it compares as before
    with the free reading and with legal plays.

    >>> before = Position.start()
    >>> fouled = before.apply("6/1 13/11")  # 6/1 onto dark's two: a stack of three
    >>> lp = np.log(np.full((26, 31), 1e-4))
    >>> lp[np.arange(26), expected_classes(fouled.board[None], "light", "backgammon")[0]] = 0.0
    >>> stack = location_map("light", "backgammon")[0]
    >>> lp[stack] = np.log(1e-4); lp[stack, DARK_OFFSET + 2] = 0.0  # read as dark 3
    >>> mixed = np.zeros(26); mixed[stack] = 0.99
    >>> round(explained(fouled, "light", lp), 2), round(explained(fouled, "light", lp, mixed), 2)
    (0.0, 4.6)
    """
    _, either, shared = read_either_colour(position.board[None], mover, position.variant.name, logp, mixed)
    odds = 0.0
    if mixed is not None and shared.any():
        m = np.clip(mixed[shared[0]], MIXED_FLOOR, 1 - MIXED_FLOOR)
        odds = float(np.log(m / (1 - m)).sum())
    return float(either.sum()) + odds


def blocked_points(before: Position) -> np.ndarray:
    """The mover's point indices (0..23) the opponent blocks in ``before`` (RULES 3.2)."""
    variant = before.variant
    theirs = before.board[25:49][variant.facing]  # the opponent's counts on the mover's points
    return np.flatnonzero(theirs >= variant.block_min)


def mixed_stack_play(before: Position, dice: tuple, mover: str, logp: np.ndarray, mixed: np.ndarray | None,
                     decision: Decision, thresholds: Thresholds = Thresholds()) -> Decision | None:
    """The play that left a checker of the mover on a point the opponent blocks (RULES 3.2),
    seen by the mixed-stack network (``mixed``: every location's probability of a stack of both
    colours, :attr:`~vision.observation.Observation.mixed`), as an illegal :class:`Decision`; or
    None.

    A checker laid on the wrong point is most often a die miscounted (vid 8604: a 4-4's 4/1, a
    3, onto the opponent's anchor), so the dice do not say which play it was. The candidates are
    the plays of ``dice`` that land on a blocked point (:func:`_landings`), and ``before`` and
    every legal play of ``dice`` with one of the mover's checkers (from a point, the bar or the
    borne-off ones) laid on a blocked point, that point a stack read mixed. The likeliest is
    taken as :func:`_likeliest_landing` says, and called when it beats the best legal play by a
    call's margin with the mixed reading's odds counted (:func:`explained`).

    >>> before = Position.start()
    >>> foul = before.apply("13/11 6/5").board.astype(np.int64); foul[4] -= 1; foul[0] += 1  # 6/1: onto dark's two
    >>> truth = expected_classes(foul[None], "light", "backgammon")[0]
    >>> lp = np.log(np.full((26, 31), 1e-4)); lp[np.arange(26), truth] = 0.0
    >>> stack, five = location_map("light", "backgammon")[[0, 4]]
    >>> lp[stack, DARK_OFFSET + 1], lp[stack, DARK_OFFSET + 2] = np.log(0.4), np.log(0.6)  # dark 2 or 3
    >>> lp[five, 0], lp[five, LIGHT_OFFSET] = np.log(0.97), np.log(0.03)
    >>> decision = decode(before, (2, 1), "light", lp)
    >>> decision.kind, round(decision.margin, 1)  # the board alone, light's fifteen counted: 13/11 6/5
    ('legal', 3.5)
    >>> mixed = np.zeros(26); mixed[stack] = 0.9999
    >>> found = mixed_stack_play(before, (2, 1), "light", lp, mixed, decision)
    >>> found.kind, found.position.shared_points(), round(found.margin, 1)
    ('illegal', [1], 13.6)
    >>> mixed[stack] = 0.9  # not sure enough to call
    >>> mixed_stack_play(before, (2, 1), "light", lp, mixed, decision) is None
    True
    """
    if mixed is None or decision.best_legal is None:
        return None
    variant = before.variant.name
    stacks = [j for j in blocked_points(before) if mixed[location_map(mover, variant)[j]] >= MIXED_LOOKED_AT]
    if not stacks:
        return None
    found = [landing.board[None] for landing in _landings(before, dice)
             if len(landing.shared_points()) == 1 and landing.shared_points()[0] - 1 in stacks]
    bases = np.vstack([before.board[None], before.play_boards(*dice)]).astype(np.int64)
    for j in stacks:
        for source in [s for s in range(25) if s != j] + [25]:  # points, the bar, borne off (25)
            moved = bases[bases[:, 0:25].sum(axis=1) < 15 if source == 25 else bases[:, source] > 0].copy()
            if source < 25:
                moved[:, source] -= 1
            moved[:, j] += 1
            found.append(moved)
    boards = np.vstack(found).astype(np.int64)
    k = _likeliest_landing(boards, mover, variant, logp, decision.best_legal, thresholds, mixed)
    if k is None:
        return None
    played = Position.from_board(boards[k], before.variant)
    margin = explained(played, mover, logp, mixed) - explained(decision.best_legal, mover, logp)
    if margin < thresholds.call:
        return None
    return Decision("illegal", played, margin, decision.candidates, decision.best_legal)


_LANDINGS: dict = {}


def _landings(before: Position, dice: tuple) -> list[Position]:
    """Every position the steps of ``dice`` reach with some checker landing on a point the
    opponent holds (blots hit as usual; bearing off left out), each once. Cached: a play left
    unclear is decoded again at every settle."""
    key = (before.board.tobytes(), before.variant.name, tuple(dice))
    if key not in _LANDINGS:
        d1, d2 = dice
        found: dict = {}
        for order in ([(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]):
            level = {before.board.tobytes(): before}
            for die in order:
                level = {after.board.tobytes(): after for position in level.values()
                         for src in range(die + 1, 26) if position.board[src - 1] > 0
                         for after in [position.apply([(src, src - die, False)])]}
            found.update({k: v for k, v in level.items() if v.shared_points()})
        if len(_LANDINGS) > 64:
            _LANDINGS.clear()
        _LANDINGS[key] = list(found.values())
    return _LANDINGS[key]


def _possible(before: Position, dice: tuple, after: Position) -> bool:
    """Could a player with ``dice`` thrown turn ``before`` into ``after`` on a board, the rules
    aside: the opponent has as many checkers in play as before, the mover as many or fewer
    (borne off), and the mover's checkers went forward, by no more than a throw can carry them
    (24 pips, a 6-6) or twice the pips thrown: a foul plays a wrong number, too many checkers or
    the turn before's as well, it does not carry checkers across the board. Any other reading is
    a misread: vid 7705, a long nardy head of 14 read as 12 at 0.68-0.71 took the mover's pips
    down by 48 more than the 6 thrown, within 0.05 of the confidence that calls a play illegal."""
    in_play = lambda b, s: int(b[s:s + 25].sum())
    thrown = dice[0] * 4 if dice[0] == dice[1] else dice[0] + dice[1]
    went = before.pip_counts()[0] - after.pip_counts()[0]
    return (in_play(after.board, 0) <= in_play(before.board, 0)
            and in_play(after.board, 25) == in_play(before.board, 25) and 0 <= went <= max(24, 2 * thrown))


# --- what two boards tell of turns unseen -------------------------------------------------
def opponent_played(before: Position, after: Position) -> bool:
    """Is ``after`` (seen from the mover) a legal play of some roll by the *opponent* from
    ``before``? Then the board tells of a turn the tracker missed, not of a foul."""
    theirs, seen = before.swapped(), after.swapped()
    return any(theirs.check(d1, d2, seen).legal for d1, d2 in ROLLS)


def mover_reached(before: Position, after: Position) -> bool:
    """Whether the mover's checkers in ``after`` (both seen from the mover) lie where some play
    of theirs from ``before``, or none, puts them, or one checker moved one die's number of
    points (a play half made, or being put right: vid 10003, 25/23 13/9 for a 5-2 taken back
    to 25/23 on its way to 25/23 13/8, was taken for turns gone unseen and the game ended), but
    for checkers of theirs hit since: the other player's turn may have begun on top, or gone by,
    and their checkers are not looked at.

    >>> start = Position.start()
    >>> played = start.apply("8/5 6/5")
    >>> begun = played.swapped().apply("24/18").swapped()  # the other player's turn begun on top
    >>> mover_reached(start, begun), mover_reached(start, played.apply("13/10"))
    (True, False)
    >>> mover_reached(start, start.apply("13/9")), mover_reached(start, start.apply("13/9 13/9 13/9"))
    (True, False)
    """
    now = after.board[0:25].astype(np.int16)
    moved = [before.apply(((src, max(src - die, 0), False),)).board for src in range(1, 26)
             if before.board[src - 1] > 0 for die in range(1, 7)]
    ends = np.concatenate([before.board[None], *(before.play_boards(*roll) for roll in ROLLS),
                           np.array(moved, before.board.dtype).reshape(-1, before.board.shape[0])])[:, 0:25]
    hit = ends[:, 0:24].astype(np.int16) - now[0:24]
    return bool(((hit >= 0).all(axis=1) & (now[24] - ends[:, 24] == hit.sum(axis=1))).any())


def danced_between(before: Position, dice: tuple, after: Position) -> tuple | None:
    """A roll that explains ``after`` (seen from the mover) as two turns of the mover with a dance
    of the opponent's between them, all unseen but the last throw: the roll of the first turn,
    or None. Only an opponent on the bar can dance, and a dance moves nothing of theirs, so the
    board shows no sign of the two turns missed (vid 7311 joined mid-game: light's 3-1 read as a
    glimpse and dark's 6-4 dance across both halves; light's 6-5 then judged from before the 3-1,
    a false call).

    >>> before = Position([0, 2, 2, 2, 2, 2, 2] + [0] * 16 + [3], [0] * 23 + [14], opponent_bar=1)
    >>> after = before.apply("24/18 24/21").apply("21/19 19/18")  # a 6-3 unseen, a dance, then a 2-1
    >>> danced_between(before, (2, 1), after) in {(6, 3), (5, 4)}
    True
    >>> danced_between(before, (2, 1), before.apply("24/21 24/22")) is None  # a 3-2 played for a 2-1
    True
    """
    if not before.opponent_bar:
        return None
    for roll in ROLLS:
        for play in before.plays(*roll):
            middle = play.position
            theirs = middle.swapped()
            if middle.check(*dice, after).legal and any(not theirs.plays(*r)[0].steps for r in ROLLS):
                return roll
    return None


def passes_through(before: Position, roll: tuple, middle: Position, after: Position) -> bool:
    """Whether some order of the roll's steps leads from ``before`` through ``middle`` to
    ``after`` (all seen from the mover; blocked points aside: ``after`` is a legal play of the
    roll already). A board seen mid-turn tells which of the rolls that make one play was thrown:
    13/8 then 13/6 is a 5-2, not a 4-3 or a 6-1.

    >>> start = Position.start()
    >>> [passes_through(start, r, start.apply("13/8"), start.apply("13/6")) for r in ((5, 2), (4, 3), (6, 1))]
    [True, False, False]
    """
    d1, d2 = roll

    def via(pos: Position, left: tuple, stops: tuple) -> bool:
        if pos == stops[0]:
            return len(stops) == 1 or via(pos, left, stops[1:])
        # only a checker that the next stop has fewer of where it stands can move on from there
        return any(pos.board[src - 1] > stops[0].board[src - 1]
                   and via(pos.apply([(src, max(0, src - die), False)]), left[:i] + left[i + 1:], stops)
                   for i, die in enumerate(left) for src in range(1, 26))

    return via(before, (d1,) * 4 if d1 == d2 else (d1, d2), (middle, after))

