"""Transcripts (RULES 9, issue 4 item 4): both dialects in, XG's layout out, round trips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import Position
from engine.match import (CubeUnseen, DiceCorrected, Double, Drop, EndUnseen, NewGame, OpeningThrow, Played, Take,
                          Throw)
from engine.profiles import profile
from engine.transcript import (AmendmentError, TranscriptError, amend_roll, parse_transcript, session_transcript,
                               state_double, state_result, write_transcript)
from gammoncam.referee import Referee
from gammoncam.replay import Replay

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "matches" / "bglab"
FILES = sorted(CORPUS.glob("*.txt"))
SAMPLE = ["match10013413.txt", "match9102134.txt",
          "Magic - Lasse 5pt Backgammon Studio 2024_04_22 19_06_30.txt",
          "rossrock - Lasse 5pt Backgammon Studio 2024_05_11 21_39_07.txt"]


def test_write_then_read_gives_the_same_transcript_for_the_whole_corpus():
    for path in FILES:
        original = parse_transcript(path.read_text(encoding="utf-8"))
        again = parse_transcript(write_transcript(original))
        assert again.games == original.games, path.name
        assert again.match_length == original.match_length
        assert dict(again.tags) == dict(original.tags)
        assert again.players == original.players


@pytest.mark.parametrize("name", SAMPLE)
def test_session_export_then_import_gives_the_same_match(name):
    referee = Replay(name).run(parse_transcript((CORPUS / name).read_text()))
    text = write_transcript(session_transcript(referee.profile, referee.events,
                                               ("ann", "bob"), (("EventDate", "2025.01.31"),)))
    assert text.startswith('; [Site "gammoncam"]\n; [Player 1 "ann"]\n; [Player 2 "bob"]\n'
                           '; [EventDate "2025.01.31"]\n; [Variation "Backgammon"]')
    again = Replay("again").run(parse_transcript(text))
    assert again.events == referee.events
    assert again.state.to_json() == referee.state.to_json()


def test_a_throw_found_not_to_count_is_left_out_of_the_export():
    """RULES 2.3: a throw taken as counting and then voided (a cocked die seen when the dice
    were picked up unplayed) is not a turn: the export shows the throw made again."""
    referee = Referee(profile("tournament", match_length=3))
    light_opened = Position.start().apply("8/5 6/5")
    for event in (NewGame(), OpeningThrow(3, 1), Played(light_opened), Throw(6, 4),
                  Throw(6, 4, valid=False), Throw(5, 2), Played(light_opened.swapped().apply("13/8 13/11")),
                  Throw(6, 3), Throw(6, 3, valid=False)):
        assert referee.submit(event).accepted == (not isinstance(event, Throw) or event.valid)
    actions = session_transcript(referee.profile, referee.events).games[0].actions
    assert [(a.number, a.side, a.dice) for a in actions] == [(1, 0, (3, 1)), (1, 1, (5, 2))]
    text = write_transcript(session_transcript(referee.profile, referee.events))
    assert text.rstrip().endswith("1) 31: 8/5 6/5                 52: 13/11 13/8")


def test_dice_corrected_are_exported_with_the_play_that_stands():
    """A throw recorded 6-2, its dice corrected to 5-2 once the foul on the board was put right
    (RULES 7.2): the export shows the 5-2 and the play put right."""
    referee = Referee(profile("tournament", match_length=3))
    light_opened = Position.start().apply("8/5 6/5")
    dark = light_opened.swapped()
    for event in (NewGame(), OpeningThrow(3, 1), Played(light_opened), Throw(6, 2),
                  Played(dark.apply("13/7 8/6")), DiceCorrected(5, 2), Played(dark.apply("13/8 13/11"))):
        referee.submit(event)
    text = write_transcript(session_transcript(referee.profile, referee.events))
    assert text.rstrip().endswith("1) 31: 8/5 6/5                 52: 13/11 13/8")


BEFORE_DARKS_TURN = ("  1) 31: 8/5 6/5                  Doubles => 2\n"
                     "  2)  Takes                      52: 13/11 13/8\n"
                     "  3) 64: 24/18 13/9\n")
AFTER_LIGHTS_THROW = ("  1) 31: 8/5 6/5                 52: 13/11 13/8\n"
                      "  2) 64: 24/18 13/9               Doubles => 2\n"
                      "  3)  Takes\n")


@pytest.mark.parametrize("stated_at, written", [
    (4, BEFORE_DARKS_TURN),    # stated while dark (the doubler) moves: before dark's throw
    (5, BEFORE_DARKS_TURN),    # ... once dark has played, the turn not yet over
    (6, AFTER_LIGHTS_THROW),   # while light moves: where it was stated
])
def test_a_double_stated_unseen_is_written_before_the_doublers_turn_in_hand(stated_at, written):
    """RULES 5.2: a double comes before the throw. One an official states unseen while the doubler's
    turn is in hand (thrown, or played and not yet over) is written before that turn's throw;
    stated at another moment, where it was stated. The transcript reads back to the same cube."""
    light_opened = Position.start().apply("8/5 6/5")
    dark_played = light_opened.swapped().apply("13/11 13/8")
    events = [NewGame(), OpeningThrow(3, 1), Played(light_opened), Throw(5, 2), Played(dark_played), Throw(6, 4),
              Played(dark_played.swapped().apply("24/18 13/9"))]
    events.insert(stated_at, CubeUnseen(doubler=1))
    referee = Referee(profile("tournament", match_length=5))
    assert all(referee.submit(event).accepted for event in events)
    text = write_transcript(session_transcript(referee.profile, referee.events))
    assert text.endswith(written)
    replayed = Replay("stated").run(parse_transcript(text))
    assert (replayed.state.cube, replayed.state.owner, replayed.calls) == (2, 0, [])


def _dark_played(dark_play: str, dice=(4, 1)) -> list:
    """Light opens 3-1 (8/5 6/5), dark throws ``dice`` and plays ``dark_play``."""
    light_opened = Position.start().apply("8/5 6/5")
    return [NewGame(), OpeningThrow(3, 1), Played(light_opened), Throw(*dice),
            Played(light_opened.swapped().apply(dark_play))]


def test_a_roll_amended_keeps_the_play_and_changes_only_the_roll():
    """13/8 is a 4-1's (13/9/8) and a 3-2's (13/10/8): an official who saw a 3-2 thrown amends the
    record's 4-1, and the transcript writes 32: 13/8; the play, the verdicts and the match stand."""
    events = [*_dark_played("13/8"), Throw(5, 2)]
    amended, index = amend_roll(profile("tournament", match_length=3), events, 1, 1, 2, (2, 3))[:2]
    assert index == 3 and amended[3] == Throw(3, 2) and amended[:3] + amended[4:] == events[:3] + events[4:]
    text = write_transcript(session_transcript(profile("tournament", match_length=3), amended))
    assert "1) 31: 8/5 6/5                 32: 13/8" in text


