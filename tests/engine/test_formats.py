"""Text formats: parse and print are inverse (RULES 9)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (LONG_NARDY, InvalidPlayError, InvalidPositionError, Position, format_play,
                    parse_play)
from engine.xgid import XGID


@st.composite
def positions(draw, variant="backgammon"):
    """Any arrangement of up to fifteen checkers a side, both colours on a point included."""
    places = 25 if variant == "backgammon" else 24
    sides = []
    for _ in range(2):
        total = draw(st.integers(0, 15))
        counts = [0] * places
        for _ in range(total):
            counts[draw(st.integers(0, places - 1))] += 1
        sides.append(counts)
    mover, opponent = sides
    if variant == "backgammon":
        return Position(mover[:24], opponent[:24], mover_bar=mover[24], opponent_bar=opponent[24])
    return Position(mover, opponent, variant=LONG_NARDY)


@given(positions())
def test_gnu_position_id_round_trip(pos):
    assert Position.parse(pos.position_id()) == pos


@given(positions("long"))
def test_long_nardy_id_round_trip(pos):
    text = pos.position_id()
    assert text.startswith("LN:") and len(text) == 17
    assert Position.parse(text) == pos


@given(st.one_of(positions(), positions("long")))
def test_board_json_round_trip(pos):
    assert Position.parse(json.dumps(pos.to_json())) == pos
    assert Position.from_json(pos.to_json()) == pos


@given(positions().filter(lambda p: not p.shared_points()),
       st.sampled_from([1, 2, 4, 8, 16, 32, 64]), st.sampled_from([-1, 0, 1]),
       st.sampled_from([-1, 1]), st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6)),
                                            st.sampled_from(["D", "B", "R"])),
       st.integers(0, 20), st.integers(0, 20), st.booleans(), st.integers(0, 25))
def test_xgid_round_trip(pos, cube, owner, turn, dice, s1, s2, crawford, length):
    xgid = XGID(pos, cube, owner, turn, dice, s1, s2, crawford=crawford and length > 0,
                match_length=length)
    assert XGID.parse(str(xgid)) == xgid


def test_xgid_turn_decides_the_side_to_move():
    top_on_roll = XGID.parse("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:0:10")
    assert top_on_roll.position == Position.start()  # symmetric start: either side
    race = XGID.parse("XGID=-------------------a--A---:0:0:-1:00:0:0:0:0:10")
    # the top player ('a') is on roll: its checker on the bottom player's 19 is on its own 6
    assert race.position.mover[5] == 1 and race.position.opponent[21] == 1


@given(st.lists(st.tuples(st.integers(1, 25), st.integers(1, 6), st.booleans()), max_size=4))
def test_notation_round_trip(raw):
    steps = [(src, max(src - die, 0), hit and src - die > 0) for src, die, hit in raw]
    text = format_play(steps)
    again = parse_play(text)
    assert format_play(again) == text
    # joining a checker's steps keeps where checkers left from and where they arrived
    def net(moves):
        from collections import Counter
        return Counter(s for s, _, _ in moves) - Counter(d for _, d, _ in moves), \
            Counter(d for _, d, _ in moves) - Counter(s for s, _, _ in moves)
    assert net(again) == net(steps)


@pytest.mark.parametrize("text,moves", [
    ("bar/21*", ((25, 21, True),)),
    ("25/21", ((25, 21, False),)),
    ("6/0", ((6, 0, False),)),
    ("6/off", ((6, 0, False),)),
    ("13/9(2)", ((13, 9, False), (13, 9, False))),
    ("7/3*(3)", ((7, 3, True),) * 3),
    ("13/7 13/7 13/7 8/2", ((13, 7, False),) * 3 + ((8, 2, False),)),
    ("24/18*/13", ((24, 18, True), (18, 13, False))),
    ("", ()),
])
def test_both_transcript_dialects_parse(text, moves):
    assert parse_play(text) == moves


@pytest.mark.parametrize("text", ["13-7", "13/7/", "26/20", "6/7", "off/3", "8/x", "8/5(7)"])
def test_bad_notation_is_an_input_error(text):
    with pytest.raises(InvalidPlayError):
        parse_play(text)


@pytest.mark.parametrize("text", ["", "4HPwATDgc/AB", "4HPwATDgc/AB!A", "////////////8P",
                                  "XGID=abc:0:0:1:00:0:0:0:0", "{", '{"player": [1]}', "LN:%%"])
def test_bad_positions_are_input_errors(text):
    with pytest.raises(InvalidPositionError):
        Position.parse(text)


def test_apply_hits_a_blot_and_writes_notation_back():
    pos = Position.start().apply("24/18 13/11")  # one side's opening 6-2
    reply = pos.swapped().apply("13/7*")  # the other side hits on its 7, the first's 18
    assert reply.opponent_bar == 1 and reply.opponent[17] == 0
    assert format_play(parse_play("bar/22* 13/9(2)")) == "bar/22* 13/9(2)"
