"""The dice and the cube as a settled observation shows them, and what the faces say of the roll.

Dice lying where they lay are the same throw however a later look reads them, each die read
from its clearest look (:class:`DiceReading`), each face as sure as the reader's readings that
sure turned out (:func:`vision.dice.honest`). A play legal for a roll the faces leave at all
likely is a misread die, not a foul (:func:`misread_roll`). A cube action is acted on only when
both the cube's face and its place are read surely, or the rules leave it one face
(:func:`read_cube`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from engine.position import Position
from vision.dice import SURE_DIE
from vision.observation import CUBE_LOCATIONS, CUBE_VALUES, Observation

ROLLS = tuple((d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1))  # larger die first
CHANCE = {roll: (1 if roll[0] == roll[1] else 2) / 36 for roll in ROLLS}  # a roll's chance before it is seen
OPENING_ROLLS = tuple(roll for roll in ROLLS if roll[0] != roll[1])  # a tie is thrown again (RULES 2.1)
MISREAD_FLOOR = 0.002  # a roll at least this likely from the faces read may be what was thrown
# Dice read from fewer of the frame's pixels than this (their reading crop's side,
# vision.dice.crop_px; a die about 18 px across) are not read surely enough to call a play of one
# die's face away a foul: the reader was calibrated on stills, sharper than video, and on the
# frames of 61 rendered games without a hand (bench/video_dice.py --every 8) a die at rest read
# surely (0.8 or more) with its true face under 0.02 at every look was 2 of 897 dice read from
# under 30 px (vid 9508: a 5 read 1 at each of four looks from 29.6 px), 0 of 3,759 from more
# (3 at some look, two of them a 4 and a 6 read as each other). On such dice a roll stays
# possible down to SMALL_DICE_FLOOR: one die misread surely (0.0006) with the other read right,
# or read unsurely with the face thrown given 1/8 or more. Vid 9508, 960x540: a 3 on a white
# point read 6 at 0.98 (25.6 px) and a 1 leaning on a checker read 2 at 0.98 (26.6 px), and the
# plays of the dice thrown were called as fouls of the dice read. A throw of such dice waits for
# its play to tell the roll.
LEGIBLE_PX = 30.0
SMALL_DICE_FLOOR = 1e-4
SAME_PLACE = 0.02  # field widths (a third of a die): dice that lie this close have not moved
DIE_SIDE = 3 * SAME_PLACE  # field widths
# A roll at least this likely at some look at the dice stays possible for a call, however
# surely a clearer look reads another: a face the reader gave 0.02 or more at that look on a die
# read surely (taken as 0.035 likely: vision.dice.FACE_CALIBRATION), or any face of a die read
# unsurely (0.015 and up), the other die read surely; not one it all but ruled out on a die read
# surely (0.0006). A face given 0.02-0.05 by a sure reading is the top face as often as an unsure
# die's least face (vid 7704 out of focus: a 2 read 1 at 0.977, the 2 at 0.017 and 0.031; the 5-2
# played was called as a 5-1's while this floor was 0.02).
ROLL_SEEN = 0.01
# Each face of a die whose reading no later look bore out (:meth:`DiceReading.one_gone`) is
# taken as at least this likely: its roll's others stay possible for a call, as a die's read unsurely.
UNBORNE_FACE = 0.05
# Faces one picture can show: a 4 and a 6 differ only by the middle pair of pips, which blur and
# compression merge with the others into the same two bars along the die's sides, and the reader
# takes either for the other surely (vid 9934, dice of the field's own blue read from 50 px:
# light's second 4-2 read 6-2, the 4 read 6 at 0.97-0.99 and left 0.005-0.02, at every settle,
# and the 4-2 played was called as a 6-2's foul; over that game 71 looks at dice at rest read a
# 4 surely as 6; vid 7401: a 4 read 6 at 0.996 with a checker laid against it). Of all the faces
# one die away, these alone are kept possible for a call however surely the other is read: a 4
# played for a 6 is a miscount by two pips, while the wrong numbers players play are mostly one
# pip off (18 of the 20 the rendered suite injects, docs/watch/README.md; none a 4 for a 6 or a 6
# for a 4). Such a play is noted as a doubt for the official.
TWIN_FACES = {4: 6, 6: 4}


@dataclass(frozen=True)
class DiceReading:
    values: tuple  # larger first
    half: str | None  # "left" | "right" | None when the dice lie in different halves
    valid: bool
    places: tuple = field(default=(), compare=False)  # each die's field (u, v), when known
    faces: tuple = field(default=(), compare=False)  # each die's probabilities of 1..6, when known
    valid_sure: bool = field(default=True, compare=False)  # False: a die may be cocked (valid is then True)
    # False: a face is read too unsurely to act on (nor is a die read so unsurely surely cocked:
    # vid 7105, a flat die read "cocked"); such a look only helps tell an unseen throw (a glimpse)
    faces_sure: bool = field(default=True, compare=False)
    counts: float = field(default=1.0, compare=False)  # the probability that the throw counts (RULES 2.3)
    # The rolls earlier looks merged into this one read (:meth:`seen_again`): a roll some look
    # read stays possible whatever a clearer look says (:meth:`rolls_read`).
    earlier: tuple = field(default=(), compare=False)
    px: float = field(default=float("inf"), compare=False)  # the smaller die's reading crop, frame pixels
    given: bool = field(default=False, compare=False)  # the roll is an official's word (:meth:`as_given`)

    @property
    def thrower(self) -> str | None:
        return {"right": "light", "left": "dark"}.get(self.half)

    @property
    def legible(self) -> bool:
        """Whether the dice were read from enough pixels (:data:`LEGIBLE_PX`) to call a play of
        one die's face away a foul."""
        return self.px >= LEGIBLE_PX

    @property
    def floor(self) -> float:
        """How likely from the faces a roll must be to stay possible for a call (:func:`misread_roll`).

        >>> DiceReading((6, 4), "right", True).floor, DiceReading((6, 4), "right", True, px=25.6).floor
        (0.002, 0.0001)
        """
        return MISREAD_FLOOR if self.legible else SMALL_DICE_FLOOR

    def likely(self) -> tuple[tuple, float]:
        """The likeliest roll from the faces and its probability (the values read, if no faces)."""
        if len(self.faces) != 2:
            return self.values, 1.0
        return max(roll_probabilities(self.faces).items(), key=lambda rp: rp[1])

    def as_given(self, roll: tuple) -> "DiceReading":
        """These dice, which an official saw show ``roll``: its faces are certain from now on, at
        every look (:meth:`seen_again`), and no other roll stays possible (:meth:`rolls_read`).
        ``values`` stay as read, so the dice lying there are still this throw (:meth:`same_throw`).

        >>> reading = DiceReading((6, 3), "right", True, faces=(np.eye(6)[5] * 0.9 + 0.02, np.eye(6)[2]))
        >>> given = reading.as_given((4, 3))
        >>> given.likely(), given.rolls_read(), given.same_throw(reading)
        (((4, 3), 1.0), {(4, 3)}, True)
        """
        faces = tuple(np.eye(6)[value - 1] for value in roll)
        return replace(self, faces=faces, earlier=(), valid=True, valid_sure=True, faces_sure=True, counts=1.0,
                       given=True)

    def rolls_read(self) -> set:
        """The rolls some look at these dice read as the likeliest or at least :data:`ROLL_SEEN`
        likely. None of them is ruled out for a call: a die read surely at one look can be
        misread surely at another (vid 7401: a 4 read 0.67, then 6 at 0.996 with a checker laid
        against it, and the 4-2 played was called as a 6-2's foul; vid 7416: a 5 read as 1 at
        0.996 at one look and at 0.93 with the 5 at 0.05 at the next, and the 5-1 played was
        called as a 1-1's)."""
        if len(self.faces) != 2:
            return set()
        seen = {roll for roll, p in roll_probabilities(self.faces).items() if p >= ROLL_SEEN}
        return {*self.earlier, self.likely()[0], *seen}

    def rolls_possible(self) -> set:
        """The rolls no call may rule out: those read (:meth:`rolls_read`), and each of them with
        one die's 4 taken for a 6 or its 6 for a 4 (:data:`TWIN_FACES`). An official's word
        (:meth:`as_given`) leaves its roll alone.

        >>> sorted(DiceReading((6, 2), "right", True, faces=(np.eye(6)[5], np.eye(6)[1])).rolls_possible())
        [(4, 2), (6, 2)]
        >>> sorted(DiceReading((6, 4), "right", True, faces=(np.eye(6)[5], np.eye(6)[3])).rolls_possible())
        [(4, 4), (6, 4), (6, 6)]
        """
        read = self.rolls_read()
        if self.given:
            return read
        return read | {tuple(sorted((TWIN_FACES[roll[i]], roll[1 - i]), reverse=True))
                       for roll in read for i in (0, 1) if roll[i] in TWIN_FACES}

    def same_throw(self, other: "DiceReading") -> bool:
        """Whether ``other`` sees the dice of this throw: a die lying where one of these lies,
        however the faces were read. Dice that did not move were not thrown again, so a face
        misread at a later settle must not become a new throw (and end the turn); and a throw
        takes up both dice, so one die unmoved is enough: the other may be nudged by a checker
        laid against it, or its find shift onto a side face (vid 7419: a die's find moved half
        a die as its face was read 3, then 2, and the player's own dice were taken for a new
        throw in the other player's half, a false re-roll call)."""
        if not self.places or not other.places:
            return self == other
        return any(np.hypot(*(np.asarray(a) - b)) <= SAME_PLACE for a in self.places for b in other.places)

    def lying_still_in(self, other: "DiceReading") -> bool:
        """Whether ``other``, a look after a settle that saw these dice gone, still sees them
        (an unfound throw found again): :meth:`same_throw`, unless one die alone lies where one
        of these lay and both looks read it surely as different faces (twins aside,
        :data:`TWIN_FACES`). A throw made again may put a die where one lay before (vid 7304:
        light's 2-2 with a die cocked was picked up and the 4-3 thrown again put its 3 a quarter
        of a die from where the 2 had lain, each read 0.997; the re-roll went uncalled).

        >>> two = DiceReading((2, 2), "right", False, ((0.9, 0.15), (0.65, 0.1)), (np.eye(6)[1], np.eye(6)[1]))
        >>> three = DiceReading((4, 3), "right", True, ((0.9, 0.14), (0.8, 0.55)), (np.eye(6)[2], np.eye(6)[3]))
        >>> two.same_throw(three), two.lying_still_in(three)
        (True, False)
        """
        if not self.same_throw(other):
            return False
        if len(self.places) != len(self.faces) or len(other.places) != len(other.faces):
            return True
        unmoved = [(f, g) for a, f in zip(self.places, self.faces) for b, g in zip(other.places, other.faces)
                   if np.hypot(*(np.asarray(a) - b)) <= SAME_PLACE]

        def told_apart(f, g) -> bool:
            a, b = int(np.argmax(f)) + 1, int(np.argmax(g)) + 1
            return min(f.max(), g.max()) >= SURE_DIE and a != b and TWIN_FACES.get(a) != b

        return len(unmoved) != 1 or not told_apart(*unmoved[0])  # none: no places to tell by

    def found_faintly(self, obs: Observation) -> bool:
        """Whether ``obs`` found, too faintly to act on (:func:`read_dice` keeps none), a die
        within a die's side of where a die of this throw (read, or glimpsed) lay: the throw is
        still on view, not picked up. Out of focus a die beside a checker is found weakly and a
        little off (vid 7505: one of the two found 0.03 away at 0.18, its face unsure, the other
        not at all, at one settle mid-play; the throw taken for picked up resolved the half-made
        play, and the same dice seen again were taken for the other player's throw in the wrong
        half: a false too-few-dice call and a false re-roll call). So too a find under the
        finder's and reader's bar for a die (:data:`vision.dice.FAINT_DIE`: vid 7116, 18 px dice
        found at 0.10 and 0.06 at one settle mid-play)."""
        finds = [d["uv"] for d in obs.dice if "uv" in d] + list(obs.faint_dice)
        return any(np.hypot(*(np.asarray(uv) - p)) <= DIE_SIDE for uv in finds for p in self.places)

    def one_gone(self, lone: "DiceReading", obs: Observation) -> "DiceReading":
        """These dice after a look (``obs``) that found one of them (``lone``) where it lay and
        nothing, however faint, where the other lay: that die's reading is not borne out, and each
        of its faces is taken as at least :data:`UNBORNE_FACE` likely. A die read as the board
        settled may have been still rolling, its face yet to turn up, and come to rest where the
        finder misses it (vid 10039 in a dim room: dark's 5-3, the 3 read 6 at 0.997 a frame
        before it turned over and slid 5 px, then never found at rest beside a dark checker;
        the 5-3 played was called as a 6-5's foul). An official's word stands.

        >>> seen = DiceReading((6, 5), "left", True, ((0.1, 0.03), (0.4, 0.5)), (np.eye(6)[5], np.eye(6)[4]))
        >>> lone = DiceReading((5,), "left", False, ((0.4, 0.5),), (np.eye(6)[4],))
        >>> faces = seen.one_gone(lone, Observation({}, {}, dice=[{"uv": [0.4, 0.5]}])).faces
        >>> faces[0].round(2).tolist(), faces[1].round(2).tolist()
        ([0.05, 0.05, 0.05, 0.05, 0.05, 0.75], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0])
        """
        if self.given or len(self.places) != 2 or len(self.faces) != 2 or len(lone.places) != 1:
            return self
        here = [bool(np.hypot(*(np.asarray(p) - lone.places[0])) <= SAME_PLACE) for p in self.places]
        if here.count(True) != 1:
            return self
        gone = here.index(False)
        finds = [d["uv"] for d in obs.dice if "uv" in d] + list(obs.faint_dice)
        if (any(np.hypot(*(np.asarray(uv) - self.places[gone])) <= DIE_SIDE for uv in finds)
                or self.faces[gone].min() >= UNBORNE_FACE):  # a find there, or already so taken
            return self
        faces = list(self.faces)
        faces[gone] = faces[gone] * (1 - 6 * UNBORNE_FACE) + UNBORNE_FACE
        return replace(self, faces=tuple(faces))

    def _pairings(self, other: "DiceReading") -> tuple:
        """How far the dice lie from ``other``'s, paired in order and crosswise."""
        a, b = np.asarray(self.places), np.asarray(other.places)
        return (np.hypot(*(a[0] - b[0])) + np.hypot(*(a[1] - b[1])),
                np.hypot(*(a[0] - b[1])) + np.hypot(*(a[1] - b[0])))

    def seen_again(self, other: "DiceReading") -> "DiceReading":
        """This throw with each die's faces taken from the clearer of the two looks at it
        (``values`` stay as first read; :meth:`likely` follows the faces).

        Looks at dice lying still are not independent evidence: a face misread once is misread
        at every look, so multiplying looks would make a misread die look certain. The clearest
        look stands (a hand that half hid a die at one settle is gone at the next)."""
        if (self.given or len(self.faces) != 2 or len(other.faces) != 2 or len(self.places) != 2
                or len(other.places) != 2):
            return self
        straight, crossed = self._pairings(other)
        theirs = other.faces if straight <= crossed else other.faces[::-1]
        faces = tuple(g if g.max() > f.max() else f for f, g in zip(self.faces, theirs))
        earlier = tuple(self.rolls_read() | other.rolls_read())
        if self.valid_sure or not other.valid_sure:
            return replace(self, faces=faces, earlier=earlier)
        # the clearer look decides
        return replace(self, faces=faces, earlier=earlier, valid=other.valid, valid_sure=True)


