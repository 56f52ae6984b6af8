"""The match around the plays: score, cube, Crawford, turns and results (RULES 2, 4-7).

:class:`MatchState` is a value; :meth:`MatchState.apply` takes one event and returns the next
state with a :class:`Ruling`: accepted, or a *call* whose reason is one of :data:`CALLS`.
Nothing here does I/O; the referee session (``gammoncam.referee``) logs and wires it.

Sides are 0 and 1 (a transcript's Player 1 and Player 2). The position is always seen from
the side on roll (RULES 1); a play is given as the position after it, seen from the same side
(RULES 9).

>>> from engine.profiles import profile
>>> s = MatchState.new(profile("tournament", match_length=5))
>>> s, r = s.apply(NewGame())
>>> s, r = s.apply(OpeningThrow(3, 1))         # Player 1 throws 3, Player 2 throws 1
>>> s.on_roll, s.dice
(0, (3, 1))
>>> s, r = s.apply(Played(s.position.apply("8/5 6/5")))
>>> r.accepted, r.play
(True, '8/5 6/5')
>>> s, r = s.apply(Double())                   # Player 2 doubles before throwing
>>> s, r = s.apply(Take())
>>> s.cube, s.owner
(2, 0)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.errors import EngineError
from engine.position import Position
from engine.profiles import Profile
from engine.reasons import REASONS, SECTION


class InvalidEventError(EngineError):
    """An event that cannot be read or describes nothing a game has (bad input, not a call)."""


# --- calls --------------------------------------------------------------------------------
#: The referee's modes (RULES 7.3): it calls (light, buzzer, page), or it only logs.
MODES = ("monitor", "silent")

#: reason -> (kind, RULES section, sentence). The closed set of everything the referee calls.
_CALL_TABLE: dict[str, tuple[str, str, str]] = {
    **{code: ("illegal_play", SECTION[code], sentence) for code, sentence in REASONS.items()},
    "not_corrected": ("illegal_play", "7.2",
                      "The opponent threw or doubled before the illegal play was put right."),
    "position_invalid": ("illegal_play", "1",
                         "The position before this play is one no game can have (an illegal play "
                         "stood), so the play cannot be judged."),
    "crawford_game": ("illegal_double", "6.2", "No doubling in the Crawford game."),
    "dead_cube": ("illegal_double", "6.3",
                  "The cube is dead for this side: winning at the current value already wins the match."),
    "not_cube_owner": ("illegal_double", "5.2", "Only the cube's owner may redouble."),
    "after_throw": ("illegal_double", "5.2", "A double comes before the throw, not after it."),
    "first_throw_forbidden": ("illegal_double", "5.5", "No double on the very first throw."),
    "balance_too_small": ("illegal_double", "8", "The balance is too small to double."),
    "cube_limit": ("illegal_double", "5.8", "The cube is already at its limit."),
    "beaver_not_allowed": ("illegal_double", "5.4", "Beavers are not played under this profile."),
    "raccoon_not_allowed": ("illegal_double", "5.4", "Raccoons are not played under this profile."),
    "invalid_throw": ("reroll", "2.3",
                      "The dice did not both come to rest flat in the right half: throw again."),
    "no_game": ("out_of_turn", "4.1", "No game is in progress."),
    "not_thrown": ("out_of_turn", "7.1", "Checkers moved before the dice were thrown."),
    "already_thrown": ("out_of_turn", "7.1", "The dice were thrown twice in one turn."),
    "no_double_offered": ("out_of_turn", "5.3", "No double is waiting for an answer."),
    "double_pending": ("out_of_turn", "5.3", "A double is waiting for take or drop."),
    "no_resignation": ("out_of_turn", "4.4", "No resignation is offered."),
    "game_in_progress": ("out_of_turn", "4.1", "The game is not over yet."),
    "opening_not_thrown": ("out_of_turn", "2.1", "The opening throw decides who starts."),
    "match_over": ("out_of_turn", "6.1", "The match is over."),
}
#: reason -> kind of call (``illegal_play``, ``illegal_double``, ``reroll``, ``out_of_turn``)
CALLS: dict[str, str] = {reason: kind for reason, (kind, _, _) in _CALL_TABLE.items()}
#: reason -> the RULES section it enforces
CALL_SECTION: dict[str, str] = {reason: section for reason, (_, section, _) in _CALL_TABLE.items()}
#: reason -> a sentence a player understands
CALL_TEXT: dict[str, str] = {reason: text for reason, (_, _, text) in _CALL_TABLE.items()}


@dataclass(frozen=True)
class Ruling:
    """The referee's answer to one event: accepted, or a call with its reason.

    ``play`` is the notation of an accepted play; ``note`` says what else happened (an opening
    tie, an automatic double, a game that ended).
    """

    accepted: bool = True
    reason: str | None = None
    play: str | None = None
    note: str | None = None

    @property
    def kind(self) -> str | None:
        return CALLS[self.reason] if self.reason else None

    @property
    def text(self) -> str | None:
        return CALL_TEXT[self.reason] if self.reason else None

    def to_json(self) -> dict:
        out = {"accepted": self.accepted}
        if self.reason:
            out.update(kind=self.kind, reason=self.reason)
        if self.play is not None:
            out["play"] = self.play
        if self.note:
            out["note"] = self.note
        return out

    @classmethod
    def call(cls, reason: str, note: str | None = None) -> "Ruling":
        assert reason in CALLS, reason
        return cls(False, reason, note=note)


# --- events -------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameStart:
    """Where a game joined in progress stands when its record begins: the checkers (seen from
    the side on roll, RULES 9), the side on roll (about to throw or double), the cube's value
    and its owner (None: centred). Its text, the transcript's ``Start`` tag, is
    ``<position ID>:<on roll 1|2>:<cube>:<owner 0|1|2>`` (owner 0: centred).

    >>> start = GameStart.parse("4HPwATDgc/ABMA:2:2:1")
    >>> start.on_roll, start.cube, start.owner, start.position == Position.start()
    (1, 2, 0, True)
    >>> str(start)
    '4HPwATDgc/ABMA:2:2:1'
    """

    position: Position
    on_roll: int
    cube: int = 1
    owner: int | None = None

    @classmethod
    def parse(cls, text: str, variant=None) -> "GameStart":
        """From the tag's text; :class:`InvalidEventError` names what is wrong."""
        parts = str(text).strip().rsplit(":", 3)  # a long nardy ID has a colon of its own
        if len(parts) != 4 or not all(p.strip().isdigit() for p in parts[1:]):
            raise InvalidEventError(f"a game start is '<position ID>:<on roll 1|2>:<cube>:<owner 0|1|2>', "
                                    f"not {text!r}")
        on_roll, cube, owner = (int(p) for p in parts[1:])
        if on_roll not in (1, 2) or owner not in (0, 1, 2):
            raise InvalidEventError(f"a game start names Player 1 or 2 on roll and owner 0, 1 or 2, not {text!r}")
        try:
            position = Position.parse(parts[0], variant)
        except EngineError as exc:
            raise InvalidEventError(f"a game start's position: {exc}") from None
        return cls(position, on_roll - 1, cube, None if owner == 0 else owner - 1)

    def __str__(self) -> str:
        owner = 0 if self.owner is None else self.owner + 1
        return f"{self.position.position_id()}:{self.on_roll + 1}:{self.cube}:{owner}"

    def to_json(self) -> dict:
        return {"position": self.position.to_json(), "on_roll": self.on_roll, "cube": self.cube,
                "owner": self.owner}

    @classmethod
    def from_json(cls, data: dict) -> "GameStart":
        return cls(Position.from_json(data["position"]), data["on_roll"], data.get("cube", 1), data.get("owner"))

    def problem(self, profile: Profile, crawford: bool) -> str | None:
        """Why no game of ``profile`` can stand like this, or None."""
        if self.position.variant is not profile.variant:
            return f"a {self.position.variant.name} position in a {profile.variant.name} game"
        if self.position.problem():
            return self.position.problem()
        if self.position.game_result():
            return "that game is over: a side has borne off all its checkers"
        if self.on_roll not in (0, 1) or self.owner not in (None, 0, 1):
            return "a side is 0 or 1"
        cube = self.cube
        if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 or cube & (cube - 1) \
                or cube > profile.cube_limit:
            return f"the cube shows a power of two up to {profile.cube_limit}, not {cube!r} (RULES 5.1)"
        if cube == 1 and self.owner is not None:
            return "nobody owns the cube before it is turned (RULES 5.1)"
        if crawford and (cube > 1 or self.owner is not None):
            return "the cube is not turned in the Crawford game (RULES 6.2)"
        return None


