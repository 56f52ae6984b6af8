"""The referee box line protocol (see ``device/PROTOCOL.md``): messages as small value types.

Each message prints as exactly one line and parses back to an equal value:

>>> parse_host_line("CALL 7 ILLEGAL_PLAY")
Call(seq=7, kind='ILLEGAL_PLAY')
>>> str(Call(7, "ILLEGAL_PLAY"))
'CALL 7 ILLEGAL_PLAY'
>>> parse_box_line("ACK 7")
Ack(seq=7)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

# The protocol version both sides announce in HELLO and READY; versions with the same
# major number (before the first ".") understand each other.
VERSION = "1"

# The longest line either side sends or accepts, newline included: the firmware's buffer.
MAX_LINE = 64

# Sequence numbers run 1..MAX_SEQ and wrap to 1; 0 is never used.
MAX_SEQ = 65535

# STATE text: printable ASCII, at most this many characters (a 2x24 display fits it).
MAX_STATE = 48

# The kinds of call the tracker makes. A box shows any other kind as a generic call.
ILLEGAL_PLAY = "ILLEGAL_PLAY"
ILLEGAL_DOUBLE = "ILLEGAL_DOUBLE"
REROLL = "REROLL"
UNCLEAR = "UNCLEAR"
GAME_OVER = "GAME_OVER"
KINDS = (ILLEGAL_PLAY, ILLEGAL_DOUBLE, REROLL, UNCLEAR, GAME_OVER)

_KIND = re.compile(r"[A-Z][A-Z0-9_]{0,19}\Z")
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,16}\Z")
_NUMBER = re.compile(r"[0-9]{1,5}\Z")
_VERSION = re.compile(r"[0-9][0-9A-Za-z.]{0,9}\Z")


class MalformedLine(ValueError):
    """A line that is not a message of the protocol; the message says why in one line."""


@dataclass(frozen=True)
class Show:
    """What a box shows for a call: the colour of its light and its buzzer pattern.

    The pattern is played once, one character per 100 ms: ``x`` sounds, ``.`` is silent.

    >>> show_for("ILLEGAL_PLAY").beeps
    3
    """

    colour: str
    buzzer: str

    @property
    def beeps(self) -> int:
        return len(re.findall(r"x+", self.buzzer))


# One row per kind, the same table as in PROTOCOL.md and the firmware's ``kinds[]``.
SHOWS = {
    ILLEGAL_PLAY: Show("red", "x.x.x"),
    ILLEGAL_DOUBLE: Show("magenta", "xxx..xxx"),
    REROLL: Show("blue", "x"),
    UNCLEAR: Show("amber", ""),
    GAME_OVER: Show("green", "xxxxxx"),
}
GENERIC = Show("white", "x.x")

# The colours as the red, green and blue pins of the box's LED.
COLOUR_PINS = {
    "red": (1, 0, 0),
    "green": (0, 1, 0),
    "blue": (0, 0, 1),
    "amber": (1, 1, 0),
    "magenta": (1, 0, 1),
    "white": (1, 1, 1),
    "off": (0, 0, 0),
}


def same_major(version: str, other: str = VERSION) -> bool:
    """Whether two protocol versions understand each other.

    >>> same_major("1.2"), same_major("2")
    (True, False)
    """
    return version.split(".")[0] == other.split(".")[0]


def show_for(kind: str) -> Show:
    """What the box shows for a call of this kind; unknown kinds are a generic call.

    >>> show_for("NO_SUCH_KIND")
    Show(colour='white', buzzer='x.x')
    """
    return SHOWS.get(kind, GENERIC)


def _seq(text: str) -> int:
    if not _NUMBER.match(text) or not 1 <= int(text) <= MAX_SEQ:
        raise MalformedLine(f"sequence number must be 1..{MAX_SEQ}, not {text!r}")
    return int(text)


def _kind(text: str) -> str:
    if not _KIND.match(text):
        raise MalformedLine(f"kind must be 1..20 of A-Z, 0-9, _ starting with a letter, not {text!r}")
    return text


def _check_version(version: str) -> None:
    if not _VERSION.match(version):
        raise ValueError(f"version must be 1..10 of 0-9, A-Z, a-z, '.' starting with a digit: {version!r}")


def _check_seq(seq: int) -> None:
    if not 1 <= seq <= MAX_SEQ:
        raise ValueError(f"sequence number must be 1..{MAX_SEQ}, not {seq}")


class Message:
    """A line of the protocol. Subclasses name their command word and their fields."""

    command: ClassVar[str]

    def encode(self) -> bytes:
        """The line as sent on the wire, newline included.

        >>> Ping(3).encode()
        b'PING 3\\n'
        """
        return (str(self) + "\n").encode("ascii")


@dataclass(frozen=True)
class Hello(Message):
    """Host to box after opening the port: ``HELLO <version>``; the box answers READY."""

    version: str = VERSION
    command: ClassVar[str] = "HELLO"

    def __post_init__(self) -> None:
        _check_version(self.version)

    def __str__(self) -> str:
        return f"HELLO {self.version}"


@dataclass(frozen=True)
class Call(Message):
    """Host to box: call the referee, ``CALL <seq> <KIND>``; the box answers ``ACK <seq>``."""

    seq: int
    kind: str
    command: ClassVar[str] = "CALL"

    def __post_init__(self) -> None:
        _check_seq(self.seq)
        if not _KIND.match(self.kind):
            raise ValueError(f"bad call kind {self.kind!r}: 1..20 of A-Z, 0-9, _ starting with a letter")

    def __str__(self) -> str:
        return f"CALL {self.seq} {self.kind}"


@dataclass(frozen=True)
class Clear(Message):
    """Host to box: withdraw call ``seq`` (the play was corrected); the box answers ACK."""

    seq: int
    command: ClassVar[str] = "CLEAR"

    def __post_init__(self) -> None:
        _check_seq(self.seq)

    def __str__(self) -> str:
        return f"CLEAR {self.seq}"


@dataclass(frozen=True)
class State(Message):
    """Host to box: a short text of the game state, for a box with a display; not answered."""

    text: str
    command: ClassVar[str] = "STATE"

    def __post_init__(self) -> None:
        if not 1 <= len(self.text) <= MAX_STATE or not self.text.isascii() or not self.text.isprintable():
            raise ValueError(f"state text must be 1..{MAX_STATE} printable ASCII characters: {self.text!r}")
        if self.text != self.text.strip():
            raise ValueError(f"state text must not start or end with a space: {self.text!r}")

    def __str__(self) -> str:
        return f"STATE {self.text}"


@dataclass(frozen=True)
class Ping(Message):
    """Host to box, the heartbeat: ``PING <seq>``; the box answers ``PONG <seq>``."""

    seq: int
    command: ClassVar[str] = "PING"

    def __post_init__(self) -> None:
        _check_seq(self.seq)

    def __str__(self) -> str:
        return f"PING {self.seq}"


@dataclass(frozen=True)
class Ready(Message):
    """Box to host when it starts and in answer to HELLO: ``READY <name> <version>``.

    A box that says READY has forgotten every call: the host sends them all again.
    """

    name: str
    version: str = VERSION
    command: ClassVar[str] = "READY"

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"box name must be 1..16 of A-Z, a-z, 0-9, '_', '.', '-': {self.name!r}")
        _check_version(self.version)

    def __str__(self) -> str:
        return f"READY {self.name} {self.version}"


@dataclass(frozen=True)
class Ack(Message):
    """Box to host: ``ACK <seq>``, the box has the CALL or CLEAR with that number."""

    seq: int
    command: ClassVar[str] = "ACK"

    def __post_init__(self) -> None:
        _check_seq(self.seq)

    def __str__(self) -> str:
        return f"ACK {self.seq}"


@dataclass(frozen=True)
class Btn(Message):
    """Box to host: the referee pressed the button and so answered every call on the box."""

    command: ClassVar[str] = "BTN"

    def __str__(self) -> str:
        return "BTN"


@dataclass(frozen=True)
class Pong(Message):
    """Box to host: ``PONG <seq>``, the answer to ``PING <seq>``."""

    seq: int
    command: ClassVar[str] = "PONG"

    def __post_init__(self) -> None:
        _check_seq(self.seq)

    def __str__(self) -> str:
        return f"PONG {self.seq}"


def _parse(line: str | bytes, parsers: dict) -> Message:
    if isinstance(line, bytes):
        try:
            line = line.decode("ascii")
        except UnicodeDecodeError:
            raise MalformedLine(f"not ASCII: {line[:MAX_LINE]!r}") from None
    line = line.removesuffix("\n").removesuffix("\r")
    if len(line) + 1 > MAX_LINE:
        raise MalformedLine(f"longer than {MAX_LINE - 1} characters")
    if not line.isprintable():
        raise MalformedLine(f"control character in {line!r}")
    command, _, rest = line.partition(" ")
    if command not in parsers:
        raise MalformedLine(f"unknown command in {line!r}")
    # STATE keeps its text whole; every other command is single-space separated words.
    args = [rest] if command == "STATE" else (rest.split(" ") if rest else [])
    parse_args, arity = parsers[command]
    if len(args) != arity:
        raise MalformedLine(f"{command} takes {arity} argument(s): {line!r}")
    try:
        return parse_args(*args)
    except ValueError as exc:
        raise MalformedLine(f"{exc} in {line!r}") from None


_HOST_PARSERS = {
    "HELLO": (Hello, 1),
    "CALL": (lambda s, k: Call(_seq(s), _kind(k)), 2),
    "CLEAR": (lambda s: Clear(_seq(s)), 1),
    "STATE": (State, 1),
    "PING": (lambda s: Ping(_seq(s)), 1),
}

_BOX_PARSERS = {
    "READY": (Ready, 2),
    "ACK": (lambda s: Ack(_seq(s)), 1),
    "BTN": (Btn, 0),
    "PONG": (lambda s: Pong(_seq(s)), 1),
}


def parse_host_line(line: str | bytes) -> Message:
    """Parse a line the host sends (what a box reads); raises :class:`MalformedLine`.

    >>> parse_host_line("STATE 13/7 8/7 by white")
    State(text='13/7 8/7 by white')
    """
    return _parse(line, _HOST_PARSERS)


def parse_box_line(line: str | bytes) -> Message:
    """Parse a line a box sends (what the host reads); raises :class:`MalformedLine`.

    >>> parse_box_line(b"READY gammonbox 1\\r\\n")
    Ready(name='gammonbox', version='1')
    """
    return _parse(line, _BOX_PARSERS)
