"""The host side of the referee box: calls go out from a background thread, never blocking the caller.

>>> box = RefereeBox.open("/dev/ttyUSB0:115200")   # doctest: +SKIP
>>> seq = box.call("ILLEGAL_PLAY")                   # doctest: +SKIP
>>> box.close()                                      # doctest: +SKIP

The port may be missing, unplugged or reset at any time: the driver reconnects with a backoff
and sends every call the referee has not answered again, so a box that resets misses none.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from device.protocol import (
    MAX_LINE,
    MAX_SEQ,
    Ack,
    Btn,
    Call,
    Clear,
    Hello,
    MalformedLine,
    Message,
    Ping,
    Pong,
    Ready,
    State,
    VERSION,
    parse_box_line,
    same_major,
)

log = logging.getLogger(__name__)

DEFAULT_BAUD = 115200

# Calls sent and not yet acknowledged at most: a backlog (a box plugged in late, or reset with
# many calls active) goes out in small bursts that the box's 64-byte buffer keeps up with.
WINDOW = 8


class BadDeviceSpec(ValueError):
    """A ``--device`` value that is not ``PORT[:BAUD]``; the message is one line."""


@dataclass(frozen=True)
class DeviceSpec:
    """Where the box is: a serial port (or pyserial URL) and a baud rate.

    >>> DeviceSpec.parse("/dev/ttyUSB0:9600")
    DeviceSpec(port='/dev/ttyUSB0', baud=9600)
    >>> DeviceSpec.parse("socket://localhost:7000")
    DeviceSpec(port='socket://localhost:7000', baud=115200)
    """

    port: str
    baud: int = DEFAULT_BAUD

    @classmethod
    def parse(cls, text: str) -> DeviceSpec:
        port, sep, baud = text.rpartition(":")
        # A URL's own ":port" is not a baud rate: only a second colon after "://" starts one.
        if not sep or "://" in port and ":" not in port.split("://", 1)[1]:
            port, baud = text, ""
        elif not baud.isdigit():
            raise BadDeviceSpec(f"baud rate must be a number: {text!r} (expected PORT[:BAUD])")
        if not port.strip():
            raise BadDeviceSpec(f"no port in {text!r} (expected PORT[:BAUD], e.g. /dev/ttyUSB0:115200)")
        if not baud:
            return cls(port)
        if not 300 <= int(baud) <= 4_000_000:
            raise BadDeviceSpec(f"baud rate must be 300..4000000, not {baud} in {text!r}")
        return cls(port, int(baud))

    def __str__(self) -> str:
        return f"{self.port}:{self.baud}"


@dataclass(frozen=True)
class Timing:
    """The protocol's intervals in seconds (PROTOCOL.md, "Timing"); tests shorten them."""

    # An Uno or Nano resets when the port opens; its bootloader runs up to about 2 s.
    ready_wait: float = 2.5
    resend: float = 1.0
    heartbeat: float = 1.0
    lost_after: float = 3.5
    backoff_min: float = 0.5
    backoff_max: float = 8.0
    # How long close() waits for calls the box has not acknowledged yet: enough for a box
    # just opened that never says READY and drops the first ACK.
    drain: float = 8.0


@dataclass(frozen=True)
class BoxStatus:
    """A snapshot of the box as the driver sees it."""

    connected: bool
    name: str | None
    version: str | None
    pending: tuple[int, ...]  # calls not acknowledged by the box yet
    active: tuple[int, ...]  # calls neither answered by the referee nor cleared


@dataclass
class _Call:
    kind: str
    acked: bool = False
    sent_at: float | None = None


