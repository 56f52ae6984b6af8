"""What the camera and the stream do to the picture: light falloff, colour, shadows of people and
lamps, glare on a glossy board, blur, sensor noise and compression.

Each effect is drawn from the image's own generator, so the whole chain is reproducible. The
slow per-pixel work is done on small maps that are enlarged (light and shadows are smooth), and
the noise comes from a fixed tile read at a random offset.

>>> import numpy as np
>>> img = np.full((90, 160, 3), 128, np.uint8)
>>> out = photometric(img, np.random.default_rng(0), board=np.array([[20, 20], [140, 20], [140, 70], [20, 70]]),
...                   glossy=True)
>>> out = stream(out, np.random.default_rng(1))
>>> out.shape, out.dtype
((90, 160, 3), dtype('uint8'))
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.synth.styles import smooth_noise

MAX_SIZE = (1920, 1080)


@lru_cache(maxsize=1)
def noise_tile() -> np.ndarray:
    """A fixed tile of unit Gaussian sensor noise (int16, x16) as large as the largest frame."""
    h, w = MAX_SIZE[1] + 64, MAX_SIZE[0] + 64
    return (np.random.default_rng(12345).standard_normal((h, w, 3), dtype=np.float32) * 16).astype(np.int16)


def background(rng: np.random.Generator, size: tuple) -> np.ndarray:
    """What lies beyond the table: a dim blurred room."""
    w, h = size
    base = rng.uniform(25, 130) * (1 + rng.normal(0, 0.12, 3)).astype(np.float32)  # greys, slightly tinted
    small = smooth_noise(rng, (18, 32), 6)[..., None] * 0.8 + 0.4
    return cv2.resize((small * base).clip(0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def light_map(rng: np.random.Generator, size: tuple) -> np.ndarray:
    """Per-pixel, per-channel gain (x128): falloff, vignetting, colour temperature, cast shadows."""
    w, h = size
    sw, sh = 64, 36
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    x, y = x / sw - 0.5, y / sh - 0.5
    a = rng.uniform(0, 2 * np.pi)
    gain = 1 + rng.uniform(0, 0.35) * (np.cos(a) * x + np.sin(a) * y) * 2
    gain *= 1 - rng.uniform(0, 0.45) * (x ** 2 + y ** 2) * 2  # vignetting
    gain *= rng.uniform(0.75, 1.2)
    if rng.random() < 0.35:  # a soft shadow of a person or a lamp arm across the scene
        blob = np.zeros((sh, sw), np.float32)
        pts = rng.uniform([-10, -10], [sw + 10, sh + 10], (rng.integers(3, 6), 2)).astype(np.int32)
        cv2.fillConvexPoly(blob, cv2.convexHull(pts), 1.0)
        gain *= 1 - rng.uniform(0.2, 0.5) * cv2.GaussianBlur(blob, (0, 0), rng.uniform(1, 4))
    kelvin = rng.uniform(-1, 1)  # warm tungsten (-1) to cold daylight (+1)
    tint = np.array([1 + 0.18 * kelvin, 1 + rng.normal(0, 0.03), 1 - 0.18 * kelvin], np.float32)
    gain = gain[..., None] * tint
    return cv2.resize((gain * 128).clip(0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def glare(rng: np.random.Generator, img: np.ndarray, board: np.ndarray) -> None:
    """A soft reflection of a window or lamp on a glossy board, inside the board's outline."""
    h, w = img.shape[:2]
    s = 4
    spot = np.zeros((h // s + 1, w // s + 1), np.uint8)
    centre = board.mean(axis=0) + rng.normal(0, 0.25, 2) * np.ptp(board, axis=0)
    axes = np.ptp(board, axis=0) * rng.uniform(0.05, 0.25, 2)
    cv2.ellipse(spot, tuple(int(v / s) for v in centre), tuple(int(v / s) + 1 for v in axes),
                rng.uniform(0, 180), 0, 360, int(rng.uniform(25, 100)), -1)
    inside = np.zeros_like(spot)
    cv2.fillConvexPoly(inside, np.round(board / s).astype(np.int32), 1)
    spot = cv2.GaussianBlur(spot * inside, (0, 0), max(axes.min() / s / 2, 1))
    spot = cv2.resize(spot, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.add(img, cv2.merge([spot, spot, spot]), dst=img)


def motion_blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = int(rng.integers(3, 10))
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2] = 1.0 / n
    rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, rot, (n, n))
    return cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def photometric(img: np.ndarray, rng: np.random.Generator, board: np.ndarray, glossy: bool,
                noise_rng: np.random.Generator | None = None) -> np.ndarray:
    """Light, glare, blur and sensor noise on a rendered image (``board``: its 4 image corners).

    ``noise_rng`` places the noise, so the frames of a video share their light but not their noise.
    """
    h, w = img.shape[:2]
    img = cv2.multiply(img, light_map(rng, (w, h)), scale=1 / 128)
    if rng.random() < (0.7 if glossy else 0.15):
        glare(rng, img, board)
    blur = rng.random()
    if blur < 0.2:
        img = motion_blur(img, rng)
    elif blur < 0.45:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.4))
    tile = noise_tile()
    noise_rng = noise_rng or rng
    ty, tx = noise_rng.integers(0, tile.shape[0] - h + 1), noise_rng.integers(0, tile.shape[1] - w + 1)
    level = np.int16(rng.integers(1, 7))  # standard deviation in grey levels
    return cv2.add(img, (tile[ty:ty + h, tx:tx + w] * level) >> 4, dtype=cv2.CV_8U)


def stream(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a stream or a phone's encoder does: rescaling and blocky compression."""
    h, w = img.shape[:2]
    if rng.random() < 0.2:  # a stream sent at a lower resolution and scaled up again
        f = rng.uniform(0.4, 0.8)
        img = cv2.resize(cv2.resize(img, (int(w * f), int(h * f)), interpolation=cv2.INTER_AREA), (w, h))
    if rng.random() < 0.6:
        img = jpeg(img, rng.integers(25, 90))
    return img
