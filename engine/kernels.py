"""The numba kernels: move generation and the transition check, on plain integer arrays.

Every kernel takes positions as *boards*: ``int8[50]``, seen from the side to move (RULES 1, 9):

* ``board[0:24]``  the mover's checkers on its points 1..24, ``board[24]`` the mover's bar;
* ``board[25:49]`` the opponent's checkers on *its own* points 1..24, ``board[49]`` its bar.

The search works on boards as they are: the opponent on the mover's point ``i + 1`` is
``board[25 + opp_index(i)]``. How the two numberings relate, what blocks a point, whether
blots are hit and which extra rules apply is not known here: it comes in ``rules``, an
``int64`` array built by :class:`engine.variant.Variant` from its class attributes, so
backgammon and long nardy share every line of this module.

A *step* is one die moved by one checker, recorded as ``(from, to, hit)`` in the mover's
numbering: from 1..25 (25 the bar), to 0..24 (0 borne off).

Buffers are never allocated per call: :class:`Workspace` holds them as a tuple of arrays
that every kernel takes as its first argument.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The kernels allocate nothing (every buffer comes from Workspace), so they are compiled
# without numba's reference counting: with it every array a kernel is handed costs an atomic
# increment and decrement per call, which was 40% of a check and 12% of an enumeration.
JIT = {"cache": True, "_nrt": False}

# --- board layout --------------------------------------------------------------------
BAR = 24  # index of the mover's bar; the bar is point 25, so entering lands on 25 - die too
OPP = 25  # offset of the opponent's entries
OPP_BAR = 49
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

# The rules the check relaxes in turn to name why no play reaches a position, and the reason
# each names.
RELAXATIONS = np.array([(RELAX_BAR, BAR_FIRST), (RELAX_HOME, BEAR_OFF_EARLY),
                        (RELAX_BLOCK, BLOCKED_POINT), (RELAX_HEAD, HEAD_RULE)], np.int64)

# --- sizes -------------------------------------------------------------------------------
# Distinct results of one roll: GNU Backgammon's bound. A result is fixed by the multiset of
# source points of its steps, and 15 checkers sit on at most 15 sources: C(15+3, 4) = 3060.
MAX_PLAYS = 3060
TABLE_SIZE = 8192  # open-addressing table of results, a power of two above 2 * MAX_PLAYS
NO_STEP = -2
STEP_OFF = -1

# --- search modes ------------------------------------------------------------------------
MODE_ENUMERATE = 0  # record every distinct result of the best plays
MODE_BEST = 1  # only find the most steps/pips any legal play uses (RULES 3.5)
MODE_TARGET = 2  # find the best way to reach one given result

# --- workspace tuple ---------------------------------------------------------------------
W_RES_HASH, W_RES_STEPS, W_RES_N, W_RES_SLOT, W_TABLE = 0, 1, 2, 3, 4
W_BOARDS, W_HASHES, W_INTS, W_PATH, W_OUT, W_SURPLUS = 5, 6, 7, 8, 9, 10
# rows of W_BOARDS
B_SEARCH, B_TRIAL = 0, 1
# columns of W_INTS, one row per depth
I_HEAD, I_PIPS, I_OUTSIDE, I_OCCUPIED, I_SOURCES = 0, 1, 2, 3, 4
# entries of W_OUT
O_COUNT, O_BEST_N, O_BEST_PIPS, O_MATCH_N, O_MATCH_PIPS = 0, 1, 2, 3, 4

# Zobrist keys: a board's hash is the xor of ZOBRIST[i, count_i], updated per step.
ZOBRIST = np.random.default_rng(20261130).integers(0, 2**63, size=(BOARD_SIZE, 16), dtype=np.uint64)

# Sets of the mover's sources (indices 0..24) are bit masks, source ``src`` on bit BAR - src,
# so that the lowest bit is the highest source: the search takes sources from the bar down
# by taking lowest bits. ``(1 << k) % 37`` differs for every k < 36, so a table of 37 turns
# a lowest bit into its k.
SOURCE_OF_BIT = np.full(37, -1, np.int64)
for _k in range(BAR + 1):
    SOURCE_OF_BIT[(1 << _k) % 37] = BAR - _k


class Workspace:
    """The kernels' buffers, allocated once per thread and reused by every call."""

    def __init__(self):
        self.arrays = (
            np.zeros(MAX_PLAYS, np.uint64),  # W_RES_HASH: hash of each result
            np.zeros((MAX_PLAYS, 4, 3), np.int8),  # W_RES_STEPS: the steps of each result
            np.zeros(MAX_PLAYS, np.int64),  # W_RES_N: their number
            np.zeros(MAX_PLAYS, np.int64),  # W_RES_SLOT: the table slot of each result
            np.full(TABLE_SIZE, -1, np.int16),  # W_TABLE: result of each slot, -1 when free
            np.zeros((2, BOARD_SIZE), np.int8),  # W_BOARDS: the search's board, a check's trial
            np.zeros(5, np.uint64),  # W_HASHES: hash at each depth
            np.zeros((5, 5), np.int64),  # W_INTS
            np.zeros((4, 3), np.int8),  # W_PATH: the step taken at each depth
            np.zeros(8, np.int64),  # W_OUT
            np.zeros(25, np.int8),  # W_SURPLUS: checkers at or above a point, less the target's
        )


