"""The field's own coordinates, and crops of the image taken in them.

The *field* is the playing area: the two rows of twelve points with the bar between the halves,
inside the rails. Its four corners in the image (top-left, top-right, bottom-right, bottom-left
as light sees the board) give a homography from *field coordinates* ``(u, v)`` in ``[0, 1]^2``
(u left to right, v top to bottom) to image pixels. Every later stage works in these
coordinates, so it does not care about the camera's size, angle or distance.

The one unknown of the layout inside the field is the bar's share ``bar`` of the field's width
(5 to 14% on the boards we know): the points on each side fill ``(1 - bar) / 2``.

>>> import numpy as np
>>> f = Field(np.array([[0, 0], [1300, 0], [1300, 1000], [0, 1000]], float), bar=0.1)
>>> round(f.slot_u(0), 4), round(f.slot_u(11), 4), round(f.point_w, 4)
(0.0375, 0.9625, 0.075)
>>> f.to_image([[0.5, 0.5]]).round(1).tolist()
[[650.0, 500.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

BAR_RANGE = (0.04, 0.16)  # the bar's share of the field's width
ASPECT = 0.78  # the field's height over its width on a typical board
UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)


@dataclass
class Field:
    """The field as seen: its image corners and the bar's share of its width."""

    corners: np.ndarray  # (4, 2) image pixels: TL, TR, BR, BL
    bar: float = 0.09

    def __post_init__(self):
        self.corners = np.asarray(self.corners, np.float64).reshape(4, 2)
        self.H = cv2.getPerspectiveTransform(UNIT.astype(np.float32), self.corners.astype(np.float32))

    @property
    def point_w(self) -> float:
        """A point's width in u."""
        return (1 - self.bar) / 12

    def slot_u(self, slot: int) -> float:
        """Centre u of slot 0..11, left to right."""
        w = self.point_w
        return (slot + 0.5) * w if slot < 6 else 1 - (11 - slot + 0.5) * w

    def to_image(self, uv) -> np.ndarray:
        """(N, 2) field points to image pixels."""
        uv = np.asarray(uv, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(uv, self.H).reshape(-1, 2)

    def to_field(self, px) -> np.ndarray:
        """(N, 2) image pixels to field points."""
        px = np.asarray(px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(px, np.linalg.inv(self.H)).reshape(-1, 2)

    def camera(self, image_size: tuple) -> np.ndarray | None:
        """Where the camera is, in field units: ``(u, v, height above the field)``; None where
        the view is too near straight down to tell (and a thing's height then shifts it little).

        From the four corners alone, taking a pinhole with square pixels centred on the image
        (``image_size`` = (w, h)) and a field :data:`ASPECT` as tall as wide: the focal length is
        the one that makes the field's two sides square to each other and of their true lengths,
        and the pose follows from OpenCV. On seven suite renders the focal length came within a
        fifth of the render camera's on six, 43% short on one (5003); their principal points lie
        up to 160 px off the image centre, which the estimate takes as centred."""
        key = tuple(int(x) for x in image_size)
        if getattr(self, "_camera", (None,))[0] == key:
            return self._camera[1]
        w, h = key
        to_metric = np.diag([1.0, 1.0 / ASPECT, 1.0])  # (u, v) from field widths across and down
        centred = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1.0]])
        g1, g2, _ = (centred @ self.H @ to_metric).T
        # The homography's first two columns are f-scaled rotation columns: orthogonal and equal
        # in length. Both conditions are linear in 1/f^2; least squares over the two.
        a = np.array([g1[0] * g2[0] + g1[1] * g2[1], g1[0] ** 2 + g1[1] ** 2 - g2[0] ** 2 - g2[1] ** 2])
        b = np.array([g1[2] * g2[2], g1[2] ** 2 - g2[2] ** 2])
        inv_f2 = -float(a @ b) / max(float(a @ a), 1e-300)
        camera = None
        if inv_f2 > 0 and np.isfinite(inv_f2):
            f = inv_f2 ** -0.5
            K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
            corners = np.array([[0, 0, 0], [1, 0, 0], [1, ASPECT, 0], [0, ASPECT, 0]], np.float64)
            ok, rvec, tvec = cv2.solvePnP(corners, self.corners, K, None, flags=cv2.SOLVEPNP_IPPE)
            if ok:
                centre = (-cv2.Rodrigues(rvec)[0].T @ tvec).ravel()
                camera = np.array([centre[0], centre[1] / ASPECT, abs(centre[2])])
        self._camera = (key, camera)
        return camera

    def beneath(self, uv, height: float, image_size: tuple) -> np.ndarray:
        """(N, 2) the field points under things ``height`` (in field widths) above the field
        whose middles are seen at ``uv``: seen from an angle, a thing's middle lies on the field
        beyond where it stands, away from the camera, the more so the lower the camera.

        >>> f = Field(np.array([[700, 200], [1300, 200], [1500, 700], [500, 700]], float))
        >>> f.beneath([[0.5, -0.01]], 0.02, (1920, 1080)).round(3).tolist()  # by the far side
        [[0.5, 0.034]]
        """
        uv = np.asarray(uv, np.float64).reshape(-1, 2)
        camera = self.camera(image_size)
        if camera is None or camera[2] <= height:
            return uv.copy()
        # Along the line from the camera to the seen point, back up to the thing's height.
        metric = uv * [1.0, ASPECT]
        below = metric + (camera[:2] * [1.0, ASPECT] - metric) * (height / camera[2])
        return below / [1.0, ASPECT]

    def pixels_per_u(self) -> float:
        """About how many image pixels one unit of u spans (mean of top and bottom edges)."""
        c = self.corners
        return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2)

    def crop(self, image: np.ndarray, quad_uv: np.ndarray, size: tuple) -> np.ndarray:
        """The image inside the field quadrilateral ``quad_uv`` (TL, TR, BR, BL), warped to ``size`` (w, h).

        Sampled bilinearly, as the networks were trained: OpenCV's warps have no area filter, and
        a crop anti-aliased through an image pyramid read no better (1280x720 test renders:
        point errors 18 -> 20, dice read the same)."""
        w, h = size
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        M = cv2.getPerspectiveTransform(self.to_image(quad_uv).astype(np.float32), dst)
        return cv2.warpPerspective(image, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def quad(u0: float, u1: float, v0: float, v1: float) -> np.ndarray:
    """The field quadrilateral from (u0, v0) to (u1, v1), TL TR BR BL; v1 < v0 flips it upside down."""
    return np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]], np.float64)


