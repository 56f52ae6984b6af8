"""Writing renders to disk: an ultralytics dataset of images, labels and truth, and a contact sheet.

Images are split over worker processes by index; each image depends only on (seed, index), so
the output is the same whatever the number of workers.

Layout of a dataset directory::

    data.yaml              class names and keypoint layout (vision.synth.truth.CLASSES)
    images/000000.jpg      the render
    labels/000000.txt      YOLO pose labels
    truth/000000.json      the full truth (vision.synth.truth)
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.pool import worker_pool
from vision.synth.render import render_image
from vision.synth.truth import data_yaml

JPEG_QUALITY = 95


def _write_one(job) -> int:
    out, seed, index, variant, size, fouls, bear_off = job
    img, truth = render_image(seed, index, variant, size, fouls, bear_off)
    name = f"{index:06d}"
    cv2.imwrite(str(out / "images" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    (out / "labels" / f"{name}.txt").write_text(truth.pop("yolo"))
    (out / "truth" / f"{name}.json").write_text(json.dumps(truth, separators=(",", ":")))
    return index


def _init_worker() -> None:
    cv2.setNumThreads(1)  # one process per core does better than threads fighting over two


def write_images(out: Path, n: int, seed: int, variant: str | None = None, size: tuple | None = None,
                 workers: int = 2, progress: bool = True, fouls: float = 0.0, bear_off: float = 0.0) -> None:
    """Render images 0..n-1 of run ``seed`` into the dataset directory ``out`` (``fouls``: the
    share of boards with a checker laid on the other side's stack; ``bear_off``: the share of
    boards in the bear-off, trays filled)."""
    for sub in ("images", "labels", "truth"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    (out / "data.yaml").write_text(data_yaml())
    jobs = [(out, seed, i, variant, size, fouls, bear_off) for i in range(n)]
    bar = tqdm(total=n, unit="img", desc="rendering", disable=not progress)
    if workers <= 1:
        for job in jobs:
            _write_one(job)
            bar.update()
    else:
        with worker_pool(workers, _init_worker) as pool:
            for _ in pool.map(_write_one, jobs, chunksize=4):
                bar.update()
    bar.close()


def contact_sheet(seed: int, count: int = 24, columns: int = 6, tile: tuple = (336, 189)) -> np.ndarray:
    """A grid of ``count`` varied renders of run ``seed`` (both variants), each shrunk to ``tile``."""
    tiles = []
    for i in tqdm(range(count), desc="sheet", unit="img", disable=not os.isatty(2)):
        img, _ = render_image(seed, i, ("backgammon", "long")[i % 3 == 2])
        h, w = img.shape[:2]
        s = min(tile[0] / w, tile[1] / h)
        small = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
        cell = np.full((tile[1], tile[0], 3), 32, np.uint8)
        y, x = (tile[1] - small.shape[0]) // 2, (tile[0] - small.shape[1]) // 2
        cell[y:y + small.shape[0], x:x + small.shape[1]] = small
        tiles.append(cv2.copyMakeBorder(cell, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=(255, 255, 255)))
    rows = [np.hstack(tiles[r:r + columns]) for r in range(0, count, columns)]
    return np.vstack(rows)
