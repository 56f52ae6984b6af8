"""Rendering: a stage (board, table, camera, light) that draws any content, with its exact truth.

A :class:`Stage` is everything that stays still through a video: the board's style and
measurements, the table and its clutter, the camera and the light. Its empty board is drawn
once; :meth:`Stage.render` then lays the checkers, dice, cube and hands of one frame on a copy,
warps it into the camera and degrades it as a real camera and stream would.

>>> img, truth = render_image(seed=7, index=0, size=(640, 360))
>>> img.shape, sum(truth["board"]["player"]) + truth["board"]["player_bar"] <= 15
((360, 640, 3), True)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.layout import COLOURS
from vision.synth import clutter, effects, hands
from vision.synth.board import draw_board
from vision.synth.camera import sample_camera, warp
from vision.synth.checkers import CheckerPainter
from vision.synth.geometry import D, Geometry
from vision.synth.scene import Content, random_content
from vision.synth.shading import SHADOW_SCALE, ShadowLayer, sample_light
from vision.synth.solids import cast_box_shadow, draw_box
from vision.synth.styles import sample_style
from vision.synth.truth import TruthBuilder

SIZES = [(640, 360), (854, 480), (960, 540), (1024, 576), (1280, 720), (1600, 900), (1920, 1080)]


def image_rng(seed: int, index: int, stream: int = 0) -> np.random.Generator:
    """The generator of image ``index`` of run ``seed``: each image is reproducible alone."""
    return np.random.default_rng([seed, index, stream])


class Stage:
    """The still part of a scene; ``rng`` draws all of it."""

    def __init__(self, rng: np.random.Generator, variant: str, size: tuple):
        self.variant = variant
        self.style = sample_style(rng, variant)
        self.geo = Geometry(self.style, rng)
        self.cam = sample_camera(rng, self.geo.board, size)
        self.light = sample_light(rng)
        self.plane = draw_board(rng, self.geo, self.cam, self.light)
        shadows = ShadowLayer(self.geo.size, self.light)
        clutter.table_things(self.plane, rng, self.geo, self.cam, self.light, shadows)
        shadows.apply(self.plane)
        self.background = effects.background(rng, size)
        self.overlay = rng.random() < 0.25
        self.look_seed = int(rng.integers(2 ** 31))  # the camera's and the stream's effects
        self.painter = CheckerPainter(self.style, self.cam, self.light)

    def render(self, content: Content, frame: int = 0, degrade: bool = True) -> tuple[np.ndarray, dict]:
        """The image of ``content`` and its truth. ``frame`` only moves the sensor noise."""
        plane = self.plane.copy()
        checkers = self.geo.checkers(content.phys)
        shadows = ShadowLayer(self.geo.size, self.light)
        self.painter.cast(shadows, checkers)
        for solid in content.dice + ([content.cube] if content.cube else []):
            cast_box_shadow(shadows, solid.box)
        shadows.apply(plane)
        self.painter.draw(plane, checkers)
        for solid in ([content.cube] if content.cube else []) + content.dice:
            draw_box(plane, self.cam, solid.box, solid.pictures(self.style), self.light)
        if content.hands or content.held:
            shadows = ShadowLayer(self.geo.size, self.light)
            for hand in content.hands:
                hands.cast(shadows, hand, self.cam)
            for checker, lift in content.held:
                shadows.disc((checker.x, checker.y), D / 2, lift, lift + self.painter.height)
            shadows.apply(plane)
            for checker, lift in content.held:
                self.painter.draw(plane, [checker], lift)
        hand_mask = np.zeros((plane.shape[0] // SHADOW_SCALE + 1, plane.shape[1] // SHADOW_SCALE + 1), np.uint8)
        for hand in content.hands:
            for poly in hands.draw(plane, hand, self.cam):
                cv2.fillPoly(hand_mask, [np.round(poly / SHADOW_SCALE).astype(np.int32)], 1)

        truth = self.label(content, checkers, hand_mask)
        img = warp(plane, self.cam, self.background.copy())
        if degrade:
            look = np.random.default_rng(self.look_seed)
            img = effects.photometric(img, look, np.asarray(truth["corners"]), self.style.glossy,
                                      noise_rng=np.random.default_rng([self.look_seed, frame]))
            if self.overlay:
                clutter.overlay(img, np.random.default_rng(self.look_seed + 1))
            img = effects.stream(img, look)
        return img, truth

    def covered(self, hand_mask: np.ndarray, plane_pts: np.ndarray) -> float:
        """The fraction of ``plane_pts`` under a hand."""
        idx = np.round(np.asarray(plane_pts) / SHADOW_SCALE).astype(int)
        idx = idx.clip(0, [hand_mask.shape[1] - 1, hand_mask.shape[0] - 1])
        return float(hand_mask[idx[:, 1], idx[:, 0]].mean())

    def label(self, content: Content, checkers: list, hand_mask: np.ndarray) -> dict:
        """Truth and objects of the frame drawn from ``content``."""
        tb = TruthBuilder(self.cam, self.geo)
        for c in checkers + [c for c, _ in content.held]:
            pts = self.painter.outline(c)
            seen = 1 - self.covered(hand_mask, self.cam.to_plane(pts))
            if c.where == "off" and c.on_edge:
                continue  # labelled per tray below: a row of edges is not a checker's box
            tb.add(f"checker_{c.colour}", pts, seen, where=c.where)
        for colour in COLOURS:
            edges = [c for c in checkers if c.where == "off" and c.on_edge and c.colour == colour]
            if edges:
                pts = np.vstack([self.painter.outline(c) for c in edges])
                tb.add(f"off_{colour}", pts, 1 - self.covered(hand_mask, self.cam.to_plane(pts)), count=len(edges))
        for d in content.dice:
            pts = d.box.corners()
            tb.add(f"die_{d.value}" if d.flat else "die_cocked", pts, 1 - self.covered(hand_mask, self.cam.to_plane(pts)),
                   value=int(d.value))
        if content.cube is not None:
            pts = content.cube.box.corners()
            tb.add(f"cube_{content.cube.value}", pts, 1 - self.covered(hand_mask, self.cam.to_plane(pts)))
        for hand in content.hands:
            tb.add("hand", np.vstack([hand.world(p) for _, p in hand.parts()]))
        board = np.round(self.geo.board / SHADOW_SCALE).astype(int)
        under = hand_mask[board[0, 1]:board[2, 1], board[0, 0]:board[2, 0]]
        truth = tb.truth(content, float(under.mean()) if under.size else 0.0, {
            "variant": self.variant, "camera": self.cam.to_dict(),
            "style": {"family": self.style.family, "field": self.style.field_material,
                      "frame": self.style.frame_material, "point_shape": self.style.point_shape,
                      "glossy": self.style.glossy, "trays": self.style.has_trays,
                      "long_stacks": self.style.long_stacks}})
        truth["yolo"] = tb.yolo(truth["corners"])
        return truth


def render_image(seed: int, index: int, variant: str | None = None, size: tuple | None = None, fouls: float = 0.0,
                 bear_off: float = 0.0):
    """Random image ``index`` of run ``seed``: ``(image, truth)``; any variant and size if not given;
    ``fouls``: the share of boards with a checker on the other side's stack; ``bear_off``: the
    share of boards in the bear-off (:func:`vision.synth.scene.bearing_off_board`)."""
    rng = image_rng(seed, index)
    variant = variant or ("backgammon", "long")[int(rng.random() < 0.35)]
    size = size or SIZES[rng.integers(len(SIZES))]
    stage = Stage(rng, variant, tuple(size))
    return stage.render(random_content(rng, stage.geo, variant, fouls, bear_off))
