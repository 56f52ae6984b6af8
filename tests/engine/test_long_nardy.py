"""Long nardy rules of the engine (RULES 1, 3, 4.3; seed 002).

Three kinds of evidence:

* a differential test against :mod:`nardy_reference`, a plain implementation written from
  RULES.md alone, on positions from long nardy self-play, for all 21 rolls
  (``pytest --full`` runs 20,000 positions; the default run a smaller sample);
* the hand-made cases of the rule books, one named test each;
* round trips of the ``LN:`` ID and Board JSON, and the value of a finished game.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import nardy_reference as reference
from engine import LONG_NARDY, REASONS, Position

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
SAMPLE = 1_200
FULL_SAMPLE = 20_000


def nardy(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    """A long nardy position from ``{point: checkers}``, each side in its own numbering."""
    return Position([mover.get(p, 0) for p in range(1, 25)],
                    [opponent.get(p, 0) for p in range(1, 25)], variant=LONG_NARDY)


def results(pos: Position, d1: int, d2: int) -> set[Position]:
    return {play.position for play in pos.plays(d1, d2)}


def reference_results(pos: Position, d1: int, d2: int) -> set[Position]:
    return {Position(list(mover), list(opponent), variant=LONG_NARDY)
            for mover, opponent in reference.legal_results(pos.mover, pos.opponent, d1, d2)}


# --- self-play ------------------------------------------------------------------------------

def longest_block(mover) -> int:
    """The longest run of own points along the opponent's route (RULES 3.8)."""
    run = best = 0
    for r in range(1, 25):
        run = run + 1 if mover[reference.mover_point(r) - 1] else 0
        best = max(best, run)
    return best


def blocking_choice(plays, rng):
    """Build long runs of points: leads to six-blocks, refused or allowed."""
    return max(plays, key=lambda play: (longest_block(play.position.mover),
                                        sum(map(bool, play.position.mover)), rng.random()))


def racing_choice(plays, rng):
    """Run home and bear off: leads to bear-offs while the opponent is still far behind."""
    return min(plays, key=lambda play: (play.position.pip_counts()[0], rng.random()))


def trailing_choice(plays, rng):
    """Keep the front checker back: no checker ahead, so a block in front may be refused."""
    def front(play):
        return min((p for p in range(1, 25) if play.position.mover[p - 1]), default=0)
    return max(plays, key=lambda play: (front(play), rng.random()))


def random_choice(plays, rng):
    return rng.choice(plays)


STYLES = (random_choice, blocking_choice, racing_choice, trailing_choice)


def self_play_positions(count: int, seed: int = 2024) -> list[Position]:
    """``count`` distinct positions met in self-play, each side in every game playing one
    style (random, blocking, racing or trailing) with one play in ten chosen at random."""
    rng = random.Random(seed)
    seen: dict[Position, None] = {}
    while len(seen) < count:
        styles = (rng.choice(STYLES), rng.choice(STYLES))
        pos, side = Position.start("long"), 0
        while pos.game_result() is None:
            seen[pos] = None
            plays = pos.plays(rng.randint(1, 6), rng.randint(1, 6))
            style = random_choice if rng.random() < 0.1 else styles[side]
            pos, side = style(plays, rng).position.swapped(), 1 - side
    return list(seen)[:count]


@pytest.fixture(scope="module")
def sample(full) -> list[Position]:
    return self_play_positions(FULL_SAMPLE if full else SAMPLE)


def refuses_a_block(pos: Position) -> bool:
    """Some roll has a play that would end in a forbidden six-block (RULES 3.8)."""
    for d1, d2 in ROLLS:
        orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
        heads = reference.head_limit(pos.mover, (d1, d2))
        for order in orders:
            for after, steps in reference.plays_in_order(pos.mover, pos.opponent, order, heads):
                if steps > 0 and reference.forbidden_block(after, pos.opponent):
                    return True
    return False


