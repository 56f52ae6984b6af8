"""Hands and arms reaching over the board, drawn as rounded skin shapes with a sleeve and a shadow.

A hand is built from polygons in its own frame, in checker diameters: the grasp point (where a
held checker sits, between thumb and fingers) is the origin and the fingers point along +x. The
arm rises away from the hand, so each vertex has its own height and its own parallax.

>>> import numpy as np
>>> hand = Hand(x=500.0, y=400.0, angle=-90.0, height=60.0, skin=(150, 180, 220), sleeve=(90, 40, 30))
>>> [name for name, _ in hand.parts()][:3]
['sleeve', 'arm', 'palm']
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.camera import Camera
from vision.synth.geometry import D, Geometry
from vision.synth.shading import ShadowLayer
from vision.synth.styles import rgb

SKINS = ["#f1c27d", "#e0ac69", "#c68642", "#8d5524", "#ffdbac", "#d1a38a", "#5c3a21", "#eac0a2"]
SLEEVES = ["#1c1c1e", "#f2f2f0", "#2b3a55", "#6b6f74", "#7a1f2b", "#3d5a40", "#c9b79c", "#4a6fa5", "#a0522d"]


def capsule(a, b, radius: float, n: int = 8) -> np.ndarray:
    """Polygon of a round-ended stroke from ``a`` to ``b`` (a finger)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    ang = np.arctan2(*(b - a)[::-1])
    t1 = np.linspace(ang + np.pi / 2, ang + 3 * np.pi / 2, n)
    t2 = t1 + np.pi
    return np.vstack([a + radius * np.c_[np.cos(t1), np.sin(t1)], b + radius * np.c_[np.cos(t2), np.sin(t2)]])


def ellipse(centre, axes, angle: float = 0.0, n: int = 18) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    pts = np.c_[axes[0] * np.cos(t), axes[1] * np.sin(t)]
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    return pts @ np.array([[c, s], [-s, c]]) + centre


@dataclass
class Hand:
    """A hand whose grasp point is over plane (``x``, ``y``), ``height`` above the board.

    ``angle`` is the direction the fingers point, in degrees on the plane; ``grip`` 0 is an open
    hand reaching, 1 a pinch round a checker; ``mirror`` makes it a left hand.
    """

    x: float
    y: float
    angle: float
    height: float
    skin: tuple
    sleeve: tuple
    grip: float = 0.0
    mirror: bool = False
    scale: float = 1.0

    def parts(self) -> list[tuple[str, np.ndarray]]:
        """(name, polygon in the hand's frame, checker diameters), drawn in this order."""
        curl = 1.0 - 0.45 * self.grip
        palm_c = np.array([-1.55, 0.0])
        parts = [("sleeve", np.array([[-4.6, -0.95], [-14, -1.25], [-14, 1.25], [-4.6, 0.95]])),
                 ("arm", np.array([[-2.2, -0.6], [-5.0, -0.78], [-5.0, 0.78], [-2.2, 0.6]])),
                 ("palm", ellipse(palm_c, (1.05, 0.82)))]
        for y, length in ((-0.55, 1.25), (-0.19, 1.6), (0.19, 1.5), (0.55, 1.1)):
            base = palm_c + [0.75, y]
            tip = base + np.array([length * curl, y * 0.35 * (1 - self.grip)])
            parts.append(("finger", capsule(base, tip, 0.17)))
        thumb_base = palm_c + [0.2, 0.72]
        thumb_tip = np.array([-0.05, 0.55]) if self.grip > 0.5 else thumb_base + [0.95, 0.7]
        parts.append(("thumb", capsule(thumb_base, thumb_tip, 0.2)))
        return parts

    def world(self, pts: np.ndarray) -> np.ndarray:
        """Hand-frame points to world points; the arm rises a quarter diameter per diameter."""
        pts = pts * [1, -1 if self.mirror else 1] * self.scale
        a = np.radians(self.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        xy = pts @ rot.T * D + [self.x, self.y]
        lift = self.height + np.maximum(0, -pts[:, 0] - 2.0) * 0.25 * D
        return np.c_[xy, -lift]

    def polygons(self, cam: Camera) -> list[tuple[str, np.ndarray]]:
        """Each part as a plane polygon, where the camera sees it."""
        return [(name, cam.to_plane(self.world(poly))) for name, poly in self.parts()]


def sample_hand(rng: np.random.Generator, geo: Geometry, side: str, grip: float = 0.0) -> Hand:
    """A hand reaching over the board from ``side``'s seat ("light" bottom, "dark" top)."""
    (x0, y0), (x1, y1) = geo.board[0], geo.board[2]
    angle = (-90.0 if side == "light" else 90.0) + rng.normal(0, 25)
    return Hand(x=rng.uniform(x0, x1), y=rng.uniform(y0, y1), angle=angle, height=D * rng.uniform(0.6, 3.0),
                skin=rgb(SKINS[rng.integers(len(SKINS))]),
                sleeve=rgb(SLEEVES[rng.integers(len(SLEEVES))]),
                grip=grip, mirror=bool(rng.random() < 0.3), scale=rng.uniform(0.9, 1.15))


def cast(shadows: ShadowLayer, hand: Hand, cam: Camera) -> None:
    for _, poly in hand.polygons(cam):
        shadows.polygon(poly, hand.height)


def draw(plane: np.ndarray, hand: Hand, cam: Camera) -> list[np.ndarray]:
    """Draw ``hand`` on ``plane``; returns its part polygons (plane) for the truth."""
    polys = hand.polygons(cam)
    pts = np.vstack([p for _, p in polys])
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 3, [plane.shape[1], plane.shape[0]])
    if x1 <= x0 or y1 <= y0:
        return [p for _, p in polys]
    labels = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for name, poly in polys:
        fill = 2 if name == "sleeve" else 1
        cv2.fillPoly(labels, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], fill, cv2.LINE_8, shift=4)
    mask = (labels > 0).astype(np.uint8)
    # Rounded flesh: brighter along the middle of each limb, darker towards its outline.
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    reach = np.where(labels == 2, 0.9, 0.3).astype(np.float32) * D * hand.scale  # sleeves are wider
    shade = 0.6 + 0.45 * np.sqrt(np.clip(depth / reach, 0, 1))
    colour = np.where((labels == 2)[..., None], np.float32(hand.sleeve), np.float32(hand.skin))
    alpha = cv2.GaussianBlur(mask.astype(np.float32), (3, 3), 0.8)[..., None]
    roi = plane[y0:y1, x0:x1]
    roi[:] = (colour * shade[..., None] * alpha + roi * (1 - alpha)).clip(0, 255).astype(np.uint8)
    # The fingers would melt into the palm without the creases between them.
    crease = tuple(int(v * 0.6) for v in hand.skin)
    for name, poly in polys:
        if name in ("finger", "thumb"):
            cv2.polylines(roi, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], True, crease, 1, cv2.LINE_AA, shift=4)
    return [p for _, p in polys]
