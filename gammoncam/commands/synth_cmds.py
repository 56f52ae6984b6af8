"""``gammoncam synth images|video|sheet``: rendered boards with exact ground truth (issue 5).

Examples::

    gammoncam synth images --n 1000 --seed 1 --out runs/synth1
    gammoncam synth video --transcript ../shared/fixtures/matches/bglab/match10013413.txt --seed 1 --out runs/vid
    gammoncam synth sheet --out docs/contact_sheet.png
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from gammoncam.cli import UsageError

VARIANTS = {"backgammon": "backgammon", "long": "long", "both": None}


def _size(text: str | None) -> tuple | None:
    if text is None:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size must be WIDTHxHEIGHT, not {text!r}") from None
    if not (160 <= w <= 1920 and 90 <= h <= 1080):
        raise UsageError("--size must lie between 160x90 and 1920x1080")
    return w, h


def _out_dir(path: str) -> Path:
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {path}: {exc.strerror}") from None
    if not os.access(out, os.W_OK):
        raise UsageError(f"cannot write to {path}")
    return out


def _images(args) -> int:
    from vision.synth.dataset import write_images

    if args.n < 1:
        raise UsageError("--n must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    for name in ("fouls", "bear_off"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            raise UsageError(f"--{name.replace('_', '-')} must be a share between 0 and 1")
    write_images(_out_dir(args.out), args.n, args.seed, VARIANTS[args.variant], _size(args.size), args.workers,
                 fouls=args.fouls, bear_off=args.bear_off)
    return 0


def _video(args) -> int:
    from vision.synth.transcript import read_game, selfplay_turns, turns_transcript
    from vision.synth.video import game_events, write_video

    if args.max_turns is not None and args.max_turns < 1:
        raise UsageError("--max-turns must be at least 1")
    if args.selfplay:
        variant = args.selfplay
        turns = selfplay_turns(variant, args.seed, args.max_turns or 60)
    else:
        try:
            text = Path(args.transcript).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UsageError(f"cannot read {args.transcript}: {exc.strerror}") from None
        try:
            turns = read_game(text, args.game)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if args.max_turns is not None:
            turns = turns[: args.max_turns]
        if not turns:
            raise UsageError(f"no plays found in game {args.game} of {args.transcript}")
        variant = "long" if "longnardy" in text.replace(" ", "").lower() else "backgammon"
    out = _out_dir(args.out)
    size = _size(args.size) or (1280, 720)
    if not 1 <= args.fps <= 60:
        raise UsageError("--fps must be between 1 and 60")
    if args.rerolls < 0:
        raise UsageError("--rerolls must be at least 0")
    put_right = _put_right(turns, args.put_right, args.game) if args.put_right else None
    late = _doubles_after_throw(turns, args.double_after_throw or [])
    frames = write_video(game_events(variant, turns, rerolls=_rerolls(turns, args.rerolls, args.seed),
                                     put_right=put_right, doubles_after_throw=late),
                         out, args.seed, variant, size, args.fps)
    if args.selfplay:  # what was played, for bench/watch.py to compare with what is seen
        (out / "source.txt").write_text(turns_transcript(variant, turns))
    for warning in _unshown_moves(out / "frames.jsonl"):
        print(f"gammoncam synth: warning: {warning}", file=sys.stderr)
    print(f"{frames} frames -> {out / 'game.mp4'}")
    return 0


def _unshown_moves(frames: Path) -> list[str]:
    """What the video could not show: a move from a point with none of the mover's checkers
    (an injected foul that empties a point a later play of the transcript moves from). The hand
    reaches and comes back empty, so the video shows the rest of the play only, and what a
    watcher makes of it is measured against a play the video does not hold."""
    out, last = [], None
    with open(frames) as lines:
        for line in lines:
            frame = json.loads(line)
            event = frame["event"]
            if event.endswith("(no checker there)") and event != last:
                what = event.removesuffix(" (no checker there)")
                out.append(f"{frame['mover']}'s {what} at {frame['time']:.1f} s moved nothing: no checker of "
                           f"theirs stood there (the video shows the rest of that play)")
            last = event
    return out


def _put_right(turns: list, original: str, game: int) -> dict:
    """Each turn whose play differs from ``original``'s (the transcript before a foul was
    injected), put right to that play (RULES 7.2): {turn index: the original's steps}."""
    from vision.synth.transcript import read_game

    try:
        legal = read_game(Path(original).read_text(encoding="utf-8", errors="replace"), game)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--put-right {original}: {getattr(exc, 'strerror', None) or exc}") from None
    out = {}
    for i, (turn, right) in enumerate(zip(turns, legal)):
        if (turn.colour, turn.dice, turn.cube) != (right.colour, right.dice, right.cube):
            raise UsageError(f"--put-right: turn {i + 1} is not the same turn in {original}")
        if right.dice and turn.steps != right.steps:  # a play, not a cube action
            out[i] = right.steps
    return out


def _doubles_after_throw(turns: list, numbers: list) -> set:
    """Turn numbers (1-based, counted as ``--max-turns`` counts) as indexes, each a throw."""
    for n in numbers:
        if not 1 <= n <= len(turns) or not turns[n - 1].dice:
            raise UsageError(f"--double-after-throw {n}: turn {n} is not a throw of the {len(turns)} turns rendered")
    return {n - 1 for n in numbers}


def _rerolls(turns: list, n: int, seed: int) -> dict:
    """``n`` throws after the opening, chosen by ``seed``, first thrown so that they do not count."""
    import numpy as np

    from vision.synth.dice import INVALID_KINDS

    rng = np.random.default_rng([seed, 0, 2])
    plays = [i for i, turn in enumerate(turns) if turn.dice and i > 0]
    chosen = rng.choice(plays, size=min(n, len(plays)), replace=False) if plays else []
    return {int(i): (INVALID_KINDS[int(rng.integers(len(INVALID_KINDS)))], tuple(int(v) for v in rng.integers(1, 7, 2)))
            for i in chosen}


def _sheet(args) -> int:
    import cv2

    from vision.synth.dataset import contact_sheet

    out = Path(args.out)
    _out_dir(str(out.parent) if str(out.parent) else ".")
    if out.suffix.lower() != ".png":
        raise UsageError("--out must name a .png file")
    cv2.imwrite(str(out), contact_sheet(args.seed), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return 0


def register(subparsers) -> None:
    synth = subparsers.add_parser("synth", help="render boards with exact ground truth")
    sub = synth.add_subparsers(dest="synth_command", metavar="WHAT")
    sub.required = True

    images = sub.add_parser("images", help="random labelled images (ultralytics layout + truth JSON)")
    images.add_argument("--n", type=int, required=True, help="how many images")
    images.add_argument("--seed", type=int, required=True, help="the run's seed; image i depends only on (seed, i)")
    images.add_argument("--out", required=True, help="dataset directory")
    images.add_argument("--variant", choices=sorted(VARIANTS), default="both")
    images.add_argument("--size", help="WIDTHxHEIGHT for every image (default: random 640x360..1920x1080)")
    images.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    images.add_argument("--fouls", type=float, default=0.0, metavar="SHARE",
                        help="share of boards with a checker laid on the other side's stack (default 0)")
    images.add_argument("--bear-off", type=float, default=0.0, metavar="SHARE",
                        help="share of boards in the bear-off: every checker home, 0-15 a side borne off (default 0)")
    images.set_defaults(func=_images)

    video = sub.add_parser("video", help="a game from a transcript, or played by the engine, as mp4 + "
                                         "per-frame truth (JSON lines)")
    source = video.add_mutually_exclusive_group(required=True)
    source.add_argument("--transcript", help="a .mat/.txt match transcript")
    source.add_argument("--selfplay", choices=["backgammon", "long"],
                        help="a game of random legal plays chosen by the engine (seeded by --seed)")
    video.add_argument("--seed", type=int, required=True)
    video.add_argument("--out", required=True, help="directory for game.mp4, frames.jsonl, stage.json")
    video.add_argument("--game", type=int, default=1, help="which game of the match (default 1)")
    video.add_argument("--max-turns", type=int, help="stop after this many turns (self-play: 60)")
    video.add_argument("--size", help="WIDTHxHEIGHT (default 1280x720)")
    video.add_argument("--fps", type=int, default=15)
    video.add_argument("--rerolls", type=int, default=0,
                       help="this many throws are first thrown so that they do not count (a die cocked, in the "
                            "other half or off the board), picked up and thrown again")
    video.add_argument("--put-right", metavar="ORIGINAL",
                       help="the transcript before a foul was injected: each play that differs from it is put "
                            "right to its play once the dice are picked up (RULES 7.2)")
    video.add_argument("--double-after-throw", type=int, action="append", metavar="TURN",
                       help="at this turn (1-based, as --max-turns counts), the player turns the cube and offers "
                            "it with the throw at rest (RULES 5.2), then puts it back and plays; repeatable")
    video.set_defaults(func=_video)

    sheet = sub.add_parser("sheet", help="a contact sheet of 24 varied renders")
    sheet.add_argument("--out", required=True, help="PNG file")
    sheet.add_argument("--seed", type=int, default=5)
    sheet.set_defaults(func=_sheet)
