"""Screenshots of the live page and the overlay for the README, from the demo session.

    PYTHONPATH=. python docs/make_screenshots.py

Writes docs/screenshot_page.png (1600x1000) and docs/screenshot_overlay.png (1920x1080 with
its transparent background kept). Needs Playwright and Debian's Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

from web_helpers import CHROMIUM, CHROMIUM_ARGS, TOKEN  # noqa: E402
from web_ui.app import create_app  # noqa: E402
from web_ui.demo_feed import DemoSession  # noqa: E402
from web_ui.feed import LiveFeed  # noqa: E402
from web_ui.server import serve  # noqa: E402


def main() -> int:
    feed = LiveFeed()
    demo = DemoSession(feed, seed=5, call_turn=9, cube_turn=6)
    while not (demo.phase == "illegal"):
        demo.step()
    handle = serve(create_app(feed, token=TOKEN), port=0)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(handle.url + "/")
            page.wait_for_selector("#banner:not([hidden])")
            page.wait_for_timeout(2000)  # let the banner's flash settle
            page.screenshot(path=str(ROOT / "docs" / "screenshot_page.png"))
            overlay = browser.new_page(viewport={"width": 1920, "height": 1080})
            overlay.goto(handle.url + "/overlay?theme=dark&elements=board,score,call,plays&corner=br&scale=1")
            overlay.wait_for_selector("#ovcall:not([hidden])")
            overlay.screenshot(path=str(ROOT / "docs" / "screenshot_overlay.png"), omit_background=True)
            browser.close()
    finally:
        handle.stop()
    print("wrote docs/screenshot_page.png and docs/screenshot_overlay.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
