"""Evaluation of the recognizer on a rendered test set: figures, a confusion matrix and an error map.

``evaluate(directory)`` runs the recognizer on every frame of a ``gammoncam synth images``
directory with the truth's field corners (or finds them, with ``auto_corners``) and compares the
best reading with the truth's recognizer form:

- per-point accuracy over the 24 points (colour and count both right), bar and off accuracy;
- whole-board exact rate (24 points, bar and off all right);
- dice (the two values and whether the throw counts) and cube (value and location), over the
  frames that have them, when those stages are installed;
- milliseconds per frame (median and 90th percentile, decoding excluded);
- the dice reader's reliability: every face of each die found on a true die, binned by the
  probability the reader gave it, against how often it was the die's top face (the measurement
  behind :data:`vision.dice.FACE_CALIBRATION`);
- every figure also over the frames with no hand over the board;
- the corner finder alone (:func:`corner_accuracy`): pixel error against the truth's corners,
  the share of frames within 1% and 2% of the image diagonal, failures, milliseconds.

It writes ``report.json``, ``confusion.png`` (true count against read count, colour errors
apart) and ``error_map.png`` (error rate of every location on a drawing of the board).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.checkers import CLASSES, LOCATIONS, class_of, mixed_labels
from vision.rectify import Field


def _frames(directory: Path):
    for truth_path in sorted((directory / "truth").glob("*.json")):
        yield truth_path.stem, truth_path, directory / "images" / f"{truth_path.stem}.jpg"


def _load(truth_path: Path, image_path: Path, condition: str | None = None, index: int = 0) -> tuple[dict, np.ndarray]:
    """A frame's truth and image, both put under ``condition`` (:mod:`vision.conditions`) if given."""
    truth = json.loads(truth_path.read_text())
    image = cv2.imread(str(image_path))
    if condition is not None:
        from vision.conditions import apply

        image, truth = apply(condition, image, truth, np.random.default_rng(index))
    return truth, image


