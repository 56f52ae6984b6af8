"""Board styles: the colours, materials and finish of a board and its checkers, drawn at random.

Every style is drawn from a palette family that exists in life (tournament boards with red and
black points on cream, green felt, leather, wooden nardy boards, modern grey and blue, dark
points under dark checkers) and then jittered, so no two renders share exact colours. Colours
are BGR, as OpenCV draws them.

>>> import numpy as np
>>> style = sample_style(np.random.default_rng(0))
>>> style.point_shape in POINT_SHAPES and len(style.checker_colours) == 2
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """BGR of an ``#rrggbb`` colour: ``rgb("#ff0000") == (0, 0, 255)``."""
    value = int(hex_colour.lstrip("#"), 16)
    return value & 255, (value >> 8) & 255, value >> 16


# Each family: field materials and colours, the two point colours, frame materials and colours.
FAMILIES = {
    "tournament": dict(field=("leather", "felt", "plain"), field_colours=["#efe6cf", "#e8dcc0", "#f3ecd8", "#d9cba6"],
                       points=[("#a3231f", "#1c1c1c"), ("#7d1420", "#20242a"), ("#b0302a", "#2b2b2b"),
                               ("#1d5c3a", "#a3231f")],
                       frame=("leather", "wood"), frame_colours=["#2a1d15", "#151515", "#3b2416", "#5a1a14"]),
    "green_felt": dict(field=("felt",), field_colours=["#1f5a32", "#2e6b3c", "#174a2a", "#23663f"],
                       points=[("#e9e0c8", "#9c2a22"), ("#efe8d8", "#1a1a1a"), ("#c9a86a", "#7a2418")],
                       frame=("wood", "leather"), frame_colours=["#5b3a1f", "#3a2413", "#1b1b1b"]),
    "leather": dict(field=("leather",), field_colours=["#5a3b22", "#8a6238", "#3c2a1c", "#b08a5a"],
                    points=[("#d8c39a", "#2a1a10"), ("#a3542b", "#e6d5b0"), ("#6e1f1a", "#cdb48a")],
                    frame=("leather", "wood"), frame_colours=["#2a1a10", "#4a2e1a", "#151010"]),
    "wood_nardy": dict(field=("wood",), field_colours=["#c89a5c", "#b07a40", "#d8b07a", "#9a6a3a"],
                       points=[("#5a2e14", "#e0c08a"), ("#3b2010", "#a8642a"), ("#7a3a1a", "#2a160a"),
                               ("#e8d2a8", "#6a3518")],
                       frame=("wood",), frame_colours=["#6a3e1c", "#4a2812", "#8a5a2a"]),
    "modern": dict(field=("felt", "plain", "leather"), field_colours=["#2a4a78", "#6c7278", "#d9d9d4", "#3a3a40"],
                   points=[("#e0e0e0", "#c0392b"), ("#f2c14e", "#1f2d3d"), ("#8fa3b8", "#d35400"),
                           ("#ffffff", "#2c3e50")],
                   frame=("plain", "leather", "wood"), frame_colours=["#202226", "#e8e8e8", "#4a4a4a", "#1c2a40"]),
    "dark": dict(field=("felt", "leather", "plain"), field_colours=["#202020", "#2a2420", "#1a2420"],
                 points=[("#3a3a3a", "#7a1a18"), ("#4a3a2a", "#141414"), ("#5a1414", "#2e2e2e")],
                 frame=("wood", "leather"), frame_colours=["#101010", "#3a2416"]),
}

CHECKER_PAIRS = [("#f4f1ea", "#1d1d1d"), ("#f2eee4", "#b3201c"), ("#efe0bf", "#5a3318"),
                 ("#e8dcc4", "#6e1822"), ("#fafafa", "#26364d"), ("#efe6d2", "#2b2b2b"),
                 ("#d9c7a0", "#3a2414"), ("#f5f0e6", "#8a1d12")]
