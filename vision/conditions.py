"""What a real camera and room do to a picture that the renders may not: named conditions put on a
rendered frame, to measure how the recognizer holds up on boards seen otherwise than in training
(``gammoncam eval-vision DIR --condition NAME``).

The renders already vary lamps, glare, blur, noise and JPEG quality (:mod:`vision.synth.effects`);
each condition here goes past them in one direction, as a phone photo at a club night or a
stream's camera might:

- ``jpeg50``: a stream's compression (JPEG quality 50);
- ``noise``: a dark room's sensor noise (Gaussian, 8 levels);
- ``warm``: tungsten light with no white balance (blue x0.75, green x0.95, red x1.2) and a
  fifth less exposure;
- ``dim``: an under-exposed picture (gamma 1.6);
- ``defocus``: a lens focused off the board (Gaussian blur, 2 px);
- ``vignette``: a cheap lens's dark corners (45% darker at the image's corners);
- ``barrel``: a wide lens's barrel distortion (k1 = -0.12 on the radius over the longer side),
  so the field's edges bow;
- ``phone``: a phone's 12-megapixel photo (the frame 2.5 times as large each way).

A condition that moves pixels (``barrel``, ``phone``) moves the truth with them: the field's
corners and every object's box.

>>> import numpy as np
>>> img = np.full((100, 160, 3), 128, np.uint8)
>>> truth = {"field": [[10, 10], [150, 10], [150, 90], [10, 90]], "objects": []}
>>> big, moved = apply("phone", img, truth)
>>> big.shape, moved["field"][1]
((250, 400, 3), [375.75, 25.75])
"""

from __future__ import annotations

import copy

import cv2
import numpy as np

BARREL_K1 = -0.12
PHONE_SCALE = 2.5


def _jpeg50(image, rng):
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 50])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), None


def _noise(image, rng):
    return np.clip(image + rng.normal(0, 8, image.shape), 0, 255).astype(np.uint8), None


def _warm(image, rng):
    return np.clip(image * (np.array([0.75, 0.95, 1.2]) * 0.8), 0, 255).astype(np.uint8), None


def _dim(image, rng):
    return (255 * (image / 255.0) ** 1.6).astype(np.uint8), None


def _defocus(image, rng):
    return cv2.GaussianBlur(image, (0, 0), 2.0), None


def _vignette(image, rng):
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    r2 = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2  # 2 at the image's corners
    return np.clip(image * (1 - 0.45 * r2 / 2)[..., None], 0, 255).astype(np.uint8), None


def _barrel(image, rng):
    h, w = image.shape[:2]
    f, c = float(max(w, h)), np.array([w / 2, h / 2])

    def bow(p):  # where an undistorted point lands
        d = (np.asarray(p, np.float64) - c) / f
        return c + d * (1 + BARREL_K1 * (d ** 2).sum(axis=-1, keepdims=True)) * f

    # each output pixel's source: the undistorted point that lands there, by fixed-point steps
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xs - c[0]) / f, (ys - c[1]) / f
    ux, uy = dx, dy
    for _ in range(8):
        s = 1 + BARREL_K1 * (ux * ux + uy * uy)
        ux, uy = dx / s, dy / s
    mx, my = (ux * f + c[0]).astype(np.float32), (uy * f + c[1]).astype(np.float32)
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out, bow


def _phone(image, rng):
    big = cv2.resize(image, None, fx=PHONE_SCALE, fy=PHONE_SCALE, interpolation=cv2.INTER_CUBIC)
    return big, lambda p: (np.asarray(p, np.float64) + 0.5) * PHONE_SCALE - 0.5


CONDITIONS = {"jpeg50": _jpeg50, "noise": _noise, "warm": _warm, "dim": _dim, "defocus": _defocus,
              "vignette": _vignette, "barrel": _barrel, "phone": _phone}


def apply(name: str, image: np.ndarray, truth: dict, rng: np.random.Generator | None = None) -> tuple[np.ndarray, dict]:
    """The frame under condition ``name`` and its truth moved with it (a copy; boxes stay
    axis-aligned round their moved corners)."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name!r}: one of {', '.join(CONDITIONS)}")
    out, move = CONDITIONS[name](image, rng if rng is not None else np.random.default_rng(0))
    if move is None:
        return out, truth
    truth = copy.deepcopy(truth)
    truth["field"] = np.round(move(truth["field"]), 2).tolist()
    for obj in truth.get("objects", []):
        if obj.get("box") is not None:
            x0, y0, x1, y1 = obj["box"]
            pts = move([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
            obj["box"] = [*pts.min(axis=0).tolist(), *pts.max(axis=0).tolist()]
    return out, truth