@pytest.mark.parametrize("game, turn, player, dice, refused", [
    (1, 1, 2, (6, 4), "13/8 is not a legal play of 6-4"),  # a foul, not a misread (RULES 7.2)
    (1, 1, 2, (4, 1), "the record already has 4-1"),
    (1, 2, 2, (3, 2), "no roll of player 2 there"),
    (2, 1, 1, (3, 2), "no roll of player 1 there"),
    (1, 1, 1, (3, 3), "an opening roll is never a double"),
    (1, 1, 1, (4, 2), "is not a legal play of 4-2"),  # light's 8/5 6/5 is the 3-1's only
    (1, 1, 2, (7, 1), "not a roll"),
])
def test_an_amendment_the_record_cannot_take_is_refused_with_the_reason(game, turn, player, dice, refused):
    events = [*_dark_played("13/8"), Throw(5, 2)]  # light's 5-2 after it, not played yet
    with pytest.raises(AmendmentError, match=refused):
        amend_roll(profile("tournament", match_length=3), events, game, turn, player, dice)


def test_a_foul_the_official_saw_is_called_and_the_game_goes_on_from_the_board():
    """RULES 7.2: dark threw 6-4 and played 13/8, which the watch took for a 4-1's legal 13/9/8. An
    official who saw the 6-4 records the foul: the play is called on its own event, the board and
    the match stand as a watch judges them (condoned, play went on), the transcript writes 64: 13/8."""
    events = [*_dark_played("13/8"), Throw(5, 2), Played(Position.start().apply("8/3 6/4"))]
    watched = profile("tournament", match_length=3, condone=True)
    with pytest.raises(AmendmentError, match="13/8 is not a legal play of 6-4 .*amend it as a foul"):
        amend_roll(watched, events, 1, 1, 2, (6, 4))
    fixed = amend_roll(watched, events, 1, 1, 2, (6, 4), foul=True)
    assert fixed.withdrawn == ()
    assert [(k, r.accepted, r.reason) for k, r in fixed.called] == [(4, False, "no_such_play")]
    assert fixed.events[3] == Throw(6, 4) and fixed.events[:3] + fixed.events[4:] == events[:3] + events[4:]
    assert "1) 31: 8/5 6/5                 64: 13/8" in write_transcript(session_transcript(watched, fixed.events))


