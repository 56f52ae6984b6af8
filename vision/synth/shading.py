"""The light over the board: how bright a face is, and the shadows things cast on the plane.

>>> import numpy as np
>>> light = Light(azimuth=90.0, elevation=45.0, softness=2.0, strength=0.5)
>>> np.round(light.shadow_offset(10.0), 3).tolist()   # light from +y: shadows fall towards -y
[-0.0, -10.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SHADOW_SCALE = 4  # shadows are soft: drawn at a quarter of the plane's size


@dataclass
class Light:
    """The main light: where it stands (degrees on the plane, and above it) and its shadows."""

    azimuth: float
    elevation: float
    softness: float  # blur of the shadows in plane pixels / SHADOW_SCALE; small is a hard lamp
    strength: float  # how much a full shadow darkens

    @property
    def towards(self) -> np.ndarray:
        """Unit world vector from the board to the light (z is negative upwards)."""
        a, e = np.radians(self.azimuth), np.radians(self.elevation)
        return np.array([np.cos(a) * np.cos(e), np.sin(a) * np.cos(e), -np.sin(e)])

    def shadow_offset(self, height: float) -> np.ndarray:
        """Where on the plane the shadow of a point ``height`` above it falls, relative to its foot."""
        t = self.towards
        return -t[:2] / -t[2] * height

    def shade(self, normal: np.ndarray) -> float:
        """Brightness of a face with world ``normal``: ambient light plus the lamp."""
        return 0.62 + 0.45 * max(0.0, float(np.dot(normal, self.towards)))


def sample_light(rng: np.random.Generator) -> Light:
    """Soft window or ceiling light most of the time, a hard lamp sometimes."""
    hard = rng.random() < 0.3
    return Light(azimuth=rng.uniform(0, 360), elevation=rng.uniform(35, 80),
                 softness=rng.uniform(0.6, 1.5) if hard else rng.uniform(2.5, 6),
                 strength=rng.uniform(0.35, 0.6) if hard else rng.uniform(0.2, 0.45))


class ShadowLayer:
    """Shadows collected on a small mask, then laid on the plane at once (blurred, darkening)."""

    def __init__(self, plane_size: tuple, light: Light):
        w, h = plane_size
        self.light = light
        self.mask = np.zeros((h // SHADOW_SCALE + 1, w // SHADOW_SCALE + 1), np.uint8)

    def _pt(self, xy) -> tuple:
        return tuple(int(round(v * 16 / SHADOW_SCALE)) for v in xy)

    def disc(self, xy, radius: float, bottom: float, top: float) -> None:
        """The shadow of an upright cylinder (a checker or a stack layer) standing at ``xy``."""
        a = np.asarray(xy) + self.light.shadow_offset(bottom)
        b = np.asarray(xy) + self.light.shadow_offset(top)
        thick = max(1, int(round(2 * radius / SHADOW_SCALE)))
        cv2.line(self.mask, self._pt(a), self._pt(b), 255, thick, cv2.LINE_AA, shift=4)

    def polygon(self, pts: np.ndarray, height: float) -> None:
        """The shadow of a flat shape ``height`` above the plane (a hand, a lifted checker)."""
        moved = np.asarray(pts, float) + self.light.shadow_offset(height)
        cv2.fillPoly(self.mask, [np.round(moved * 16 / SHADOW_SCALE).astype(np.int32)], 255, cv2.LINE_AA, shift=4)

    def solid(self, foot: np.ndarray, top: np.ndarray, height: float) -> None:
        """The shadow of a prism with footprint ``foot`` (plane points) and ``height``."""
        moved = np.vstack([foot, np.asarray(top, float) + self.light.shadow_offset(height)])
        hull = cv2.convexHull(np.round(moved * 16 / SHADOW_SCALE).astype(np.int32))
        cv2.fillConvexPoly(self.mask, hull, 255, cv2.LINE_AA, shift=4)

    def apply(self, plane: np.ndarray, blur_extra: float = 0.0) -> None:
        """Darken ``plane`` in place under the collected shadows."""
        bx, by, bw, bh = cv2.boundingRect(self.mask)
        if not bw:
            return
        sigma = self.light.softness + blur_extra
        pad = int(3 * sigma) + 2
        y0, y1 = max(0, by - pad), min(self.mask.shape[0], by + bh + pad)
        x0, x1 = max(0, bx - pad), min(self.mask.shape[1], bx + bw + pad)
        small = cv2.GaussianBlur(self.mask[y0:y1, x0:x1], (0, 0), sigma)
        gain = 255 - (small.astype(np.float32) * self.light.strength).astype(np.uint8)
        Y0, X0 = y0 * SHADOW_SCALE, x0 * SHADOW_SCALE
        Y1, X1 = min(plane.shape[0], y1 * SHADOW_SCALE), min(plane.shape[1], x1 * SHADOW_SCALE)
        gain = cv2.resize(gain, ((x1 - x0) * SHADOW_SCALE, (y1 - y0) * SHADOW_SCALE))[: Y1 - Y0, : X1 - X0]
        roi = plane[Y0:Y1, X0:X1]
        cv2.multiply(roi, cv2.merge([gain, gain, gain]), dst=roi, scale=1 / 255)
