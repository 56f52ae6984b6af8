"""GNU Backgammon's Match ID and GNUbg ID of a match state (RULES 9), bit for bit.

The Match ID packs 66 bits, least significant first, into 9 bytes written in base64
(12 characters): cube log2 (4), cube owner (2: side, or 3 centred), the side on roll (1),
Crawford (1), game state (3: none, playing, over, resigned, dropped), the side to decide
(1), double offered (1), resignation (2), die 1 (3), die 2 (3), match length (15), the two
scores (15 each), and, as the ``gnubg`` package writes it though the manual's table stops at
66 bits, a 67th bit set when the Jacoby rule is off. Side 0 is the transcript's Player 1, which GNU Backgammon calls player 0.

>>> from engine.profiles import profile
>>> from engine.match import MatchState, NewGame, OpeningThrow
>>> s, _ = MatchState.new(profile("tournament", match_length=5)).apply(NewGame())
>>> s, _ = s.apply(OpeningThrow(1, 5))
>>> match_id(s), gnubg_id(s)
('cImmAAAAAAAE', '4HPwATDgc/ABMA:cImmAAAAAAAE')
>>> decode_match_id('cImmAAAAAAAE')["dice"]
(5, 1)
"""

from __future__ import annotations

import base64
import binascii

from engine.errors import EngineError
from engine.match import MatchState

#: (field, bits) in the order GNU Backgammon packs them.
LAYOUT = (("cube_log2", 4), ("owner", 2), ("move", 1), ("crawford", 1), ("game_state", 3),
          ("turn", 1), ("doubled", 1), ("resigned", 2), ("die1", 3), ("die2", 3),
          ("match_length", 15), ("score0", 15), ("score1", 15), ("no_jacoby", 1))
GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
_RESIGN = {"single": 1, "gammon": 2, "backgammon": 3}


class InvalidMatchIDError(EngineError):
    """Text that is not a GNU Backgammon Match ID."""


def match_key(state: MatchState) -> dict:
    """The Match ID's fields for ``state``, as GNU Backgammon sets them.

    While a play stands open (RULES 7.1) GNU Backgammon has already passed the turn: the
    opponent is on roll and no dice are up.
    """
    phase = state.phase
    move = state.on_roll if state.on_roll is not None else 0
    dice = state.dice if phase == "moving" else None
    if phase == "played":
        move = 1 - move
    turn = move
    if phase == "doubled":
        turn = 1 - move  # the taker decides
    resigned = 0
    if state.resignation is not None:
        side, kind = state.resignation
        resigned = _RESIGN[kind]
        turn = 1 - side
    if phase == "ready":
        game_state = GAME_NONE
    elif phase in ("game_over", "match_over"):
        how = state.result.how if state.result else "bear_off"
        game_state = {"drop": GAME_DROP, "resign": GAME_RESIGNED}.get(how, GAME_OVER)
        if state.result:
            move = turn = state.result.winner if how == "bear_off" else move
    else:
        game_state = GAME_PLAYING
    return {
        "cube_log2": state.cube.bit_length() - 1,
        "owner": 3 if state.owner is None else state.owner,
        "move": move, "crawford": int(state.crawford), "game_state": game_state,
        "turn": turn, "doubled": int(phase == "doubled"), "resigned": resigned,
        "die1": dice[0] if dice else 0, "die2": dice[1] if dice else 0,
        "match_length": state.profile.match_length,
        "score0": state.score[0], "score1": state.score[1],
        "no_jacoby": int(not state.profile.jacoby),
    }


def encode_match_id(key: dict) -> str:
    """The 12 characters of a Match ID from its fields."""
    bits, pos = 0, 0
    for name, width in LAYOUT:
        value = int(key[name])
        if not 0 <= value < 1 << width:
            raise InvalidMatchIDError(f"{name} {value} does not fit a Match ID's {width} bits")
        bits |= value << pos
        pos += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