@pytest.mark.parametrize("condone, dice, refused", [
    (True, (3, 2), "the play recorded is legal for 3-2: no foul to record"),
    # without condoning, light's next throw waits for the correction
    (False, (6, 4), "the record does not stand with 6-4 .*before the illegal play was put right"),
])
def test_a_foul_the_record_cannot_take_is_refused(condone, dice, refused):
    events = [*_dark_played("13/8"), Throw(5, 2)]
    with pytest.raises(AmendmentError, match=refused):
        amend_roll(profile("money", condone=condone), events, 1, 1, 2, dice, foul=True)


def test_the_roll_of_a_turn_still_being_played_is_not_amended():
    """Its play may still change on the board, and is judged with the roll the session has."""
    with pytest.raises(AmendmentError, match="the turn is still being played"):
        amend_roll(profile("money"), _dark_played("13/8"), 1, 1, 2, (3, 2))


def test_a_dance_recorded_with_another_roll_is_amended_to_a_roll_that_dances_too():
    """Dark danced a 4-4 at game 1 turn 7 of a real match (vid 9508's kind of misread, the dice
    read wrong): 6-5 dances there too and is taken; 3-3 has a play, so the dance is no play of it."""
    name = "match10013413.txt"
    referee = Replay(name).run(parse_transcript((CORPUS / name).read_text()))
    amended, index = amend_roll(referee.profile, referee.events, 1, 7, 2, (6, 5))[:2]
    game = session_transcript(referee.profile, amended).games[0]
    assert [(a.dice, a.play) for a in game.actions if (a.number, a.side) == (7, 1)] == [((6, 5), "")]
    with pytest.raises(AmendmentError, match="the dance recorded .no play. is not a legal play of 3-3"):
        amend_roll(referee.profile, referee.events, 1, 7, 2, (3, 3))


def test_an_opening_roll_amended_keeps_who_moved_first():
    """RULES 2.1: the higher die of the opening moves first. Player 2 opened 4-1 with 13/8 (a
    3-2's too); amended to 3-2, player 2's die is the 3."""
    referee = Referee(profile("money"))
    for event in (NewGame(), OpeningThrow(1, 4)):
        referee.submit(event)
    referee.submit(Played(referee.state.position.apply("13/8")))
    referee.submit(Throw(6, 1))  # player 1's turn: player 2's is over
    amended, index = amend_roll(referee.profile, referee.events, 1, 1, 2, (3, 2))[:2]
    assert (index, amended[1]) == (1, OpeningThrow(2, 3))


