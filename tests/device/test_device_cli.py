"""``gammoncam device-sim`` as a user runs it, and the ``--device`` option the other commands share."""

from __future__ import annotations

import argparse
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from device.driver import DeviceSpec, RefereeBox
from device.options import add_device_option, open_device
from device_helpers import FAST, wait_for
from gammoncam.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_device_sim_serves_a_box_until_ctrl_c(interruptible):
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from gammoncam.cli import main; sys.exit(main())", "device-sim",
         "--drop-acks", "1"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        **interruptible,
    )
    try:
        banner = process.stdout.readline()
        assert banner.startswith("referee box simulator on /dev/pts/"), banner
        path = banner.split()[-1]
        shown: list[str] = []
        threading.Thread(target=lambda: shown.extend(process.stdout), daemon=True).start()

        answered = queue.Queue()
        box = RefereeBox.open(path, timing=FAST, on_button=answered.put)
        seq = box.call("ILLEGAL_PLAY")
        wait_for(lambda: not box.status().pending)
        wait_for(lambda: any(f"light red, buzzer x.x.x (call {seq} ILLEGAL_PLAY)" in line for line in shown))
        assert any(f"dropped ACK {seq}" in line for line in shown)

        process.stdin.write("\n")  # Enter presses the button
        process.stdin.flush()
        assert answered.get(timeout=4) == (seq,)
        box.close(drain=0)
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)  # generous: a loaded 2-core machine
    assert process.returncode == 0, errors
    assert "Traceback" not in errors


def test_device_sim_refuses_bad_options_in_one_line(capsys):
    assert main(["device-sim", "--drop-acks", "-1"]) == 2
    assert capsys.readouterr().err == "gammoncam device-sim: --drop-acks must be 0 or more, not -1\n"
    assert main(["device-sim", "--name", "two words"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_device_option_parses_and_opens_the_box():
    parser = argparse.ArgumentParser(prog="gammoncam replay")
    add_device_option(parser)
    assert parser.parse_args([]).device is None
    assert open_device(parser.parse_args([])) is None
    args = parser.parse_args(["--device", "/dev/no-such-box:57600"])
    assert args.device == DeviceSpec("/dev/no-such-box", 57600)
    box = open_device(args, timing=FAST)
    try:
        assert box.spec == args.device
    finally:
        box.close()


def test_a_bad_device_option_ends_with_status_2_and_one_line(capsys):
    parser = argparse.ArgumentParser(prog="gammoncam replay")
    add_device_option(parser)
    with pytest.raises(SystemExit) as exit:
        parser.parse_args(["--device", "/dev/ttyUSB0:fast"])
    assert exit.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error == "gammoncam replay: error: argument --device: baud rate must be a number: '/dev/ttyUSB0:fast' (expected PORT[:BAUD])"
