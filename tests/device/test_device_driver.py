"""The driver against the software box over real pseudo-terminals: no call is ever lost."""

from __future__ import annotations

import logging
import os
import queue
import time
from dataclasses import replace

import pytest

from device_helpers import FAST, wait_for
from device.driver import WINDOW, RefereeBox
from device.protocol import Ack, Call, Hello, Ready, parse_host_line
from device.sim import SimulatedBox


@pytest.fixture
def make_sim():
    sims = []

    def make(**kwargs):
        lines: list[str] = []
        sim = SimulatedBox(show=lines.append, **kwargs)
        sim.lines = lines
        sims.append(sim)
        return sim

    yield make
    for sim in sims:
        sim.close()


@pytest.fixture
def make_box():
    boxes = []

    def make(port, timing=FAST, **kwargs):
        box = RefereeBox.open(port, timing=timing, **kwargs)
        boxes.append(box)
        return box

    yield make
    for box in boxes:
        box.close(drain=0)


def test_call_is_acknowledged_and_shown(make_sim, make_box):
    sim = make_sim()
    box = make_box(sim.open())
    seq = box.call("ILLEGAL_PLAY")
    wait_for(lambda: not box.status().pending)
    status = box.status()
    assert status.connected and status.name == "gammonbox-sim" and status.version == "1"
    assert status.active == (seq,)
    assert sim.active() == ((seq, "ILLEGAL_PLAY"),)
    assert f"light red, buzzer x.x.x (call {seq} ILLEGAL_PLAY)" in sim.lines


def test_call_is_sent_again_when_the_first_ack_is_dropped(make_sim, make_box):
    sim = make_sim(drop_acks=1)
    box = make_box(sim.open())
    seq = box.call("ILLEGAL_DOUBLE")
    wait_for(lambda: not box.status().pending)
    assert f"dropped ACK {seq}" in sim.lines
    # The box saw the call twice but showed it once.
    assert sum("ILLEGAL_DOUBLE" in line for line in sim.lines) == 1


def test_close_waits_until_the_box_has_the_call(make_sim):
    # What `replay --device` does: call and end at once, with a box that drops the first ACK.
    sim = make_sim(drop_acks=1)
    box = RefereeBox.open(sim.open(), timing=FAST)
    seq = box.call("ILLEGAL_PLAY")
    box.close()
    assert box.status().pending == ()
    assert sim.active() == ((seq, "ILLEGAL_PLAY"),)


def test_button_answers_the_calls_the_box_shows(make_sim, make_box):
    sim = make_sim()
    answered = queue.Queue()
    box = make_box(sim.open(), on_button=answered.put)
    first, second = box.call("ILLEGAL_PLAY"), box.call("REROLL")
    wait_for(lambda: not box.status().pending)
    sim.press()
    assert answered.get(timeout=4) == (first, second)
    assert box.status().active == ()
    assert sim.lines[-1] == "light off"


def test_clear_withdraws_a_call(make_sim, make_box):
    sim = make_sim()
    box = make_box(sim.open())
    kept, withdrawn = box.call("ILLEGAL_PLAY"), box.call("UNCLEAR")
    wait_for(lambda: not box.status().pending)
    box.clear(withdrawn)
    wait_for(lambda: sim.active() == ((kept, "ILLEGAL_PLAY"),))
    assert box.status().active == (kept,)


def test_a_box_that_resets_gets_every_unanswered_call_again(make_sim, make_box):
    sim = make_sim()
    box = make_box(sim.open())
    calls = [(box.call(kind), kind) for kind in ("ILLEGAL_PLAY", "GAME_OVER")]
    wait_for(lambda: not box.status().pending)
    sim.reset()  # forgets both, so only the host sending them again brings them back
    wait_for(lambda: sim.active() == tuple(calls))


def test_unplugged_and_plugged_again_mid_game_without_losing_a_call(make_sim, make_box, tmp_path):
    link = str(tmp_path / "ttyBOX")
    first_box = make_sim()
    box = make_box(first_box.open(link=link))
    before = box.call("ILLEGAL_PLAY")
    wait_for(lambda: not box.status().pending)

    first_box.close()  # the cable is pulled
    wait_for(lambda: not box.status().connected)
    during = box.call("ILLEGAL_DOUBLE")  # the game goes on
    time.sleep(3 * FAST.backoff_max)  # a few reconnects fail meanwhile
    assert box.status().pending == (during,)

    second_box = make_sim()
    second_box.open(link=link)  # plugged in again, under the same name
    wait_for(lambda: not box.status().pending)
    assert second_box.active() == ((before, "ILLEGAL_PLAY"), (during, "ILLEGAL_DOUBLE"))


def test_a_backlog_of_calls_reaches_a_box_plugged_in_late(make_sim, make_box, tmp_path):
    link = str(tmp_path / "ttyBOX")
    box = make_box(link)
    seqs = [box.call("ILLEGAL_PLAY") for _ in range(40)]
    assert box.status().pending == tuple(seqs)
    sim = make_sim()
    sim.open(link=link)
    wait_for(lambda: not box.status().pending)
    assert sim.active() == tuple((seq, "ILLEGAL_PLAY") for seq in seqs[-8:])  # a box remembers 8