def evaluate(directory: Path, out: Path | None = None, limit: int | None = None, recognizer=None,
             progress: bool = True, auto_corners: bool = False, condition: str | None = None,
             corner_noise: float = 0.0, refit: bool = True) -> dict:
    """Measure the recognizer on ``directory``; write the report and pictures into ``out``.
    ``condition``: each frame first put under that camera or room condition (:mod:`vision.conditions`).

    The truth's corners are given as a user gives them (``refit``: re-fitted and checked,
    :class:`vision.recognize.Recognizer`), ``corner_noise`` of the field's diagonal off as a
    hand clicks them (Gaussian on each coordinate, seeded by the frame's index).

    With ``auto_corners`` the field's corners are found (:meth:`vision.recognize.Recognizer.find_board`)
    and turned to the truth's order as the opening calibration would (:func:`match_turn`); a
    frame where none are found counts as read wrong everywhere."""
    from vision.recognize import Recognizer

    rec = recognizer or Recognizer()
    frames = list(_frames(directory))[:limit]
    if not frames:
        raise FileNotFoundError(f"no truth/*.json under {directory}")
    n_loc = len(LOCATIONS)
    errors = np.zeros(n_loc)
    confusion = np.zeros((len(CLASSES), len(CLASSES)), np.int64)
    rows = []
    for index, (name, truth_path, image_path) in enumerate(tqdm(frames, desc="evaluating", unit="frame",
                                                               disable=not progress)):
        truth, image = _load(truth_path, image_path, condition, index)
        corners = np.array(truth["field"])
        if corner_noise:
            diagonal = float(np.linalg.norm(corners[2] - corners[0]))
            corners = corners + np.random.default_rng(index).normal(0, corner_noise * diagonal, corners.shape)
        if auto_corners:
            found = rec.find_board(image)
            if found is None:
                rows.append(_unread(name, truth, rec))
                errors += 1
                continue
            corners = np.roll(found, -match_turn(found, corners)[0], axis=0)
        # the thrower, as the tracker knows it, whose half a backgammon throw must lie in (RULES 2.3);
        # corners found were refined already
        thrower = truth["mover"] if truth["variant"] == "backgammon" else None
        obs = rec(image, corners, mover=thrower, refit=refit and not auto_corners)
        got, want = obs.best(), truth["recognized"]
        field = Field(obs.extra["corners"], obs.extra["bar_share"])
        size = image.shape[1], image.shape[0]
        wrong = []
        for i, (kind, which) in enumerate(LOCATIONS):
            if kind == "bar":
                t, p = class_of(which, want["bar"][which]), class_of(which, got["bar"][which])
            else:
                t, p = class_of(*want[kind][which]), class_of(*got[kind][which])
            confusion[t, p] += 1
            if t != p:
                errors[i] += 1
                wrong.append(i)
        off_ok = got["off"] == want["off"]
        row = {"frame": name, "wrong": wrong, "points_wrong": sum(1 for i in wrong if i < 24),
               "bar_wrong": sum(1 for i in wrong if i >= 24), "off_ok": off_ok,
               "board_exact": not wrong and off_ok, "ms": obs.extra["ms"],
               "hands": bool(truth["hands_cover_board"]), "variant": truth["variant"],
               "refitted": obs.extra["refitted"], "borne_off": any(want["off"].values())}
        if rec.extras:
            row["dice_ok"] = got["dice"] == want["dice"] or sorted(got["dice"]) == sorted(want["dice"])
            row["throw_ok"] = row["dice_ok"] and got["throw_valid"] == want["throw_valid"]
            row["has_dice"] = bool(want["dice"])
            row["die_px"] = smallest_die_px(truth)
            row["dice_read"] = dice_readings(truth, obs, field)
            if not row["dice_ok"]:
                row["dice_why"] = why_wrong(truth, "die", [d["uv"] for d in obs.dice], field, size)
        row["cube_ok"] = got["cube"] == want["cube"]
        if not row["cube_ok"]:
            row["cube_why"] = why_wrong(truth, "cube", [] if obs.cube is None else [obs.cube["uv"]], field, size)
        row["has_cube"] = want["cube"] is not None
        if obs.mixed is not None:
            mixed = mixed_labels(truth).astype(bool)
            row["mixed"] = {"stacks": [round(float(p), 6) for p in obs.mixed[mixed]],
                            "others": [round(float(p), 6) for p in obs.mixed[~mixed] if p >= 0.01]}
        rows.append(row)
    report = {"directory": str(directory), "condition": condition, "corner_noise": corner_noise,
              "corners_refitted": sum(r.get("refitted", False) for r in rows),
              "frames": len(rows), "all": summary(rows),
              "no_hands": summary([r for r in rows if not r["hands"]]),
              "by_variant": {v: summary([r for r in rows if r["variant"] == v]) for v in ("backgammon", "long")},
              "location_error_rate": {f"{k}:{w}": round(float(e / len(rows)), 5)
                                      for (k, w), e in zip(LOCATIONS, errors)}}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "report.json").write_text(json.dumps(report, indent=1))
        (out / "frames.json").write_text(json.dumps(rows))
        cv2.imwrite(str(out / "confusion.png"), draw_confusion(confusion))
        cv2.imwrite(str(out / "error_map.png"), draw_error_map(errors / len(rows)))
        np.save(out / "confusion.npy", confusion)
    return report


# Throws binned by their smaller die's width in the frame: pips under a few pixels cannot be read,
# so a user is told how large the dice must appear (a tournament board at 1280x720 shows 20-30 px).
DIE_SIZES = (("under 14 px", 0, 14), ("14-18 px", 14, 18), ("18 px and more", 18, 10 ** 6))


def smallest_die_px(truth: dict) -> float | None:
    """The longer side, in the frame's pixels, of the smaller die a render shows, or None."""
    sides = [max(o["box"][2] - o["box"][0], o["box"][3] - o["box"][1]) for o in truth.get("objects", [])
             if o["class"].startswith("die") and o.get("box")]
    return round(min(sides), 1) if sides else None


def dice_readings(truth: dict, obs, field) -> list:
    """[the reader's own probabilities of 1..6, the true face, cocked] for each die read on one
    of the truth's dice (false finds are left out: what is binned is how far a reading of a real
    die can be trusted)."""
    from vision import dice

    true = dice.targets(truth, field)[0]
    out = []
    for d in obs.dice:
        near = min(true, key=lambda t: np.hypot(*(np.asarray(d["uv"]) - t[0])), default=None)
        if near is not None and np.hypot(*(np.asarray(d["uv"]) - near[0])) < 0.03:
            how, face = dice.READINGS[near[1]]
            out.append([np.round(d["read"], 6).tolist(), face, how == "cocked"])
    return out


