"""The numba kernels: move generation and the transition check, on plain integer arrays.

Every kernel works on a *board*: ``int8[50]``, the position from the mover's point of view
(RULES 1, 9):

* ``board[0:24]``  the mover's checkers on its points 1..24, ``board[24]`` the mover's bar;
* ``board[25:49]`` the opponent's checkers on *its own* points 1..24, ``board[49]`` its bar.

Inside a search the opponent is re-indexed into the mover's numbering (``opp_here``), so a
step only looks at one array. How the two numberings relate, what blocks a point, whether
blots are hit and which extra rules apply is not known here: it comes in ``rules``, an
``int64`` array built by :class:`engine.variant.Variant` from its class attributes, so
backgammon and long nardy share every line of this module.

A *step* is one die moved by one checker. Steps are recorded as ``(from, to, hit)`` in the
mover's numbering: from 1..25 (25 the bar), to 0..24 (0 borne off).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# --- board layout -------------------------------------------------------------------------
BAR = 24  # index of a side's bar in its 25 entries
OPP = 25  # offset of the opponent's entries in a board
BOARD_SIZE = 50

# --- rule parameters (filled by Variant.rules_array) -------------------------------------
R_BLOCK_MIN = 0  # opposing checkers that block a point (RULES 3.2)
R_HITS = 1  # 1 if a single opposing checker is hit (RULES 3.3)
R_MIRRORED = 2  # 1: opponent's p is mover's 25-p (backgammon); 0: p+12 mod 24 (long nardy)
R_HEAD_RULE = 3  # 1: at most one checker leaves the head per turn (RULES 3.7)
R_SIX_BLOCK = 4  # 1: a play may not end in a forbidden six-block (RULES 3.8)
R_COUNT = 5

# --- relaxations, used only to name the reason of an illegal play ------------------------
RELAX_BAR = 1  # a checker may move while another is on the bar
RELAX_HOME = 2  # bearing off without all checkers home
RELAX_BLOCK = 4  # landing on a blocked point
RELAX_HEAD = 8  # more checkers off the head than allowed

# --- reason codes of the transition check (names and sentences in engine.reasons) --------
LEGAL = 0
CHECKER_COUNT = 1
SHARED_POINT = 2
OPPONENT_MOVED = 3
MOVED_BACKWARDS = 4
HEAD_RULE = 5
SIX_BLOCK = 6
TOO_FEW_DICE = 7
LARGER_DIE_REQUIRED = 8
BAR_FIRST = 9
BEAR_OFF_EARLY = 10
BLOCKED_POINT = 11
NO_SUCH_PLAY = 12

# --- buffers -----------------------------------------------------------------------------
# Distinct results of one roll: GNU Backgammon's bound. A result is fixed by the multiset of
# source points of its steps, and 15 checkers sit on at most 15 sources: C(15+3, 4) = 3060.
MAX_PLAYS = 3060
TABLE_SIZE = 8192  # open-addressing table of results, a power of two above 2 * MAX_PLAYS
NO_STEP = -2
STEP_OFF = -1

# --- search modes ---------------------------------------------------------------------------
MODE_ENUMERATE = 0  # record every distinct result of the best plays
MODE_BEST = 1  # only find the most steps/pips any legal play uses (RULES 3.5)
MODE_TARGET = 2  # find the best way to reach one given result


@njit(cache=True)
def opp_index(j, mirrored):
    """Mover's index of the opponent's index ``j`` (both 0..23)."""
    if mirrored:
        return 23 - j
    return (j + 12) % 24


@njit(cache=True)
def split_board(board, rules, mover, opp_here):
    """Fill ``mover[25]`` and ``opp_here[24]`` from a board; return the opponent's bar."""
    mirrored = rules[R_MIRRORED]
    for i in range(25):
        mover[i] = board[i]
    for j in range(24):
        opp_here[opp_index(j, mirrored)] = board[OPP + j]
    return board[OPP + BAR]


@njit(cache=True)
def join_board(mover, opp_here, opp_bar, rules, out):
    mirrored = rules[R_MIRRORED]
    for i in range(25):
        out[i] = mover[i]
    for j in range(24):
        out[OPP + j] = opp_here[opp_index(j, mirrored)]
    out[OPP + BAR] = opp_bar