def estimate_bar(image: np.ndarray, corners: np.ndarray) -> float:
    """The bar's share of the field's width, from the two straight edges where it meets the points.

    The field is rectified and the horizontal gradient averaged down each column (rows weighted
    away from the middle, where dice and the cube lie); the bar's edges are the strongest pair
    of columns placed symmetrically about the centre.

    Parameter ``corners``: the field's image corners.
    """
    f = Field(corners)
    width = 800
    img = f.crop(image, quad(0.3, 0.7, 0.0, 1.0), (width * 2 // 5, 240))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    # A column's evidence: the signed gradient must persist down the height (a straight edge),
    # so average the sign-consistent part in bands and take the median over bands.
    bands = np.array_split(gx, 12, axis=0)
    prof = np.median(np.stack([np.abs(b.mean(axis=0)) for b in bands]), axis=0)
    prof = np.convolve(prof, np.ones(3) / 3, mode="same")
    n = prof.size
    centre = (n - 1) / 2
    best, best_b = -1.0, 0.09
    for b in np.arange(BAR_RANGE[0], BAR_RANGE[1], 0.0025):
        half = b / 2 * width  # pixels in the crop (crop spans 0.4 u over 320 px -> 800 px per u)
        left, right = centre - half, centre + half
        il, ir = int(round(left)), int(round(right))
        if il < 1 or ir > n - 2:
            continue
        score = prof[il - 1:il + 2].max() + prof[ir - 1:ir + 2].max()
        if score > best:
            best, best_b = score, b
    return float(best_b)
