"""Board localisation: the field's four corners in the image, given or found, refined to sub-pixel.

- Given: ``x1,y1,...,x4,y4`` on the command line, or a JSON file holding ``{"corners": [[x, y] x 4]}``
  (the calibration page writes one), in the order TL, TR, BR, BL as light sees the board.
- Refined (:func:`refine`): each side of the field is a straight edge between the points and the
  rail; the line is re-fitted to the strongest gradient found along its normals near the given
  line, and the corners become the intersections of the four fitted lines. This turns clicks a
  few pixels off into sub-pixel corners.
- Found automatically (:func:`find_corners`): not yet available (no detector trained here, see
  models/README.md); it returns None and the command line asks for ``--corners``.

>>> import numpy as np
>>> img = np.zeros((200, 300, 3), np.uint8); img[50:150, 60:240] = 200
>>> got = refine(img, np.array([[62, 52], [237, 49], [241, 152], [58, 147]], float))
>>> bool(np.abs(got - [[59.5, 49.5], [239.5, 49.5], [239.5, 149.5], [59.5, 149.5]]).max() < 0.5)
True
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np


def load_corners(path: str | Path) -> np.ndarray:
    """Corners from a JSON file ``{"corners": [[x, y], ...]}`` or a bare list."""
    data = json.loads(Path(path).read_text())
    pts = np.asarray(data["corners"] if isinstance(data, dict) else data, np.float64)
    if pts.shape != (4, 2):
        raise ValueError("a corners file holds four [x, y] pairs")
    return pts


def _fit_edge(gray_grad: tuple, a: np.ndarray, b: np.ndarray, search: float, samples: int = 24,
              span: tuple = (0.1, 0.9)):
    """The line (point, direction) best fitting the gradient peaks along the normals of a..b."""
    gx, gy = gray_grad
    d = (b - a) / np.linalg.norm(b - a)
    n = np.array([-d[1], d[0]])
    pts = []
    offsets = np.arange(-search, search + 0.01, 0.5)
    for t in np.linspace(span[0], span[1], samples):
        p = a + t * (b - a)
        line = p[None] + offsets[:, None] * n[None]
        mx, my = line[:, 0].astype(np.float32), line[:, 1].astype(np.float32)
        sx = cv2.remap(gx, mx[None], my[None], cv2.INTER_LINEAR)[0]
        sy = cv2.remap(gy, mx[None], my[None], cv2.INTER_LINEAR)[0]
        mag = np.abs(sx * n[0] + sy * n[1])
        k = int(np.argmax(mag))
        if mag[k] <= 0:
            continue
        # parabola through the peak for the sub-pixel offset
        if 0 < k < len(mag) - 1:
            den = mag[k - 1] - 2 * mag[k] + mag[k + 1]
            k = k + (0.5 * (mag[k - 1] - mag[k + 1]) / den if den < 0 else 0.0)
        pts.append(p + (offsets[0] + 0.5 * k) * n)
    if len(pts) < samples // 2:
        return a, d
    pts = np.array(pts, np.float32)
    vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0]), np.array([vx, vy])


def _intersect(p1, d1, p2, d2) -> np.ndarray:
    A = np.array([d1, -d2]).T
    t = np.linalg.solve(A, p2 - p1)
    return p1 + t[0] * d1


def refine(image: np.ndarray, corners: np.ndarray, search: float | None = None) -> np.ndarray:
    """Corners re-fitted to the four straight edges of the field near the given ones."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    grad = (cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3))
    if search is None:
        search = max(3.0, 0.01 * np.linalg.norm(c[2] - c[0]))
    # Each corner from the quarter of each edge next to it: a lens bends long edges, and the
    # ends of an edge are what meet at the corner.
    out = []
    for i in range(4):
        before = _fit_edge(grad, c[(i - 1) % 4], c[i], search, span=(0.65, 0.98))
        after = _fit_edge(grad, c[i], c[(i + 1) % 4], search, span=(0.02, 0.35))
        out.append(_intersect(*before, *after))
    out = np.array(out)
    if np.abs(out - c).max() > 3 * search:  # a fit that ran away: keep what was given
        return c
    return out


def find_corners(image: np.ndarray) -> np.ndarray | None:
    """The field's corners found without help: not available yet, so None."""
    return None
