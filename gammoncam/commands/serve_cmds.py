"""``gammoncam serve``: the live page, overlay and referee controls (web_ui), standalone.

``watch`` and ``demo`` serve the same page through :func:`add_server_arguments` and
:func:`start_server`.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import webbrowser

from gammoncam.cli import UsageError

TOKEN_ENV = "GAMMONCAM_TOKEN"


def add_server_arguments(parser, *, browser: bool = False) -> None:
    """``--host`` and ``--port`` (and ``--no-browser``) for every command that serves the page."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1, this computer only)")
    parser.add_argument("--port", type=int, default=8080, help="port to listen on (default 8080)")
    if browser:
        parser.add_argument("--no-browser", action="store_true", help="do not open a browser")


def referee_token() -> str:
    """``GAMMONCAM_TOKEN`` when set, else a fresh random token."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        if len(token) < 8:
            raise UsageError(f"{TOKEN_ENV} must have at least 8 characters")
        return token
    return secrets.token_urlsafe(18)


def start_server(feed, args, *, calibration=None):
    """Create the app around ``feed``, serve it on ``args.host:args.port`` and print how to
    reach it; returns the :class:`web_ui.server.ServerHandle`."""
    from web_ui.app import create_app
    from web_ui.server import serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    token = referee_token()
    app = create_app(feed, token=token, calibration=calibration)
    try:
        handle = serve(app, host=args.host, port=args.port)
    except OSError as exc:
        reason = "the port is in use" if getattr(exc, "errno", None) in (98, 48, 10048) else exc.strerror or exc
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {reason}") from None
    print(f"gammoncam page:    {handle.url}/", flush=True)
    print(f"overlay (OBS):     {handle.url}/overlay", flush=True)
    print(f"referee controls:  {handle.url}/referee", flush=True)
    if os.environ.get(TOKEN_ENV, "").strip():
        print(f"referee token:     from {TOKEN_ENV}", flush=True)
    else:
        print(f"referee token:     {token}", flush=True)
    return handle


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the live page, overlay and referee controls",
        description=(
            "Serve the live board page (/), the streamer overlay (/overlay), the referee controls "
            f"(/referee, with the token printed at start or ${TOKEN_ENV}) and the JSON API. "
            "Without --demo the page waits for a referee session; with --demo it plays games by "
            "itself. Ctrl-C ends it."
        ),
    )
    add_server_arguments(parser, browser=True)
    parser.add_argument("--demo", action="store_true", help="play demonstration games into the page")
    parser.add_argument("--variant", choices=("backgammon", "long"), default="backgammon",
                        help="the demo's variant (default backgammon)")
    parser.add_argument("--interval", type=float, default=1.5, metavar="S",
                        help="seconds between the demo's events (default 1.5)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from web_ui.board import empty_state
    from web_ui.feed import LiveFeed

    if not 0.05 <= args.interval <= 60:
        raise UsageError(f"--interval must be 0.05 to 60 seconds, not {args.interval}")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)  # not every closed viewer
    feed = LiveFeed(empty_state(args.variant))
    stop = threading.Event()
    if args.demo:
        from web_ui.demo_feed import DemoSession

        demo = DemoSession(feed, variant=args.variant, seed=None)
        threading.Thread(target=demo.run, args=(stop, args.interval), name="demo", daemon=True).start()
    handle = start_server(feed, args)
    if not getattr(args, "no_browser", True) and args.demo:
        webbrowser.open(handle.url + "/")
    try:
        handle.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        handle.stop()
    return 0