@njit(**JIT)
def opp_index(j, mirrored):
    """Mover's index of the opponent's index ``j`` (both 0..23), and the other way round: the
    map is its own inverse in both variants (25 - p, and p + 12 mod 24)."""
    if mirrored:
        return 23 - j
    return (j + 12) % 24


@njit(inline="always", **JIT)
def source_bit(src):
    return np.int64(1) << (BAR - src)


@njit(inline="always", **JIT)
def highest_source(mask):
    """The highest source in a non-empty mask (see SOURCE_OF_BIT)."""
    return SOURCE_OF_BIT[(mask & -mask) % 37]


@njit(**JIT)
def board_hash(board):
    h = np.uint64(0)
    for i in range(BOARD_SIZE):
        h ^= ZOBRIST[i, board[i]]
    return h


@njit(**JIT)
def same_board(a, b):
    for k in range(BOARD_SIZE):
        if a[k] != b[k]:
            return False
    return True


@njit(**JIT)
def outside_home(board):
    """The mover's checkers outside its home board, the bar included (RULES 3.6)."""
    n = 0
    for i in range(6, 25):
        n += board[i]
    return n


@njit(**JIT)
def step_destination(board, src, die, block_min, mirrored, relax, outside):
    """Where one step of ``die`` from index ``src`` lands (RULES 3.1-3.6).

    Returns an index 0..23, STEP_OFF for bearing off, or NO_STEP. ``outside`` is the
    mover's count outside its home board. The head rule is the caller's, as it counts the
    turn.
    """
    if src != BAR and board[BAR] > 0 and (relax & RELAX_BAR) == 0:
        return NO_STEP  # RULES 3.4: enter every checker first
    dest = src - die
    if dest >= 0:
        if board[OPP + opp_index(dest, mirrored)] >= block_min and (relax & RELAX_BLOCK) == 0:
            return NO_STEP
        return dest
    # RULES 3.6: bearing off, tested before every step.
    if outside > 0 and (relax & RELAX_HOME) == 0:
        return NO_STEP
    if dest < -1:  # a larger die bears off only from the highest occupied point
        for i in range(src + 1, 25):
            if board[i] > 0:
                return NO_STEP
    return STEP_OFF


@njit(**JIT)
def apply_step(board, src, dest, hits, mirrored):
    """Move one checker from ``src`` to ``dest`` (STEP_OFF: off the board); returns 1 when it
    hits a blot, which goes to the opponent's bar (RULES 3.3)."""
    board[src] -= 1
    if dest < 0:
        return 0
    board[dest] += 1
    there = OPP + opp_index(dest, mirrored)
    if hits and board[there] == 1:
        board[there] = 0
        board[OPP_BAR] += 1
        return 1
    return 0