def test_dice_corrected_are_what_an_amendment_changes():
    """A roll corrected once its foul was put right (RULES 7.2) is amended at the correction."""
    light_opened = Position.start().apply("8/5 6/5")
    dark = light_opened.swapped()
    events = [NewGame(), OpeningThrow(3, 1), Played(light_opened), Throw(6, 2), Played(dark.apply("13/7 8/6")),
              DiceCorrected(4, 1), Played(dark.apply("13/8")), Throw(5, 2)]
    amended, index = amend_roll(profile("money"), events, 1, 1, 2, (3, 2))[:2]
    assert (index, amended[5]) == (5, DiceCorrected(3, 2))


def _ended_unseen_then_doubled() -> list:
    """Game 1 of a 5 point match ends unseen after light's opening 3-1; in game 2 light opens 5-2
    (13/8 13/11), dark doubles and light takes; dark throws 6-4."""
    opened = Position.start().apply("13/8 13/11")
    return [NewGame(), OpeningThrow(3, 1), Played(Position.start().apply("8/5 6/5")), EndUnseen(),
            NewGame(), OpeningThrow(5, 2), Played(opened), Double(), Take(), Throw(6, 4)]


def test_a_result_stated_for_a_game_ended_unseen_is_scored_and_judged_again():
    """An official says dark won game 1 for 4 points (a redouble dropped out of sight): the
    transcript writes it and game 2's score 0-4, which makes game 2 the Crawford game (RULES 6.2),
    so dark's double there is called and has no effect (6.4): the cube stays in the middle. Its
    take is no call of its own. Stated again for 1 point, the call is withdrawn."""
    match = profile("tournament", match_length=5)
    events = _ended_unseen_then_doubled()
    fixed = state_result(match, events, 1, 2, 4)
    assert fixed.index == 3 and fixed.events[3] == EndUnseen(winner=1, points=4)
    assert fixed.events[:3] + fixed.events[4:] == events[:3] + events[4:]
    assert [(k, r.reason) for k, r in fixed.called] == [(7, "crawford_game")] and fixed.withdrawn == ()
    text = write_transcript(session_transcript(match, fixed.events))
    assert "  1) 31: 8/5 6/5                  Wins 4 point\n" in text
    assert " Player 1 : 0                    Player 2 : 4\n  1) 52: 13/11 13/8              64: ????" in text
    again = state_result(match, fixed.events, 1, 2, 1)
    assert again.called == () and again.withdrawn == (7,)


def test_only_a_game_that_ended_unseen_has_its_result_stated():
    """A game the record saw end keeps the result it saw (a drop here); the same result stated
    twice is said to be there already."""
    match = profile("tournament", match_length=5)
    events = [NewGame(), OpeningThrow(3, 1), Played(Position.start().apply("8/5 6/5")), Double(), Drop(), NewGame()]
    with pytest.raises(AmendmentError, match=r"the record saw it end \(player 2 won 1 point\(s\), drop\)"):
        state_result(match, events, 1, 1, 2)
    stated = state_result(match, _ended_unseen_then_doubled(), 1, 1, 1).events
    with pytest.raises(AmendmentError, match="already has 1 point"):
        state_result(match, stated, 1, 1, 1)


def _double_missed_then_redoubled():
    """Light opens 3-1 in a 5 point match, dark plays 6-4, light doubles and dark drops: light
    wins 1 point as the record saw it. Dark's double before the 6-4, taken, went unseen."""
    opened = Position.start().apply("8/5 6/5")
    return [NewGame(), OpeningThrow(3, 1), Played(opened), Throw(6, 4),
            Played(opened.swapped().apply("24/18 13/9")), Double(), Drop()]