@dataclass(frozen=True)
class NewGame:
    """Start the next game. ``first``: the side that begins, when it is known without an
    opening throw (long nardy, RULES 2.2). ``score``: the score as a record states it, which
    then replaces the one counted here. ``crawford_played``: the match's Crawford game was
    played before this record began (an official who starts watching a match in progress at
    N - 1 says whether it was, RULES 6.2; a record that starts at game 1 never needs it).
    ``start``: a game joined in progress (a camera that came in mid-game): it begins there,
    the side on roll to throw or double, not with the opening throw."""

    first: int | None = None
    score: tuple[int, int] | None = None
    crawford_played: bool = False
    start: GameStart | None = None


@dataclass(frozen=True)
class OpeningThrow:
    """Each side throws one die (RULES 2.1, 2.2): Player 1's die, Player 2's die."""

    die1: int
    die2: int


@dataclass(frozen=True)
class Throw:
    """The side on roll (or the opponent, ending the turn before) throws both dice.
    ``valid`` is False for a cocked die or a die in the wrong half (RULES 2.3)."""

    die1: int
    die2: int
    valid: bool = True


@dataclass(frozen=True)
class Played:
    """The checkers after the play, seen from the side that played (RULES 9)."""

    position: Position


@dataclass(frozen=True)
class DiceCorrected:
    """The throw in play was recorded wrong: its dice showed ``die1``-``die2`` (a die misread by
    a camera or a scorer, found out when the checkers were put right to a play of the dice
    really thrown). A play already on the board is judged again against the dice as corrected
    (RULES 7.2): a call if it was illegal for them, unless it was called already (its correction
    is then awaited against the dice as corrected).

    >>> from engine.profiles import profile
    >>> s, _ = MatchState.new(profile("money")).apply(NewGame())
    >>> s, _ = s.apply(OpeningThrow(6, 2))
    >>> s, r = s.apply(Played(s.position.apply("13/7 8/6")))   # 6-2's play...
    >>> s, r = s.apply(DiceCorrected(5, 2))                     # ...but a 5-2 was thrown
    >>> r.reason, s.dice
    ('no_such_play', (5, 2))
    """

    die1: int
    die2: int