def read_dice(obs: Observation, sure: float = 0.6, present: float = 0.2,
              invalid: float = 0.1, plain: float = 0.95) -> DiceReading | None | str:
    """The dice at rest: a :class:`DiceReading` (``faces_sure`` False when a face is read less
    surely than ``sure``), None when there are none, "unsure" when not two dice are found.

    A find whose face cannot be read is a die to act on only when it is strong (score at least
    ``present``) and on the board: a false find (a checker's rim, a clock on the table) must not
    hide that the dice were picked up; a die read clearly counts however weakly it was found.
    A throw is taken as not counting (a re-roll is called) only when it counts with probability
    ``invalid`` at most and its dice lie where a throw cannot count (off the board, in two
    halves), each found strongly or read plainly (a face at ``plain``): two faint finds read less
    plainly are "unsure" (vid 9974 in a dim room: a long nardy head of dark checkers held two
    finds at 0.15-0.19, read 2 at 0.72-0.9, from the set-up on; between two throws they were
    called a re-roll). One that may or may not count (a die perhaps cocked, however surely) is
    read as counting with ``valid_sure`` False, and its play or a clearer look decides.
    """
    dice = [d for d in obs.dice if float(np.max(d["faces"])) >= sure
            or (d.get("score", 1.0) >= present and d.get("on_board", True))]
    if not dice:
        return None
    if len(dice) != 2:
        return "unsure"
    values = tuple(sorted((int(np.argmax(d["faces"])) + 1 for d in dice), reverse=True))
    # A die off the board leaves the thrower told by the one on it, in their right-hand half
    # (the throw does not count, RULES 2.3; vid 7401: light's 5-5 with a die off the board,
    # thrower unknown, was taken for dark's throw and dark's unseen 2-2 called illegal).
    halves = {d["half"] for d in dice if d.get("on_board", True)}
    half = halves.pop() if len(halves) == 1 else None
    places = tuple(tuple(d["uv"]) for d in dice if "uv" in d)
    faces = tuple(np.asarray(d["faces"], np.float64) for d in dice)
    valid = obs.throw_valid > invalid
    if not valid and not all(d.get("score", 1.0) >= present or float(np.max(d["faces"])) >= plain for d in dice):
        return "unsure"
    valid_sure = not invalid < obs.throw_valid < 0.5
    if not valid and half is not None and all(d.get("on_board", True) for d in dice):
        # Both dice on the board in one half: only a die read as cocked says the throw does not
        # count, and a flat die lying against a checker can read 0.02 flat (vid 7502: a false
        # re-roll call). Such a throw may count; what the players do tells (:meth:`Tracker._resolve_held`).
        valid, valid_sure = True, False
    faces_sure = all(float(np.max(d["faces"])) >= sure for d in dice)
    return DiceReading(values, half, bool(valid), places, faces, valid_sure, faces_sure, float(obs.throw_valid),
                       px=min(d.get("px", float("inf")) for d in dice))


