"""Dice and the doubling cube: found on a top-down view of the board, then read from a close crop.

Two small networks, both on images cut in field coordinates (:mod:`vision.rectify`):

1. *Finder*: a 320x320 top-down view of the field and its surroundings (rails and trays, where
   an off-board die or an owned cube lies) to two heat maps at a quarter of that size, one for
   die centres and one for the cube's centre. A die spans about 17 view pixels: enough to tell
   it from a checker's rim, which a coarser view could not.
2. *Reader*: a 40x40 crop round each found centre, taken from the full-resolution frame, to one
   of 19 readings: a flat die showing 1..6, a cocked die whose top shows 1..6, the cube showing
   2..64, or nothing (a false find).

Of more than two finds read as dice, the throw's two are the likeliest dice, those whose faces
read surely and those on the board first (:func:`the_throw`). Validity (RULES 2.3) follows from
where and how the dice lie: both flat, both standing in the field (where they stand, not where
their middles are seen: :meth:`vision.rectify.Field.beneath`), in the same half (and, in
backgammon when the thrower is known, the thrower's right-hand half: the right for light, the
left for dark; in long nardy either half counts). The cube shows 64 when its value is 1 (RULES
5.1): a 64 in the middle is read as value 1 in the middle; its location is the middle when it
lies within the middle fifth of the field's height, else the side of the player it is nearer.

>>> READINGS[0], READINGS[6], READINGS[12], READINGS[18]
(('die', 1), ('cocked', 1), ('cube', 2), ('none', 0))
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.observation import CUBE_LOCATIONS, CUBE_VALUES
from vision.rectify import ASPECT, Field, quad

VIEW = quad(-0.12, 1.14, -0.32, 1.32)  # renders put dice and cube within u -0.07..1.12, v -0.27..1.26
VIEW_SIZE = 320
STRIDE = 4
CROP = 40
CROP_U = 0.11  # a reading crop's side in u (about 1.6 checkers)
# How high a die's middle stands above the field, in field widths (a die is about half a checker
# across). The finder marks a die's middle as seen, which an oblique camera sees beyond where the
# die stands: a die resting by the far rail was seen off the field (vid 8207, a false re-roll call).
DIE_MIDDLE = 0.02
READINGS = ([("die", n) for n in range(1, 7)] + [("cocked", n) for n in range(1, 7)]
            + [("cube", v) for v in (2, 4, 8, 16, 32, 64)] + [("none", 0)])
MODELS = Path(__file__).resolve().parent.parent / "models"
MODEL = MODELS / "dice_finder.onnx"
READER = MODELS / "dice_reader.onnx"
FIND = 0.04  # the finder's heat above which a place is read (and a die kept only as below)
APART = 8  # view pixels (0.03 u): two finds closer than that are one object
# How many places of each heat map are read, the hottest first: dice, cube. The dice's map heats
# the cube, rails and point tips too, and a die faint to the finder (red on a red point) may come
# after five of them: vid 9950 (854x480), light's second 2 was the seventh place, at 0.07, read
# "a die" at 0.996, and never read with five. With eight, on 39 videos' dice at rest 9,943 ->
# 9,949 found; on the 1,400 test and calibration renders one throw more right, none less.
PLACES = (8, 3)
PRESENT = 0.12  # heat times the reader's "a die" at least this: a die (on renders this keeps 98.8%
# of true dice and drops half of the false finds, e.g. a checker's rim read as a die off the board)
# Likewise for the cube (heat times the reader's "a cube"): on the 1,000 calibration renders this
# drops 18 of the 39 frames' false cubes (name plates, rails, dark checkers) and no true cube.
CUBE_PRESENT = 0.15
# A find the reader reads as a cube this surely is the cube though the finder's heat is faint (at
# least FAINT_CUBE times the reader's "a cube"): a black cube at the end of a dark bar (vid 9812)
# came to 0.06-0.15 and was missed for four turns, its double recorded that late. On 1,032 settled
# frames without a hand from the 86 watch-suite videos: cubes found 991 -> 1,005 of 1,023 in
# view, no more false ones; on the 1,400 test and calibration renders one more false cube.
SURE_CUBE = 0.95
FAINT_CUBE = 0.06
# A find the reader reads as a die this surely is a die however faint the finder's heat (above
# FIND): the finder is faint on some boards' dice (vid 8403: red dice on a blue field, heat
# 0.06-0.12, read 0.996), and a throw whose dice went unfound mid-turn was taken for picked up
# (a false too-few-dice call there) or, unseen, for a throw in the wrong half (a false re-roll
# call). On the 1,550 test and calibration renders: 2 more throws read right, no false die.
SURE_READ = 0.99
# A find read as a die (heat times the reader's "a die") this strongly, but under PRESENT, is not
# a die to read, yet it tells that dice lying there are still on view, not picked up
# (:meth:`gammoncam.readings.DiceReading.found_faintly`): vid 7116 (854x480, dice 18 px), dark's
# 2-1 in mid-play scored 0.10 and 0.06 at one settle (heat 0.15-0.24 at the looks around it); taken
# for picked up, the half-made play was recorded and the rest of it called a foul.
FAINT_DIE = 0.05
# What a find off the board weighs against one on it when more than two are read as dice
# (:func:`the_throw`): half. On the 96 of the 1,400 test and calibration renders with more than two
# finds, the two kept hold as many true dice as the finds do on 92 (91 by score alone, 92 by score
# and face without this, 88 with the finds on the board always first, which lost test frame 258's
# die off the board). Without it vid 9941's true die would stay ahead of the trinket by only
# 0.216 to 0.187.
OFF_BOARD = 0.5
# How often a face the reader gave a probability in [lower edge, next edge) was the die's top face,
# on dice read at SURE_DIE or surer ("sure") and on the others ("unsure"): every face of every
# die found on a true die (cocked ones too) of 1,000 renders not used in training (`synth images
# --n 1000 --seed 7001`; `gammoncam eval-vision`, "dice_reliability"), each as (true + 1) /
# (faces + 2) so that no bin is taken as never right or never wrong. The reader was trained with
# label smoothing, so its surest readings top out near 0.98 and the thousandths it leaves the
# other faces say little: on a sure die a face under 0.02 was the top face 3 times in 6,305 (all
# on cocked dice). On an unsure die such a face was never the top face (0 of 185), but it is taken
# as 0.0147 likely, as for the reader before this one (2 of 202, one flat die read 0.66 under a
# hand): no face of a die read unsurely is ruled out for a call (gammoncam.readings.ROLL_SEEN). The
# 0.02-0.05 and 0.05-0.8 bins of a sure die are pooled (7 of 200): apart they came out 0.040 and
# 0.036, out of order.
SURE_DIE = 0.8
# The cube's faces 2..64 as the renderer owns them (`vision.synth.scene`; a cube is redoubled
# high seldom), and the face share the reader was trained on: 55% of cubes lie in the middle
# showing 64 (RULES 5.1), the rest owned. The reader learned that 64 is half of all cubes, but a
# cube at a player's side shows 64 only when owned at 64: there its faces are weighed by the
# owned share over the trained one (on 400 test renders six of the ten cube faces misread at a
# side without a hand were read 64).
OWNED_CUBE = np.array([0.4, 0.25, 0.15, 0.1, 0.06, 0.04])
MIDDLE_SHARE = 0.55
AT_A_SIDE = OWNED_CUBE / ((1 - MIDDLE_SHARE) * OWNED_CUBE + MIDDLE_SHARE * np.eye(6)[5])
FACE_CALIBRATION = {
    "sure": ((0.0, 0.00063), (0.02, 0.035), (0.05, 0.035), (0.8, 0.9), (0.9, 0.972), (0.98, 0.996), (0.99, 0.9987)),
    "unsure": ((0.0, 0.0147), (0.02, 0.023), (0.05, 0.068), (0.1, 0.176), (0.3, 0.445), (0.6, 0.82)),
}


def view(image: np.ndarray, field: Field) -> np.ndarray:
    """The finder's top-down view of the board and its surroundings."""
    return field.crop(image, VIEW, (VIEW_SIZE, VIEW_SIZE))


