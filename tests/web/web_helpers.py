"""Helpers of the web tests (imported as ``web_helpers``, like ``device_helpers``)."""

from __future__ import annotations

from web_ui.demo_feed import DemoSession

TOKEN = "test-token-0123456789"


def bearer(token: str = TOKEN) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_until(demo: DemoSession, kind: str, limit: int = 400) -> dict:
    """Step the demo until it publishes an event of ``kind``; returns that event."""
    for _ in range(limit):
        event = demo.step()
        if event["type"] == kind:
            return event
    raise AssertionError(f"no {kind!r} event in {limit} steps")


#: Debian's Chromium, driven by Playwright (never ``playwright install``).
CHROMIUM = "/usr/bin/chromium"
#: Without the background-networking flags Chromium's own connections are refused offline.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
