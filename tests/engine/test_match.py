"""The match state's rules: cube, Crawford, results, money, timing (RULES 2, 4-8)."""

from __future__ import annotations

import pytest

from engine import Position
from engine.match import (CALL_SECTION, CALLS, AcceptResignation, Beaver, CubeUnseen, DiceCorrected, Double, Drop,
                          EndUnseen, GameStart,
                          InvalidEventError, MatchState, NewGame, OpeningThrow, Played, Raccoon,
                          Resign, Take, Throw, event_from_json, event_to_json)
from engine.profiles import InvalidProfileError, profile


def run(state, *events):
    rulings = []
    for event in events:
        state, ruling = state.apply(event)
        rulings.append(ruling)
    return state, rulings


def at_score(score, length=7, **options):
    """A match at ``score``, Player 1 on roll before throwing (the game's first turn done)."""
    state, _ = run(MatchState.new(profile("tournament", match_length=length, **options)),
                   NewGame(score=score), OpeningThrow(3, 1))
    state, _ = run(state, Played(state.position.apply("8/5 6/5")), Throw(6, 6))
    state, _ = run(state, Played(state.position.apply("24/18(2) 13/7(2)")))
    return state  # Player 2 has played; Player 1 acts next: may double or throw


def test_crawford_game_then_post_crawford():
    """RULES 6.2: the first game after a side first reaches N - 1 has no doubling."""
    state, _ = run(MatchState.new(profile("tournament", match_length=5)), NewGame(score=(4, 2)))
    assert state.crawford and not state.post_crawford
    state, _ = run(state, OpeningThrow(3, 1))
    state, (r,) = run(state, Played(state.position.apply("8/5 6/5")))
    state, (call,) = run(state, Double())
    assert (call.kind, call.reason, CALL_SECTION[call.reason]) == ("illegal_double", "crawford_game", "6.2")
    assert state.cube == 1 and state.phase == "turn"  # RULES 6.4: no effect on the cube
    state, _ = run(state, Resign(0), AcceptResignation(), NewGame())
    assert state.score == (4, 3) and not state.crawford and state.post_crawford


def test_a_record_begun_after_the_crawford_game_says_so():
    """RULES 6.2: watching starts at 4-2 in a 5-point match. Unsaid, the game is the Crawford
    game; said to be after it (``crawford_played``), it is post-Crawford and the trailer doubles."""
    unsaid, _ = run(MatchState.new(profile("tournament", match_length=5)), NewGame(score=(4, 2)))
    assert unsaid.crawford
    state, _ = run(MatchState.new(profile("tournament", match_length=5)),
                   NewGame(score=(4, 2), crawford_played=True), OpeningThrow(3, 1))
    assert not state.crawford and state.post_crawford
    state, _ = run(state, Played(state.position.apply("8/5 6/5")))
    state, (double,) = run(state, Double())
    assert double.accepted and state.phase == "doubled"
    assert event_from_json(event_to_json(NewGame(score=(4, 2), crawford_played=True))) == \
        NewGame(score=(4, 2), crawford_played=True)


def test_dead_cube_depends_on_who_doubles():
    """Seed 000: at 3-2 in a 7-point match with the cube on 4, the owner with 3 may not
    redouble; the same cube owned by the side with 2 is alive (RULES 6.3)."""
    state = at_score((3, 2))
    assert (state.phase, state.on_roll) == ("played", 1)
    dead = MatchState(**{**state.__dict__, "cube": 4, "owner": 0})
    alive = MatchState(**{**state.__dict__, "cube": 4, "owner": 0, "score": (2, 3)})
    assert dead.apply(Double())[1].reason == "dead_cube"
    assert alive.apply(Double())[1].accepted


def test_only_the_owner_redoubles_and_only_before_the_throw():
    state = at_score((0, 0))
    state, rulings = run(state, Double(), Take())
    assert all(r.accepted for r in rulings) and (state.cube, state.owner) == (2, 1)
    state, (r,) = run(state, Double())
    assert r.reason == "not_cube_owner"  # RULES 5.2
    state, (_, r) = run(state, Throw(5, 2), Double())
    assert r.reason == "after_throw"