@dataclass(frozen=True)
class Double:
    """The side on roll (or its opponent, starting its own turn) turns the cube. ``thrown``: the
    doubler's throw lies on the board already, seen but not yet recorded (a camera holding a
    throw whose roll it cannot read surely until the play tells it): a double after the throw
    (RULES 5.2) all the same."""

    thrown: bool = False


@dataclass(frozen=True)
class CubeUnseen:
    """A double and its take the record did not see, stated by an official while the game goes
    on (the cube turned under a hand, or its face unread in a dim room): side ``doubler``
    doubled and the other side took, so the cube stands at twice its value at the taker's side
    (RULES 5.3). When it happened is not known, so a double after the throw (5.2) cannot be
    told; any other double the rules forbid is called and leaves the cube as it was (5.2, 5.5,
    5.8, 6.2-6.4).

    >>> from engine.profiles import profile
    >>> state = MatchState.new(profile("tournament", match_length=5))
    >>> for event in (NewGame(), OpeningThrow(3, 1), CubeUnseen(doubler=1)):
    ...     state, ruling = state.apply(event)
    >>> state.cube, state.owner, state.phase, ruling.accepted   # light took: light owns the cube at 2
    (2, 0, 'moving', True)
    >>> state.apply(CubeUnseen(doubler=1))[1].reason   # dark no longer owns it
    'not_cube_owner'
    """

    doubler: int


@dataclass(frozen=True)
class Take:
    pass


@dataclass(frozen=True)
class Drop:
    pass


@dataclass(frozen=True)
class Beaver:
    """The taker redoubles at once and keeps the cube (RULES 5.4)."""


@dataclass(frozen=True)
class Raccoon:
    """The doubler redoubles a beaver at once (RULES 5.4)."""


@dataclass(frozen=True)
class Resign:
    """``side`` offers to lose the game as a single, gammon or backgammon (RULES 4.4)."""

    side: int
    kind: str = "single"


@dataclass(frozen=True)
class AcceptResignation:
    pass


@dataclass(frozen=True)
class RejectResignation:
    pass


@dataclass(frozen=True)
class EndUnseen:
    """The board was set up for the next game while this one was in progress: it ended in a way
    the record did not see (a resignation agreed across the table, RULES 4.4; a double dropped
    out of the camera's sight). Its result is not known, so none is recorded and the score
    stands, unless an official states it: ``winner`` (a side) won ``points`` (as scored, the
    cube's value included), which count as any result does (RULES 6.1-6.3: the score, the
    Crawford game, a dead cube).

    >>> from engine.profiles import profile
    >>> state = MatchState.new(profile("tournament", match_length=5))
    >>> for event in (NewGame(), OpeningThrow(3, 1), EndUnseen(winner=1, points=4), NewGame()):
    ...     state, _ = state.apply(event)
    >>> state.score, state.crawford  # 0-4 in a 5 point match: the Crawford game (RULES 6.2)
    ((0, 4), True)
    """

    winner: int | None = None
    points: int | None = None


