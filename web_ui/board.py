"""Helpers that build the page's state (SCHEMA.md) from engine types.

The referee session may use them, and :mod:`web_ui.demo_feed` does. Player 1 is the light side
drawn at the bottom; ``board.points`` is in player 1's numbering (index 0 = its point 1).

>>> from engine import Position
>>> b = board_state(Position.start(), on_roll=1)
>>> b["points"][5], b["points"][18], b["off"]
([1, 5], [2, 5], {'1': 0, '2': 0})
>>> pip_counts(Position.start().apply("24/18 13/11"), on_roll=1)
{'1': 159, '2': 167}
"""

from __future__ import annotations

from engine import Position
from engine.transcript import Action, GameRecord, Transcript, write_transcript

#: The rule profiles (RULES 8) and whether each allows aids such as pip counts on the page.
PROFILES = {
    "tournament": {"label": "Tournament backgammon", "aids": False},
    "money": {"label": "Money backgammon", "aids": True},
    "online_nardy": {"label": "Online nardy", "aids": True},
    "long_nardy_match": {"label": "Long nardy match", "aids": False},
}


def player_sides(position: Position, on_roll: int) -> tuple[tuple, tuple, int, int]:
    """``(player 1's counts, player 2's counts, bar 1, bar 2)``, each in its own numbering.

    ``position`` is seen from the side to move, which is player ``on_roll``.
    """
    if on_roll == 1:
        return position.mover, position.opponent, position.mover_bar, position.opponent_bar
    return position.opponent, position.mover, position.opponent_bar, position.mover_bar


def board_state(position: Position, on_roll: int) -> dict:
    """The state's ``board``: 24 ``[owner, count]`` in player 1's numbering, bars and trays."""
    if on_roll not in (1, 2):
        raise ValueError("on_roll is 1 or 2")
    p1, p2, bar1, bar2 = player_sides(position, on_roll)
    variant = position.variant
    points = []
    for point in range(1, 25):
        mine = p1[point - 1]
        theirs = p2[variant.opponent_point(point) - 1]
        if mine:
            points.append([1, mine])
        elif theirs:
            points.append([2, theirs])
        else:
            points.append([None, 0])
    return {
        "points": points,
        "bar": {"1": bar1, "2": bar2},
        "off": {"1": 15 - sum(p1) - bar1, "2": 15 - sum(p2) - bar2},
    }


def pip_counts(position: Position, on_roll: int) -> dict:
    """Pips each player still has to travel (:meth:`engine.Position.pip_counts`), ``position``
    seen from player ``on_roll``."""
    mover, opponent = position.pip_counts()
    return {"1": mover, "2": opponent} if on_roll == 1 else {"1": opponent, "2": mover}


def page_pips(position: Position, on_roll: int, profile: str) -> dict | None:
    """The state's ``pips``: :func:`pip_counts`, or None where ``profile`` allows no aids (a
    tournament's players may not be shown them)."""
    return pip_counts(position, on_roll) if PROFILES.get(profile, {}).get("aids", False) else None


def crawford_flag(match_length: int, crawford_now: bool, crawford_played: bool) -> str | None:
    """``pre``, ``crawford`` or ``post`` in a match (RULES 6.2); None in money play.

    >>> crawford_flag(7, False, True), crawford_flag(0, False, False)
    ('post', None)
    """
    if not match_length:
        return None
    return "crawford" if crawford_now else "post" if crawford_played else "pre"


def empty_state(variant: str = "backgammon", *, profile: str = "tournament",
                players=("Player 1", "Player 2"), match_length: int = 7) -> dict:
    """A state before the first throw of a match, with the start position on the board."""
    start = Position.start(variant)
    return {
        "variant": variant, "profile": profile, "mode": "monitor",
        "players": {"1": players[0], "2": players[1]},
        "match_length": match_length, "score": {"1": 0, "2": 0},
        "crawford": crawford_flag(match_length, False, False),
        "game": 1, "turn": 0, "on_roll": None, "dice": [],
        "cube": {"value": 1, "owner": None, "offered": False},
        "board": board_state(start, on_roll=1), "pips": page_pips(start, 1, profile),
        "plays": [], "call": None, "calls": [], "ids": {"gnubg": None, "xgid": None},
    }


def transcript_from_state(state: dict, results: dict | None = None) -> str:
    """A JellyFish-style (.mat) transcript of the plays in ``state`` (RULES 9), written by the
    engine's :func:`engine.transcript.write_transcript`, so it reads back with
    :func:`engine.transcript.parse_transcript`.

    The wiring normally supplies the referee session's own transcript (``feed.transcript``);
    this is the page's fallback, with the plays only (no cube actions). ``results`` maps a
    game number to ``{"score": {"1": a, "2": b}, "winner": 1|2, "points": n}`` when known.

    >>> state = {"players": {"1": "Ann", "2": "Bob"}, "match_length": 3, "plays": [
    ...     {"game": 1, "turn": 1, "player": 1, "dice": [3, 1], "play": "8/5 6/5"},
    ...     {"game": 1, "turn": 1, "player": 2, "dice": [6, 6], "play": ""}]}
    >>> print(transcript_from_state(state).splitlines()[-1])
      1) 31: 8/5 6/5                 66:
    """
    results = results or {}
    players = state.get("players") or {}
    names = (players.get("1") or "Player 1", players.get("2") or "Player 2")
    length = state.get("match_length") or 0
    by_game: dict[int, list[Action]] = {}
    for play in state.get("plays") or []:
        dice = play.get("dice") or []
        by_game.setdefault(int(play.get("game", 1)), []).append(Action(
            int(play.get("turn", 0)), 1 if play.get("player") == 2 else 0, "play",
            tuple(dice) if len(dice) == 2 else None, play.get("play") or ""))
    games = []
    for number in sorted(set(by_game) | set(results)):
        actions, result = by_game.get(number, []), results.get(number, {})
        score = result.get("score", {"1": 0, "2": 0})
        if result.get("winner"):
            side, points = result["winner"] - 1, result["points"]
            last = actions[-1] if actions else None
            # the winner's entry follows the last: on its line when that line's column is free
            line = 1 if last is None else last.number + (side <= last.side)
            actions = actions + [Action(line, side, "wins", value=points,
                                        match=bool(length) and score[str(side + 1)] + points >= length)]
        games.append(GameRecord(number, (score["1"], score["2"]), tuple(actions)))
    variation = "LongNardy" if state.get("variant") == "long" else "Backgammon"
    return write_transcript(Transcript((("Variation", variation),), length, tuple(games), names))