def test_sample_covers_every_phase(sample):
    """The differential tests see first turns, six-blocks allowed and refused, fully blocked
    rolls and bear-offs."""
    assert any(p.mover[23] == 15 for p in sample)
    assert any(reference.all_home(p.mover) for p in sample)
    assert any(longest_block(p.mover) >= 6 for p in sample)
    assert any(longest_block(p.mover) >= 4 and refuses_a_block(p) for p in sample)
    assert any(p.plays(*roll)[0].steps == () for p in sample for roll in ROLLS)


def test_plays_match_reference(sample):
    """RULES 3: the engine's results are exactly the reference's, for every roll."""
    compared, wrong = 0, []
    for pos in sample:
        for d1, d2 in ROLLS:
            engine = {(play.position.mover, play.position.opponent) for play in pos.plays(d1, d2)}
            expected = reference.legal_results(pos.mover, pos.opponent, d1, d2)
            compared += 1
            if engine != expected:
                wrong.append(f"{pos.position_id()} {d1}-{d2}: engine only "
                             f"{[mover for mover, _ in engine - expected]}, reference only "
                             f"{[mover for mover, _ in expected - engine]}")
    assert compared == len(sample) * 21
    assert not wrong, "\n".join(wrong[:10])


def moved_elsewhere(pos: Position, rng) -> Position:
    """``pos`` with one of the mover's checkers moved to another point (either way);
    ``pos`` itself when the mover has borne off all."""
    mover = list(pos.mover)
    if not any(mover):
        return pos
    source = rng.choice([p for p in range(24) if mover[p]])
    target = rng.choice([p for p in range(24) if p != source])
    mover[source] -= 1
    mover[target] += 1
    return Position(mover, list(pos.opponent), variant=LONG_NARDY)


def test_check_agrees_with_plays(sample):
    """RULES 3.9, on every fourth position of the sample: ``check`` accepts every result of
    the reference, naming a play that leads there, and refuses mutated results (one checker moved elsewhere) and other rolls' results
    exactly when the reference does not have them, with a reason that fits."""
    rng = random.Random(7)
    never = {"checker_count", "opponent_moved", "bar_first"}  # no bar, nothing added or lost
    for pos in sample[::4]:
        for d1, d2 in ROLLS:
            legal = reference_results(pos, d1, d2)
            for after in legal:
                verdict = pos.check(d1, d2, after)
                assert verdict.legal and pos.apply(verdict.play) == after, (pos, d1, d2, after)
            mutated = [moved_elsewhere(after, rng) for after in rng.sample(sorted(legal, key=repr), min(len(legal), 5))]
            for after in mutated + sorted(results(pos, *rng.choice(ROLLS)), key=repr):
                verdict = pos.check(d1, d2, after)
                assert verdict.legal == (after in legal), (pos, d1, d2, after)
                if verdict.legal:
                    continue
                assert verdict.reason in REASONS and verdict.reason not in never, (pos, d1, d2, after, verdict)
                if after.shared_points():
                    assert verdict.reason == "shared_point", (pos, d1, d2, after, verdict)


# --- hand-made cases from the rule books ---------------------------------------------------
START = Position.start("long")


def test_first_move_six_six_takes_two_checkers_off_the_head():
    """RULES 3.7, seed 002 ("первый ход ... исключение ... 3х3, 4х4 и 6х6"): 24/18(2); the
    opponent's head (our 12) stops a checker going further."""
    assert results(START, 6, 6) == {nardy({24: 13, 18: 2}, {24: 15})}
    assert START.check(6, 6, nardy({24: 13, 18: 2}, {24: 15})).play == "24/18(2)"


def test_first_move_four_four():
    """RULES 3.7, seed 002: 24/16(2); one checker alone stops at 16 (our 12 is blocked)."""
    assert results(START, 4, 4) == {nardy({24: 13, 16: 2}, {24: 15})}