@njit(cache=True)
def step_destination(mover, opp_here, src, die, rules, relax):
    """Where one step of ``die`` from index ``src`` lands, or NO_STEP (RULES 3.1-3.6).

    Returns an index 0..23, STEP_OFF for bearing off, or NO_STEP. The head rule is the
    caller's business, since it counts steps over the whole turn.
    """
    if mover[src] == 0:
        return NO_STEP
    if src != BAR and mover[BAR] > 0 and (relax & RELAX_BAR) == 0:
        return NO_STEP  # RULES 3.4: enter every checker first
    dest = src - die  # the bar is index 24 = point 25, so entry lands on 25 - die as well
    if dest >= 0:
        if opp_here[dest] >= rules[R_BLOCK_MIN] and (relax & RELAX_BLOCK) == 0:
            return NO_STEP
        return dest
    # RULES 3.6: bearing off, tested before every step.
    if (relax & RELAX_HOME) == 0:
        if mover[BAR] > 0:
            return NO_STEP
        for i in range(6, 24):
            if mover[i] > 0:
                return NO_STEP
    if dest < -1:  # a larger die bears off only from the highest occupied point
        for i in range(src + 1, 25):
            if mover[i] > 0:
                return NO_STEP
    return STEP_OFF


@njit(cache=True)
def forbidden_block(mover, opp_here, opp_bar, mirrored):
    """True when the mover holds a six-block no opposing checker is ahead of (RULES 3.8).

    The block is measured along the opponent's route, its points q..q+5 for q = 1..19, so
    the scan runs over the opponent's numbering and does not wrap from its 24 to its 1.
    Of the six-blocks inside one run of points, the one starting lowest has the fewest
    opposing checkers ahead of it, so only the start of each run is tested.
    """
    on_board = opp_bar
    for i in range(24):
        on_board += opp_here[i]
    if on_board < 15:
        return False  # an opposing checker is borne off: it is ahead of every block
    ahead = 0  # opposing checkers on the opponent's points below the current one
    run_start = -1
    ahead_of_run = 0
    for q in range(24):
        here = opp_index(q, mirrored)
        if mover[here] > 0:
            if run_start < 0:
                run_start = q
                ahead_of_run = ahead
            if q - run_start >= 5 and ahead_of_run == 0:
                return True
        else:
            run_start = -1
        ahead += opp_here[here]
    return False


@njit(cache=True)
def _hash(mover, opp_here, opp_bar):
    h = np.uint64(14695981039346656037)
    prime = np.uint64(1099511628211)
    for i in range(25):
        h = (h ^ np.uint64(mover[i] + 1)) * prime
    for i in range(24):
        h = (h ^ np.uint64(opp_here[i] + 1)) * prime
    h = (h ^ np.uint64(opp_bar + 1)) * prime
    return h


@njit(cache=True)
def _same(a_mover, a_opp, a_bar, b_mover, b_opp, b_bar):
    if a_bar != b_bar:
        return False
    for i in range(25):
        if a_mover[i] != b_mover[i]:
            return False
    for i in range(24):
        if a_opp[i] != b_opp[i]:
            return False
    return True


class Workspace:
    """Buffers for the kernels, allocated once and reused across calls (plain arrays)."""

    def __init__(self):
        self.res_mover = np.zeros((MAX_PLAYS, 25), np.int8)
        self.res_opp = np.zeros((MAX_PLAYS, 24), np.int8)
        self.res_bar = np.zeros(MAX_PLAYS, np.int64)
        self.res_steps = np.zeros((MAX_PLAYS, 4, 3), np.int8)
        self.res_nsteps = np.zeros(MAX_PLAYS, np.int64)
        self.res_slot = np.zeros(MAX_PLAYS, np.int64)
        self.table = np.full(TABLE_SIZE, -1, np.int64)