def why_wrong(truth: dict, kind: str, found: list, field, size: tuple) -> str:
    """Why a frame's dice (``kind`` "die") or cube ("cube") were read wrong, given the field
    points of what was ``found`` and the frame's ``size`` (width, height): the first that holds
    of ``out of sight`` (one of them under a hand, less than half in sight, or cut by the
    frame's edge: no reader could tell its face), ``not found`` (one in sight with no find on
    it), ``false find`` (a find where there is none), ``misread``. (A frame whose board was not
    found says ``board not found``.)"""
    from vision import dice

    dice_places, cube_places = dice.targets(truth, field)
    true = [uv for uv, _ in (dice_places if kind == "die" else cube_places)]
    wanted = len(truth["recognized"]["dice"]) if kind == "die" else int(truth["recognized"]["cube"] is not None)
    w, h = size
    shown = [o for o in truth["objects"] if o["class"].startswith(kind) and o["box"] is not None]
    cut = [o["visible"] < 0.5 or min(o["box"][:2]) <= 0.5 or o["box"][2] >= w - 0.5 or o["box"][3] >= h - 0.5
           for o in shown]
    found = [np.asarray(uv) for uv in found]
    if len(true) < wanted or any(cut):
        return "out of sight"
    if any(all(np.hypot(*(f - t)) >= 0.03 for f in found) for t in true):
        return "not found"
    if any(all(np.hypot(*(f - t)) >= 0.03 for t in true) for f in found):
        return "false find"
    return "misread"


def reliability(rows: list, ruled_out: float = 0.002) -> dict:
    """Every face of every die read, binned as :data:`vision.dice.FACE_CALIBRATION` is (dice read
    surely and not apart), with how many were the die's top face; the dice read wrong; and the
    dice whose true face the calibrated reading gives less than ``ruled_out`` (flat and cocked
    apart): with the other die read right, their true roll is less likely than the tracker's
    floor (``gammoncam.readings.MISREAD_FLOOR``), so a legal play of it could be called."""
    from vision.dice import FACE_CALIBRATION, SURE_DIE, honest

    reads = [r for row in rows for r in row.get("dice_read", [])]
    out = {"dice": len(reads), "wrong": 0, "true_face_ruled_out": {"flat": 0, "cocked": 0}}
    edges, bins = {}, {}
    for kind, table in FACE_CALIBRATION.items():
        edges[kind] = [lo for lo, _ in table] + [1.0 + 1e-9]
        bins[kind] = [{"read": [lo, min(hi, 1.0)], "faces": 0, "true": 0} for lo, hi in zip(edges[kind], edges[kind][1:])]
    for faces, face, cocked in reads:
        raw = np.asarray(faces, np.float64) / max(float(np.sum(faces)), 1e-12)
        kind = "sure" if raw.max() >= SURE_DIE else "unsure"
        for k, q in enumerate(raw):
            b = bins[kind][int(np.searchsorted(edges[kind], q, side="right")) - 1]
            b["faces"] += 1
            b["true"] += k + 1 == face
        out["wrong"] += int(np.argmax(raw)) + 1 != face
        if honest(raw)[face - 1] < ruled_out:
            out["true_face_ruled_out"]["cocked" if cocked else "flat"] += 1
    out["bins"] = bins
    return out


def _unread(name: str, truth: dict, rec) -> dict:
    """The row of a frame whose board was not found: every location wrong."""
    row = {"frame": name, "wrong": list(range(len(LOCATIONS))), "points_wrong": 24, "bar_wrong": 2,
           "off_ok": False, "board_exact": False, "ms": None, "hands": bool(truth["hands_cover_board"]),
           "variant": truth["variant"], "unread": True, "cube_ok": False,
           "has_cube": truth["recognized"]["cube"] is not None, "cube_why": "board not found"}
    if rec.extras:
        row.update(dice_ok=False, throw_ok=False, has_dice=bool(truth["recognized"]["dice"]),
                   die_px=smallest_die_px(truth), dice_why="board not found")
    return row


def _share(flags: list) -> str:
    """``right/all`` of ``flags``."""
    return f"{sum(flags)}/{len(flags)}"


