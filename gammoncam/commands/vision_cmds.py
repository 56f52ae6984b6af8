"""``gammoncam recognize | eval-vision | train-vision``: the recognizer (issue 6).

Examples::

    gammoncam recognize frame.jpg --corners 102,80,1180,75,1190,640,95,650 --json
    gammoncam eval-vision runs/test --out runs/test_eval
    gammoncam train-vision checkers runs/train --epochs 12 --out models/checkers.onnx
    gammoncam train-vision mixed runs/fouls --net small --epochs 8 --out models/mixed.onnx
    gammoncam train-vision trays runs/bear_off --net small --epochs 10 --out models/trays.onnx
    gammoncam train-vision corners runs/train --epochs 12 --out models/corners.onnx
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from gammoncam.cli import UsageError


def parse_corners(text: str):
    """``"x1,y1,...,x4,y4"`` to a (4, 2) list of floats; a :class:`UsageError` otherwise."""
    try:
        values = [float(v) for v in text.replace(" ", "").split(",")]
    except ValueError:
        raise UsageError(f"--corners must be 8 numbers x1,y1,x2,y2,x3,y3,x4,y4, not {text!r}") from None
    if len(values) != 8 or not all(map(lambda v: v == v and abs(v) < 1e6, values)):
        raise UsageError(f"--corners must be 8 numbers x1,y1,x2,y2,x3,y3,x4,y4, not {text!r}")
    pts = [values[i:i + 2] for i in range(0, 8, 2)]
    # The quadrilateral must be convex and not degenerate.
    cross = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        cross.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    if not (all(c > 1 for c in cross) or all(c < -1 for c in cross)):
        raise UsageError("--corners do not make a convex quadrilateral in the order TL, TR, BR, BL")
    return pts


def read_image(path: str):
    import cv2

    if not os.path.isfile(path):
        raise UsageError(f"no such image: {path}")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise UsageError(f"cannot decode image: {path}")
    return image


def _recognize(args) -> int:
    import numpy as np

    image = read_image(args.image)
    bar = colours = corners = None
    if args.corners and os.path.isfile(args.corners):
        from vision.adapt import CheckerColours
        from vision.corners import load_corners

        try:
            corners = load_corners(args.corners)
            saved = json.loads(Path(args.corners).read_text())
            if isinstance(saved, dict):  # a calibration's output: the bar and, if needed, the colours
                bar = saved.get("bar_share")
                if saved.get("accepted") is True and saved.get("colours_told_by_network") is False \
                        and saved.get("checker_colours"):
                    colours = CheckerColours.from_json(saved["checker_colours"])
        except (ValueError, KeyError, TypeError, OSError) as exc:
            raise UsageError(f"cannot read corners from {args.corners}: {exc}") from None
    elif args.corners:
        corners = np.array(parse_corners(args.corners))
    from vision.recognize import Recognizer

    rec = Recognizer()
    if corners is None:
        corners = rec.find_board(image)
        if corners is None:
            raise UsageError("could not find the board in the image: give --corners x1,y1,...,x4,y4")
    if args.refine:
        from vision.corners import refine

        corners = refine(image, corners)
    # corners found were refined already; corners given by hand are re-fitted and checked
    refit = bool(args.corners) and not args.exact_corners
    if args.opening:
        from vision.adapt import calibrate, calibrate_by_hand

        if not args.variant:
            raise UsageError("--opening needs --variant (whose starting position the frame shows)")
        cal = (calibrate_by_hand if refit else calibrate)(image, corners, args.variant, rec.checker_model,
                                                          in_play=False)  # verify the opening itself
        print(json.dumps(cal.to_json()))
        if cal.warning:
            print(f"gammoncam recognize: warning: {cal.warning}", file=sys.stderr)
        if not cal.accepted:
            print(f"gammoncam recognize: calibration rejected: {26 - cal.matches} of 26 locations do not show "
                  f"the starting position", file=sys.stderr)
        return 0 if cal.accepted else 1
    thrower = args.mover if args.variant != "long" else None  # long nardy: either half counts (RULES 2.3)
    obs = rec(image, corners, bar=bar, mover=thrower, colours=colours, refit=refit)
    out = obs.to_json(full=args.probabilities)
    out["corners"] = np.round(obs.extra["corners"], 2).tolist()
    out["corners_refitted"] = obs.extra["refitted"]
    if args.json:
        json.dump(out, sys.stdout, separators=(",", ":") if args.probabilities else (", ", ": "))
        print()
    else:
        for row in ("top", "bottom"):
            print(row.ljust(7), " ".join(f"{(c or '-')[0]}{n:<2d}" if n else " . " for c, n in out[row]))
        print("bar", out["bar"], "off", out["off"], "dice", out["dice"], "valid" if out["throw_valid"] else "",
              "cube", out["cube"], f"confidence {out['confidence']:.3f}")
    return 0


def _eval(args) -> int:
    from vision.evaluate import evaluate

    directory = Path(args.dir)
    if not (directory / "truth").is_dir():
        raise UsageError(f"{args.dir} is not a rendered test set (no truth/ folder)")
    from vision.conditions import CONDITIONS

    if args.condition is not None and args.condition not in CONDITIONS:
        raise UsageError(f"unknown condition {args.condition!r}: one of {', '.join(CONDITIONS)}")
    out = Path(args.out) if args.out else directory / "eval"
    if args.corner_noise is not None and not 0 <= args.corner_noise <= 0.1:
        raise UsageError(f"--corner-noise {args.corner_noise}: a share of the field's diagonal, 0 to 0.1")
    report = evaluate(directory, out, limit=args.limit, auto_corners=args.found_corners, condition=args.condition,
                      corner_noise=args.corner_noise or 0.0, refit=not args.exact_corners)
    print(json.dumps({k: report[k] for k in ("frames", "all", "no_hands")}, indent=1))
    from vision.corners import FINDER

    if FINDER.exists():  # the automatic corner detector against the truth's corners
        from vision.evaluate import corner_accuracy

        corners = corner_accuracy(directory, limit=args.limit, condition=args.condition)
        (out / "corners.json").write_text(json.dumps({k: corners[k] for k in ("directory", "all", "no_hands")},
                                                     indent=1))
        (out / "corner_frames.json").write_text(json.dumps(corners["rows"]))
        print(json.dumps({"corners_found": {k: corners[k] for k in ("all", "no_hands")}}, indent=1))
    print(f"report, corners.json, confusion.png and error_map.png in {out}")
    return 0


def _train(args) -> int:
    from vision.train import ResumeError

    try:
        return _run_training(args)
    except ResumeError as exc:
        raise UsageError(str(exc)) from None


#: the stages trained on crops cut in field coordinates, and their task (vision.train.TASKS)
CROP_TASKS = {"checkers": "stacks", "mixed": "mixed", "trays": "trays"}


def _run_training(args) -> int:
    from vision.train import train_checkers

    dirs = [Path(d) for d in args.dirs]
    for d in dirs:
        if not (d / "truth").is_dir():
            raise UsageError(f"{d} is not a rendered data set (no truth/ folder)")
    networks = {"corners": ("finder", "refiner"), "dice": ("finder", "reader")}.get(args.stage, ())
    if args.only and args.only not in networks:
        raise UsageError(f"--only {args.only}: {args.stage} training has no {args.only} "
                         f"(its networks: {', '.join(networks) or 'one'})")
    if not 0.0 <= args.defocus <= 1.0:
        raise UsageError(f"--defocus {args.defocus}: a share of the crops, 0 to 1")
    if args.only and not args.init:
        raise UsageError(f"--only {args.only} needs --init: the other network is kept as that checkpoint holds it")
    if args.init:
        init = Path(args.init)
        exports = [init.parent / f"{init.stem}_{n}.onnx" for n in networks] if networks and init.suffix == ".onnx" \
            else [init]
        if not any(e.exists() for e in exports):
            raise UsageError(f"--init {args.init}: no {' nor '.join(map(str, exports))}")
    try:  # the product runs ONNX files; only training needs torch
        import onnx  # noqa: F401
        import torch
    except ImportError:
        raise UsageError("train-vision needs torch and onnx: pip install -e '.[train]'") from None
    if args.train_on == "cuda" and not torch.cuda.is_available():
        raise UsageError("--train-on cuda: torch sees no CUDA GPU here")
    if args.stage == "corners":
        from vision.train_corners import train_corners

        result = train_corners(dirs, Path(args.out or "models/corners.onnx"), epochs=args.epochs, lr=args.lr,
                               threads=args.threads, init=Path(args.init) if args.init else None,
                               only=args.only)
    elif args.stage in CROP_TASKS:
        result = train_checkers(dirs, Path(args.out or f"models/{args.stage}.onnx"), epochs=args.epochs, lr=args.lr,
                                samples=args.samples, init=Path(args.init) if args.init else None,
                                size=args.net or "wide", task=CROP_TASKS[args.stage], defocus=args.defocus)
    else:
        from vision.train import train_dice

        result = train_dice(dirs, Path(args.out or "models/dice.onnx"), epochs=args.epochs, lr=args.lr,
                            init=Path(args.init) if args.init else None, threads=args.threads,
                            only=args.only, reader_size=args.net or "small", device=args.train_on,
                            workers=args.workers)
    print(json.dumps(result, indent=1))
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("recognize", help="read the board, dice and cube in one image")
    p.add_argument("image")
    p.add_argument("--corners", help="the playing area's TL,TR,BR,BL in the image: x1,y1,...,x4,y4, or a JSON file "
                        "(the output of --opening brings this board's bar and colours too)")
    p.add_argument("--refine", action="store_true", help="re-fit the given corners to the field's edges")
    p.add_argument("--exact-corners", action="store_true",
                   help="read with the given corners only (by default the corner refiner re-fits them too and "
                        "the surer reading is kept: corners_refitted in the JSON)")
    p.add_argument("--mover", choices=("light", "dark"),
                   help="who threw, to judge the throw's half in backgammon (RULES 2.3)")
    p.add_argument("--variant", choices=("backgammon", "long"), help="the variant (not needed to read a frame)")
    p.add_argument("--opening", action="store_true",
                   help="the frame shows --variant's starting position: calibrate (orientation, colours, bar) "
                        "and verify; exit 1 if the calibration is rejected")
    p.add_argument("--json", action="store_true", help="print the reading as JSON")
    p.add_argument("--probabilities", action="store_true", help="include every probability vector")
    p.set_defaults(func=_recognize)

    p = subparsers.add_parser("eval-vision", help="measure the recognizer on a rendered test set")
    p.add_argument("dir")
    p.add_argument("--out", help="where the report and pictures go (default DIR/eval)")
    p.add_argument("--limit", type=int, help="only the first N frames")
    p.add_argument("--found-corners", action="store_true",
                   help="read the boards with the corners found automatically, not the truth's")
    p.add_argument("--condition", help="put every frame under this camera or room condition first: jpeg50, noise, "
                                       "warm, dim, defocus, vignette, barrel or phone (vision.conditions)")
    p.add_argument("--corner-noise", type=float, metavar="SHARE",
                   help="give the truth's corners this far off, as clicked by hand: Gaussian on each coordinate, "
                        "SHARE of the field's diagonal (e.g. 0.01)")
    p.add_argument("--exact-corners", action="store_true",
                   help="read with the corners as given only, as recognize --exact-corners")
    p.set_defaults(func=_eval)

    p = subparsers.add_parser("train-vision", help="train a recognizer network on rendered data (needs torch)")
    p.add_argument("stage", choices=(*CROP_TASKS, "dice", "corners"),
                   help="mixed: the mixed-stack network, on renders made with `synth images --fouls`; trays: "
                        "the tray network, on renders made with `synth images --bear-off`")
    p.add_argument("dirs", nargs="+")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    p.add_argument("--samples", type=int, default=25600, help="crops per epoch (checkers, mixed, trays)")
    p.add_argument("--defocus", type=float, default=0.3, metavar="SHARE",
                   help="share of the training crops blurred as by a lens out of focus (checkers, mixed, trays)")
    p.add_argument("--init", help="start from this checkpoint's weights, or from an ONNX export's: "
                        "models/checkers.onnx; for dice, models/dice.onnx stands for models/dice_finder.onnx "
                        "and models/dice_reader.onnx")
    p.add_argument("--net", choices=("small", "wide"),
                   help="the network's size: checker, mixed-stack or tray (vision.train.CHECKER_NETS; default wide), "
                        "dice reader (vision.train.READER_NETS; default small)")
    p.add_argument("--threads", type=int, default=1, help="torch threads (dice, corners)")
    p.add_argument("--train-on", choices=("auto", "cpu", "cuda"), default="auto",
                   help="where the dice networks train: auto is a CUDA GPU where torch sees one")
    p.add_argument("--workers", type=int, default=2, help="processes cutting a data set's crops the first time (dice)")
    p.add_argument("--only", choices=("finder", "reader", "refiner"),
                   help="dice (finder, reader), corners (finder, refiner): train this network alone, the "
                        "other as loaded from --init")
    p.add_argument("--out")
    p.set_defaults(func=_train)