@njit(cache=True)
def search(
    mover0, opp0, oppbar0, d1, d2, rules, relax, mode,
    t_mover, t_opp, t_bar, best_n, best_pips,
    res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out,
):
    """Depth-first search over every sequence of steps of one roll (RULES 3.1-3.9).

    A double's steps take their sources in non-increasing order, which reaches every
    multiset of steps once. Candidates are visited after their children, so a play counts
    for the maximum-use rule only if it ends legally (RULES 3.8: a play ending in a
    forbidden block does not count). ``out`` receives ``[count, best_n, best_pips,
    match_n, match_pips]``:

    * MODE_ENUMERATE: results of the plays using the most steps (then the most pips, so the
      larger die when only one can be played) go to the ``res_*`` buffers;
    * MODE_BEST: only ``best_n``/``best_pips``; stops as soon as the whole roll is used;
    * MODE_TARGET: the best (n, pips) of a play reaching ``t_*``, pruning every branch that
      can no longer reach it; stops at a match with ``best_n``/``best_pips``; the steps of
      the match are left in ``res_steps[0]``.
    """
    double = d1 == d2
    ndice = 4 if double else 2
    full_pips = 4 * d1 if double else d1 + d2
    hits = rules[R_HITS] == 1
    head_limit = 99
    if rules[R_HEAD_RULE] == 1 and (relax & RELAX_HEAD) == 0:
        head_limit = 1
        # RULES 3.7: the first turn (all 15 on the head) with 6-6, 4-4 or 3-3 takes two.
        if mover0[23] == 15 and double and (d1 == 6 or d1 == 4 or d1 == 3):
            head_limit = 2
    six_block = rules[R_SIX_BLOCK] == 1

    st_mover = np.empty((5, 25), np.int8)
    st_opp = np.empty((5, 24), np.int8)
    st_bar = np.zeros(5, np.int64)
    st_head = np.zeros(5, np.int64)
    st_pips = np.zeros(5, np.int64)
    next_src = np.zeros(5, np.int64)
    path = np.zeros((4, 3), np.int8)
    dice = np.empty(4, np.int64)

    # target-mode pruning: checkers only move down, so the count at or above each point
    # can only fall, and an opposing checker once hit stays off its point.
    t_above = np.zeros(25, np.int64)
    if mode == MODE_TARGET:
        acc = 0
        for i in range(24, -1, -1):
            acc += t_mover[i]
            t_above[i] = acc

    count = 0
    cur_n = best_n
    cur_pips = best_pips
    match_n = -1
    match_pips = -1
    done = False
    orders = 1 if double else 2
    for order in range(orders):
        if done:
            break
        for k in range(4):
            dice[k] = d1
        if not double:
            dice[0] = d1 if order == 0 else d2
            dice[1] = d2 if order == 0 else d1
        for i in range(25):
            st_mover[0, i] = mover0[i]
        for i in range(24):
            st_opp[0, i] = opp0[i]
        st_bar[0] = oppbar0
        st_head[0] = 0
        st_pips[0] = 0
        next_src[0] = BAR
        d = 0
        while d >= 0:
            if d < ndice and next_src[d] >= 0:
                src = next_src[d]
                next_src[d] -= 1
                die = dice[d]
                if src == 23 and st_head[d] >= head_limit:
                    continue
                dest = step_destination(st_mover[d], st_opp[d], src, die, rules, relax)
                if dest == NO_STEP:
                    continue
                # apply the step at depth d + 1
                for i in range(25):
                    st_mover[d + 1, i] = st_mover[d, i]
                for i in range(24):
                    st_opp[d + 1, i] = st_opp[d, i]
                st_bar[d + 1] = st_bar[d]
                st_head[d + 1] = st_head[d] + (1 if src == 23 else 0)
                st_pips[d + 1] = st_pips[d] + die
                st_mover[d + 1, src] -= 1
                hit = 0
                if dest >= 0:
                    st_mover[d + 1, dest] += 1
                    if hits and st_opp[d + 1, dest] == 1:
                        st_opp[d + 1, dest] = 0
                        st_bar[d + 1] += 1
                        hit = 1
                if mode == MODE_TARGET:
                    ok = st_bar[d + 1] <= t_bar
                    if ok and hit == 1 and t_opp[dest] > 0:
                        ok = False
                    if ok:
                        above = 0
                        lowest = dest if dest >= 0 else 0
                        for i in range(24, lowest - 1, -1):
                            above += st_mover[d + 1, i]
                            if i <= src and above < t_above[i]:
                                ok = False
                                break
                    if not ok:
                        continue
                path[d, 0] = src + 1
                path[d, 1] = dest + 1 if dest >= 0 else 0
                path[d, 2] = hit
                next_src[d + 1] = src if double else BAR
                d += 1
                continue

            # post-order visit: the play of the first d steps, as a candidate
            n = d
            pips = st_pips[d]
            if n > cur_n or (n == cur_n and pips >= cur_pips) or mode == MODE_TARGET:
                legal_end = True
                if six_block and n > 0:
                    legal_end = not forbidden_block(st_mover[d], st_opp[d], st_bar[d], rules[R_MIRRORED])
                if legal_end:
                    if mode == MODE_TARGET:
                        if _same(st_mover[d], st_opp[d], st_bar[d], t_mover, t_opp, t_bar):
                            if n > match_n or (n == match_n and pips > match_pips):
                                match_n = n
                                match_pips = pips
                                for k in range(4):
                                    for c in range(3):
                                        res_steps[0, k, c] = path[k, c] if k < n else 0
                                res_nsteps[0] = n
                                if n == best_n and pips == best_pips:
                                    done = True
                    elif mode == MODE_BEST:
                        if n > cur_n or pips > cur_pips:
                            cur_n = n
                            cur_pips = pips
                        if n == ndice and pips == full_pips:
                            done = True
                    else:
                        if n > cur_n or pips > cur_pips:
                            # a better play exists: forget the results recorded so far
                            for r in range(count):
                                table[res_slot[r]] = -1
                            count = 0
                            cur_n = n
                            cur_pips = pips
                        h = _hash(st_mover[d], st_opp[d], st_bar[d])
                        slot = np.int64(h & np.uint64(TABLE_SIZE - 1))
                        found = False
                        while table[slot] >= 0:
                            r = table[slot]
                            if _same(st_mover[d], st_opp[d], st_bar[d], res_mover[r], res_opp[r], res_bar[r]):
                                found = True
                                break
                            slot = (slot + 1) & (TABLE_SIZE - 1)
                        if not found:
                            table[slot] = count
                            res_slot[count] = slot
                            for i in range(25):
                                res_mover[count, i] = st_mover[d, i]
                            for i in range(24):
                                res_opp[count, i] = st_opp[d, i]
                            res_bar[count] = st_bar[d]
                            for k in range(4):
                                for c in range(3):
                                    res_steps[count, k, c] = path[k, c] if k < n else 0
                            res_nsteps[count] = n
                            count += 1
            if done:
                break
            d -= 1
    if mode == MODE_ENUMERATE:
        for r in range(count):  # leave the table empty for the next call
            table[res_slot[r]] = -1
    out[0] = count
    out[1] = cur_n
    out[2] = cur_pips
    out[3] = match_n
    out[4] = match_pips


