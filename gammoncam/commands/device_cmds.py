"""``gammoncam device-sim``: a software referee box on a pty, for users without the hardware."""

from __future__ import annotations

import sys
import threading
import time

from device.sim import SimulatedBox
from gammoncam.cli import UsageError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "device-sim",
        help="run a software referee box on a pseudo-terminal",
        description=(
            "Run a software referee box on a pseudo-terminal and print what a real box would show. "
            "Pass the printed path to --device of watch, demo or replay. On stdin: Enter presses "
            "the button, 'r' resets the box. Ctrl-C ends it."
        ),
    )
    parser.add_argument("--name", default="gammonbox-sim", help="the name the box gives in READY")
    parser.add_argument("--drop-acks", type=int, default=0, metavar="N", help="do not send the first N ACKs")
    parser.add_argument("--link", metavar="PATH", help="also make PATH a symlink to the pty, a stable --device")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.drop_acks < 0:
        raise UsageError(f"--drop-acks must be 0 or more, not {args.drop_acks}")
    start = time.monotonic()

    def show(line: str) -> None:
        print(f"{time.monotonic() - start:8.3f}  {line}", flush=True)

    try:
        box = SimulatedBox(name=args.name, drop_acks=args.drop_acks, show=show)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        path = box.open(link=args.link)
    except OSError as exc:
        raise UsageError(f"cannot create the pty: {exc}") from None
    print(f"referee box simulator on {path}: pass --device {path}", flush=True)
    try:
        for line in sys.stdin:
            if line.strip().lower() in ("", "b", "press"):
                box.press()
            elif line.strip().lower() in ("r", "reset"):
                box.reset()
            else:
                print("Enter: press the button; r: reset the box; Ctrl-C: quit", flush=True)
        threading.Event().wait()  # stdin closed: keep answering until Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        box.close()
    return 0
