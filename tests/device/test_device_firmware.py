"""The real firmware, built with avr-gcc and run in simavr, its UART on a pty, driven by the host driver.

Needs the Debian packages gcc-avr, avr-libc, libsimavr-dev, libelf-dev and pkg-config.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from device.driver import RefereeBox
from device.protocol import COLOUR_PINS, KINDS, show_for
from device_helpers import FAST, wait_for

FIRMWARE = Path(__file__).resolve().parents[2] / "device" / "firmware"

# simavr keeps only about real time on a busy machine: give the heartbeat more room.
TIMING = replace(FAST, lost_after=2.0)


def _missing_tools() -> str | None:
    for tool, package in (("make", "make"), ("avr-gcc", "gcc-avr avr-libc"), ("cc", "gcc"), ("pkg-config", "pkg-config")):
        if shutil.which(tool) is None:
            return f"{tool} not found (Debian: apt-get install {package})"
    if subprocess.run(["pkg-config", "--exists", "simavr"]).returncode != 0:
        return "libsimavr not found by pkg-config (Debian: apt-get install libsimavr-dev libelf-dev)"
    return None


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    missing = _missing_tools()
    if missing:
        pytest.skip(missing)
    build = tmp_path_factory.mktemp("firmware")
    done = subprocess.run(
        ["make", "-C", str(FIRMWARE), f"BUILD={build}", "all", "bridge"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return build


class Bridge:
    """The firmware running in simavr: its pty path, its output pins as they change, its button."""

    def __init__(self, build: Path):
        self.process = subprocess.Popen(
            [build / "uart_bridge", build / "referee_box.elf"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        first = self.process.stdout.readline().split()
        assert first[:1] == ["pty"], first
        self.port = first[1]
        self.changes: list[tuple[str, int, int]] = []  # pin, level, simulated ms
        self.pins = {"red": 0, "green": 0, "blue": 0, "buzzer": 0, "alive": 0}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            pin, level, ms = line.split()
            self.pins[pin] = int(level)
            self.changes.append((pin, int(level), int(ms)))

    def colour(self) -> tuple[int, int, int]:
        return self.pins["red"], self.pins["green"], self.pins["blue"]

    def buzzer_since(self, start: int) -> str:
        """The buzzer's pattern after change ``start``, in the notation of protocol.Show."""
        pattern, last = "", None
        for pin, level, ms in self.changes[start:]:
            if pin == "buzzer":
                if last is not None:
                    pattern += ("." if level else "x") * round((ms - last) / 100)
                last = ms
        return pattern

    def command(self, command: str) -> None:
        """``press`` the button or ``reset`` the AVR."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture
def bridge(built):
    bridge = Bridge(built)
    yield bridge
    bridge.stop()


def test_firmware_acknowledges_each_call_and_shows_its_colour_and_beeps(bridge):
    answered = queue.Queue()
    box = RefereeBox.open(bridge.port, timing=TIMING, on_button=answered.put)
    try:
        wait_for(lambda: box.status().connected)
        assert box.status().name == "gammonbox"
        wait_for(lambda: bridge.pins["alive"])  # the host is heard
        seqs = []
        for kind in (*KINDS, "FIRE_DRILL"):
            look = show_for(kind)
            start = len(bridge.changes)
            seqs.append(box.call(kind))
            wait_for(lambda: not box.status().pending)  # ACK
            wait_for(lambda: bridge.colour() == COLOUR_PINS[look.colour])
            wait_for(lambda: bridge.buzzer_since(start) == look.buzzer and not bridge.pins["buzzer"])
            time.sleep(0.3)  # room for a beep too many (simavr runs at about real time)
            assert bridge.buzzer_since(start) == look.buzzer, kind

        bridge.command("press")
        assert answered.get(timeout=4) == tuple(seqs)
        wait_for(lambda: bridge.colour() == COLOUR_PINS["off"])
    finally:
        box.close(drain=0)


def test_firmware_clears_a_call_and_shows_the_one_before(bridge):
    box = RefereeBox.open(bridge.port, timing=TIMING)
    try:
        box.call("ILLEGAL_PLAY")
        reroll = box.call("REROLL")
        wait_for(lambda: not box.status().pending)
        wait_for(lambda: bridge.colour() == COLOUR_PINS["blue"])
        box.clear(reroll)
        wait_for(lambda: bridge.colour() == COLOUR_PINS["red"])
    finally:
        box.close(drain=0)


def test_firmware_reset_mid_game_shows_the_call_again(bridge):
    answered = queue.Queue()
    box = RefereeBox.open(bridge.port, timing=TIMING, on_button=answered.put)
    try:
        seq = box.call("ILLEGAL_PLAY")
        wait_for(lambda: bridge.colour() == COLOUR_PINS["red"])
        start = len(bridge.changes)
        bridge.command("reset")
        wait_for(lambda: ("red", 0) in [change[:2] for change in bridge.changes[start:]])  # the reset put it out
        wait_for(lambda: bridge.colour() == COLOUR_PINS["red"])  # READY, so the host sent the call again
        assert box.status().active == (seq,)
        assert answered.empty()  # nobody pressed the button
    finally:
        box.close(drain=0)
