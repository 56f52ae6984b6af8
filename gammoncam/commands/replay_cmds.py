"""``gammoncam replay FILE... [--profile P] [--json]``: transcripts through the referee.

Every file is read before any is replayed, so unreadable input (exit 2, one line naming the
file, the line and what was expected there) never comes after partial output. Calls are
printed as they are made; with ``--json`` one object a line, then a summary line. Warnings
(oddities of real files) go to stderr. Exit 0: nothing called; 1: something was.

Each call goes to every *call listener* in :func:`call_listeners`; an output device (a
serial box, ``--device PORT[:BAUD]``) joins by adding its listener there.
"""

from __future__ import annotations

import json
import sys
from typing import Callable

from engine.match import CALL_TEXT
from engine.profiles import PRESETS, InvalidProfileError
from engine.transcript import Transcript, TranscriptError, parse_transcript
from device.options import add_device_option, open_device
from gammoncam.cli import UsageError
from gammoncam.replay import Call, Replay, transcript_profile


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay match transcripts through the referee",
        description="Replay JellyFish/XG match transcripts (.mat/.txt) through the referee "
                    "and print its calls. Exit 0 when nothing was called, 1 when something "
                    "was, 2 for unreadable input.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="transcript files")
    parser.add_argument("--profile", choices=sorted(PRESETS),
                        help="rule profile (default: from the file: tournament for a match, "
                             "money for single games, long nardy ones for long nardy)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per call, then a summary line")
    add_device_option(parser)
    parser.set_defaults(func=run)


def read_transcript(path: str) -> Transcript:
    """A transcript from a file; :class:`UsageError` names the file, line and expectation."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # old JellyFish files are not UTF-8
    try:
        return parse_transcript(text)
    except TranscriptError as exc:
        raise UsageError(f"{path}: {exc}") from None


def call_listeners(args, out, box=None) -> list[Callable[[Call], None]]:
    """Who hears each call: the printer, then the referee box if there is one."""

    def show(call: Call) -> None:
        if args.json:
            print(json.dumps(call.to_json()), file=out, flush=True)
        else:
            print(f"{call.file} game {call.game} turn {call.turn} player {call.player}: "
                  f"{call.kind} {call.reason}: {CALL_TEXT[call.reason]}", file=out, flush=True)

    listeners = [show]
    if box is not None:
        # The box's kinds are the call kinds in capitals (device/PROTOCOL.md); call() queues
        # and returns at once, so an unplugged box never holds the replay up.
        listeners.append(lambda call: box.call(call.kind.upper()))
    return listeners


def run(args) -> int:
    transcripts = [(path, read_transcript(path)) for path in args.files]
    for path, transcript in transcripts:
        try:
            transcript_profile(transcript, args.profile)
        except InvalidProfileError as exc:
            raise UsageError(f"{path}: profile {args.profile}: {exc}") from None
    box = open_device(args)
    try:
        replay = Replay("", call_listeners(args, sys.stdout, box))
        for path, transcript in transcripts:
            replay.file = path
            shown = len(replay.warnings)
            replay.run(transcript, args.profile)
            for warning in replay.warnings[shown:]:
                print(f"gammoncam replay: warning: {warning}", file=sys.stderr)
    finally:
        if box is not None:
            box.close()  # waits, within its limit, for the box to acknowledge every call
    summary = replay.summary
    if args.json:
        print(json.dumps({"summary": summary}), flush=True)
    else:
        print(", ".join(f"{value} {key.replace('_', ' ')}" for key, value in summary.items()),
              flush=True)
    return 1 if summary["calls"] else 0