Event = (NewGame | OpeningThrow | Throw | DiceCorrected | Played | Double | CubeUnseen | Take | Drop | Beaver
         | Raccoon | Resign | AcceptResignation | RejectResignation | EndUnseen)

_EVENT_NAMES = {
    NewGame: "new_game", OpeningThrow: "opening_throw", Throw: "throw", DiceCorrected: "dice_corrected",
    Played: "play", Double: "double", CubeUnseen: "cube_unseen", Take: "take", Drop: "drop", Beaver: "beaver",
    Raccoon: "raccoon", Resign: "resign", AcceptResignation: "accept_resignation",
    RejectResignation: "reject_resignation", EndUnseen: "end_unseen",
}
_EVENT_TYPES = {name: cls for cls, name in _EVENT_NAMES.items()}


def event_to_json(event) -> dict:
    """A JSON object for an event (the referee's log stores these).

    >>> event_to_json(Throw(6, 5))
    {'event': 'throw', 'die1': 6, 'die2': 5, 'valid': True}
    """
    out = {"event": _EVENT_NAMES[type(event)]}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if isinstance(value, (Position, GameStart)):
            value = value.to_json()
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


def event_from_json(data: dict):
    """The event of :func:`event_to_json`; :class:`InvalidEventError` for anything else."""
    try:
        cls = _EVENT_TYPES[data["event"]]
        fields = {k: v for k, v in data.items() if k != "event"}
        if cls is Played:
            fields["position"] = Position.from_json(fields["position"])
        if cls is NewGame and fields.get("score") is not None:
            fields["score"] = tuple(fields["score"])
        if cls is NewGame and fields.get("start") is not None:
            fields["start"] = GameStart.from_json(fields["start"])
        return cls(**fields)
    except (KeyError, TypeError, AttributeError, EngineError) as exc:
        raise InvalidEventError(f"not an event: {data!r} ({exc})") from None


