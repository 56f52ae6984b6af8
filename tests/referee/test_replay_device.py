"""``gammoncam replay --device``: the referee box hears each call (issue 9's check).

The box is the software box of ``gammoncam device-sim`` on a real pty, dropping its first
ACK; the transcript is a corpus match with one injected illegal play.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "fixtures" / "matches" / "bglab"


def test_replay_calls_the_box_even_when_it_drops_the_first_ack(tmp_path):
    text = (CORPUS / "match10013413.txt").read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace(" 5) 32: 6/3 13/11", " 5) 42: 6/3 13/11", 1))
    link = tmp_path / "box"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    sim = subprocess.Popen([sys.executable, "-m", "gammoncam", "device-sim", "--drop-acks", "1",
                            "--link", str(link)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=env)
    try:
        deadline = time.monotonic() + 30
        while not link.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert link.exists(), "device-sim did not open its pty"
        run = subprocess.run([sys.executable, "-m", "gammoncam", "replay", "--json", "--device",
                              str(link), str(bad)], capture_output=True, text=True, env=env,
                             timeout=120)
        assert run.returncode == 1, run.stderr
        calls = [json.loads(line) for line in run.stdout.splitlines()][:-1]
        assert [(c["game"], c["turn"], c["player"], c["kind"]) for c in calls] == [
            (2, 5, 1, "illegal_play")]
    finally:
        sim.terminate()
        shown, _ = sim.communicate(timeout=30)
    assert "dropped ACK" in shown
    assert "light red" in shown and "ILLEGAL_PLAY" in shown