@njit(cache=True)
def enumerate_plays(board, d1, d2, rules, res_mover, res_opp, res_bar, res_steps,
                    res_nsteps, res_slot, table, boards_out):
    """Every distinct result of the legal plays of ``d1-d2`` (RULES 3.9); returns the count.

    Results go to ``boards_out[k]`` (boards as described above, same side to move) and their
    steps to ``res_steps[k]`` / ``res_nsteps[k]``. When nothing can be played the one result
    is the unchanged board with no steps.
    """
    mover = np.empty(25, np.int8)
    opp = np.empty(24, np.int8)
    bar = split_board(board, rules, mover, opp)
    out = np.zeros(5, np.int64)
    search(mover, opp, bar, d1, d2, rules, 0, MODE_ENUMERATE, mover, opp, bar, 0, 0,
           res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out)
    count = out[0]
    for r in range(count):
        join_board(res_mover[r], res_opp[r], res_bar[r], rules, boards_out[r])
    return count


@njit(cache=True)
def enumerate_batch(boards, dice, rules, res_mover, res_opp, res_bar, res_steps, res_nsteps,
                    res_slot, table, scratch, counts):
    """Count the distinct results for many (board, roll) pairs; ``counts[k]`` gets each."""
    total = 0
    for k in range(boards.shape[0]):
        c = enumerate_plays(boards[k], dice[k, 0], dice[k, 1], rules, res_mover, res_opp,
                            res_bar, res_steps, res_nsteps, res_slot, table, scratch)
        counts[k] = c
        total += c
    return total


@njit(cache=True)
def _reaches(mover, opp, bar, d1, d2, rules, relax, t_mover, t_opp, t_bar, best_n, best_pips,
             res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out):
    search(mover, opp, bar, d1, d2, rules, relax, MODE_TARGET, t_mover, t_opp, t_bar,
           best_n, best_pips, res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot,
           table, out)
    return out[3] >= 0


