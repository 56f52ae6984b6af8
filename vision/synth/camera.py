"""The camera: a pinhole looking at the board plane, plus radial lens distortion.

World coordinates are plane pixels: x right, y down (towards light's seat) and z into the
table, so a height h above the board is z = -h and a camera above it has negative z. That is
OpenCV's own camera convention, so an overhead camera with no rotation sees the plane upright.

Things above the board (checker tops, dice, hands) are drawn on the plane where the ray from the
camera through them meets it (:meth:`Camera.to_plane`), which is exact parallax for a flat
warp: the warped plane then shows them as the camera would.

>>> import numpy as np
>>> board = np.array([[0, 0], [900, 0], [900, 600], [0, 600]], float)
>>> cam = sample_camera(np.random.default_rng(3), board, (1280, 720))
>>> px = cam.project(np.c_[board, np.zeros(4)])
>>> bool(((px >= 0) & (px <= [1280, 720])).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def rotation(axis: str, degrees: float) -> np.ndarray:
    """The 3x3 rotation by ``degrees`` about the x, y or z axis."""
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    return {"x": np.array([[1, 0, 0], [0, c, -s], [0, s, c]]),
            "y": np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]),
            "z": np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])}[axis]


@dataclass
class Camera:
    """Intrinsics ``K``, rotation ``R``, centre ``C`` (world), image ``size`` and distortion ``k1``.

    ``k1`` bends the image radially: an image point at normalised radius r (1 = half the
    diagonal) shows what the ideal pinhole sees at radius r (1 + k1 r^2); k1 > 0 is barrel.
    """

    K: np.ndarray
    R: np.ndarray
    C: np.ndarray
    size: tuple
    k1: float = 0.0
    tilt: float = 0.0
    yaw: float = 0.0

    @property
    def homography(self) -> np.ndarray:
        """Plane (z = 0) to ideal (undistorted) image."""
        t = -self.R @ self.C
        return self.K @ np.c_[self.R[:, :2], t]

    def ideal(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) world points to (N, 2) undistorted image pixels."""
        cam = (pts - self.C) @ self.R.T @ self.K.T
        return cam[:, :2] / cam[:, 2:]

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) world points to (N, 2) image pixels, distortion included."""
        return self.distort(self.ideal(np.asarray(pts, float)))

    def to_plane(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) world points to the (N, 2) plane points the camera sees in the same place."""
        pts = np.asarray(pts, float)
        s = self.C[2] / (self.C[2] - pts[:, 2])
        return self.C[:2] + s[:, None] * (pts[:, :2] - self.C[:2])

    def scale_at(self, height: float) -> float:
        """How much larger a flat thing ``height`` above the board is drawn on the plane."""
        return self.C[2] / (self.C[2] + height)

    def _norm(self):
        w, h = self.size
        centre = np.array([w / 2, h / 2])
        return centre, np.hypot(w, h) / 2

    def distort(self, pts: np.ndarray) -> np.ndarray:
        """Ideal image points to where the lens shows them (Newton's method on r (1 + k1 r^2))."""
        if not self.k1:
            return pts
        centre, half = self._norm()
        v = (pts - centre) / half
        ru = np.hypot(v[:, 0], v[:, 1])
        rd = ru.copy()
        for _ in range(8):
            rd -= (rd * (1 + self.k1 * rd ** 2) - ru) / (1 + 3 * self.k1 * rd ** 2)
        scale = np.divide(rd, ru, out=np.ones_like(ru), where=ru > 0)
        return centre + v * scale[:, None] * half

    def distortion_maps(self):
        """The ``cv2.remap`` maps that turn the ideal image into the lens's, or None without distortion."""
        if not self.k1:
            return None
        # The maps are smooth: work them out on a grid 8 times coarser and enlarge them.
        w, h = self.size
        centre, half = self._norm()
        nx, ny = w // 8, h // 8
        # Sample where cv2.resize will read each coarse cell from (pixel centres).
        x = ((np.arange(nx, dtype=np.float32) + 0.5) * w / nx - 0.5 - centre[0]) / half
        y = ((np.arange(ny, dtype=np.float32) + 0.5) * h / ny - 0.5 - centre[1]) / half
        gain = 1 + np.float32(self.k1) * (x[None, :] ** 2 + y[:, None] ** 2)
        maps = [(x[None, :] * gain * half + centre[0]), (y[:, None] * gain * half + centre[1])]
        full = [cv2.resize(m.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR) for m in maps]
        return cv2.convertMaps(full[0], full[1], cv2.CV_16SC2)  # fixed point: remap runs twice as fast

    def to_dict(self) -> dict:
        return {"K": self.K.round(4).tolist(), "R": self.R.round(6).tolist(), "C": self.C.round(3).tolist(),
                "size": list(self.size), "k1": round(self.k1, 5), "tilt_deg": round(self.tilt, 2),
                "yaw_deg": round(self.yaw, 2)}


