"""Following a game from settled observations: throws, plays, cube actions, new games.

The tracker is handed one :class:`~vision.observation.Observation` per settled frame (the
settle gate, :mod:`vision.motion`, decides which) and turns what changed into referee events
(:mod:`engine.match`) that it submits to the session (:mod:`gammoncam.referee`):

- *dice come to rest* (none on view before): a throw. The half they lie in says who threw (the
  thrower's right-hand half: the right for light, the left for dark, RULES 2.3); dice not both
  flat in one half are an invalid throw, which the referee calls for a re-roll, and so (in
  backgammon) are dice in the half of the player not due to throw while the board shows that
  nobody played; a re-roll is called only when the throw is surely invalid. A throw with a
  die that may be cocked is held: a clearer look, or its play, decides (picked up unplayed,
  though it could be played, it did not count and the players threw again).
- *dice picked up* while the mover is moving: the turn ends (RULES 7.1), so the play is read
  from the board as it stands, guided by the rules (:func:`~gammoncam.decoding.decode`). Picked
  up with nothing played though the roll could be played, the next throw tells: the thrower's
  own means the throw did not count (a cocked die read flat; a re-roll, RULES 2.3), the other
  player's that the play was forfeit (a foul). A throw glimpsed as perhaps not counting and
  thrown again by its thrower is a re-roll too.
- *an illegal play put right* (RULES 7.2): after the call, the board shows a legal play of the
  same throw from the same start: it is recorded in place of the play called. A foul that left
  both colours on one point is waited on; if the other player throws first, the record ends.
- *the cube turned up and laid before a player*: a double by the other player (by the player
  on roll with their throw on the board: a double after the throw, RULES 5.2); the cube taken
  to the taker's side, or the doubler throwing next: a take; the board set up again (or the
  video ending) while a double waits: a drop, the game conceded; the cube turned again by the
  taker: a beaver.
- *the starting position* after a game ended: a new game.
- *a throw in a game in progress* while no game is followed (a camera that joined mid-game): the
  game is joined there (:meth:`Tracker._join`), at a throw only glimpsed too, held till its play:
  its position as read, the thrower on roll, the cube as it lies; nothing is called until a play
  read as clearly legal shows record and board agree.

Player 1 plays light (the bottom of the board, :mod:`vision.layout`), player 2 dark. Plays are
read off the board guided by the rules (:mod:`gammoncam.decoding`); throws and the cube from what
the dice and cube readers make of them (:mod:`gammoncam.readings`). A play read as neither clearly
legal nor surely illegal is *unclear*: the tracker waits for more frames, up to the opponent's
next action, when it gives the benefit of the doubt to the likeliest legal play. What the record
may have wrong is told the official as a doubt (a note with a ``what``, :class:`gammoncam.watch.Doubts`):
such a play, a roll the board leaves open that no look at the dice read surely, a play that fits
other dice than those read or glimpsed, the roll of a foul called on a throw never read, the
face of a cube a game was joined with unread.

The camera is not trusted further than it has earned:

- dice lying where they lay are the same throw however a later look reads them, each die
  read from its clearest look, each face as sure as the reader's readings that sure turned out
  (:func:`vision.dice.honest`), a die no later look finds again where it was read taken as read
  unsurely (it may have been read still rolling); a throw whose roll is not near certain is
  *held* and recorded when its play ends, with the roll that best explains both the faces and
  the board (the record is append-only: a throw recorded wrong is corrected only when a play put
  right proves it, :meth:`Tracker._put_right`);
- no call on a play that is legal for a roll the faces leave at all likely (a misread die:
  :func:`~gammoncam.readings.misread_roll`), nor on the opponent's legal play (a missed throw:
  :func:`~gammoncam.decoding.opponent_played`), nor while the record may differ from the board
  (after a play taken on the benefit of the doubt, until a clearly legal play shows they agree),
  nor on looks at a board lying still summed as if independent: a play left unclear is judged on
  their mean (:attr:`Pending.looks`);
- no re-roll is called on dice the player due has begun to play (the players took the throw
  as counting, whatever the reader makes of a die);
- a turn whose throw was never read is recovered from the board when the next throw comes, when
  the other player's play is read on top of it, or when the cube is turned by the other player
  (so the double is judged as the doubler's); a play no roll makes is called only then, once the
  turn is surely over (a double half played looks so too); a board read short of any legal play
  is taken as the turn only where a glimpse of the dice read its roll and no other roll comes
  near (:meth:`Tracker._told_by_glimpse`), and recorded unclear;
- a board short of a checker with others of that side outside its home is a checker misread,
  not a game's record lost to turns unseen (:func:`join_position`);
- no throw is judged while no game start, nor a game in progress read surely, has been seen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from engine.match import (CALL_SECTION, CALL_TEXT, Beaver, CubeUnseen, DiceCorrected, Double, Drop, EndUnseen,
                          GameStart, InvalidEventError, NewGame, OpeningThrow, Played, Take, Throw)
from engine.position import Position
from gammoncam.decoding import (MIXED_SURE, MOST_BORNE_OFF, Decision, Thresholds, blocked_points, counted_margin,
                                danced_between, decode, expected_classes, explained, free_reading, log_probs,
                                may_bear_off, mixed_stack_play, mover_reached, opponent_played, passes_through,
                                shared_point_play)
from gammoncam.readings import (CHANCE, LEGIBLE_PX, MISREAD_FLOOR, OPENING_ROLLS, ROLL_SEEN, ROLLS, SAME_PLACE,
                                DiceReading, cube_place, face_left, lone_die, misread_roll, read_cube, read_dice,
                                roll_probabilities)
from vision.dice import throw_valid
from vision.orientation import location_map, pinned_reading, reading_position
from vision.observation import CUBE_VALUES, Observation

COLOUR = ("light", "dark")  # player 1, player 2
HOLD = 0.99  # a throw whose likeliest roll is less sure than this waits for its play to tell
# A turn read off the board whose play fits several rolls is recorded with the likeliest; the
# official is told when that one has less than this share of their chance (:meth:`_note_roll_guessed`).
ROLL_TOLD = 0.9
# A throw glimpsed that counts with at most this probability (a die read less than flat: on 1,000
# renders, 5% of flat dice were read under 0.92 flat, 72% of cocked ones under 0.9), picked up
# unplayed and followed by its thrower's next throw, did not count (:meth:`Tracker._thrown_again`).
RETHROWN = 0.9
# A glimpse of the player due's throw, gone with the board unchanged, is a dance (no play
# possible, RULES 3) when the rolls that leave that player no play are at least this likely from
# its faces (vid 7305: a 6-6 on the bar, glimpsed; the opponent's double was taken for theirs).
DANCE_GLIMPSED = 0.1
# A dance so glimpsed is not taken where the board shows a legal play of that player's this many
# nats better than the board left as it was, the glimpse's odds of each weighed in: as much evidence
# as :data:`PUT_RIGHT` asks (vid 9804 out of focus: light's 25/24 with a 3-1, glimpsed 3-3, 7.2 nats).
PLAYED_NOT_DANCED = 4.0
# Dice read at settles less than this far apart (seconds of video) that show another throw in the
# same half were one throw still rolling, not picked up and thrown again: no hand reaches in, picks
# two dice up and throws them in that time (in the renders 2 s pass from the last still frame of
# the throw picked up to the first of the throw made again: the pick-up 1 s, the dice rolling 0.7 s).
ROLLING_S = 0.5
# Settles in a row the cube must have been found on for its absence, with a throw lying, to be
# noted (:meth:`Tracker._note_cube_lifted`): a cube at the picture's edge is found on some settles
# only (vid 8307, 640x360: three such notes on a cube that never moved, none with 3).
CUBE_STEADY = 3
# Field widths (about a checker and a half) the cube must lie from where its face was last read,
# at the side where the record keeps it, for its face unread there to tell of a double perhaps
# unseen (:meth:`Tracker._note_cube_face_unread`): an owner's hand nudges it less.
CUBE_MOVED = 0.1
# A find off the board that lies in one place this long (seconds of video) is a thing on the table
# read as a die, not a die: a die thrown off the board is picked up for the re-roll (vid 7404: a
# find beside the tray, read as a 3 at every settle, made two throws re-rolls).
ON_THE_TABLE_S = 8.0
# A play called is taken as put right (RULES 7.2) when the board explains a legal play of the
# throw at least this many nats better than the play called: half the evidence a call needs, since
# a put right wrongly seen leaves the record off the board by as little, too little for any later
# call (vid 8408: 6/3 4/1 put right to 6/4 4/1, one checker a point away, 6.3 nats; the record lost).
PUT_RIGHT = 4.0
# Long nardy's first turn went unseen when a first turn of the other player's explains the board
# clearly (a legal reading) and at least this many nats better than the start, or surely better
# (a call's margin) however unclear (:meth:`Tracker._first_turn_missed`). When the start stands,
# that turn is never read legal: 4.3 nats and more on fourteen long nardy games' first throws;
# when it went unseen, 5.5 nats better (vid 7705, corners a hundredth off).
MISSED_FIRST_TURN = 4.0
# A board this many nats from the one before a turn that may bear off, and clearly a legal play
# of it, is the turn played: a lone checker borne off changes one location alone, read off
# surely (at 0.75 against 0.01 and surer) but short of a call's margin (:meth:`Tracker._board_moved`).
BORNE_OFF_SEEN = 4.0
# A game in progress is joined only on a board whose every location is read at least this surely,
# or read this surely as a whole with fifteen a side (:func:`join_position`): a stack misread at
# the join would put the record off the board from its first play.
JOIN_SURE = 0.9
# Why a record ends at a foul that left both colours on one point (:meth:`Tracker._on_a_shared_point`).
SHARED_POINT_STANDS = "checkers of both colours stand on one point: the record waits for a board a game can have"


def join_position(logp: np.ndarray, classes: np.ndarray, mover: str, variant) -> Position | None:
    """The position a game in progress is joined at from a board read as ``classes`` (the free
    reading), seen from ``mover`` in the engine's ``variant``; None where it is not read surely
    enough or no game can have it. Every location read at :data:`JOIN_SURE` or surer; or else
    the reading the fifteen checkers of each side pin down, that likely as a whole
    (:func:`vision.orientation.pinned_reading`; vids 7309, 7312, 7702 and 7803 watched from 40%
    of their frames never joined, their boards keeping two or three stacks read 0.6-0.9). Not a
    side short of fifteen with a checker outside its home: that is a checker misread away more
    often than one hit after others were borne off (vid 7501 under tungsten light: a lone dark
    checker read as none at 0.93 for a turn and more, taken for the record lost)."""
    if float(np.exp(logp[np.arange(len(classes)), classes]).min()) < JOIN_SURE:
        pinned = pinned_reading(logp, mover, variant, JOIN_SURE)
        if pinned is None:
            return None
        classes = pinned[0]
    position = reading_position(classes, mover, variant)
    if position is None or position.problem() or position.game_result():
        return None
    board = position.board
    borne_off_outside = any(int(side.sum()) < 15 and int(side[6:].sum()) for side in (board[:25], board[25:]))
    return None if borne_off_outside else position


# --- the tracker ---------------------------------------------------------------------------
@dataclass(frozen=True)
class UnseenTurn:
    """A turn whose throw was never seen, read off the board."""

    side: int
    roll: tuple
    decision: Decision
    rolls: tuple  # every roll that makes the same play
    glimpse: DiceReading | None  # a look at the dice too unsure to record a throw from
    rival: float = math.inf  # the margin of the likeliest other play, of any roll (:meth:`Tracker._read_off_board`)


@dataclass
class Pending:
    """A play read as unclear, waiting for more frames; or (``unplayed``) dice picked up with
    nothing played though the roll could be played, waiting for the next throw to tell whether
    the throw counted."""

    before: Position
    dice: tuple
    mover: str
    logp: np.ndarray
    faces: tuple = ()
    frames: int = 1
    since: float = 0.0
    unplayed: bool = False
    read: set = field(default_factory=set)  # the rolls a look at the dice keeps possible (DiceReading.rolls_possible)
    floor: float = MISREAD_FLOOR  # how likely a roll must be to stay possible for a call (DiceReading.floor)
    px: float = float("inf")  # the smaller die's reading crop, frame pixels (DiceReading.px)
    misread: tuple | None = None  # the roll, not the one read, whose legal play the board showed at the last look
    opponent_moving: bool = False  # the last look showed the other player's checkers moved

    @property
    def looks(self) -> np.ndarray:
        """The ``frames`` looks at the board (``logp`` is their sum) as one: their mean. Looks at
        a board lying still are not independent evidence: a checker misread at one look is
        misread alike at the next, and summed, two looks 5.5 and 4.8 nats from a legal play made
        a call (vid 7501 under tungsten light: dark's 14/9 9/7, a checker on a dark point read
        empty at 0.95 and 0.93, called as no play of the 5-2)."""
        return self.logp / self.frames


def doubt_of_dice(read: tuple, faces: tuple, px: float, foul: bool) -> dict:
    """What a doubt about the dice tells the official (web_ui/SCHEMA.md ``doubts``): the roll
    ``read``, how likely its faces made it, from how many of the frame's pixels, and whether the
    play seen is illegal for that roll (``foul_if_read``: a foul if the dice were read right, not
    called because they may not have been). The referee page lists those first, likeliest first.

    >>> doubt_of_dice((6, 4), ((0, 0, 0, .9, .1, 0), (0, 0, 0, 0, 0, 1)), 24.6, True)
    {'dice': [6, 4], 'foul_if_read': True, 'probability': 0.9, 'px': 25}
    """
    info = {"dice": list(read), "foul_if_read": foul}
    if faces:
        info["probability"] = round(roll_probabilities(faces)[tuple(sorted(read, reverse=True))], 3)
    if np.isfinite(px):
        info["px"] = round(px)
    return info


def _rolls_named(rolls, chance: dict | None = None) -> str:
    """``rolls`` as a doubt names them, the likeliest by ``chance`` first, three at most.

    >>> _rolls_named([(2, 1), (5, 2), (4, 3), (6, 1)], {(2, 1): 0.1, (5, 2): 0.5, (4, 3): 0.2, (6, 1): 0.0})
    '5-2, 4-3, 2-1 and 1 more'
    """
    rolls = sorted((tuple(r) for r in rolls), key=lambda r: -chance[r]) if chance else [tuple(r) for r in rolls]
    more = f" and {len(rolls) - 3} more" if len(rolls) > 3 else ""
    return ", ".join(f"{a}-{b}" for a, b in rolls[:3]) + more


SET_UP_AGAIN = "the board was set up again before the game was seen to end"


@dataclass
class Tracker:
    """Turns settled observations into referee events.

    ``referee`` is a :class:`gammoncam.referee.Referee`; ``emit(event_dict)`` hears everything
    the tracker sees and decides (with ``t``, the frame time), calls included.
    """

    referee: object
    emit: Callable[[dict], None] = lambda e: None
    thresholds: Thresholds = field(default_factory=Thresholds)
    dice_seen: DiceReading | None = None
    dice_seen_t: float = 0.0  # the time of the last settle that read them
    # the boards the last throws seen were thrown on, with their dice, newest last (:meth:`_first_look`)
    thrown_on: list = field(default_factory=list)
    cube_seen: tuple | None = None
    pending: Pending | None = None
    # False once a play was recorded on the benefit of the doubt or the dice or the turn were in
    # doubt: the recorded position may not be the board's, so nothing is called until a play
    # read as clearly legal shows the two agree again.
    in_sync: bool = True
    held: DiceReading | None = None  # a throw seen but not yet recorded (its roll unsure)
    small_dice_told: bool = False  # whether the official was warned that the dice are read from few pixels
    # True once the cube was offered by the player due with their throw on the board, not yet
    # recorded (a double after the throw, RULES 5.2), until a throw is recorded: the cube put
    # back meanwhile is no cube action (:meth:`_offered_with_throw_on_board`).
    offered_with_throw: bool = False
    # Where the cube lay, read surely (its face however unsure), when last seen with no dice on
    # the board: a cube turned there is no double after the throw (:meth:`_turned_before_the_throw`).
    cube_place_without_dice: str | None = None
    # A cube read at a face no cube action leaves where it lies, not yet taken (:meth:`_face_checked`).
    cube_face_doubted: tuple | None = None
    # Where the cube was last read (field u, v, when the reading tells), and the cube as read
    # and where before the last change of reading that recorded no cube action (:meth:`_cube_unmoved`).
    cube_uv: tuple | None = None
    cube_before: tuple | None = None
    cube_found_run: int = 0  # the settles in a row the cube was found on, till the last (:meth:`_note_cube_lifted`)
    # The cube found surely at a player's side, whatever its face: (where, field u, v, settles in
    # a row there, its value's probabilities at the last), for a game joined (:meth:`_cube_as_lying`)
    cube_lying: tuple | None = None
    no_game_noted: int | None = None  # the record's game count when a throw with no game followed was noted
    # (game, throws, thrown) of the throw whose cube out of sight was noted, while at rest or after it
    cube_lifted_noted: tuple | None = None
    cube_gone: tuple | None = None  # (game, throws) of the turn the cube went out of sight before its throw
    # The cube read surely at a side but not its face: (where, field u, v, settles in a row
    # there, whether the doubler's dice were seen thrown since), and the (game, where) last noted
    # (:meth:`_note_cube_face_unread`).
    cube_unread: tuple | None = None
    cube_unread_noted: tuple | None = None
    # True from a double the referee called till a cube action is recorded: the cube goes back to
    # where the record keeps it (RULES 6.4), so its unsure faces are told from there
    # (:meth:`_cube_to_read_from`).
    cube_called: bool = False
    # True from a cube turned that the record could not take (noted unclear in :meth:`_cube`)
    # till the cube is read where and as the record keeps it, or a new game starts: meanwhile a
    # double the referee would call, judged against the record's cube, is noted, not called.
    cube_off_record: bool = False
    # A cube read surely, twice, at a face no cube action leaves where it went, and recorded as
    # the face the rules leave (:meth:`_cube`): (as read, as taken) till the cube moves, so the
    # reader's same misread of it later is no cube action (a 4 read 8 at the owner's side would
    # be a double by the other player, and called).
    cube_misread: tuple | None = None
    # Looks at dice whose faces were too unsure to record a throw from, since the last throw was
    # seen (latest last; looks at dice lying still merged): when a turn turns out missed, they
    # tell which of the rolls that make the play on view was thrown (vid 7119: 4-3, 5-2 and 6-1
    # make the same play; a glimpse of a 6 or a 3 and a 1 tells 6-1).
    glimpses: list = field(default_factory=list)
    # (game, throws) when the other player's dice were last glimpsed on a board moved since the
    # record's last turn, while the player due had not thrown: a turn unseen (:meth:`_decode`)
    turn_unseen_glimpsed: tuple | None = None
    unseen: UnseenTurn | None = None  # a turn read off the board, its throw unseen, until it is surely over
    # The boards read with confidence while a turn not yet recorded was made (its throw unseen,
    # or held as unsure; each location's reading as a class): a board seen mid-turn tells which
    # of the rolls that make the play was thrown (:meth:`_through_path`).
    turn_path: list = field(default_factory=list)
    # The latest look at a throw not recorded (a glimpse, or a die seen alone), and that look
    # once a settled board showed the dice gone: if its thrower throws again with nothing
    # played, that throw did not count (:meth:`_thrown_again`).
    last_look: DiceReading | None = None
    left_unplayed: DiceReading | None = None
    # The throw last seen picked up (read, or glimpsed while its turn was played, then a settled
    # board without it), till dice are seen again: new dice in its half are no second throw of its
    # thrower (:meth:`_thrown_in_the_wrong_half`).
    picked_up: DiceReading | None = None
    # Long nardy's first game starts with its first throw (RULES 2.2): True once the starting
    # position was seen while no game is in progress, so a first turn made unseen can be read.
    set_up: bool = False
    # The last settled board with no dice on it while no game is followed (each location's
    # reading): dice that come to rest on that same board are a throw to join a game in progress
    # at (:meth:`_join`); dice already lying there when watching began, or lying on a board
    # changed since, may be a throw already played.
    bare_board: np.ndarray | None = None
    # A game joined in progress whose record no clearly legal play has confirmed yet.
    joined: bool = False
    # The start of the turn whose illegal play was put right (:meth:`_put_right`): until the
    # opponent acts, the checkers may be rearranged again (a legal play on the way to another).
    put_right_from: Position | None = None
    # A throw recorded as the roll its play fits though the dice were read likelier another
    # (:meth:`_resolve_held`), the play clearly illegal for that likelier roll: (the board before
    # the turn, that roll). The play put right to the likelier roll's tells the dice were misread
    # and the foul real (:meth:`_put_right`).
    doubted_roll: tuple | None = None
    # A throw held as unsure, then recorded (:meth:`_resolve_held`): (the board before the turn,
    # the rolls its dice were read as). A foul called on it and put right to a legal play of
    # another of those rolls tells the roll thrown (:meth:`_put_right`).
    held_read: tuple | None = None
    last_logp: np.ndarray | None = None
    # The latest settled look's mixed-stack reading (Observation.mixed): a checker of the mover
    # seen on a point the opponent blocks (:func:`~gammoncam.decoding.mixed_stack_play`).
    last_mixed: np.ndarray | None = None
    # Places off the board where finds lie: [field (u, v), first seen, last seen] (:meth:`_on_the_table`).
    off_board: list = field(default_factory=list)
    # Where the match stood when watching began, for a match joined between games: the first
    # game's score and whether the Crawford game was already played (NewGame's fields).
    joined_at: dict = field(default_factory=dict)
    # True from a watch started on a log that holds a game in progress till its first settle,
    # which tells whether the board is still where the record left it (:meth:`_resume`).
    resumed: bool = False
    stats: dict = field(default_factory=lambda: {"observations": 0, "legal": 0, "illegal": 0, "unclear": 0,
                                                "unclear_resolved": 0, "benefit_of_doubt": 0})
    t: float = 0.0
    frame: int = 0

    def __post_init__(self):
        self.resumed = self.state.phase not in ("ready", "game_over")

    @property
    def state(self):
        return self.referee.state

    @property
    def variant(self) -> str:
        return self.state.variant.name

    def _submit(self, event, **info) -> object:
        if isinstance(event, (Throw, OpeningThrow)):
            self.offered_with_throw = False
        if isinstance(event, Double) and self.cube_off_record and not self.state.apply(event)[1].accepted:
            self.note("unclear", what="a double judged against a cube the record does not have", **info)
            return None
        ruling = self.referee.submit(event)
        if isinstance(event, (Double, CubeUnseen)) and not ruling.accepted:
            self.cube_called = True
        elif ruling.accepted and isinstance(event, (Double, CubeUnseen, Take, Drop, Beaver, NewGame, GameStart)):
            self.cube_called = False
        kind = type(event).__name__
        out = {"type": _EVENT_TYPE.get(kind, kind.lower()), **info, **ruling.to_json()}
        self.emit(out)
        return ruling

    def note(self, kind: str, **info) -> None:
        """Tell the watch something that is not a referee event; ``what``, where given, says to
        the official a moment worth a second look (the watch keeps it in the referee log)."""
        self.emit({"type": kind, **info})

    # -- the one entry point ------------------------------------------------------------
    def observe(self, obs: Observation, t: float = 0.0, frame: int = 0) -> None:
        """One settled observation."""
        self.t, self.frame = t, frame
        self.stats["observations"] += 1
        obs = self._on_the_table(obs)
        logp = log_probs(obs)
        self.last_logp, self.last_mixed = logp, obs.mixed
        if self.resumed:
            self._resume(logp, read_dice(obs))
        place = cube_place(obs)
        if place is not None and read_dice(obs) is None:
            self.cube_place_without_dice = place
        if self.unseen is not None and self._at_start(logp):
            self._settle_unseen()  # the board set up again: the turn read off it ended the game
        if self.state.phase in ("turn", "moving", "played") and self._at_start(logp) and self._left_start():
            self._end_unseen()
        state = self.state
        if state.phase in ("ready", "game_over", "doubled") and self._at_start(logp):
            if state.phase == "doubled":
                self._submit(Drop(), inferred="the board was set up again")
            long_unopened = self.state.phase == "ready" and self.variant == "long"
            if self.state.phase in ("ready", "game_over") and not long_unopened:
                self._new_game()
            self.set_up = True
            cube = read_cube(obs, centred=1)  # a game set up: its cube in the middle at 1 (RULES 5.1)
            self.cube_seen = cube if cube != "unsure" else None
            self.cube_uv = self.cube_before = self.cube_misread = None
            self.dice_seen = None
            return
        if self.pending is not None:
            self._retry(logp)
        self._put_right(logp)
        if self._on_a_shared_point(obs, logp):
            return
        cube = read_cube(obs, seen=self._cube_to_read_from(), centred=self._centred_cube())
        if self.cube_misread is not None and cube == self.cube_misread[0]:
            cube = self.cube_misread[1]  # the face misread so before (:meth:`_cube`)
        self._note_cube_face_unread(obs, cube == "unsure")
        cube = self._face_checked(None if cube == "unsure" else cube)
        uv = tuple(obs.cube["uv"]) if cube is not None and "uv" in obs.cube else None
        if cube is not None and self.cube_seen is not None and cube != self.cube_seen:
            before, recorded = (self.cube_seen, self.cube_uv), (self._recorded_cube(), self.state.phase == "doubled")
            if self._cube_unmoved(cube, uv):
                self.cube_before = None
            else:
                cube = self._cube(self.cube_seen, cube, logp, read_dice(obs) is not None)
                unrecorded = (self._recorded_cube(), self.state.phase == "doubled") == recorded
                self.cube_before = before if unrecorded else None
        if cube is not None:
            self.cube_seen, self.cube_uv = cube, uv
            if cube == self._recorded_cube():
                self.cube_off_record = False
        if obs.cube is None and self.cube_found_run >= CUBE_STEADY:
            self._note_cube_lifted(obs)
        elif self.cube_gone is not None:
            self._tell_cube_gone(obs, cube)
        self.cube_found_run = self.cube_found_run + 1 if obs.cube is not None else 0
        self._follow_cube_lying(obs)
        dice = read_dice(obs)
        # The throw recorded, or else its last glimpse (vid 9508: a 5-5 never read as two dice, one
        # found at 0.15-0.22 and read 0.27-0.51, the other fainter; with three moves made it was
        # taken for picked up, recorded as a 6-4, and its last move as light's next turn)
        look = self.dice_seen or self.last_look
        if dice is None and look is not None and look.found_faintly(obs):
            dice = "unsure"  # a look at the dice on view, not their pick-up
        if dice is None and self.state.phase in ("ready", "game_over"):
            self.bare_board = free_reading(logp)[0]
        if dice == "unsure":
            lone = lone_die(obs)
            if lone is not None:
                self.picked_up = None  # dice seen again
                if self.dice_seen is not None:
                    self.dice_seen = self.dice_seen.one_gone(lone, obs)
                if self.held is not None:
                    self.held = self.held.one_gone(lone, obs)
                # one die found (two lying touching read as one, or one hidden): it still tells
                # which of the rolls that make an unseen play was thrown (vid 7511: a 5-1 whose
                # dice touched, read as one die showing 1 or 5; its 24/18 was recorded as a 4-2)
                self._glimpse(lone, logp)
                self._first_look(lone, logp)
            self.last_look = lone or self.last_look
            self._note_path(logp)
            return
        if (dice is not None and not dice.faces_sure and not self._thrown_after_the_other(dice, logp)
                and not self._thrown_in_the_wrong_half(dice, logp)):
            if self._joined_at_a_glimpse(dice, logp):
                return
            seen = self.dice_seen
            if seen is not None and None not in (seen.thrower, dice.thrower) and seen.thrower != dice.thrower:
                # the other player's dice, however unsurely read: the throw on view before was
                # picked up unseen (a short pause between turns: vid 7311 held a 6-6 dance
                # through the other player's whole turn)
                self._picked_up(logp)
                self.dice_seen = None
            if self._dance_waiting() and dice.thrower not in (None, COLOUR[self.state.on_roll]):
                self._commit_pending("the opponent threw")  # the dance counted
            if self.left_unplayed is not None and dice.thrower not in (None, self.left_unplayed.thrower):
                # the other player threw since: a throw of the player's after it is their next
                # turn's, not theirs made again (vid 9933: light's dance glimpsed, dark's throw
                # glimpsed and its play read off the board, light's next throw called a re-roll)
                self.left_unplayed = None
            if self.pending is None and self._thrown_again(dice):
                # the throw made again read too unsurely to record: the re-roll is told all the
                # same (vid 7202: dark's throw seen as one die, the other cocked and unfound,
                # picked up; the 4-3 thrown again, on dice red on red, only ever glimpsed)
                self._rethrown(dice)
            self._glimpse(dice, logp)
            self._first_look(dice, logp)
            self.last_look, self.picked_up = dice, None
            if self.held is None and self.pending is None and self.in_sync and self.state.phase in ("turn", "played"):
                # Dice never read surely (a small board) leave every settle with dice on view:
                # the board still tells the turns played (vid 7903: a 6-6 bear-off and the
                # opponent's entry, both under dice glimpsed only, were never read off the board).
                self._unseen_turn(logp, dice)
            else:
                self._note_path(logp)
            return
        if dice is None and self.last_look is not None:
            self.left_unplayed, self.last_look = self.last_look, None
        if (dice is None and self.left_unplayed is not None and self.state.phase in ("turn", "played")
                and self.left_unplayed.thrower in (None, COLOUR[self._due()[0]]) and self._board_moved(logp)):
            # played after all (judged with no dice over the checkers) and picked up; a glimpse of
            # the other player's dice is not told by the board, which moved with the due player's
            # turn unseen (vid 9978 in a dim room: light's die alone, the other off the board, was
            # dropped so, and its re-roll went uncalled)
            self.picked_up, self.left_unplayed = self.left_unplayed, None
        seen = self.dice_seen
        if dice is not None and seen is not None and dice.same_throw(seen):
            self.dice_seen, self.dice_seen_t = self._taken_as_counting(seen.seen_again(dice), logp), self.t
            if self.held is not None:
                self._note_path(logp)
                self.held = self.dice_seen
                if (self.state.phase != "opening" and self.held.valid_sure
                        and ((self.held.likely()[1] >= HOLD and self.held.legible and len(self.held.rolls_read()) == 1)
                             or not self.held.valid)):
                    # a clearer look tells the roll (where no look read another), or that the
                    # throw does not count
                    self.held = None
                    self._submit_throw(self.dice_seen.likely()[0], self.dice_seen)
            elif self.dice_seen.legible:
                # The first look may catch dice still rocking to rest, which a dim room keeps from
                # unsettling the board (vid 10039 in a dim room: dark's 5-3 read 6-5 surely a frame
                # before it lay still, where it came to rest; the 6-5's play recorded and every
                # turn after it unclear).
                self._read_again(self.dice_seen, "a clearer look at the dice lying there read another roll",
                                 sure=HOLD)
        elif dice is not None and seen is not None and self._still_rolling(seen, dice):
            self._rolled_on(dice)
        elif dice is not None:
            if seen is not None:  # dice changed without being seen picked up
                self._picked_up(logp)
            self._first_look(dice, logp)
            self._throw(dice, logp)
            self.glimpses, self.turn_path = [], []  # what they could tell of a turn unseen was told by now
            self.last_look = self.left_unplayed = self.picked_up = None
            self.dice_seen, self.dice_seen_t = dice, self.t
        elif dice is None and seen is not None:
            self._picked_up(logp)
            self.dice_seen, self.picked_up = None, seen
            self._record_lost(logp)
        elif dice is None and not self._record_lost(logp):
            self._unseen_turn(logp)

    def _first_look(self, dice: DiceReading, logp: np.ndarray) -> None:
        """Keeps the board on view as the one ``dice`` were thrown on (:attr:`thrown_on`) unless
        they were seen, read or glimpsed, before: then they were thrown before it (vid 10062 in a
        dim room: dark's 5-4 glimpsed at rest, read surely only once played and held as unsure;
        picked up, it was taken for picked up unplayed, a false re-roll call)."""
        if not any(look is not None and dice.same_throw(look) for look in (self.dice_seen, self.last_look)):
            self.thrown_on = [*self.thrown_on[-1:], (dice, logp.argmax(axis=1))]

    def _on_the_table(self, obs: Observation) -> Observation:
        """``obs`` without the finds off the board that have lain in one place for
        :data:`ON_THE_TABLE_S` (things on the table), its throw's validity read again without them."""
        kept, places = [], [p for p in self.off_board if self.t - p[2] <= ON_THE_TABLE_S]
        for die in obs.dice:
            if die.get("on_board", True) or "uv" not in die:
                kept.append(die)
                continue
            uv = np.asarray(die["uv"], np.float64)
            place = next((p for p in places if np.hypot(*(p[0] - uv)) <= SAME_PLACE), None)
            if place is None:
                places.append(place := [uv, self.t, self.t])
            place[2] = self.t
            if self.t - place[1] < ON_THE_TABLE_S:
                kept.append(die)
        self.off_board = places
        if len(kept) == len(obs.dice):
            return obs
        return replace(obs, dice=kept, throw_valid=throw_valid(kept))

    def finish(self) -> None:
        """The source ended: settle what waits (a turn read off the board, an unclear play, a
        double never answered). A turn whose throw was never read, with the dice picked up
        (no dice at the last settle), is over: if its play is illegal whatever was thrown, it
        is recorded and called (:meth:`_foul_unseen`); one read so earlier that the last board no
        longer shows is read again from that board (:meth:`_foul_gone`). With dice glimpsed only
        at the last settle, or a recorded throw not read there, a clearly legal play on view is
        recorded as the turn's."""
        if self.last_logp is not None and self._foul_gone(self.last_logp):
            self._missed_turn(self.last_logp, over=self.dice_seen is None and self.last_look is None)
        if (self.unseen is None and self.held is None and self.pending is None and self.last_logp is not None
                and self.dice_seen is None and self.state.phase in ("turn", "played")
                and self._board_moved(self.last_logp)):
            if self.last_look is None:
                self.unseen = self._foul_unseen(*self._due(), self.last_logp)
            else:
                # dice only glimpsed to the end (vid 10000 in a dim room: light's 1-1, one die
                # found, played 4/3 3/2(2) 9/8, the video ended as it was picked up): the board
                # tells the turn, as it would at the next throw; no foul rests on a look so short
                self._unseen_turn(self.last_logp, self.last_look)
        self._settle_unseen()
        if self.held is not None and self.last_logp is not None:
            self._resolve_held(self.last_logp)
        state = self.state
        if (state.phase == "moving" and self.dice_seen is not None and self.dice_seen_t < self.t
                and self.pending is None and self.last_logp is not None
                and decode(state.position, state.dice, COLOUR[state.on_roll], self.last_logp,
                           self.thresholds).kind == "legal"):
            # the throw's dice not read at the last settle, and the board showing a play of them
            # clearly legal: picked up as the video ended (vid 9983 in a dim room: light's 6-4
            # played 22/16 22/18, the last settle 0.2 s after the pick-up read a false find as a
            # die, so the dice were never seen gone). A board no legal play explains is left: the
            # play may be half made, and no call rests on a look at the video's end.
            self._end_play(self.last_logp)
        if self.pending is not None and self.pending.unplayed and not self._dance_waiting():
            # no next throw to tell whether it counted: nothing to record, nor call, but a roll
            # that could be played went unplayed, for the official to look at
            p, self.pending = self.pending, None
            self.note("unclear", what="the dice were picked up with nothing played, and no throw came after to tell "
                                      "whether they counted", player=self.state.on_roll + 1, dice=list(p.dice),
                      t=p.since)
        if self.pending is not None:
            self._commit_pending("the video ended")
        if self.state.phase == "doubled":
            self._submit(Drop(), inferred="the video ended while the double waited")

    def roll_given(self, player: int, roll: tuple, **info) -> object | None:
        """An official's word on the throw being played (the referee page, ``correct_dice``):
        player ``player`` (1 light, 2 dark) threw ``roll``, which the dice were misread as, or
        read too unsurely to record. A throw held as unsure is recorded as given; a throw
        recorded is corrected (:class:`~engine.match.DiceCorrected`), and a play already
        recorded is judged again on it: a foul of the roll given is called (RULES 7.2: it may
        still be put right), a call made on the roll misread is no longer the verdict. From
        then on the dice lying there read as given (:meth:`DiceReading.as_given`), so no other
        roll they might show keeps a play of the roll given from being called. The referee's
        ruling; ValueError when no throw of that player is being played. An opening throw held
        (a tie read unsurely, or first read after the board left the start) is recorded as the
        given player's opening roll. ``info`` goes with the event (who gave the roll)."""
        side, roll = player - 1, tuple(sorted(roll, reverse=True))
        state = self.state
        seen = self.dice_seen
        opening = state.phase == "opening"
        if self.held is not None and (opening or (state.phase in ("turn", "played") and self._due()[0] == side)):
            if opening and roll[0] == roll[1]:
                raise ValueError("an opening throw is never a double: equal numbers are thrown again (RULES 2.1)")
            self.held = None
            self.glimpses, self.turn_path = [], []
            self.dice_seen = None if seen is None else seen.as_given(roll)
            # the opening: each player's die, light's first; the player given threw the higher (RULES 2.1)
            event = (Throw(*roll) if not opening else OpeningThrow(*roll) if side == 0
                     else OpeningThrow(roll[1], roll[0]))
            return self._submit(event, dice=list(roll), player=player, **info)
        if state.phase not in ("moving", "played") or state.on_roll != side:
            raise ValueError(f"no throw of player {player} is being played: the roll of a turn over is amended")
        if tuple(sorted(state.dice, reverse=True)) == roll:
            raise ValueError(f"player {player}'s throw is recorded as {roll[0]}-{roll[1]} already")
        if roll[0] == roll[1] and isinstance(
                next(e for e in reversed(self.referee.events) if isinstance(e, (Throw, OpeningThrow))), OpeningThrow):
            raise ValueError("an opening throw is never a double: equal numbers are thrown again (RULES 2.1)")
        if self.held is None and seen is not None and seen.thrower in (None, COLOUR[side]):
            self.dice_seen = seen.as_given(roll)  # this throw's dice (a throw held is the next player's)
        if self.pending is not None:  # a play waiting to be told: judged on the roll given
            self.pending = replace(self.pending, dice=roll, faces=(), read=set())
        self.doubted_roll = self.held_read = None
        return self._submit(DiceCorrected(*roll), player=player, dice=list(roll),
                            recorded=sorted(state.dice, reverse=True), **info)

    def double_given(self, player: int, **info) -> object:
        """An official's word on a double and its take that the watch did not see (the referee
        page, ``state_double``; the doubt a cube at a side with its face unread raises): player
        ``player`` (1 light, 2 dark) doubled and the other took (:class:`~engine.match.CubeUnseen`).
        The cube is looked for where the record now keeps it, so its face read later is no second
        double; a double the rules forbid is called and the cube stays as the record kept it
        (RULES 6.4). The referee's ruling; :class:`~engine.match.InvalidEventError` while no game
        is followed or a double waits for its answer. ``info`` goes with the event (who stated it)."""
        ruling = self._submit(CubeUnseen(player - 1), player=player, value=self.state.cube * 2, **info)
        if ruling.accepted:
            self.follow_recorded_cube()
        return ruling

    def follow_recorded_cube(self) -> None:
        """Look for the cube where the record now keeps it, after an official's word on a cube
        action the watch did not see (:meth:`double_given`, or a double stated after its turn)."""
        self.cube_seen, self.cube_uv, self.cube_before = self._recorded_cube(), None, None
        self.cube_unread = self.cube_face_doubted = self.cube_misread = None
        self.cube_off_record = False

    # -- games ----------------------------------------------------------------------------
    def _at_start(self, logp: np.ndarray) -> bool:
        """Whether the board shows the starting position (:meth:`_shows`: a long nardy head of
        fifteen seen steeply, read as 11 with the four others taken for borne off, is the start
        all the same; vid 9921: the opening never seen, the game joined at its twentieth turn)."""
        return self._shows(Position.start(self.state.variant), "light", logp)

    def _shows(self, position: Position, mover: str, logp: np.ndarray) -> bool:
        """Whether the board on view is ``position`` (seen from ``mover``), as surely as a legal
        play (:func:`gammoncam.decoding.decode`): against the free reading, or against the
        likeliest reading with the checkers counted (:func:`~gammoncam.decoding.counted_margin`),
        so that a checker hidden or a tall stack read short does not make the board another (vid
        9981: light's throw with a die cocked, picked up unplayed, was taken for a dance of a roll
        read less likely, since light's three checkers on the bar, read as none, put the board 3.9
        nats from the one before the throw). The mover's are counted as many as ``position`` has
        only where none can have been borne off since (:func:`~gammoncam.decoding.may_bear_off`):
        a bear-off made is fewer checkers (vids 9912, 9924, 9930, 9960: with the mover's counted
        as before, each game's last bear-off was taken for nothing played)."""
        if self._margin(position, mover, logp) <= self.thresholds.legal:
            return True
        explaining = explained(position, mover, logp, self.last_mixed)
        borne_off = MOST_BORNE_OFF if may_bear_off(position) else 0
        return counted_margin(position, mover, logp, explaining, borne_off) <= self.thresholds.legal

    def _cube_unmoved(self, cube: tuple, uv: tuple | None) -> bool:
        """Whether ``cube``, read at ``uv``, is the cube as and where it lay before the last
        change of reading, which recorded nothing: it never moved (within :data:`SAME_PLACE`, a
        third of a die), so nothing was turned, and the reading between was of something else
        (vid 9933 in a dim room: a die of dark's 6-3 read as the cube at 1 in the middle, the
        cube at light's side unfound, after a Crawford double was called; the cube read again
        where it lay was taken for a second double, and called)."""
        if self.cube_before is None or uv is None:
            return False
        was, at = self.cube_before
        return was == cube and at is not None and float(np.hypot(*(np.asarray(uv) - at))) <= SAME_PLACE

    def _face_checked(self, cube: tuple | None) -> tuple | None:
        """``cube`` as read, or None at the first settle that reads a cube gone to a player's
        side surely at a face no cube action leaves there (:func:`face_left`): a misread face
        (vid 9963 in a dim room: a redouble's 4 laid before the taker read 8 at 0.94, then 4 at
        0.62; taken as 8, the redouble and its take were never recorded). The next settle reads
        it again, from the rules' face; read so at two settles in a row, it stands."""
        seen = self._cube_to_read_from()
        strange = (cube is not None and seen is not None and cube[1] in COLOUR and cube[1] != seen[1]
                   and cube[0] != face_left(seen, cube[1]))
        doubted, self.cube_face_doubted = self.cube_face_doubted, (cube if strange else None)
        return None if strange and cube != doubted else cube

    def _cube_to_read_from(self) -> tuple | None:
        """The cube whose next state tells an unsure reading's face (:func:`read_cube`): as last
        seen, or after a double the referee called, as the record keeps it, where it goes back
        (vid 9402 out of focus: the cube put back at its owner's side, read half as 8, was taken
        for twice the 4 seen offered at the other side, a double by the other player, and called)."""
        return self._recorded_cube() if self.cube_called else self.cube_seen

    def _recorded_cube(self) -> tuple:
        """The cube as the record keeps it: (value, "middle" or its owner's colour)."""
        return (self.state.cube, "middle" if self.state.owner is None else COLOUR[self.state.owner])

    def _centred_cube(self) -> int | None:
        """The value of the cube the record keeps in the middle, in a game in progress; None when
        a player owns it or no game is followed (:func:`read_cube`)."""
        state = self.state
        in_game = state.phase in ("opening", "turn", "moving", "played")
        return state.cube if in_game and state.owner is None else None

    def _classes(self, position: Position, mover: str) -> np.ndarray:
        """The reading ``position`` puts on every location, seen by the camera with ``mover`` on roll."""
        return expected_classes(position.board[None], mover, self.variant)[0]

    def _margin(self, position: Position, mover: str, logp: np.ndarray) -> float:
        """How much less likely (nats) ``position`` is than the free reading of the board (a
        point of both colours scored as :func:`explained` does, with the latest mixed reading)."""
        return free_reading(logp)[1] - explained(position, mover, logp, self.last_mixed)

    def _left_start(self) -> bool:
        """Whether the game followed has left its starting position for good (a play after the first)."""
        start = Position.start(self.state.variant)
        return self.state.position != start and self.state.before not in (start, start.swapped())

    def _end_unseen(self, why: str = SET_UP_AGAIN) -> None:
        """The game in progress ends with no result recorded, its end unseen: the board was set up
        again (a resignation agreed at the table), or the record lost the board or a game joined
        turned out not followed (the game goes on, joined again). A game set up again is one that
        ended: the official is asked for its result (a doubt), which the record then counts
        (:meth:`gammoncam.referee.Referee.state_result`)."""
        ended = {"what": "the board was set up again before the game was seen to end: its result is not in the "
                         "record, so the score leaves it out; state it if the players agree it"}
        self.end_game(EndUnseen(), inferred=why, **(ended if why == SET_UP_AGAIN else {}))

    def end_game(self, event: EndUnseen, **info):
        """End the game in progress with ``event``: unseen, or with the result an official states
        (the referee page, ``state_result``); the referee's ruling. What waited for the game (a play
        unclear, a throw held) goes with it; the board set up again starts the next."""
        self.state.apply(event)  # an event the match cannot take is refused before anything is let go
        self.pending = self.held = self.unseen = self.dice_seen = self.last_look = self.left_unplayed = None
        self.picked_up = None
        self.offered_with_throw = False
        self.glimpses, self.turn_path, self.joined = [], [], False
        return self._submit(event, **info)

    def _resume(self, logp: np.ndarray, dice) -> None:
        """The first settle of a watch started again on its log with a game in progress (the
        camera vanished, the program was stopped): the board may have moved on meanwhile. Where it
        shows what the record left (the board before the turn due, or the throw being played,
        played legally or not yet), the record goes on, and dice (``dice``: :func:`read_dice`)
        lying in the half of the player whose throw the record holds, or showing its roll, are
        that throw, not a new one (a throw of the other player's in the wrong half, called).
        One turn played meanwhile is read off the board, as a turn whose throw went unseen is (a
        watch started again a few seconds late): the player due's between turns, or, with a throw
        recorded, the other player's after the play of that throw that best explains it. Otherwise
        turns went unseen, and judged against the record they could only be called
        wrongly (a throw taken for a second one in the turn left open: ``already_thrown``), so
        the game is ended unseen and joined again at the next throw that lands on this board,
        bare (as :meth:`_record_lost` does): a gap the official can see, with a warning (vid 9701
        stopped at 40% and started again at once, and at 45%: a false call each before)."""
        self.resumed = False
        state = self.state
        if state.phase == "opening":
            agrees = self._at_start(logp)
        elif state.phase in ("turn", "played"):
            due, before = self._due()
            agrees = self._shows(before, COLOUR[due], logp)
            if not agrees and self._read_off_board([(due, before, roll) for roll in ROLLS],
                                                   logp).decision.kind == "legal":
                # one turn of the player due played while the watch was away: read off the board
                # as any turn whose throw went unseen is (:meth:`_unseen_turn`, :meth:`_missed_turn`),
                # the dice on view a throw of that turn or after it
                return
        else:  # a throw being played, or a double waiting for its answer: seen from the player on roll
            mover = COLOUR[state.on_roll]
            agrees = self._shows(state.position, mover, logp) or (
                state.phase == "moving" and decode(state.position, state.dice, mover, logp, self.thresholds).kind
                == "legal")
            if not agrees and state.phase == "moving":
                found = self._played_and_one_turn_on(logp)
                if found is not None:
                    # the throw recorded was played, and the other player's turn read off the board
                    # after it (vid 9701 stopped as dark's 4-1 landed, started again 6 s later)
                    self._play(found, state.on_roll, state.dice, inferred="played while the watch was away")
                    return
        if agrees:
            if isinstance(dice, DiceReading) and state.phase in ("moving", "played") and (
                    dice.thrower == COLOUR[state.on_roll] or sorted(dice.values) == sorted(state.dice)):
                self.dice_seen, self.dice_seen_t = dice, self.t
            return
        self._end_unseen("the watch started again on a board that has moved on since the record's last event")
        self.note("warning", text="the board is no longer where the record left the game when the watch stopped: "
                                  "the turns between went unseen, so the game is joined again at the next throw")
        if dice is None:
            self.bare_board = free_reading(logp)[0]

    def _played_and_one_turn_on(self, logp: np.ndarray) -> Decision | None:
        """With a throw recorded and its play not: the legal play of it after which one turn of
        the other player's, clearly legal for some roll, best explains the board (:meth:`_resume`);
        None if none does."""
        state = self.state
        other, best = 1 - state.on_roll, None
        boards = np.unique(state.position.play_boards(*state.dice), axis=0)
        for board in boards:
            played = Position.from_board(board, state.variant)
            read = self._read_off_board([(other, played.swapped(), roll) for roll in ROLLS], logp)
            if read.decision.kind == "legal" and (best is None or read.decision.margin < best[1]):
                best = (played, read.decision.margin)
        return None if best is None else Decision("legal", best[0], best[1], len(boards), best[0])

    def _record_lost(self, logp: np.ndarray) -> bool:
        """Whether the record, out of sync (a play taken on the benefit of the doubt), has lost
        the board for good: a bare board read as surely as a game is joined (:func:`join_position`:
        every location, or at the counts the fifteen checkers of each side pin down; vid 9304
        with the board found, a head of nine or ten read 0.5-0.7 to the game's end) that is
        surely not the position before the turn on hand (the player due's, or the play left
        unclear) and on which no play of that player's puts their checkers where they lie
        (:func:`mover_reached`; several turns went unseen, or a game was joined at a misread
        position; vid 7311 joined at 40%: three turns unseen in a row left the record off the
        board for the rest of the game, every play unclear). The game is then ended unseen and
        joined again at the next throw that lands on this board (:meth:`_join`): a record with a
        gap the official can see, rather than one that stays wrong. One look is enough (between
        turns players leave one settle without dice, often none: vid 7311), since the join asks
        the throw to land on the board read alike everywhere: one misread look does not restart
        the game's record."""
        if (self.in_sync or self.held is not None or self.unseen is not None
                or (self.pending is None and self.state.phase not in ("turn", "played"))):
            return False
        if self.pending is not None:
            before, mover = self.pending.before, self.pending.mover
        else:
            due, before = self._due()
            mover = COLOUR[due]
        classes = free_reading(logp)[0]
        position = join_position(logp, classes, mover, self.state.variant)
        if (position is None or self._margin(before, mover, logp) < self.thresholds.call
                or mover_reached(before, position)):
            return False
        self._end_unseen("the record lost the board (turns went unseen): the game is joined again at the next throw")
        self.bare_board = classes
        return True

    def _new_game(self, first: int | None = None) -> None:
        self._submit(NewGame(first=first, **(self.joined_at if self.state.game == 0 else {})))
        self.pending = None
        self.in_sync, self.joined, self.cube_off_record = True, False, False

    def _join(self, logp: np.ndarray, thrower: int | None, info: dict) -> bool:
        """Join the game in progress on view at a throw (a camera that came in mid-game): it
        begins where the board stands, the thrower on roll, the cube as it lies (at a player's
        side: theirs, RULES 5.3). Only on dice seen coming to rest on the board as it was last seen
        bare (dice lying there when watching began, vid 5003 cut at frame 1500, or read only after
        their play, vid 7305, were a throw already played: joined as a new one, the record ran a
        turn behind the board), and on a board read surely everywhere that a game can have; the
        record then waits for a clearly legal play before anything is called (``in_sync``)."""
        classes = free_reading(logp)[0]
        if (thrower is None or self.bare_board is None or (classes != self.bare_board).any()
                or self._at_start(logp)):
            return False
        position = join_position(logp, classes, COLOUR[thrower], self.state.variant)
        if position is None:
            return False
        # a cube unseen is taken as centred, the reading under which no double is called
        value, where = self.cube_seen or self._cube_as_lying() or (1, "middle")
        if where in COLOUR and value < 2:
            return False
        start = GameStart(position, thrower, 1, None) if where not in COLOUR else \
            GameStart(position, thrower, value, COLOUR.index(where))
        # The Crawford game's record lost (it ended unseen, :meth:`_record_lost`): the board joined
        # may be that game still or the game after it, which no board tells apart. The engine
        # takes the next game (post-Crawford, RULES 6.2), under which no double is called falsely.
        crawford_lost = self.state.phase == "game_over" and self.state.result is None and self.state.crawford
        # A cube lying turned in what the score makes the Crawford game was turned by a double the
        # rules void (RULES 6.4: it has no effect on the cube), so the game's cube is in the middle
        # (vid 7702 joined at 40%, after a double called and taken there: never joined before).
        centred = GameStart(position, thrower, 1, None)
        for candidate in (start, centred) if start != centred else (start,):
            try:
                self._submit(NewGame(start=candidate, **(self.joined_at if self.state.game == 0 else {})),
                             joined=str(candidate), player=thrower + 1)
                break
            except InvalidEventError as exc:
                problem = exc
        else:
            self.note("unclear", what=f"a game in progress that cannot be joined: {problem}", **info)
            return False
        if candidate is not start:
            self.note("warning", text=f"the cube lies turned where it cannot be ({problem}): a double there had no "
                                      "effect (RULES 6.4), so the game is joined with the cube in the middle")
        elif self.cube_seen is None and where in COLOUR:
            self.note("unclear", what=f"the game is joined with the cube at {where}'s side, its face unread: taken "
                                      f"as {value}", player=COLOUR.index(where) + 1)
        self.pending, self.in_sync, self.set_up, self.bare_board, self.joined = None, False, True, None, True
        if crawford_lost:
            self.note("warning", text="the Crawford game's record was lost and a game joined again: if it is still "
                                      "the Crawford game, a double in it is illegal (RULES 6.2) but is not called")
        if self.state.game == 1 and not self.joined_at and self.referee.profile.is_match:
            # 0-0 is the score under which no double is called dead (RULES 6.3) nor in the
            # Crawford game (6.2): the permissive reading, and the record says it
            self.note("warning", text="a match game joined in progress with no score given: the score is taken "
                                      "as 0-0 (watch --score L,D says it)")
        return True

    def _follow_cube_lying(self, obs: Observation) -> None:
        """Keeps where the cube lies at a player's side on the settles in a row it is found
        surely there, within a third of a die, however unsurely its face is read (:attr:`cube_lying`)."""
        where = cube_place(obs)
        if where not in COLOUR or "uv" not in obs.cube:
            self.cube_lying = None
            return
        u, v = obs.cube["uv"]
        last = self.cube_lying
        steady = last is not None and last[0] == where and np.hypot(u - last[1], v - last[2]) <= SAME_PLACE
        self.cube_lying = (where, u, v, last[3] + 1 if steady else 1, np.asarray(obs.cube["value"], np.float64))

    def _cube_as_lying(self) -> tuple | None:
        """For a game joined while the cube's face is unread: the cube as it lies, found surely at
        a player's side on :data:`CUBE_STEADY` settles in a row, showing the face above 1 it is
        likeliest to show (RULES 5.3: the cube at a side is that player's, turned at least once).
        Taken as centred, it was recorded as doubled and taken once it was seen to lie there
        (vid 7305 joined at 40%: light's cube at 2 read 2 at 0.57-0.72, a double and take
        recorded after light's first turn, and every turn after it out of order)."""
        if self.cube_lying is None or self.cube_lying[3] < CUBE_STEADY:
            return None
        where, *_, value = self.cube_lying
        return CUBE_VALUES[1 + int(np.argmax(value[1:]))], where

    def _joined_at_a_glimpse(self, dice: DiceReading, logp: np.ndarray) -> bool:
        """With no game followed (the record lost the board, or watching began mid-game), join
        the game on view at a throw read too unsurely to record, in a player's half and read as
        counting (:meth:`_join` asks as much of the board as at a throw read surely): held, so that
        its play tells the roll (:meth:`_resolve_held`). On a small board few throws are read
        surely, and those often only once their play has begun (vid 7801, 640x360, dice 15 px:
        the record was lost at turn 10 and the one throw read surely in the 110 s after it came
        with two checkers moved; 28 turns went unrecorded)."""
        state = self.state
        lost = state.phase == "game_over" and state.result is None
        if not (lost or (state.phase == "ready" and state.game == 0)) or dice.thrower is None or not dice.valid:
            return False
        thrower = COLOUR.index(dice.thrower)
        roll, p = dice.likely()
        if not self._join(logp, thrower, {"dice": list(roll), "player": thrower + 1}):
            return False
        self.held = dice
        self.note("throw_unsure", dice=list(roll), probability=round(p, 3), surely_counts=dice.valid_sure,
                  player=thrower + 1)
        self.glimpses, self.turn_path = [], []
        self.last_look = self.left_unplayed = self.picked_up = None
        self.dice_seen, self.dice_seen_t = dice, self.t
        return True

    # -- throws ---------------------------------------------------------------------------
    def _thrown_after_the_other(self, dice: DiceReading, logp: np.ndarray) -> bool:
        """Whether two dice in the half of the player on roll, read too unsurely to record
        (``faces_sure`` False), are still a new throw of theirs: their play is open, their throw
        was seen picked up, and since then the other player's two dice were glimpsed in the
        other half and seen gone, these two lying elsewhere; or their play is recorded, and
        since then the other player's dice were glimpsed (a die of them will do) and the board
        shows the other player played. Turns alternate, each a throw, its play and the dice
        picked up (RULES 7.1), so the other player's turn went by unseen, and this throw is
        taken as thrown (held till its play tells the roll): the open play is judged and the
        turn between read off the board. Else :meth:`_glimpse` leaves such dice as the open
        throw's or a false find (vid 9304 with the board found, long nardy at 1920x1080: dark's
        3-1 after light's 5-5 was glimpsed, a die read 1 or 5 at 0.47 each; dark's 5-3 stayed
        open under both turns, and the record went on two turns behind the board, every play
        unclear), or waits for a throw read surely (vid 9814, dice 24-34 px: dark's 4-4 glimpsed
        as one 4, light's 4-3 read 6-3 unsurely, no throw read surely for 11 s; the record was
        judged lost and the game joined again 50 s later)."""
        state = self.state
        if (state.phase not in ("moving", "played") or self.dice_seen is not None or self.last_look is not None
                or dice.thrower != COLOUR[state.on_roll] or len(dice.faces) != 2):
            return False
        other = COLOUR[1 - state.on_roll]
        if state.phase == "played":
            # their play recorded, the other's glimpsed (a die may be enough) and on the board
            return any(g.thrower == other for g in self.glimpses) and self._board_moved(logp)
        return any(g.thrower == other and len(g.faces) == 2 and not g.same_throw(dice) for g in self.glimpses)

    def _thrown_in_the_wrong_half(self, dice: DiceReading, logp: np.ndarray) -> bool:
        """In backgammon, whether two dice read too unsurely to record (``faces_sure`` False) are
        still a throw, the player due's into the other player's half (RULES 2.3): they lie in the
        half of the player who just played, whose own dice were seen picked up, and not where
        those lay, on the board as that player left it, which every roll would change (no dance
        possible). That player's turn is the one recorded or, its throw unseen, the one read off
        the board (:attr:`unseen`), whose dice a look saw lying once it was played and then gone:
        a die alone is enough. No one throws twice before the other has played, and a throw that
        does not count needs no roll read: :meth:`_throw` records the re-roll. Else
        :meth:`_glimpse` leaves such dice as that player's last throw or a false find (vid 9991
        in a dim room: light's 5-5 thrown into dark's half just after dark's 6-1 was seen picked
        up, one 5 read 0.47, went uncalled; vid 9998: light's 6-5 in dark's half, read 6-6 at
        0.51 and 0.45, after dark's 4-1 was seen only as one die, lying through its play)."""
        state, gone, unseen = self.state, self.picked_up, self.unseen
        if unseen is not None:
            played, before = unseen.side, unseen.decision.position.swapped()
        elif state.phase == "played":
            played, before = state.on_roll, state.position.swapped()
        else:
            return False
        if (self.variant != "backgammon" or gone is None or len(dice.faces) != 2 or dice.thrower is None
                or COLOUR[played] != dice.thrower or gone.thrower != dice.thrower
                or self.dice_seen is not None or self.last_look is not None or self.held is not None
                or self.pending is not None or not self.in_sync or gone.same_throw(dice)):
            return False
        # a dance leaves the board as it was: where a roll would leave the player due no play,
        # the other player's dice may be their next throw after a dance unseen (vid 9933)
        return self._dance_unglimpsed(before) is None and self._shows(before, COLOUR[1 - played], logp)

    def _glimpse(self, dice: DiceReading, logp: np.ndarray) -> None:
        if self.dice_seen is not None and self.dice_seen.same_throw(dice):
            return  # a look at a throw already seen (a hand over a die) tells nothing new
        if self.state.phase in ("turn", "played") and dice.thrower is not None:
            # the player to throw next: the one due, or once their throw is held, the other
            held = self.held.thrower if self.held is not None else None
            next_up = 1 - COLOUR.index(held) if held else self._due()[0]
            if COLOUR.index(dice.thrower) != next_up:
                if not self._board_moved(logp):
                    # No one throws twice before the other has played: dice in the half of the
                    # player not next on a board as recorded are their last throw's, or a false
                    # find, never a throw that tells of a turn unseen (vid 7311: a checker on the
                    # bar found weakly as a die in dark's half after dark's dance, held as unsure,
                    # was taken for a second dance, and light's play split in two).
                    return
                self.turn_unseen_glimpsed = (self.state.game, self.state.throws)
        if self.state.phase == "moving" and dice.thrower == COLOUR[self.state.on_roll]:
            # So too while the player on roll plays a throw that counted: dice in their half are
            # that throw's or a false find (vid 7311 joined at 40%: that same checker found as a
            # die after dark's dance was picked up but before a settle saw it gone).
            return
        same = [g for g in self.glimpses if g.same_throw(dice)]
        look = dice
        if same:  # the clearer look at each die, and two dice seen over one
            look = (same[0].seen_again(dice) if len(same[0].faces) == len(dice.faces)
                    else max(same[0], dice, key=lambda g: len(g.faces)))
        self.glimpses = [g for g in self.glimpses if not g.same_throw(dice)][-1:] + [look]

    def _throw(self, dice: DiceReading, logp: np.ndarray) -> None:
        if self.unseen is not None:
            side = self.unseen.side
            other, after = 1 - side, self.unseen.decision.position.swapped()
            danced = None
            looks = [g for g in self.glimpses if g.thrower in (None, COLOUR[side])]  # at that turn's dice
            if dice.thrower is None:
                # Dice in no one half (a throw that does not count, RULES 2.3) are that turn's
                # own only where a look at its throw saw them; new dice are the next throw (vid
                # 7419: light's 2-1 read off the board, then dark's dice across the halves taken
                # for light's, and light's play called illegal for a 6-3).
                over = not any(g.same_throw(dice) for g in looks)
            elif COLOUR.index(dice.thrower) != side:
                over = True  # the other player threw
            else:
                # The player of the turn read off the board throws again: the other danced between
                # if their throw was glimpsed, in their half or across both (as in
                # :meth:`_played_before_danced`; vid 7311). These are the next throw too if that
                # turn's two dice were glimpsed elsewhere and seen gone since: the other player's in
                # the wrong half (vid 8609 out of focus: taken for light's own dice read at last,
                # and light's play called illegal for them). A die alone may be a false find, but
                # not one seen gone once the turn was played (vid 9998). Else they are the turn's own dice.
                danced = self._dance_glimpsed(other, after, dice, either_half=True)
                gone = [g for g in (self.picked_up,) if g is not None and g.thrower == COLOUR[side]]
                pairs = [g for g in looks if len(g.faces) == 2] + gone
                over = danced is not None or (bool(pairs) and not any(g.same_throw(dice) for g in pairs)
                                              and self.last_look is None)
            if over:  # the turn read off the board is over
                if danced is None and self._foul_gone(logp):
                    self._missed_turn(logp, dice)
                else:
                    self._settle_unseen()
                played = None if danced is None else self._played_not_danced(other, after, danced, logp, dice)
                if played is not None:
                    self.unseen = played
                    self._settle_unseen()
                elif danced is not None:
                    self._record_dance(other, after, danced)
            else:
                # the player's own dice, read at last: their turn is followed as seen
                self.unseen, self.turn_path = None, []
        elif self.held is None and self.pending is None and self.in_sync:
            self._played_before_danced(dice, logp)
        if self.held is not None:
            self._resolve_held(logp)
        thrower = COLOUR.index(dice.thrower) if dice.thrower else None
        info = {"dice": list(dice.values), "player": None if thrower is None else thrower + 1}
        unplayed = self.pending is not None and self.pending.unplayed and thrower in (None, self.state.on_roll)
        if unplayed and self.joined:
            # In a game joined in progress, dice picked up unplayed and thrown again tell more
            # likely of a join at a throw already played (vid 7305: read only after its play)
            # than of a re-roll: the game is left, to be joined again at a throw seen landing.
            self._end_unseen("the game joined was not followed: its first throw was picked up unplayed")
            return
        if unplayed:
            self.pending = None  # the throw picked up unplayed did not count: a re-roll (RULES 2.3)
            self._submit(Throw(*self.state.dice, valid=False), dice=list(self.state.dice),
                         player=self.state.on_roll + 1,
                         why="picked up unplayed and thrown again: the throw did not count")
        if self.pending is not None:
            self._commit_pending("the opponent threw")
        self._turn_missed_before(thrower, dice, logp)
        self._rethrown(dice)
        if self.state.phase == "moving":  # the dice changed while a play was open: the turn ended
            self._end_play(logp)
        if self.state.phase == "doubled":
            # Throws go on only after a take (a drop ends the game): the take went unseen. The
            # taker's throw tells that the doubler's turn went unseen too (vid 7116: a false
            # out-of-turn call when only the doubler's throw was taken for a take).
            self._submit(Take(), inferred="the doubler threw" if thrower in (None, self.state.on_roll)
                         else "the game went on")
        if self.state.phase in ("ready", "game_over") and self.variant == "long":
            if (turns := self._first_turns_missed(thrower, logp, dice)) is not None:
                # The thrower's first turn and the other player's after it both went unseen (vid
                # 9814, a board 262 px wide: light's 24/19 read 5.6 nats from the start, short of
                # a turn read off the board, then dark's 24/18; light's next throw was taken for
                # the first, and no turn of the game was recorded right)
                for read in turns:
                    self.unseen = read
                    self._settle_unseen()
            elif self._first_turn_missed(thrower, logp):
                # The board set up has surely left the start, though no turn was read off it
                # clearly (vid 8503, corners a hundredth off: the heads read unsurely): the other
                # player's first turn went unseen, and the game began with it.
                self._new_game(first=1 - thrower)
                self._missed_turn(logp, dice)
            elif self._at_start(logp) or (self.state.phase == "ready" and self.set_up):
                self._new_game(first=thrower if thrower is not None else 0)
        if self.state.phase in ("ready", "game_over") and not self._join(logp, thrower, info):
            # No game start was seen, nor a game in progress read surely: the referee has no
            # game to judge this throw in, and a call now could only be wrong. Told once till a
            # game is followed again (vid 10045: a foul on a point both colours stand on ended the
            # record, and the 15 throws after it were each noted).
            if self.no_game_noted != self.state.game:
                self.no_game_noted = self.state.game
                self.note("unclear", what="a throw while no game is seen in progress: throws are not followed till "
                                          "a game is seen set up, or joined", **info)
            return
        if self.state.phase == "match_over":
            # The record has the match over, yet the dice are thrown: the record ended it on a
            # board misread (a game's end read too soon), or the players play on for fun; a call
            # now could only be wrong or needless (vid 10039 in a dim room: the record a turn
            # off, the game's end read early, each throw after it called out of turn).
            self.note("unclear", what="a throw after the record has the match over", **info)
            return
        if self.state.phase == "opening":
            d1, d2 = dice.values
            if d1 == d2:
                if dice.likely()[1] < HOLD or not dice.legible:
                    # A tie read unsurely may be the opening's roll with a die misread (vid 9709: a
                    # 6-5 read 5-5, the 6 at 0.19): held, a tie if the dice are picked up from the
                    # start, else the opening that explains the play (:meth:`_resolve_held`).
                    self.held = dice
                    self.note("throw_unsure", probability=round(dice.likely()[1], 3), **info)
                    return
                self.note("opening_tie", **info)
                return
            first = thrower if thrower is not None else 0
            if not self._at_start(logp):
                # Dice small or hidden: the opening may have been played before its dice were
                # read surely (vid 7312: a 4-1 glimpsed, played, then read 5-1), or the dice just
                # thrown hide checkers (7202, 7305: a board that looked like a 2-1's play). The
                # throw is held, and its roll told by faces and board together once the play is
                # over; nothing is called until a clearly legal play shows record and board agree.
                self.in_sync = False
                self.held = dice
                self.note("unclear", what="the first throw seen comes after the board left the start", **info)
                return
            event = OpeningThrow(d1, d2) if first == 0 else OpeningThrow(d2, d1)
            self._submit(event, **info)
            return
        if thrower is not None and self.state.phase in ("turn", "played") and thrower != self._due()[0]:
            if self.variant == "backgammon":
                # Nobody has played since the last play recorded, so the player due threw into
                # the other's half: tournament dice lie in the thrower's right-hand half, so the
                # throw does not count (RULES 2.3); it is not a missed turn.
                if not self._danced_and_threw_again(dice):
                    self._submit(Throw(*dice.values, valid=False), dice=list(dice.values),
                                 player=self._due()[0] + 1, why="the dice lie in the other player's half")
                return
            else:  # long nardy: either half counts, so this is the throw of the player due
                dice = replace(dice, half=None)
        dice = self._taken_as_counting(dice, logp)
        roll, p = dice.likely()
        if not dice.legible and not self.small_dice_told:
            self.small_dice_told = True
            self.note("warning", text=f"the dice are read from {dice.px:.0f} px, under {LEGIBLE_PX:.0f}: a play one "
                                      "misread die could explain is not called; bring the camera closer or raise "
                                      "its resolution")
        unsure = p < HOLD or not dice.legible or not dice.valid_sure
        if dice.valid and unsure and self.state.phase in ("turn", "played"):
            # recorded with the play, which tells the roll and that it counted (_resolve_held); dice
            # read from few pixels are misread surely too often for the reading alone to tell the roll
            self.held = dice
            self.note("throw_unsure", dice=list(roll), probability=round(p, 3), surely_counts=dice.valid_sure,
                      player=info["player"])
            return
        self._submit_throw(roll, dice)

    def _turn_missed_before(self, thrower: int | None, dice: DiceReading, logp: np.ndarray) -> None:
        """The other player than the one due threw (``thrower``): the turn of the player due went
        unseen if the board moved from the position before it (:meth:`_missed_turn`), or was a
        dance glimpsed (:meth:`_missed_dance`), and is recorded before the throw is judged, so
        that a throw made again is told as the thrower's (vid 9814, long nardy: dark's 2-1 seen as
        one die and picked up, light's 6-4 across the halves, picked up, and light's 4-1 thrown
        again; dark's turn was read off the board only after the throw was judged, with dark still
        due, and the re-roll went uncalled). A throw left unplayed by the thrower before a board
        that moved since was played after all, as when the dice are seen gone
        (:meth:`observe`), not thrown again."""
        if thrower is None or self.state.phase not in ("turn", "played") or thrower == self._due()[0]:
            return
        if not self._shows(self._due()[1], COLOUR[self._due()[0]], logp):
            self._missed_turn(logp, dice)
        elif not self._missed_dance(dice):
            return
        if self.left_unplayed is not None and self.state.phase in ("turn", "played") and self._board_moved(logp):
            self.picked_up, self.left_unplayed = self.left_unplayed, None

    def _still_rolling(self, seen: DiceReading, dice: DiceReading) -> bool:
        """Whether ``dice``, another throw than the dice ``seen`` at the last settle but one a
        moment ago (:data:`ROLLING_S`) in the same half, are those dice still rolling: in a dim
        room dice sliding slowly change too few pixels to keep the board unsettled, and a settle
        reads them on their way (vid 10013 in a dim room: dark's 6-5 read 5-3, then 6-1 0.2 s on
        and some way off, then 6-5 at rest; taken for picked up unplayed and thrown again, a
        false re-roll call, twice in the game)."""
        return self.t - self.dice_seen_t <= ROLLING_S and dice.half == seen.half

    def _rolled_on(self, dice: DiceReading) -> None:
        """The dice seen at the last settle were still rolling (:meth:`_still_rolling`): the
        throw is what they show now, ``dice``. A throw held as unsure is held as now read; one recorded from them, with
        nothing played since, is corrected to the roll read now (:class:`~engine.match.DiceCorrected`:
        no call, its play is judged on it)."""
        self.dice_seen, self.dice_seen_t = dice, self.t
        if self.held is not None:
            self.held = dice
            return
        self._read_again(dice, "the dice were still rolling: read again")

    def _read_again(self, dice: DiceReading, why: str, sure: float = 0.0) -> None:
        """The throw recorded from ``dice``, with nothing played since (the throw is the record's
        last event), corrected to the roll they show now where that is another
        (:class:`~engine.match.DiceCorrected`: no call, its play is judged on it; a roll an earlier
        look read stays possible for a call, :meth:`DiceReading.rolls_read`)."""
        state, last = self.state, self.referee.events[-1] if self.referee.events else None
        roll, chance = dice.likely()
        if (isinstance(last, Throw) and state.phase == "moving" and COLOUR[state.on_roll] in (dice.thrower, None)
                and sorted(roll) != sorted(state.dice) and chance >= sure):
            self._submit(DiceCorrected(*roll), player=state.on_roll + 1, dice=list(roll),
                         recorded=sorted(state.dice, reverse=True), why=why)

    def _danced_and_threw_again(self, dice: DiceReading) -> bool:
        """In backgammon, where the half tells the thrower: whether the last turn recorded was a
        dance by the player whose half these dice lie in, with nothing moved since: either that
        throw did not count after all (a die cocked that looked flat from the camera: vid 9301,
        dark's cocked 4 read surely as a 6-4 dance, then dark's 5-4 thrown again was called as
        light's throw in the wrong half) or the other player threw into the wrong half. The board
        cannot tell whose throw it is, so nobody is called and nothing recorded; the next throw in
        the right half goes on from the dance."""
        state, thrower = self.state, COLOUR.index(dice.thrower)
        if not (state.phase == "played" and state.on_roll == thrower and state.position == state.before):
            return False
        self.note("unclear", what="dice in the half of the player who danced: their throw again, or the other "
                  "player's in the wrong half", dice=list(dice.values), player=thrower + 1)
        return True

    def _thrown_again(self, dice: DiceReading) -> bool:
        """Whether ``dice`` are the player due's throw made again: their last throw was seen only
        in part (faces too unsure to record, or one die alone) and read as perhaps not counting
        (:data:`RETHROWN`; a die alone, the other unfound, never surely counts), then seen gone
        with nothing surely played, so the players took it as not counting (a cocked die, RULES
        2.3; vids 5013, 7106, 7203: a cocked die read unsurely; 7101, 7202, 7305: a cocked die
        unfound), though a die of the throw made again lie where one lay (vid 7304:
        :meth:`DiceReading.lying_still_in`). Nothing played is judged on the boards seen with the
        dice gone (new dice can hide a checker: vid 7305). The thrower is told by the dice's
        half, so in long nardy, where either half counts, only dice in the player's own
        right-hand half are taken as theirs; two dice lying across both halves, a throw that does
        not count and no other player's, are the player due's too where they show another roll
        than the last throw recorded (so not that throw's dice on their way off the board; vid
        9803, long nardy: light's 2-1 across the halves, glimpsed, then 6-2 thrown again, no
        re-roll called before). Nothing is called while the record and the board disagree
        (``in_sync``): the boards then cannot tell that nothing was played (vid 9205 joined at
        40%: a 9 px die read alone as a 1, the same throw then read 3-2, called a re-roll just
        after a play recorded unclear)."""
        last = self.left_unplayed
        across = (last is not None and last.thrower is None and len(last.faces) == 2
                  and sorted(last.values) != sorted(self.state.dice or ()))
        return not (last is None or last.counts > RETHROWN or last.lying_still_in(dice) or dice.thrower is None
                    or (last.thrower != dice.thrower and not across) or self.held is not None
                    or self.unseen is not None or self.state.phase not in ("turn", "played") or self.joined
                    or not self.in_sync or COLOUR[self._due()[0]] != dice.thrower)

    def _rethrown(self, dice: DiceReading) -> None:
        """The player due threw: the referee is told of the re-roll if these are their throw made
        again (:meth:`_thrown_again`), and the throw left unplayed is done with."""
        last, thrown_again = self.left_unplayed, self._thrown_again(dice)
        self.left_unplayed = None
        if thrown_again:
            # a die alone is logged as thrown twice (the referee's throw has two dice); the event
            # says what was seen
            roll = last.likely()[0] if len(last.faces) == 2 else last.values * 2
            self._submit(Throw(*roll, valid=False), dice=list(roll if len(last.faces) == 2 else last.values),
                         player=self._due()[0] + 1, why="picked up unplayed and thrown again: the throw did not count")

    def _taken_as_counting(self, dice: DiceReading, logp: np.ndarray) -> DiceReading:
        """Dice read as not counting that the player due has begun to play: the players took
        the throw as counting, whatever the reader makes of a die (vid 7105: a flat die read as
        cocked once the first checker had moved), so it is held as perhaps counting and its
        play decides (:meth:`_resolve_held`)."""
        if dice.valid or self.state.phase not in ("turn", "played") or not self._board_moved(logp):
            return dice
        return replace(dice, valid=True, valid_sure=False)

    def _board_moved(self, logp: np.ndarray) -> bool:
        """In phase "turn" or "played": whether the board surely no longer shows the position
        before the turn of the player due (that player has begun to play, or played unseen):
        as surely as an illegal play is called, since a record taken on the benefit of the
        doubt differs from the board by a few nats with nothing moved (long nardy, vid 7117). Or,
        where the player may bear off, a lone checker borne off: the one move that changes a
        single location (every other empties one point and fills another), as surely as
        :data:`BORNE_OFF_SEEN` and clearly a legal play (vid 9205 with the board found: dark's
        8/3/off read 7.6 nats from the board before; light's bear-off came on top of it unseen,
        and nothing was recorded for a minute, nine turns)."""
        due, before = self._due()
        mover = COLOUR[due]
        margin = self._margin(before, mover, logp)
        if margin >= self.thresholds.call:
            return True
        return (margin >= BORNE_OFF_SEEN and may_bear_off(before)
                and any(decode(before, roll, mover, logp, self.thresholds).kind == "legal" for roll in ROLLS))

    def _due(self) -> tuple[int, Position]:
        """In phase "turn" or "played": the player due to throw next, and the board before
        their turn from their side (the player on roll, or after their play the other one)."""
        state = self.state
        if state.phase == "turn":
            return state.on_roll, state.position
        return 1 - state.on_roll, state.position.swapped()

    def _submit_throw(self, roll: tuple, dice: DiceReading, **info) -> None:
        thrower = COLOUR.index(dice.thrower) if dice.thrower else None
        self._submit(Throw(*roll, valid=dice.valid), dice=list(roll),
                     player=None if thrower is None else thrower + 1, **info)

    def _roll_explaining(self, before: Position, mover: str, dice: DiceReading, logp: np.ndarray,
                         rolls: tuple = ROLLS, path: tuple = ()) -> tuple[tuple, tuple]:
        """Of ``rolls``, the one that with its likeliest legal play best explains the dice's
        faces and the board together (log-probability of the roll from the faces, less the
        play's margin), and the rolls the board tells no better from it (the same play, or
        another dance), between which only the faces choose. Rolls the faces all but rule out
        (under :attr:`DiceReading.floor`, and kept possible by no look:
        :meth:`DiceReading.rolls_possible`) count only when some roll
        they allow explains the play too: then nothing can be called, and the board may well
        tell of two dice misread alike (vid 7312: a 3-3 read 1-1, its play 4 nats from the
        reading, a 3-1's 20). When the play is illegal under every roll the faces allow, the
        roll the faces tell: a foul is judged against it (how near another roll's legal plays
        come to the board says nothing of what was thrown: vid 5303 recorded 6-4 for 6-1); but where
        the board shows instead the other player's legal play, a roll the faces allow that
        leaves no play, the likeliest: the player danced, and the other's turn followed unseen
        (vid 7311 through a stream's compression: a 6-6 dance read 6-4 at 0.6 was judged
        against light's 3-1, recorded as a 6-4's entry, and the record lost the board).

        Of the rolls allowed whose likeliest play is that clearly legal play, those that lead
        through the boards seen mid-turn (``path``) come first (:meth:`_through_path`): 13/4 is
        a 6-3's and a 5-4's, but 13/7 then 7/4 only a 6-3's, however likelier the faces make 5-4."""
        if len(dice.faces) != 2:
            return dice.values, (dice.values,)
        chance = roll_probabilities(dice.faces)
        read = dice.rolls_possible()
        explained = [(float(np.log(max(chance[roll], 1e-300))) - decision.margin,
                      chance[roll] >= dice.floor or roll in read, roll, decision)
                     for roll in rolls for decision in [decode(before, roll, mover, logp, self.thresholds)]
                     if decision.kind != "illegal"]
        if not any(allowed for _, allowed, _, _ in explained):
            likeliest = max(rolls, key=chance.get)
            dances = [roll for roll in rolls if (chance[roll] >= dice.floor or roll in read)
                      and not before.plays(*roll)[0].steps]
            if dances and opponent_played(before, decode(before, likeliest, mover, logp, self.thresholds).position):
                return max(dances, key=chance.get), tuple(dances)
            return likeliest, (likeliest,)
        best = max(explained, key=lambda e: e[0])
        if best[3].kind != "legal":
            return best[2], (best[2],)
        same = [e for e in explained if (e[1] or e is best) and e[3].kind == "legal"
                and e[3].position == best[3].position]
        through = self._through_path(before, mover, [e[2] for e in same], best[3].position, path)
        return max((e for e in same if e[2] in through), key=lambda e: e[0])[2], tuple(through)

    def _resolve_held(self, logp: np.ndarray) -> None:
        """The turn of a throw held as unsure (or an opening held as first read after the board
        left the start, or as a tie read unsurely: a tie after all if nothing was played) ended:
        record the roll that, with its likeliest legal play, best
        explains both the dice's faces and the board (:meth:`_roll_explaining`), then read the play.
        A throw that may not have counted (a die perhaps cocked), picked up with the board as it
        was though the roll could be played, did not count: the players threw again (RULES 2.3)."""
        held, self.held = self.held, None
        path, self.turn_path = self.turn_path, []  # the boards seen on the way were this turn's
        state = self.state
        if state.phase == "opening":  # each player's die, light's first; the higher moves first (RULES 2.1)
            if held.values[0] == held.values[1] and self._at_start(logp):
                self.note("opening_tie", dice=list(held.values), player=None if held.thrower is None
                          else COLOUR.index(held.thrower) + 1)  # picked up with nothing played: thrown again
                return
            first = COLOUR.index(held.thrower) if held.thrower else 0
            if self._opening_passed(COLOUR[first], logp):
                self._end_unseen("the first throw seen came turns after the opening: the game is joined at a throw")
                self.bare_board = free_reading(logp)[0]
                return
            (d1, d2), fits = self._roll_explaining(state.position, COLOUR[first], held, logp, OPENING_ROLLS, path)
            self._submit(OpeningThrow(d1, d2) if first == 0 else OpeningThrow(d2, d1), dice=[d1, d2],
                         player=first + 1, read=list(held.values), resolved="the roll that explains the play")
            self._note_roll_guessed(first, (d1, d2), fits, held, "read unsurely")
            self._end_play(logp)
            return
        if state.phase not in ("turn", "played"):  # the game moved on (a drop, a new game)
            return
        due, before = self._due()
        mover = held.thrower or COLOUR[due]
        if (not held.valid_sure and before.plays(*held.likely()[0])[0].steps
                and (self._shows(before, mover, logp) or self._unmoved_since_thrown(logp, held))):
            self._submit_throw(held.likely()[0], replace(held, valid=False),
                               why="picked up unplayed: the throw did not count")
            return
        best, fits = self._roll_explaining(before, mover, held, logp, path=path)
        likely, p = held.likely()
        self.held_read = (before, held.rolls_read())
        self._submit_throw(best, held, resolved="the roll that explains the play")
        if best == likely:  # else the note below tells of the likelier roll
            self._note_roll_guessed(COLOUR.index(mover), best, fits, held, "read unsurely")
        # No call, but the official is told (vid 5303: a 6-1 read, a 6-2 played), once the throw is
        # recorded: the doubt names its turn.
        likelier = None if best == likely else decode(before, likely, mover, logp, self.thresholds).kind
        if likelier is not None:
            # the play recorded is no play of the likelier roll: a foul if that was thrown, unless
            # the board was misread too (unclear), which a play put right must then not be taken for
            self.note("unclear", what=f"the play fits {best[0]}-{best[1]}, a roll the dice were read less likely to "
                      f"show than {likely[0]}-{likely[1]}", player=COLOUR.index(mover) + 1, played_as=list(best),
                      **doubt_of_dice(likely, held.faces, held.px, likelier != "legal"))
            if likelier == "illegal":
                self.doubted_roll = (before, likely)
        if self.state.phase == "moving":
            self._end_play(logp)
        if likelier == "unclear":
            # the board may be the likelier roll's legal play misread as well as the play recorded:
            # nothing is called until a clearly legal play shows record and board agree (vid 9609:
            # a 6-5 read 0.94 played 5/off 4/1, recorded as a 5-3; put right unseen to 5/off 4/off,
            # light's next play was called against the checker the record kept on the 1-point)
            self.in_sync = False

    def _unmoved_since_thrown(self, logp: np.ndarray, dice: DiceReading) -> bool:
        """Whether the board on view reads as it did when ``dice`` were first seen, as surely as
        a legal play: nothing was played with them. The board before the turn may read further
        off in a dim room, where a stack misread alike at every look keeps the record a few nats
        from the board (vid 10039 in a dim room: light's 1-1 with a die cocked, picked up unplayed
        some 20 nats from the record's board, was recorded as thrown, and the 5-2 thrown again
        taken for dark's next throw). The board is the one ``dice`` were thrown on, not the last
        throw's (vid 7801 in a dim room: dark's 4-2 across the bar, held as perhaps not counting,
        was played, and light's throw glimpsed after it; picked up, dark's was judged by the
        board light threw on, unmoved, a false re-roll call)."""
        boards = [board for thrown, board in self.thrown_on if thrown.same_throw(dice)]
        if not boards:
            return False
        read = logp[np.arange(len(boards[-1])), boards[-1]]
        return float((logp.max(axis=1) - read).sum()) <= self.thresholds.legal

    def _opening_passed(self, mover: str, logp: np.ndarray) -> bool:
        """Whether the board, when the first throw seen after the start ends its turn, shows
        turns gone by: no opening play of ``mover`` comes within a call's margin of it, nor puts
        their checkers where they lie (:func:`mover_reached`). The record then has no opening to
        write: the game is joined where it stands (vid 8401, a board 213 px wide whose dice went
        unread for 111 s: an opening recorded 90 nats from the board, then every play as far)."""
        start = self.state.position
        margin = min(decode(start, roll, mover, logp, self.thresholds).margin for roll in OPENING_ROLLS)
        reading = reading_position(free_reading(logp)[0], mover, self.state.variant)
        return margin >= self.thresholds.call and reading is not None and not mover_reached(start, reading)

    def _missed_turn(self, logp: np.ndarray, thrown: DiceReading | None = None, over: bool = True) -> None:
        """The other player threw (``thrown``, when it was their throw that told) or doubled
        while the player on roll had no throw seen: that throw and its play were missed (dice
        never read with confidence). The board shows the play, so the roll and legal play that
        explain it best are recorded (:meth:`_read_off_board`). When no play is clearly legal
        the likeliest stands on the benefit of the doubt (the turns must stay in order) and
        nothing is called until a clearly legal play shows the record agrees with the board,
        unless the play is illegal whatever was thrown (:meth:`_foul_unseen`) and the turn
        surely ``over``: not while dice lie on view, the play perhaps half made."""
        side, before = self._due()  # whose turn was missed, and the board before it
        read = self._read_off_board([(side, before, roll) for roll in ROLLS], logp, thrown)
        decision = read.decision
        foul = self._foul_unseen(side, before, logp, thrown) if decision.kind != "legal" and over else None
        if foul is not None:
            read = foul
        elif decision.kind != "legal":
            read = replace(read, decision=Decision("unclear", decision.best_legal, decision.margin,
                                                   decision.candidates, decision.best_legal))
        self.unseen = read
        self._settle_unseen()

    def _missed_dance(self, thrown: DiceReading | None = None, doubled: bool = False) -> bool:
        """The other player acts (``thrown``: their throw) while the board shows nothing played
        by the player due, whose throw was glimpsed in their half and picked up: a roll that left
        them no play (a dance on the bar), recorded as the likeliest such roll from the glimpse.
        Without a glimpse the turn is not assumed after a throw: their dice in the other half
        may be a throw that does not count (RULES 2.3). After the other player ``doubled``, the
        cube theirs or in the middle, it is, where a roll leaves no play: a player doubles only
        at the start of their turn (RULES 5.2), and a dance is the one turn that leaves the board
        as it was (vid 8403 out of focus: dark's 5-3 dance unseen, light's redouble was judged as
        dark's and called). Not for a double by a player without the cube: a face misread."""
        side, before = self._due()
        danced = self._dance_glimpsed(side, before, thrown) or (self._dance_unglimpsed(before) if doubled else None)
        if danced is None:
            return False
        self._record_dance(side, before, danced)
        return True

    def _record_dance(self, side: int, before: Position, danced: tuple) -> None:
        """Record ``side``'s dance from ``before``: (the roll, the glimpse of it or None, every
        roll that dances). A dance leaves the board as it was, whatever the board on view shows
        of later turns, so it is recorded as the one play there is, not judged against the board."""
        roll, glimpse, dances = danced
        self.glimpses = []
        how = "glimpsed: no play was possible" if glimpse else "not seen: the other player acted next"
        self.note("turn_missed", player=side + 1, decision="legal", rolls=[list(r) for r in dances],
                  glimpse=list(glimpse.values) if glimpse else None)
        self._submit(Throw(*roll), dice=list(roll), player=side + 1, inferred=how)
        self._play(Decision("legal", before, 0.0, 1, before), side, roll, inferred=how)
        self._note_roll_guessed(side, roll, dances, glimpse)

    def _danced_unseen(self, logp: np.ndarray, thrown: DiceReading | None = None) -> bool:
        """In phase "turn" or "played", the board no longer showing the position before the
        turn of the player due: whether it shows instead a play of the *other* player's, clearly
        legal for some roll, while the player due is on the bar with rolls that leave no play.
        Then that player danced and the other played, both throws unseen (``thrown``, the throw
        that told, is neither); the dance is recorded (its roll the likeliest of those that
        dance, by a glimpse of the dancer's dice where there is one), and the other player's turn
        is kept as read off the board (:attr:`unseen`). A play on the board is no throw in the
        wrong half, so no glimpse is needed (vid 7903, a board 222 px wide: dark's 6-3 dance on
        light's closed board and light's 5-4, both unseen; dark's next throw was judged against
        light's play, and the record was lost)."""
        side, before = self._due()
        unglimpsed = self._dance_unglimpsed(before)
        if unglimpsed is None:
            return False
        read = self._read_off_board([(1 - side, before.swapped(), roll) for roll in ROLLS], logp, thrown)
        if read.decision.kind != "legal":
            return False
        self._record_dance(side, before, self._dance_glimpsed(side, before, thrown) or unglimpsed)
        self.unseen = read
        return True

    def _danced_after_unseen(self, logp: np.ndarray, glimpsed: DiceReading | None = None) -> bool:
        """With a turn read off the board waiting (:attr:`unseen`) and the board no single turn
        of its player's: whether it shows a second play of theirs on top of the one read, clearly
        legal for some roll, while the other player, on the bar, has rolls that leave no play.
        Then the other player danced between, all three throws unseen or only glimpsed: the turn
        read is recorded, then the dance (its roll the likeliest of those that dance, by a glimpse
        of the dancer's dice where there is one), and the second play is kept as read off the
        board (vid 9205, dice 9 px: light's 4-3 read off the board, dark's 4-4 dance glimpsed,
        light's 2-1; dark's next throw was judged against light's two plays, and the record was
        lost). Not while the dice ``glimpsed`` now are the turn's own, still lying where they were
        glimpsed with it: nobody threw since, and the turn goes on (vid 9708: light's 5-5 borne
        off a checker at a time, read as three turns of light's with two dances of dark's between)."""
        side, after = self.unseen.side, self.unseen.decision.position
        own = self.unseen.glimpse
        if glimpsed is not None and own is not None and own.thrower == COLOUR[side] and own.same_throw(glimpsed):
            return False
        theirs, dancer_before = 1 - side, after.swapped()
        unglimpsed = self._dance_unglimpsed(dancer_before)
        if unglimpsed is None or self._margin(after, COLOUR[side], logp) < self.thresholds.call:
            return False
        again = self._read_off_board([(side, after, roll) for roll in ROLLS], logp)
        if again.decision.kind != "legal":
            return False
        danced = self._dance_glimpsed(theirs, dancer_before, None) or unglimpsed
        self._settle_unseen()
        self._record_dance(theirs, dancer_before, danced)
        self.unseen = again
        self._note_path(logp)
        return True

    @staticmethod
    def _dance_unglimpsed(before: Position) -> tuple | None:
        """(the likeliest roll, no glimpse, every roll) of a dance from ``before`` with its dice
        unseen, or None where every roll leaves a play."""
        dances = [roll for roll in ROLLS if not before.plays(*roll)[0].steps]
        return (max(dances, key=CHANCE.get), None, dances) if dances else None

    def _played_before_danced(self, dice: DiceReading, logp: np.ndarray) -> None:
        """The player due throws while the board already shows a play of theirs, clearly legal
        for some roll, and the other player was glimpsed throwing since, a roll that leaves them
        no play: the due player's last turn went unseen (its dice only glimpsed, no settle
        without dice before the next throw) and the other player danced. Both are recorded
        before this throw (vid 7311: light's two plays were judged as one, a false call).

        The due player's two turns in a row tell that the other's came between, so a glimpse of
        dice across both halves (a thrower not told) is taken for the dance's too (vid 7311
        joined mid-game: dark's 6-4 dance lay across the halves; light's 3-1 and 6-5 were judged
        as one play, unclear, and the record stayed off the board for the rest of the game)."""
        if (dice.thrower is None or self.state.phase not in ("turn", "played")
                or COLOUR.index(dice.thrower) != self._due()[0] or not self._board_moved(logp)):
            return
        side, before = self._due()
        options = [(side, before, roll) for roll in ROLLS]
        read = self._read_off_board(options, logp, dice)
        if read.decision.kind != "legal":
            if self._danced_unseen(logp, dice):  # or they danced, and the other player's play went unseen
                self._settle_unseen()
            return
        after = read.decision.position.swapped()
        danced = self._dance_glimpsed(1 - side, after, dice, either_half=True)
        if danced is None:
            return
        if read.glimpse is danced[1]:  # the dance's dice tell nothing of the due player's roll
            read = self._read_off_board(options, logp, dice, danced[1])
        self.unseen = read
        self._settle_unseen()
        self._record_dance(1 - side, after, danced)

    def _dance_glimpsed(self, side: int, before: Position, thrown: DiceReading | None, either_half: bool = False):
        """(the likeliest roll, the glimpse, every roll) of a dance by ``side`` from ``before``
        that a glimpse of their throw (or, ``either_half``, of dice across both halves) makes at
        least :data:`DANCE_GLIMPSED` likely, or None. A glimpse of one die alone in their half
        counts, the other die's face left open (vid 8403: a 5-5 dance seen as one 5, the other
        die faint to the finder, and the opponent's next throw called as dice in the wrong half)."""
        glimpse = next((g for g in reversed(self.glimpses)
                        if (g.thrower == COLOUR[side] or (either_half and g.thrower is None and len(g.faces) == 2))
                        and (thrown is None or not g.same_throw(thrown))), None)
        if glimpse is None:
            return None
        likely = roll_probabilities(glimpse.faces)
        dances = [roll for roll in ROLLS if not before.plays(*roll)[0].steps]
        if sum(likely[roll] for roll in dances) < DANCE_GLIMPSED:
            return None
        return max(dances, key=likely.get), glimpse, dances

    def _played_not_danced(self, side: int, before: Position, danced: tuple, logp: np.ndarray,
                           thrown: DiceReading) -> UnseenTurn | None:
        """``side``'s turn from ``before``, glimpsed as a dance (``danced``:
        :meth:`_dance_glimpsed`), read off the board instead where a play of theirs, clearly legal,
        explains it :data:`PLAYED_NOT_DANCED` better than the board as it was, each weighed by how
        likely the glimpse makes its rolls (``thrown``: the throw that told, another turn's)."""
        read = self._read_off_board([(side, before, roll) for roll in ROLLS], logp, thrown)
        if read.decision.kind != "legal" or read.decision.best_legal == before:
            return None
        likely = roll_probabilities(danced[1].faces)
        weigh = lambda rolls, margin: math.log(max(sum(likely[r] for r in rolls), 1e-9)) - margin
        dance = weigh(danced[2], self._margin(before, COLOUR[side], logp))
        return read if weigh(read.rolls, read.decision.margin) >= dance + PLAYED_NOT_DANCED else None

    def _unseen_turn(self, logp: np.ndarray, glimpsed: DiceReading | None = None) -> None:
        """No dice on view (or dice ``glimpsed`` only) and no throw seen, yet the board surely
        shows a play of the player due, clearly legal for some roll: the throw was never read
        (dice too small or hidden, vid 7116). The latest such play is kept as the turn's (a play
        half made can be another roll's whole play: 24/18 of a 6-4 is a 4-2), until the other
        player's dice are glimpsed, and recorded once the turn is surely over: the board shows
        the other player's legal play on top of it, or their throw or double is seen
        (:meth:`_settle_unseen`). The opening likewise, of either player: backgammon's opening
        throw, or long nardy's first turn of the match (its first throw starts the game, RULES
        2.2; later games start with the winner, a turn like any other)."""
        if self.held is not None or self.pending is not None or not self.in_sync:
            return
        state = self.state
        if state.phase == "doubled" and (self._margin(state.position, COLOUR[state.on_roll], logp)
                                         >= self.thresholds.call):
            self._submit(Take(), inferred="the game went on")  # a drop ends the game: the take went unseen
        if self.unseen is not None and self.unseen.decision.position.shared_points():
            return  # a foul on a point both colours stand on: no turn goes on from it (its record ends)
        if self.unseen is not None:
            theirs = 1 - self.unseen.side
            after = self.unseen.decision.position.swapped()  # the board before their turn, from their side
            read = self._read_off_board([(theirs, after, r) for r in ROLLS], logp)
            # or a foul of theirs on top of it, kept as their turn (below; the dice picked up)
            foul = None if read.decision.kind == "legal" or glimpsed is not None else self._foul_unseen(
                theirs, after, logp)
            if ((read.decision.kind == "legal" or foul is not None)
                    and self._margin(after, COLOUR[theirs], logp) >= self.thresholds.call):
                self._settle_unseen()
                self.unseen = foul or read
                self._note_path(logp)  # the board on view is their turn's (vid 7801: 13/8 on the way to 13/5)
                return
            if glimpsed is not None and glimpsed.thrower == COLOUR[theirs]:
                return  # the other player threw: the turn read is over (vid 7202: read again, it lost its glimpse)
        phase = self.state.phase
        if phase == "opening" and self.variant == "backgammon":
            start = self.state.position
            if self._margin(start, "light", logp) < self.thresholds.call:
                return
            options = [(side, start, roll) for side in (0, 1) for roll in ROLLS if roll[0] != roll[1]]
        elif phase == "ready" and self.variant == "long" and self.set_up:
            start = Position.start(self.state.variant)
            if self._margin(start, "light", logp) < self.thresholds.call:
                return
            options = [(side, start, roll) for side in (0, 1) for roll in ROLLS]
        elif phase in ("turn", "played") and (self._board_moved(logp) or self._moved_on_from_unseen(logp)):
            side, before = self._due()
            options = [(side, before, roll) for roll in ROLLS]
        else:
            return
        self._note_path(logp)
        read = self._read_off_board(options, logp)
        if read.decision.kind == "legal" or self._told_by_glimpse(read):
            self.unseen = read
        elif phase in ("turn", "played") and not (
                self._danced_unseen(logp) or (self.unseen is not None and self._danced_after_unseen(logp, glimpsed))):
            # A play illegal whatever was thrown, on a board with the dice picked up, is the turn
            # read off the board until it is surely over, as a legal one is: recorded and called
            # once the other player plays on top of it or acts (vid 10015, dice 12 px: light's
            # 3-3 played 13/10 10/7 8/5 6/2 unseen, then dark's 1-1 and light's 2-1; the turn was
            # kept as its first move, 13/10, which nothing after explained, and the record was
            # lost). A legal board read later (the last checker of a double moved, or the foul put
            # right before the turn ended, RULES 7.2) takes its place. Not with dice on view: a
            # die lying on a checker can make any board look so; nor on a board not surely moved
            # from before the turn (a move taken back, read a little off).
            foul = (None if glimpsed is not None or not self._board_moved(logp)
                    else self._foul_unseen(side, before, logp))
            if foul is not None:
                self.unseen = foul

    def _told_by_glimpse(self, read: UnseenTurn) -> bool:
        """Whether a turn read off the board short of clearly legal (a checker misread) is the
        turn all the same: a glimpse of both the player's dice, in their half, read its roll
        (:meth:`DiceReading.rolls_read`), it is read closer than a call, and the play of every
        other roll is a call's margin further still (vid 7501 under tungsten light: dark's 3-3,
        glimpsed as a 3 and a 3 or 6 at 0.47 each, read 3.5-5 nats from its play, every other
        roll's 17 nats further; its first move, 6/3, a 2-1's whole play, was recorded instead
        and the game's record lost the board). Recorded so, the play is unclear: nothing is
        called until a clearly legal play shows the record and the board agree."""
        glimpse, margin = read.glimpse, read.decision.margin
        return (read.decision.kind == "unclear" and glimpse is not None and len(glimpse.faces) == 2
                and glimpse.thrower == COLOUR[read.side] and tuple(read.roll) in glimpse.rolls_read()
                and margin < self.thresholds.call and read.rival - margin >= self.thresholds.call)

    def _moved_on_from_unseen(self, logp: np.ndarray) -> bool:
        """Whether the board no longer shows the turn read off it (:attr:`unseen`), the player
        due's, nor the board before that turn: they played on, by a move too little for
        :meth:`_board_moved` to tell from the board before (a lone checker borne off, one point's
        reading: vid 10036, light's 6-3 glimpsed, played 6/3 then 3/off; 6/3, a 2-1's whole play,
        was read off the board, and its 3/off, 7.5 nats from the board before the turn, left it
        so: every turn after was measured against a checker that had gone)."""
        read, (due, before) = self.unseen, self._due()
        if read is None or read.side != due:
            return False
        return not (self._shows(read.decision.position, COLOUR[due], logp) or self._shows(before, COLOUR[due], logp))

    def _first_turn_missed(self, thrower: int | None, logp: np.ndarray) -> bool:
        """Whether a throw in long nardy, before any game is followed on a board seen set up,
        comes after the other player's first turn, unseen: the thrower is known and a first turn
        of the other player's explains the board better than the start does (RULES 2.2: the
        first throw starts the game; :data:`MISSED_FIRST_TURN`). Not the start read less surely
        alone: the dice just thrown may hide checkers of it (vid 7603: the first throw taken for
        the second)."""
        if self.state.phase != "ready" or not self.set_up or thrower is None:
            return False
        start = Position.start(self.state.variant)
        turn = self._read_off_board([(1 - thrower, start, roll) for roll in ROLLS], logp)
        better = self._margin(start, "light", logp) - turn.decision.margin
        return better >= self.thresholds.call or (turn.decision.kind == "legal" and better >= MISSED_FIRST_TURN)

    def _first_turns_missed(self, thrower: int | None, logp: np.ndarray,
                            thrown: DiceReading) -> tuple | None:
        """In long nardy, a throw (``thrown``) before any game is followed on a board seen set up
        that has surely left the start, and no first turn of the other player's is clearly legal
        on it (:meth:`_first_turn_missed`): the thrower's own first turn and the other player's after
        it, both unseen, read off the board together (two :class:`UnseenTurn`), the pair whose
        second turn is clearly legal and explains the board best; None if there is none."""
        if self.state.phase != "ready" or not self.set_up or thrower is None:
            return None
        start = Position.start(self.state.variant)
        if (self._margin(start, "light", logp) < self.thresholds.call or self._read_off_board(
                [(1 - thrower, start, roll) for roll in ROLLS], logp, thrown).decision.kind == "legal"):
            return None
        firsts: dict = {}  # each board the thrower's first turn can leave, and the rolls that leave it
        for roll in ROLLS:
            for board in np.unique(start.play_boards(*roll), axis=0):
                firsts.setdefault(board.tobytes(), (board, []))[1].append(roll)
        best = None
        for board, rolls in firsts.values():
            played = Position.from_board(board, start.variant)
            second = self._read_off_board([(1 - thrower, played.swapped(), roll) for roll in ROLLS], logp, thrown)
            if second.decision.kind == "legal" and (best is None or second.decision.margin < best[2].decision.margin):
                best = (played, rolls, second)
        if best is None:
            return None
        played, rolls, second = best
        glimpse = self._glimpse_of(thrower, thrown)
        roll = max(rolls, key=(CHANCE if glimpse is None else roll_probabilities(glimpse.faces)).get)
        first = UnseenTurn(thrower, roll, Decision("legal", played, 0.0, len(firsts), played), tuple(rolls), glimpse)
        return first, second

    def _note_cube_lifted(self, obs: Observation) -> None:
        """The cube, found on the last :data:`CUBE_STEADY` settles, found nowhere: a double may
        have been offered where the camera does not see (vids 9811 and 9905: the cube laid before
        the taker on the table beyond the picture's edge, then put back once it was called; vid
        10044, 854x480: a double in the Crawford game so, never called). Noted for the
        official once a throw, never called: a cube the finder misses for a settle looks the
        same. With the thrower's roll at rest, a double after the throw (RULES 5.2); between
        turns, the double of the player due, told as one the rules forbid where they do (the
        Crawford game, a dead cube, not the cube's owner), once the next settles show no double
        (:meth:`_tell_cube_gone`). Not after a double called on this throw (the cube is on its way
        back, vid 9712)."""
        state = self.state
        thrown = read_dice(obs) is not None
        throw = (state.game, state.throws, thrown)
        if (self.cube_lifted_noted == throw or self.cube_called or self.offered_with_throw
                or (state.phase, thrown) not in (("moving", True), ("turn", False), ("played", False))):
            return
        self.cube_lifted_noted = throw
        if thrown:
            self.note("unclear", what=f"the cube went out of sight while {COLOUR[state.on_roll]}'s "
                                      f"{state.dice[0]}-{state.dice[1]} lay thrown: a double after the throw may "
                                      "have gone unseen", player=state.on_roll + 1)
        else:
            self.cube_gone = throw[:2]

    def _tell_cube_gone(self, obs: Observation, cube: tuple | None) -> None:
        """The cube went out of sight before the throw (:meth:`_note_cube_lifted`): told once the
        dice are thrown with it still unseen, or it lies again as the record keeps it; not if it
        comes back turned (a double seen, which the cube's own reading judges: a player lifting
        the cube to double often takes it out of the picture for a moment)."""
        state = self.state
        gone, self.cube_gone = self.cube_gone, None
        if gone != (state.game, state.throws) or state.phase not in ("turn", "played"):
            return  # the game went on (a double seen, a game ended)
        if obs.cube is None and read_dice(obs) is None:
            self.cube_gone = gone  # still out of sight, nothing thrown yet
            return
        if obs.cube is not None and cube != self._recorded_cube():
            return
        due = self._due()[0]
        ruling = state.apply(Double())[1]
        forbidden = "" if ruling.accepted else f", and if so an illegal one (RULES {CALL_SECTION[ruling.reason]}: " \
                                               f"{CALL_TEXT[ruling.reason]})"
        self.note("unclear", what=f"the cube went out of sight before {COLOUR[due]}'s throw: a double may have been "
                                  f"offered where the camera does not see{forbidden}", player=due + 1,
                  action="state_double")

    def _note_cube_face_unread(self, obs: Observation, unsure: bool) -> None:
        """The cube read surely at a player's side, where the record keeps it elsewhere, on
        :data:`CUBE_STEADY` settles in a row at one place (within a third of a die), its face never
        read surely enough to record a cube action: a double (and take) may have gone unseen (vid
        10000 in a dim room: the cube laid at light's side at 2, read 4 or 8 at 0.5-0.7 and 2 at
        0.1-0.3, and no cube action was recorded or told). Noted once a place and game for the
        official: a false find at a side reads no surer.

        Recorded instead, as the double and take the rules leave (RULES 5.3; :meth:`double_given`),
        once the doubler's dice lie thrown with it there, for the doubler throws only after a take
        (vid 10015, the board 242 px: light's redouble laid at dark's side, read 2, 4 or 64 at
        0.2-0.4 each, and light's 6-4 thrown; the record kept light owning the cube at 2, and its
        game's points half). Not where the rules forbid that double: an official tells that call.

        So too the cube at the side where the record keeps it, moved from where its face was
        last read (:data:`CUBE_MOVED`): the other player may have doubled and laid it back there,
        a double the rules forbid (RULES 5.2: not the cube's owner), told as such (vid 10056:
        dark's redouble of light's cube laid on the table at light's side, its face seen edge-on,
        never recorded nor told)."""
        where = cube_place(obs) if unsure else None
        state = self.state
        uv = tuple(obs.cube["uv"]) if where is not None and "uv" in obs.cube else None
        moved = (uv is not None and self.cube_seen == self._recorded_cube() and self.cube_uv is not None
                 and float(np.hypot(uv[0] - self.cube_uv[0], uv[1] - self.cube_uv[1])) > CUBE_MOVED)
        if (where not in COLOUR or (where == self._recorded_cube()[1] and not moved) or uv is None
                or state.phase not in ("turn", "moving", "played") or self.cube_called or self.cube_off_record):
            self.cube_unread = None  # an offer waits for its answer, or a cube turned was told already
            return
        last = self.cube_unread
        steady = last is not None and last[0] == where and np.hypot(uv[0] - last[1], uv[1] - last[2]) <= SAME_PLACE
        doubler = 1 - COLOUR.index(where)
        dice = read_dice(obs)
        threw = isinstance(dice, DiceReading) and dice.thrower == COLOUR[doubler]
        # 0: the doubler's dice lie there since the cube came (a double after the throw, perhaps:
        # RULES 5.2); 1: seen without them; 2: thrown since
        if not steady:
            stage = 0 if threw else 1
        else:
            stage = (2 if last[4] else 0) if threw else max(last[4], 1)
        self.cube_unread = (where, *uv, last[3] + 1 if steady else 1, stage)
        if self.cube_unread[3] < CUBE_STEADY:
            return
        ruling = self.state.apply(CubeUnseen(doubler))[1]
        if stage == 2 and ruling.accepted:
            self.double_given(doubler + 1, inferred="the cube lies at the taker's side, the doubler's dice thrown")
            return
        if self.cube_unread_noted == (state.game, where):
            return
        self.cube_unread_noted = (state.game, where)
        value, kept = self._recorded_cube()
        # the player who would have doubled, and what an official does if so (the referee page)
        if where == kept:
            forbidden = "" if ruling.accepted else (f", and if so an illegal one (RULES {CALL_SECTION[ruling.reason]}: "
                                                    f"{CALL_TEXT[ruling.reason]})")
            self.note("unclear", what=f"the cube was moved at {where}'s side, where the record keeps it at {value}, "
                                      f"its face unread: a double may have gone unseen{forbidden}",
                      player=doubler + 1, action="state_double")
            return
        kept = "in the middle" if kept == "middle" else f"at {kept}'s side"
        self.note("unclear", what=f"the cube lies at {where}'s side, its face unread, where the record keeps it "
                                  f"{kept} at {value}: a cube action may have gone unseen",
                  player=doubler + 1, action="state_double")

    def _note_path(self, logp: np.ndarray) -> None:
        """Keep the board on view, read with confidence, while the turn on the board is not
        recorded (its throw unseen, or held as unsure)."""
        if (self.state.phase in ("turn", "played", "opening", "ready")
                and float(np.exp(logp.max(axis=1)).min()) >= self.thresholds.confident):
            self.turn_path.append(logp.argmax(axis=1))

    @staticmethod
    def _through_path(before: Position, mover: str, rolls: list, after: Position, path) -> list:
        """Of ``rolls`` (each making ``after`` from ``before``, seen from ``mover``), those whose
        steps lead through every board seen mid-turn (``path``: readings kept as
        :attr:`turn_path`); all of them when none does (a board misread mid-turn must not rule
        out the roll thrown)."""
        middles = [m for m in (reading_position(free, mover, before.variant) for free in path)
                   if m is not None and m != before and m != after]
        through = [r for r in rolls if all(passes_through(before, r, m, after) for m in middles)]
        return through or rolls

    def _foul_gone(self, logp: np.ndarray) -> bool:
        """Whether the turn read off the board (:attr:`unseen`) is a foul, read at an earlier
        settle, that the board on view no longer shows: it is read again from this board
        (:meth:`_missed_turn`), so that a board misread once makes no call when the other player
        next acts."""
        read = self.unseen
        return (read is not None and read.decision.kind == "illegal"
                and not self._shows(read.decision.position, COLOUR[read.side], logp))

    def _settle_unseen(self) -> None:
        """Record the turn read off the board while its throw went unseen, if one waits."""
        read, self.unseen = self.unseen, None
        self.turn_path = []
        if read is None:
            return
        # what they could tell of the unseen turn is told (a glimpse of the other player's
        # throw since, a dance, still may tell of theirs: vid 7305)
        self.glimpses = [g for g in self.glimpses if g.thrower not in (None, COLOUR[read.side])]
        self.note("turn_missed", player=read.side + 1, decision=read.decision.kind, rolls=[list(r) for r in read.rolls],
                  glimpse=None if read.glimpse is None else list(read.glimpse.values))
        if self.state.phase == "opening":  # each player's die, light's first; the higher moves first (RULES 2.1)
            roll = read.roll if read.side == 0 else read.roll[::-1]
            self._submit(OpeningThrow(*roll), dice=list(read.roll), player=read.side + 1,
                         inferred="the throw was not seen")
        else:
            if self.state.phase == "ready":  # long nardy: the first turn starts the game
                self._new_game(first=read.side)
            self._submit(Throw(*read.roll), dice=list(read.roll), player=read.side + 1,
                         inferred="the throw was not seen")
        self._play(read.decision, read.side, read.roll, inferred="the throw was not seen")
        self._note_roll_guessed(read.side, read.roll, read.rolls, read.glimpse, foul=read.decision.kind == "illegal")

    def _note_roll_guessed(self, side: int, roll: tuple, rolls, glimpse: DiceReading | None,
                           how: str | None = None, foul: bool = False) -> None:
        """Tell the official of a turn whose throw went unseen, or was ``how`` (read unsurely,
        held till its play), and whose roll the record had to guess: its play (or dance) is as
        much any of ``rolls``' (13/8 a 4-1's and a 3-2's), and no look at the dice made ``roll``
        :data:`ROLL_TOLD` of their chance (vid 9998: light's 6-2 dance, read 4-2 at 0.62 and held,
        was recorded as a 4-2 with nothing told). The doubt names the turn, whose roll an official
        may amend. Where a glimpse in the player's half saw none of ``rolls``
        (:meth:`DiceReading.rolls_read`; a die seen alone, any roll with its face), the official is
        told that the play may be a foul (vid 9205, 854x480: light's 5/off 6/4 for a 5-1, the 1
        glimpsed alone at 0.96-0.997, was recorded as a 5-2 with nothing told). Dice across both
        halves may be the other player's throw that did not count (vid 9814): no such doubt.
        A ``foul`` (:meth:`_foul_unseen`: ``rolls`` those for which the play is one) is called
        whatever was thrown, but its roll is recorded as guessed, and told so (vid 9814: dark's
        6-6, glimpsed, recorded as 6-5 with nothing told)."""
        chance = roll_probabilities(glimpse.faces) if glimpse is not None and glimpse.faces else CHANCE
        if how is None and glimpse is not None and glimpse.faces and glimpse.thrower == COLOUR[side]:
            two = len(glimpse.faces) == 2
            seen = glimpse.rolls_read() if two else {r for r, p in chance.items() if p >= ROLL_SEEN}
            if not seen & {tuple(r) for r in rolls}:
                read = glimpse.likely()[0] if two else glimpse.values
                looked = f"read {_rolls_named([read])}" if two else f"a die read {read[0]}"
                self.note("unclear", what=f"the throw was glimpsed ({looked}), and the board fits "
                          f"{_rolls_named(rolls, chance)}: a die misread, or a foul", player=side + 1,
                          **doubt_of_dice(read, glimpse.faces if two else (), glimpse.px, True))
                return
        share = chance[tuple(roll)] / max(sum(chance[tuple(r)] for r in rolls), 1e-300)
        if len(rolls) < 2 or share >= ROLL_TOLD:
            return
        others = _rolls_named([r for r in rolls if tuple(r) != tuple(roll)], chance)
        how = how or ("glimpsed" if glimpse is not None else "not seen")
        board = (f"the play, called as a foul, is one for {others} as well as the {roll[0]}-{roll[1]} recorded "
                 f"({share:.0%} likely)" if foul else
                 f"the board fits {others} as well as the {roll[0]}-{roll[1]} recorded ({share:.0%} likely)")
        self.note("unclear", what=f"the throw was {how}; {board}", player=side + 1,
                  **doubt_of_dice(roll, glimpse.faces if glimpse else (), glimpse.px if glimpse else float("inf"),
                                  foul))

    def _read_off_board(self, options: list, logp: np.ndarray, thrown: DiceReading | None = None,
                        other: DiceReading | None = None) -> UnseenTurn:
        """Of ``options`` ((side, board before, roll) for a throw never seen), the play that best
        explains the board, and of the rolls that make it, the one a glimpse of the unseen dice
        makes likeliest, or without one the likeliest thrown (3-1 rather than 1-1 for 8/5 6/5:
        a roll of two numbers comes twice as often as a double, vid 7305). Neither ``thrown``
        nor ``other`` (a glimpse known to be another turn's) is taken for the unseen dice."""
        found = [(decision.margin, side, roll, decision) for side, before, roll in options
                 for decision in [decode(before, roll, COLOUR[side], logp, self.thresholds)]]
        _, side, roll, decision = min(found, key=lambda f: f[0])
        # the rolls whose likeliest legal play is the one recorded, read as surely as it: a play
        # read unclear (a stack misread elsewhere) is recorded all the same, so the glimpse picks
        # its roll too (vid 9304: 24/15 with the dice lying on the head, a 6-3 glimpsed 3-2,
        # recorded as the 5-4 that comes first of the two)
        rolls = sorted({r for m, s, r, d in found
                        if s == side and d.kind == decision.kind and d.best_legal == decision.best_legal})
        rival = min((m for m, s, r, d in found if s != side or d.best_legal != decision.best_legal), default=math.inf)
        before = next(b for s, b, r in options if s == side)
        rolls = self._through_path(before, COLOUR[side], rolls, decision.best_legal, self.turn_path)
        glimpse = self._glimpse_of(side, thrown, other)
        if rolls:
            roll = max(rolls, key=(CHANCE if glimpse is None else roll_probabilities(glimpse.faces)).get)
        return UnseenTurn(side, roll, decision, tuple(rolls), glimpse, rival)

    def _glimpse_of(self, side: int, thrown: DiceReading | None = None,
                    other: DiceReading | None = None) -> DiceReading | None:
        """The latest glimpse that may be ``side``'s unseen throw: in their half or across both,
        neither ``thrown`` nor ``other`` (throws known to be another turn's)."""
        return next((g for g in reversed(self.glimpses) if (thrown is None or not g.same_throw(thrown))
                     and g is not other and g.thrower in (None, COLOUR[side])), None)

    def _foul_unseen(self, side: int, before: Position, logp: np.ndarray,
                     thrown: DiceReading | None = None) -> UnseenTurn | None:
        """``side``'s turn from ``before``, its throw never read and the turn surely over, when
        the board shows a play illegal whatever was thrown: for every roll the reading is called
        illegal (read with confidence, a board the thrower could have left: :func:`decode`),
        the record agreeing with the board so far, and the other player's checkers as they were,
        none on the bar: else their turn went unseen too, or, one of them on the bar (there before
        or hit in the turn), two of the mover's turns with a dance between, which leaves no sign,
        may show as one (vid 7311 out of focus: light's 5-1 hit, dark danced, light's 3-1, dark
        danced again, all unseen, called as one play while a hit was allowed). The roll recorded
        is the one a glimpse of the dice makes likeliest (or the likeliest thrown), and the play
        is judged against it (vid 7903, a board 222 px wide: dark bore a checker off with another
        outside home, its 3-2 never read); of rolls as likely, one whose pips the checkers
        travelled. Likewise a checker laid on a point the other player blocks (RULES 3.2), a
        stack there read mixed surely, which no roll makes legal: the roll recorded is the
        likeliest of those whose plays explain it so (:meth:`_judged`; vid 10045: light's 10/5
        23/21 onto dark's three, a black die on a navy point never found, was recorded as 10/5
        23/22 and every later turn went unclear). None otherwise: a turn no roll explains is
        unclear."""
        if not self.in_sync or before.opponent_bar:
            return None
        mover = COLOUR[side]
        decisions = {roll: self._judged(before, roll, mover, logp) for roll in ROLLS}
        fouls = [roll for roll, d in decisions.items() if d.kind == "illegal"]
        mixed = self.last_mixed
        laid_on_a_block = mixed is not None and any(
            mixed[location_map(mover, self.variant)[j]] >= MIXED_SURE for j in blocked_points(before))
        if not fouls or (len(fouls) < len(ROLLS) and not laid_on_a_block):
            return None
        if (decisions[fouls[0]].position.board[25:50] != before.board[25:50]).any():
            return None  # the other player's checkers moved, or one was hit: turns may have gone unseen
        glimpse = self._glimpse_of(side, thrown)
        chance = CHANCE if glimpse is None else roll_probabilities(glimpse.faces)

        def travelled(roll: tuple) -> bool:  # the checkers went as far as the roll takes them
            pips = before.pip_counts()[0] - decisions[roll].position.pip_counts()[0]
            return pips == sum(roll) * (2 if roll[0] == roll[1] else 1)

        roll = max(fouls, key=lambda roll: (chance[roll], travelled(roll)))
        return UnseenTurn(side, roll, decisions[roll], tuple(fouls), glimpse)

    def _picked_up(self, logp: np.ndarray) -> None:
        if self.held is not None:
            self._resolve_held(logp)
        elif self.state.phase == "moving":
            self._end_play(logp)

    # -- plays ----------------------------------------------------------------------------
    def _end_play(self, logp: np.ndarray) -> None:
        state = self.state
        mover = COLOUR[state.on_roll]
        faces = self.dice_seen.faces if self.dice_seen is not None else ()
        read = self.dice_seen.rolls_possible() if self.dice_seen is not None else set()
        floor = self.dice_seen.floor if self.dice_seen is not None else MISREAD_FLOOR
        px = self.dice_seen.px if self.dice_seen is not None else float("inf")
        pending = Pending(state.position, state.dice, mover, logp, faces, since=self.t, read=read, floor=floor,
                          px=px)
        may_not_count = self.dice_seen is not None and self.dice_seen.counts <= RETHROWN
        playable = bool(state.position.plays(*state.dice)[0].steps)
        if self._shows(state.position, mover, logp) and (playable or may_not_count):
            # Nothing played, though the roll could be: players pick up a throw unplayed when it
            # did not count (a die cocked that was read flat, vid 7304), seldom to forfeit it.
            # So too a roll that leaves no play (a dance) from dice perhaps cocked (vid 7503: a
            # cocked 6-4 read 0.53 flat was recorded as a dance, the 5-3 thrown again as a
            # throw in the wrong half). The next throw tells: the same player's is the throw
            # made again (:meth:`_throw`), the other player's ends the turn as it stands.
            # No doubt for the official now: the next throw tells, with a call either way for a
            # roll that could be played (a re-roll, or its play called ``too_few_dice``), and none
            # for a dance (on 61 rendered games the 26 doubts noted here were 24 dances and two
            # throws made again, whose re-roll was called 1-2 s later).
            self.pending = replace(pending, unplayed=True)
            return
        decision = self._decode(pending, logp)
        if decision.kind == "unclear":
            self.stats["unclear"] += 1
            self.pending = pending
            self.note("unclear", player=state.on_roll + 1, dice=list(state.dice), **decision.to_json())
            return
        self._play(decision, state.on_roll, state.dice, turn_over=False)

    def _judged(self, before: Position, dice: tuple, mover: str, logp: np.ndarray) -> Decision:
        """:func:`decode`, or a checker laid on a point the opponent blocks, seen by the dice
        (:func:`shared_point_play`) or by a stack read mixed (:func:`mixed_stack_play`)."""
        decision = decode(before, dice, mover, logp, self.thresholds)
        return (shared_point_play(before, dice, mover, logp, decision, self.thresholds)
                or mixed_stack_play(before, dice, mover, logp, self.last_mixed, decision, self.thresholds)
                or decision)

    def _decode(self, p: Pending, logp: np.ndarray) -> Decision:
        """:func:`decode`, or a checker laid on a point the opponent blocks, seen by the dice
        (:func:`shared_point_play`) or by a stack read mixed (:func:`mixed_stack_play`), except
        that a play with an innocent explanation is unclear, not called: legal for dice the
        reader nearly saw, the opponent's legal play (a throw the tracker missed, so it waits for
        the wrong player; after a roll that leaves no play, the dance is recorded), or the
        opponent's checkers moved."""
        p.misread, p.opponent_moving = None, False
        decision = self._judged(p.before, p.dice, p.mover, logp)
        if decision.kind != "illegal":
            return decision
        roll = misread_roll(p.before, decision.position, p.dice, p.faces, p.floor, p.read)
        if roll is not None:
            p.misread = roll
            self.note("dice_misread", player=self.state.on_roll + 1, likely=list(roll),
                      what=f"the play is a {roll[0]}-{roll[1]}'s, the dice were read {p.dice[0]}-{p.dice[1]}: "
                           "one die misread, or a foul", **doubt_of_dice(p.dice, p.faces, p.px, True),
                      **decision.to_json())
        elif opponent_played(p.before, decision.position):
            self.note("turn_missed", player=self.state.on_roll + 1, **decision.to_json())
            if not p.before.plays(*p.dice)[0].steps:
                # A roll that leaves no play is a dance, whatever the board shows of the other
                # player's turn since (read off the board next): recorded as the one play there
                # is (vid 7311 joined at 40%: dark's 2-1 dance, held as an unsure 3-2, was left
                # unclear under light's 6-2 for five settles, and light's play read unclear after it).
                return Decision("legal", p.before, 0.0, 1, p.before)
        elif (first := danced_between(p.before, p.dice, decision.position)) is not None:
            self.note("turns_missed", player=self.state.on_roll + 1, rolls=list(first), what="the player's turn "
                      "and the other's dance went unseen", **decision.to_json())
        elif p.before.check(*p.dice, decision.position).reason == "opponent_moved":
            # The other player's checkers moved, not by a hit (RULES 3.3): players move their
            # own checkers, so that is the other's turn begun on top of this one, their throw
            # unseen, or a stack of theirs misread (vid 7312: a false call on the sum of looks
            # at a play left unclear and at the other player's play begun).
            p.opponent_moving = True
            self.note("opponent_moving", player=self.state.on_roll + 1, **decision.to_json())
        elif not self.in_sync:
            self.note("not_in_sync", player=self.state.on_roll + 1, **decision.to_json())
        elif self.turn_unseen_glimpsed == (self.state.game, self.state.throws - 1):
            # The other player's dice were glimpsed, the board moved, before this throw: the
            # player's own turn went by unseen and the other threw since, so the board may show
            # more turns than this one (vid 9913, dice 16-20 px: dark's 6-1 unseen and light's
            # dance glimpsed as one 6; dark's next play, judged from the board before both, was
            # called).
            self.note("turns_missed", player=self.state.on_roll + 1, what="the other player's throw was glimpsed "
                      "before this one: turns may have gone unseen", **decision.to_json())
        else:
            # A call that rests on part of the board (:func:`decoding._surely_none`) records the
            # rest as read, perhaps wrongly: nothing more is called until a clearly legal play
            # shows the record and the board agree.
            differ = np.nonzero(self._classes(decision.position, p.mover)
                                != self._classes(decision.best_legal, p.mover))[0]
            self.in_sync = bool((np.exp(logp[differ].max(axis=1)) >= self.thresholds.confident).all())
            return decision
        self.in_sync = False
        return Decision("unclear", decision.best_legal, decision.margin, decision.candidates, decision.best_legal)

    def _play(self, decision: Decision, side: int, dice: tuple, turn_over: bool = True, **info) -> None:
        """Record ``side``'s play; ``turn_over``: the other player acted already (else the play
        may still be put right: :meth:`_on_a_shared_point`)."""
        self.stats[decision.kind if decision.kind != "unclear" else "benefit_of_doubt"] += 1
        if decision.kind != "illegal":
            # a play legal only once the checkers are counted (:func:`counted_margin`: the board
            # read freely is further from it) shows no more than that the two may agree, and
            # none once the mover's are (:attr:`Decision.counted`), unless all the reading
            # missed lies in tall stacks where the play has them (:attr:`Decision.stacks_short`)
            shows_agreement = (decision.margin <= self.thresholds.legal or decision.stacks_short
                               or (self.in_sync and not decision.counted))
            self.in_sync = decision.kind == "legal" and shows_agreement
        self.joined = self.joined and decision.kind != "legal"
        if self.left_unplayed is not None and self.left_unplayed.thrower == COLOUR[side]:
            # the look at this player's dice seen gone was this turn's throw, played or danced: not
            # one picked up unplayed (vid 7416 in a dim room: dark's 3-2 dance, seen as one die and
            # recorded from it, was taken for picked up unplayed when dark next threw, light's turn
            # between read off the board, and called a re-roll)
            self.left_unplayed = None
        self._submit(Played(decision.position), player=side + 1, dice=list(dice), **decision.to_json(), **info)
        if decision.kind == "unclear":
            # recorded on the benefit of the doubt: the official is told, naming the turn (vid 7801,
            # 640x360: light's 10/4 4/1 for a 6-2, a foul, its dice read 4-1, was recorded as 6/1
            # with nothing told, and the record lost the board)
            self.note("unclear", what=f"the play was read {decision.margin:.0f} nats from any legal play of "
                      f"{dice[0]}-{dice[1]}: the likeliest is recorded", player=side + 1,
                      **doubt_of_dice(dice, (), float("inf"), True))
        if decision.position.shared_points() and turn_over:
            self._end_unseen(SHARED_POINT_STANDS)

    def _on_a_shared_point(self, obs: Observation, logp: np.ndarray) -> bool:
        """Whether the record waits on a foul that left both colours on one point
        (:func:`shared_point_play`) for the play to be put right (RULES 7.2): nothing else is
        read meanwhile, since no game goes on from that board (RULES 1) and every later play
        would be called for it. Once the turn is surely over (dice on view, the cube moved)
        with the foul standing, the record ends; the game is joined again on a board a game
        can have. A board back at the turn's start is being put right, whatever dice are found
        (vid 9911: two false finds on dark checkers at the field's corners, with light's
        checkers taken back to make the play again, ended the record)."""
        state = self.state
        if state.phase != "played" or not state.position.shared_points():
            return False
        if read_dice(obs) is None and read_cube(obs, seen=self.cube_seen) in (None, "unsure", self.cube_seen):
            return True
        if self._shows(state.before, COLOUR[state.on_roll], logp):
            return True
        self._end_unseen(SHARED_POINT_STANDS)
        return False

    def _put_right(self, logp: np.ndarray) -> None:
        """An illegal play called and put right before the opponent throws or doubles (RULES
        7.2): the board shows surely a legal play of the same throw from the same start
        (:func:`decode`), and explains it better than the play called by :data:`PUT_RIGHT`. That
        play is recorded in its place (the referee judges a play made again from the turn's
        start), so the opponent's throw is not called ``not_corrected`` and their play is judged
        from the board put right. Seen on any settle, the opponent's dice on view or not: a
        player often throws as soon as the checkers are back. A board half put right (checkers
        taken back to the start) waits; a play put right is followed till the opponent acts (a
        legal play on the way to another).

        So too a play recorded for the roll it fits though the dice were read likelier another
        (:attr:`doubted_roll`), put right to a legal play of that likelier roll: the dice were
        misread, and the play first made was a foul for the dice thrown. The dice are corrected
        (the referee calls the foul) and the play put right recorded; since that makes a call,
        the board must explain the play put right by a call's margin (vid 8402: a 5-2's 12/7 9/6,
        a 6-2's play, recorded as a 6-2; put right to 12/7 9/7, the record lost the board)."""
        state = self.state
        if state.phase != "played" or state.before.shared_points():
            return
        dice, needed = state.dice, PUT_RIGHT
        if not (state.pending or self.put_right_from == state.before):
            if self.doubted_roll is None or self.doubted_roll[0] != state.before:
                return
            dice, needed = self.doubted_roll[1], self.thresholds.call
        mover = COLOUR[state.on_roll]
        decision = decode(state.before, dice, mover, logp, self.thresholds)
        why = "the play was put right to a play of the dice read likelier"
        if decision.kind != "legal" and state.pending and self.held_read and self.held_read[0] == state.before:
            # called on a roll read unsurely: the play put right to a legal play of another roll the
            # dice were read as tells the roll thrown (vid 9998, dice 24 px: a 4-2 read 2-2 at 0.7,
            # played 25/21 6/1 and called; put right to 25/21 6/4, the record lost the board)
            others = [(decode(state.before, roll, mover, logp, self.thresholds), roll)
                      for roll in self.held_read[1] - {tuple(sorted(dice, reverse=True))}]
            others = [(d.margin, roll, d) for d, roll in others if d.kind == "legal"]
            if others:  # the roll whose legal play explains the board best
                _, dice, decision = min(others, key=lambda o: o[:2])
                why = "the play called was put right to a play of a roll the dice were read as"
        if decision.kind == "legal" and self._margin(state.position, mover, logp) - decision.margin >= needed:
            if dice != state.dice:
                self.doubted_roll = self.held_read = None
                self._submit(DiceCorrected(*dice), player=state.on_roll + 1, dice=list(dice),
                             recorded=list(state.dice), why=why)
            self.put_right_from = state.before
            self._play(decision, self.state.on_roll, self.state.dice,
                       put_right=self.state.pending or "rearranged again")

    def _retry(self, logp: np.ndarray) -> None:
        """Another settled look at the board while a play is unclear."""
        p = self.pending
        p.frames += 1
        if self._dance_waiting() and self._margin(p.before, p.mover, logp) >= self.thresholds.call:
            self._commit_pending("the board moved on")  # a dance is no play: the other player's turn began
            return
        for lp in (logp, (p.logp + logp) / p.frames):
            decision = self._decode(p, lp)
            if lp is logp and p.opponent_moving and not p.unplayed:
                # The other player's turn began on top of this one, which is over: it is judged
                # on the looks before, not summed with a board the other's play has changed
                # (vid 9913: light's 13/10 under dice read 4-1, a 2-1 misread, was left unclear
                # under dark's play till dark's throw was read, and the sum of looks then showed
                # no play of any roll)
                self._commit_pending("the other player is moving")
                return
            if p.unplayed and decision.position == p.before:
                break  # still nothing played: the next throw tells whether the throw counted
            if decision.kind == "legal" or (decision.kind == "illegal" and not p.unplayed):
                self.pending = None
                self.stats["unclear_resolved"] += 1
                self._play(decision, self.state.on_roll, p.dice, turn_over=False, frames=p.frames)
                return
        p.logp = p.logp + logp

    def _dance_waiting(self) -> bool:
        """Whether a roll that leaves no play, from dice perhaps cocked, waits for the next
        throw to tell whether it counted (:meth:`_end_play`)."""
        p = self.pending
        return p is not None and p.unplayed and not p.before.plays(*p.dice)[0].steps

    def _commit_pending(self, why: str) -> None:
        p = self.pending
        self.pending = None
        decision = self._decode(p, p.looks)
        dice = p.dice
        told = self._roll_the_board_tells(p, decision) if decision.kind == "unclear" else None
        if told is not None:
            dice, decision = told
            self._submit(DiceCorrected(*dice), player=self.state.on_roll + 1, dice=list(dice),
                         recorded=list(p.dice), why="the play seen fits this roll, which a look at the dice read, "
                                                    "far better than the roll recorded")
        if decision.kind == "unclear":
            decision = Decision("unclear", decision.best_legal, decision.margin, decision.candidates,
                                decision.best_legal)
        self._play(decision, self.state.on_roll, dice, frames=p.frames,
                   resolved=f"{why}: the likeliest legal play stands" if decision.kind == "unclear" else why)

    def _roll_the_board_tells(self, p: Pending, decision: Decision) -> tuple[tuple, Decision] | None:
        """For a turn over on a play left unclear under the roll recorded: another roll the dice
        may have shown, with its likeliest legal play, where the board tells it, else None. The
        play seen is then recorded with the roll it needs, not the recorded roll's likeliest play,
        which the board is far from and every later turn would be judged against.

        Either the roll for which the play the dice read make illegal is legal (noted
        ``dice_misread``; vid 9913, dice 18 px: the opening 2-1 read surely 4-1, its 13/10
        recorded as 13/8 and no later turn right), or a roll a look at the dice read
        (:meth:`DiceReading.rolls_possible`) whose likeliest legal play explains the board by at
        least a call's margin better (vid 10039 in a dim room: dark's 5-3 read 6-5 surely while
        still rocking to rest, then 5-3; its 17/14/9 left 30 nats from the 6-5's likeliest play,
        14 from the 5-3's, every board read a few nats off: every turn after it unclear)."""
        if p.misread is not None:
            as_misread = decode(p.before, p.misread, p.mover, p.looks, self.thresholds)
            return (p.misread, as_misread) if as_misread.kind == "legal" else None
        recorded = tuple(sorted(p.dice, reverse=True))
        read = [(roll, decode(p.before, roll, p.mover, p.looks, self.thresholds))
                for roll in sorted(p.read) if roll != recorded]
        read = [(roll, d) for roll, d in read if d.kind != "illegal"]
        if not read:
            return None
        roll, best = min(read, key=lambda r: r[1].margin)
        return (roll, best) if best.margin + self.thresholds.call <= decision.margin else None

    # -- the cube -------------------------------------------------------------------------
    def _offered_with_throw_on_board(self, value: int, doubled: bool, to: str, dice_on_view: bool,
                                     logp: np.ndarray) -> bool:
        """Whether the cube turned is the player due's, offered with their throw at rest but not
        recorded and nothing played, or put back after it: a double after the throw (RULES 5.2),
        not the end of the turn nor a double before the throw. The throw is one held (its roll
        unsure till its play tells it), or one only glimpsed that still lies in the due player's
        half (backgammon, where the half tells whose dice they are: RULES 2.3). The double is
        judged at once as made with a throw on the board (``Double(thrown=True)``); the throw is
        recorded as it would have been, since recorded now it could be at a roll misread."""
        if self.state.phase not in ("turn", "played"):
            return False
        if self.offered_with_throw:  # the double already seen: the cube put back or nudged
            self.note("cube_moved", value=value, location=to)
            return True
        due = self._due()[0]
        if self.held is not None:
            thrower, counts = self.held.thrower or COLOUR[due], self.held.valid_sure
        elif self.last_look is not None and dice_on_view and self.variant == "backgammon":
            thrower, counts = self.last_look.thrower, self.last_look.valid
        else:
            return False
        # nothing played: the board not surely moved from before the turn, since the cube laid on
        # it, in a dim room, may leave it read a little off (vid 9975 dim: 1.04 nats)
        if not (counts and thrower == COLOUR[due] and doubled and to in COLOUR and to != thrower
                and not self._board_moved(logp)):
            return False
        self.offered_with_throw = True
        self._submit(Double(thrown=True), player=due + 1, value=value)
        return True

    def _turned_before_the_throw(self, old_place: str, place: str) -> bool:
        """Whether the cube, seen turned to ``place`` before the player on roll, whose throw is
        recorded or held, lay there already, surely, on a board with no dice on it: the player
        on roll doubled before the throw, its face unread till now (a side face in view: vid
        7902 joined at 40%, 2 read 0.40 and 4 0.42 till the dice were thrown, then 2 at 0.62
        mid-play, called as a double after the throw). The double is missed, not called."""
        if self.state.phase in ("turn", "moving"):
            thrower = self.state.on_roll
        elif self.state.phase == "played" and self.held is not None:
            thrower = self._due()[0]
        else:
            return False
        return place != old_place and place == self.cube_place_without_dice == COLOUR[1 - thrower]

    def _doubled_before_the_turn_read(self, doubled: bool, to: str, dice_on_view: bool) -> bool:
        """Whether the cube, seen turned and laid before ``to``, was turned before the turn read
        off the board (:attr:`unseen`, its throw unseen), and taken: that turn is the doubler's,
        and ``to``'s dice lie glimpsed on view, so the doubler's turn is over and the taker's begun.
        A player doubles only at the start of their own turn (RULES 5.2), so its face was read
        late (vid 8403 out of focus: dark doubled, light took, dark's 4-3 went unseen; the cube
        read only in light's next turn was taken for a double after it, and light's play, half
        made, was read as a whole turn and called)."""
        read, look = self.unseen, self.last_look
        return (read is not None and doubled and to in COLOUR and read.side == 1 - COLOUR.index(to)
                and self.state.phase in ("turn", "played") and dice_on_view and look is not None
                and look.thrower == to)

    def _cube(self, old: tuple, new: tuple, logp: np.ndarray, dice_on_view: bool) -> tuple:
        """The cube seen turned from ``old`` to ``new`` (value, place, each read surely): the cube
        action it is, if any, and the cube to look for from now on. A cube moved and turned, but
        not to the face a cube action leaves where it went, read so twice (:meth:`_face_checked`),
        shows that face misread (:func:`face_left`; vid 10026 in a dim room: the 2 of light's
        double laid at dark's side read 8 at 0.76-0.96, and the double and take went unrecorded,
        the game's points half), where the doubler may double: else the cube action is not
        recorded (a call on a face misread could be false), and the official is told either way."""
        (v0, loc0), (v1, loc1) = old, new
        if loc1 == loc0 and not (v1 == 2 * v0 or (v0 == 1 and v1 == 2)):
            # the face read anew where the cube lies, as no cube action leaves it: a misread, now
            # or before, and no end of a turn (vid 10026 in a dim room: the 2 at dark's side read
            # 8, then 2 while dark played; the throw held was taken for over, and its half-made
            # play called too_few_dice). Looked for as the record keeps it there.
            self.note("cube_moved", value=v1, location=loc1)
            recorded = self._recorded_cube()
            return recorded if recorded[1] == loc1 else new
        self.cube_misread = None
        face = face_left(old, loc1) if loc1 in COLOUR else v1
        unturned = (v0,) if v0 != 1 else (1, 64)  # the middle cube's 1 is its 64 face
        if loc1 != loc0 and v1 != face and v1 not in unturned:
            if not self.state.apply(CubeUnseen(1 - COLOUR.index(loc1)))[1].accepted:
                self.note("unclear", what=f"the cube read {v1} at {loc1}'s side, a face no cube action leaves there: "
                                          "not recorded", value=v1, location=loc1)
                return new
            self.note("unclear", what=f"the cube read {v1} at {loc1}'s side, where a cube action leaves {face}: "
                                      f"taken as {face}", value=face, location=loc1)
            self.cube_misread, new = (new, (face, loc1)), (face, loc1)
        if self.state.phase == "doubled" and loc1 == loc0 and loc1 in COLOUR and dice_on_view:
            # The cube offered, first read turned again where the taker keeps it only with the
            # doubler's throw on view: a double is made before the throw (RULES 5.2), so a redouble
            # or beaver would have been seen before it; the take's face misread explains it as
            # well. Told, not recorded; the throw tells the take (vid 10061 in a dim room: the 2
            # taken, drawn to dark's side, read 4 at 0.93 as light threw; called not_cube_owner).
            self.note("unclear", what=f"the cube read {v1} at {loc1}'s side, where it lay offered at {v0}, only as "
                                      "the doubler threw: its face misread, or a redouble with the throw: not recorded",
                      value=v1, location=loc1)
            self.cube_misread = (new, old)
            return old
        self._cube_action(old, new, logp, dice_on_view)
        return new

    def _cube_action(self, old: tuple, new: tuple, logp: np.ndarray, dice_on_view: bool) -> None:
        """The cube action that takes the cube from ``old`` to ``new``, its face as :meth:`_cube`
        takes it: recorded (and judged by the referee), or told the official, or only noted."""
        (v0, loc0), (v1, loc1) = old, new
        if self.cube_called and new == self._cube_to_read_from():
            # put back where the record keeps it after a double the referee called (RULES 6.4):
            # no cube action, and the turn goes on (vid 8301 in a stream's compression: a throw
            # held as unsure was taken for picked up with nothing played and called)
            self.note("cube_moved", value=v1, location=loc1)
            return
        doubled = v1 == 2 * v0 or (v0 == 1 and v1 == 2)
        if self._doubled_before_the_turn_read(doubled, loc1, dice_on_view):
            doubler = self.unseen.side
            self._submit(Double(), player=doubler + 1, value=v1)
            if self.state.phase == "doubled":
                self._submit(Take(), player=2 - doubler, value=v1, inferred="the doubler played next")
            self._settle_unseen()
            return
        # a cube action comes between turns: the turn read off the board is over
        if self._foul_gone(logp):
            self._missed_turn(logp, over=not dice_on_view)
        else:
            self._settle_unseen()
        if self._turned_before_the_throw(loc0, loc1):
            # The player on roll doubled before the throw and the other took, for they threw
            # after: the double and take (RULES 5.3, :meth:`double_given`), made at a moment not
            # known (vid 10026 in a dim room, the face read only with light's throw held). Not a
            # cube moved unturned (the record off the board), nor where the rules forbid that
            # double: a call on a face read late could be false.
            doubler = 1 - COLOUR.index(loc1)
            if doubled and self.state.apply(CubeUnseen(doubler))[1].accepted:
                self.double_given(doubler + 1,
                                  inferred="the cube lay turned at the taker's side before the doubler threw")
                return
            self.note("unclear", what="a cube turned before the throw, its face read only after it: not recorded",
                      value=v1, location=loc1)
            return
        if self._offered_with_throw_on_board(v1, doubled, loc1, dice_on_view, logp):
            return
        if self.held is not None:  # the cube turned: the held throw's turn is over
            self._resolve_held(logp)
        phase = self.state.phase
        if phase in ("opening", "ready") or (phase in ("game_over", "match_over") and doubled):
            # No throw of this game has been seen yet, or its record was lost (ended unseen and
            # not yet joined again, vid 7801: a double there called "no game in progress"): the
            # tracker has missed something, and a call now could only be wrong. The cube as it
            # lies is the one a game joined next starts with.
            what = "before the opening throw was seen" if phase == "opening" else "while no game is seen in progress"
            self.note("unclear", what=f"cube turned {what}", value=v1, location=loc1)
            return
        if self.pending is not None:
            self._commit_pending("the cube was turned")
        if self.state.phase == "moving":
            if not doubled or loc1 not in COLOUR:
                # put back or nudged during a play (after a double called): no cube action, and
                # no end of the play
                self.note("cube_moved", value=v1, location=loc1)
                return
            if COLOUR.index(loc1) != self.state.on_roll:
                # The player on roll offers the cube with their throw on the board: a double
                # after the throw (RULES 5.2), judged as it stands, not as the next turn's.
                self._submit(Double(), player=self.state.on_roll + 1, value=v1)
                return
            self._end_play(logp)  # the other player doubles: the play before it is over
            if self.pending is not None:
                self._commit_pending("the cube was turned")
        if doubled:
            if phase == "doubled" and loc1 in COLOUR and COLOUR.index(loc1) == self.state.on_roll:
                # The taker turned the cube again and laid it before the doubler: a redouble, so
                # the take went unseen, and the doubler's turn between is read off the board
                # below (vid 7801 in a stream's compression: called double_pending).
                self._submit(Take(), player=2 - self.state.on_roll, value=v0, inferred="the taker redoubled")
            elif phase == "doubled" and loc1 == loc0 and loc1 in COLOUR:
                if self.referee.profile.beaver:
                    self._submit(Beaver(), value=v1)
                    return
                # Where beavers are not played (a match), the cube turned again where the taker
                # keeps it is the take, unseen (the cube lay at the taker's side already), then
                # a double by the doubler, who no longer owns the cube (vid 7601: called as a
                # beaver, the take left out of the record).
                self._submit(Take(), player=COLOUR.index(loc1) + 1, value=v0,
                             inferred="the cube was turned again at the taker's side")
            if loc1 in COLOUR:
                doubler = 1 - COLOUR.index(loc1)
                if self.state.phase in ("turn", "played") and doubler != self._due()[0] and self._board_moved(logp):
                    # The board shows the turn of the player due, never seen thrown: record it
                    # first, so the double is judged as the doubler's (vid 7105: an illegal
                    # redouble was taken for the owner's, the owner's turn unseen). With dice on
                    # view, the cube's face read late, that turn may be half made: no foul.
                    self._missed_turn(logp, over=not dice_on_view)
                if self.state.phase in ("turn", "played") and doubler != self._due()[0]:
                    self._missed_dance(doubled=self.state.owner in (None, doubler))
                if self.state.phase in ("turn", "played") and doubler != self._due()[0]:
                    # No turn of the player due explains the board: the record cannot have the
                    # doubler on roll, and the referee would judge the double as the player due's.
                    self.note("unclear", what="a cube turned by the player not due to throw", value=v1, location=loc1)
                    self.cube_off_record = True
                    return
                self._submit(Double(), player=doubler + 1, value=v1)
                return
        if phase == "doubled" and v1 == v0 and loc1 in COLOUR:
            self._submit(Take(), player=COLOUR.index(loc1) + 1, value=v1)
            return
        self.note("cube_moved", value=v1, location=loc1)


_EVENT_TYPE = {"EndUnseen": "game_end_unseen", "NewGame": "game_start", "OpeningThrow": "opening", "Throw": "throw",
               "DiceCorrected": "dice_corrected", "Played": "play", "Double": "double", "Take": "take", "Drop": "drop",
               "Beaver": "beaver", "CubeUnseen": "cube_unseen"}
