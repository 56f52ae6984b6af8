"""The line protocol: exact round trips, precise errors on malformed lines, the show table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.driver import BadDeviceSpec, DeviceSpec
from device.protocol import (
    KINDS,
    MAX_LINE,
    MAX_SEQ,
    MAX_STATE,
    SHOWS,
    COLOUR_PINS,
    Ack,
    Btn,
    Call,
    Clear,
    Hello,
    MalformedLine,
    Ping,
    Pong,
    Ready,
    State,
    parse_box_line,
    parse_host_line,
    show_for,
)

seqs = st.integers(1, MAX_SEQ)
kinds = st.from_regex(r"[A-Z][A-Z0-9_]{0,19}", fullmatch=True)
texts = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=MAX_STATE).filter(
    lambda t: t == t.strip()
)
names = st.from_regex(r"[A-Za-z0-9_.-]{1,16}", fullmatch=True)
versions = st.from_regex(r"[0-9][0-9A-Za-z.]{0,9}", fullmatch=True)

host_messages = st.one_of(
    st.builds(Hello, versions), st.builds(Call, seqs, kinds), st.builds(Clear, seqs), st.builds(State, texts),
    st.builds(Ping, seqs),
)
box_messages = st.one_of(st.builds(Ready, names, versions), st.builds(Ack, seqs), st.just(Btn()), st.builds(Pong, seqs))


@given(host_messages)
def test_host_lines_round_trip(message):
    line = message.encode()
    assert len(line) <= MAX_LINE and line.endswith(b"\n")
    assert parse_host_line(line) == message
    assert str(parse_host_line(str(message))) == str(message)


@given(box_messages)
def test_box_lines_round_trip(message):
    line = message.encode()
    assert len(line) <= MAX_LINE
    assert parse_box_line(line) == message
    assert parse_box_line(line.replace(b"\n", b"\r\n")) == message  # an Arduino println ends in CR LF


@pytest.mark.parametrize(
    "line",
    [
        "", "ACK", "ACK 0", "ACK 65536", "ACK -1", "ACK 1 2", "ACK  1", "ACK 01x", "ack 1", "PONG",
        "READY", "READY box", "READY b@x 1", "READY box v1", "BTN 1", "CALL 1 ILLEGAL_PLAY", "HELLO 1", "A" * MAX_LINE,
        "ACK 1\x00", b"ACK \xff",
    ],
)
def test_malformed_box_lines_raise(line):
    with pytest.raises(MalformedLine) as exc:
        parse_box_line(line)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize(
    "line",
    ["CALL 1", "CALL 1 illegal_play", "CALL 1 _X", "CALL x ILLEGAL_PLAY", "CLEAR", "STATE", "STATE  x",
     "STATE " + "x" * (MAX_STATE + 1), "PING 99999999", "ACK 1"],
)
def test_malformed_host_lines_raise(line):
    with pytest.raises(MalformedLine):
        parse_host_line(line)


def test_values_refuse_what_no_line_can_carry():
    with pytest.raises(ValueError):
        Call(0, "ILLEGAL_PLAY")
    with pytest.raises(ValueError):
        Call(1, "illegal play")
    with pytest.raises(ValueError):
        State("é")
    with pytest.raises(ValueError):
        Ready("two words")


def test_every_kind_has_its_own_look_and_unknown_kinds_are_generic():
    assert set(SHOWS) == set(KINDS)
    looks = [show_for(kind) for kind in KINDS]
    assert len({look.colour for look in looks}) == len(KINDS)
    assert all(look.colour in COLOUR_PINS for look in looks)
    assert show_for("FIRE_DRILL") == show_for("SOMETHING_ELSE") not in looks
    assert show_for("ILLEGAL_PLAY").beeps == 3 and show_for("UNCLEAR").beeps == 0


@pytest.mark.parametrize(
    "text, spec",
    [
        ("/dev/ttyUSB0", DeviceSpec("/dev/ttyUSB0", 115200)),
        ("/dev/ttyUSB0:9600", DeviceSpec("/dev/ttyUSB0", 9600)),
        ("COM3:57600", DeviceSpec("COM3", 57600)),
        ("socket://localhost:7000", DeviceSpec("socket://localhost:7000", 115200)),
        ("rfc2217://box.local:4000:9600", DeviceSpec("rfc2217://box.local:4000", 9600)),
    ],
)
def test_device_specs(text, spec):
    assert DeviceSpec.parse(text) == spec
    assert DeviceSpec.parse(str(spec)) == spec


@pytest.mark.parametrize("text", ["", ":9600", "/dev/ttyUSB0:fast", "/dev/ttyUSB0:", "/dev/ttyUSB0:12", "x:9999999"])
def test_bad_device_specs(text):
    with pytest.raises(BadDeviceSpec) as exc:
        DeviceSpec.parse(text)
    assert isinstance(exc.value, ValueError) and "\n" not in str(exc.value)
