"""``gammoncam watch`` and ``gammoncam demo``: follow a game from camera frames.

    gammoncam watch --video game.mp4 --corners-file corners.json --match 3 --json --transcript-out seen.mat
    gammoncam demo --no-browser

``watch`` prints the events as they happen (with ``--json`` one object a line, each with its
frame time ``t``), drives a referee session logged to ``--log`` (by default a new file under
``~/.local/share/gammoncam/logs``) and writes the transcript of what it saw to
``--transcript-out`` (also when the source is lost). Exit 0: nothing called; 1: something
was; 2: bad input or a source that cannot be opened or vanished (one line on stderr; the log and
the transcript written so far are kept). ``demo`` exits 0 when it ran through: its two calls are
what it shows.

The field corners come from ``--corners`` / ``--corners-file``, or from the ``stage.json`` a
render writes next to its video; without any, the board is found on the first frames. ``--truth FRAMES.jsonl`` replaces the recognizer by an oracle
that reads a render's truth with noise (:mod:`vision.synth.observer`), to test the tracker alone.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path

from gammoncam.cli import UsageError

DEMO_DIR = Path(__file__).resolve().parent.parent.parent / "demo"


def _add_common(parser) -> None:
    from device.options import add_device_option
    from engine.profiles import PRESETS

    parser.add_argument("--variant", choices=("backgammon", "long"), default="backgammon")
    parser.add_argument("--profile", choices=sorted(PRESETS), help="rule profile (default tournament, "
                        "long-nardy-match for long nardy; money without --match)")
    parser.add_argument("--match", type=int, default=None, metavar="N", help="match length (0: money)")
    parser.add_argument("--score", metavar="L,D", help="a match joined between games: the score when watching "
                        "begins, light's then dark's (the first game seen starts from it)")
    parser.add_argument("--crawford-played", action="store_true",
                        help="with --score at N-1: the Crawford game was already played (RULES 6.2)")
    parser.add_argument("--json", action="store_true", help="one JSON object per event")
    parser.add_argument("--mode", choices=("monitor", "silent"),
                        help="RULES 7.3: monitor calls (the referee box, the page's banner); silent only logs "
                             "the calls (listed on the referee page). Default: as last set in --log, else monitor")
    parser.add_argument("--transcript-out", metavar="FILE", help="write the transcript of what was seen")
    parser.add_argument("--log", metavar="FILE", help="the referee session's SQLite log "
                        "(default: a new file in ~/.local/share/gammoncam/logs, or under $XDG_DATA_HOME)")
    parser.add_argument("--corners", metavar="X1,Y1,...,X4,Y4", help="the field's corners TL,TR,BR,BL in pixels")
    parser.add_argument("--corners-file", metavar="FILE", help="JSON with the field's corners")
    parser.add_argument("--checker-model", metavar="ONNX", help="the checker network (default models/checkers.onnx)")
    parser.add_argument("--truth", metavar="FRAMES_JSONL",
                        help="oracle observer from a render's truth, to evaluate the tracker alone")
    parser.add_argument("--stats", action="store_true", help="print timing figures at the end (stderr)")
    add_device_option(parser)


def register(subparsers) -> None:
    from gammoncam.commands.serve_cmds import add_server_arguments

    watch = subparsers.add_parser("watch", help="follow a game from a camera, a video or a stream",
                                  description=__doc__.split("\n\n")[2])
    source = watch.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="camera index")
    source.add_argument("--video", metavar="FILE", help="a video file")
    source.add_argument("--url", metavar="URL", help="an RTSP or HTTP stream")
    _add_common(watch)
    watch.add_argument("--serve", action="store_true", help="also serve the live page")
    add_server_arguments(watch, browser=True)
    watch.set_defaults(func=run_watch)

    demo = subparsers.add_parser("demo", help="the bundled demo video through the whole pipeline, "
                                 "with the live page")
    _add_common(demo)
    add_server_arguments(demo, browser=True)
    demo.add_argument("--speed", type=float, default=1.0, help="playback speed (default 1: real time; "
                      "0: as fast as it goes)")
    demo.set_defaults(func=run_demo)


def _corners(args, video: str | None):
    """The field's corners and whether a person gave them (clicked or typed: the calibration
    checks the corner refiner's fit of them), or None where the board is to be found. A render's
    stage.json holds its exact corners."""
    import numpy as np

    from vision.corners import load_corners

    if args.corners:
        try:
            values = [float(v) for v in args.corners.split(",")]
        except ValueError:
            values = []
        if len(values) != 8:
            raise UsageError("--corners needs eight numbers x1,y1,...,x4,y4")
        return np.array(values).reshape(4, 2), True
    path = args.corners_file
    if path is None and video:
        stage = Path(video).with_name("stage.json")
        if stage.exists():
            return np.asarray(json.loads(stage.read_text())["field"], float), False
    if path is None:
        if args.truth:
            raise UsageError("--truth needs the board's corners: --corners, --corners-file or the render's stage.json")
        return None, False  # found on the first frames (vision.corners.find_corners)
    try:
        data = json.loads(Path(path).read_text())
        if isinstance(data, dict) and "field" in data:  # a render's stage.json
            return np.asarray(data["field"], float).reshape(4, 2), False
        return load_corners(path), True
    except (OSError, ValueError, KeyError) as exc:
        raise UsageError(f"{path}: cannot read corners ({exc})") from None


def _profile(args):
    from engine.profiles import InvalidProfileError, profile

    name = args.profile or ("long-nardy-match" if args.variant == "long" else
                            ("tournament" if args.match else "money"))
    # An illegal play is called when it is made. The record follows the board as the players go
    # on, so a play left uncorrected stands once the opponent throws or doubles (RULES 7.2's
    # condone, as `gammoncam replay` judges transcripts): a not_corrected call would hold the
    # record at the foul while the game moves on.
    options = {"variant": args.variant, "condone": True}
    if args.match is not None:
        options["match_length"] = args.match
    try:
        return profile(name, **options)
    except (InvalidProfileError, ValueError, TypeError) as exc:
        raise UsageError(f"profile {name}: {exc}") from None


def _joined_at(args, profile) -> dict:
    """The first game's score and Crawford state from ``--score`` and ``--crawford-played``."""
    if args.score is None:
        if args.crawford_played:
            raise UsageError("--crawford-played goes with --score")
        return {}
    try:
        score = tuple(int(v) for v in args.score.split(","))
    except ValueError:
        score = ()
    n = profile.match_length
    if len(score) != 2 or min(score) < 0:
        raise UsageError(f"--score needs two counts L,D (light's, dark's), not {args.score!r}")
    if not profile.is_match:
        raise UsageError("--score is a match's score: give --match N")
    if max(score) >= n:
        raise UsageError(f"--score {args.score}: a {n}-point match is over at {n}")
    if args.crawford_played and max(score) != n - 1:
        raise UsageError(f"--crawford-played: neither side is at {n - 1}, so the Crawford game has not come (RULES 6.2)")
    return {"score": score, "crawford_played": bool(args.crawford_played)}