def test_malformed_lines_from_the_box_are_ignored_with_a_log_line(make_sim, make_box, caplog):
    sim = make_sim()
    # Not lost on a slow CI machine: a reconnect would drop the bytes waiting on the port unread.
    box = make_box(sim.open(), timing=replace(FAST, lost_after=10))
    wait_for(lambda: box.status().connected)
    caplog.set_level(logging.WARNING, logger="device.driver")
    sim.send_raw(b"GARBAGE\n" + b"ACK seven\r\n" + b"\xff\xfe\n" + b"B" * 100 + b"\n" + b"ACK 1 2\n")
    seq = box.call("REROLL")
    wait_for(lambda: not box.status().pending)
    assert sim.active() == ((seq, "REROLL"),)
    ignored = [record.getMessage() for record in caplog.records if "ignored line" in record.getMessage()]
    assert len(ignored) == 5
    assert all("\n" not in message for message in ignored)
    assert box.status().connected


class RawBox:
    """The far end of a bare pty, played by the test line by line: no simulator in between."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.heard: list = []
        self._rest = b""

    def lines(self) -> list:
        """Every message the host wrote so far."""
        try:
            self._rest += os.read(self.master, 4096)
        except BlockingIOError:
            pass
        *lines, self._rest = self._rest.split(b"\n")
        self.heard += [parse_host_line(line) for line in lines]
        return self.heard

    def send(self, message) -> None:
        os.write(self.master, message.encode())

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def raw_box():
    box = RawBox()
    yield box
    box.close()


def test_a_silent_box_is_lost_and_the_port_opened_again(raw_box, make_box, caplog):
    # A box that said READY once and then hung.
    box = make_box(raw_box.port)
    wait_for(lambda: Hello() in raw_box.lines())
    raw_box.send(Ready("hung"))
    wait_for(lambda: box.status().connected)
    wait_for(lambda: not box.status().connected)  # no PONG: lost after lost_after
    assert any("silent" in record.getMessage() for record in caplog.records)
    wait_for(lambda: raw_box.lines().count(Hello()) == 2)  # it opens the port and says HELLO again


def test_a_garbled_line_makes_the_host_ask_for_ready_again(raw_box, make_box):
    """A box reset while it wrote PONG sends "PONG READY gammonbox 1": the READY is lost in it,
    so the host says HELLO; the READY that answers it gets the call sent again."""
    box = make_box(raw_box.port)
    wait_for(lambda: Hello() in raw_box.lines())
    raw_box.send(Ready("gammonbox"))
    wait_for(lambda: box.status().connected)
    seq = box.call("ILLEGAL_PLAY")
    wait_for(lambda: Call(seq, "ILLEGAL_PLAY") in raw_box.lines())
    raw_box.send(Ack(seq))
    wait_for(lambda: not box.status().pending)
    os.write(raw_box.master, b"PONG READY gammonbox 1\n")
    wait_for(lambda: raw_box.lines().count(Hello()) == 2)
    raw_box.send(Ready("gammonbox"))
    wait_for(lambda: raw_box.lines().count(Call(seq, "ILLEGAL_PLAY")) == 2)


def test_a_box_that_never_says_ready_still_gets_its_calls(raw_box, make_box):
    box = make_box(raw_box.port, timing=replace(FAST, lost_after=10))  # nor PONG
    seq = box.call("ILLEGAL_PLAY")
    wait_for(lambda: raw_box.lines().count(Call(seq, "ILLEGAL_PLAY")) == 2)  # unanswered, so sent again
    assert raw_box.lines()[0] == Hello()
    raw_box.send(Ack(seq))
    wait_for(lambda: not box.status().pending)
    assert box.status().connected and box.status().name is None


def test_no_more_than_a_window_of_calls_is_in_flight(raw_box, make_box):
    box = make_box(raw_box.port, timing=replace(FAST, lost_after=10))  # this box never says PONG
    seqs = [box.call("REROLL") for _ in range(20)]

    def calls_sent():
        return {message.seq for message in raw_box.lines() if isinstance(message, Call)}

    wait_for(lambda: sum(isinstance(message, Call) for message in raw_box.lines()) > WINDOW)  # resends
    assert calls_sent() == set(seqs[:WINDOW])
    for seq in seqs[:WINDOW]:
        raw_box.send(Ack(seq))
    wait_for(lambda: calls_sent() == set(seqs[: 2 * WINDOW]))


def test_calls_return_at_once_when_the_port_does_not_exist(caplog):
    caplog.set_level(logging.WARNING, logger="device.driver")
    start = time.monotonic()
    box = RefereeBox.open("/dev/no-such-referee-box", timing=FAST)
    seqs = [box.call("ILLEGAL_PLAY") for _ in range(100)]
    box.state("white to play 31")
    took = time.monotonic() - start
    time.sleep(3 * FAST.backoff_max)
    box.close()  # an unplugged box is not waited for
    assert took < 0.5, f"100 calls took {took:.3f} s"
    assert time.monotonic() - start < 2
    assert seqs == list(range(1, 101))
    warnings = [record.getMessage() for record in caplog.records]
    assert sum("cannot be opened" in message for message in warnings) == 1  # once, not at every retry
    assert any("never acknowledged" in message for message in warnings)


def test_call_refuses_a_kind_no_line_can_carry(make_box):
    box = make_box("/dev/no-such-referee-box")
    with pytest.raises(ValueError):
        box.call("illegal play")
    assert box.status().active == ()