@njit(**JIT)
def undo_step(board, src, dest, hit, mirrored):
    """The inverse of :func:`apply_step`."""
    board[src] += 1
    if dest >= 0:
        board[dest] -= 1
        if hit:
            board[OPP + opp_index(dest, mirrored)] = 1
            board[OPP_BAR] -= 1


@njit(**JIT)
def head_limit(board, d1, d2):
    """Checkers that may leave the head (point 24) this turn, RULES 3.7: one, or two on the
    first turn (all 15 on the head) with 6-6, 4-4 or 3-3."""
    if board[23] == 15 and d1 == d2 and (d1 == 6 or d1 == 4 or d1 == 3):
        return 2
    return 1


@njit(**JIT)
def forbidden_block(board, mirrored):
    """True when the mover holds a six-block no opposing checker is ahead of (RULES 3.8).

    The block is measured along the opponent's route, its points q..q+5 for q = 1..19, so
    the points are taken in the opponent's numbering, as bits, and runs do not wrap from
    its 24 to its 1. A block starting at q is forbidden when the opponent has no checker
    below q (and none borne off).
    """
    on_board = board[OPP_BAR]
    lowest = 24  # the opponent's lowest occupied point, as an index
    held = np.int64(0)  # bit q: the mover holds the opponent's point q + 1
    for q in range(23, -1, -1):
        on_board += board[OPP + q]
        lowest = q if board[OPP + q] > 0 else lowest
        held |= np.int64(board[opp_index(q, mirrored)] > 0) << q
    if on_board < 15:
        return False  # an opposing checker is borne off: it is ahead of every block
    # bit q of starts: the mover holds q..q+5
    starts = held & (held >> 1) & (held >> 2) & (held >> 3) & (held >> 4) & (held >> 5)
    return (starts & ((np.int64(2) << lowest) - 1)) != 0