def test_a_double_stated_unseen_counts_for_the_cube_and_the_game_after_it():
    """An official says dark doubled before their 6-4 and light took (RULES 5.2, 5.3): light's
    double is then a redouble to 4 by the cube's owner, and dark's drop gives light 2 points,
    not 1 (5.3). The transcript writes the double and take before the 6-4, which is turn 2 from
    then on, and reads back to the same match."""
    match = profile("tournament", match_length=5)
    events = _double_missed_then_redoubled()
    fixed = state_double(match, events, 1, 1, 2)
    assert fixed.index == 3 and fixed.events == [*events[:3], CubeUnseen(doubler=1), *events[3:]]
    assert fixed.called == () and fixed.withdrawn == ()
    referee = Referee(match)
    for event in fixed.events:
        assert referee.submit(event).accepted
    assert referee.state.score == (2, 0)
    text = write_transcript(session_transcript(match, fixed.events))
    assert ("  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes                      64: 24/18 13/9\n"
            "  3)  Doubles => 4                Drops\n  4)  Wins 2 point\n") in text
    assert Replay(parse_transcript(text)).run(parse_transcript(text)).state.score == (2, 0)


def _doubled_and_played_on():
    """Game 2 of :func:`_ended_unseen_then_doubled` played on: dark's 6-4, light's 2-1, dark's
    3-1 thrown (light owns the cube at 2)."""
    events = _ended_unseen_then_doubled()
    dark = Position.start().apply("13/11 13/8").swapped().apply("24/18 24/20")
    return [*events, Played(dark), Throw(2, 1), Played(dark.swapped().apply("8/6 6/5")), Throw(3, 1)]


@pytest.mark.parametrize("word, args, refused", [
    ("result", (1, 2, 5), "5 point\\(s\\) win player 2 the match, but the record goes on after it"),
    ("result", (2, 1, 1), "game 2: the game has not ended in the record"),
    ("result", (3, 1, 1), "game 3: the record has 2 game"),
    ("result", (1, 3, 1), "the winner is player 1 or 2"),
    ("result", (1, 2, 0), "a game scores 1 to 192 points"),
    ("double", (2, 3, 2), "player 2 could not double then \\(Only the cube's owner may redouble"),  # light's cube
    ("double", (2, 2, 2), "the record already has player 2's double there"),
    ("double", (2, 1, 1), "no double comes before the opening throw"),
    ("double", (2, 4, 1), "the record has no roll of player 1 there"),
    ("double", (3, 1, 2), "the record has no roll of player 2 there"),
])
def test_an_officials_word_the_record_cannot_take_is_refused_with_the_reason(word, args, refused):
    """A result stated (game, winner, points) on :func:`_ended_unseen_then_doubled`, a double
    stated (game, turn, player) on :func:`_doubled_and_played_on`."""
    stated, events = (state_result, _ended_unseen_then_doubled) if word == "result" else (
        state_double, _doubled_and_played_on)
    with pytest.raises(AmendmentError, match=refused):
        stated(profile("tournament", match_length=5), events(), *args)


def gnubg_records(path: Path):
    gnubg = pytest.importorskip("gnubg")
    gnubg.command(f'import mat "{path}"')
    match = gnubg.match()
    return [[(r["action"], r.get("dice"), r.get("board"), r["player"]) for r in game["game"]]
            for game in match["games"]], [
        (g["info"]["winner"], g["info"]["points-won"]) for g in match["games"]]


@pytest.mark.parametrize("name", SAMPLE[:3])
def test_gnubg_opens_our_export_as_it_opens_the_original(name, tmp_path):
    referee = Replay(name).run(parse_transcript((CORPUS / name).read_text()))
    ours = tmp_path / "ours.mat"
    ours.write_text(write_transcript(session_transcript(referee.profile, referee.events)))
    records, results = gnubg_records(ours)
    original_records, original_results = gnubg_records(CORPUS / name)
    assert records == original_records
    assert [points for _, points in results] == [points for _, points in original_results]


