"""The backgammon engine against GNU Backgammon (``gnubg_nn``), RULES 3.1-3.6 and 3.9.

Default: 1,500 self-play positions with every roll; ``pytest --full``: 100,000.
"""

from __future__ import annotations

import random

import gnubg_nn
import numpy as np
import pytest

from engine import Position
from engine.selfplay import ROLLS, random_positions


def gnubg_results(pos: Position, d1: int, d2: int) -> set[Position]:
    """GNU Backgammon's distinct results; its boards are [side not on roll, side on roll]."""
    b = pos.board
    keys = gnubg_nn.moves([b[25:50].tolist(), b[0:25].tolist()], d1, d2)
    if not keys:
        return {pos}
    out = set()
    for key in keys:
        opponent, mover = gnubg_nn.board_from_position_key(key)
        out.add(Position.from_board(list(mover) + list(opponent)))
    return out


def our_results(pos: Position, d1: int, d2: int) -> set[Position]:
    plays = pos.plays(d1, d2)
    results = {p.position for p in plays}
    assert len(results) == len(plays), "one entry per distinct position"
    return results


@pytest.fixture(scope="module")
def positions(full):
    return random_positions("backgammon", 100_000 if full else 1_500, seed=7)


def test_every_roll_agrees_with_gnubg(positions):
    disagreements = []
    for pos in positions:
        for d1, d2 in ROLLS:
            if our_results(pos, d1, d2) != gnubg_results(pos, d1, d2):
                disagreements.append((pos.position_id(), d1, d2))
    assert disagreements == []


def _side(**points) -> list[int]:
    """24 counts from keyword points: ``_side(p6=5, p13=2)``."""
    counts = [0] * 24
    for name, n in points.items():
        counts[int(name[1:]) - 1] = n
    return counts


CRAFTED = {
    # two on the bar against a 5-point board (its points 1-5): only the 6 enters
    "enter_vs_5_point_board": Position(_side(p6=13), _side(p1=2, p2=2, p3=2, p4=2, p5=2, p13=5),
                                       mover_bar=2),
    # one on the bar against a closed board: nothing at all can be played
    "enter_vs_closed_board": Position(_side(p6=14), _side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3),
                                      mover_bar=1),
    # bear-off with gaps on 5, 3 and 2: larger dice bear off from the highest point
    "bear_off_with_gaps": Position(_side(p6=3, p4=2, p1=1), _side(p13=15)),
    # a bear-off race where one side has a single checker left
    "last_checker": Position(_side(p2=1), _side(p12=1, p13=14)),
    # the position with the most plays GNU Backgammon knows of (2,137 with 1-1)
    "high_branching": Position.parse("gAAC/T+okpRUKQ"),
    # 24/18 and 19/13 blocked: of 6-5 only the 5 can be played (RULES 3.5)
    "one_die_only": Position(_side(p24=1, p1=14), _side(p7=2, p12=2, p2=11)),
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_positions_agree_with_gnubg(name):
    pos = CRAFTED[name]
    for d1, d2 in ROLLS:
        assert our_results(pos, d1, d2) == gnubg_results(pos, d1, d2), (name, d1, d2)


def test_play_boards_are_the_plays_results_in_order(positions):
    """The batch form the tracker scores (``play_boards``) holds exactly the results of
    ``plays``, row for row, the crafted extremes included (a closed board: the board as it was;
    the 2,137 results of the largest roll)."""
    rng = random.Random(11)
    for pos in positions[::10] + list(CRAFTED.values()):
        d1, d2 = rng.choice(ROLLS)
        for roll in ((d1, d2), (1, 1)):
            boards = pos.play_boards(*roll)
            assert boards.dtype == np.int8 and boards.shape[1] == 50
            assert [Position.from_board(b) for b in boards] == [p.position for p in pos.plays(*roll)]


def test_the_largest_roll_fits_the_buffers():
    assert len(CRAFTED["high_branching"].plays(1, 1)) == 2137


def test_one_die_only_must_be_the_larger():
    # RULES 3.5: only 24/19 can be played of 6-5; a 6 alone is impossible here
    assert [p.notation for p in CRAFTED["one_die_only"].plays(6, 5)] == ["24/19"]


def test_closed_board_leaves_the_position_unchanged():
    pos = CRAFTED["enter_vs_closed_board"]
    plays = pos.plays(6, 6)
    assert [(p.notation, p.position) for p in plays] == [("", pos)]


def mutated(pos: Position, rng: random.Random) -> list[Position]:
    """Wrong results a camera could report: a checker moved one point further or back."""
    out = []
    for play in rng.sample(pos.plays(*rng.choice(ROLLS)), k=1):
        board = np.array(play.position.board, dtype=np.int16)
        src = rng.choice([i for i in range(25) if board[i] > 0] or [0])
        if board[src] > 0:
            board[src] -= 1
            board[rng.randrange(24)] += 1
            out.append(Position.from_board(board))
    return out


def test_check_agrees_with_membership(positions):
    rng = random.Random(3)
    wrong = []
    for pos in positions[: len(positions) // 3]:
        d1, d2 = rng.choice(ROLLS)
        legal = gnubg_results(pos, d1, d2)
        candidates = list(legal) + mutated(pos, rng)
        candidates += [p.position for p in pos.plays(*rng.choice(ROLLS))[:3]]
        for after in candidates:
            verdict = pos.check(d1, d2, after)
            if verdict.legal != (after in legal):
                wrong.append((pos.position_id(), d1, d2, after.position_id(), verdict))
            if verdict.legal:
                # the play it names leads to the position after
                assert pos.apply(verdict.play) == after
            else:
                assert verdict.reason and verdict.detail
    assert wrong == []