# --- results ------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winning side, the kind of win, and the points it scored
    (value x cube, after the Jacoby rule; RULES 4.5). ``how``: bear_off, drop, resign, or stated
    (an official's word on a game whose end the record did not see, :class:`EndUnseen`)."""

    winner: int
    kind: str
    points: int
    how: str

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


# --- the state ----------------------------------------------------------------------------
#: Phases of a game: before the first game, awaiting the opening throw, the start of a turn
#: (cube action or throw), a double awaiting its answer, a beaver awaiting a raccoon or the
#: throw, dice thrown (awaiting the play), a play made (the turn ends when the opponent acts,
#: RULES 7.1), the game over, the match over.
PHASES = ("ready", "opening", "turn", "doubled", "beavered", "moving", "played", "game_over",
          "match_over")
#: The phases of a game in progress, its opening throw made.
IN_GAME = ("turn", "doubled", "beavered", "moving", "played")


def dead_cube(score: int, cube: int, match_length: int) -> bool:
    """Whether a double by a side at ``score`` would be on a dead cube (RULES 6.3): winning at
    the cube's value already wins the match. Never in money play (``match_length`` 0).

    >>> dead_cube(5, 2, 7), dead_cube(4, 2, 7), dead_cube(40, 64, 0)
    (True, False, False)
    """
    return match_length > 0 and score + cube >= match_length


def crawford_game(score: tuple[int, int], match_length: int, played: bool) -> bool:
    """Whether a game begun at ``score`` is the Crawford game (RULES 6.2): the first after a
    side first reaches N - 1, unless the match's Crawford game was ``played`` already.

    >>> crawford_game((4, 2), 5, False), crawford_game((4, 3), 5, True), crawford_game((3, 2), 5, False)
    (True, False, False)
    """
    return match_length > 0 and not played and max(score) == match_length - 1


@dataclass(frozen=True)
class MatchState:
    """Everything the referee remembers between events."""

    profile: Profile
    phase: str = "ready"
    game: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    owner: int | None = None
    crawford: bool = False
    crawford_done: bool = False
    on_roll: int | None = None
    position: Position | None = None
    before: Position | None = None  # the position before the play, while the turn is open
    dice: tuple[int, int] | None = None
    pending: str | None = None  # the reason of an illegal play awaiting correction (7.2)
    throws: int = 0  # valid throws of both dice this game (5.5)
    auto_doubles: int = 0  # automatic doubles this game (5.6)
    cube_turned: bool = False  # a double was taken this game (5.7)
    resignation: tuple[int, str] | None = None
    result: GameResult | None = None  # of the game just over
    ledger: tuple[int, int] = (0, 0)  # money won (+) and lost (-), stake x value x cube

    @classmethod
    def new(cls, profile: Profile) -> "MatchState":
        return cls(profile)

    # --- reading ----------------------------------------------------------------------
    @property
    def variant(self):
        return self.profile.variant

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game (RULES 6.2): doubling is allowed again."""
        return self.profile.is_match and self.crawford_done and not self.crawford

    @property
    def match_winner(self) -> int | None:
        if not self.profile.is_match:
            return None
        for side in (0, 1):
            if self.score[side] >= self.profile.match_length:
                return side
        return None

    def board_of(self, side: int) -> Position | None:
        """The position seen from ``side``."""
        if self.position is None:
            return None
        return self.position if side == self._viewer else self.position.swapped()

    @property
    def _viewer(self) -> int:
        return self.on_roll if self.on_roll is not None else 0

    def pip_counts(self) -> tuple[int, int] | None:
        """Pips of Player 1 and Player 2."""
        if self.position is None:
            return None
        mine, theirs = self.position.pip_counts()
        return (mine, theirs) if self._viewer == 0 else (theirs, mine)

    def dead_cube(self, side: int) -> bool:
        """Would a double by ``side`` be on a dead cube (RULES 6.3)?"""
        return dead_cube(self.score[side], self.cube, self.profile.match_length)

    def balance(self, side: int) -> int | None:
        """Money ``side`` has, in stakes (RULES 8, online nardy); None when not tracked."""
        if self.profile.balance is None:
            return None
        return self.profile.balance + self.ledger[side] // self.profile.stake

    def to_json(self) -> dict:
        """Everything, for logs, tests and the web page."""
        return {
            "phase": self.phase, "game": self.game, "score": list(self.score),
            "cube": self.cube, "owner": self.owner, "crawford": self.crawford,
            "post_crawford": self.post_crawford, "on_roll": self.on_roll,
            "position": self.position.to_json() if self.position else None,
            "before": self.before.to_json() if self.before else None,
            "dice": list(self.dice) if self.dice else None, "pending": self.pending,
            "pip_counts": list(self.pip_counts()) if self.position else None,
            "throws": self.throws, "auto_doubles": self.auto_doubles,
            "cube_turned": self.cube_turned,
            "resignation": list(self.resignation) if self.resignation else None,
            "result": self.result.to_json() if self.result else None,
            "match_winner": self.match_winner, "ledger": list(self.ledger),
        }

    # --- the one transition -----------------------------------------------------------
    def apply(self, event) -> tuple["MatchState", Ruling]:
        """The state after ``event`` and the ruling on it. A called event changes nothing,
        except that an opponent's action ends the turn before it (RULES 7.1)."""
        handler = getattr(self, "_on_" + _EVENT_NAMES.get(type(event), "unknown"), None)
        if handler is None:
            raise InvalidEventError(f"not an event: {event!r}")
        if self.phase == "match_over":
            return self, Ruling.call("match_over")
        return handler(event)

    def _with(self, **changes) -> "MatchState":
        # dataclasses.replace re-runs __init__ for every event; a copy of the fields is
        # the same value, five times faster on the replay's hot path
        state = object.__new__(MatchState)
        state.__dict__.update(self.__dict__, **changes)
        return state

    # --- games ------------------------------------------------------------------------
    def _on_new_game(self, event: NewGame):
        if self.phase not in ("ready", "game_over"):
            return self, Ruling.call("game_in_progress")
        score = tuple(event.score) if event.score is not None else self.score
        if len(score) != 2 or any(not isinstance(x, int) or x < 0 for x in score):
            raise InvalidEventError(f"a score is two counts, not {event.score!r}")
        profile = self.profile
        # RULES 6.2: the first game after a side first reaches N - 1 is the Crawford game
        done = self.crawford_done or bool(event.crawford_played)
        crawford = profile.crawford and crawford_game(score, profile.match_length, done)
        state = self._with(
            game=self.game + 1, score=score, cube=1, owner=None, crawford=crawford,
            crawford_done=done or crawford, position=Position.start(self.variant),
            before=None, dice=None, pending=None, throws=0, auto_doubles=0, cube_turned=False,
            resignation=None, result=None, on_roll=None, phase="opening")
        if state.match_winner is not None:
            return self, Ruling.call("match_over")
        if event.start is not None:
            return state._joined(event), Ruling()
        first = event.first
        if first is None and self.variant.name == "long" and self.result is not None:
            first = self.result.winner  # RULES 2.2: the winner of the last game starts
        if first is not None:
            if first not in (0, 1):
                raise InvalidEventError(f"a side is 0 or 1, not {first!r}")
            if self.variant.name != "long":
                raise InvalidEventError("a backgammon game starts with the opening throw (RULES 2.1)")
            state = state._with(on_roll=first, phase="turn")
        return state, Ruling()

    def _joined(self, event: NewGame) -> "MatchState":
        """The game of ``event.start``, joined in progress: its opening is behind it (RULES 5.5)."""
        start = event.start
        if event.first is not None:
            raise InvalidEventError("a game joined in progress names its side on roll in its start, not first")
        problem = start.problem(self.profile, self.crawford)
        if problem:
            raise InvalidEventError(f"a game cannot start there: {problem}")
        return self._with(position=start.position, on_roll=start.on_roll, cube=start.cube, owner=start.owner,
                          cube_turned=start.owner is not None, throws=2, phase="turn")

    def _on_opening_throw(self, event: OpeningThrow):
        if self.phase != "opening":
            return self, Ruling.call("no_game" if self.phase in ("ready", "game_over") else "already_thrown")
        d1, d2 = _dice(event.die1, event.die2)
        if d1 == d2:
            # RULES 2.1 throw again; 5.6 automatic doubles turn the cube, which stays centred
            if (self.auto_doubles < self.profile.auto_doubles
                    and self.cube * 2 <= self.profile.cube_limit):
                return (self._with(cube=self.cube * 2, auto_doubles=self.auto_doubles + 1),
                        Ruling(note=f"tie: automatic double to {self.cube * 2}; throw again"))
            return self, Ruling(note="tie: throw again")
        first = 0 if d1 > d2 else 1
        if self.variant.name == "long":
            # RULES 2.2: the winner then throws both dice for its first move
            return self._with(on_roll=first, phase="turn"), Ruling()
        # RULES 2.1: the higher die moves first, playing both numbers (its own die first)
        return self._with(on_roll=first, phase="moving", dice=(max(d1, d2), min(d1, d2)),
                          throws=1), Ruling()

    # --- turns ------------------------------------------------------------------------
    def _end_turn(self) -> tuple["MatchState", Ruling | None]:
        """The opponent acts: the play made stands (RULES 7.1, 7.2) and the turn passes.
        A call instead while an illegal play awaits correction and condoning is off."""
        if self.pending and not self.profile.condone:
            return self, Ruling.call("not_corrected")
        return self._with(on_roll=1 - self.on_roll, position=self.position.swapped(), before=None,
                          dice=None, pending=None, phase="turn"), None

    def _on_throw(self, event: Throw):
        d1, d2 = _dice(event.die1, event.die2)
        if self.phase in ("ready", "game_over"):
            return self, Ruling.call("no_game")
        if self.phase == "opening":
            return self, Ruling.call("opening_not_thrown")
        if self.phase == "doubled":
            return self, Ruling.call("double_pending")
        if self.phase == "moving":
            if not event.valid:
                return self._void_throw(), Ruling.call("invalid_throw")
            return self, Ruling.call("already_thrown")
        if not event.valid:
            return self, Ruling.call("invalid_throw")  # RULES 2.3: nothing changes
        state = self
        if self.phase == "played":
            state, call = self._end_turn()
            if call:
                return self, call
        return state._with(dice=(d1, d2), phase="moving", throws=state.throws + 1), Ruling()

    def _void_throw(self) -> "MatchState":
        """The throw being played did not count after all (RULES 2.3: a die cocked that was taken
        for flat until the players picked the dice up unplayed): the turn is as before it, the
        opening's throw to be made again."""
        if self.throws == 1 and self.variant.name == "backgammon":
            return self._with(on_roll=None, dice=None, throws=0, phase="opening")
        return self._with(dice=None, throws=self.throws - 1, phase="turn")

    def _on_play(self, event: Played):
        if self.phase in ("ready", "game_over", "opening"):
            return self, Ruling.call("no_game" if self.phase != "opening" else "opening_not_thrown")
        if self.phase in ("doubled", "beavered", "turn"):
            return self, Ruling.call("double_pending" if self.phase == "doubled" else "not_thrown")
        after = event.position
        if after.variant is not self.variant:
            raise InvalidEventError(f"a {after.variant.name} position in a {self.variant.name} game")
        # A play in phase "played" rearranges the checkers again: judged from the same start.
        before = self.before if self.phase == "played" else self.position
        ruling = _judged(before, self.dice, after)
        state = self._with(before=before, position=after, phase="played",
                           pending=None if ruling.accepted else ruling.reason)
        finished = after.game_result()
        if finished and finished[0] == "mover" and (ruling.accepted or self.profile.condone):
            state = state._with(pending=None)._end_game(self.on_roll, finished[1], "bear_off")
            ruling = dataclasses.replace(ruling, note=f"game over: {state.result.kind}")
        return state, ruling

    def _on_dice_corrected(self, event: DiceCorrected):
        dice = _dice(event.die1, event.die2)
        if self.phase not in ("moving", "played"):
            raise InvalidEventError("no throw is in play to correct")
        if self.phase == "moving":
            return self._with(dice=dice), Ruling()
        ruling = _judged(self.before, dice, self.position)
        if self.pending and not ruling.accepted:
            return self._with(dice=dice, pending=ruling.reason), Ruling()  # called already: not twice
        return self._with(dice=dice, pending=None if ruling.accepted else ruling.reason), ruling

    # --- the cube ---------------------------------------------------------------------
    def _double_call(self, side: int) -> str | None:
        """Why ``side`` may not double now, or None (RULES 5.2, 5.5, 5.8, 6.2, 6.3, 8)."""
        profile = self.profile
        if self.crawford:
            return "crawford_game"
        if self.owner is not None and self.owner != side:
            return "not_cube_owner"
        if self.dead_cube(side):
            return "dead_cube"
        if profile.no_double_first_throw and self.throws == 0 and (not profile.is_match or self.game == 1):
            return "first_throw_forbidden"
        if self.cube * 2 > profile.cube_limit:
            return "cube_limit"
        balance = self.balance(side)
        if balance is not None and balance < max(profile.balance_to_play, profile.balance_to_double):
            return "balance_too_small"
        return None

    def _on_double(self, event: Double):
        if self.phase in ("ready", "game_over", "opening"):
            return self, Ruling.call("no_game" if self.phase != "opening" else "opening_not_thrown")
        if self.phase in ("doubled", "beavered"):
            return self, Ruling.call("double_pending" if self.phase == "doubled" else "not_cube_owner")
        if self.phase == "moving":
            return self, Ruling.call("after_throw")
        state = self
        if self.phase == "played":
            state, call = self._end_turn()
            if call:
                return self, call
        if event.thrown:  # the doubler's turn has begun with its throw: the play before stands
            return state, Ruling.call("after_throw")
        reason = state._double_call(state.on_roll)
        if reason:
            return state, Ruling.call(reason)  # RULES 6.4: no effect on the cube
        return state._with(phase="doubled"), Ruling()

    def _on_cube_unseen(self, event: CubeUnseen):
        if event.doubler not in (0, 1):
            raise InvalidEventError(f"a doubler is side 0 or 1, not {event.doubler!r}")
        if self.phase not in ("turn", "moving", "played"):
            raise InvalidEventError("a double and take are stated while a game is played, between its throws "
                                    "and plays" + (", not while a double waits for its answer"
                                                   if self.phase in ("doubled", "beavered") else ""))
        reason = self._double_call(event.doubler)
        if reason:
            return self, Ruling.call(reason)  # RULES 6.4: no effect on the cube
        taker = 1 - event.doubler
        return self._with(cube=self.cube * 2, owner=taker, cube_turned=True), \
            Ruling(note=f"a double to {self.cube * 2} and its take not seen: side {taker} owns the cube")

    def _on_take(self, event: Take):
        if self.phase != "doubled":
            return self, Ruling.call("no_double_offered")
        # RULES 5.3: the cube doubles and passes to the taker; the doubler goes on to throw
        return self._with(cube=self.cube * 2, owner=1 - self.on_roll, cube_turned=True,
                          phase="turn"), Ruling()

    def _on_drop(self, event: Drop):
        if self.phase != "doubled":
            return self, Ruling.call("no_double_offered")
        # RULES 5.3: the doubler wins the value before the double, no gammons
        state = self._end_game(self.on_roll, "single", "drop", points=self.cube)
        return state, Ruling(note="game over: drop")

    def _on_beaver(self, event: Beaver):
        if self.phase != "doubled":
            return self, Ruling.call("no_double_offered")
        if not self.profile.beaver or self.profile.is_match:
            return self, Ruling.call("beaver_not_allowed")
        if self.cube * 4 > self.profile.cube_limit:
            return self, Ruling.call("cube_limit")
        return self._with(cube=self.cube * 4, owner=1 - self.on_roll, cube_turned=True,
                          phase="beavered"), Ruling()

    def _on_raccoon(self, event: Raccoon):
        if self.phase != "beavered":
            return self, Ruling.call("no_double_offered")
        if not self.profile.raccoon:
            return self, Ruling.call("raccoon_not_allowed")
        if self.cube * 2 > self.profile.cube_limit:
            return self, Ruling.call("cube_limit")
        return self._with(cube=self.cube * 2, owner=self.on_roll, phase="turn"), Ruling()

    # --- resignations -----------------------------------------------------------------
    def _on_resign(self, event: Resign):
        if event.side not in (0, 1):
            raise InvalidEventError(f"a side is 0 or 1, not {event.side!r}")
        if event.kind not in self.variant.result_values:
            raise InvalidEventError(f"{self.variant.name} has no {event.kind!r} to resign "
                                    f"(one of {', '.join(self.variant.result_values)})")
        if self.phase not in IN_GAME + ("opening",):
            return self, Ruling.call("no_game")
        return self._with(resignation=(event.side, event.kind)), Ruling()

    def _on_accept_resignation(self, event):
        if self.resignation is None or self.phase not in IN_GAME + ("opening",):
            return self, Ruling.call("no_resignation")
        side, kind = self.resignation
        state = self._with(pending=None)._end_game(1 - side, kind, "resign")
        return state, Ruling(note=f"game over: resigned {kind}")

    def _on_reject_resignation(self, event):
        if self.resignation is None:
            return self, Ruling.call("no_resignation")
        return self._with(resignation=None), Ruling()

    def _on_end_unseen(self, event: EndUnseen):
        if event.winner is not None or event.points is not None:
            most = self.profile.cube_limit * max(self.variant.result_values.values())
            points = event.points
            if event.winner not in (0, 1):
                raise InvalidEventError(f"a game's winner is side 0 or 1, not {event.winner!r}")
            if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= most:
                raise InvalidEventError(f"a game scores 1 to {most} points (the most a game wins at the cube's "
                                        f"limit), not {points!r}")
        if self.phase not in IN_GAME + ("opening",):
            return self, Ruling.call("no_game")
        state = self._with(result=None, resignation=None, pending=None)
        if event.winner is None:
            return state._with(phase="game_over"), Ruling(note="game over: its end was not seen; no result recorded")
        # the kind a result of these points is at the cube the record knows (a stated result is
        # counted as given: the cube may have been turned where nobody saw it)
        kinds = list(self.variant.result_values)
        kind = next((k for k in kinds if self.game_points(k) >= event.points), kinds[-1])
        state = state._end_game(event.winner, kind, "stated", event.points)
        return state, Ruling(note=f"game over: its end was not seen; {event.points} point(s) to side "
                                  f"{event.winner}, as an official states")

    # --- results ----------------------------------------------------------------------
    def game_points(self, kind: str) -> int:
        """Points a win of ``kind`` scores now: value x cube, after Jacoby (RULES 4.5, 5.7)."""
        value = self.variant.result_values[kind]
        if self.profile.jacoby and not self.profile.is_match and not self.cube_turned:
            value = 1
        return value * self.cube

    def _end_game(self, winner: int, kind: str, how: str, points: int | None = None) -> "MatchState":
        points = self.game_points(kind) if points is None else points
        score = list(self.score)
        ledger = list(self.ledger)
        score[winner] += points
        if not self.profile.is_match:
            money = points * self.profile.stake  # RULES 8: stake x value x cube
            ledger[winner] += money
            ledger[1 - winner] -= money
        state = self._with(score=tuple(score), ledger=tuple(ledger), resignation=None,
                           result=GameResult(winner, kind, points, how), phase="game_over")
        if state.match_winner is not None:
            state = state._with(phase="match_over")
        return state


def _judged(before: Position, dice: tuple[int, int], after: Position) -> Ruling:
    """The ruling on a play from ``before`` to ``after`` with ``dice`` (RULES 3)."""
    if before.shared_points():
        return Ruling.call("position_invalid")
    verdict = before.check(*dice, after)
    return Ruling(play=verdict.play) if verdict.legal else Ruling.call(verdict.reason)


def _dice(d1, d2) -> tuple[int, int]:
    for die in (d1, d2):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidEventError(f"a die shows 1 to 6, not {die!r}")
    return d1, d2
