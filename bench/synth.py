"""Images per second of the synthetic renderer at 1280x720 (issue 5 asks for at least 20).

Measures the whole product path: `write_images` with 2 worker processes (render, JPEG, labels and
truth JSON written to a temporary directory), and, for reference, rendering alone in one process.

    PYTHONPATH=. python bench/synth.py [--n 200]
"""

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import cv2

from vision.synth.dataset import write_images
from vision.synth.render import render_image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    size = (1280, 720)

    cv2.setNumThreads(1)
    render_image(args.seed, 0, size=size)  # warm the caches (noise tile, sprites)
    k = max(10, args.n // 4)
    t, cpu = time.perf_counter(), time.process_time()
    for i in range(k):
        render_image(args.seed, i, size=size)
    single, single_cpu = k / (time.perf_counter() - t), (time.process_time() - cpu) / k

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        write_images(Path(tmp), args.n, args.seed, size=size, workers=2, progress=False)
        pool = args.n / (time.perf_counter() - t)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    pool_cpu = (children.ru_utime + children.ru_stime) / args.n
    # Wall-clock rates suffer when other work shares the cores; the CPU time per image does not.
    print(f"load average now       : {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"render only, 1 process : {single:6.1f} images/s wall, {single_cpu * 1000:5.1f} ms CPU per image")
    print(f"write_images, 2 workers: {pool:6.1f} images/s wall, {pool_cpu * 1000:5.1f} ms CPU per image "
          f"(JPEG + labels + truth, n={args.n}) -> {2 / pool_cpu:5.1f} images/s on 2 free cores")


if __name__ == "__main__":
    main()
