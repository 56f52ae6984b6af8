"""vision.position_prior: the half-turn of a board (RULES 1) and the prior that tells a board in
play from it."""

import numpy as np
import pytest

from engine.position import Position
from engine.selfplay import random_positions
from vision.layout import point_slot
from vision.position_prior import DECIDES, MODEL, PositionPrior, half_turned, load, load_default, save

needs_model = pytest.mark.skipif(not MODEL.exists(), reason="models/position_prior.npz not trained")

# Both sides with all fifteen in their home boards (points 1..6), bearing off.
BEARING_OFF = Position([3, 3, 3, 2, 2, 2] + [0] * 18, [2, 2, 2, 3, 3, 3] + [0] * 18).board


def test_half_turned_twice_is_the_board():
    boards = np.array([p.board for p in random_positions("backgammon", 40, seed=3)])
    assert np.array_equal(half_turned(half_turned(boards)), boards)
    assert np.array_equal(half_turned(half_turned(boards[7])), boards[7])


def test_half_turned_moves_each_side_by_twelve_of_its_points():
    board = np.zeros(50, np.int8)
    board[5] = 2  # the mover's point 6
    board[25 + 20] = 1  # the opponent's point 21
    board[24], board[49] = 1, 3  # bars
    turned = half_turned(board)
    assert turned[17] == 2 and turned[25 + 8] == 1  # the mover's 18, the opponent's 9
    assert (turned[24], turned[49]) == (1, 3)
    assert turned.sum() == board.sum() and turned.dtype == board.dtype


@pytest.mark.parametrize("variant", ["backgammon", "long"])
@pytest.mark.parametrize("colour", ["light", "dark"])
def test_half_turned_is_the_diagonally_opposite_point(variant, colour):
    # RULES 1: turning the corner order half round puts a point's stack on the opposite slot
    opposite = {"top": "bottom", "bottom": "top"}
    for p in range(1, 25):
        row, slot = point_slot(colour, p, variant)
        assert point_slot(colour, (p + 11) % 24 + 1, variant) == (opposite[row], 11 - slot)


def test_learn_counts_with_add_one():
    # two boards, four sides: the movers on their point 24, the opponents on their point 1
    boards = np.zeros((2, 50), int)
    boards[:, 23] = 15
    boards[:, 25] = 15
    boards[1, 23], boards[1, 24] = 14, 1  # the second mover has one on the bar
    prior = PositionPrior.learn(boards, "backgammon")
    assert prior.variant == "backgammon"
    assert prior.points.shape == (24, 16) and prior.bar.shape == (16,) and prior.off.shape == (16,)
    assert np.allclose(np.exp(prior.points).sum(axis=1), 1)
    share = {(24, 15): 2, (24, 14): 2, (24, 0): 3, (1, 15): 3, (1, 0): 3, (12, 0): 5, (12, 1): 1}
    for (point, count), times in share.items():  # times seen + 1, over 4 sides + 16 counts
        assert prior.points[point - 1, count] == pytest.approx(np.log(times / 20))
    assert prior.bar[[0, 1, 2]] == pytest.approx(np.log([4 / 20, 2 / 20, 1 / 20]))
    assert prior.off[[0, 1]] == pytest.approx(np.log([5 / 20, 1 / 20]))
    # the first board: every point of both sides, both bars, both borne-off counts
    empty = prior.points[:, 0]
    expected = (empty.sum() - empty[23] + prior.points[23, 15]) + (empty.sum() - empty[0] + prior.points[0, 15]) \
        + 2 * prior.bar[0] + 2 * prior.off[0]
    assert prior.log_likelihood(boards[0]) == pytest.approx(expected)
    assert prior.log_likelihood(boards).shape == (2,)
    assert prior.log_likelihood(boards)[0] == pytest.approx(expected)
    turned = half_turned(boards)
    assert prior.turn_evidence(boards) == pytest.approx(prior.log_likelihood(boards) - prior.log_likelihood(turned))


def test_evidence_of_a_board_that_is_its_own_half_turn_is_zero():
    boards = np.array([p.board for p in random_positions("long", 200, seed=4)])
    prior = PositionPrior.learn(boards, "long")
    symmetric = np.zeros(50, int)
    symmetric[[2, 14]] = 7  # the mover's 3 and 15
    symmetric[[25 + 4, 25 + 16]] = 2  # the opponent's 5 and 17
    assert prior.turn_evidence(symmetric) == 0
    assert np.allclose(prior.turn_evidence(half_turned(boards)), -prior.turn_evidence(boards))


def test_save_and_load_keep_both_variants(tmp_path):
    priors = {name: PositionPrior.learn(np.array([p.board for p in random_positions(name, 30, seed=5)]), name)
              for name in ("backgammon", "long")}
    save(priors, tmp_path / "prior.npz")
    loaded = load(tmp_path / "prior.npz")
    assert sorted(loaded) == ["backgammon", "long"]
    for name, prior in priors.items():
        assert loaded[name].variant == name
        for table in ("points", "bar", "off"):
            assert np.array_equal(getattr(loaded[name], table), getattr(prior, table))


@needs_model
@pytest.mark.parametrize("variant", ["backgammon", "long"])
def test_shipped_prior_knows_a_bear_off_and_the_start(variant):
    prior = load_default()[variant]
    assert load_default() is load_default()
    assert prior.turn_evidence(BEARING_OFF) > DECIDES
    assert prior.turn_evidence(half_turned(BEARING_OFF)) < -DECIDES
    start = Position.start(variant).board
    # the start turned half round is not the start (RULES 1): the prior reads it so
    assert not np.array_equal(half_turned(start), start)
    evidence = prior.turn_evidence(np.stack([start, half_turned(start)]))
    assert evidence[0] > DECIDES and evidence[1] < -DECIDES


@needs_model
def test_shipped_prior_reads_boards_of_a_game():
    # a backgammon game in progress, both sides' checkers spread over the board
    pos = Position.start().apply("24/18 13/11").swapped().apply("13/7 8/7").swapped().apply("13/9 6/2")
    boards = np.stack([pos.board, pos.swapped().board])
    evidence = load_default()["backgammon"].turn_evidence(boards)
    assert (evidence > DECIDES).all()
    assert evidence[0] == pytest.approx(evidence[1])