def summary(rows: list) -> dict:
    """The figures over ``rows`` (one per frame)."""
    if not rows:
        return {"frames": 0}
    n = len(rows)
    ms = [r["ms"] for r in rows if r["ms"] is not None] or [0.0]
    out = {"frames": n,
           "point_accuracy": round(1 - sum(r["points_wrong"] for r in rows) / (24 * n), 6),
           "point_errors": sum(r["points_wrong"] for r in rows),
           "bar_accuracy": round(1 - sum(r["bar_wrong"] for r in rows) / (2 * n), 6),
           "off_accuracy": round(sum(r["off_ok"] for r in rows) / n, 6),
           # frames with checkers borne off (the trays hold some): both sides' counts right, whole boards
           "off_accuracy_borne_off": _share([r["off_ok"] for r in rows if r.get("borne_off")]),
           "board_exact_borne_off": _share([r["board_exact"] for r in rows if r.get("borne_off")]),
           "board_exact": round(sum(r["board_exact"] for r in rows) / n, 6),
           "ms_median": round(float(np.median(ms)), 2),
           "ms_p90": round(float(np.percentile(ms, 90)), 2)}
    if any(r.get("unread") for r in rows):
        out["board_not_found"] = round(sum(bool(r.get("unread")) for r in rows) / n, 6)
    if "dice_ok" in rows[0]:
        with_dice = [r for r in rows if r["has_dice"]]
        out["dice_accuracy"] = round(sum(r["dice_ok"] for r in rows) / n, 6)
        out["dice_accuracy_thrown"] = round(sum(r["dice_ok"] for r in with_dice) / max(1, len(with_dice)), 6)
        out["throw_accuracy"] = round(sum(r["throw_ok"] for r in rows) / n, 6)
        out["dice_accuracy_by_size"] = {
            name: f"{sum(r['dice_ok'] for r in bucket)}/{len(bucket)}"
            for name, low, high in DIE_SIZES
            for bucket in [[r for r in with_dice if r.get("die_px") is not None and low <= r["die_px"] < high]]}
        out["dice_wrong_why"] = dict(Counter(r["dice_why"] for r in rows if "dice_why" in r).most_common())
        out["dice_reliability"] = reliability(rows)
    if any("mixed" in r for r in rows):
        out["mixed_stacks"] = mixed_summary(rows)
    with_cube = [r for r in rows if r["has_cube"]]
    out["cube_accuracy"] = round(sum(r["cube_ok"] for r in rows) / n, 6)
    out["cube_accuracy_present"] = round(sum(r["cube_ok"] for r in with_cube) / max(1, len(with_cube)), 6)
    out["cube_wrong_why"] = dict(Counter(r["cube_why"] for r in rows if "cube_why" in r).most_common())
    return out


MIXED_LEVELS = (0.5, 0.99, 0.9999)


def mixed_summary(rows: list) -> dict:
    """How the mixed-stack network did: the stacks of both colours read mixed, and the other
    locations (one colour or empty) read mixed, at each probability of :data:`MIXED_LEVELS`."""
    rows = [r for r in rows if "mixed" in r]  # not a frame whose board was not found
    stacks = [p for r in rows for p in r["mixed"]["stacks"]]
    others = [p for r in rows for p in r["mixed"]["others"]]
    locations = len(rows) * len(LOCATIONS) - len(stacks)
    return {"stacks": len(stacks), "locations_of_one_colour": locations,
            **{f"found_at_{level}": sum(p >= level for p in stacks) for level in MIXED_LEVELS},
            **{f"false_at_{level}": sum(p >= level for p in others) for level in MIXED_LEVELS}}