def random_long_nardy_session(seed: int) -> Referee:
    """A long nardy match played by random legal plays (RULES 3.7, 3.8 hold in every one)."""
    rng = random.Random(seed)
    referee = Referee(profile("long-nardy-match", match_length=3))
    while referee.state.phase != "match_over":
        referee.submit(NewGame())
        while referee.state.phase == "opening":
            referee.submit(OpeningThrow(rng.randint(1, 6), rng.randint(1, 6)))
        while referee.state.phase not in ("game_over", "match_over"):
            assert referee.submit(Throw(rng.randint(1, 6), rng.randint(1, 6))).accepted
            play = rng.choice(referee.state.position.plays(*referee.state.dice))
            assert referee.submit(Played(play.position)).accepted
    return referee


def test_long_nardy_export_then_import():
    referee = random_long_nardy_session(7)
    text = write_transcript(session_transcript(referee.profile, referee.events))
    assert '; [Variation "LongNardy"]' in text
    transcript = parse_transcript(text)
    assert transcript.variant.name == "long"
    again = Replay("long").run(transcript)
    assert again.calls == [] and again.state.to_json() == referee.state.to_json()
    assert [e for e in again.events if isinstance(e, Played)] == \
        [e for e in referee.events if isinstance(e, Played)]


@pytest.mark.parametrize("text, line, expected", [
    ("", 1, "'N point match'"),
    ("5 point match\n\n Game 1\n", 4, "the score line"),
    ("5 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5   Doubled\n", 4, "a move like"),
    ("5 point match\n Game 1\n a : 0   b : 0\n  1)  Doubles 2\n", 4, "'Doubles => N'"),
    ("5 point match\n Game 1\n a : 0   b : 0\n  1)  Wins three points\n", 4, "'Wins N point'"),
    ("hello\n", 1, "header tags"),
])
def test_unreadable_transcripts_name_the_line_and_what_was_expected(text, line, expected):
    with pytest.raises(TranscriptError) as caught:
        parse_transcript(text)
    assert caught.value.line == line
    assert expected in str(caught.value) and f"line {line}:" in str(caught.value)


def test_both_dialects_give_the_same_positions():
    """Galaxy's 25/21, 6/0 and four separate steps equal Studio's bar/21, 6/off and (2)."""
    start = Position.start()
    assert start.apply("13/11 13/11 6/4 6/4") == start.apply("13/11(2) 6/4(2)")
    on_bar = Position([0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [1], start.opponent,
                      mover_bar=1)
    assert on_bar.apply("25/21") == on_bar.apply("bar/21")


def test_a_game_joined_in_progress_is_written_with_its_start():
    """A record begun mid-game (a camera that joined it) says where under its score line, and
    reads back to the same game start."""
    from engine.match import GameStart

    referee = Referee(profile("tournament", match_length=7))
    position = Position.start().apply("13/7 8/7").swapped().apply("24/20 13/9")  # Player 1 on roll
    start = GameStart(position, on_roll=0, cube=2, owner=1)
    for event in (NewGame(score=(2, 4), start=start), Throw(5, 2), Played(position.apply("13/8 13/11"))):
        assert referee.submit(event).accepted
    text = write_transcript(session_transcript(referee.profile, referee.events))
    assert f' Player 1 : 2                    Player 2 : 4\n; [Start "{start}"]\n  1) 52: 13/11 13/8\n' in text
    game = parse_transcript(text).games[0]
    assert game.start == start and game.score == (2, 4)
    again = Replay("joined").run(parse_transcript(text))
    assert again.calls == [] and again.state.to_json() == referee.state.to_json()


@pytest.mark.parametrize("start_line, expected", [
    ('; [Start "4HPwATDgc/ABMA:1:4"]', "a game start"),
    ('; [Start "4HPwATDgc/ABMA:1:1:0"]\n; [Start "4HPwATDgc/ABMA:1:1:0"]', "Start tag once"),
])
def test_an_unreadable_game_start_names_its_line(start_line, expected):
    text = f"5 point match\n Game 1\n a : 0   b : 0\n{start_line}\n  1) 31: 8/5 6/5\n"
    with pytest.raises(TranscriptError) as caught:
        parse_transcript(text)
    assert caught.value.line == 4 + start_line.count("\n") and expected in str(caught.value)