@njit(**JIT)
def search(ws, root, d1, d2, rules, relax, mode, target, best_n, best_pips, res):
    """Depth-first search over every sequence of steps of one roll (RULES 3.1-3.9).

    The steps are made and unmade on one board. A double's steps take their sources in
    non-increasing order, which reaches every multiset of steps once. Candidates are visited
    after their children, so a play counts for the maximum-use rule only if it ends legally
    (RULES 3.8: a play ending in a forbidden block does not count). Results go to
    ``ws[W_OUT]``:

    * MODE_ENUMERATE: the distinct results of the plays using the most steps, then the most
      pips (so the larger die when only one can be played): their boards to ``res``, their
      steps to ``ws[W_RES_STEPS]``;
    * MODE_BEST: only the best (steps, pips); stops once the whole roll is used;
    * MODE_TARGET: the best (steps, pips) of a play reaching ``target``, pruning branches
      that can no longer reach it; stops at a match with ``best_n``/``best_pips``. The
      match's steps are left in ``ws[W_RES_STEPS][0]``.
    """
    res_hash = ws[W_RES_HASH]
    res_steps = ws[W_RES_STEPS]
    res_n = ws[W_RES_N]
    res_slot = ws[W_RES_SLOT]
    table = ws[W_TABLE]
    board = ws[W_BOARDS][B_SEARCH]
    hashes = ws[W_HASHES]
    ints = ws[W_INTS]
    path = ws[W_PATH]
    out = ws[W_OUT]
    surplus = ws[W_SURPLUS]

    double = d1 == d2
    ndice = 4 if double else 2
    full_pips = 4 * d1 if double else d1 + d2
    block_min = rules[R_BLOCK_MIN]
    hits = rules[R_HITS] == 1
    mirrored = rules[R_MIRRORED]
    six_block = rules[R_SIX_BLOCK] == 1
    head_max = 99
    if rules[R_HEAD_RULE] == 1 and (relax & RELAX_HEAD) == 0:
        head_max = head_limit(root, d1, d2)

    t_hash = np.uint64(0)
    if mode == MODE_TARGET:
        # Checkers only move down, so the mover's count at or above a point can only fall:
        # a step from src to dest needs a surplus over the target on every point it leaves.
        t_hash = board_hash(target)
        acc = 0
        for i in range(24, -1, -1):
            acc += root[i] - target[i]
            surplus[i] = acc

    root_hash = board_hash(root)
    root_outside = outside_home(root)
    root_occupied = np.int64(0)
    for src in range(25):
        if root[src] > 0:
            root_occupied |= source_bit(src)
    count = 0
    cur_n = best_n
    cur_pips = best_pips
    match_n = -1
    match_pips = -1
    done = False
    for order in range(1 if double else 2):
        if done:
            break
        first = d1 if order == 0 else d2
        second = d2 if order == 0 else d1
        first_ok = np.int64(0)
        if order == 1:
            # Which checkers d1 can move at the root: in this second order (d2 first), two
            # steps of different checkers whose d1 step was already open at the root give
            # a result the first order reached (moving another checker cannot close a
            # point, and only a step from above can open a bear-off or the bar).
            sources = root_occupied
            while sources != 0:
                src = highest_source(sources)
                sources &= sources - 1
                if step_destination(root, src, d1, block_min, mirrored, relax, root_outside) != NO_STEP:
                    first_ok |= source_bit(src)
        for i in range(BOARD_SIZE):
            board[i] = root[i]
        hashes[0] = root_hash
        ints[0, I_HEAD] = 0
        ints[0, I_PIPS] = 0
        ints[0, I_OUTSIDE] = root_outside
        ints[0, I_OCCUPIED] = root_occupied
        ints[0, I_SOURCES] = root_occupied
        d = 0
        while d >= 0:
            sources = ints[d, I_SOURCES]
            if d < ndice and sources != 0:
                src = highest_source(sources)
                ints[d, I_SOURCES] = sources & (sources - 1)
                if src == 23 and ints[d, I_HEAD] >= head_max:
                    continue
                die = first if (d == 0 or double) else second
                if mode == MODE_TARGET:
                    # Only a point holding more checkers than the target leaves: a checker
                    # passing through a point is the one that arrived there (the steps, in
                    # that order, are no less legal), so this reaches every result.
                    if board[src] <= target[src]:
                        continue
                    low = max(src - die + 1, 0)
                    blocked = False
                    for i in range(low, src + 1):
                        if surplus[i] < 1:
                            blocked = True  # cannot reach the target through this step
                            break
                    if blocked:
                        continue
                dest = step_destination(board, src, die, block_min, mirrored, relax, ints[d, I_OUTSIDE])
                if dest == NO_STEP:
                    continue
                c_src = board[src]
                c_dest = board[dest] if dest >= 0 else 0
                hit = apply_step(board, src, dest, hits, mirrored)
                if mode == MODE_TARGET and (board[OPP_BAR] > target[OPP_BAR] or (
                        hit == 1 and target[OPP + opp_index(dest, mirrored)] > 0)):
                    undo_step(board, src, dest, hit, mirrored)
                    continue
                e = d + 1
                h = hashes[d] ^ ZOBRIST[src, c_src] ^ ZOBRIST[src, c_src - 1]
                occupied = ints[d, I_OCCUPIED]
                if c_src == 1:
                    occupied ^= source_bit(src)
                outside = ints[d, I_OUTSIDE] - (1 if src >= 6 else 0)
                if dest >= 0:
                    h ^= ZOBRIST[dest, c_dest] ^ ZOBRIST[dest, c_dest + 1]
                    occupied |= source_bit(dest)
                    if dest >= 6:
                        outside += 1
                    if hit == 1:
                        there = OPP + opp_index(dest, mirrored)
                        bar = board[OPP_BAR]
                        h ^= ZOBRIST[there, 1] ^ ZOBRIST[there, 0]
                        h ^= ZOBRIST[OPP_BAR, bar - 1] ^ ZOBRIST[OPP_BAR, bar]
                if mode == MODE_TARGET:
                    for i in range(max(dest, -1) + 1, src + 1):
                        surplus[i] -= 1
                hashes[e] = h
                ints[e, I_HEAD] = ints[d, I_HEAD] + (1 if src == 23 else 0)
                ints[e, I_PIPS] = ints[d, I_PIPS] + die
                ints[e, I_OUTSIDE] = outside
                ints[e, I_OCCUPIED] = occupied
                if double:
                    occupied &= -source_bit(src)  # sources no higher than this one
                elif order == 1 and e == 1:
                    # the first order made this result (see first_ok), unless the same
                    # checker moves on
                    occupied &= ~first_ok | (source_bit(dest) if dest >= 0 else 0)
                ints[e, I_SOURCES] = occupied
                path[d, 0] = src + 1
                path[d, 1] = dest + 1 if dest >= 0 else 0
                path[d, 2] = hit
                d = e
                continue

            # post-order visit: the play of the first d steps, as a candidate
            n = d
            pips = ints[d, I_PIPS]
            if mode == MODE_TARGET or n > cur_n or (n == cur_n and pips >= cur_pips):
                if not (six_block and n > 0 and forbidden_block(board, mirrored)):
                    h = hashes[d]
                    if mode == MODE_TARGET:
                        if h == t_hash and same_board(board, target) and (
                                n > match_n or (n == match_n and pips > match_pips)):
                            match_n = n
                            match_pips = pips
                            for k in range(4):
                                for col in range(3):
                                    res_steps[0, k, col] = path[k, col] if k < n else 0
                            res_n[0] = n
                            done = n == best_n and pips == best_pips
                    elif mode == MODE_BEST:
                        cur_n = n
                        cur_pips = pips
                        done = n == ndice and pips == full_pips
                    else:
                        if n > cur_n or pips > cur_pips:
                            # a better play exists: forget the results recorded so far
                            for r in range(count):
                                table[res_slot[r]] = -1
                            count = 0
                            cur_n = n
                            cur_pips = pips
                        slot = np.int64(h & np.uint64(TABLE_SIZE - 1))
                        found = False
                        while table[slot] >= 0:
                            r = table[slot]
                            if res_hash[r] == h and same_board(board, res[r]):
                                found = True
                                break
                            slot = (slot + 1) & (TABLE_SIZE - 1)
                        if not found:
                            table[slot] = count
                            res_slot[count] = slot
                            res_hash[count] = h
                            for i in range(BOARD_SIZE):
                                res[count, i] = board[i]
                            for k in range(4):
                                for col in range(3):
                                    res_steps[count, k, col] = path[k, col] if k < n else 0
                            res_n[count] = n
                            count += 1
                    if done:
                        break
            d -= 1
            if d >= 0:  # take back the step that led here
                src = path[d, 0] - 1
                dest = path[d, 1] - 1
                undo_step(board, src, dest, path[d, 2], mirrored)
                if mode == MODE_TARGET:
                    for i in range(max(dest, -1) + 1, src + 1):
                        surplus[i] += 1
    if mode == MODE_ENUMERATE:
        for r in range(count):  # leave the table empty for the next call
            table[res_slot[r]] = -1
    out[O_COUNT] = count
    out[O_BEST_N] = cur_n
    out[O_BEST_PIPS] = cur_pips
    out[O_MATCH_N] = match_n
    out[O_MATCH_PIPS] = match_pips


