"""The empty board on its table, drawn top-down on the plane: frame, field, points, bar and trays.

>>> import numpy as np
>>> from vision.synth.styles import sample_style
>>> from vision.synth.geometry import Geometry
>>> from vision.synth.camera import sample_camera
>>> from vision.synth.shading import sample_light
>>> rng = np.random.default_rng(0)
>>> geo = Geometry(sample_style(rng), rng)
>>> plane = draw_board(rng, geo, sample_camera(rng, geo.board, (640, 360)), sample_light(rng))
>>> plane.shape[:2] == geo.size[::-1]
True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.layout import ROWS
from vision.synth.camera import Camera
from vision.synth.geometry import D, Geometry
from vision.synth.shading import Light, ShadowLayer
from vision.synth.styles import paint, shade, texture

BOARD_THICKNESS = 0.5 * D  # how far the playing surface stands above the table
FIX = 16  # sub-pixel drawing: OpenCV's shift of 4 bits


def fixed(pts) -> np.ndarray:
    return np.round(np.asarray(pts) * FIX).astype(np.int32)


def darker(colour, f: float = 0.6) -> tuple:
    return tuple(int(v * f) for v in colour)


def point_shape(poly: np.ndarray, shape: str) -> np.ndarray:
    """The outline of a point whose plain triangle is ``poly`` (base left, base right, tip)."""
    a, b, tip = poly
    if shape == "slim":
        mid = (a + b) / 2
        return np.array([mid + (a - mid) * 0.78, mid + (b - mid) * 0.78, tip])
    if shape == "rounded":
        # The tip becomes a curve: cut the sides short and join them with a quadratic Bezier.
        left, right = a + (tip - a) * 0.85, b + (tip - b) * 0.85
        s = np.linspace(0, 1, 9)[:, None]
        curve = (1 - s) ** 2 * right + 2 * (1 - s) * s * tip + s ** 2 * left
        return np.vstack([a, b, curve])
    return poly


def draw_board(rng: np.random.Generator, geo: Geometry, cam: Camera, light: Light) -> np.ndarray:
    """The table with the empty board on it, as a BGR plane image of ``geo.size``."""
    style = geo.style
    w, h = geo.size
    plane = texture(rng, (h, w), style.table_colour, style.table_material)
    # The board's shadow on the table and its outer sides, seen from the camera's side.
    table_level = cam.to_plane(np.c_[geo.board, np.full(4, BOARD_THICKNESS)])
    shadows = ShadowLayer(geo.size, light)
    shadows.solid(table_level, geo.board, BOARD_THICKNESS)
    shadows.apply(plane, blur_extra=2)
    hull = cv2.convexHull(fixed(np.vstack([geo.board, table_level])))
    cv2.fillConvexPoly(plane, hull, darker(style.frame_colour, 0.55), cv2.LINE_AA, shift=4)

    x0, y0 = np.floor(geo.board[0]).astype(int)
    x1, y1 = np.ceil(geo.board[2]).astype(int)
    frame = texture(rng, (y1 - y0, x1 - x0), style.frame_colour, style.frame_material)
    plane[y0:y1, x0:x1] = frame
    cv2.polylines(plane, [fixed(geo.board)], True, darker(style.frame_colour, 0.45), 2, cv2.LINE_AA, shift=4)
    if rng.random() < 0.4:  # stitching or an inlaid line along the rails
        inset = (geo.field_top - geo.board[0, 1]) * 0.45
        line = geo.board + np.array([[inset, inset], [-inset, inset], [-inset, -inset], [inset, -inset]])
        colour = (70, 170, 210) if rng.random() < 0.5 else darker(style.frame_colour, 1.5)
        cv2.polylines(plane, [fixed(line)], True, colour, 1, cv2.LINE_AA, shift=4)

    for half in geo.halves:
        draw_field(rng, plane, geo, half)
    if geo.trays is not None:
        for box in geo.trays.values():
            tx0, ty0, tx1, ty1 = box
            tray = np.array([[tx0, ty0], [tx1, ty0], [tx1, ty1], [tx0, ty1]])
            cv2.fillConvexPoly(plane, fixed(tray), darker(style.frame_colour, 0.75), cv2.LINE_AA, shift=4)
            cv2.polylines(plane, [fixed(tray)], True, darker(style.frame_colour, 0.4), 2, cv2.LINE_AA, shift=4)
    if rng.random() < 0.6:  # hinges across the bar of a folding board
        bx = (geo.bar[0] + geo.bar[1]) / 2
        for fy in (0.2, 0.8):
            y = geo.board[0, 1] + fy * (geo.board[2, 1] - geo.board[0, 1])
            rect = np.array([[bx - 0.12 * D, y - 0.5 * D], [bx + 0.12 * D, y + 0.5 * D]])
            cv2.rectangle(plane, tuple(fixed(rect[0])), tuple(fixed(rect[1])), (150, 165, 175), -1, cv2.LINE_AA,
                          shift=4)
    return plane


def draw_field(rng: np.random.Generator, plane: np.ndarray, geo: Geometry, half: tuple) -> None:
    """One half of the playing field with its six points in each row."""
    style = geo.style
    x0, x1 = int(np.floor(half[0])), int(np.ceil(half[1]))
    y0, y1 = int(np.floor(geo.field_top)), int(np.ceil(geo.field_bottom))
    field = np.empty((y1 - y0, x1 - x0, 3), np.uint8)
    field[:] = style.field_colour
    origin = np.array([x0, y0])
    for r, row in enumerate(ROWS):
        for slot, poly in enumerate(geo.point_polygons[row]):
            if not half[0] <= poly[2, 0] <= half[1]:
                continue
            colour = style.point_colours[(slot + r) % 2]
            outline = fixed(point_shape(poly, style.point_shape) - origin)
            cv2.fillPoly(field, [outline], colour, cv2.LINE_AA, shift=4)
            if style.point_shape == "outlined":
                cv2.polylines(field, [outline], True, style.point_colours[(slot + r + 1) % 2], 2, cv2.LINE_AA,
                              shift=4)
    field = paint(field, shade(rng, field.shape[:2], style.field_material))
    # The field lies a little below the rails: a dark line of shadow along its edge.
    cv2.rectangle(field, (0, 0), (field.shape[1] - 1, field.shape[0] - 1), darker(style.field_colour, 0.4), 2,
                  cv2.LINE_AA)
    plane[y0:y1, x0:x1] = field
