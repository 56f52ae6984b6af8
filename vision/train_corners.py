"""Training the two corner networks of :mod:`vision.corners` on renders, resumable, exported to ONNX.

Torch is needed only here. The data set is a ``gammoncam synth images`` directory; each image
gives, once (cached in ``corner_data.npz`` next to it):

- the finder's input, the frame letterboxed to :data:`vision.corners.VIEW`, with the field's
  four corners and the bar's two ends in view pixels (the heat-map targets are Gaussians drawn
  round them per batch, after the batch's mirroring);
- :data:`PER_CORNER` refiner crops round each corner, of random sizes in :data:`HALVES` (the
  refiner runs a wide pass and a narrow one), cut from the *true* corners moved by noise up to a
  third of the crop, with the true corner's position in each crop.

Retrain from scratch::

    gammoncam synth images --n 3000 --seed 101 --out data/train
    gammoncam train-vision corners data/train --epochs 10 --out models/corners.onnx

writes ``models/corners.onnx`` (finder) and ``models/corners_refiner.onnx``; a run saves
``<out>.ckpt`` after every epoch and resumes from it when started again.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision import corners as C
from vision.pool import worker_pool
from vision.train import PairedRun, heat_focal

PER_CORNER = 3  # refiner crops cut round each corner of each image
HALVES = (0.05, 0.16)  # the range of the refiner crops' half sides (shares of the field's mean side)
SIGMA = 1.0  # the finder's Gaussian targets, in heat-map cells


def field_keypoints(truth: dict) -> tuple[np.ndarray, np.ndarray]:
    """The field's corners (4, 2) and the bar's ends on edges TL-TR and BL-BR (2, 2), image pixels."""
    field = np.array(truth["field"], np.float64)
    bar = np.array(truth["bar"], np.float64)
    return field, np.array([(bar[0] + bar[1]) / 2, (bar[2] + bar[3]) / 2])


def _cut(job):
    directory, index, seed = job
    name = f"{index:06d}"
    truth = json.loads((directory / "truth" / f"{name}.json").read_text())
    image = cv2.imread(str(directory / "images" / f"{name}.jpg"))
    field, ends = field_keypoints(truth)
    view, s = C.letterbox(image)
    rng = np.random.default_rng([seed, index, 3])
    w = (np.linalg.norm(field[1] - field[0]) + np.linalg.norm(field[2] - field[3])) / 2
    h = (np.linalg.norm(field[3] - field[0]) + np.linalg.norm(field[2] - field[1])) / 2
    side = (w + h) / 2
    crops, targets = [], []
    for _ in range(PER_CORNER):
        # A crop of any size the refiner's passes use, the corners off by up to a third of it.
        half = rng.uniform(*HALVES)
        noisy = field + rng.normal(0, half * side * rng.uniform(0.05, 0.35), field.shape)
        noisy = np.roll(noisy, -int(rng.integers(4)), axis=0)  # the finder may start at any corner
        turn = np.argmin(np.linalg.norm(noisy[:, None] - field[None], axis=2), axis=1)
        for k in range(4):
            crop, M = C.corner_crop(image, noisy, k, half)
            crops.append(crop)
            targets.append(C.transform(M, field[turn[k]])[0])
    return (view, C.to_view(field, s), C.to_view(ends, s), np.array(crops, np.uint8),
            np.array(targets, np.float32))


def corner_dataset(directory: Path, workers: int = 2, jitter_seed: int = 0):
    """Views, corners and bar ends (view pixels), refiner crops and targets of a synth directory (cached)."""
    cache = directory / "corner_data_v2.npz"
    if cache.exists():
        d = np.load(cache)
        return d["views"], d["corners"], d["ends"], d["crops"], d["targets"]
    n = len(list((directory / "truth").glob("*.json")))
    jobs = [(directory, i, jitter_seed) for i in range(n)]
    parts = []
    with worker_pool(workers, cv2.setNumThreads, (1,)) as pool:
        for part in tqdm(pool.map(_cut, jobs, chunksize=8), total=n, desc="cutting corners", unit="img"):
            parts.append(part)
    views, corners, ends, crops, targets = (np.stack([p[i] for p in parts]) if i < 3 else
                                            np.concatenate([p[i] for p in parts]) for i in range(5))
    np.savez(cache, views=views, corners=corners, ends=ends, crops=crops, targets=targets)
    return views, corners, ends, crops, targets


def _block(i, o, s=1, d=1):
    import torch.nn as nn

    return [nn.Conv2d(i, o, 3, stride=s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]


def finder_net():
    """Heat maps of the field's corners and the bar's ends at a quarter of the view: an encoder
    to an eighth of the view (dilated, for the context of the whole board), one step back up."""
    import torch
    import torch.nn as nn

    class Finder(nn.Module):
        def __init__(self):
            super().__init__()
            self.down = nn.Sequential(*_block(3, 16, 2), *_block(16, 24, 2), *_block(24, 24))  # /4
            self.deep = nn.Sequential(*_block(24, 40, 2), *_block(40, 40), *_block(40, 48, 2),
                                      *_block(48, 48, d=2), *_block(48, 48, d=4))  # /16
            self.up = nn.Sequential(nn.Conv2d(48, 24, 1), nn.Upsample(scale_factor=4, mode="bilinear"))
            self.head = nn.Sequential(*_block(24, 24), nn.Conv2d(24, 2, 1))
            self.head[-1].bias.data.fill_(-4.0)

        def forward(self, x):
            a = self.down(x)
            return self.head(torch.relu(a + self.up(self.deep(a))))

    return Finder()


def refiner_net():
    """A heat map (logits) at half the refiner crop's size; the corner is its soft-max expectation."""
    import torch
    import torch.nn as nn

    class Refiner(nn.Module):
        def __init__(self):
            super().__init__()
            self.down = nn.Sequential(*_block(3, 16), *_block(16, 24, 2), *_block(24, 24))  # /2
            self.deep = nn.Sequential(*_block(24, 40, 2), *_block(40, 40, d=2), *_block(40, 40, d=4))  # /4
            self.up = nn.Sequential(nn.Conv2d(40, 24, 1), nn.Upsample(scale_factor=2, mode="bilinear"))
            self.head = nn.Sequential(*_block(24, 24), nn.Conv2d(24, 1, 1))

        def forward(self, x):
            a = self.down(x)
            return self.head(torch.relu(a + self.up(self.deep(a))))

    return Refiner()


