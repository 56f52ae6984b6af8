"""Lit boxes with a picture on each face: dice, the doubling cube, checkers standing on edge.

A box is its centre, its half-sizes and a rotation from its own axes to the world. Its faces
are numbered by outward normal in its own frame: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z (up), 5 -z.
Each visible face is the face's picture warped onto the plane where the camera sees it, so a
die leaning on a checker shows its pips foreshortened, exactly as the truth says.

>>> import numpy as np
>>> box = Box(np.array([0.0, 0.0, -10.0]), np.array([10.0, 10.0, 10.0]), np.eye(3))
>>> box.corners().shape, box.up_face()
((8, 3), 4)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.camera import Camera
from vision.synth.shading import Light, ShadowLayer

# Local "up" is +z; the world's up is -z, so the local frame is mirrored in z.
UP = np.diag([1.0, 1.0, -1.0])
NORMALS = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
# Corner i of the box has local sign (bit 0: x, bit 1: y, bit 2: z); each face's corners in order.
FACE_CORNERS = [[1, 3, 7, 5], [0, 4, 6, 2], [2, 6, 7, 3], [0, 1, 5, 4], [4, 5, 7, 6], [0, 2, 3, 1]]
SIGNS = np.array([[(i & 1) * 2 - 1, (i >> 1 & 1) * 2 - 1, (i >> 2 & 1) * 2 - 1] for i in range(8)], float)


@dataclass
class Box:
    """A box at ``centre`` (world), ``half`` sizes along its own axes, ``rotation`` local to world."""

    centre: np.ndarray
    half: np.ndarray
    rotation: np.ndarray  # local (z up) to world, before the mirror UP

    def corners(self) -> np.ndarray:
        return self.centre + (SIGNS * self.half) @ (UP @ self.rotation).T

    def normals(self) -> np.ndarray:
        return NORMALS @ (UP @ self.rotation).T

    def up_face(self) -> int:
        """The face whose normal points most nearly up (world -z)."""
        return int(np.argmin(self.normals()[:, 2]))


def draw_box(plane: np.ndarray, cam: Camera, box: Box, faces: list, light: Light) -> np.ndarray:
    """Draw the faces of ``box`` the camera sees; ``faces[i]`` is face i's picture (square BGR).

    Returns the plane polygon of the box's outline.
    """
    corners = box.corners()
    flat = cam.to_plane(corners)
    normals = box.normals()
    for i, idx in enumerate(FACE_CORNERS):
        centre = corners[idx].mean(axis=0)
        if np.dot(normals[i], cam.C - centre) <= 0:
            continue
        paste_quad(plane, cv2.convertScaleAbs(faces[i], alpha=light.shade(normals[i])), flat[idx])
    return cv2.convexHull(flat.astype(np.float32)).reshape(-1, 2)


def paste_quad(plane: np.ndarray, picture: np.ndarray, quad: np.ndarray) -> None:
    """Warp ``picture`` onto ``plane`` so its corners land on ``quad`` (4 plane points, clockwise)."""
    quad = np.asarray(quad, np.float32)
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, [plane.shape[1], plane.shape[0]])
    if x1 <= x0 or y1 <= y0:
        return
    h, w = picture.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    H = cv2.getPerspectiveTransform(src, quad - np.float32([x0, y0]))
    cv2.warpPerspective(picture, H, (x1 - x0, y1 - y0), dst=plane[y0:y1, x0:x1], flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)


def cast_box_shadow(shadows: ShadowLayer, box: Box) -> None:
    """Add the shadow of ``box`` (standing on the plane or leaning) to ``shadows``."""
    corners = box.corners()
    heights = -corners[:, 2]
    foot = corners[:, :2] + np.array([shadows.light.shadow_offset(h) for h in heights])
    shadows.solid(foot, foot, 0.0)