def test_first_move_three_three():
    """RULES 3.7, seed 002: two head checkers share the four threes, 24/15 24/21 or 24/18(2)."""
    assert results(START, 3, 3) == {nardy({24: 13, 21: 1, 15: 1}, {24: 15}),
                                    nardy({24: 13, 18: 2}, {24: 15})}


def test_first_move_exception_for_the_second_player():
    """RULES 3.7: "first turn" means all 15 on the head, also for the side that moves second."""
    pos = nardy({24: 15}, {24: 14, 18: 1})  # the opponent has played 24/18 (our 6)
    assert results(pos, 6, 6) == {nardy({24: 13, 18: 2}, {24: 14, 18: 1})}


def test_first_move_other_double_one_head_checker():
    """RULES 3.7: 5-5 is no exception: one checker 24/4 (24/19/14/9/4)."""
    assert results(START, 5, 5) == {nardy({24: 14, 4: 1}, {24: 15})}
    two_off_head = nardy({24: 13, 19: 1, 9: 1}, {24: 15})
    assert START.check(5, 5, two_off_head).reason == "head_rule"


def test_second_head_checker_refused_on_a_normal_turn():
    """RULES 3.7, seed 002 ("Снимать шашки с головы разрешено только по одной"): not the
    first turn, so 6-6 plays one checker off the head and the rest of the roll is lost."""
    pos = nardy({24: 14, 18: 1}, {24: 15})
    assert results(pos, 6, 6) == {nardy({24: 13, 18: 2}, {24: 15})}
    verdict = pos.check(6, 6, nardy({24: 12, 18: 3}, {24: 15}))
    assert not verdict.legal and verdict.reason == "head_rule"


def test_head_rule_with_two_different_dice():
    """RULES 3.7: with 5-3 the head gives one checker; 24/19 24/21 is refused."""
    pos = nardy({24: 14, 20: 1}, {24: 15})
    assert results(pos, 5, 3) == {nardy({24: 13, 20: 1, 16: 1}, {24: 15}),
                                  nardy({24: 13, 19: 1, 17: 1}, {24: 15}),
                                  nardy({24: 13, 21: 1, 15: 1}, {24: 15})}
    assert pos.check(5, 3, nardy({24: 12, 21: 1, 20: 1, 19: 1}, {24: 15})).reason == "head_rule"


# Our points 15-19 held, a second checker on 16: 16/14 makes a six-block on our 14-19, the
# opponent's points 2-7 (RULES 3.8, q = 2); 24/23 keeps it standing at the end of the play.
BLOCK_BEFORE = {24: 9, 19: 1, 18: 1, 17: 1, 16: 2, 15: 1}
BLOCK_AFTER = {24: 8, 23: 1, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1}


def test_six_block_without_opposing_checker_ahead_is_illegal():
    """RULES 3.8, seed 002 ("заграждение из шести шашек разрешено только в том случае, если
    хотя бы одна шашка соперника находится перед этим заграждением")."""
    opponent = {24: 14, 10: 1}  # nobody on the opponent's point 1, nobody borne off
    pos = nardy(BLOCK_BEFORE, opponent)
    blocked = nardy(BLOCK_AFTER, opponent)
    assert blocked not in results(pos, 2, 1)
    verdict = pos.check(2, 1, blocked)
    assert not verdict.legal and verdict.reason == "six_block"


def test_six_block_with_opposing_checker_ahead_is_legal():
    """RULES 3.8: an opposing checker on the opponent's point 1 (our 13) is ahead of it."""
    opponent = {24: 14, 1: 1}
    pos = nardy(BLOCK_BEFORE, opponent)
    assert nardy(BLOCK_AFTER, opponent) in results(pos, 2, 1)
    assert pos.check(2, 1, nardy(BLOCK_AFTER, opponent)).legal


def test_six_block_with_opposing_checker_borne_off_is_legal():
    """RULES 3.8: a borne-off opposing checker is ahead of every block. (Built by hand: in a
    game the opponent bears off only with all its checkers home, already past any block.)"""
    opponent = {24: 14}
    assert nardy(BLOCK_AFTER, opponent) in results(nardy(BLOCK_BEFORE, opponent), 2, 1)


