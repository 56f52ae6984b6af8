"""Shared pieces of the referee box tests: short protocol intervals and a bounded wait."""

from __future__ import annotations

import inspect
import time

import pytest

from device.driver import Timing

# Every interval short, so that no test waits more than a few seconds.
FAST = Timing(
    ready_wait=0.1, resend=0.15, heartbeat=0.1, lost_after=0.6, backoff_min=0.05, backoff_max=0.2, drain=3.0
)


def wait_for(predicate, timeout: float = 4.0):
    """Poll ``predicate`` until it is truthy; fail the test when it stays false for ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    pytest.fail(f"still false after {timeout} s: {inspect.getsource(predicate).strip()}")
