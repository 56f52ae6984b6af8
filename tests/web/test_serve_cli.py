"""``gammoncam serve``: the URL and token printed, the demo served, a port in use exit 2."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _env(**extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def _post(url: str, headers: dict) -> int:
    request = urllib.request.Request(url, data=b"", method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_serve_demo_prints_url_and_token_and_guards_the_referee(interruptible):
    proc = subprocess.Popen([sys.executable, "-m", "gammoncam", "serve", "--demo", "--no-browser",
                             "--port", "0", "--interval", "0.2"], cwd=ROOT, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **interruptible)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        url = lines[0].split()[-1].rstrip("/")
        token = lines[3].split()[-1]
        assert url.startswith("http://127.0.0.1:") and len(token) >= 16
        deadline = time.monotonic() + 20
        while True:
            state = json.load(urllib.request.urlopen(url + "/api/state", timeout=5))
            if state.get("plays") or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert state["plays"], "the demo published no play"
        endpoint = url + "/api/referee/set_mode?"
        assert _post(endpoint, {}) == 401
        assert _post(endpoint, {"Authorization": "Bearer wrong-token-123"}) == 403
        request = urllib.request.Request(url + "/api/referee/set_mode", data=b'{"mode": "silent"}',
                                         headers={"Authorization": f"Bearer {token}",
                                                  "Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(request, timeout=5))["ok"] is True
        assert json.load(urllib.request.urlopen(url + "/api/state", timeout=5))["mode"] == "silent"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # generous: a loaded 2-core machine
    assert proc.returncode == 0, err


def test_serve_uses_gammoncam_token_and_refuses_a_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "gammoncam", "serve", "--port", str(port)],
                              cwd=ROOT, env=_env(GAMMONCAM_TOKEN="from-the-environment"),
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "in use" in done.stderr