def _observer(args, corners, by_hand: bool):
    if args.truth:
        from vision.synth.observer import TruthObserver

        try:
            return TruthObserver.from_file(args.truth)
        except (OSError, ValueError) as exc:
            raise UsageError(f"{args.truth}: {exc}") from None
    from vision.checkers import MODEL
    from gammoncam.watch import RecognizerObserver

    model = args.checker_model or str(MODEL)
    if not os.path.exists(model):
        raise UsageError(f"no checker model at {model}: train one (gammoncam train-vision checkers) or "
                         "give --checker-model")
    try:
        return RecognizerObserver(corners, args.variant, model, by_hand=by_hand)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _printer(args):
    def show(event: dict) -> None:
        out = sys.stdout
        if args.json:
            print(json.dumps(event, default=str), file=out, flush=True)
            return
        t = f"{event['t']:8.2f}s"
        kind = event["type"]
        rest = {k: v for k, v in event.items() if k not in ("t", "frame", "type", "accepted")}
        if kind == "call":
            logged = " (silent mode: logged)" if event.get("silent") else ""
            print(f"{t}  CALL{logged} {event['kind']} ({event['reason']}): {event['text']}", file=out, flush=True)
        elif kind == "warning":
            print(f"{t}  WARNING {event['text']}", file=out, flush=True)
        elif "what" in event:  # a moment the tracker was unsure of (gammoncam.watch.Doubts)
            who = f" (player {event['player']})" if event.get("player") else ""
            foul = " (could hide a foul)" if event.get("foul_if_read") else ""
            print(f"{t}  SECOND LOOK{who}{foul}: {event['what']}", file=out, flush=True)
        else:
            detail = " ".join(f"{k}={v}" for k, v in rest.items() if v is not None)
            print(f"{t}  {kind} {detail}", file=out, flush=True)
    return show


def _new_log_path() -> str:
    """A new referee log under the user's data directory ($XDG_DATA_HOME, else ~/.local/share),
    never the temporary directory: a game record must outlive a reboot."""
    try:
        root = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "gammoncam" / "logs"
        root.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError) as exc:  # RuntimeError: no home directory to be found
        raise UsageError(f"no directory for the referee log ({getattr(exc, 'strerror', None) or exc}): "
                         "give --log FILE") from None
    return str(root / f"watch-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.sqlite")