@njit(cache=True)
def check_play(before, d1, d2, after, rules, res_mover, res_opp, res_bar, res_steps,
               res_nsteps, res_slot, table):
    """Is ``before`` -> ``after`` a legal play of ``d1-d2``? Returns a reason code.

    LEGAL leaves the play's steps in ``res_steps[0]`` / ``res_nsteps[0]``. The direct faults
    (counts, shared points, the opponent's checkers, direction, the head) are read off the
    two boards; only then is the search run, pruned towards ``after``. The reason of a play
    no search reaches is found by relaxing one rule at a time.
    """
    mover = np.empty(25, np.int8)
    opp = np.empty(24, np.int8)
    t_mover = np.empty(25, np.int8)
    t_opp = np.empty(24, np.int8)
    bar = split_board(before, rules, mover, opp)
    t_bar = split_board(after, rules, t_mover, t_opp)
    out = np.zeros(5, np.int64)

    mover_before = 0
    mover_after = 0
    opp_after = t_bar
    for i in range(25):
        if t_mover[i] < 0:
            return CHECKER_COUNT
        mover_before += mover[i]
        mover_after += t_mover[i]
    for i in range(24):
        if t_opp[i] < 0:
            return CHECKER_COUNT
        opp_after += t_opp[i]
    if t_bar < 0 or mover_after > mover_before or opp_after > 15:
        return CHECKER_COUNT
    for i in range(24):
        if t_mover[i] > 0 and t_opp[i] > 0:
            return SHARED_POINT
    # RULES 3.3: the opponent's checkers move only by being hit.
    hit = 0
    for i in range(24):
        if t_opp[i] > opp[i]:
            return OPPONENT_MOVED
        if t_opp[i] < opp[i]:
            if rules[R_HITS] == 0 or opp[i] != 1:
                return OPPONENT_MOVED
            hit += 1
    if t_bar - bar != hit:
        return OPPONENT_MOVED
    above = 0
    t_above = 0
    for i in range(24, -1, -1):
        above += mover[i]
        t_above += t_mover[i]
        if above < t_above:
            return MOVED_BACKWARDS
    if rules[R_HEAD_RULE] == 1:
        # RULES 3.7, read directly: more checkers off the head than the roll allows.
        limit = 1
        if mover[23] == 15 and d1 == d2 and (d1 == 6 or d1 == 4 or d1 == 3):
            limit = 2
        if mover[23] - t_mover[23] > limit:
            return HEAD_RULE
    if rules[R_SIX_BLOCK] == 1 and forbidden_block(t_mover, t_opp, t_bar, rules[R_MIRRORED]):
        return SIX_BLOCK

    search(mover, opp, bar, d1, d2, rules, 0, MODE_BEST, mover, opp, bar, 0, 0,
           res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out)
    best_n = out[1]
    best_pips = out[2]
    if _reaches(mover, opp, bar, d1, d2, rules, 0, t_mover, t_opp, t_bar, best_n, best_pips,
                res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out):
        if out[3] == best_n and out[4] == best_pips:
            return LEGAL
        if out[3] < best_n:
            return TOO_FEW_DICE
        return LARGER_DIE_REQUIRED
    # Not reachable under the rules: name the one rule whose relaxation reaches it.
    if mover[BAR] > 0 and _reaches(mover, opp, bar, d1, d2, rules, RELAX_BAR, t_mover, t_opp,
                                   t_bar, -1, -1, res_mover, res_opp, res_bar, res_steps,
                                   res_nsteps, res_slot, table, out):
        return BAR_FIRST
    if mover_after < mover_before and _reaches(
            mover, opp, bar, d1, d2, rules, RELAX_HOME, t_mover, t_opp, t_bar, -1, -1,
            res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out):
        return BEAR_OFF_EARLY
    if _reaches(mover, opp, bar, d1, d2, rules, RELAX_BLOCK, t_mover, t_opp, t_bar, -1, -1,
                res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out):
        return BLOCKED_POINT
    if rules[R_HEAD_RULE] == 1 and _reaches(
            mover, opp, bar, d1, d2, rules, RELAX_HEAD, t_mover, t_opp, t_bar, -1, -1,
            res_mover, res_opp, res_bar, res_steps, res_nsteps, res_slot, table, out):
        return HEAD_RULE
    return NO_SUCH_PLAY


@njit(cache=True)
def check_batch(befores, dice, afters, rules, res_mover, res_opp, res_bar, res_steps,
                res_nsteps, res_slot, table, codes):
    """Reason codes for many (before, roll, after) triples into ``codes``."""
    for k in range(befores.shape[0]):
        codes[k] = check_play(befores[k], dice[k, 0], dice[k, 1], afters[k], rules, res_mover,
                              res_opp, res_bar, res_steps, res_nsteps, res_slot, table)