def lone_die(obs: Observation, present: float = 0.2, sure: float = 0.9) -> DiceReading | None:
    """One die found surely (a strong find, or a face read ``sure``: vid 8403, a die faint to the
    finder) on the board and no second (a die cocked against a checker, or off the board, goes
    unfound: vids 7101, 7202, 7305), as a reading of one die that may not count."""
    found = [d for d in obs.dice if (d.get("score", 1.0) >= present or float(np.max(d["faces"])) >= sure)
             and d.get("on_board", True)]
    if len(found) != 1 or len(obs.dice) > 2:
        return None
    d = found[0]
    return DiceReading((int(np.argmax(d["faces"])) + 1,), d["half"], False, (tuple(d["uv"]),),
                       (np.asarray(d["faces"], np.float64),), faces_sure=False, counts=0.0,
                       px=d.get("px", float("inf")))


def misread_roll(before: Position, after: Position, dice: tuple, faces: tuple,
                 floor: float = MISREAD_FLOOR, read: set = frozenset()) -> tuple | None:
    """Another roll, at least ``floor`` likely from the dice's faces or kept possible by a look
    at them (``read``: :meth:`DiceReading.rolls_possible`), for which ``after`` is a legal play.

    A play read as illegal for the dice recorded but legal for dice the reader may have seen
    more likely tells of a misread die than of a wrong play: no call on it (a false call costs
    more than a missed one). ``faces``: each die's probabilities of 1..6, as often right as the
    reader's readings that sure turned out (:func:`vision.dice.honest`): on a die read 0.8 or
    surer, a face the reader gave less than 0.02 is taken as 0.0006 likely, so a roll one die
    away from two dice read surely is below ``floor`` and a play of the wrong number is called;
    on a die read less surely such a face stays 0.015 likely, and a face given a share of its
    own (0.02 and above) was the true one 2-18% of the time: their rolls stay possible. Of 2,272
    dice found on 1,550 renders not used in training (the calibration and test sets), no flat
    die had its true face put under ``floor``; four cocked dice did (such a throw does not
    count: RULES 2.3). Dice read from few pixels are given a lower ``floor``
    (:attr:`DiceReading.floor`), and a 4 and a 6 may each be the other however surely read
    (:data:`TWIN_FACES`).
    """
    if len(faces) != 2:
        return None
    recorded = tuple(sorted(dice, reverse=True))
    for roll, p in roll_probabilities(faces).items():
        if roll != recorded and (p >= floor or roll in read) and before.check(*roll, after).legal:
            return roll
    return None