def sample_camera(rng: np.random.Generator, board: np.ndarray, size: tuple, overhead: bool | None = None) -> Camera:
    """A camera that sees the whole ``board`` (4 plane corners), filling 40-100% of the frame.

    Overhead, as on tournament streams (board square to the frame, tilt under 8 degrees), or
    oblique up to 45 degrees from any side as a phone on the table. The fill is set by zooming
    (the focal length), so the camera's height, and hence the parallax, stays realistic.
    """
    if overhead is None:
        overhead = rng.random() < 0.45
    w, h = size
    side = rng.choice([0.0, 180.0, 90.0, 270.0], p=[0.45, 0.3, 0.125, 0.125])
    if overhead:
        tilt, yaw, roll = rng.uniform(0, 8), side + rng.normal(0, 2), 0.0
    else:
        tilt, yaw, roll = rng.uniform(8, 45), side + rng.normal(0, 18), rng.normal(0, 3)
    # Yaw turns the board under the camera; the tilt then lifts the camera towards light's seat.
    R = rotation("z", roll) @ rotation("x", -tilt) @ rotation("z", yaw)
    span = np.ptp(board, axis=0).max()
    target = np.r_[board.mean(axis=0) + rng.normal(0, 0.03 * span, 2), 0.0]
    C = target - R.T @ np.array([0, 0, 1.0]) * span * rng.uniform(1.1, 2.4)
    f = (w / 2) / np.tan(np.radians(rng.uniform(45, 75)) / 2)
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    k1 = float(rng.choice([0.0, rng.uniform(0.02, 0.22), rng.uniform(-0.06, 0)], p=[0.45, 0.45, 0.1]))
    cam = Camera(K, R, C, size, k1, tilt, yaw % 360)
    corners = cam.ideal(np.c_[board, np.zeros(4)])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    fill = rng.uniform(0.4, 0.97 if k1 >= 0 else 0.9)
    s = fill * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    room = np.array([w, h]) - s * (hi - lo)
    shift = rng.uniform(0.05, 0.95, 2) * room - s * lo
    cam.K = np.array([[s, 0, shift[0]], [0, s, shift[1]], [0, 0, 1]]) @ K
    return cam


def warp(plane: np.ndarray, cam: Camera, background: np.ndarray) -> np.ndarray:
    """The plane as the camera sees it, over ``background`` where the plane does not reach.

    A plane seen from far away is first halved (and halved again) so the warp does not alias.
    """
    H = cam.homography
    zoom = np.sqrt(abs(np.linalg.det(H[:2, :2]))) / abs(H[2] @ np.r_[plane.shape[1] / 2, plane.shape[0] / 2, 1])
    while zoom < 0.55 and min(plane.shape[:2]) > 64:
        plane = cv2.pyrDown(plane)
        H = H @ np.diag([2.0, 2.0, 1.0])
        zoom *= 2
    w, h = cam.size
    out = cv2.warpPerspective(plane, H, (w, h), dst=background, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_TRANSPARENT)
    maps = cam.distortion_maps()
    if maps is not None:
        out = cv2.remap(out, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return out