def test_six_block_made_and_broken_inside_one_move():
    """RULES 3.8, seed 002 ("разрешается «на проходе», в рамках одного хода временно закрыть
    и тут же освободить"): 16/14/13 holds 14-19 after its first step, not at the end."""
    opponent = {24: 14, 10: 1}
    pos = nardy(BLOCK_BEFORE, opponent)
    passed = nardy({24: 9, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 13: 1}, opponent)
    assert passed in results(pos, 2, 1)
    assert pos.check(2, 1, passed).legal


def test_bear_off_six_five_from_the_highest_points():
    """RULES 3.6, seed 002 ("Если на зарах выпало «шесть-пять», а на полях 6 и 5 шашек нет,
    то игрок может вывести из дома две шашки со следующих по порядку полей")."""
    opponent = {24: 5, 20: 10}
    pos = nardy({4: 2, 3: 1, 2: 1, 1: 1}, opponent)
    assert results(pos, 6, 5) == {nardy({3: 1, 2: 1, 1: 1}, opponent)}
    last_two = nardy({4: 1, 3: 1}, opponent)
    after, = results(last_two, 6, 5)
    assert after.mover_off == 15


def test_bear_off_smaller_die_inside_the_home_board():
    """RULES 3.6, seed 002 ("шесть-три ... вывести ... шашку с 6 поля и переставить другую
    на три поля вперед"): the 3 moves inside, as the 6 point is occupied; 5/off is refused."""
    opponent = {24: 15}
    pos = nardy({6: 2, 5: 1}, opponent)
    assert results(pos, 6, 3) == {nardy({5: 1, 3: 1}, opponent), nardy({6: 1, 2: 1}, opponent)}
    assert not pos.check(6, 3, nardy({6: 1}, opponent)).legal


def test_bear_off_after_coming_home_in_the_same_turn():
    """RULES 3.6: "tested before each step": 7/6 brings the last checker home, then 3/off."""
    opponent = {24: 15}
    pos = nardy({7: 1, 3: 1}, opponent)
    assert nardy({6: 1}, opponent) in results(pos, 1, 3)
    assert pos.check(1, 3, nardy({6: 1}, opponent)).play == "7/6 3/off"