def view_to_field(xy) -> np.ndarray:
    """Pixels of the view to field coordinates."""
    xy = np.asarray(xy, np.float64)
    (u0, v0), (u1, v1) = VIEW[0], VIEW[2]
    return np.c_[u0 + xy[..., 0] / VIEW_SIZE * (u1 - u0), v0 + xy[..., 1] / VIEW_SIZE * (v1 - v0)]


def field_to_view(uv) -> np.ndarray:
    uv = np.asarray(uv, np.float64).reshape(-1, 2)
    (u0, v0), (u1, v1) = VIEW[0], VIEW[2]
    return np.c_[(uv[:, 0] - u0) / (u1 - u0) * VIEW_SIZE, (uv[:, 1] - v0) / (v1 - v0) * VIEW_SIZE]


def reading_crop(image: np.ndarray, field: Field, uv, jitter: np.random.Generator | None = None) -> np.ndarray:
    """The reader's square crop centred on field point ``uv``."""
    u, v = uv
    s = CROP_U / 2
    if jitter is not None:
        u, v = u + jitter.normal(0, 0.008), v + jitter.normal(0, 0.008)
        s *= jitter.uniform(0.9, 1.1)
    sv = s / ASPECT
    return field.crop(image, quad(u - s, u + s, v - sv, v + sv), (CROP, CROP))