def watch(args, source_name, video: str | None, *, feed=None, pace: float = 0.0) -> int:
    from gammoncam.frames import FrameSource, SourceError
    from gammoncam.referee import LogError, Referee
    from gammoncam.watch import WatchDesk, Watcher, transcript_text

    profile = _profile(args)
    joined_at = _joined_at(args, profile)
    corners, by_hand = _corners(args, video)
    observer = _observer(args, corners, by_hand)
    log = args.log or _new_log_path()
    try:
        referee = Referee.open(log, profile)
    except LogError as exc:
        raise UsageError(str(exc)) from None
    if joined_at and referee.state.game:
        referee.close()
        raise UsageError(f"--score starts a new record, but {log} already holds {referee.state.game} game(s), "
                         f"at {referee.state.score[0]}-{referee.state.score[1]}: give a new --log")
    if args.mode and args.mode != referee.mode:  # kept in the log, as the page's switch is
        referee.mode = args.mode
        referee.note({"type": "mode", "mode": args.mode, "author": "command line"})
    from device.options import open_device

    box = open_device(args)
    show = _printer(args)
    desk = WatchDesk(referee, feed, box)  # the page's state and the official's actions there

    def emit(event: dict) -> None:
        show(event)
        desk.hear(event)

    if not args.json:
        print(f"gammoncam watch: {source_name}; referee log {log}", file=sys.stderr)
    code = 0
    try:
        try:
            source = FrameSource(source_name)
        except SourceError as exc:
            raise UsageError(str(exc)) from None
        start = time.perf_counter()

        def paced(frame, reading):  # play a file at its own speed
            delay = frame.time / pace - (time.perf_counter() - start)
            if delay > 0:
                time.sleep(delay)

        on_frame = paced if pace > 0 else None
        with source:
            watcher = desk.watcher = Watcher(source, observer, referee, corners, emit=emit, on_frame=on_frame,
                                             joined_at=joined_at, lock=desk.lock)
            try:
                stats = watcher.run()
            except SourceError as exc:
                print(f"gammoncam watch: {exc}; the referee log ({log}) and the transcript so far are kept",
                      file=sys.stderr)
                code = 2
                stats = watcher.stats
            except sqlite3.Error as exc:  # a full disk, another program locking the file: what is logged stays
                print(f"gammoncam watch: the referee log {log} cannot be written ({exc}), so the watch stops; "
                      f"the {len(referee.events)} event(s) logged before are kept", file=sys.stderr)
                code = 2
                stats = watcher.stats
        if args.stats:
            print(json.dumps({"stats": stats.to_json(), "tracker": watcher.tracker.stats}), file=sys.stderr)
        if code == 0:
            code = 1 if referee.calls else 0
    finally:
        if args.transcript_out:
            try:
                Path(args.transcript_out).write_text(transcript_text(referee))
            except OSError as exc:
                print(f"gammoncam watch: cannot write {args.transcript_out}: {exc.strerror}", file=sys.stderr)
                code = 2
        desk.close()
        referee.close()
        if box is not None:
            box.close()
    return code


def run_watch(args) -> int:
    source = args.camera if args.camera is not None else (args.video or args.url)
    feed = handle = None
    if args.serve:
        feed, handle = _serve(args)
    try:
        return watch(args, source, args.video, feed=feed)
    finally:
        if handle is not None:
            handle.stop()


def _serve(args):
    from gammoncam.commands.serve_cmds import start_server
    from web_ui.board import empty_state
    from web_ui.feed import LiveFeed

    feed = LiveFeed(empty_state(args.variant))
    handle = start_server(feed, args)
    if not getattr(args, "no_browser", True):
        import webbrowser

        webbrowser.open(handle.url + "/")
    return feed, handle


def run_demo(args) -> int:
    video = DEMO_DIR / "demo.mp4"
    if not video.exists():
        raise UsageError(f"the demo video is missing: {video}")
    meta = json.loads((DEMO_DIR / "demo.json").read_text())
    if args.match is None:
        args.match = meta["match_length"]
    if not args.corners and not args.corners_file:
        args.corners = ",".join(str(v) for xy in meta["field"] for v in xy)
    feed, handle = _serve(args)
    try:
        code = watch(args, str(video), str(video), feed=feed, pace=args.speed)
        if not args.json:
            print("gammoncam demo: the video has ended; the page stays up until Ctrl-C", file=sys.stderr)
        try:
            threading.Event().wait() if not getattr(args, "no_browser", False) else None
        except KeyboardInterrupt:
            pass
        # The demo's calls are what it shows, not a failure: exit 2 only when it could not run.
        return 2 if code == 2 else 0
    finally:
        handle.stop()