def test_fully_blocked_roll():
    """RULES 3.5, seed 002 ("очки пропадают, а шашки не передвигаются вообще"): the opponent
    holds our 18-22 and all of ours are on the head: 6-6 leaves the position as it is."""
    pos = nardy({24: 15}, {24: 10, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
    plays = pos.plays(6, 6)
    assert [(play.steps, play.position) for play in plays] == [((), pos)]
    assert pos.check(6, 6, pos).legal
    assert pos.check(2, 6, pos).legal


def test_one_die_only_the_larger():
    """RULES 3.5, seed 002 ("Если ... может сделать только один ход, причем любой из двух,
    он обязан сыграть больший"): the head gives one checker, the second die would land on
    the opponent's checker on our 13, and the checker on our 1 cannot bear off yet."""
    opponent = {24: 14, 1: 1}
    pos = nardy({24: 14, 1: 1}, opponent)
    assert results(pos, 6, 5) == {nardy({24: 13, 18: 1, 1: 1}, opponent)}
    verdict = pos.check(6, 5, nardy({24: 13, 19: 1, 1: 1}, opponent))
    assert not verdict.legal and verdict.reason == "larger_die_required"


def test_one_die_only_the_smaller_when_the_larger_cannot_move():
    """RULES 3.5: our 18 blocked too, so the 5 is the only die that can be played."""
    opponent = {24: 13, 1: 1, 6: 1}
    pos = nardy({24: 14, 1: 1}, opponent)
    assert results(pos, 6, 5) == {nardy({24: 13, 19: 1, 1: 1}, opponent)}


def test_our_points_24_and_1_are_neighbours_in_a_block():
    """RULES 3.8: the opponent's route runs on from its 12 (our 24) to its 13 (our 1), so
    our 22-24 and 1-3 make a block (the opponent's points 10-15). 3/1 24/23 keeps it."""
    opponent = {24: 15}  # all on its head: none ahead of a block at q = 10
    pos = nardy({24: 10, 23: 1, 22: 1, 3: 2, 2: 1}, opponent)
    blocked = nardy({24: 9, 23: 2, 22: 1, 3: 1, 2: 1, 1: 1}, opponent)
    assert blocked not in results(pos, 2, 1)
    assert pos.check(2, 1, blocked).reason == "six_block"


def test_our_points_12_and_13_are_not_neighbours_in_a_block():
    """RULES 3.8: our 12 and 13 are the opponent's 24 and 1, the two ends of its route, so
    our 10-15 held is no block."""
    opponent = {20: 15}  # our 8
    pos = nardy({17: 10, 15: 1, 13: 1, 12: 1, 11: 1, 10: 1}, opponent)
    run = nardy({17: 9, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1}, opponent)
    assert run in results(pos, 2, 1)
    assert pos.check(2, 1, run).legal


def test_shared_point_is_an_illegal_play_not_bad_input():
    """RULES 3.2, 3.9: a checker put on the opponent's head (our 12) is an observed illegal
    play with its reason; only as a position before is it bad input."""
    shared = nardy({24: 14, 12: 1}, {24: 15})
    verdict = START.check(6, 6, shared)
    assert not verdict.legal and verdict.reason == "shared_point"
    assert verdict.to_json()["detail"] == REASONS["shared_point"]


# --- formats and the end of the game ---------------------------------------------------------

@st.composite
def long_nardy_positions(draw):
    """Any long nardy position a game can have: up to 15 a side, never both on one point."""
    mover = [0] * 24
    for _ in range(draw(st.integers(0, 15))):
        mover[draw(st.integers(0, 23))] += 1
    free = [r for r in range(1, 25) if not mover[reference.mover_point(r) - 1]]
    opponent = [0] * 24
    for _ in range(draw(st.integers(0, 15))):
        opponent[draw(st.sampled_from(free)) - 1] += 1
    return Position(mover, opponent, variant=LONG_NARDY)


@given(long_nardy_positions())
def test_long_nardy_id_round_trip(pos):
    text = pos.position_id()
    assert text.startswith("LN:")
    assert Position.parse(text) == pos


@given(long_nardy_positions())
def test_board_json_round_trip(pos):
    """RULES 9: Board JSON with "variant": "long", both bars 0."""
    data = pos.to_json()
    assert data["variant"] == "long" and data["player_bar"] == data["opponent_bar"] == 0
    assert Position.from_json(data) == pos
    assert Position.parse(json.dumps(data)) == pos
    assert Position.parse(json.dumps({k: v for k, v in data.items() if k != "variant"}),
                          "long") == pos


def test_oin_is_worth_one():
    """RULES 4.3, seed 002 ("оин ... соперник выкинул хотя бы одну шашку"): 1 point."""
    pos = nardy({}, {3: 10})
    assert pos.game_result() == ("mover", "single")
    assert LONG_NARDY.result_values["single"] == 1


def test_mars_is_worth_two_and_there_is_no_koks():
    """RULES 4.3, seed 002 ("марс ... соперник не успел выбросить ни одной шашки"): 2 points,
    also with the loser's checkers in the winner's home ("home mars"), never 3."""
    far = nardy({}, {24: 15})
    home_mars = nardy({}, {14: 15})  # the opponent's 14 is our 2
    assert far.game_result() == home_mars.game_result() == ("mover", "gammon")
    assert LONG_NARDY.result_values == {"single": 1, "gammon": 2}
    assert home_mars.swapped().game_result() == ("opponent", "gammon")


def test_game_goes_on_while_both_have_checkers():
    assert START.game_result() is None