def crop_px(field: Field, uv) -> float:
    """How many of the frame's pixels the reading crop at field point ``uv`` spans across: the
    resolution a die there is read at (a die is about half of it across).

    >>> field = Field(np.array([[100.0, 100.0], [900.0, 100.0], [900.0, 620.0], [100.0, 620.0]]))
    >>> round(crop_px(field, (0.5, 0.5)), 1)  # 800 px across the field, CROP_U of it
    88.0
    """
    u, v = uv
    left, right = field.to_image([[u - CROP_U / 2, v], [u + CROP_U / 2, v]])
    return float(np.hypot(*(right - left)))


def targets(truth: dict, field: Field) -> tuple[list, list]:
    """Field centres of the truth's dice (with their readings) and of its cube."""
    dice, cube = [], []
    for obj in truth["objects"]:
        name = obj["class"]
        if obj["box"] is None or not name.startswith(("die", "cube")):
            continue
        x0, y0, x1, y1 = obj["box"]
        uv = field.to_field([[(x0 + x1) / 2, (y0 + y1) / 2]])[0]
        if name.startswith("die"):
            cocked = name == "die_cocked"
            dice.append((uv, READINGS.index(("cocked" if cocked else "die", obj["value"]))))
        else:
            cube.append((uv, READINGS.index(("cube", int(name.split("_")[1])))))
    return dice, cube


def heatmaps(dice: list, cube: list, sigma: float = 1.5) -> np.ndarray:
    """(2, h, w) Gaussian targets at the finder's output resolution."""
    n = VIEW_SIZE // STRIDE
    out = np.zeros((2, n, n), np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    for ch, items in enumerate((dice, cube)):
        for uv, _ in items:
            x, y = field_to_view(uv)[0] / STRIDE - 0.5
            out[ch] = np.maximum(out[ch], np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * sigma ** 2)))
    return out


def peaks(heat: np.ndarray, threshold: float, k: int) -> list:
    """Up to ``k`` local maxima of ``heat`` above ``threshold``: (score, x, y) in view pixels."""
    dil = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= dil) & (heat > threshold))
    found = sorted(((float(heat[y, x]), x, y) for y, x in zip(ys, xs)), reverse=True)[:k]
    out = []
    for s, x, y in found:
        # sub-cell centre from the 3x3 neighbourhood
        y0, y1, x0, x1 = max(0, y - 1), min(heat.shape[0], y + 2), max(0, x - 1), min(heat.shape[1], x + 2)
        w = heat[y0:y1, x0:x1]
        gy, gx = np.mgrid[y0:y1, x0:x1]
        cx, cy = (gx * w).sum() / w.sum(), (gy * w).sum() / w.sum()
        out.append((s, (cx + 0.5) * STRIDE, (cy + 0.5) * STRIDE))
    return out


def honest(faces: np.ndarray) -> np.ndarray:
    """A die's face probabilities, each as often right as faces the reader gave that probability
    on dice read as surely turned out (:data:`FACE_CALIBRATION`), normalised: no face is ruled
    out more firmly, or taken as surer, than the reader has earned.

    >>> np.round(honest(np.array([0.0, 0.0, 0.0, 0.0, 0.0, 1.0])), 5).tolist()
    [0.00062, 0.00062, 0.00062, 0.00062, 0.00062, 0.99689]
    >>> np.round(honest(np.array([0.02, 0.0, 0.0, 0.0, 0.28, 0.7])), 3).tolist()  # unsure: no face ruled out
    [0.022, 0.014, 0.014, 0.014, 0.165, 0.772]
    """
    faces = np.asarray(faces, np.float64) / max(float(np.sum(faces)), 1e-12)
    edges, rates = np.array(FACE_CALIBRATION["sure" if faces.max() >= SURE_DIE else "unsure"]).T
    # tilted by at most 1% so that faces in one bin keep the reader's order (its likeliest face
    # stays the likeliest)
    earned = rates[np.searchsorted(edges, faces, side="right") - 1] * (1 + 0.01 * faces)
    return earned / earned.sum()


