"""What lies round a board in life: score sheets, a game clock, cups, a phone; and stream overlays.

Table things are drawn on the plane beside the board (never over it), so they warp and cast
shadows with it. Stream overlays (a logo, a score bug) are drawn on the finished image, as a
streamer's software adds them.

>>> import numpy as np
>>> from vision.synth.styles import sample_style
>>> from vision.synth.geometry import Geometry
>>> rng = np.random.default_rng(0)
>>> geo = Geometry(sample_style(rng), rng)
>>> x, y = beside_board(rng, geo, 60.0)
>>> bool(not (geo.board[0, 0] < x < geo.board[1, 0] and geo.board[0, 1] < y < geo.board[2, 1]))
True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth.camera import Camera, rotation
from vision.synth.geometry import D, Geometry
from vision.synth.shading import Light, ShadowLayer
from vision.synth.solids import Box, cast_box_shadow, draw_box, paste_quad

NAMES = ["LASSE", "MOCHY", "FALAFEL", "NACK", "AKIKO", "SASHA", "ZHAO", "ELENA", "KHALID", "OLGA"]


def beside_board(rng: np.random.Generator, geo: Geometry, half_size: float) -> tuple[float, float]:
    """A spot on the table round the board, ``half_size`` clear of the frame."""
    (x0, y0), (x1, y1) = geo.board[0], geo.board[2]
    gap = half_size + rng.uniform(0.2, 2.5) * D
    side = rng.integers(4)
    if side < 2:
        return rng.uniform(x0, x1), (y0 - gap if side == 0 else y1 + gap)
    return (x0 - gap if side == 2 else x1 + gap), rng.uniform(y0, y1)


def _rotated_rect(centre, size, angle) -> np.ndarray:
    w, h = size
    pts = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    return pts @ rotation("z", angle)[:2, :2].T + centre


def score_sheet(plane: np.ndarray, rng: np.random.Generator, centre, angle: float) -> None:
    """A sheet of paper with ruled lines and scribbled scores."""
    w, h = D * rng.uniform(3.5, 5), D * rng.uniform(5, 7)
    paper = np.full((int(h), int(w), 3), rng.integers(225, 250), np.uint8)
    ink = tuple(int(v) for v in rng.integers(20, 120, 3))
    for y in np.arange(D * 0.5, h, D * 0.32):
        cv2.line(paper, (3, int(y)), (int(w) - 3, int(y)), (200, 190, 180), 1, cv2.LINE_AA)
        if rng.random() < 0.7:
            xs = np.cumsum(rng.uniform(2, 6, 12)) + rng.uniform(4, w / 2)
            ys = y - 3 - rng.uniform(0, 6, 12)
            cv2.polylines(paper, [np.c_[xs, ys].astype(np.int32)], False, ink, 1, cv2.LINE_AA)
    paste_quad(plane, paper, _rotated_rect(centre, (w, h), angle))


def clock_picture(rng: np.random.Generator) -> np.ndarray:
    """The top of a two-sided game clock: two displays showing time left."""
    top = np.full((60, 120, 3), rng.integers(15, 60), np.uint8)
    for i in range(2):
        x = 8 + i * 58
        cv2.rectangle(top, (x, 18), (x + 46, 44), (150, 185, 160), -1)
        t = f"{rng.integers(0, 10)}:{rng.integers(0, 60):02d}"
        cv2.putText(top, t, (x + 4, 39), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (30, 30, 30), 2, cv2.LINE_AA)
        cv2.rectangle(top, (x + 14, 4), (x + 32, 12), (40, 40, 200) if i else (200, 200, 200), -1)
    return top


def table_things(plane: np.ndarray, rng: np.random.Generator, geo: Geometry, cam: Camera,
                 light: Light, shadows: ShadowLayer) -> None:
    """Lay a few random things on the table round the board (the shadows go to ``shadows``)."""
    for _ in range(rng.integers(0, 4)):
        kind = rng.choice(["sheet", "clock", "cup", "phone"])
        angle = rng.uniform(0, 360)
        if kind == "sheet":
            score_sheet(plane, rng, beside_board(rng, geo, 3.5 * D), angle)
        elif kind == "clock":
            box = Box(np.r_[beside_board(rng, geo, 2.5 * D), -0.6 * D], np.array([2.4, 1.2, 0.6]) * D,
                      rotation("z", angle))
            face = clock_picture(rng)
            side = np.full((16, 16, 3), face[0, 0], np.uint8)
            picture = cv2.resize(face, (120, 120))  # the face squeezed to a square; the box restores it
            cast_box_shadow(shadows, box)
            draw_box(plane, cam, box, [side, side, side, side, picture, side], light)
        elif kind == "phone":
            box = Box(np.r_[beside_board(rng, geo, 2.2 * D), -0.08 * D], np.array([1.4, 0.7, 0.08]) * D,
                      rotation("z", angle))
            screen = np.full((64, 64, 3), 20, np.uint8)
            if rng.random() < 0.5:
                screen[4:-4, 4:-4] = rng.integers(40, 200, 3)
            draw_box(plane, cam, box, [screen] * 6, light)
        else:
            cup(plane, rng, cam, shadows, beside_board(rng, geo, 1.6 * D))


def cup(plane: np.ndarray, rng, cam: Camera, shadows: ShadowLayer, xy) -> None:
    """A dice cup or a mug: a cylinder with a rim and a dark inside."""
    radius, height = D * rng.uniform(0.8, 1.5), D * rng.uniform(1.5, 3)
    colour = tuple(int(v) for v in rng.integers(20, 230, 3))
    shadows.disc(xy, radius, 0, height)
    base, top = cam.to_plane(np.array([[xy[0], xy[1], 0], [xy[0], xy[1], -height]]))
    p0, p1 = (tuple(int(round(v * 16)) for v in p) for p in (base, top))
    cv2.line(plane, p0, p1, tuple(int(v * 0.7) for v in colour), int(2 * radius), cv2.LINE_AA, shift=4)
    r = int(radius * cam.scale_at(height) * 16)
    cv2.circle(plane, p1, r, colour, -1, cv2.LINE_AA, shift=4)
    cv2.circle(plane, p1, int(r * 0.85), tuple(int(v * 0.25) for v in colour), -1, cv2.LINE_AA, shift=4)


def overlay(img: np.ndarray, rng: np.random.Generator) -> None:
    """A streamer's graphics: a score bug with names and score, or a channel logo, in a corner."""
    h, w = img.shape[:2]
    unit = h / 720
    scale = 0.6 * unit
    if rng.random() < 0.6:
        a, b = rng.choice(NAMES, 2, replace=False)
        text = f"{a} {rng.integers(0, 11)}  {b} {rng.integers(0, 11)}   to {rng.choice([5, 7, 9, 11, 13])}"
    else:
        text = rng.choice(["BG LIVE", "NARDY TV", "GAMMON CUP", "LIVE"])
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(2 * unit)))
    pad = int(10 * unit)
    x = pad if rng.random() < 0.5 else w - tw - 3 * pad
    y = pad if rng.random() < 0.5 else h - th - 3 * pad
    box = img[y:y + th + 2 * pad, x:x + tw + 2 * pad]
    tint = np.array(rng.integers(0, 120, 3), np.float32)
    box[:] = (box * 0.35 + tint * 0.65).astype(np.uint8)
    cv2.putText(img, text, (x + pad, y + pad + th), cv2.FONT_HERSHEY_SIMPLEX, scale, (245, 245, 245),
                max(1, int(2 * unit)), cv2.LINE_AA)