class RefereeBox:
    """A referee box on a serial port, driven from a background thread.

    Every public method returns at once; ``on_button(answered_seqs)`` is called from the
    driver's thread when the referee presses the box's button.
    """

    def __init__(
        self,
        spec: DeviceSpec,
        *,
        timing: Timing = Timing(),
        on_button: Callable[[tuple[int, ...]], None] | None = None,
    ) -> None:
        self.spec = spec
        self.timing = timing
        self._on_button = on_button
        self._lock = threading.Lock()
        self._calls: dict[int, _Call] = {}
        self._clears: list[int] = []
        self._state: str | None = None
        self._state_due = False
        self._last_seq = 0
        self._ping_seq = 0
        self._connected = False
        self._outage = False
        self._name: str | None = None
        self._version: str | None = None
        self._rx = bytearray()
        self._skipping = False
        self._garbled = False  # a line came in that could not be read: the box may have reset mid-line
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"referee-box {spec.port}", daemon=True)

    @classmethod
    def open(cls, spec: DeviceSpec | str, **kwargs) -> RefereeBox:
        """Start driving the box at ``spec`` (``PORT[:BAUD]``); a bad spec raises :class:`BadDeviceSpec`.

        The port need not exist yet: the driver keeps trying to open it.
        """
        box = cls(DeviceSpec.parse(spec) if isinstance(spec, str) else spec, **kwargs)
        box._thread.start()
        return box

    def call(self, kind: str) -> int:
        """Queue a call of ``kind`` (e.g. ``"ILLEGAL_PLAY"``) and return its sequence number."""
        with self._lock:
            seq = self._last_seq
            while True:
                seq = seq % MAX_SEQ + 1
                if seq not in self._calls:
                    break
            Call(seq, kind)  # a kind the protocol cannot carry raises ValueError here, in the caller
            self._calls[seq] = _Call(kind)
            self._last_seq = seq
        return seq

    def clear(self, seq: int) -> None:
        """Withdraw call ``seq`` (the play was corrected); no-op when it is already answered."""
        with self._lock:
            call = self._calls.pop(seq, None)
            if call is not None and (call.acked or call.sent_at is not None):
                self._clears.append(seq)

    def state(self, text: str) -> None:
        """Send a short game-state text for a box with a display (at most 48 printable characters)."""
        State(text)
        with self._lock:
            self._state, self._state_due = text, True

    def status(self) -> BoxStatus:
        with self._lock:
            return BoxStatus(
                connected=self._connected,
                name=self._name,
                version=self._version,
                pending=tuple(seq for seq, call in self._calls.items() if not call.acked),
                active=tuple(self._calls),
            )

    def close(self, drain: float | None = None) -> None:
        """Stop the driver, first waiting up to ``drain`` seconds (default ``timing.drain``) for
        calls the box has not acknowledged; an unplugged box is not waited for."""
        deadline = time.monotonic() + (self.timing.drain if drain is None else drain)
        while self._thread.is_alive() and time.monotonic() < deadline:
            with self._lock:
                if self._outage or all(call.acked for call in self._calls.values()):
                    break
            time.sleep(0.02)
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        pending = self.status().pending
        if pending:
            log.warning("referee box %s: calls %s never acknowledged", self.spec.port, _seqs(pending))

    def __enter__(self) -> RefereeBox:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # The driver's thread from here on.

    def _run(self) -> None:
        backoff = self.timing.backoff_min
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.spec.port, self.spec.baud, timeout=0.05, write_timeout=1.0)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not self._outage:
                    log.warning("referee box %s cannot be opened (%s); retrying", self.spec.port, _one_line(exc))
                self._outage = True
                self._stop.wait(backoff)
                backoff = min(2 * backoff, self.timing.backoff_max)
                continue
            self._outage = False
            try:
                heard = self._serve(port)
            except (serial.SerialException, OSError) as exc:
                log.warning("referee box %s lost (%s); reconnecting", self.spec.port, _one_line(exc))
                heard = True
            finally:
                with self._lock:
                    self._connected = False
                port.close()
            if heard:
                backoff = self.timing.backoff_min
            self._stop.wait(backoff)

    def _serve(self, port: serial.SerialBase) -> bool:
        """Talk to an open port until the box is lost or the driver stops; True if the box spoke."""
        timing = self.timing
        self._rx.clear()
        self._skipping = self._garbled = False
        opened = last_heard = last_ping = last_resync = time.monotonic()
        hello_at: float | None = None  # when HELLO went out, if the box did not say READY by itself
        heard = False
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            now = time.monotonic()
            for message in self._messages(data):
                heard, last_heard = True, now
                self._handle(message)
            with self._lock:
                connected = self._connected
            if not connected:
                if hello_at is None and now - opened >= timing.ready_wait:
                    port.write(Hello().encode())
                    hello_at = now
                elif hello_at is not None and now - hello_at >= timing.resend:
                    log.warning("referee box %s does not say READY; sending calls anyway", self.spec.port)
                    self._link_up()
                    last_heard = now
                continue
            if now - last_heard >= timing.lost_after:
                log.warning("referee box %s silent for %.1f s; reconnecting", self.spec.port, now - last_heard)
                return heard
            out = self._due(now)
            if self._garbled and now - last_resync >= timing.resend:
                # A box that reset while it was writing garbles the line it cut and the READY
                # it starts with: ask it to say READY again (it then gets every call again).
                out.insert(0, Hello())
                self._garbled, last_resync = False, now
            if now - last_ping >= timing.heartbeat:
                self._ping_seq = self._ping_seq % MAX_SEQ + 1
                out.append(Ping(self._ping_seq))
                last_ping = now
            if out:
                port.write(b"".join(message.encode() for message in out))
        return heard

    def _messages(self, data: bytes):
        """Split bytes from the box into messages; malformed lines are logged and dropped."""
        self._rx += data
        while (end := self._rx.find(b"\n")) >= 0:
            line = bytes(self._rx[:end])
            del self._rx[: end + 1]
            if self._skipping:  # the tail of an over-long line
                self._skipping = False
                continue
            try:
                yield parse_box_line(line)
            except MalformedLine as exc:
                log.warning("referee box %s: ignored line (%s)", self.spec.port, exc)
                self._garbled = True
        if len(self._rx) >= MAX_LINE:
            log.warning("referee box %s: ignored line longer than %d bytes", self.spec.port, MAX_LINE - 1)
            self._rx.clear()
            self._skipping = True

    def _handle(self, message: Message) -> None:
        if isinstance(message, Ready):
            if not same_major(message.version):
                log.warning("referee box %s speaks protocol %s, this host %s", self.spec.port, message.version, VERSION)
            log.info("referee box %s ready: %s", self.spec.port, message.name)
            with self._lock:
                self._name, self._version = message.name, message.version
            self._link_up()
        elif isinstance(message, Ack):
            with self._lock:
                call = self._calls.get(message.seq)
                if call is not None:
                    call.acked = True
        elif isinstance(message, Btn):
            with self._lock:
                answered = tuple(seq for seq, call in self._calls.items() if call.acked)
                for seq in answered:
                    del self._calls[seq]
            log.info("referee box %s: the referee answered calls %s", self.spec.port, _seqs(answered))
            if self._on_button is not None:
                try:
                    self._on_button(answered)
                except Exception as exc:  # a caller's bug must not stop the box
                    log.error("referee box %s: on_button failed: %s", self.spec.port, _one_line(exc))
        else:
            assert isinstance(message, Pong)  # the heartbeat: hearing it is all that counts

    def _link_up(self) -> None:
        """The box (re)started or was just reached: it knows no call, so send them all again."""
        with self._lock:
            self._connected = True
            self._clears.clear()
            self._state_due = self._state is not None
            for call in self._calls.values():
                call.acked, call.sent_at = False, None

    def _due(self, now: float) -> list[Message]:
        """The messages to send now: clears, a new state, and calls not acknowledged in time."""
        with self._lock:
            out: list[Message] = [Clear(seq) for seq in self._clears]
            self._clears.clear()
            if self._state_due:
                out.append(State(self._state))
                self._state_due = False
            in_flight = sum(
                not call.acked and call.sent_at is not None and now - call.sent_at < self.timing.resend
                for call in self._calls.values()
            )
            for seq, call in self._calls.items():
                if in_flight >= WINDOW:
                    break
                if not call.acked and (call.sent_at is None or now - call.sent_at >= self.timing.resend):
                    out.append(Call(seq, call.kind))
                    call.sent_at = now
                    in_flight += 1
            return out


def _seqs(seqs: tuple[int, ...]) -> str:
    """Sequence numbers for a log line, kept short: "1, 2, 3, ..., 40 (40 calls)"."""
    if len(seqs) > 6:
        return f"{seqs[0]}, {seqs[1]}, {seqs[2]}, ..., {seqs[-1]} ({len(seqs)} calls)"
    return ", ".join(map(str, seqs)) or "none"


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
