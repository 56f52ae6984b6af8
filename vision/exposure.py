"""An under-exposed board brought up into the light the networks were trained in.

The renders the networks learned from light the field at a median brightness (HSV value) of 21
to 255, one in twenty of them under :data:`FLOOR` (the 400 test renders of seed 9001 and the
1,000 calibration renders of seed 7001). A club room's lamp or a stream's camera can leave a dark
board darker still: under the ``dim`` condition (:mod:`vision.conditions`, gamma 1.6) a dark
wooden board's field falls to a median of 10, its dark checkers vanish into it and no frame ever
calibrates (vid 9998). Such a frame is lifted by the power curve that takes its field's median
brightness to :data:`FLOOR`, so the dark end spreads out again as a brighter exposure would
have spread it; a frame lit as the renders were is left as it is.

Measured with ``eval-vision`` (corners from the truth), points read wrong: on the test renders
under ``dim`` 95 -> 76 (without a hand 4 -> 2), as rendered 66 -> 64; on the calibration renders
under ``dim`` 272 -> 252 (21 -> 18), as rendered 246 -> 241 (14 -> 14); the dice and cube as
before within 0.4%. A floor of 32 (half a percent of the renders) mended less: 95 -> 81 under
``dim``, none as rendered.

>>> import numpy as np
>>> dark = np.full((100, 160, 3), 10, np.uint8)
>>> corners = np.array([[20, 20], [140, 20], [140, 80], [20, 80]], float)
>>> int(lifted(dark, corners)[50, 80, 0]), int(lifted(dark, corners)[5, 5, 0])  # the field's median, and beyond it
(48, 48)
>>> lit = np.full((100, 160, 3), 120, np.uint8)
>>> lifted(lit, corners) is lit
True
"""

from __future__ import annotations

import cv2
import numpy as np

FLOOR = 48  # the field's median brightness (0-255) under which a frame is lifted
STEP = 4  # every fourth pixel each way tells the median


def field_brightness(image: np.ndarray, corners) -> float:
    """The median HSV value (the brightest channel) of the pixels inside the field's corners."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int) + 1, 1, [w, h])
    sample = image[y0:y1:STEP, x0:x1:STEP].max(axis=2)
    mask = np.zeros(sample.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - [x0, y0]) / STEP).astype(np.int32), 1)
    inside = sample[mask > 0]
    return float(np.median(inside)) if inside.size else 255.0


def lifted(image: np.ndarray, corners) -> np.ndarray:
    """``image`` with its field's median brightness brought up to :data:`FLOOR` by a power curve
    when it lies under it; else ``image`` itself."""
    median = field_brightness(image, corners)
    if median >= FLOOR:
        return image
    power = np.log(FLOOR / 255.0) / np.log(max(median, 1.0) / 255.0)
    table = np.round(255.0 * (np.arange(256) / 255.0) ** power).astype(np.uint8)
    return cv2.LUT(image, table)