def roll_probabilities(faces: tuple) -> dict:
    """Each roll (larger die first) and its probability from the two dice's faces, or from one
    die's with the other unseen: a roll of two numbers shows either on the die seen, a double
    its one, so a face f makes each of the six rolls with an f 1/6 likely.

    >>> p = roll_probabilities((np.array([0.5, 0.0, 0.0, 0.0, 0.5, 0.0]),))
    >>> round(p[(5, 1)], 3), round(p[(1, 1)], 3), round(p[(4, 2)], 3), round(sum(p.values()), 3)
    (0.167, 0.083, 0.0, 1.0)
    """
    if len(faces) == 1:
        (a,) = faces
        return {(d1, d2): float(a[d1 - 1] + (a[d2 - 1] if d1 != d2 else 0.0)) / 6 for d1, d2 in ROLLS}
    a, b = faces
    return {(d1, d2): float(a[d1 - 1] * b[d2 - 1] + (a[d2 - 1] * b[d1 - 1] if d1 != d2 else 0.0))
            for d1, d2 in ROLLS}


def cube_place(obs: Observation, sure: float = 0.9) -> str | None:
    """Where the cube lies ("middle", "light", "dark"), read at least ``sure``, however unsure
    its face; None where there is no cube on view or its place is unsure."""
    if obs.cube is None or float(np.max(obs.cube["location"])) < sure:
        return None
    return CUBE_LOCATIONS[int(np.argmax(obs.cube["location"]))]