@njit(**JIT)
def enumerate_plays(ws, board, d1, d2, rules, boards_out):
    """Every distinct result of the legal plays of ``d1-d2`` (RULES 3.9); returns the count.

    Results go to ``boards_out[k]`` (boards, the same side to move), their steps to
    ``ws[W_RES_STEPS][k]`` and ``ws[W_RES_N][k]``. When nothing can be played the one
    result is the unchanged board with no steps.
    """
    search(ws, board, d1, d2, rules, 0, MODE_ENUMERATE, board, 0, 0, boards_out)
    return ws[W_OUT][O_COUNT]


@njit(**JIT)
def enumerate_batch(ws, boards, dice, rules, scratch, counts):
    """The number of distinct results for many (board, roll) pairs, into ``counts``."""
    total = 0
    for k in range(boards.shape[0]):
        counts[k] = enumerate_plays(ws, boards[k], dice[k, 0], dice[k, 1], rules, scratch)
        total += counts[k]
    return total


@njit(**JIT)
def _try_steps(ws, root, target, rules, relax, n, src_a, die_a, dest_a, src_b, die_b, dest_b):
    """Whether the step ``src_a -> dest_a`` of ``die_a``, then (when ``n`` is 2) the step
    ``src_b -> dest_b`` of ``die_b``, are legal from ``root`` and lead to ``target``. If so
    their steps go to ``ws[W_RES_STEPS][0]``."""
    block_min = rules[R_BLOCK_MIN]
    mirrored = rules[R_MIRRORED]
    outside = outside_home(root)
    if step_destination(root, src_a, die_a, block_min, mirrored, relax, outside) != dest_a:
        return False
    board = ws[W_BOARDS][B_TRIAL]
    for i in range(BOARD_SIZE):
        board[i] = root[i]
    hit_a = apply_step(board, src_a, dest_a, rules[R_HITS] == 1, mirrored)
    hit_b = 0
    if n == 2:
        outside += (1 if dest_a >= 6 else 0) - (1 if src_a >= 6 else 0)
        if step_destination(board, src_b, die_b, block_min, mirrored, relax, outside) != dest_b:
            return False
        hit_b = apply_step(board, src_b, dest_b, rules[R_HITS] == 1, mirrored)
    if not same_board(board, target):
        return False
    steps = ws[W_RES_STEPS]
    steps[0, 0, 0] = src_a + 1
    steps[0, 0, 1] = dest_a + 1
    steps[0, 0, 2] = hit_a
    steps[0, 1, 0] = src_b + 1 if n == 2 else 0
    steps[0, 1, 1] = dest_b + 1 if n == 2 else 0
    steps[0, 1, 2] = hit_b
    ws[W_RES_N][0] = n
    return True