def draw_confusion(confusion: np.ndarray, cell: int = 22) -> np.ndarray:
    """The 31x31 confusion matrix (rows: truth, columns: read), log-shaded, counts printed."""
    n = confusion.shape[0]
    pad = 70
    img = np.full((pad + n * cell + 10, pad + n * cell + 10, 3), 255, np.uint8)
    norm = np.log1p(confusion) / max(1e-9, np.log1p(confusion.max()))
    labels = ["0"] + [f"L{k}" for k in range(1, 16)] + [f"D{k}" for k in range(1, 16)]
    for i in range(n):
        for j in range(n):
            x, y = pad + j * cell, pad + i * cell
            v = norm[i, j]
            colour = (255, int(255 * (1 - v)), int(255 * (1 - v))) if i == j else (
                int(255 * (1 - v)), int(255 * (1 - v)), 255)
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
            if confusion[i, j] and i != j:
                cv2.putText(img, str(confusion[i, j]), (x + 2, y + 15), cv2.FONT_HERSHEY_PLAIN, 0.75, (0, 0, 0), 1)
        cv2.putText(img, labels[i], (4, pad + i * cell + 15), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
        cv2.putText(img, labels[i], (pad + i * cell + 1, pad - 6), cv2.FONT_HERSHEY_PLAIN, 0.6, (0, 0, 0), 1)
    cv2.putText(img, "truth (rows) vs read (columns)", (4, 16), cv2.FONT_HERSHEY_PLAIN, 1.0, (0, 0, 0), 1)
    return img


def draw_error_map(rate: np.ndarray) -> np.ndarray:
    """A board drawn from light's seat, each point and bar half shaded and labelled by its error rate."""
    pw, ph, bw = 60, 240, 60
    w, h = 12 * pw + bw + 20, 2 * ph + 80
    img = np.full((h, w, 3), 255, np.uint8)
    top = 40

    top_rate = max(0.02, float(rate.max()))

    def shade(r):
        v = min(1.0, r / top_rate)  # full red at the worst location (or 2%, if all are better)
        return (int(255 * (1 - v)), int(255 * (1 - v)), 255)

    for i, (kind, which) in enumerate(LOCATIONS):
        if kind == "bar":
            x0 = 10 + 6 * pw
            y0 = top + (ph if which == "light" else 0)
            cv2.rectangle(img, (x0, y0), (x0 + bw, y0 + ph), shade(rate[i]), -1)
            cv2.putText(img, f"{100 * rate[i]:.1f}", (x0 + 4, y0 + ph // 2), cv2.FONT_HERSHEY_PLAIN, 1, (0, 0, 0), 1)
            continue
        x0 = 10 + which * pw + (bw if which >= 6 else 0)
        if kind == "top":
            tri = np.array([[x0, top], [x0 + pw, top], [x0 + pw // 2, top + ph - 20]])
            ty = top + 30
        else:
            tri = np.array([[x0, top + 2 * ph], [x0 + pw, top + 2 * ph], [x0 + pw // 2, top + ph + 20]])
            ty = top + 2 * ph - 20
        cv2.fillPoly(img, [tri.astype(np.int32)], shade(rate[i]))
        cv2.polylines(img, [tri.astype(np.int32)], True, (0, 0, 0), 1)
        cv2.putText(img, f"{100 * rate[i]:.1f}", (x0 + 8, ty), cv2.FONT_HERSHEY_PLAIN, 1, (0, 0, 0), 1)
    cv2.rectangle(img, (10, top), (w - 10, top + 2 * ph), (0, 0, 0), 1)
    cv2.putText(img, "error rate per location, % of frames (light's seat at the bottom)", (10, 24),
                cv2.FONT_HERSHEY_PLAIN, 1.1, (0, 0, 0), 1)
    return img


def corner_refinement(directory: Path, noise_px: float = 3.0, limit: int | None = None, seed: int = 0) -> dict:
    """Error in pixels of :func:`vision.corners.refine` started from the true field corners moved
    by Gaussian noise of ``noise_px`` (as a user's clicks), before and after refinement."""
    from vision.corners import refine

    rng = np.random.default_rng(seed)
    before, after = [], []
    for name, truth_path, image_path in list(_frames(directory))[:limit]:
        truth = json.loads(truth_path.read_text())
        image = cv2.imread(str(image_path))
        true = np.array(truth["field"])
        clicked = true + rng.normal(0, noise_px, true.shape)
        got = refine(image, clicked)
        before += np.linalg.norm(clicked - true, axis=1).tolist()
        after += np.linalg.norm(got - true, axis=1).tolist()
    return {"frames": len(before) // 4, "click_noise_px": noise_px,
            "clicked_median_px": round(float(np.median(before)), 3),
            "refined_median_px": round(float(np.median(after)), 3),
            "refined_p90_px": round(float(np.percentile(after, 90)), 3)}


def calibration_check(n: int = 20, seed: int = 777, recognizer=None) -> dict:
    """Calibrate on ``n`` rendered opening positions (both variants, new boards), corners given
    turned half round on every other frame: how often the calibration is accepted, how often it
    finds the right corner order, and how often a frame that is *not* the opening is rejected as
    one (``in_play=False``: a game in progress is calibrated otherwise, :func:`vision.adapt.calibrate`)."""
    from vision.adapt import calibrate
    from vision.layout import Physical, start_board
    from vision.recognize import Recognizer
    from vision.synth.render import Stage
    from vision.synth.scene import Content, random_board

    rec = recognizer or Recognizer()
    accepted = right_order = rejected_other = 0
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        variant = ("backgammon", "long")[i % 2]
        stage = Stage(rng, variant, (1280, 720))
        image, truth = stage.render(Content(Physical.from_board(start_board(variant), "light"), "light"))
        field = np.array(truth["field"])
        given = np.roll(field, 2, axis=0) if i % 4 >= 2 else field
        cal = calibrate(image, given, variant, rec.checker_model)
        accepted += cal.accepted
        right_order += bool(np.abs(cal.corners - field).max() < 1e-6)
        other, _ = stage.render(Content(Physical.from_board(random_board(rng, variant), "light"), "light"))
        rejected_other += not calibrate(other, field, variant, rec.checker_model, in_play=False).accepted
    return {"frames": n, "accepted": accepted / n, "right_corner_order": right_order / n,
            "non_opening_rejected": rejected_other / n}


def match_turn(found: np.ndarray, true: np.ndarray) -> tuple[int, np.ndarray]:
    """The turn ``k`` of the found corner order (``np.roll(found, -k)``) nearest the true order, and
    the four corners' errors in pixels under it. The finder leaves which long edge is which to
    the opening position (:mod:`vision.orientation`), so it is judged up to that choice."""
    errs = [np.linalg.norm(np.roll(found, -k, axis=0) - true, axis=1) for k in range(4)]
    k = int(np.argmin([e.max() for e in errs]))
    return k, errs[k]


def corner_accuracy(directory: Path, limit: int | None = None, finder=None, progress: bool = True,
                    condition: str | None = None) -> dict:
    """How well :func:`vision.corners.find_corners` finds the field on ``directory``'s frames.

    Per corner: median and 90th-percentile error in pixels and in shares of the image diagonal
    (under the best turn of the order, see :func:`match_turn`); per frame: the share whose worst
    corner is within 1% and 2% of the diagonal, the share where nothing was found (failures
    count as outside both), the share whose long edges were told right (the turn is 0 or 2), and
    the milliseconds it took (median, 90th percentile). The same for the finder's coarse corners."""
    import time

    from vision.corners import CornerFinder

    finder = finder or CornerFinder()
    frames = list(_frames(directory))[:limit]
    rows = []
    for index, (name, truth_path, image_path) in enumerate(tqdm(frames, desc="corners", unit="frame",
                                                               disable=not progress)):
        truth, image = _load(truth_path, image_path, condition, index)
        true = np.array(truth["field"], np.float64)
        diag = float(np.hypot(*image.shape[:2]))
        t0 = time.perf_counter()
        coarse = next(iter(finder.coarse(image)), None)
        found = None if coarse is None else finder.refined(image, coarse)
        ms = (time.perf_counter() - t0) * 1000
        row = {"frame": name, "diag": diag, "ms": ms, "hands": bool(truth["hands_cover_board"]),
               "found": found is not None}
        if found is not None:
            turn, err = match_turn(found, true)
            row.update(turn=turn, err=err.tolist(), coarse_err=match_turn(coarse, true)[1].tolist(),
                       corners=np.round(found, 3).tolist())
        rows.append(row)
    report = {"directory": str(directory), "all": corner_summary(rows),
              "no_hands": corner_summary([r for r in rows if not r["hands"]])}
    report["rows"] = rows
    return report


def corner_summary(rows: list) -> dict:
    """The corner figures over ``rows`` (see :func:`corner_accuracy`)."""
    if not rows:
        return {"frames": 0}
    ok = [r for r in rows if r["found"]]
    out = {"frames": len(rows), "failure_rate": round(1 - len(ok) / len(rows), 4),
           "ms_median": round(float(np.median([r["ms"] for r in rows])), 2),
           "ms_p90": round(float(np.percentile([r["ms"] for r in rows], 90)), 2)}
    if not ok:
        return out
    for key, label in (("err", ""), ("coarse_err", "coarse_")):
        px = np.concatenate([r[key] for r in ok])
        rel = np.concatenate([np.array(r[key]) / r["diag"] for r in ok])
        worst = np.array([max(r[key]) / r["diag"] for r in ok])
        out.update({f"{label}median_px": round(float(np.median(px)), 3),
                    f"{label}p90_px": round(float(np.percentile(px, 90)), 3),
                    f"{label}median_diag": round(float(np.median(rel)), 5),
                    f"{label}within_1pct": round(float((worst <= 0.01).sum() / len(rows)), 4),
                    f"{label}within_2pct": round(float((worst <= 0.02).sum() / len(rows)), 4)})
    out["long_edges_right"] = round(sum(r["turn"] % 2 == 0 for r in ok) / len(ok), 4)
    return out
