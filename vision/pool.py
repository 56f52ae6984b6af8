"""Worker processes for the long data jobs: rendering data sets, cutting training crops.

>>> with worker_pool(1) as pool:
...     list(pool.map(abs, [-1, 2]))
[1, 2]
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor


def worker_pool(workers: int, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """A process pool whose workers do not inherit the caller's threads: they fork from a fresh
    server process. Forking a process that already runs threads (onnxruntime's, torch's) can
    leave a child waiting forever on a lock a thread held at the fork."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"),
                               initializer=initializer, initargs=initargs)
