"""Replaying match transcripts through the referee.

A transcript is the record of what happened, so the referee judges each entry and the game
goes on as recorded: an illegal play is called and then stands, since the opponent threw
(RULES 7.2, condoned); an illegal double is called and has no effect on the cube or the
score (RULES 6.4), and its answer is passed over. Oddities of real files (a "16 point match",
"Wins 4016 point", a throw never played) are *warnings* naming file and game, not calls.

After a called play the position no longer follows the record (the record's later plays
were made from the board as it really was), so later trouble with plays in that game is
a warning, not a further call.

>>> from engine.transcript import parse_transcript
>>> t = parse_transcript(open("../shared/fixtures/matches/bglab/match10013413.txt").read())
>>> r = Replay("match10013413.txt")
>>> _ = r.run(t)
>>> r.summary["calls"], r.summary["games"]
(0, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.errors import InvalidPlayError
from engine.match import (IN_GAME, AcceptResignation, Beaver, Double, Drop, EndUnseen, InvalidEventError, NewGame,
                          OpeningThrow, Played, Raccoon, Resign, Take, Throw)
from engine.profiles import Profile, profile as preset
from engine.transcript import Action, GameRecord, Transcript
from engine.variant import LONG_NARDY
from gammoncam.referee import Referee


@dataclass(frozen=True)
class Call:
    """A call in a transcript: file, game (from 1), the transcript's turn number, player 1|2."""

    file: str
    game: int
    turn: int
    player: int
    kind: str
    reason: str

    def to_json(self) -> dict:
        return {"file": self.file, "game": self.game, "turn": self.turn, "player": self.player,
                "kind": self.kind, "reason": self.reason}


@dataclass(frozen=True)
class ReplayWarning:
    file: str
    game: int | None
    line: int | None
    text: str

    def __str__(self) -> str:
        where = self.file + (f" game {self.game}" if self.game else "") + \
            (f" line {self.line}" if self.line else "")
        return f"{where}: {self.text}"


def transcript_profile(transcript: Transcript, name: str | None = None) -> Profile:
    """The rule profile for a transcript: the preset ``name`` (by default tournament for a
    match, money for single games; their long nardy counterparts), with the match length and
    variant of the file and, without ``name``, its Crawford, Jacoby, Beaver and CubeLimit
    tags. Condone is on: the record shows the opponent threw (RULES 7.2)."""
    long = transcript.variant is LONG_NARDY
    is_match = transcript.match_length > 0
    options: dict = {"match_length": transcript.match_length, "variant": transcript.variant.name,
                     "condone": True}
    if name is None:
        name = ("long-nardy-match" if long else "tournament") if is_match else \
            ("online-nardy" if long else "money")
        flags = {"Crawford": "crawford"} if is_match else {"Jacoby": "jacoby", "Beaver": "beaver"}
        for tag, option in flags.items():
            value = transcript.tag(tag)
            if value is not None:
                options[option] = value.strip().lower() == "on"
        limit = transcript.tag("CubeLimit")
        if limit and limit.isdigit() and int(limit) >= 1 and not int(limit) & (int(limit) - 1):
            options["cube_limit"] = int(limit)
    return preset(name, **options)