def read_cube(obs: Observation, sure: float = 0.9, seen: tuple | None = None,
              likely: float = 0.5, centred: int | None = None) -> tuple | None | str:
    """(value, location) of the cube on view, None when there is none, "unsure" otherwise.

    A cube action is an event the referee may call, so a reading that is not sure of both its
    face and its place is not acted on (a false call costs more than a late one), except where
    the rules leave one face: a cube at a player's side, ``seen`` last in the middle, shows 2
    (RULES 5.3: offered or taken); seen at the other side, twice its value (a redouble); at the
    same side, its value. That face is taken when the reader gives it at least ``likely`` (vid
    7204: a double read 0.89 at the end of the game, never recorded). A false find (a hinge
    read as 64) does not give the one face the rules leave that much.

    ``centred``: the value of the cube the record keeps in the middle, owned by nobody (1, or
    more after automatic doubles, RULES 5.6), or None. A cube surely in the middle then shows
    that value unless it is read turned to the next (a double offered there): its 64 read as
    16 or 32 at a glance does not leave it unseen (vid 8402 joined at 40% and with corners a
    hundredth off: the middle cube never read surely, a double and take never recorded).
    """
    if obs.cube is None:
        return None
    where, value = cube_place(obs, sure), obs.cube["value"]
    if where is None:
        return "unsure"
    if float(np.max(value)) >= sure:
        return (CUBE_VALUES[int(np.argmax(value))], where)
    if where == "middle" and centred is not None and 2 * centred in CUBE_VALUES:
        if float(value[CUBE_VALUES.index(2 * centred)]) <= 1 - sure:
            return (centred, "middle")
    if seen is None or where == "middle":
        return "unsure"
    face = face_left(seen, where)
    if face in CUBE_VALUES and float(value[CUBE_VALUES.index(face)]) >= likely:
        return (face, where)
    return "unsure"


def face_left(seen: tuple, where: str) -> int:
    """The one face the rules leave a cube at a player's side (``where``), seen last as
    ``seen`` (value, place): 2 from the middle (RULES 5.3: offered or taken), its value at the
    same side, twice its value from the other side (a redouble).

    >>> face_left((1, "middle"), "dark"), face_left((2, "dark"), "dark"), face_left((2, "dark"), "light")
    (2, 2, 4)
    """
    v0, at = seen
    return 2 if at == "middle" else v0 if at == where else 2 * v0

