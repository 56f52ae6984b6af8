"""Checkers: colour and count of the stack on every point and on each half of the bar.

Each *location* (24 points, the bar's light and dark halves) is read from one crop of the image
taken in field coordinates (:mod:`vision.rectify`): a column one and a third points wide and the
field's full height long, turned so the rail the stack grows from is at the top. A point's crop
therefore holds its whole stack, long columns and upper layers included, and the stack facing
it at the far end; a half of the bar is cropped from the middle outwards the same way.

A small convolutional network (:mod:`vision.train`) maps a crop to a probability for each of
31 readings: empty, light 1..15, dark 1..15 (the colour of a stack is the colour on top).

>>> CLASSES[0], CLASSES[1], CLASSES[16], len(CLASSES)
((None, 0), ('light', 1), ('dark', 1), 31)
>>> class_of("dark", 15), class_of(None, 0)
(30, 0)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.rectify import Field, quad

CROP = (24, 144)  # width, height of a location's crop
WIDTH_POINTS = 1.35  # a crop's width in point widths
MAX_COUNT = 15
CLASSES = [(None, 0)] + [("light", n) for n in range(1, 16)] + [("dark", n) for n in range(1, 16)]
LOCATIONS = [("top", s) for s in range(12)] + [("bottom", s) for s in range(12)] + [("bar", "light"), ("bar", "dark")]
MODEL = Path(__file__).resolve().parent.parent / "models" / "checkers.onnx"
# A second, small network reads from the same crops whether a stack holds both colours (a checker
# laid on a point the opponent blocks, RULES 3.2): 2 outputs, single-coloured or mixed.
MIXED_MODEL = MODEL.with_name("mixed.onnx")


def class_of(colour: str | None, count: int) -> int:
    """The class index of a reading."""
    if not count or colour is None:
        return 0
    return (1 if colour == "light" else 16) + min(count, MAX_COUNT) - 1


def location_quad(field: Field, where: tuple, shift: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """The field quadrilateral of a location's crop (``shift`` in point widths, ``scale`` of width)."""
    w = field.point_w
    half = WIDTH_POINTS * w * scale / 2
    kind, which = where
    if kind == "bar":
        u = 0.5 + shift * w
        # The bar's stacks start at the middle: light's grow down, dark's up.
        return quad(u - half, u + half, 0.5, 1.5) if which == "light" else quad(u + half, u - half, 0.5, -0.5)
    u = field.slot_u(which) + shift * w
    return quad(u - half, u + half, 0.0, 1.0) if kind == "top" else quad(u + half, u - half, 1.0, 0.0)


def crops(image: np.ndarray, field: Field, jitter: np.random.Generator | None = None) -> np.ndarray:
    """The (26, h, w, 3) uint8 crops of every location, in :data:`LOCATIONS` order."""
    out = np.empty((len(LOCATIONS), CROP[1], CROP[0], 3), np.uint8)
    for i, where in enumerate(LOCATIONS):
        shift, scale = 0.0, 1.0
        if jitter is not None:
            shift, scale = jitter.normal(0, 0.06), jitter.uniform(0.93, 1.07)
        out[i] = field.crop(image, location_quad(field, where, shift, scale), CROP)
    return out


def labels(recognized: dict) -> np.ndarray:
    """The 26 class indices of a truth's recognizer form."""
    out = []
    for kind, which in LOCATIONS:
        if kind == "bar":
            n = recognized["bar"][which]
            out.append(class_of(which, n))
        else:
            colour, n = recognized[kind][which]
            out.append(class_of(colour, n))
    return np.array(out, np.int64)


def mixed_labels(truth: dict) -> np.ndarray:
    """1 for each location of :data:`LOCATIONS` that a truth's ``mixed`` lists (checkers of
    both colours on one point), else 0."""
    mixed = {tuple(where) for where in truth.get("mixed", [])}
    return np.array([int(where in mixed) for where in LOCATIONS], np.int64)


def to_input(batch: np.ndarray) -> np.ndarray:
    """uint8 (N, h, w, 3) BGR crops to the network's float32 (N, 3, h, w) input in [0, 1]."""
    return np.ascontiguousarray(batch[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


class CheckerModel:
    """The ONNX checker network run with onnxruntime (one thread per core); with ``outputs=2``,
    the mixed-stack network (:data:`MIXED_MODEL`)."""

    def __init__(self, path: Path | str = MODEL, mirror: bool = True, outputs: int = len(CLASSES)):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types for a file it cannot load
            raise ValueError(f"{path} is not an ONNX model onnxruntime can load ({str(exc).splitlines()[0]})") from None
        given, made = self.session.get_inputs()[0], self.session.get_outputs()[0]
        if list(given.shape[1:]) != [3, CROP[1], CROP[0]] or made.shape[-1] != outputs:
            raise ValueError(f"{path} is not the network asked for: it takes {given.shape[1:]} and gives "
                             f"{made.shape[-1]} readings, not [3, {CROP[1]}, {CROP[0]}] and {outputs}")
        self.input = given.name
        self.mirror = mirror

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        """(N, outputs) probabilities for uint8 crops; with ``mirror``, averaged with the mirrored crops'."""
        x = to_input(batch)
        if self.mirror:
            x = np.concatenate([x, x[..., ::-1]])
        p = softmax(self.session.run(None, {self.input: np.ascontiguousarray(x)})[0].astype(np.float64))
        return (p[:len(batch)] + p[len(batch):]) / 2 if self.mirror else p

