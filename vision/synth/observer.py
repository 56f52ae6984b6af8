"""An oracle observer for rendered videos: observations made from each frame's truth, with noise.

The tracker and the frame loop must be tested and measured before (and apart from) the trained
recognizer, and with a recognizer whose errors we choose. :class:`TruthObserver` reads a
render's ``frames.jsonl`` and, for frame ``i``, returns an :class:`~vision.observation.Observation`
whose best reading is the truth except where noise says otherwise:

- every location gets a confidence ``c`` drawn from ``U(confidence, 1)`` for its true reading,
  the rest spread over the neighbouring counts of the same colour and, thinly, everything else;
- with probability ``flip`` a location's best reading is a neighbouring count instead (a
  misread stack), with the true reading second.

It never sees the image, so it measures the tracker, not vision. It is not used unless asked
for (``watch --truth``), and the demo says so when it falls back to it.

>>> obs = TruthObserver.from_truths([{"recognized": {"top": [[None, 0]] * 12, "bottom": [[None, 0]] * 12,
...     "bar": {"light": 0, "dark": 0}, "off": {"light": 15, "dark": 15}, "dice": [], "cube": None},
...     "throw": {"dice": [], "halves": [], "flat": []}}], flip=0.0)(None, 0)
>>> obs.best()["top"][0], obs.dice
([None, 0], [])
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.checkers import CLASSES, LOCATIONS, class_of
from vision.observation import CUBE_LOCATIONS, CUBE_VALUES, Observation


class TruthObserver:
    def __init__(self, truths: list[dict], *, confidence: float = 0.8, flip: float = 0.01, seed: int = 0):
        self.truths = truths
        self.confidence, self.flip = confidence, flip
        self.seed = seed

    @classmethod
    def from_file(cls, path: str | Path, **kw) -> "TruthObserver":
        with open(path) as f:
            return cls([json.loads(line) for line in f if line.strip()], **kw)

    from_truths = classmethod(lambda cls, truths, **kw: cls(truths, **kw))

    def _location(self, rng, true: int) -> np.ndarray:
        p = np.full(len(CLASSES), 1e-4)
        colour, n = CLASSES[true]
        near = [class_of(colour, m) for m in (n - 1, n + 1) if colour and 1 <= m <= 15] or [0]
        c = rng.uniform(self.confidence, 1.0)
        best = true
        if rng.random() < self.flip:
            best = near[rng.integers(len(near))]
            p[true] = (1 - c) * 0.8
        p[best] = c
        for k in near:
            if k != best:
                p[k] += (1 - c) * 0.2
        return p / p.sum()

    def __call__(self, image, index: int) -> Observation:
        truth = self.truths[min(index, len(self.truths) - 1)]
        rng = np.random.default_rng([self.seed, index])
        rec = truth["recognized"]
        probs = np.empty((len(LOCATIONS), len(CLASSES)))
        for i, (kind, which) in enumerate(LOCATIONS):
            true = class_of(which, rec["bar"][which]) if kind == "bar" else class_of(*rec[kind][which])
            probs[i] = self._location(rng, true)
        obs = Observation.from_locations(probs)
        throw = truth.get("throw", {})
        dice = []
        for k, value in enumerate(throw.get("dice", [])):
            faces = np.full(6, 0.01)
            faces[value - 1] = 0.95
            half = throw["halves"][k] if k < len(throw.get("halves", [])) else "right"
            flat = throw["flat"][k] if k < len(throw.get("flat", [])) else True
            dice.append({"faces": faces / faces.sum(), "flat": 0.98 if flat else 0.02, "score": 0.9,
                         "on_board": half != "off", "half": half if half != "off" else "right"})
        obs.dice = dice
        if len(dice) == 2:
            ok = all(d["on_board"] for d in dice) and dice[0]["half"] == dice[1]["half"]
            obs.throw_valid = dice[0]["flat"] * dice[1]["flat"] if ok else 0.0
        cube = rec.get("cube")
        if cube is not None:
            value = np.full(len(CUBE_VALUES), 0.005)
            value[CUBE_VALUES.index(cube["value"])] = 0.97
            loc = np.full(3, 0.01)
            loc[CUBE_LOCATIONS.index(cube["location"])] = 0.98
            obs.cube = {"value": value / value.sum(), "location": loc / loc.sum()}
        obs.extra["ms"] = 0.0
        obs.extra["observer"] = "truth"
        return obs