@njit(**JIT)
def _direct_play(ws, root, d1, d2, target, rules, relax):
    """The best play of a non-double from ``root`` to ``target``, read off their difference
    instead of searched for (RULES 3.1-3.6): its (steps, pips) to ``ws[W_OUT][O_MATCH_*]``
    (steps -1 when there is none) and its steps to ``ws[W_RES_STEPS][0]``.

    Needs what :func:`check_play` reads off the boards first: checkers only moved forward,
    none appeared, the opponent's changed only by hits. Two steps then moved one checker
    (one point left, one reached) or two (two left, two reached), and the few ways to
    assign the dice to those moves are tried with :func:`step_destination`. A move of one
    checker from s to t by both dice may also be two checkers, one arriving where the other
    left; that gives the same position, and no step of it is legal that is not legal when
    the arriving checker moves on, so the one-checker way is the one tried. No step of a
    non-double passes the head, so the head rule was all read off the boards (RULES 3.7).
    """
    out = ws[W_OUT]
    out[O_MATCH_N] = -1
    out[O_MATCH_PIPS] = -1
    # points left (s0 >= s1) and reached (t0 >= t1, STEP_OFF when borne off), by index
    # (np.int64: numba compiles a callee once per constant it is handed, see RELAXATIONS)
    s0 = s1 = t0 = t1 = np.int64(NO_STEP)
    n_src = 0
    n_dst = 0
    for i in range(24, -1, -1):
        diff = target[i] - root[i]
        while diff < 0:
            if n_src == 2:
                return  # more checkers moved than two steps can move
            if n_src == 0:
                s0 = i
            else:
                s1 = i
            n_src += 1
            diff += 1
        while diff > 0:
            if n_dst == 2:
                return
            if n_dst == 0:
                t0 = i
            else:
                t1 = i
            n_dst += 1
            diff -= 1
    while n_dst < n_src:  # the checkers that left and arrived nowhere were borne off
        if n_dst == 0:
            t0 = STEP_OFF
        else:
            t1 = STEP_OFF
        n_dst += 1

    if n_src == 0:
        # nothing moved, so nothing was hit either
        if target[OPP_BAR] == root[OPP_BAR]:
            ws[W_RES_N][0] = 0
            out[O_MATCH_N] = 0
            out[O_MATCH_PIPS] = 0
        return
    if n_src == 1:
        # one checker by both dice, in either order; else by one die, the larger first
        for a, b in ((d1, d2), (d2, d1)):
            m = s0 - a
            if m >= 0 and _try_steps(ws, root, target, rules, relax, 2, s0, a, m, m, b, t0):
                out[O_MATCH_N] = 2
                out[O_MATCH_PIPS] = d1 + d2
                return
        for die in (max(d1, d2), min(d1, d2)):
            if _try_steps(ws, root, target, rules, relax, 1, s0, die, t0, s0, die, t0):
                out[O_MATCH_N] = 1
                out[O_MATCH_PIPS] = die
                return
        return
    # two checkers, one die each: each die first (d1 first, and the higher checker first,
    # as the search takes them), on either checker, to either point reached
    for a, b in ((d1, d2), (d2, d1)):
        if (_try_steps(ws, root, target, rules, relax, 2, s0, a, t0, s1, b, t1)
                or _try_steps(ws, root, target, rules, relax, 2, s0, a, t1, s1, b, t0)
                or _try_steps(ws, root, target, rules, relax, 2, s1, a, t1, s0, b, t0)
                or _try_steps(ws, root, target, rules, relax, 2, s1, a, t0, s0, b, t1)):
            out[O_MATCH_N] = 2
            out[O_MATCH_PIPS] = d1 + d2
            return


