"""The live feed: what the referee session publishes and the page reads (see SCHEMA.md).

The referee session (or :mod:`web_ui.demo_feed`) calls :meth:`LiveFeed.publish` with an event
and the whole state after it; viewers read :meth:`LiveFeed.state`, :meth:`LiveFeed.events_since`
and, for Server-Sent Events, block in :meth:`LiveFeed.wait`. Every event gets the next id
(1, 2, 3, ...), which is also its SSE ``id:`` so a reconnecting browser resumes with
``Last-Event-ID``.

Referee actions flow the other way: the page calls :meth:`LiveFeed.act`, which hands them to
``on_referee_action(action, params, author) -> dict`` (set by the wiring). That handler raises
:class:`ActionRejected` for an action the session refuses.

>>> feed = LiveFeed()
>>> feed.publish({"type": "note", "text": "hello"}, {"turn": 1})
1
>>> [e["type"] for e in feed.events_since(0)], feed.state()["turn"]
(['note'], 1)
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections import deque
from typing import Callable

#: How many events (with the state after each) a feed keeps for reconnecting viewers.
HISTORY = 2000


class ActionRejected(Exception):
    """The referee session refuses an action (HTTP 409); ``status`` 422 for a bad argument."""

    def __init__(self, message: str, *, status: int = 409):
        super().__init__(message)
        self.message = message
        self.status = status


class _Entry:
    """One published event: the event, the state after it and its SSE frame, built once."""

    __slots__ = ("id", "event", "frame")

    def __init__(self, event_id: int, event: dict, state_text: str):
        self.id = event_id
        self.event = event
        event_text = json.dumps(event, separators=(",", ":"))
        data = '{"event":' + event_text + ',"state":' + state_text + "}"
        self.frame = f"id: {event_id}\nevent: update\ndata: {data}\n\n".encode()


class LiveFeed:
    """A thread-safe store of the current state and the recent events."""

    def __init__(self, state: dict | None = None, *, history: int = HISTORY):
        self._cond = threading.Condition()
        self._state = copy.deepcopy(state) if state is not None else {}
        self._state_text = json.dumps(self._state, separators=(",", ":"))
        self._entries: deque[_Entry] = deque(maxlen=history)
        self._last_id = 0
        self._closed = False
        self._wakes = 0
        #: ``(action, params, author) -> dict``; raises :class:`ActionRejected`. Set by the wiring.
        self.on_referee_action: Callable[[str, dict, str], dict] | None = None
        #: ``() -> str``: the match transcript (JellyFish .mat text). None: built from ``plays``.
        self.transcript: Callable[[], str] | None = None
        #: ``() -> dict``: ``{"gnubg": ..., "xgid": ...}``. None: the state's ``ids``.
        self.ids: Callable[[], dict] | None = None
        #: ``() -> bytes | None``: the latest camera frame as JPEG, for /calibrate.
        self.frame_source: Callable[[], bytes | None] | None = None
        #: The board corners in frame pixels: ``[[x, y] x 4]``, top-left, top-right,
        #: bottom-right, bottom-left of the drawn board; None when unknown.
        self.corners: list[list[float]] | None = None

    # --- publishing (the referee session) -------------------------------------------------
    def publish(self, event: dict, state: dict) -> int:
        """Store ``event`` and the ``state`` after it; returns the event's id.

        The event gets ``id`` and, unless it has one, ``time`` (Unix seconds). Both are copied
        (as JSON), so the caller may go on changing its own dicts.
        """
        if not isinstance(event, dict) or not isinstance(state, dict):
            raise TypeError("publish(event: dict, state: dict)")
        event = json.loads(json.dumps(event))
        state_text = json.dumps(state, separators=(",", ":"))
        with self._cond:
            self._last_id += 1
            event["id"] = self._last_id
            event.setdefault("time", round(time.time(), 3))
            self._state = json.loads(state_text)
            self._state_text = state_text
            self._entries.append(_Entry(self._last_id, event, state_text))
            self._cond.notify_all()
            return self._last_id

    def note(self, event: dict) -> int:
        """Publish ``event`` with the state unchanged (e.g. a logged referee action)."""
        return self.publish(event, self.state())

    def wake(self) -> None:
        """Wake every waiting viewer once (a server stopping re-checks its stop flag)."""
        with self._cond:
            self._wakes += 1
            self._cond.notify_all()

    def close(self) -> None:
        """Wake every waiting viewer for good: the server is stopping."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # --- reading (the page) ----------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def last_id(self) -> int:
        return self._last_id

    def state(self) -> dict:
        """A copy of the current state."""
        with self._cond:
            return json.loads(self._state_text)

    def snapshot(self) -> tuple[int, str]:
        """``(last event id, state JSON text)``, read together."""
        with self._cond:
            return self._last_id, self._state_text

    def events_since(self, last_id: int) -> list[dict]:
        """Copies of the kept events with an id above ``last_id``, oldest first."""
        with self._cond:
            return [copy.deepcopy(e.event) for e in self._entries if e.id > last_id]

    def frames_since(self, last_id: int) -> list[tuple[int, bytes]]:
        """``(id, SSE frame)`` of the kept events after ``last_id``."""
        with self._cond:
            return [(e.id, e.frame) for e in self._entries if e.id > last_id]

    def oldest_id(self) -> int:
        """The id of the oldest event kept (0 when none): older ones cannot be replayed."""
        with self._cond:
            return self._entries[0].id if self._entries else 0

    def wait(self, last_id: int, timeout: float) -> list[tuple[int, bytes]]:
        """Block until an event after ``last_id`` exists, the feed closes or is woken
        (:meth:`wake`) or ``timeout`` seconds pass; returns ``(id, SSE frame)`` of the events after ``last_id``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            wakes = self._wakes
            while self._last_id <= last_id and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0 or self._wakes != wakes:
                    return []
                self._cond.wait(left)
            return [(e.id, e.frame) for e in self._entries if e.id > last_id]

    # --- the other way: referee actions ---------------------------------------------------
    def act(self, action: str, params: dict, author: str) -> dict:
        """Hand a validated referee action to the session; :class:`ActionRejected` if refused."""
        handler = self.on_referee_action
        if handler is None:
            raise ActionRejected("no referee session is connected to this page", status=503)
        result = handler(action, params, author)
        return result if isinstance(result, dict) else {}

    def frame_jpeg(self) -> bytes | None:
        """The latest camera frame (JPEG), or None."""
        source = self.frame_source
        return source() if source is not None else None