def _heat_targets(corners: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """(N, 2, h, w) Gaussian targets (peak 1) round the corners and bar ends (view pixels)."""
    h, w = C.VIEW[1] // C.STRIDE, C.VIEW[0] // C.STRIDE
    xs, ys = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)
    out = np.zeros((len(corners), 2, h, w), np.float32)
    for i in range(len(corners)):
        for ch, pts in ((0, corners[i]), (1, ends[i])):
            for x, y in (pts - (C.STRIDE - 1) / 2) / C.STRIDE:
                g = np.exp(-((xs[None] - x) ** 2 + (ys[:, None] - y) ** 2) / (2 * SIGMA ** 2))
                out[i, ch] = np.maximum(out[i, ch], g)
            # the cell nearest each point is exactly 1 (the focal loss's positives)
            for x, y in (pts - (C.STRIDE - 1) / 2) / C.STRIDE:
                cx, cy = int(round(x)), int(round(y))
                if 0 <= cx < w and 0 <= cy < h:
                    out[i, ch, cy, cx] = 1.0
    return out


def _jitter(x, rng):
    """Gain, per-channel colour, offset and noise on a float batch in [0, 1]."""
    import torch

    n = x.shape[0]
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1)).astype(np.float32))
    chan = torch.from_numpy(rng.uniform(0.88, 1.12, (n, 3, 1, 1)).astype(np.float32))
    bias = torch.from_numpy(rng.uniform(-0.06, 0.06, (n, 1, 1, 1)).astype(np.float32))
    x = (x * gain * chan + bias).clamp(0, 1)
    return x + torch.randn_like(x) * float(rng.uniform(0, 0.02))


def _soft_argmax(logits):
    """(N, 1, h, w) logits to (N, 2) expected positions in crop pixels, as :func:`vision.corners.soft_argmax`."""
    import torch

    n, _, h, w = logits.shape
    p = torch.softmax(logits.reshape(n, -1), dim=1).reshape(n, h, w)
    scale = C.CROP / w
    xs = (torch.arange(w, dtype=torch.float32) + 0.5) * scale
    ys = (torch.arange(h, dtype=torch.float32) + 0.5) * scale
    return torch.stack([(p.sum(1) * xs).sum(1), (p.sum(2) * ys).sum(1)], dim=1)