def test_a_double_with_the_doublers_throw_on_the_board_is_after_the_throw_before_it_is_recorded():
    """RULES 5.2: a double made with the doubler's throw lying on the board, the throw not yet
    recorded (Double(thrown=True)), is called after_throw and leaves the cube as it was; the
    turn before is over (the doubler has acted, RULES 7.1), so the call is the doubler's and the
    throw then recorded is theirs. A log without the field reads as a plain double."""
    from engine.match import event_from_json, event_to_json

    state = at_score((0, 0))
    assert state.phase == "played"
    called, (r,) = run(state, Double(thrown=True))
    assert r.reason == "after_throw" and (called.cube, called.owner) == (state.cube, state.owner)
    assert (called.phase, called.on_roll) == ("turn", 1 - state.on_roll)
    assert run(called, Throw(6, 3))[1][0].accepted
    assert run(state, Double())[1][0].accepted  # the same double before the throw stands
    assert event_from_json(event_to_json(Double(thrown=True))) == Double(thrown=True)
    assert event_from_json({"event": "double"}) == Double()


def test_drop_scores_the_cube_before_the_double_and_ends_the_match():
    state = at_score((5, 4))
    state, (_, r) = run(state, Double(), Drop())
    assert r.accepted and state.score == (6, 4) and state.result.how == "drop"
    state = at_score((6, 4), crawford=False)
    state, _ = run(state, Throw(5, 2))
    assert state.phase == "moving"


def test_first_throw_forbidden_balance_and_cube_limit():
    online = profile("online-nardy", balance=20, stake=100)
    state, _ = run(MatchState.new(online), NewGame(), OpeningThrow(6, 2))
    assert (state.phase, state.on_roll) == ("turn", 0)  # RULES 2.2: then throws both dice
    assert state.apply(Double())[1].reason == "first_throw_forbidden"  # RULES 5.5
    poor = MatchState(**{**state.__dict__, "throws": 3, "ledger": (-1500, 1500)})
    assert poor.apply(Double())[1].reason == "balance_too_small"  # RULES 8: 8 stakes
    limited = MatchState(**{**state.__dict__, "throws": 3, "cube": 64,
                            "profile": online.replace(cube_limit=64)})
    assert limited.apply(Double())[1].reason == "cube_limit"  # RULES 5.8


def finished(state, kind):
    """Player 1 to play its last checker off, the opponent left for a single/gammon/bg."""
    # the loser's point 19 is the winner's 6, in the winner's home board (RULES 4.2)
    loser = {"single": [0] * 11 + [14] + [0] * 12,
             "gammon": [0] * 11 + [15] + [0] * 12,
             "backgammon": [0] * 18 + [15] + [0] * 5}[kind]
    position = Position([1] + [0] * 23, loser, variant=state.variant)
    return MatchState(**{**state.__dict__, "position": position, "phase": "moving",
                         "dice": (2, 1), "on_roll": 0})


@pytest.mark.parametrize("kind, cube, turned, expected", [
    ("gammon", 2, True, 400), ("backgammon", 2, True, 600),  # seed 001: stake 100
    ("gammon", 1, False, 100), ("backgammon", 2, False, 200),  # RULES 5.7 Jacoby
    ("single", 4, True, 400),
])
def test_money_pays_stake_times_value_times_cube(kind, cube, turned, expected):
    state, _ = run(MatchState.new(profile("money", stake=100)), NewGame(), OpeningThrow(2, 1))
    state = finished(MatchState(**{**state.__dict__, "cube": cube, "cube_turned": turned}), kind)
    state, (r,) = run(state, Played(state.position.apply("1/off")))
    assert r.accepted and state.phase == "game_over"
    assert state.ledger == (expected, -expected)
    assert state.result.kind == kind


def test_long_nardy_has_mars_but_no_koks():
    state, _ = run(MatchState.new(profile("long-nardy-match", match_length=3)), NewGame(),
                   OpeningThrow(5, 3))
    position = Position([1] + [0] * 23, [0] * 11 + [15] + [0] * 12, variant=state.variant)
    state = MatchState(**{**state.__dict__, "position": position, "phase": "moving",
                          "dice": (2, 1), "on_roll": 0})
    state, _ = run(state, Played(position.apply("1/off")))
    assert (state.result.kind, state.score) == ("gammon", (2, 0))  # RULES 4.3: mars 2
    state, _ = run(state, NewGame())
    assert (state.phase, state.on_roll) == ("turn", 0)  # RULES 2.2: the winner starts