TABLE_COLOURS = ["#6b4a2e", "#8a6a4a", "#3c2f28", "#b9a58a", "#d0ccc4", "#2b2d30", "#5c6a5a", "#9a7b5a",
                 "#e4e0d8", "#40342c"]
POINT_SHAPES = ("triangle", "slim", "rounded", "outlined")


@dataclass
class Style:
    """Everything about how a board looks, apart from where it lies and what is on it."""

    family: str
    field_material: str
    field_colour: tuple
    point_colours: tuple  # (colour of odd slots, colour of even slots)
    point_shape: str
    frame_material: str
    frame_colour: tuple
    checker_colours: tuple  # (light, dark)
    checker_rings: bool  # an engraved ring on the checker's face
    glossy: bool
    has_trays: bool
    dice_colour: tuple
    pip_colour: tuple
    cube_colour: tuple
    cube_ink: tuple
    table_colour: tuple
    table_material: str
    # Proportions, in checker diameters.
    point_width: float
    point_length: float
    middle_gap: float
    bar_width: float
    rail_width: float
    tray_width: float
    checker_height: float
    long_stacks: bool  # stacks run in long columns past the middle instead of rows of five


def jitter(rng: np.random.Generator, colour: tuple, amount: float = 14) -> tuple:
    """``colour`` moved a little in each channel, so a family's colours are never reused exactly."""
    return tuple(int(np.clip(c + rng.normal(0, amount), 0, 255)) for c in colour)


def sample_style(rng: np.random.Generator, variant: str = "backgammon") -> Style:
    """A random board style; wooden boards are likelier for long nardy, as in life."""
    weights = {"tournament": 3, "green_felt": 2, "leather": 2, "wood_nardy": 2, "modern": 2, "dark": 1}
    if variant == "long":
        weights["wood_nardy"] = 7
    names = list(weights)
    p = np.array([weights[n] for n in names], float)
    family = names[rng.choice(len(names), p=p / p.sum())]
    fam = FAMILIES[family]
    points = fam["points"][rng.integers(len(fam["points"]))]
    if rng.random() < 0.5:
        points = points[::-1]
    light, dark = CHECKER_PAIRS[rng.integers(len(CHECKER_PAIRS))]
    if family == "dark" or rng.random() < 0.1:
        # dark checkers on the darker points, the hard case a recognizer must handle; the
        # lighter points (white, cream) would make "dark" the lighter side, which no player calls it
        dark = min(points, key=lambda c: cv2.cvtColor(np.uint8([[rgb(c)]]), cv2.COLOR_BGR2LAB)[0, 0, 0])
    dice_colour, pip_colour = [("#f7f4ee", "#151515"), ("#b71c1c", "#f5f5f5"), ("#161616", "#f2f2f2"),
                               ("#efe6cf", "#1a1a1a"), ("#1b4f8a", "#f5f5f5")][rng.integers(5)]
    cube_colour = jitter(rng, rgb(["#f4efe2", "#f7f7f7", "#e9dcc0", "#202020"][rng.integers(4)]), 6)
    pick = lambda seq: seq[rng.integers(len(seq))]  # noqa: E731 - a one-line helper for the palette
    return Style(
        family=family,
        field_material=pick(fam["field"]),
        field_colour=jitter(rng, rgb(pick(fam["field_colours"]))),
        point_colours=(jitter(rng, rgb(points[0])), jitter(rng, rgb(points[1]))),
        point_shape=pick(POINT_SHAPES),
        frame_material=pick(fam["frame"]),
        frame_colour=jitter(rng, rgb(pick(fam["frame_colours"]))),
        checker_colours=(jitter(rng, rgb(light), 8), jitter(rng, rgb(dark), 10)),
        checker_rings=bool(rng.random() < 0.6),
        glossy=bool(rng.random() < 0.5),
        has_trays=bool(rng.random() < (0.4 if variant == "long" else 0.85)),
        dice_colour=jitter(rng, rgb(dice_colour), 6),
        pip_colour=rgb(pip_colour),
        cube_colour=cube_colour,
        cube_ink=rgb("#f0f0f0") if sum(cube_colour) < 300 else rgb("#111111"),
        table_colour=jitter(rng, rgb(pick(TABLE_COLOURS)), 18),
        table_material=pick(("wood", "plain", "felt", "leather")),
        point_width=rng.uniform(1.03, 1.22),
        point_length=rng.uniform(4.5, 5.8),
        middle_gap=rng.uniform(0.6, 2.0),
        bar_width=rng.uniform(0.8, 2.0),
        rail_width=rng.uniform(0.35, 1.1),
        tray_width=rng.uniform(1.15, 1.5),
        checker_height=rng.uniform(0.14, 0.24),
        long_stacks=bool(rng.random() < (0.7 if variant == "long" else 0.15)),
    )