def decode_match_id(text: str) -> dict:
    """The fields of a Match ID; ``dice`` as a pair, too."""
    if len(text) != 12:
        raise InvalidMatchIDError(f"a Match ID has 12 characters, not {len(text)}: {text!r}")
    try:
        bits = int.from_bytes(base64.b64decode(text, validate=True), "little")
    except (binascii.Error, ValueError):
        raise InvalidMatchIDError(f"not a Match ID (base64 letters, digits, + and /): {text!r}") from None
    key, pos = {}, 0
    for name, width in LAYOUT:
        key[name] = (bits >> pos) & ((1 << width) - 1)
        pos += width
    key["dice"] = (key["die1"], key["die2"])
    return key


def match_id(state: MatchState) -> str:
    """GNU Backgammon's Match ID of ``state``."""
    return encode_match_id(match_key(state))


def position_of(state: MatchState):
    """The position as GNU Backgammon holds it: seen from the side its Match ID puts on roll."""
    return None if state.position is None else state.board_of(match_key(state)["move"])


def gnubg_id(state: MatchState) -> str:
    """``PositionID:MatchID``, as GNU Backgammon's ``show gnubgid`` writes it."""
    position = position_of(state)
    if position is None:
        raise EngineError("no position before the first game")
    return f"{position.position_id()}:{match_id(state)}"


def position_ids(state: MatchState) -> dict:
    """The IDs that name ``state``'s position: for backgammon ``gnubg_id`` (:func:`gnubg_id`) and
    ``xgid``, for long nardy its ``position_id``; none before the first game or between games.

    >>> from engine.profiles import profile
    >>> from engine.match import NewGame, OpeningThrow
    >>> s, _ = MatchState.new(profile("tournament", match_length=5)).apply(NewGame())
    >>> position_ids(s.apply(OpeningThrow(5, 1))[0])["gnubg_id"]
    '4HPwATDgc/ABMA:MIGmAAAAAAAE'
    >>> position_ids(MatchState.new(profile("tournament", match_length=5)))
    {}
    """
    position = position_of(state)
    if position is None:
        return {}
    if not state.variant.mirrored:
        return {"position_id": position.position_id()}
    try:
        return {"gnubg_id": gnubg_id(state), "xgid": str(xgid(state))}
    except EngineError:  # between games: no position these IDs describe
        return {}


def xgid(state: MatchState, bottom: int = 1):
    """eXtreme Gammon's XGID of ``state`` (RULES 9), ``bottom`` the side XG draws at the bottom.

    GNU Backgammon reads an XGID's bottom player as its player 1 (our side 1, Player 2), so
    that is the default: then the XGID and the GNUbg ID of a state say the same. The side on
    roll is the one the Match ID puts on roll; a double awaiting its answer is the dice mark
    ``D``, a beaver awaiting a raccoon ``B``.

    >>> from engine.profiles import profile
    >>> from engine.match import NewGame, OpeningThrow
    >>> s, _ = MatchState.new(profile("tournament", match_length=5)).apply(NewGame())
    >>> str(xgid(s.apply(OpeningThrow(1, 5))[0]))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:51:0:0:0:5:6'
    """
    from engine.xgid import XGID

    key = match_key(state)
    position = position_of(state)
    if position is None or not state.variant.mirrored:
        raise EngineError("an XGID is a backgammon position during a game")
    dice = {"doubled": "D", "beavered": "B"}.get(state.phase, state.dice if key["die1"] else None)
    owner = 0 if state.owner is None else (1 if state.owner == bottom else -1)
    return XGID(position, cube_value=state.cube, cube_owner=owner,
                turn=1 if key["move"] == bottom else -1, dice=dice,
                score_bottom=state.score[bottom], score_top=state.score[1 - bottom],
                crawford=state.crawford and state.profile.is_match,
                jacoby=state.profile.jacoby and not state.profile.is_match,
                beaver=state.profile.beaver and not state.profile.is_match,
                match_length=state.profile.match_length, max_cube=state.profile.cube_limit)