def test_beaver_and_raccoon():
    state, _ = run(MatchState.new(profile("money", raccoon=True)), NewGame(), OpeningThrow(3, 1))
    state, _ = run(state, Played(state.position.apply("8/5 6/5")))
    state, rulings = run(state, Double(), Beaver(), Raccoon())
    assert all(r.accepted for r in rulings) and (state.cube, state.owner) == (8, 1)
    state, _ = run(MatchState.new(profile("money")), NewGame(), OpeningThrow(3, 1))
    state, _ = run(state, Played(state.position.apply("8/5 6/5")))
    state, (_, _, r) = run(state, Double(), Beaver(), Raccoon())
    assert r.reason == "raccoon_not_allowed" and (state.cube, state.owner) == (4, 0)
    match = at_score((0, 0))
    assert run(match, Double(), Beaver())[1][1].reason == "beaver_not_allowed"


def test_automatic_doubles_on_opening_ties():
    state, _ = run(MatchState.new(profile("online-nardy", auto_doubles=1)), NewGame())
    state, (a, b, c) = run(state, OpeningThrow(4, 4), OpeningThrow(2, 2), OpeningThrow(5, 1))
    assert "automatic double" in a.note and "automatic" not in b.note
    assert (state.cube, state.owner, state.cube_turned) == (2, None, False)


def test_correction_window():
    """RULES 7.2: an illegal play is pending until put right; under condone it stands once
    the opponent throws."""
    for condone in (False, True):
        state, _ = run(MatchState.new(profile("tournament", condone=condone)), NewGame(),
                       OpeningThrow(3, 1))
        start = state.position
        state, (r,) = run(state, Played(start.apply("8/5")))
        assert (r.kind, state.pending) == ("illegal_play", r.reason)
        after_throw, (t,) = run(state, Throw(2, 1))
        if condone:
            assert t.accepted and after_throw.on_roll == 1 and after_throw.pending is None
        else:
            assert t.reason == "not_corrected" and after_throw is state
            state, (fixed,) = run(state, Played(start.apply("8/5 6/5")))
            assert fixed.accepted and state.pending is None
            assert run(state, Throw(2, 1))[1][0].accepted


def test_invalid_throw_is_a_reroll_and_changes_nothing():
    state = at_score((0, 0))
    after, (r,) = run(state, Throw(3, 3, valid=False))
    assert (r.kind, r.reason, CALL_SECTION[r.reason]) == ("reroll", "invalid_throw", "2.3")
    assert after is state


def test_a_throw_found_not_to_count_before_its_play_is_thrown_again():
    """RULES 2.3: a throw taken as counting, then seen not to (a cocked die noticed when the
    players pick the dice up unplayed), is a re-roll: the turn is as before it."""
    state, (r,) = run(at_score((0, 0)), Throw(6, 4))
    assert r.accepted and (state.phase, state.on_roll) == ("moving", 0)
    voided, (r,) = run(state, Throw(6, 4, valid=False))
    assert (r.kind, r.reason) == ("reroll", "invalid_throw")
    assert (voided.phase, voided.on_roll, voided.dice, voided.throws) == ("turn", 0, None, state.throws - 1)
    again, (r,) = run(voided, Throw(5, 2))
    assert r.accepted and again.dice == (5, 2) and again.on_roll == 0
    # the opening throw likewise: the opening is thrown again
    opening, _ = run(MatchState.new(profile("tournament", match_length=7)), NewGame(), OpeningThrow(3, 1))
    voided, (r,) = run(opening, Throw(3, 1, valid=False))
    assert r.reason == "invalid_throw" and voided.phase == "opening" and voided.on_roll is None


def test_dice_corrected_judge_the_play_on_the_board_again():
    """RULES 7.2: a throw recorded wrong (a die misread), then corrected: the play already on the
    board is judged against the dice as corrected, a call if illegal for them, awaiting its
    correction as any illegal play (a play called already is not called again), and no longer
    pending if legal for them; a throw not yet played takes the dice as corrected."""
    state, _ = run(at_score((0, 0)), Throw(6, 2))
    start = state.position
    foul, (played, corrected) = run(state, Played(start.apply("13/11 11/5")), DiceCorrected(5, 2))
    assert played.accepted and (corrected.kind, corrected.reason) == ("illegal_play", "no_such_play")
    assert (foul.dice, foul.pending, foul.before) == ((5, 2), "no_such_play", start)
    put_right, (r,) = run(foul, Played(start.apply("13/8 13/11")))
    assert r.accepted and put_right.pending is None
    cleared, (called, r) = run(state, Played(start.apply("13/8 13/11")), DiceCorrected(5, 2))
    assert called.reason == "no_such_play" and r.accepted and cleared.pending is None
    called, (r,) = run(foul, DiceCorrected(6, 3))  # the foul called already is not called again
    assert r.accepted and (called.dice, called.pending) == ((6, 3), "no_such_play")
    moving, (r,) = run(state, DiceCorrected(5, 2))
    assert r.accepted and (moving.phase, moving.dice) == ("moving", (5, 2))
    with pytest.raises(InvalidEventError):
        run(at_score((0, 0)), Double())[0].apply(DiceCorrected(6, 6))  # no throw in play