@njit(**JIT)
def _reaches(ws, root, d1, d2, rules, relax, target, best_n, best_pips):
    """Whether a play of ``d1-d2`` leads from ``root`` to ``target`` under the rules less
    ``relax``; the best such play in ``ws[W_OUT][O_MATCH_*]`` and ``ws[W_RES_STEPS][0]``.
    A double's four steps are searched for, a non-double's two read off the boards."""
    if d1 == d2:
        search(ws, root, d1, d2, rules, relax, MODE_TARGET, target, best_n, best_pips, ws[W_BOARDS])
    else:
        _direct_play(ws, root, d1, d2, target, rules, relax)
    return ws[W_OUT][O_MATCH_N] >= 0


@njit(**JIT)
def check_play(ws, before, d1, d2, after, rules):
    """Is ``before`` -> ``after`` a legal play of ``d1-d2``? Returns a reason code.

    LEGAL leaves the play's steps in ``ws[W_RES_STEPS][0]`` / ``ws[W_RES_N][0]``. The
    direct faults (counts, shared points, the opponent's checkers, direction, the head, the
    six-block) are read off the two boards; only then is the play looked for (see
    :func:`_reaches`). The reason of a play that none reaches is found by relaxing one rule
    at a time.
    """
    mirrored = rules[R_MIRRORED]

    # Each fault is counted over the whole board rather than returned at the first point
    # that shows it: loops without early exits have no branches to mispredict.
    mover_before = 0
    mover_after = 0
    opp_after = 0
    out_of_range = 0
    for i in range(BOARD_SIZE):
        out_of_range += (after[i] < 0) | (after[i] > 15)
        if i < OPP:
            mover_before += before[i]
            mover_after += after[i]
        else:
            opp_after += after[i]
    if out_of_range > 0 or mover_after > mover_before or opp_after > 15:
        return CHECKER_COUNT
    shared = 0
    for i in range(24):
        shared += (after[i] > 0) & (after[OPP + opp_index(i, mirrored)] > 0)
    if shared > 0:
        return SHARED_POINT
    # RULES 3.3: the opponent's checkers move only by being hit.
    hit = 0
    moved_wrongly = 0
    blot = 1 if rules[R_HITS] == 1 else -1  # the count a hit checker stood in
    for i in range(24):
        left = after[OPP + i] < before[OPP + i]
        moved_wrongly += (after[OPP + i] > before[OPP + i]) | (left & (before[OPP + i] != blot))
        hit += left
    if moved_wrongly > 0 or after[OPP_BAR] - before[OPP_BAR] != hit:
        return OPPONENT_MOVED
    above = 0
    t_above = 0
    backwards = 0
    for i in range(24, -1, -1):
        above += before[i]
        t_above += after[i]
        backwards += above < t_above
    if backwards > 0:
        return MOVED_BACKWARDS
    if rules[R_HEAD_RULE] == 1:
        # RULES 3.7, read directly: more checkers off the head than the roll allows.
        if before[23] - after[23] > head_limit(before, d1, d2):
            return HEAD_RULE
    if rules[R_SIX_BLOCK] == 1 and forbidden_block(after, mirrored):
        return SIX_BLOCK

    # Pips travelled: without bearing off they are an exact sum of dice, whatever rule was
    # broken, so any other figure is no play of this roll at all.
    moved = 0
    for i in range(25):
        moved += (i + 1) * (before[i] - after[i])
    if mover_after == mover_before:
        if d1 == d2:
            if moved % d1 != 0 or moved > 4 * d1:
                return NO_SUCH_PLAY
        elif moved != 0 and moved != d1 and moved != d2 and moved != d1 + d2:
            return NO_SUCH_PLAY

    out = ws[W_OUT]
    ndice = 4 if d1 == d2 else 2
    full_pips = 4 * d1 if d1 == d2 else d1 + d2
    if _reaches(ws, before, d1, d2, rules, 0, after, ndice, full_pips):
        match_n = out[O_MATCH_N]
        match_pips = out[O_MATCH_PIPS]
        if match_n == ndice and match_pips == full_pips:
            return LEGAL  # the whole roll is used: nothing can use more (RULES 3.5)
        search(ws, before, d1, d2, rules, 0, MODE_BEST, before, 0, 0, ws[W_BOARDS])
        if match_n == out[O_BEST_N] and match_pips == out[O_BEST_PIPS]:
            return LEGAL
        if match_n < out[O_BEST_N]:
            return TOO_FEW_DICE
        return LARGER_DIE_REQUIRED
    # Not reachable under the rules: name the one rule whose relaxation reaches it. The
    # relaxations come from an array, not as constants, for which numba would compile a
    # search each.
    for k in range(RELAXATIONS.shape[0]):
        relax = RELAXATIONS[k, 0]
        if relax == RELAX_BAR and before[BAR] == 0:
            continue
        if relax == RELAX_HOME and mover_after == mover_before:
            continue  # nothing was borne off
        if relax == RELAX_HEAD and rules[R_HEAD_RULE] == 0:
            continue
        if _reaches(ws, before, d1, d2, rules, relax, after, -1, -1):
            return RELAXATIONS[k, 1]
    return NO_SUCH_PLAY


@njit(**JIT)
def check_batch(ws, befores, dice, afters, rules, codes):
    """Reason codes for many (before, roll, after) triples, into ``codes``."""
    for k in range(befores.shape[0]):
        codes[k] = check_play(ws, befores[k], dice[k, 0], dice[k, 1], afters[k], rules)
