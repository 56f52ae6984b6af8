"""vision.layout: positions to physical points and back (RULES 1, 9)."""

import pytest
from hypothesis import given, strategies as st

from vision.layout import (COLOURS, Physical, light_point, point_slot, recognizer_form, slot_point,
                           start_board)


@pytest.mark.parametrize("variant", ["backgammon", "long"])
@pytest.mark.parametrize("colour", COLOURS)
def test_point_slot_is_a_bijection(variant, colour):
    slots = {point_slot(colour, p, variant) for p in range(1, 25)}
    assert len(slots) == 24
    for p in range(1, 25):
        assert slot_point(colour, *point_slot(colour, p, variant), variant) == p


def test_convention():
    # Light: 1 bottom-right, 12 bottom-left, 13 top-left, 24 top-right, in both variants.
    for variant in ("backgammon", "long"):
        assert point_slot("light", 1, variant) == ("bottom", 11)
        assert point_slot("light", 12, variant) == ("bottom", 0)
        assert point_slot("light", 13, variant) == ("top", 0)
        assert point_slot("light", 24, variant) == ("top", 11)
    assert light_point("dark", 1, "backgammon") == 24          # opposite directions: 25 - p
    assert point_slot("dark", 24, "long") == ("bottom", 0)      # dark's head diagonally opposite
    assert light_point("dark", 1, "long") == 13


def test_backgammon_start_form():
    form = recognizer_form(Physical.from_board(start_board("backgammon"), "light"), [3, 1], True,
                           {"value": 1, "location": "middle"})
    assert form["bottom"][11] == ["dark", 2]     # dark's 24 is light's 1
    assert form["bottom"][6] == ["light", 5]      # light's 6
    assert form["top"][0] == ["light", 5]         # light's 13
    assert form["top"][11] == ["light", 2]        # light's 24
    assert form["dice"] == [3, 1] and form["throw_valid"]


boards = st.builds(
    lambda variant, a, b, bars: {"variant": variant, "player": a, "opponent": b,
                                 "player_bar": 0 if variant == "long" else bars[0],
                                 "opponent_bar": 0 if variant == "long" else bars[1]},
    st.sampled_from(["backgammon", "long"]),
    st.lists(st.integers(0, 2), min_size=24, max_size=24).filter(lambda c: sum(c) <= 13),
    st.lists(st.integers(0, 2), min_size=24, max_size=24).filter(lambda c: sum(c) <= 13),
    st.tuples(st.integers(0, 2), st.integers(0, 2)))


@given(boards, st.sampled_from(COLOURS))
def test_board_round_trip(board, mover):
    phys = Physical.from_board(board, mover)
    assert phys.to_board(mover) == board
    for colour in COLOURS:
        assert phys.on_board(colour) + phys.off[colour] == 15