def test_a_double_stated_unseen_turns_the_cube_or_is_called_as_any_double():
    """RULES 5.3: an official states that a double and its take went unseen: the cube stands at
    twice its value, the taker's, whoever is on roll and whatever the phase of the turn (when it
    happened is not known). A double the rules forbid is called as it would have been, and has
    no effect on the cube (RULES 5.2 not the owner's, 6.2 the Crawford game, 6.3 a dead cube,
    6.4); it is no event while no game is played or a double waits for its answer."""
    state = at_score((0, 0))  # light acts next
    moving, _ = run(state, Throw(5, 2))
    for before in (state, moving):
        after, (r,) = run(before, CubeUnseen(doubler=1))
        assert r.accepted and (after.cube, after.owner) == (2, 0)
        assert (after.phase, after.on_roll) == (before.phase, before.on_roll)
        again, (r,) = run(after, CubeUnseen(doubler=0))  # light, the owner, redoubles: dark takes
        assert r.accepted and (again.cube, again.owner) == (4, 1)
    taken, _ = run(state, CubeUnseen(doubler=1))
    dead, _ = run(at_score((1, 3), length=5), CubeUnseen(doubler=0))  # dark owns the 2 at 3 of 5
    for before, doubler, reason in ((taken, 1, "not_cube_owner"), (at_score((4, 2), length=5), 0, "crawford_game"),
                                    (dead, 1, "dead_cube")):
        after, (r,) = run(before, CubeUnseen(doubler))
        assert (r.kind, r.reason) == ("illegal_double", reason)
        assert (after.cube, after.owner) == (before.cube, before.owner)
    doubled, _ = run(state, Double())
    for before in (doubled, MatchState.new(profile("money")), run(state, Resign(1), AcceptResignation())[0]):
        with pytest.raises(InvalidEventError):
            before.apply(CubeUnseen(doubler=0))
    with pytest.raises(InvalidEventError):
        state.apply(CubeUnseen(doubler=2))
    assert event_from_json(event_to_json(CubeUnseen(doubler=1))) == CubeUnseen(doubler=1)


def test_calls_are_a_closed_documented_set():
    assert set(CALLS.values()) == {"illegal_play", "illegal_double", "reroll", "out_of_turn"}
    for reason in ("crawford_game", "dead_cube", "not_cube_owner", "after_throw",
                   "first_throw_forbidden", "balance_too_small"):
        assert CALLS[reason] == "illegal_double"


def test_events_round_trip_through_json_and_bad_events_are_refused():
    state = at_score((1, 2))
    for event in (NewGame(score=(1, 2)), OpeningThrow(6, 1), Throw(5, 5, valid=False), DiceCorrected(5, 2),
                  Played(state.position), Double(), Resign(1, "gammon")):
        assert event_from_json(event_to_json(event)) == event
    with pytest.raises(InvalidEventError):
        state.apply(Throw(0, 3))
    with pytest.raises(InvalidEventError):
        event_from_json({"event": "castle"})
    with pytest.raises(InvalidProfileError):
        profile("tournament", jacoby=True)