def smooth_noise(rng: np.random.Generator, shape: tuple, cells: int) -> np.ndarray:
    """Value noise in [0, 1] of ``shape`` (h, w) with about ``cells`` blobs across; cheap at any size."""
    h, w = shape
    gh, gw = max(2, int(cells * h / max(h, w)) + 2), max(2, int(cells * w / max(h, w)) + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def shade(rng: np.random.Generator, shape: tuple, material: str) -> np.ndarray:
    """A float32 brightness map (about 1) of ``material`` ("wood", "felt", "leather", "plain").

    The map is a quarter of ``shape`` (h, w): grain and mottling are low frequency, and
    enlarging the finished picture instead keeps a 2000-pixel table under a few milliseconds.
    """
    sh, sw = max(8, shape[0] // 4), max(8, shape[1] // 4)
    if material == "wood":
        # Growth rings: stripes across the plank, bent by low-frequency noise, with fine fibres.
        y = np.linspace(0, 1, sh, dtype=np.float32)[:, None]
        warp = smooth_noise(rng, (sh, sw), 4) * rng.uniform(0.5, 2.0)
        rings = np.sin((y * rng.uniform(25, 70) + warp * 6) * np.pi) * 0.5 + 0.5
        fibres = rng.random((sh, 1), dtype=np.float32) * 0.5 + smooth_noise(rng, (sh, sw), 40) * 0.5
        small = 0.82 + 0.11 * rings ** 3 + 0.08 * fibres
        if rng.random() < 0.5:  # planks run either way
            small = cv2.resize(np.ascontiguousarray(small.T), (sw, sh))
    elif material == "felt":
        small = 0.94 + 0.06 * smooth_noise(rng, (sh, sw), 12) + rng.random((sh, sw), dtype=np.float32) * 0.06
    elif material == "leather":
        cells = cv2.GaussianBlur(rng.random((sh, sw), dtype=np.float32), (0, 0), 1.2)
        small = 0.88 + 0.14 * smooth_noise(rng, (sh, sw), 6) + 0.25 * (cells - cells.mean())
    else:
        small = 0.96 + 0.04 * smooth_noise(rng, (sh, sw), 3)
    return small.astype(np.float32)


def texture(rng: np.random.Generator, shape: tuple, colour: tuple, material: str) -> np.ndarray:
    """A BGR image of ``material`` in ``colour``, of ``shape`` (h, w)."""
    small = shade(rng, shape, material)
    img = (small[..., None] * np.float32(colour)).clip(0, 255).astype(np.uint8)
    return cv2.resize(img, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def paint(img: np.ndarray, brightness: np.ndarray) -> np.ndarray:
    """``img`` (uint8 BGR) times a brightness map of any size, enlarged to fit."""
    gain = cv2.resize((brightness * 128).clip(0, 255).astype(np.uint8), (img.shape[1], img.shape[0]))
    return cv2.multiply(img, cv2.merge([gain, gain, gain]), scale=1 / 128)
