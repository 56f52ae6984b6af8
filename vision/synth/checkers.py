"""Checkers: a shaded face (bevelled rim, engraved ring, gloss) on a dark-edged side, with parallax.

A checker lying flat is a short cylinder. Seen from the camera its side is the sweep of its
base disc up to its top disc, which on the plane is a thick round-capped line from the base
centre to the top centre (:meth:`Camera.to_plane`); the face is a sprite pasted at the top.
A checker standing on edge in a tray is a box (:mod:`vision.synth.solids`).

>>> import numpy as np
>>> face = face_sprite((240, 240, 240), 24.0, rings=True, gloss=0.5, light_angle=45.0)
>>> face.shape, face.dtype
((52, 52, 4), dtype('uint8'))
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.synth.camera import Camera
from vision.synth.geometry import D, Checker
from vision.synth.shading import Light, ShadowLayer
from vision.synth.solids import Box, cast_box_shadow, draw_box


@lru_cache(maxsize=512)
def face_sprite(colour: tuple, radius: float, rings: bool, gloss: float, light_angle: float) -> np.ndarray:
    """BGRA picture of a checker's top face of ``radius`` plane pixels, centred in the sprite."""
    size = int(np.ceil(radius)) * 2 + 4
    c = (size - 1) / 2
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) - c
    r = np.hypot(x, y) / radius
    base = np.array(colour, np.float32)
    luma = base.mean()
    # A bevel: the rim rounds off and darkens; a dark checker's rim catches a little light.
    shade = 1.0 - 0.28 * np.clip((r - 0.82) / 0.18, 0, 1) ** 1.5
    shade += 0.05 * (1 - r.clip(0, 1))  # faces are slightly domed
    if rings:
        groove = np.exp(-((r - 0.66) / 0.035) ** 2)
        lip = np.exp(-((r - 0.72) / 0.03) ** 2)
        shade += -0.22 * groove + 0.10 * lip
    a = np.radians(light_angle)
    lx, ly = np.cos(a) * 0.38, np.sin(a) * 0.38
    spot = np.exp(-(((x / radius - lx) ** 2 + (y / radius - ly) ** 2) / 0.06))
    rgb = base * shade[..., None] + (gloss * (255 - 0.3 * luma)) * spot[..., None]
    # The outline, a hair darker than the side, keeps touching checkers apart as in life.
    edge = np.clip((r - 0.95) / 0.05, 0, 1)[..., None]
    rgb = rgb * (1 - 0.45 * edge)
    alpha = np.clip((radius - np.hypot(x, y)) + 0.5, 0, 1) * 255
    return np.dstack([rgb.clip(0, 255), alpha]).astype(np.uint8)


def paste(plane: np.ndarray, sprite: np.ndarray, centre) -> None:
    """Alpha-blend a BGRA ``sprite`` onto ``plane`` with its centre at ``centre``."""
    h, w = sprite.shape[:2]
    x0, y0 = int(round(centre[0] - (w - 1) / 2)), int(round(centre[1] - (h - 1) / 2))
    X0, Y0, X1, Y1 = max(x0, 0), max(y0, 0), min(x0 + w, plane.shape[1]), min(y0 + h, plane.shape[0])
    if X1 <= X0 or Y1 <= Y0:
        return
    s = sprite[Y0 - y0:Y1 - y0, X0 - x0:X1 - x0]
    a = s[..., 3:4].astype(np.float32) / 255
    roi = plane[Y0:Y1, X0:X1]
    roi[:] = (s[..., :3] * a + roi * (1 - a)).astype(np.uint8)


class CheckerPainter:
    """Draws one board's checkers: its checker colours, height and finish, under one light."""

    def __init__(self, style, cam: Camera, light: Light):
        self.cam, self.light = cam, light
        self.colours = dict(zip(("light", "dark"), style.checker_colours))
        self.height = style.checker_height * D
        self.rings = style.checker_rings
        self.gloss = 0.55 if style.glossy else 0.12

    def _ends(self, c: Checker) -> np.ndarray:
        """World points of the centres of the checker's underside and top."""
        return np.array([[c.x, c.y, -c.base], [c.x, c.y, -c.base - self.height]])

    def edge_box(self, c: Checker) -> Box:
        """A checker standing on its edge in a tray, as a box across the tray."""
        return Box(np.array([c.x, c.y, -D / 2 * 0.92]), np.array([D * 0.46, self.height / 2, D * 0.46]), np.eye(3))

    def outline(self, c: Checker) -> np.ndarray:
        """World points round the checker's underside and top, for its bounding box in the image."""
        if c.on_edge:
            return self.edge_box(c).corners()
        t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        ring = np.c_[np.cos(t), np.sin(t), np.zeros_like(t)] * D / 2
        return np.vstack([e + ring for e in self._ends(c)])

    def cast(self, shadows: ShadowLayer, checkers: list[Checker]) -> None:
        for c in checkers:
            if c.on_edge:
                cast_box_shadow(shadows, self.edge_box(c))
            else:
                shadows.disc((c.x, c.y), D / 2, c.base, c.base + self.height)

    def draw(self, plane: np.ndarray, checkers: list[Checker], lift: float = 0.0) -> None:
        """Draw ``checkers`` in order (lowest first); ``lift`` raises them all, for one in a hand."""
        for c in checkers:
            colour = self.colours[c.colour]
            if c.on_edge:
                draw_box(plane, self.cam, self.edge_box(c), self._edge_faces(c.colour), self.light)
                continue
            ends = self._ends(c)
            ends[:, 2] -= lift
            base, top = self.cam.to_plane(ends)
            side = tuple(int(v * 0.62) for v in colour)
            dark = tuple(int(v * 0.35) for v in colour)
            radius = D / 2 * self.cam.scale_at(c.base + lift)
            p0, p1 = (tuple(int(round(v * 16)) for v in p) for p in (base, top))
            cv2.line(plane, p0, p1, dark, int(round(2 * radius + 2)), cv2.LINE_AA, shift=4)
            cv2.line(plane, p0, p1, side, int(round(2 * radius)), cv2.LINE_AA, shift=4)
            r_top = round(D / 2 * self.cam.scale_at(c.base + lift + self.height) * 2) / 2
            paste(plane, face_sprite(colour, r_top, self.rings, self.gloss, self.light.azimuth), top)

    def _edge_faces(self, colour_name: str) -> list:
        colour = self.colours[colour_name]
        side = np.full((16, 16, 3), [int(v * 0.8) for v in colour], np.uint8)
        side[[0, -1]] = [int(v * 0.45) for v in colour]  # the rims between neighbours
        face = np.full((16, 16, 3), colour, np.uint8)
        return [face, face, side, side, side, side]