class Replay:
    """Replays transcripts, collecting calls, warnings and counts. ``listeners`` get each
    :class:`Call` as it is made (the printer, a serial box)."""

    def __init__(self, file: str, listeners: list[Callable[[Call], None]] | None = None):
        self.file = file
        self.listeners = list(listeners or [])
        self.calls: list[Call] = []
        self.warnings: list[ReplayWarning] = []
        self.summary = {"files": 0, "games": 0, "plays": 0, "cube_actions": 0, "calls": 0,
                        "warnings": 0}

    # --- reporting ----------------------------------------------------------------------
    def _call(self, game: GameRecord, action: Action, kind: str, reason: str) -> None:
        call = Call(self.file, game.number, action.number, action.side + 1, kind, reason)
        self.calls.append(call)
        self.summary["calls"] += 1
        for listener in self.listeners:
            listener(call)

    def _warn(self, game: GameRecord | None, text: str, line: int | None = None) -> None:
        self.warnings.append(ReplayWarning(self.file, game.number if game else None, line, text))
        self.summary["warnings"] += 1

    # --- the replay ---------------------------------------------------------------------
    def run(self, transcript: Transcript, profile_name: str | None = None) -> Referee:
        """Replay one transcript; returns the referee with the whole session."""
        profile = transcript_profile(transcript, profile_name)
        self.summary["files"] += 1
        if transcript.match_length > 64:
            self._warn(None, f"a {transcript.match_length} point match")
        for line, what in transcript.quirks:
            self._warn(None, what, line)
        referee = Referee(profile)
        # a record begun after the Crawford game (engine.transcript): its first game is not it
        crawford_played = (transcript.tag("CrawfordPlayed") or "").lower() == "yes"
        for game in transcript.games:
            if referee.state.phase == "match_over":
                self._warn(game, "a game after the match was won", game.line)
                break
            self._game(referee, game, profile, crawford_played and not referee.state.game)
        return referee

    def _game(self, referee: Referee, game: GameRecord, profile: Profile, crawford_played: bool = False) -> None:
        self.summary["games"] += 1
        state = referee.state
        if state.game and tuple(game.score) != state.score:
            self._warn(game, f"the score is {game.score[0]}-{game.score[1]}, counted "
                             f"{state.score[0]}-{state.score[1]}", game.line)
        if profile.is_match and max(game.score) >= profile.match_length:
            self._warn(game, f"a game at {game.score[0]}-{game.score[1]} in a "
                             f"{profile.match_length} point match", game.line)
            return
        if state.phase in IN_GAME:
            # the game before has no result: it ended unseen (a watched session's record of a
            # resignation agreed at the table, or a transcript cut short); its score stands
            referee.submit(EndUnseen())
            self._warn(game, f"game {state.game} has no result: taken as ended unseen", game.line)
        first = next((a.side for a in game.actions if a.kind in ("play", "double")), None)
        long = profile.variant is LONG_NARDY
        try:
            referee.submit(NewGame(first=first if long and first is not None and game.start is None else None,
                                   score=tuple(game.score), crawford_played=crawford_played, start=game.start))
        except InvalidEventError as exc:  # a Start tag no game can have (a Crawford game with the cube turned)
            self._warn(game, f"{exc}; the game is not judged", game.line)
            return
        off_record = False  # a play was called: the board no longer follows the record
        answer_void = False  # the double before was called: its answer is passed over
        for action in game.actions:
            state = referee.state
            if action.kind == "losses":
                continue
            if action.kind == "wins":
                self._result(referee, game, action)
                continue
            if state.phase in ("game_over", "match_over"):
                if not off_record:
                    self._warn(game, f"turn {action.number}: an entry after the game was over", action.line)
                continue
            if action.kind in ("take", "drop", "beaver", "raccoon"):
                self.summary["cube_actions"] += 1
                if answer_void:
                    answer_void = action.kind in ("beaver",)
                    continue
                event = {"take": Take, "drop": Drop, "beaver": Beaver, "raccoon": Raccoon}[action.kind]()
                self._judge(referee, game, action, event, off_record)
                continue
            expected = state.on_roll if state.phase not in ("played", "opening") else \
                (None if state.phase == "opening" else 1 - state.on_roll)
            if expected is not None and action.side != expected:
                self._warn(game, f"turn {action.number}: Player {action.side + 1} acts out of "
                                 f"turn; the rest of the game is not judged", action.line)
                return
            if action.kind == "double":
                self.summary["cube_actions"] += 1
                ruling = self._judge(referee, game, action, Double(), False)
                answer_void = not ruling.accepted
                if ruling.accepted and action.value != referee.state.cube * 2:
                    self._warn(game, f"turn {action.number}: doubles to {action.value}, the cube is "
                                     f"at {referee.state.cube}", action.line)
                continue
            if state.phase == "opening" and action.dice[0] == action.dice[1]:
                self._warn(game, f"turn {action.number}: the opening throw is a double "
                                 f"{action.dice[0]}-{action.dice[1]} (RULES 2.1); the game is not "
                                 f"judged", action.line)
                return
            off_record = self._play(referee, game, action, off_record)

    def _judge(self, referee: Referee, game, action: Action, event, off_record: bool):
        ruling = referee.submit(event)
        if not ruling.accepted:
            if off_record:
                self._warn(game, f"turn {action.number}: {ruling.reason} after a called play", action.line)
            else:
                self._call(game, action, ruling.kind, ruling.reason)
        return ruling

    def _play(self, referee: Referee, game: GameRecord, action: Action, off_record: bool) -> bool:
        """Throw and play one turn; True once the board has left the record."""
        self.summary["plays"] += 1
        state = referee.state
        d1, d2 = action.dice
        if state.phase == "opening":
            # RULES 2.1: the opener's higher die is its own, the lower the opponent's
            high, low = max(d1, d2), min(d1, d2)
            referee.submit(OpeningThrow(high, low) if action.side == 0 else OpeningThrow(low, high))
        else:
            if self._judge(referee, game, action, Throw(d1, d2), off_record).accepted is False:
                return off_record
        if action.play is None:  # "????": thrown, never played
            return off_record
        before = referee.state.position
        try:
            after = before.apply(action.play)
        except InvalidPlayError:
            # a checker moved from where the mover has none: called, and the board stays
            referee.submit(Played(before))
            if off_record:
                self._warn(game, f"turn {action.number}: {action.play!r} moves a checker that is "
                                 f"not there, after a called play", action.line)
            else:
                self._call(game, action, "illegal_play", "no_such_play")
            return True
        ruling = self._judge(referee, game, action, Played(after), off_record)
        return off_record or not ruling.accepted

    @staticmethod
    def _capped(state, points: int, before: int) -> bool:
        """A match-winning game's "Wins" line written as the points needed (Studio) or as
        the winner's final score, the match length (Galaxy)."""
        length = state.profile.match_length
        return state.profile.is_match and points in (length - before, length)

    def _result(self, referee: Referee, game: GameRecord, action: Action) -> None:
        """Check a "Wins N point" line against the result computed, or record a resignation."""
        state = referee.state
        winner, points = action.side, action.value
        if state.phase in ("game_over", "match_over") and state.game == game.number:
            result = state.result
            if result is None or result.winner != winner:
                self._warn(game, f"Player {winner + 1} wins, computed: Player "
                                 f"{result.winner + 1 if result else '?'}", action.line)
                return
            before = state.score[winner] - result.points
            if points != result.points and not self._capped(state, points, before):
                self._warn(game, f"Wins {points} point, computed {result.points} "
                                 f"({result.kind} x cube {state.cube})", action.line)
            return
        if state.phase not in IN_GAME + ("opening",):
            self._warn(game, f"Wins {points} point with no game in progress", action.line)
            return
        # the game ended before its last position was finished: resigned (RULES 4.4)
        kinds = list(state.variant.result_values)
        kind = next((k for k in kinds if state.game_points(k) >= points), None)
        if kind is None:
            self._warn(game, f"Wins {points} point: more than {state.game_points(kinds[-1])}, the "
                             f"most a game can score with the cube at {state.cube}", action.line)
            kind = kinds[-1]
        elif state.game_points(kind) != points and not self._capped(state, points, state.score[winner]):
            self._warn(game, f"Wins {points} point: a resignation scores a multiple of the "
                             f"cube ({state.cube})", action.line)
        referee.submit(Resign(1 - winner, kind))
        referee.submit(AcceptResignation())

