"""A software referee box on a pseudo-terminal, for users without the hardware and for tests.

It answers the protocol as the firmware does and reports what a real box would show:

>>> box = SimulatedBox(show=print)                  # doctest: +SKIP
>>> path = box.open()                               # doctest: +SKIP
>>> # now RefereeBox.open(path) talks to it like to a box on /dev/ttyUSB0

Its faults on demand: a reset (the box forgets its calls and says READY again), the first
ACKs dropped, an unplug (the pty goes away), and raw lines from the box.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from collections import OrderedDict
from collections.abc import Callable

from device.protocol import (
    MAX_LINE,
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
    Show,
    State,
    parse_host_line,
    show_for,
)

# The box remembers this many calls, as the firmware does; a ninth pushes out the oldest.
MEMORY = 8


class SimulatedBox:
    """A box speaking the protocol on the master side of a pty; ``show`` gets one line per change."""

    def __init__(self, *, name: str = "gammonbox-sim", drop_acks: int = 0, show: Callable[[str], None] = print):
        Ready(name)  # a name the protocol cannot carry raises ValueError here
        self.name = name
        self.path: str | None = None
        self._drop_acks = drop_acks
        self._show = show
        self._link: str | None = None
        self._master = self._slave = -1
        self._lock = threading.Lock()
        self._calls: OrderedDict[int, tuple[str, bool]] = OrderedDict()  # seq -> (kind, showing)
        self._lit: tuple[int, str] | None = None
        self._rx = bytearray()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open(self, link: str | None = None) -> str:
        """Create the pty and start answering; returns the path a host opens (``link`` if given,
        a symlink kept pointing at the pty, as udev's /dev/serial/by-id names are)."""
        self._master, self._slave = os.openpty()
        # Raw, so the line discipline neither echoes our lines back nor waits for a whole line.
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        if link is not None:
            temporary = f"{link}.{os.getpid()}.new"
            os.symlink(self.path, temporary)
            os.replace(temporary, link)
            self._link = link
        self._thread = threading.Thread(target=self._run, name=f"simulated box {self.path}", daemon=True)
        self._thread.start()
        self._send(Ready(self.name))
        return link or self.path

    def close(self) -> None:
        """Unplug the box: the pty goes away and a host reading it sees the port fail."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        for fd in (self._slave, self._master):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        if self._link is not None and os.path.islink(self._link) and os.readlink(self._link) == self.path:
            os.unlink(self._link)

    def press(self) -> None:
        """The referee presses the button: every call on the box is answered and the light goes out."""
        # BTN answers what the box acknowledged before it: state and line change together.
        with self._lock:
            answered = [seq for seq, (kind, showing) in self._calls.items() if showing]
            for seq in answered:
                self._calls[seq] = (self._calls[seq][0], False)
            self._send(Btn())
        self._show(f"button pressed: answered calls {', '.join(map(str, answered)) or 'none'}")
        self._relight(sound=False)

    def reset(self) -> None:
        """The box restarts: it forgets every call and says READY, as at power-up."""
        with self._lock:
            self._calls.clear()
            self._send(Ready(self.name))
        self._show("reset")
        self._relight(sound=False)

    def send_raw(self, data: bytes) -> None:
        """Write bytes from the box as they are, e.g. a malformed line."""
        self._write(data)

    def active(self) -> tuple[tuple[int, str], ...]:
        """The calls the box is showing, oldest first, as ``(seq, kind)``."""
        with self._lock:
            return tuple((seq, kind) for seq, (kind, showing) in self._calls.items() if showing)

    def _run(self) -> None:
        while not self._stop.is_set():
            readable, _, _ = select.select([self._master], [], [], 0.05)
            if not readable:
                continue
            try:
                data = os.read(self._master, 1024)
            except BlockingIOError:
                continue
            self._rx += data
            while (end := self._rx.find(b"\n")) >= 0:
                line = bytes(self._rx[:end])
                del self._rx[: end + 1]
                self._receive(line)
            if len(self._rx) >= MAX_LINE:  # the firmware's buffer would overflow: drop it as it does
                self._show(f"ignored line longer than {MAX_LINE - 1} bytes")
                self._rx.clear()

    def _receive(self, line: bytes) -> None:
        try:
            message = parse_host_line(line)
        except MalformedLine as exc:
            self._show(f"ignored line ({exc})")
            return
        if isinstance(message, Hello):
            self._send(Ready(self.name))
        elif isinstance(message, Ping):
            self._send(Pong(message.seq))
        elif isinstance(message, State):
            self._show(f"display: {message.text}")
        elif isinstance(message, Call):
            with self._lock:
                new = message.seq not in self._calls
                if new:
                    self._calls[message.seq] = (message.kind, True)
                    while len(self._calls) > MEMORY:
                        self._calls.popitem(last=False)
                self._ack(message.seq)
            self._relight(sound=new)
        else:
            assert isinstance(message, Clear)
            with self._lock:
                if message.seq in self._calls:
                    self._calls[message.seq] = (self._calls[message.seq][0], False)
                self._ack(message.seq)
            self._relight(sound=False)

    def _ack(self, seq: int) -> None:
        """ACK, unless told to drop it. Called with the lock held, so that ACK and BTN keep the
        order of the changes they report."""
        if self._drop_acks > 0:
            self._drop_acks -= 1
            self._show(f"dropped ACK {seq}")
        else:
            self._send(Ack(seq))

    def _relight(self, *, sound: bool) -> None:
        """Show the newest active call, as the firmware does; the buzzer plays only for a new one."""
        with self._lock:
            showing = [(seq, kind) for seq, (kind, lit) in self._calls.items() if lit]
            lit = showing[-1] if showing else None
            if lit == self._lit and not sound:
                return
            self._lit = lit
        if lit is None:
            self._show("light off")
            return
        seq, kind = lit
        look: Show = show_for(kind)
        buzzer = look.buzzer if sound and look.buzzer else "silent"
        self._show(f"light {look.colour}, buzzer {buzzer} (call {seq} {kind})")

    def _send(self, message: Message) -> None:
        self._write(message.encode())

    def _write(self, data: bytes) -> None:
        try:
            os.write(self._master, data)
        except BlockingIOError:  # nobody reads the port: a real UART drops the bytes too
            self._show(f"host not reading; dropped {data!r}")
        except OSError as exc:
            self._show(f"cannot write: {exc.strerror}")