def train_corners(directories: list[Path], out: Path, epochs: int = 10, threads: int = 1, seed: int = 0,
                  lr: float = 3e-3, val_fraction: float = 0.03, init: Path | None = None,
                  only: str | None = None) -> dict:
    """Train (or resume) the corner finder and refiner; export ``out`` and ``<out stem>_refiner.onnx``.

    ``init`` starts from an earlier run's checkpoint; ``only`` ("finder" or "refiner") trains
    that network alone, the other exported as loaded."""
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    parts = [corner_dataset(d) for d in directories]
    views, corners, ends, crops, targets = (np.concatenate([p[i] for p in parts]) for i in range(5))
    rng = np.random.default_rng(seed)
    val = rng.random(len(views)) < val_fraction  # whole images held out
    val_crop = np.repeat(val, 4 * PER_CORNER)
    tr, tc = np.nonzero(~val)[0], np.nonzero(~val_crop)[0]
    refiner_path = out.parent / f"{out.stem}_refiner.onnx"
    finder, refiner = finder_net(), refiner_net()
    fb, rb = 16, 64
    run = PairedRun({"finder": finder, "refiner": refiner}, out, lr, epochs,
                    {"finder": len(tr) // fb, "refiner": len(tc) // rb}, init, only)
    steps_f, steps_r = run.steps["finder"], run.steps["refiner"]
    for epoch in range(run.start, epochs):
        t0 = time.time()
        erng = np.random.default_rng([seed, epoch, 11])
        run.train()
        order_f, order_r = erng.permutation(tr), erng.permutation(tc)
        lf = lr_ = 0.0
        bar = tqdm(range(max(steps_f, steps_r)), desc=f"corners epoch {epoch + 1}/{epochs}", unit="batch")
        for k in bar:
            if k < steps_f:
                idx = np.sort(order_f[k * fb:(k + 1) * fb])
                v, c, e = views[idx].copy(), corners[idx].copy(), ends[idx].copy()
                # Mirror the frame (the field's corners are a set; the order does not matter here).
                W, H = C.VIEW
                for i in np.nonzero(erng.random(len(idx)) < 0.5)[0]:
                    v[i] = v[i, :, ::-1]
                    c[i, :, 0], e[i, :, 0] = W - 1 - c[i, :, 0], W - 1 - e[i, :, 0]
                x = _jitter(torch.from_numpy(C.to_input(v)), erng)
                lf += run.step("finder", heat_focal(finder(x), torch.from_numpy(_heat_targets(c, e)), peak=0.999))
            if k < steps_r:
                idx = np.sort(order_r[k * rb:(k + 1) * rb])
                x = torch.from_numpy(C.to_input(crops[idx]))
                t = torch.from_numpy(targets[idx])
                # A crop mirrored about its diagonal is still a top-left corner.
                flip = torch.from_numpy(erng.random(len(idx)) < 0.5)
                x[flip] = x[flip].transpose(2, 3)
                t[flip] = t[flip].flip(1)
                x = _jitter(x, erng)
                lr_ += run.step("refiner", torch.nn.functional.smooth_l1_loss(_soft_argmax(refiner(x)), t, beta=0.5))
            if k % 10 == 0:
                bar.set_postfix(finder=f"{lf / max(1, min(k + 1, steps_f)):.3f}",
                                refiner=f"{lr_ / max(1, min(k + 1, steps_r)):.3f}")
        run.end_epoch({"epoch": epoch + 1, "finder_loss": lf / max(1, steps_f), "refiner_loss": lr_ / max(1, steps_r),
                       "val_refiner_median_crop_px": _val_refiner(refiner, crops[val_crop], targets[val_crop]),
                       "seconds": time.time() - t0})
    export(finder, refiner, out, refiner_path)
    return {"images": int(len(views)), "refiner_crops": int(len(crops)), "history": run.history}


def _val_refiner(refiner, crops, targets) -> float:
    import torch

    if not len(crops):
        return float("nan")
    refiner.eval()
    with torch.no_grad():
        got = _soft_argmax(refiner(torch.from_numpy(C.to_input(crops)))).numpy()
    return round(float(np.median(np.linalg.norm(got - targets, axis=1))), 4)


def export(finder, refiner, finder_path: Path, refiner_path: Path) -> None:
    import torch

    finder_path.parent.mkdir(parents=True, exist_ok=True)
    for net, path, name, shape in ((finder, finder_path, "view", (1, 3, C.VIEW[1], C.VIEW[0])),
                                   (refiner, refiner_path, "crops", (4, 3, C.CROP, C.CROP))):
        net.eval()
        torch.onnx.export(net, torch.zeros(*shape), str(path), input_names=[name], output_names=["heat"],
                          dynamic_axes={name: {0: "n"}, "heat": {0: "n"}}, opset_version=17, dynamo=False)