def test_a_game_joined_in_progress_starts_where_it_stands():
    """A camera that joins mid-game (issue 7): the game begins at its position, the side on
    roll to act, the cube as found. Player 1 owns a 2-cube: Player 2 may not redouble (RULES
    5.2), Player 2's throw and play are judged from that position, then Player 1 may."""
    position = Position.start().apply("13/7 8/7").swapped().apply("24/20 13/9").swapped()
    state, (joined,) = run(MatchState.new(profile("tournament", match_length=7)),
                           NewGame(score=(1, 3), start=GameStart(position.swapped(), on_roll=1, cube=2, owner=0)))
    assert joined.accepted and (state.phase, state.on_roll, state.cube, state.owner) == ("turn", 1, 2, 0)
    assert state.score == (1, 3) and state.position == position.swapped()
    state, (call,) = run(state, Double())
    assert call.reason == "not_cube_owner"
    state, (thrown, played) = run(state, Throw(6, 4), Played(state.position.apply("24/14")))
    assert thrown.accepted and played.play == "24/14"
    state, (double,) = run(state, Double())
    assert double.accepted and state.phase == "doubled"
    event = NewGame(score=(1, 3), start=GameStart(position, on_roll=0, cube=2, owner=1))
    assert event_from_json(event_to_json(event)) == event


@pytest.mark.parametrize("start, score, why", [
    ("4HPwATDgc/ABMA:1:2:1", (4, 2), "Crawford game"),  # 5-point match at 4-2: no cube is turned
    ("4HPwATDgc/ABMA:1:3:1", (0, 0), "power of two"),
    ("4HPwATDgc/ABMA:1:2:0", (0, 0), None),  # a cube doubled automatically stays centred
    ("4HPwATDgc/ABMA:1:1:2", (0, 0), "nobody owns"),
    ("LN:AACA/z8AAMD/Hw:1:1:0", (0, 0), "long position in a backgammon game"),
])
def test_a_start_no_game_can_have_is_bad_input(start, score, why):
    new = MatchState.new(profile("tournament", match_length=5))
    if why is None:
        assert new.apply(NewGame(score=score, start=GameStart.parse(start)))[1].accepted
        return
    with pytest.raises(InvalidEventError, match=why):
        new.apply(NewGame(score=score, start=GameStart.parse(start)))


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:3:1:0", "4HPwATDgc/ABMA:1:1:x", "nonsense:1:1:0"])
def test_an_unreadable_game_start_is_bad_input(text):
    with pytest.raises(InvalidEventError, match="game start"):
        GameStart.parse(text)


def test_a_game_whose_end_was_not_seen_ends_with_no_result():
    """The board set up again mid-game (a resignation agreed across the table, RULES 4.4, that
    no camera sees): the game ends with no result and the score stands; the next game starts."""
    state = at_score((1, 2))
    state, (ended, again) = run(state, EndUnseen(), EndUnseen())
    assert ended.accepted and (state.phase, state.result, state.score) == ("game_over", None, (1, 2))
    assert again.reason == "no_game"
    state, (new,) = run(state, NewGame())
    assert new.accepted and state.game == 2 and state.phase == "opening"
    # a game seen set up, its opening and the turns after it unseen, ends so too
    state, (ended,) = run(state, EndUnseen())
    assert ended.accepted and (state.phase, state.score) == ("game_over", (1, 2))
    assert event_from_json(event_to_json(EndUnseen())) == EndUnseen()
    assert event_from_json({"event": "end_unseen"}) == EndUnseen()  # as logs before stated results wrote it


def test_a_game_ended_unseen_with_the_result_an_official_states_counts_it():
    """RULES 4.5, 6.1, 6.2: the points stated go to the score as any result's do, and the game
    after a side first reaches N - 1 is the Crawford game; a result that reaches N wins the match."""
    state = at_score((1, 2), length=5)
    state, (ended,) = run(state, EndUnseen(winner=1, points=2))
    assert ended.accepted and (state.phase, state.score) == ("game_over", (1, 4))
    assert (state.result.winner, state.result.points, state.result.how) == (1, 2, "stated")
    state, _ = run(state, NewGame())
    assert state.crawford  # 1-4 in a 5 point match
    state, _ = run(state, OpeningThrow(3, 1), EndUnseen(winner=0, points=4))
    assert (state.phase, state.score, state.match_winner) == ("match_over", (5, 4), 0)
    assert event_from_json(event_to_json(EndUnseen(0, 4))) == EndUnseen(0, 4)


@pytest.mark.parametrize("winner, points, refused", [
    (2, 1, "a game's winner is side 0 or 1"), (0, 0, "a game scores 1 to 192 points"),
    (1, 193, "a game scores 1 to 192"), (0, None, "not None"), (0, True, "not True")])
def test_a_stated_result_no_game_can_have_is_bad_input(winner, points, refused):
    with pytest.raises(InvalidEventError, match=refused):
        at_score((1, 2)).apply(EndUnseen(winner, points))
