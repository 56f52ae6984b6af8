"""The frame loop: source -> settle gate -> recognizer -> tracker -> referee session -> listeners.

Every frame goes through the gate (:mod:`vision.motion`); only the frame on which the board
becomes settled is recognised, and its observation goes to the tracker (:mod:`gammoncam.tracker`),
which submits events to the referee session (:mod:`gammoncam.referee`, logged before acting).
Everything the tracker sees and every call goes to ``emit`` as a dict with the frame's time
``t`` (seconds) and index ``frame``. A settle that reads dice beyond the gate's view (past the
rail), where none lay before, goes to the tracker only once the gate has seen them still there
(:meth:`Watcher._look_again`).

Without corners given, the board is found (:func:`vision.corners.find_corners`) on the first
frames, twice a second of video until it is. With the real recognizer, settled frames calibrate
(:mod:`vision.adapt`: orientation, colours, bar) until one shows the opening or, joined mid-game,
a game in progress whose way round its position tells (the tracker then joins the game at a
throw, :class:`gammoncam.tracker.Tracker`); a settled
board that differs from the last one almost everywhere (the camera was bumped or moved) is
found again, its corners taken in the turn closest to the old ones, or failing that re-fitted
near the old ones (:func:`vision.corners.refine`). When what is there is not the board as last
seen (a stream cut to a player's camera or to another table), nothing is read until it is
back: ``board_lost``, then ``board_back``.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from engine.match import MODES
from engine.matchid import position_ids
from engine.transcript import AmendmentError, session_transcript, write_transcript
from gammoncam.decoding import Thresholds, log_probs
from gammoncam.frames import FrameSource
from gammoncam.referee import as_judged, call_facts, last_turn
from gammoncam.tracker import COLOUR, Tracker
from vision.checkers import CLASSES
from vision.motion import SettleGate
from vision.observation import Observation, likeliest_classes

RELOCALISE_FOREIGN = 0.5  # a settled board this different from the last one: the camera moved
# Locations read otherwise than on the last settled board, at most, for a board found again to
# be this game's: a double with two hits changes ten.
RELOCALISED_CHANGE = 10
# Field widths (half a checker) within which a die found lies where another was found before.
FIXTURE_NEAR = 0.03


class RecognizerObserver:
    """The trained recognizer behind the observer interface ``observer(image, index)``."""

    def __init__(self, corners, variant: str, checker_model: str | None = None, by_hand: bool = True):
        from vision.recognize import Recognizer

        self.recognizer = Recognizer(checker_model)
        self.corners = None if corners is None else np.asarray(corners, np.float64)
        # given by a person (clicked, typed), not a render's exact ones: the calibration checks their re-fit
        self.by_hand = corners is not None and by_hand
        self.finds_board = corners is None  # none given: found on the first frames, again while not confirmed
        self.variant = variant
        self.bar = None
        self.calibration = None
        self.has_dice = bool(self.recognizer.extras)

    def calibrate(self, image) -> dict:
        from vision.adapt import calibrate, calibrate_by_hand

        cal = (calibrate_by_hand if self.by_hand else calibrate)(image, self.corners, self.variant,
                                                               self.recognizer.checker_model)
        if self.finds_board and (not cal.accepted or cal.in_play):
            cal = self._found_again(image, cal)
        self.calibration = cal
        self.corners, self.bar = cal.corners, cal.bar
        return cal.to_json()

    def _found_again(self, image, first):
        """The board looked for again on a settle whose reading does not show the opening with
        the corners found on an earlier frame: the first find may have taken something beside
        the field for its corner. Vid 8709: an empty tray's outer corner, 24 px off, and no
        reading confirmed it, so no game was ever seen; vid 9928: both far corners on a tray's
        across that end, 14 px off, a reading of a game in progress confirmed it, the opening
        was never seen and the first play was called a foul.

        The finder's other :data:`~vision.corners.BOARDS_TRIED` likeliest fields on this frame
        are calibrated in turn (8709's first frame: the tray's corner ranked first, the field
        second), the first that reads the opening kept; then the :func:`~vision.corners.trimmed`
        fields of all of them, the bar in their middle (9928's: the first's, cut at its far
        end), the first that reads the opening at every location kept: a guess from where the
        bar lies, an opening read with a location amiss does not confirm it (on the third
        frames of 106 rendered games, the two other fields that read the opening so were 10 and
        13 px off, vids 9605 and 8401, and 8401's, taken, lost 17 of 24 turns; the four that
        read it whole were within 1.6 px). Else the ``first`` calibration where it read a game
        in progress; else the first other that reads one."""
        from vision.adapt import calibrate
        from vision.checkers import LOCATIONS
        from vision.corners import BOARDS_TRIED, boards_found, closest_turn

        in_play = None
        for trims in (False, True):
            for found in boards_found(image, BOARDS_TRIED, trims):
                if np.abs(closest_turn(found, self.corners) - self.corners).max() <= 2.0:
                    continue
                cal = calibrate(image, found, self.variant, self.recognizer.checker_model,
                                in_play=not (trims or first.accepted))
                if cal.accepted and not cal.in_play and (not trims or cal.matches == len(LOCATIONS)):
                    return cal
                if cal.accepted and cal.in_play:
                    in_play = in_play or cal
        return first if first.accepted else in_play or first

    def relocalise(self, image) -> np.ndarray:
        """The board's corners found again after the camera moved (in the turn closest to the old
        ones), or failing that the old corners re-fitted to the edges near them."""
        from vision.corners import closest_turn, find_corners, refine

        found = find_corners(image)
        if found is not None:
            return closest_turn(found, self.corners)
        span = float(np.linalg.norm(self.corners[2] - self.corners[0]))
        return refine(image, self.corners, search=max(6.0, 0.03 * span))

    def __call__(self, image, index: int) -> Observation:
        if self.calibration is None or not self.calibration.accepted:
            self.calibrate(image)  # until a frame of the opening, or of a game in progress, tells the board
        return self.recognizer(image, self.corners, self.bar, colours=self.calibration.colour_reader(),
                               frame_colours=False)


@dataclass
class WatchStats:
    frames: int = 0
    settled: int = 0
    looked_again: int = 0  # settles not read, their dice beyond the gate's view looked at again
    fixtures: int = 0  # dice dropped from settles as things of the board, never seen to come
    gate_ms: list = field(default_factory=list)
    recognize_ms: list = field(default_factory=list)
    track_ms: list = field(default_factory=list)
    latency_ms: list = field(default_factory=list)  # settle (first still frame) to the event
    cpu_s: float = 0.0
    wall_s: float = 0.0
    video_s: float = 0.0

    def to_json(self) -> dict:
        med = lambda xs: round(float(np.median(xs)), 2) if xs else None
        top = lambda xs: round(float(np.max(xs)), 2) if xs else None
        return {"frames": self.frames, "settled": self.settled, "looked_again": self.looked_again,
                "fixtures": self.fixtures,
                "video_s": round(self.video_s, 2),
                "wall_s": round(self.wall_s, 2), "cpu_s": round(self.cpu_s, 2),
                "fps_wall": round(self.frames / self.wall_s, 1) if self.wall_s else None,
                "fps_cpu": round(self.frames / self.cpu_s, 1) if self.cpu_s else None,
                "gate_ms_median": med(self.gate_ms), "recognize_ms_median": med(self.recognize_ms),
                "recognize_ms_max": top(self.recognize_ms), "track_ms_median": med(self.track_ms),
                "latency_ms_median": med(self.latency_ms), "latency_ms_max": top(self.latency_ms)}


class Watcher:
    """Runs one source through the pipeline into ``referee``."""

    def __init__(self, source: FrameSource, observer, referee, corners, *, emit: Callable[[dict], None],
                 thresholds: Thresholds = Thresholds(), on_frame: Callable | None = None,
                 joined_at: dict | None = None, lock=None):
        self.source = source
        self.observer = observer
        self.referee = referee
        self.emit_out = emit
        self.gate = SettleGate(corners, fps=source.fps) if corners is not None else None
        self.stats = WatchStats()
        self.current = {"t": 0.0, "frame": 0, "settle_wall": None, "quiet_ms": 0.0}
        self.tracker = Tracker(referee, self._emit, thresholds, joined_at=dict(joined_at or {}))
        # held while the tracker reads a settle, so that the page's thread gives it a roll between
        # settles: the page's own lock (WatchDesk.lock), which the events emitted take as well
        self.lock = lock if lock is not None else threading.RLock()
        self.on_frame = on_frame
        self.board_lost = None  # while the camera looks elsewhere: the board's gate image as last seen
        self.latest = None  # the latest frame's image (the calibration page shows it)
        self.corners_given = None  # corners an official gave on the page, used from the next frame
        self.beyond = []  # dice read beyond the gate's view at the last settle: (x, y, crop side) in frame pixels
        self.settle_dice = []  # the dice read at the last settle: where they lay (field u, v), crop px
        self.fixtures = []  # where dice were found that never came (:meth:`_drop_fixtures`): field u, v
        self.looked_from = None  # a settle not read, its dice looked at again: (its wall time, quiet ms)
        referee.recorders.append(self._call)  # in silent mode too: the stream and page list, the box stays dark
        warm_up(referee.state.variant)

    def _emit(self, event: dict) -> None:
        c = self.current
        out = {"t": round(c["t"], 3), "frame": c["frame"], **event}
        if c["settle_wall"] is not None and event.get("type") in ("play", "call", "throw", "double", "take",
                                                                   "drop", "opening", "unclear"):
            latency = c["quiet_ms"] + (time.perf_counter() - c["settle_wall"]) * 1000
            out["latency_ms"] = round(latency, 1)
            self.stats.latency_ms.append(latency)
        self.emit_out(out)

    def _call(self, index: int, ruling, state) -> None:
        self._emit(call_event(self.referee, index, ruling, state, self.referee.mode))

    def give_corners(self, corners) -> None:
        """Corners an official gave (the calibration page, another thread): from the next frame on
        the board is read there and calibrated again at the next settle, as given by hand."""
        self.corners_given = np.asarray(corners, np.float64).reshape(4, 2)

    def _use_given_corners(self) -> None:
        corners, self.corners_given = self.corners_given, None
        self.observer.corners = corners
        if hasattr(self.observer, "calibration"):
            self.observer.calibration, self.observer.by_hand = None, True
        self.gate = SettleGate(corners, fps=self.source.fps)
        self.board_lost = None
        self._emit({"type": "corners_given", "corners": np.round(corners, 1).tolist()})

    def _localise(self, frame) -> bool:
        """Look for the board on this frame (twice a second of video) when no corners were given."""
        from vision.corners import find_corners

        if frame.index % max(1, round(self.source.fps / 2)):
            return False
        found = find_corners(frame.image)
        if found is None:
            return False
        self.observer.corners = found
        self.gate = SettleGate(found, fps=self.source.fps)
        self._emit({"type": "localised", "corners": np.round(found, 1).tolist()})
        return True

    def _follow_calibrated_board(self) -> None:
        """The gate watches the board where the calibration confirmed it, when that is not where it
        was first found (:meth:`RecognizerObserver._found_again`)."""
        from vision.corners import closest_turn

        corners = closest_turn(self.observer.corners, self.gate.corners)
        if np.abs(corners - self.gate.corners).max() > 2.0:
            self.gate.set_corners(corners)
            self._emit({"type": "localised", "corners": np.round(corners, 1).tolist()})

    def _find_again(self, frame, board_before) -> Observation | None:
        """After a settle that looks nothing like the last one (the camera was bumped or moved, or
        the stream cut away): find the board again, follow it there and read it. None when what
        is found is not this game's board: the frame is not read further, for a picture read as
        this game could only be called or recorded wrong, and the gate keeps the board as last
        seen, so the game is followed again when the view comes back.

        Not this game's board: what is found (or, with no board found, what lies near the old
        corners) is not the board as last seen, brought to the same brightness and contrast (a
        bumped, turned, zoomed or re-lit view of it differed by 4-5%, a player's camera or
        another table's board by 80-90%); or, a board like it, it is read otherwise than the
        last settled board on more than :data:`RELOCALISED_CHANGE` locations (4 on the bumped
        test clip, 15 on a board like it with another position)."""
        settled = self.gate.reference
        corners = self.observer.relocalise(frame.image)
        self.gate.reference = board_before
        old = self.observer.corners
        self.observer.corners = corners
        if self.gate.foreign_at(frame.image, corners) <= RELOCALISE_FOREIGN:
            obs = self.observer(frame.image, frame.index)
            last = self.tracker.last_logp
            if last is None or (log_probs(obs).argmax(axis=1) != last.argmax(axis=1)).sum() <= RELOCALISED_CHANGE:
                self.gate.reference = settled
                moved = float(np.abs(corners - old).max())
                if moved > 2.0:
                    self.gate.set_corners(corners)
                    self._emit({"type": "relocalised", "moved_px": round(moved, 1)})
                return obs
        self.observer.corners = old
        if self.board_lost is None:
            self.board_lost = board_before
            self._emit({"type": "board_lost", "text": "the camera shows no board like this game's: waiting for "
                                                      "it to come back"})
        return None

    def _drop_fixtures(self, obs, board_before) -> None:
        """Leave out of ``obs`` the dice found where the picture did not change since the last
        settle (:meth:`vision.motion.SettleGate.changed_since`), where dice were found so before,
        or, the first time, where dice read at the last settle were picked up since: no throw
        reaches the board without changing the picture where it lies, so they are things of the
        board read as dice (vid 10054 in a dim room: two dark checkers' highlights, read as a 1-1
        once the 5-3 read beside them was picked up, were taken for light's throw, and four turns
        were lost). Not while a die read at the last settle lies there still, found or not: a die
        of the same throw found late (vid 10047 in a dim room: small red dice found one at a
        time). A die seen to come where such a find lay clears it."""
        from vision.dice import throw_valid
        from vision.rectify import Field

        corners = getattr(self.observer, "corners", None)
        last, self.settle_dice = self.settle_dice, [(tuple(d["uv"]), d["px"]) for d in obs.dice
                                                    if "uv" in d and "px" in d]
        if corners is None or board_before is None or not obs.dice:
            return
        near = lambda uv, places: any(np.hypot(uv[0] - u, uv[1] - v) <= FIXTURE_NEAR for u, v in places)
        field = Field(corners)
        came = lambda uv, px: self.gate.changed_since(board_before, field.to_image([uv])[0], px / 3)
        # the dice read at the last settle: all picked up since (their places changed), or not
        picked_up = bool(last) and all(came(uv, px) for uv, px in last)
        kept = []
        for d in obs.dice:
            if "uv" not in d or "px" not in d or near(d["uv"], [uv for uv, _ in last]):
                kept.append(d)
            elif came(d["uv"], d["px"]):
                self.fixtures = [f for f in self.fixtures if not near(f, [d["uv"]])]
                kept.append(d)
            elif near(d["uv"], self.fixtures) or picked_up:
                self.fixtures += [] if near(d["uv"], self.fixtures) else [tuple(d["uv"])]
                self.stats.fixtures += 1
            else:
                kept.append(d)
        if len(kept) < len(obs.dice):
            obs.dice = kept
            obs.throw_valid = throw_valid(kept)
            self.settle_dice = [(tuple(d["uv"]), d["px"]) for d in kept if "uv" in d and "px" in d]

    def _look_again(self, obs) -> bool:
        """Whether the dice of this settle must be looked at again before the tracker reads it:
        some lie beyond the gate's view (off the board, past the rail) where no die lay at the
        last settle, so the gate could not see whether they were still rolling (vid 9993, the gate
        counting changes in the dark finely: light's dice rolling in from beyond the rail, read on
        their way as a throw off the board, a false re-roll call). The gate then watches them there
        and settles again once they and the board stayed still
        (:meth:`vision.motion.SettleGate.look_again`); dice at rest are read at the same place,
        0.1 s later. A second look whose dice never moved is read whatever it finds, so a false
        find that wanders beyond the rail holds nothing up."""
        from vision.rectify import Field

        corners = getattr(self.observer, "corners", None)
        dice = [d for d in obs.dice if "uv" in d and "px" in d] if corners is not None else []
        beyond = []
        if dice:
            at = Field(corners).to_image([d["uv"] for d in dice])
            # a die (half its reading crop across) not wholly inside the view
            beyond = [(float(x), float(y), float(d["px"])) for (x, y), d in zip(at, dice)
                      if not self.gate.sees((x, y), d["px"] / 4)]
        last, self.beyond = self.beyond, beyond
        new = [s for s in beyond if not any(np.hypot(s[0] - o[0], s[1] - o[1]) <= s[2] / 2 for o in last)]
        if not new or self.gate.second_look:
            return False
        self.gate.look_again(beyond)
        return True

    def run(self) -> WatchStats:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        stats = self.stats
        try:
            for frame in self.source:
                wall = time.perf_counter()
                stats.frames += 1
                stats.video_s = frame.time
                self.latest = frame.image
                if self.corners_given is not None:
                    self._use_given_corners()
                if self.gate is None and not self._localise(frame):
                    continue
                if self.board_lost is not None:  # the view elsewhere is no board to settle on
                    self.gate.reference = self.board_lost
                board_before = self.gate.reference
                reading = self.gate(frame.image)
                stats.gate_ms.append(reading.ms)
                if self.on_frame is not None:
                    self.on_frame(frame, reading)
                if not reading.settled_now:
                    continue
                stats.settled += 1
                self.current.update(t=frame.time, frame=frame.index, settle_wall=wall,
                                    quiet_ms=self.gate.still_frames / self.gate.fps * 1000)
                looked_from, self.looked_from = self.looked_from, None
                if looked_from is not None and self.gate.second_look:  # still since the settle looked at again
                    self.current["settle_wall"], self.current["quiet_ms"] = looked_from
                before = getattr(self.observer, "calibration", None)
                t0 = time.perf_counter()
                if reading.foreign > RELOCALISE_FOREIGN and hasattr(self.observer, "relocalise"):
                    obs = self._find_again(frame, board_before)
                    if obs is None:
                        continue
                else:
                    obs = self.observer(frame.image, frame.index)
                stats.recognize_ms.append((time.perf_counter() - t0) * 1000)
                if self.board_lost is not None:
                    self.board_lost = None
                    self._emit({"type": "board_back"})
                calibration = getattr(self.observer, "calibration", None)
                if calibration is not before and (before is None or (calibration.accepted and not before.accepted)):
                    # the first calibration, and the first accepted after rejected ones
                    told = calibration.to_json()
                    warning = told.pop("warning")
                    self._emit({"type": "calibration", **told})
                    if not calibration.accepted:
                        warning = ("the board in view is neither a starting position nor a game in progress whose "
                                   "way round its position tells: nothing is followed until one is seen")
                    if warning:
                        self._emit({"type": "warning", "text": warning})
                    if calibration.accepted and getattr(self.observer, "finds_board", False):
                        self._follow_calibrated_board()
                if calibration is not None and not calibration.accepted:
                    continue  # which side is whose is not known yet
                if reading.foreign <= RELOCALISE_FOREIGN:
                    self._drop_fixtures(obs, board_before)
                if self._look_again(obs):
                    stats.looked_again += 1
                    self.looked_from = (self.current["settle_wall"], self.current["quiet_ms"])
                    continue
                t1 = time.perf_counter()
                with self.lock:
                    self.tracker.observe(obs, frame.time, frame.index)
                stats.track_ms.append((time.perf_counter() - t1) * 1000)
            with self.lock:
                self.tracker.finish()
        finally:
            stats.cpu_s = time.process_time() - cpu0
            stats.wall_s = time.perf_counter() - wall0
        return stats


def warm_up(variant) -> None:
    """Compile the engine's kernels and the counted board reading before the first frame, not at
    the first play."""
    from engine.position import Position

    start = Position.start(variant)
    start.plays(3, 1)
    start.check(3, 1, start.plays(3, 1)[0].position)
    likeliest_classes(np.zeros((1, len(CLASSES))), np.zeros((16, 16)))


DICE_DOUBT = ("dice", "foul_if_read", "probability", "px")  # what a doubt about the dice adds (doubt_of_dice)


class Doubts:
    """The moments the tracker was unsure of and did not call (its notes with a ``what``: a play
    that fits other dice than those read, a cube turned where the record cannot place it), as the
    referee page lists them (web_ui/SCHEMA.md ``doubts``), each kept in the referee log as a note;
    one told again at the next settles, with nothing recorded between, is kept once. A doubt about
    the dice keeps what ranks it (:data:`DICE_DOUBT`, :func:`gammoncam.tracker.doubt_of_dice`):
    whether the play is a foul if the dice were read right, how likely and from how many pixels
    they were read; and the turn whose roll it doubts (:func:`players_turn`), where an official
    may amend it. A watch resumed on a log lists the doubts the log kept.

    >>> from engine.profiles import profile
    >>> from gammoncam.referee import Referee
    >>> referee = Referee(profile("money"))
    >>> doubts = Doubts(referee)
    >>> for t in (41.5, 42.9):
    ...     doubts.hear({"t": t, "type": "unclear", "player": 2, "what": "a cube turned before the throw"})
    >>> doubts.told
    [{'t': 41.5, 'type': 'unclear', 'player': 2, 'what': 'a cube turned before the throw', 'game': 0}]
    >>> referee.notes == [{"after": 0, **doubts.told[0]}]
    True
    >>> from engine.match import NewGame
    >>> _ = referee.submit(NewGame())
    >>> doubts.hear({"t": 60.0, "type": "unclear", "player": 2, "what": "a cube turned before the throw"})
    >>> [d["t"] for d in doubts.told]  # another moment: something was recorded since
    [41.5, 60.0]
    """

    def __init__(self, referee):
        self.referee = referee
        self.told: list[dict] = [{k: v for k, v in note.items() if k != "after"}
                                 for note in referee.notes if "what" in note]
        self._last = None  # the last doubt told, without its time, and the events recorded before it

    def hear(self, event: dict) -> None:
        if "what" not in event:
            return
        doubt = {**{k: event[k] for k in ("t", "type", "player", "what", "action") if k in event},
                 "game": self.referee.state.game}
        # the same moment told again: its dice may be looked at anew, so they do not tell it apart
        moment = ({k: v for k, v in doubt.items() if k != "t"}, len(self.referee.events))
        if moment == self._last:
            return
        self._last = moment
        doubt.update({k: event[k] for k in DICE_DOUBT if k in event})
        if "foul_if_read" in doubt and doubt.get("player"):  # told once the throw is recorded: its turn
            doubt["turn"] = players_turn(self.referee, doubt["player"])
        self.told.append(doubt)
        self.referee.note(doubt)


class CallBook:
    """The calls of a watch, as the page shows them (web_ui/SCHEMA.md) and the referee box lights
    them: each pending until its play is put right (RULES 7.2: resolved ``corrected``), its
    double's cube is put back at another value (RULES 6.4, 5.2: ``withdrawn``), or an official
    acknowledges it on the page; a call resolved is withdrawn from the box as well. A call made
    in silent mode is only logged (RULES 7.3): listed for the officials as ``logged``, never
    pending, the box left dark.

    >>> book = CallBook()
    >>> book.hear({"type": "call", "kind": "illegal_play", "reason": "no_such_play", "text": "...", "player": 1})
    >>> book.hear({"type": "play", "accepted": True, "put_right": "no_such_play", "play": "8/5 6/5"})
    {'type': 'call_resolved', 'call_id': 1, 'resolution': 'corrected'}
    >>> book.calls[0]["pending"], book.calls[0]["resolution"]
    (False, 'corrected')
    >>> book.hear({"type": "call", "kind": "illegal_double", "reason": "after_throw", "text": "...", "player": 2})
    >>> book.hear({"type": "double", "accepted": False, "value": 2})
    >>> book.hear({"type": "cube_moved", "value": 1, "location": "middle"})
    {'type': 'call_resolved', 'call_id': 2, 'resolution': 'withdrawn'}
    >>> book.hear({"type": "call", "kind": "reroll", "reason": "off_board", "text": "...", "player": 1, "silent": True})
    >>> book.calls[2]["pending"], book.calls[2]["resolution"]
    (False, 'logged')
    """

    def __init__(self, box=None):
        self.calls: list[dict] = []
        self.box = box  # a device.driver.RefereeBox, or None
        self._box_calls: dict[int, int] = {}  # call id -> the box's sequence number
        self._seqs: dict[int, int] = {}  # call id -> the log's number of the event called
        self._offered: int | None = None  # the value a called double turned the cube to

    @classmethod
    def from_log(cls, referee, box=None) -> "CallBook":
        """The calls of a watch resumed on its log (``referee``, opened from it), booked again as
        they stood: every call among the log's verdicts, numbered as before and ``logged`` if made
        in silent mode, then closed as its notes say (acknowledged, resolved by the watch, overruled
        or recorded by an amended roll, overruled by dice given). Those still pending light the
        box again: nobody has put them right or acknowledged them yet.

        >>> from engine.match import NewGame, OpeningThrow, Played
        >>> from engine.profiles import profile
        >>> from gammoncam.referee import Referee
        >>> referee = Referee(profile("money"))
        >>> for event in (NewGame(), OpeningThrow(3, 1)):
        ...     _ = referee.submit(event)
        >>> _ = referee.submit(Played(referee.state.position.apply("13/7")))  # a 6 for a 3-1
        >>> referee.note({"type": "acknowledged", "call_id": 1, "author": "Chief TD"})
        >>> [(c["id"], c["reason"], c["turn"], c["resolution"]) for c in CallBook.from_log(referee).calls]
        [(1, 'no_such_play', 1, 'acknowledged')]
        """
        book, notes, taken, mode = cls(), referee.notes, 0, "monitor"
        judged = as_judged(referee.profile, referee.events, notes)[0]  # as judged then: results stated counted
        for index in range(len(referee.events) + 1):
            while taken < len(notes) and notes[taken]["after"] <= index:  # what was noted before this event
                mode = book._take_note(notes[taken], mode)
                taken += 1
            if index < len(referee.events):
                ruling, state = judged[index]
                if not ruling.accepted:
                    book.hear(call_event(referee, index, ruling, state, mode))
        if box is not None:
            book.box = box
            for called in book.calls:
                if called["pending"]:
                    book._box_calls[called["id"]] = box.call(called["kind"].upper())
        return book

    def _take_note(self, note: dict, mode: str) -> str:
        """Book again what ``note`` (a referee log's) did to the calls; the mode from then on."""
        kind = note.get("type")
        if kind in ("amended", "dice_given", "result", "double"):
            self.overrule(note["withdrawn"], note["author"])
            self.record_calls({**note, "called": note.get("called", [])})
        elif kind in ("acknowledged", "call_resolved"):
            called = next((c for c in self.calls if c["id"] == note["call_id"] and c["pending"]), None)
            if called is not None and kind == "acknowledged":
                called["acknowledged_by"] = note["author"]
            if called is not None:
                self._close(called, "acknowledged" if kind == "acknowledged" else note["resolution"])
        elif kind == "mode" and note.get("mode") in MODES:
            return note["mode"]
        return mode

    def hear(self, event: dict) -> dict | None:
        """Book ``event`` (as the tracker emits it); the page's ``call_resolved`` event that it
        brings, if any."""
        if event["type"] == "call":
            self.calls.append({"id": len(self.calls) + 1, "kind": event["kind"], "reason": event["reason"],
                               "detail": event["text"], "game": event.get("game"), "turn": event.get("turn"),
                               "player": event.get("player"), "pending": True})
            if event.get("seq") is not None:
                self._seqs[self.calls[-1]["id"]] = event["seq"]
            if event.get("silent"):
                self.calls[-1].update(pending=False, resolution="logged")
            elif self.box is not None:
                self._box_calls[self.calls[-1]["id"]] = self.box.call(event["kind"].upper())
        elif event["type"] == "play" and event.get("put_right") and event.get("accepted"):
            return self._resolve("illegal_play", "corrected")
        elif event["type"] in ("double", "cube_unseen"):
            self._offered = None if event.get("accepted") else event.get("value")
        elif event["type"] == "cube_moved" and self._offered is not None and event.get("value") != self._offered:
            self._offered = None
            return self._resolve("illegal_double", "withdrawn")
        return None

    def acknowledge(self, call_id: int | None, author: str) -> dict:
        """An official acknowledged call ``call_id`` (the latest waiting, if None) on the page: it
        waits no longer, and its light goes out; the page's ``call_resolved`` event. LookupError
        when no such call waits.

        >>> book = CallBook()
        >>> book.hear({"type": "call", "kind": "reroll", "reason": "off_board", "text": "...", "player": 2})
        >>> book.acknowledge(None, "Chief TD")["resolution"], book.calls[0]["acknowledged_by"]
        ('acknowledged', 'Chief TD')
        """
        waiting = [c for c in self.calls if c["pending"]]
        called = next((c for c in reversed(waiting) if call_id in (None, c["id"])), None)
        if called is None:
            raise LookupError(f"call {call_id} is not waiting to be acknowledged" if call_id and waiting
                              else "no call is waiting to be acknowledged")
        called["acknowledged_by"] = author
        return {**self._close(called, "acknowledged"), "author": author}

    def overrule(self, seqs, author: str) -> list[dict]:
        """The calls made on the events ``seqs`` (the log's numbers) rested on a roll misread or a
        score miscounted, which an official amended (:meth:`gammoncam.referee.Referee.amend_roll`,
        :meth:`~gammoncam.referee.Referee.state_result`): each is closed ``overruled``,
        acknowledged or not, its light out; the page's ``call_resolved`` events.

        >>> book = CallBook()
        >>> book.hear({"type": "call", "kind": "illegal_play", "reason": "no_such_play", "text": "...", "seq": 5})
        >>> book.overrule([5], "Chief TD")
        [{'type': 'call_resolved', 'call_id': 1, 'resolution': 'overruled', 'author': 'Chief TD'}]
        """
        out = []
        for called in self.calls:
            if self._seqs.get(called["id"]) in seqs and called.get("resolution") != "overruled":
                called["overruled_by"] = author
                out.append({**self._close(called, "overruled"), "author": author})
        return out

    def record_calls(self, note: dict) -> list[dict]:
        """The calls an official's amendment makes (``note``: as the referee keeps it): a roll
        amended as a foul the watch missed (:meth:`gammoncam.referee.Referee.amend_roll`: its play),
        or a result stated that makes a double the record took illegal
        (:meth:`~gammoncam.referee.Referee.state_result`, each call with its own kind, game, turn
        and player). Each is booked as a call of theirs, ``recorded``, never pending and its light
        dark, since the moment to put it right has passed (RULES 7.2: the game went on); the calls
        booked.

        >>> book = CallBook()
        >>> booked = book.record_calls({"game": 1, "turn": 9, "player": 1, "author": "Chief TD",
        ...                             "called": [{"seq": 40, "reason": "no_such_play", "text": "..."}]})
        >>> [(c["kind"], c["turn"], c["pending"], c["resolution"], c["recorded_by"]) for c in booked]
        [('illegal_play', 9, False, 'recorded', 'Chief TD')]
        """
        booked = []
        for called in note["called"]:
            self.calls.append({"id": len(self.calls) + 1, "kind": called.get("kind", "illegal_play"),
                               "reason": called["reason"], "detail": called["text"],
                               **{k: called.get(k, note.get(k)) for k in ("game", "turn", "player")},
                               "pending": False, "resolution": "recorded", "recorded_by": note["author"]})
            self._seqs[self.calls[-1]["id"]] = called["seq"]  # an amendment after may overrule it
            booked.append(self.calls[-1])
        return booked

    def _resolve(self, kind: str, resolution: str) -> dict | None:
        called = next((c for c in reversed(self.calls) if c["pending"] and c["kind"] == kind), None)
        return None if called is None else self._close(called, resolution)

    def _close(self, called: dict, resolution: str) -> dict:
        called.update(pending=False, resolution=resolution)
        if called["id"] in self._box_calls:
            self.box.clear(self._box_calls.pop(called["id"]))
        return {"type": "call_resolved", "call_id": called["id"], "resolution": resolution}


class WatchDesk:
    """The watch's side of the web page: after each event the state the page shows
    (:func:`feed_state`: the calls as booked, the throw held, the warnings and doubts), and the
    referee actions an official takes there (web_ui/SCHEMA.md): acknowledge a call (its light on
    the box goes out), switch between monitor and silent mode (RULES 7.3), name the players (the
    page and the transcripts), give the board's corners (the calibration page, which shows the
    latest frame), amend a roll the record got wrong while its play stands (a die misread, a dance
    recorded with another roll, a foul taken for the misread roll's legal play:
    :meth:`gammoncam.referee.Referee.amend_roll`). Each action is kept
    in the referee log as a note. The record follows the board, so what would rewrite its plays by
    hand (undo, correct or enter a play, a new game or match, another profile or length) is refused,
    with that said: the checkers put right on the board put the record right (a play put right to
    the dice resolves its call). A call resolved is kept in the log as well, so that a watch
    resumed on its log books its calls again as they stood (:meth:`CallBook.from_log`).

    The frame loop and the page's requests run in two threads; one lock keeps them apart.
    """

    ACTIONS = ("acknowledge", "set_mode", "set_players", "calibrate", "amend_roll", "correct_dice", "state_result",
               "state_double")

    def __init__(self, referee, feed=None, box=None):
        self.referee, self.feed = referee, feed
        self.book = CallBook.from_log(referee, box)  # a watch resumed on its log: the calls it holds
        self.doubts = Doubts(referee)
        self.seen: dict = {}  # a throw read but held until its play tells the roll (shown meanwhile)
        self.warnings: list = []  # what the official was warned of
        self.watcher: Watcher | None = None  # set once the frame loop runs: corners, the latest frame
        self.lock = threading.RLock()
        self.closed = False  # the watch is over and its log closed: the page only shows
        if feed is not None:
            feed.on_referee_action = self.act
            feed.frame_source = self.frame_jpeg
            feed.transcript = self.transcript
        if referee.events:  # the page shows the record resumed at once, not at the next event seen
            self._publish({"type": "watch_resumed", "events": len(referee.events), "game": referee.state.game})

    def hear(self, event: dict) -> None:
        """Take ``event`` (as the watcher emits it) into the page's state and publish it."""
        with self.lock:
            if event["type"] == "throw_unsure":
                self.seen.update(dice=event["dice"], player=event.get("player"))
            elif "accepted" in event:  # the referee acted: the held throw is recorded, or its turn is over
                self.seen.clear()
            elif event["type"] == "warning":
                self.warnings.append(event["text"])
            self.doubts.hear(event)
            resolved = self.book.hear(event)
            if resolved is not None:  # kept, so that a watch resumed on the log books it so (CallBook.from_log)
                self.referee.note({"type": "call_resolved", "call_id": resolved["call_id"],
                                   "resolution": resolved["resolution"]})
            self._publish(event, resolved)

    def act(self, action: str, params: dict, author: str) -> dict:
        """A referee action from the page (validated there); ActionRejected if refused, or if the
        log cannot be written (a full disk: HTTP 503, the action not kept)."""
        from web_ui.feed import ActionRejected

        try:
            return self._act(action, params, author)
        except sqlite3.Error as exc:
            raise ActionRejected(f"the referee log cannot be written ({exc}): {action.replace('_', ' ')} is not "
                                 "kept", status=503) from None

    def _act(self, action: str, params: dict, author: str) -> dict:
        from web_ui.feed import ActionRejected

        if action not in self.ACTIONS:
            raise ActionRejected(f"{action.replace('_', ' ')} is not done while a game is watched: the record "
                                 "follows the board, so put it right there")
        with self.lock:
            if self.closed:
                raise ActionRejected("the watch has ended and its referee log is closed")
            if action == "acknowledge":
                try:
                    resolved = self.book.acknowledge(params.get("call_id"), author)
                except LookupError as exc:
                    raise ActionRejected(str(exc)) from None
                note, message = {"type": "acknowledged", "call_id": resolved["call_id"]}, \
                    f"call {resolved['call_id']} acknowledged"
            elif action == "set_mode":
                self.referee.mode = params["mode"]
                note, message = {"type": "mode", "mode": params["mode"]}, f"{params['mode']} mode"
            elif action == "set_players":
                note, message = {"type": "players", "players": [params["player1"], params["player2"]]}, "players named"
            elif action == "amend_roll":  # a roll the record got wrong: its plays stand (the referee keeps the note)
                try:
                    note = self.referee.amend_roll(params["game"], params["turn"], params["player"], params["dice"],
                                                   author, foul=params.get("foul", False))
                except AmendmentError as exc:
                    raise ActionRejected(str(exc)) from None
                calls = self._book_amendment(note, author)
                now, was = "-".join(map(str, note["dice"])), "-".join(map(str, note["was"]))
                where = f"game {note['game']}, turn {note['turn']}"
                return {"message": f"{where}: the roll is now {now} (was {was}){calls}"}
            elif action == "state_result":  # a game's end the record did not see, or the game on hand ended
                return self._state_result(params["game"], params["winner"], params["points"], author)
            elif action == "correct_dice":  # the throw being played, misread: judged on the roll given from now on
                return self._correct_dice(params["player"], params["dice"], author)
            elif action == "state_double":  # a double and take the watch did not see: the cube as stated from now on
                return self._state_double(params["player"], author, params.get("game"), params.get("turn"))
            else:  # calibrate
                if self.watcher is None:
                    raise ActionRejected("no camera frame yet to read the board with these corners")
                self.watcher.give_corners(params["corners"])
                note = {"type": "corners", "corners": params["corners"]}
                message = "corners taken: the board is read there"
            self.referee.note({**note, "author": author})
            self._publish(resolved if action == "acknowledge" else {**note, "author": author})
            return {"message": message}

    def _state_result(self, game: int, winner: int, points: int, author: str) -> dict:
        """An official states how game ``game`` ended (:meth:`gammoncam.referee.Referee.state_result`):
        one the record saw end unseen, or the game on hand, which the tracker then ends (the
        board set up again starts the next). Calls the score now makes are booked ``recorded``,
        those it no longer bears out are overruled."""
        from web_ui.feed import ActionRejected

        tracker = None if self.watcher is None else self.watcher.tracker
        try:
            note = self.referee.state_result(game, winner, points, author,
                                             end=None if tracker is None else
                                             (lambda event: tracker.end_game(event, stated_by=author)))
        except AmendmentError as exc:
            raise ActionRejected(str(exc)) from None
        calls = self._book_amendment(note, author)
        score = self.referee.state.score
        return {"message": f"game {game}: player {winner} won {points} point(s); the score is {score[0]}-{score[1]}"
                           f"{calls}"}

    def _book_amendment(self, note: dict, author: str) -> str:
        """The calls an official's amendment (``note``, as the referee keeps it) overrules closed and
        those it makes booked, the note and the calls closed published; what it did to the calls,
        for the page's message."""
        overruled = self.book.overrule(note["withdrawn"], author)
        recorded = self.book.record_calls(note)
        self._publish(note)
        for resolved in overruled:
            self._publish(resolved)
        return ("".join(f"; call {r['call_id']} overruled" for r in overruled)
                + "".join(f"; call {c['id']} recorded: {c['detail']}" for c in recorded))

    def _state_double(self, player: int, author: str, game: int | None = None, turn: int | None = None) -> dict:
        """Player ``player`` doubled and the other took where the watch did not see it
        (:meth:`gammoncam.tracker.Tracker.double_given`), stated between two settles. A double
        the rules forbid (not the owner's, in the Crawford game, on a dead cube) is called, and
        the cube stays as the record kept it (RULES 6.4). With ``game`` and ``turn``, found after
        that turn of the doubler's: put before its throw (:meth:`gammoncam.referee.Referee.state_double`;
        one the rules forbid then is refused), and the calls that hang on the cube judged again."""
        from engine.match import InvalidEventError
        from web_ui.feed import ActionRejected

        if (game is None) != (turn is None):
            raise ActionRejected("a double found after its turn names both the game and the doubler's turn")
        if game is not None:
            return self._state_double_before(game, turn, player, author)
        if self.watcher is None:
            raise ActionRejected("no game is watched yet")
        calls, value = len(self.book.calls), self.referee.state.cube * 2
        try:
            ruling = self.watcher.tracker.double_given(player, author=author)
        except InvalidEventError as exc:
            raise ActionRejected(str(exc)) from None
        # who stated it, in the log beside the event (the event itself is the record's)
        self.referee.note({"type": "double_stated", "player": player, "value": value,
                           "accepted": ruling.accepted, "author": author})
        if not ruling.accepted:
            return {"message": f"player {player}'s double to {value}: called ({ruling.text})"
                               + "".join(f"; call {c['id']}: {c['detail']}" for c in self.book.calls[calls:])}
        return {"message": f"player {player} doubled to {value} and player {3 - player} took: "
                           f"player {3 - player} owns the cube"}

    def _state_double_before(self, game: int, turn: int, player: int, author: str) -> dict:
        """Player ``player``'s double before their turn ``turn`` of game ``game``, taken, found
        after it: the record has it from then on, the tracker looks for the cube where the record
        now keeps it, calls the cube no longer bears out are overruled and those it makes booked."""
        from web_ui.feed import ActionRejected

        try:
            note = self.referee.state_double(game, turn, player, author)
        except AmendmentError as exc:
            raise ActionRejected(str(exc)) from None
        if self.watcher is not None and game == self.referee.state.game:
            self.watcher.tracker.follow_recorded_cube()
        calls = self._book_amendment(note, author)
        score = self.referee.state.score
        return {"message": f"game {game}, turn {turn}: player {player} doubled to {note['value']} and player "
                           f"{3 - player} took; the score is {score[0]}-{score[1]}{calls}"}

    def _correct_dice(self, player: int, dice, author: str) -> dict:
        """The throw being played showed ``dice`` (:meth:`gammoncam.tracker.Tracker.roll_given`),
        given between two settles (the frame loop holds this desk's lock while the tracker reads
        one). A call made on the roll misread that the roll given overturns is overruled; one the
        roll given makes is the referee's, and waits to be put right (RULES 7.2)."""
        from engine.match import OpeningThrow, Throw
        from web_ui.feed import ActionRejected

        if self.watcher is None:
            raise ActionRejected("no game is watched yet")
        state = self.referee.state
        was = state.dice if state.phase in ("moving", "played") and state.on_roll == player - 1 else None
        calls = len(self.book.calls)
        try:
            ruling = self.watcher.tracker.roll_given(player, dice, author=author)
        except ValueError as exc:
            raise ActionRejected(str(exc)) from None
        withdrawn = []
        if ruling is not None and ruling.accepted:  # the play's calls on the roll misread, if any
            thrown = max(k for k, e in enumerate(self.referee.events) if isinstance(e, (Throw, OpeningThrow)))
            withdrawn = [k + 1 for k, r in self.referee.calls if k > thrown and r.kind == "illegal_play"]
        roll = sorted(dice, reverse=True)
        # kept with the calls it overrules, so that a watch resumed on the log books them so (CallBook.from_log)
        self.referee.note({"type": "dice_given", "player": player, "dice": roll, "withdrawn": withdrawn,
                           "author": author})
        overruled = self.book.overrule(withdrawn, author)
        for resolved in overruled:
            self._publish(resolved)
        message = f"player {player}'s throw is {roll[0]}-{roll[1]}" + (f" (was {was[0]}-{was[1]})" if was else "")
        message += "".join(f"; call {r['call_id']} overruled" for r in overruled)
        message += "".join(f"; call {c['id']}: {c['detail']}" for c in self.book.calls[calls:])
        return {"message": message}

    def close(self) -> None:
        """The watch is over: the log is about to close, so no action is taken from now on."""
        with self.lock:
            self.closed = True

    def frame_jpeg(self) -> bytes | None:
        image = None if self.watcher is None else self.watcher.latest
        if image is None:
            return None
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return data.tobytes() if ok else None

    def transcript(self) -> str:
        with self.lock:
            return transcript_text(self.referee)

    def _publish(self, event: dict, resolved: dict | None = None) -> None:
        if self.feed is None:
            return
        watcher = self.watcher
        corners = None if watcher is None else (watcher.corners_given if watcher.corners_given is not None
                                                else getattr(watcher.observer, "corners", None))
        if corners is not None:
            self.feed.corners = np.asarray(corners, np.float64).round(1).tolist()
        try:  # the page is a viewer: trouble there never stops the referee
            state = feed_state(self.referee, calls=self.book.calls, seen=self.seen or None, warnings=self.warnings,
                               doubts=self.doubts.told, actions=self.ACTIONS)
            for out in (event, resolved) if resolved else (event,):
                self.feed.publish({k: v for k, v in out.items() if k != "accepted"}, state)
        except Exception as exc:  # noqa: BLE001
            print(f"gammoncam watch: the page was not updated: {exc}", file=sys.stderr)


def call_event(referee, index: int, ruling, state, mode: str) -> dict:
    """The watch's ``call`` event for the call ``ruling`` on the referee's event ``index``, which
    left the match in ``state``, made in ``mode`` (monitor or silent)."""
    return {"type": "call", **call_facts(referee.profile, referee.events, index, ruling, state),
            "silent": mode == "silent"}


def players_turn(referee, player: int) -> int | None:
    """The number the transcript gives ``player``'s latest turn in the game on hand (None before
    they have one): where an official amends its roll (:meth:`gammoncam.referee.Referee.amend_roll`)."""
    games = session_transcript(referee.profile, referee.record).games
    turns = [a.number for a in (games[-1].actions if games else ()) if a.kind == "play" and a.side == player - 1]
    return turns[-1] if turns else None


def transcript_text(referee) -> str:
    """The session so far as a match transcript (player 1 light, player 2 dark)."""
    return write_transcript(session_transcript(referee.profile, referee.record, players=referee.players))


def feed_state(referee, calls: list | None = None, seen: dict | None = None, warnings: list | None = None,
               doubts: list | None = None, actions: tuple | None = None) -> dict:
    """The web page's state (web_ui/SCHEMA.md) from the referee session; ``seen``: dice read but
    not yet recorded (``{"dice", "player"}``), shown until the referee has a throw; ``warnings``:
    what the watch warned the official of, ``doubts``: the moments it was unsure of (``{"t",
    "type", "player", "what"}``), each oldest first; ``actions``: the referee actions the page
    may take (all, if None)."""
    from web_ui.board import board_state, crawford_flag, page_pips

    s = referee.state
    profile = referee.profile
    variant, name = s.variant.name, profile.name.replace("-", "_")
    board = board_state(s.position, (s.on_roll or 0) + 1) if s.position is not None else None
    plays = []
    transcript = session_transcript(profile, referee.record)
    for game in transcript.games:
        for a in game.actions:
            if a.kind == "play" and a.play is not None:  # None: thrown, not yet played
                plays.append({"game": game.number, "turn": a.number, "player": a.side + 1,
                              "dice": list(a.dice), "play": a.play})
    last_call = calls[-1] if calls else None
    light, dark = referee.players
    ids = position_ids(s)
    return {
        "variant": variant, "profile": name, "mode": referee.mode,
        "players": {"1": light, "2": dark}, "match_length": profile.match_length,
        "score": {"1": s.score[0], "2": s.score[1]},
        "crawford": crawford_flag(profile.match_length, s.crawford, s.post_crawford),
        "game": s.game, "turn": last_turn(transcript),
        "on_roll": None if s.on_roll is None else s.on_roll + 1,
        "dice": sorted(s.dice, reverse=True) if s.dice else [],
        "dice_seen": dict(seen) if seen and not s.dice else None,
        "cube": {"value": s.cube, "owner": None if s.owner is None else s.owner + 1, "offered": s.phase == "doubled"},
        "board": board, "pips": page_pips(s.position, (s.on_roll or 0) + 1, name) if board else None,
        "plays": plays, "call": last_call, "calls": list(calls or []),
        "ids": {"gnubg": ids.get("gnubg_id"), "xgid": ids.get("xgid")},
        "warnings": list(warnings or []), "doubts": list(doubts or []),
        **({} if actions is None else {"actions": list(actions)}),
    }


__all__ = ["Watcher", "RecognizerObserver", "CallBook", "Doubts", "WatchDesk", "transcript_text", "feed_state",
           "COLOUR"]
