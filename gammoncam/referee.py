"""The referee session: events in order, a verdict for each, and a log that survives a crash.

The rules live in :mod:`engine.match`; this module is wiring. Every event is appended to an
SQLite log (WAL, ``synchronous=FULL``) and committed before its verdict is given or the
session's state changes, so a session killed at any instant and opened again from its log
replays the same events through the same pure function and has exactly the state and
verdicts it had. A file that is not such a log is refused with :class:`LogError` and never
written to.

Notes (:meth:`Referee.note`) keep, beside the events, what the official should look at again (a
moment the watch was unsure of: a play that fits dice other than those read) and what the
officials did on the page (a call acknowledged, the players named). They are logged in the same
file but change no verdict: replaying the events alone gives the same session.

Calls go to the *call listeners* (a light, a buzzer, a serial box, the replay's printer) in
monitor mode; in silent mode they are only logged (RULES 7.3). The *call recorders* hear every
call in either mode: they keep and list it for the officials (a watch's event stream and page),
and signal nothing.

>>> from engine.profiles import profile
>>> from engine.match import NewGame, OpeningThrow
>>> ref = Referee(profile("tournament", match_length=3))
>>> ref.submit(NewGame()).accepted, ref.submit(OpeningThrow(6, 5)).accepted
(True, True)
>>> ref.state.on_roll, ref.state.dice
(0, (6, 5))
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from typing import Callable, Iterable

from engine.match import IN_GAME, MODES, InvalidEventError, MatchState, Ruling, event_from_json, event_to_json
from engine.profiles import Profile

#: "GCRF" in the database header: marks a gammoncam referee log.
APPLICATION_ID = 0x47435246
LOG_VERSION = 1

#: A call listener gets the event's index in the session, the ruling and the state after it.
CallListener = Callable[[int, Ruling, MatchState], None]


class LogError(Exception):
    """A log file that cannot be used: not SQLite, another program's database, a newer
    version, damaged, or started with another profile. The file is left as it is."""


class Referee:
    """A session: a :class:`MatchState`, the verdicts so far, and optionally a log."""

    def __init__(self, profile: Profile, *, mode: str = "monitor",
                 listeners: Iterable[CallListener] = ()):
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        self.profile = profile
        self.mode = mode
        self.listeners: list[CallListener] = list(listeners)
        self.recorders: list[CallListener] = []  # every call, in silent mode too: they signal nothing
        self.state = MatchState.new(profile)
        self.events: list = []
        self.rulings: list[Ruling] = []
        self.notes: list[dict] = []  # each with "after": how many events came before it
        self._db: sqlite3.Connection | None = None
        self._held = None  # the log's writer lock (:func:`_hold_for_writing`)
        self._writing = threading.Lock()  # one thread at a time writes to the log

    # --- the log ----------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, profile: Profile | None = None, *,
             mode: str | None = None, listeners: Iterable[CallListener] = (), write: bool = True) -> "Referee":
        """A session logged to ``path``: a new log (``profile`` required), or the session an
        existing log holds, rebuilt by replaying its events (``profile``, if given, must be
        the one it was started with). ``mode``: monitor or silent; by default as an official
        last set it (a ``mode`` note), else monitor.

        One session at a time writes a log (:func:`_hold_for_writing`): a second writer would
        number its events over the first's, and neither would know what the other recorded.
        ``write=False`` reads the log as it stands, a writer or none, into a session that writes
        nothing (to export a record while a watch goes on writing it)."""
        path = os.fspath(path)
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if exists:
            stored = _check_log(path)
            if profile is not None and profile != stored:
                raise LogError(f"{path}: the log was started with profile {stored.name!r} "
                               f"({_differences(stored, profile)}), not this one")
            profile = stored
        elif profile is None or not write:
            raise LogError(f"{path}: no log there to resume; a new one needs a profile")
        held = _hold_for_writing(path) if write else None
        try:
            referee = cls._load(path, profile, exists, mode)
        except BaseException:
            if held is not None:
                held.close()
            raise
        if not write:
            referee.close()
        referee._held = held
        referee.listeners = list(listeners)
        return referee

    @classmethod
    def _load(cls, path: str, profile: Profile, exists: bool, mode: str | None) -> "Referee":
        """The session the log at ``path`` holds (a new log made first if it does not ``exist``),
        with the connection it goes on writing through."""
        db = None
        try:
            if not exists:
                _create_log(path, profile)
            # the page's thread notes what an official did while the frame loop's submits events
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            rows = db.execute("SELECT seq, event FROM events ORDER BY seq").fetchall()
            has_notes = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='notes'").fetchone()
            notes = db.execute("SELECT note FROM notes ORDER BY id").fetchall() if has_notes else []
        except (sqlite3.Error, OSError) as exc:  # a folder that is not there, a read-only disk
            if db is not None:
                db.close()
            raise LogError(f"{path}: cannot open the log there ({exc})") from None
        referee = cls(profile, mode=mode or "monitor", listeners=())
        events = []
        for expected, (seq, text) in enumerate(rows, 1):
            if seq != expected:
                db.close()
                raise LogError(f"{path}: event {expected} is missing from the log")
            try:
                events.append(event_from_json(json.loads(text)))
            except (ValueError, TypeError) as exc:  # EngineError is a ValueError
                db.close()
                raise LogError(f"{path}: event {seq} cannot be read ({exc})") from None
        try:
            referee.notes = [json.loads(text) for (text,) in notes]
            recorded(events, referee.notes)  # the amendments name events the log holds
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            db.close()
            raise LogError(f"{path}: a note cannot be read ({exc})") from None
        try:
            judged, referee.state = as_judged(profile, events, referee.notes)
        except ReplayError as exc:
            db.close()
            raise LogError(f"{path}: event {exc.seq} cannot be read ({exc})") from None
        except IndexError as exc:  # a result stated, by its note, before the event it names was logged
            db.close()
            raise LogError(f"{path}: a note cannot be read ({exc})") from None
        referee.events, referee.rulings = events, [ruling for ruling, _ in judged]
        if mode is None:
            referee.mode = next((n["mode"] for n in reversed(referee.notes) if n.get("type") == "mode"
                                 and n.get("mode") in MODES), "monitor")
        referee._db = db
        return referee

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._held is not None:  # after the connection: the log is another writer's only once ours is shut
            self._held.close()
            self._held = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- events -----------------------------------------------------------------------
    def submit(self, event) -> Ruling:
        """Log ``event``, then act on it: the new state, the verdict, the call listeners.

        An event that is bad input (:class:`engine.match.InvalidEventError`) is refused
        before anything is logged.
        """
        state, ruling = self.state.apply(event)  # pure: nothing has changed yet
        if self._db is not None:
            with self._writing, self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO events(seq, event) VALUES (?, ?)",
                                 (len(self.events) + 1, json.dumps(event_to_json(event))))
        self._commit(event, state, ruling)
        return ruling

    def note(self, note: dict) -> None:
        """Log ``note`` (JSON-serialisable) for the official, after the events so far; it is no
        event and changes nothing.

        >>> from engine.profiles import profile
        >>> ref = Referee(profile("money"))
        >>> ref.note({"what": "a cube turned before the throw"})
        >>> ref.notes
        [{'after': 0, 'what': 'a cube turned before the throw'}]
        """
        record = {"after": len(self.events), **note}
        if self._db is not None:
            with self._writing, self._db:
                self._db.execute("BEGIN IMMEDIATE")
                # A log made before notes were kept gets their table with its first note.
                self._db.execute(NOTES_TABLE)
                self._db.execute("INSERT INTO notes(note) VALUES (?)", (json.dumps(record),))
        self.notes.append(record)

    def amend_roll(self, game: int, turn: int, player: int, dice, author: str = "referee",
                   foul: bool = False) -> dict:
        """An official's word on a roll the record got wrong (:func:`engine.transcript.amend_roll`:
        only the roll changes, every play stands, and a call made on the roll misread is
        withdrawn; with ``foul``, the play recorded is a foul of the roll given, one the watch
        missed, and is called), kept as a note (``seq``: the event amended, ``withdrawn``: those
        whose calls are withdrawn, ``called``: the play called, with its ``reason`` and ``text``,
        numbered from 1 as the log numbers them); the events and the verdicts stay as logged and
        :attr:`record` has the roll amended. :class:`engine.transcript.AmendmentError` says why
        one is refused.

        >>> from engine.match import NewGame, OpeningThrow, Played, Throw
        >>> from engine.profiles import profile
        >>> ref = Referee(profile("money", condone=True))
        >>> for event in (NewGame(), OpeningThrow(3, 1)):
        ...     _ = ref.submit(event)
        >>> _ = ref.submit(Played(ref.state.position.apply("8/5 6/5")))
        >>> _ = ref.submit(Throw(4, 1))
        >>> _ = ref.submit(Played(ref.state.position.apply("13/8")))  # 13/9/8: a 3-2's too (13/10/8)
        >>> _ = ref.submit(Throw(5, 2))  # light's turn: dark's is over
        >>> ref.amend_roll(1, 1, 2, (3, 2), author="Ana")["was"]
        [4, 1]
        >>> ref.record[3], ref.events[3]
        (Throw(die1=3, die2=2, valid=True), Throw(die1=4, die2=1, valid=True))
        >>> [(c["seq"], c["reason"]) for c in ref.amend_roll(1, 1, 2, (6, 4), "Ana", foul=True)["called"]]
        [(5, 'no_such_play')]
        """
        from engine.transcript import amend_roll

        record, seqs = recorded_with_seqs(self.events, self.notes)
        fixed = amend_roll(self.profile, record, game, turn, player, dice, foul=foul)
        was, now = record[fixed.index], fixed.events[fixed.index]
        # seq: the log's numbers of the events, from 1, as `gammoncam export --format jsonl` gives them
        note = {"type": "amended", "seq": seqs[fixed.index], "game": game, "turn": turn, "player": player,
                "dice": sorted((now.die1, now.die2), reverse=True), "was": sorted((was.die1, was.die2), reverse=True),
                "withdrawn": [seqs[k] for k in fixed.withdrawn], "foul": foul,
                "called": [{"seq": seqs[k], "reason": r.reason, "text": r.text} for k, r in fixed.called],
                "author": author}
        self.note(note)
        return note

    def state_result(self, game: int, winner: int, points: int, author: str = "referee",
                     end: Callable | None = None) -> dict:
        """An official's word on how game ``game`` ended where the record did not see it: player
        ``winner`` (1 light, 2 dark) won ``points``. A game that ended unseen has its result stated
        (:func:`engine.transcript.state_result`: the score counts it from then on, and a double that
        the score now makes illegal, RULES 6.2 and 6.3, is called, a call it no longer bears out
        withdrawn); the game in progress is ended with it (``end`` submits the event, by default
        :meth:`submit`: a watch passes its tracker's). Kept as a note (``seq``: the event, ``was``:
        the result stated before, ``withdrawn`` and ``called`` as for :meth:`amend_roll`, each call
        with its ``kind``, ``game``, ``turn`` and ``player``); the events and verdicts stay as
        logged, :attr:`record` and the state have the result. :class:`engine.transcript.AmendmentError`
        says why one is refused.

        >>> from engine.match import NewGame, OpeningThrow, EndUnseen
        >>> from engine.profiles import profile
        >>> ref = Referee(profile("tournament", match_length=5))
        >>> for event in (NewGame(), OpeningThrow(3, 1), EndUnseen(), NewGame(), OpeningThrow(6, 2)):
        ...     _ = ref.submit(event)
        >>> ref.state.score, ref.state.crawford
        ((0, 0), False)
        >>> note = ref.state_result(1, 2, 4, author="Ana")
        >>> ref.state.score, ref.state.crawford, ref.record[2]
        ((0, 4), True, EndUnseen(winner=1, points=4))
        >>> ref.state_result(2, 1, 1, author="Ana")["seq"], ref.state.score, ref.state.phase  # the game on hand
        (6, (1, 4), 'game_over')
        """
        from engine.match import EndUnseen
        from engine.transcript import AmendmentError, state_result

        state = self.state
        if game == state.game and state.phase in IN_GAME + ("opening",):
            if winner not in (1, 2):
                raise AmendmentError(f"game {game}: the winner is player 1 or 2, not {winner!r}")
            try:
                ruling = (end or self.submit)(EndUnseen(winner - 1, points))
            except InvalidEventError as exc:
                raise AmendmentError(f"game {game}: {exc}") from None
            if ruling is None or not ruling.accepted:
                raise AmendmentError(f"game {game}: the game could not be ended ({getattr(ruling, 'text', '')})")
            seq, was, withdrawn, called = len(self.events), None, [], []
        else:
            before, seqs = recorded_with_seqs(self.events, self.notes)
            fixed = state_result(self.profile, before, game, winner, points)
            stated = before[fixed.index]
            was = None if stated.winner is None else [stated.winner + 1, stated.points]
            seq, withdrawn, called = seqs[fixed.index], *self._calls_changed(fixed, seqs)
        note = {"type": "result", "seq": seq, "game": game, "winner": winner, "points": points, "was": was,
                "withdrawn": withdrawn, "called": called, "author": author}
        self.note(note)
        self.state = as_judged(self.profile, self.events, self.notes)[1]
        return note

    def state_double(self, game: int, turn: int, player: int, author: str = "referee") -> dict:
        """An official's word on a double and take the record did not see, told after the turn
        it came before (the cube turned under a hand, its face unread; on the page, while the
        game is played, the event :class:`engine.match.CubeUnseen` states it at once): player
        ``player`` (1 light, 2 dark) doubled at the start of their turn ``turn`` of game ``game``
        and the other took (:func:`engine.transcript.state_double`: the cube at twice its value
        at the taker's side from then on, so the game's points and the calls that hang on the
        cube are judged again). Kept as a note (``seq``: the logged event the double came before,
        ``value``: the cube after it, ``withdrawn`` and ``called`` as for :meth:`state_result`);
        the events and verdicts stay as logged, :attr:`record` and the state have the double.
        :class:`engine.transcript.AmendmentError` says why one is refused.

        >>> from engine.match import NewGame, OpeningThrow, Played, Throw, Double, Take
        >>> from engine.position import Position
        >>> from engine.profiles import profile
        >>> ref = Referee(profile("tournament", match_length=5))
        >>> opened = Position.start().apply("8/5 6/5")
        >>> for event in (NewGame(), OpeningThrow(3, 1), Played(opened), Throw(6, 4),
        ...               Played(opened.swapped().apply("24/14")), Throw(5, 2)):
        ...     _ = ref.submit(event)
        >>> note = ref.state_double(1, 1, 2, author="Ana")   # dark doubled before their 6-4
        >>> note["seq"], note["value"], ref.state.cube, ref.state.owner, len(ref.events), len(ref.record)
        (4, 2, 2, 0, 6, 7)
        """
        from engine.transcript import state_double

        before, seqs = recorded_with_seqs(self.events, self.notes)
        fixed = state_double(self.profile, before, game, turn, player)
        withdrawn, called = self._calls_changed(fixed, seqs)
        value = as_judged(self.profile, fixed.events[:fixed.index + 1], [])[1].cube
        note = {"type": "double", "seq": seqs[fixed.index], "game": game, "turn": turn, "player": player,
                "value": value, "withdrawn": withdrawn, "called": called, "author": author}
        self.note(note)
        self.state = as_judged(self.profile, self.events, self.notes)[1]
        return note

    def _calls_changed(self, fixed, seqs: list) -> tuple[list, list]:
        """The calls that an official's word on the record (``fixed``: an
        :class:`engine.transcript.Amendment` of the record, whose events the log numbers
        ``seqs``) withdraws, by the log's numbers, and makes, each with what it says of itself
        (:func:`call_facts`, numbered as the log numbers the event called). A word that would
        call a double an official stated before is refused (:class:`engine.transcript.AmendmentError`)."""
        from engine.transcript import AmendmentError

        if len(fixed.events) > len(seqs):  # a double stated: the log has no number for it
            seqs = [*seqs[:fixed.index], None, *seqs[fixed.index:]]
        changed = [*fixed.withdrawn, *(k for k, _ in fixed.called)]
        if any(seqs[k] is None for k in changed):
            raise AmendmentError("that would make a double an official stated before one the rules forbid")
        judged = as_judged(self.profile, fixed.events, [])[0]  # the calls as the record now judges them
        called = [{**call_facts(self.profile, fixed.events, k, ruling, judged[k][1]), "seq": seqs[k]}
                  for k, ruling in fixed.called]
        return [seqs[k] for k in fixed.withdrawn], called

    @property
    def record(self) -> list:
        """The events as the record stands: as logged, with the rolls officials amended
        (:meth:`amend_roll`) and the results they stated (:meth:`state_result`). Transcripts are
        written from it."""
        return recorded(self.events, self.notes)

    @property
    def players(self) -> tuple[str, str]:
        """The players' names, light's first, as last given (a note ``{"type": "players"}``).

        >>> from engine.profiles import profile
        >>> ref = Referee(profile("money"))
        >>> ref.players
        ('Light', 'Dark')
        >>> ref.note({"type": "players", "players": ["Ana", "Bea"]})
        >>> ref.players
        ('Ana', 'Bea')
        """
        named = [n["players"] for n in self.notes if n.get("type") == "players"]
        return tuple(named[-1]) if named else ("Light", "Dark")

    def _commit(self, event, state: MatchState, ruling: Ruling) -> None:
        self.state = state
        self.events.append(event)
        self.rulings.append(ruling)
        if ruling.accepted:
            return
        for listener in self.recorders + (self.listeners if self.mode == "monitor" else []):
            listener(len(self.events) - 1, ruling, state)

    @property
    def calls(self) -> list[tuple[int, Ruling]]:
        """Every call so far with the index of its event."""
        return [(k, r) for k, r in enumerate(self.rulings) if not r.accepted]


def recorded(events: list, notes: list) -> list:
    """``events`` as the record stands with the officials' ``notes``: each roll amended
    (:meth:`Referee.amend_roll`) and each result stated (:meth:`Referee.state_result`) put in
    place of the event it names, a later word on an event over an earlier one, and each double
    stated (:meth:`Referee.state_double`) put before the event it names. IndexError for a note
    that names no event of these."""
    return recorded_with_seqs(events, notes)[0]


def recorded_with_seqs(events: list, notes: list) -> tuple[list, list]:
    """:func:`recorded`, and the log's number (from 1) of each of its events: None for a double
    an official stated."""
    from engine.match import CubeUnseen, EndUnseen
    from engine.transcript import with_roll

    events, before = list(events), {}
    for note in notes:
        if note.get("type") in ("amended", "result", "double"):
            if not 1 <= note["seq"] <= len(events):
                raise IndexError(f"an amendment names event {note['seq']}, not one of the log's")
            k = note["seq"] - 1
            if note["type"] == "amended":
                events[k] = with_roll(events[k], note["dice"], note["player"])
            elif note["type"] == "double":
                before.setdefault(k, []).append(CubeUnseen(doubler=note["player"] - 1))
            elif isinstance(events[k], EndUnseen):
                events[k] = EndUnseen(note["winner"] - 1, note["points"])
            else:
                raise IndexError(f"a result is stated for event {note['seq']}, which ended no game unseen")
    record, seqs = [], []
    for k, event in enumerate(events):
        record += before.get(k, [])
        seqs += [None] * len(before.get(k, []))
        record.append(event)
        seqs.append(k + 1)
    return record, seqs


class ReplayError(ValueError):
    """An event that the match, as judged so far, cannot take (``seq``: its number, from 1)."""

    def __init__(self, seq: int, message: str):
        super().__init__(message)
        self.seq = seq


def as_judged(profile: Profile, events: list, notes: list) -> tuple[list, MatchState]:
    """``events`` judged as the session judged them: ``[(ruling, state after)]`` and the state at
    the end. A result or a double an official stated (a ``result`` or ``double`` note) counts
    from the moment it was stated (the note's ``after``), as it did while the session ran: the
    events before were judged on the score and cube without it, those after with it.
    :class:`ReplayError` for an event the match cannot take."""
    stated = [n for n in notes if n.get("type") in ("result", "double")]
    state, judged, taken = MatchState.new(profile), [], 0
    for index in range(len(events) + 1):
        if taken < len(stated) and stated[taken]["after"] <= index:
            while taken < len(stated) and stated[taken]["after"] <= index:
                taken += 1
            state = as_judged(profile, recorded(events[:index], stated[:taken]), [])[1]
        if index < len(events):
            try:
                state, ruling = state.apply(events[index])
            except InvalidEventError as exc:
                raise ReplayError(index + 1, str(exc)) from None
            judged.append((ruling, state))
    return judged, state


def call_facts(profile: Profile, events: list, index: int, ruling: Ruling, state: MatchState) -> dict:
    """What a call says of itself: the call ``ruling`` on event ``index`` of ``events``, which
    left the match in ``state``: its kind, reason and text, the event, its number in the log
    (``seq``, from 1), the player called (1 light, 2 dark), and the game and turn as the
    transcript numbers them."""
    from engine.transcript import session_transcript

    event = events[index]
    side = state.on_roll
    if type(event).__name__ == "Throw" and state.phase == "played" and side is not None:
        side = 1 - side  # a throw after a play is the next player's
    elif type(event).__name__ == "CubeUnseen":
        side = event.doubler  # stated out of turn: the doubler's, whoever is on roll
    turn = last_turn(session_transcript(profile, events[:index + 1]))
    return {"kind": ruling.kind, "reason": ruling.reason, "text": ruling.text, "event": type(event).__name__,
            "seq": index + 1, "player": None if side is None else side + 1, "game": state.game, "turn": turn}


def last_turn(transcript) -> int:
    """The number ``transcript`` gives the last turn of its last game (0 before one)."""
    actions = transcript.games[-1].actions if transcript.games else ()
    return actions[-1].number if actions else 0


_SQLITE_MAGIC = b"SQLite format 3\x00"
NOTES_TABLE = "CREATE TABLE IF NOT EXISTS notes(id INTEGER PRIMARY KEY, note TEXT NOT NULL)"


def _hold_for_writing(path: str):
    """The writer's lock on the log at ``path``: the file ``PATH.lock``, held open and locked
    while this session may write the log. The system lets go of it when the process ends,
    however it ends, so a watch killed leaves no lock behind; the file itself stays (removing it
    while another waits on it would let two writers in). :class:`LogError`, naming the holder,
    when another session holds it."""
    try:
        handle = open(path + ".lock", "a+")
    except OSError as exc:
        raise LogError(f"{path}: cannot open the log there ({exc.strerror})") from None
    try:
        handle.seek(0)
        if os.name == "nt":  # pragma: no cover - the tests run on Linux
            import msvcrt

            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            holder = handle.read().strip()
        except OSError:
            holder = ""
        handle.close()
        raise LogError(f"{path}: {holder or 'another program'} is writing this log; an official's word goes "
                       "on that watch's referee page (or here once it has stopped), and "
                       "`gammoncam export` reads the log meanwhile") from None
    handle.truncate(0)
    handle.write(f"gammoncam (process {os.getpid()})")
    handle.flush()
    return handle


def _create_log(path: str, profile: Profile) -> None:
    """A new, empty log, made under a temporary name and renamed into place, so that a crash
    while making it leaves no half-made file at ``path``."""
    temp = path + ".new"
    if os.path.exists(temp):
        os.remove(temp)  # our own leftover of a crash while making the log
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous=FULL")
        db.execute("BEGIN")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={LOG_VERSION}")
        db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE events(seq INTEGER PRIMARY KEY, event TEXT NOT NULL)")
        db.execute(NOTES_TABLE)
        db.execute("INSERT INTO meta VALUES ('profile', ?)", (json.dumps(profile.to_json()),))
        db.execute("COMMIT")
    finally:
        db.close()
    fd = os.open(temp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, path)


def _check_log(path: str) -> Profile:
    """The profile a log was started with, after checking, read-only, that it is one."""
    with open(path, "rb") as f:
        head = f.read(len(_SQLITE_MAGIC))
    if head != _SQLITE_MAGIC:
        raise LogError(f"{path}: not a gammoncam referee log (not an SQLite database)")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                raise LogError(f"{path}: an SQLite database of another program "
                               f"(application_id {app_id:#x}), not a gammoncam referee log")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != LOG_VERSION:
                raise LogError(f"{path}: referee log version {version}; this gammoncam reads {LOG_VERSION}")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise LogError(f"{path}: the referee log is damaged ({_one_line(check)})")
            row = db.execute("SELECT value FROM meta WHERE key='profile'").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise LogError(f"{path}: the referee log is damaged ({_one_line(str(exc))})") from None
    if row is None:
        raise LogError(f"{path}: the referee log has no profile")
    try:
        return Profile.from_json(json.loads(row[0]))
    except (ValueError, TypeError) as exc:
        raise LogError(f"{path}: the referee log's profile cannot be read ({exc})") from None


def _one_line(text: str) -> str:
    return "; ".join(part.strip() for part in text.splitlines() if part.strip())


def _differences(a: Profile, b: Profile) -> str:
    da, db = a.to_json(), b.to_json()
    return ", ".join(f"{k}={da[k]!r}" for k in da if da[k] != db[k])
