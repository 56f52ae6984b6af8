"""Match ID and GNUbg ID against the ``gnubg`` package (RULES 9, issue 4 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.match import Double
from engine.matchid import (LAYOUT, decode_match_id, encode_match_id, gnubg_id, match_id,
                            match_key, xgid)
from engine.xgid import XGID
from engine.transcript import parse_transcript
from gammoncam.referee import Referee
from gammoncam.replay import Replay

gnubg = pytest.importorskip("gnubg")

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "matches" / "bglab"
MATCHES = ["match10013413.txt", "match9102134.txt",
           "Magic - Lasse 5pt Backgammon Studio 2024_04_22 19_06_30.txt"]


def session(name: str) -> Referee:
    return Replay(name).run(parse_transcript((CORPUS / name).read_text()))


@pytest.mark.parametrize("name", MATCHES)
def test_ids_equal_gnubg_at_every_throw_and_double_of_a_match(name):
    """gnubg imports the file; at each of its records (dice thrown, or a cube decision
    about to be made) its Position ID and Match ID equal ours for the same moment."""
    ours = []
    replay = Referee(session(name).profile)
    for event in session(name).events:
        if isinstance(event, Double):
            ours.append(gnubg_id(replay.state))
        replay.submit(event)
        if replay.state.phase == "moving":
            ours.append(gnubg_id(replay.state))
    gnubg.command(f'import mat "{CORPUS / name}"')
    theirs = []
    for number, game in enumerate(gnubg.match()["games"]):
        gnubg.navigate(game=-1000)
        if number:
            gnubg.navigate(game=number)
        for record in game["game"]:
            if record["action"] in ("move", "double"):
                theirs.append(f"{gnubg.position_id()}:{gnubg.match_id()}")
            gnubg.navigate(next=1)
    assert len(ours) == len(theirs) > 200
    assert ours == theirs


def test_every_state_of_a_match_packs_as_gnubg_packs_it():
    """Doubles offered, games over, dropped and resigned: the same fields give the same
    Match ID from gnubg's own encoder."""
    referee = session("match10013413.txt")
    replay = Referee(referee.profile)
    seen = set()
    for event in referee.events:
        replay.submit(event)
        key = match_key(replay.state)
        if replay.state.phase == "match_over":
            continue  # gnubg's cube_info refuses a score at the match length
        cube = gnubg.cube_info(1 << key["cube_log2"], -1 if key["owner"] == 3 else key["owner"],
                               key["move"], key["match_length"], (key["score0"], key["score1"]),
                               key["crawford"], 0)
        cube["jacoby"] = 1 - key["no_jacoby"]
        pos = gnubg.pos_info(key["turn"], key["resigned"], key["doubled"], key["game_state"],
                             (key["die1"], key["die2"]))
        assert match_id(replay.state) == gnubg.match_id(cube, pos)
        seen.add((key["game_state"], key["doubled"], key["resigned"] > 0))
    assert {(1, 0, False), (1, 1, False), (4, 0, False), (2, 0, False)} <= seen


def test_match_id_round_trip():
    key = {name: (1 << width) - 1 for name, width in LAYOUT}
    assert {k: v for k, v in decode_match_id(encode_match_id(key)).items() if k != "dice"} == key
    assert decode_match_id("cImmAAAAAAAE")["dice"] == (5, 1)


@pytest.mark.parametrize("name", MATCHES[:2])
def test_xgid_read_by_gnubg_gives_our_gnubg_id(name):
    """gnubg reads our XGID of every turn start and throw as the state our GNUbg ID names;
    an XGID with a double offered ("D") it reads as the moment before the offer."""
    referee = session(name)
    replay = Referee(referee.profile)
    checked = 0
    for event in referee.events:
        before = replay.state
        replay.submit(event)
        state = replay.state
        if state.phase in ("turn", "moving", "doubled"):
            text = str(xgid(state))
            assert XGID.parse(text).position == state.position
            gnubg.set_gnubg_id(text)
            moment = before if state.phase == "doubled" else state
            assert f"{gnubg.position_id()}:{gnubg.match_id()}" == gnubg_id(moment)
            checked += 1
    assert checked > 200