def _session(path: Path):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def _input(batch: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(batch[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


class DiceReader:
    """Finds and reads the dice and the cube, and adds them to an observation."""

    def __init__(self, finder: Path = MODEL, reader: Path = READER):
        self.finder, self.reader = _session(finder), _session(reader)

    def __call__(self, image: np.ndarray, field: Field, obs, thrower: str | None = None) -> None:
        from vision.checkers import softmax

        heat = self.finder.run(None, {"view": _input(view(image, field)[None])})[0][0]
        heat = 1 / (1 + np.exp(-heat))
        # Generous finds, pooled from both maps, the hotter first: a die on the field by the
        # middle line can heat the cube's map more than the dice's. Off the field only the dice's
        # map finds a die: there the cube's map fires on rails and on a stream's overlay lettering
        # (1,550 test renders: 39 such finds read as a die, none on a die, two of them a throw off the
        # board on a frame with no dice; one die off the board in 39 videos went unfound, 7101).
        # The reader says what each find is (or nothing).
        cands = []
        pooled = [(s_, x, y, map_) for map_, k in enumerate(PLACES) for s_, x, y in peaks(heat[map_], FIND, k)]
        for s_, x, y, map_ in sorted(pooled, reverse=True):
            if all(np.hypot(x - cx, y - cy) > APART for _, cx, cy, _ in cands):
                cands.append((s_, x, y, map_))
        if not cands:
            obs.dice, obs.throw_valid, obs.cube = [], 0.0, None
            return
        uvs = [view_to_field([x, y])[0] for _, x, y, _ in cands]
        rests = field.beneath(uvs, DIE_MIDDLE, image.shape[1::-1])
        batch = np.stack([reading_crop(image, field, uv) for uv in uvs])
        # A die's face reads the same turned by quarter turns: its pips are read from the four
        # turns averaged (the cube's figures are not, so what a find is comes from the crop as is).
        turns = np.concatenate([np.rot90(batch, k, axes=(1, 2)) for k in range(4)])
        every = softmax(self.reader.run(None, {"crops": _input(turns)})[0].astype(np.float64))
        every = every.reshape(4, len(batch), -1)
        probs, turned = every[0], every.mean(axis=0)
        dice, faint = [], []
        cube = None
        for (score, _, _, map_), uv, rest, p, q in zip(cands, uvs, rests, probs, turned):
            faces, cube_faces = p[0:6] + p[6:12], p[12:18]
            on_board = bool(0 <= rest[0] <= 1 and 0 <= rest[1] <= 1)
            die_score = score * float(faces.sum()) if (map_ == 0 or on_board) else 0.0
            if faces.sum() > 0.5 and (die_score >= PRESENT or (faces.sum() >= SURE_READ and die_score > 0)):
                pips = q[0:6] + q[6:12]
                flat = float(q[0:6].sum() / pips.sum())
                pips = pips / pips.sum()
                dice.append({"faces": honest(pips), "read": np.round(pips, 6), "flat": flat,
                             "score": die_score, "px": round(crop_px(field, uv), 1),
                             "uv": [round(float(uv[0]), 4), round(float(uv[1]), 4)],
                             "on_board": on_board,
                             "half": "left" if rest[0] < 0.5 else "right"})
            elif (cube_faces.sum() > 0.5
                  and (score * cube_faces.sum() >= CUBE_PRESENT
                       or (cube_faces.sum() >= SURE_CUBE and score * cube_faces.sum() >= FAINT_CUBE))
                  and (cube is None or score * cube_faces.sum() > cube["score"])):
                cube = {**cube_reading(cube_faces, uv), "score": score * float(cube_faces.sum()),
                        "uv": [round(float(uv[0]), 4), round(float(uv[1]), 4)]}
            elif faces.sum() > 0.5 and die_score >= FAINT_DIE:
                faint.append([round(float(uv[0]), 4), round(float(uv[1]), 4)])
        if cube is not None:
            cube.pop("score")
        dice = the_throw(dice)
        obs.dice, obs.cube, obs.faint_dice = dice, cube, faint
        obs.throw_valid = throw_valid(dice, thrower)


def cube_reading(faces: np.ndarray, uv) -> dict:
    """The cube's value and location probabilities (over :data:`vision.observation.CUBE_VALUES`
    and ``CUBE_LOCATIONS``) from the reader's probabilities of its faces 2..64 and where it
    lies: the middle within the middle fifth of the field's height, else the side of the player
    it is nearer. A 64 in the middle is the cube at 1 (RULES 5.1); at a side the faces are
    weighed by :data:`AT_A_SIDE`.

    >>> r = cube_reading(np.array([0.0, 0.0, 0.0, 0.0, 0.3, 0.7]), (0.5, 0.5))
    >>> CUBE_VALUES[int(np.argmax(r["value"]))], int(np.argmax(r["location"]))  # in the middle: 1
    (1, 0)
    >>> r = cube_reading(np.array([0.0, 0.0, 0.0, 0.0, 0.3, 0.7]), (0.5, 0.9))
    >>> CUBE_VALUES[int(np.argmax(r["value"]))], int(np.argmax(r["location"]))  # at light's side: 32
    (32, 1)
    """
    location = "middle" if abs(uv[1] - 0.5) < 0.2 else ("light" if uv[1] > 0.5 else "dark")
    faces = np.asarray(faces, np.float64) * (1.0 if location == "middle" else AT_A_SIDE)
    faces = faces / faces.sum()
    value = np.zeros(len(CUBE_VALUES))
    for face, q in zip((2, 4, 8, 16, 32, 64), faces):
        value[CUBE_VALUES.index(1 if (face == 64 and location == "middle") else face)] += q
    return {"value": value, "location": np.array([location == c for c in CUBE_LOCATIONS], float)}


def the_throw(dice: list) -> list:
    """Of the finds read as dice, the two taken for the throw: the likeliest dice, each find's
    score weighed by how surely its face is read (a die shows one face; a checker's rim or a thing
    on the table seldom reads as one) and a find off the board by :data:`OFF_BOARD` (there are two
    dice, and one thrown off the board is rare beside the things lying on the table). By score
    alone such a thing pushed a true die out and made the throw look as if it did not count (vid
    9941, the board found: a blue trinket beyond the far rail, read a 2 at 0.64, scored 0.29
    against a 3 read 0.996 whose find scored only 0.22, and dark's 6-3 was called a re-roll). A
    die off the board found and read surely still makes the throw (test render 9001/258: a 1 off
    the board scored 0.72 and read 0.97, the finds on the board beside the other die 0.25 and
    0.23, read 0.5 and 0.89).

    >>> finds = [{"score": 0.73, "read": np.eye(6)[5], "on_board": True},
    ...          {"score": 0.29, "read": np.array([0.2, 0.64, 0.1, 0.06, 0, 0]), "on_board": False},
    ...          {"score": 0.22, "read": np.eye(6)[2], "on_board": True}]
    >>> [d["score"] for d in the_throw(finds)]
    [0.73, 0.22]
    >>> finds[1].update(score=0.72, read=np.eye(6)[0])
    >>> finds[2].update(read=np.array([0.2, 0.5, 0.3, 0, 0, 0]))
    >>> [d["score"] for d in the_throw(finds)]
    [0.73, 0.72]
    """
    return sorted(dice, key=lambda d: -d["score"] * float(np.max(d["read"]))
                  * (1.0 if d["on_board"] else OFF_BOARD))[:2]


def throw_valid(dice: list, thrower: str | None = None) -> float:
    """The probability that the throw counts (RULES 2.3), from each die's flatness and place."""
    if len(dice) != 2:
        return 0.0
    p = dice[0]["flat"] * dice[1]["flat"]
    if not (dice[0]["on_board"] and dice[1]["on_board"]) or dice[0]["half"] != dice[1]["half"]:
        return 0.0
    if thrower is not None and dice[0]["half"] != ("right" if thrower == "light" else "left"):
        return 0.0
    return float(p)
