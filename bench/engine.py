"""Engine throughput against GNU Backgammon, measured in the same run.

* enumeration: our batch kernel vs ``gnubg_nn.moves``, (position, roll) pairs per second;
* check: our batch check vs GNU Backgammon's way, enumerate the roll's plays and look the
  position after up among them, (before, roll, after) triples per second;
* the slowest single check through the public API, and import plus first call with a cold
  and a warm numba cache (each in a fresh interpreter);
* long nardy enumeration and check, per position, against the backgammon figures.

``python bench/engine.py [--positions N] [--json]``; with ``--json`` the last line is
``{"enumerate_ratio": x, "check_ratio": y, ...}`` (ours / reference).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import BACKGAMMON, LONG_NARDY, kernels  # noqa: E402
from engine.position import workspace  # noqa: E402
from engine.selfplay import ROLLS, random_positions  # noqa: E402

def queries(positions, seed: int):
    """(before, roll, after) triples: one legal result and one illegal one per position."""
    rng = random.Random(seed)
    befores, dice, afters = [], [], []
    for pos in positions:
        d1, d2 = rng.choice(ROLLS)
        plays = pos.plays(d1, d2)
        legal = rng.choice(plays).position
        other = rng.choice(pos.plays(*rng.choice(ROLLS))).position  # usually illegal
        for after in (legal, other):
            befores.append(pos.board)
            dice.append((d1, d2))
            afters.append(after.board)
    return np.array(befores), np.array(dice, np.int64), np.array(afters)


def best_of(fn, repeat: int = 5) -> float:
    """The best CPU time of ``repeat`` runs: other processes on the machine do not count."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def our_enumerate(boards, dice, variant) -> float:
    ws = workspace()
    scratch = np.empty((kernels.MAX_PLAYS, kernels.BOARD_SIZE), np.int8)
    counts = np.empty(len(boards), np.int64)
    run = lambda: kernels.enumerate_batch(ws, boards, dice, variant.rules_array, scratch, counts)  # noqa: E731
    run()  # compile
    return len(boards) / best_of(run)


def our_check(befores, dice, afters, variant) -> float:
    ws = workspace()
    codes = np.empty(len(befores), np.int64)
    run = lambda: kernels.check_batch(ws, befores, dice, afters, variant.rules_array, codes)  # noqa: E731
    run()
    return len(befores) / best_of(run)


def gnu_board(board) -> list[list[int]]:
    return [board[25:50].tolist(), board[0:25].tolist()]


def gnubg_enumerate(boards, dice) -> float:
    import gnubg_nn

    gboards = [gnu_board(b) for b in boards]
    pairs = [(int(d[0]), int(d[1])) for d in dice]

    def run():
        for gb, (d1, d2) in zip(gboards, pairs):
            gnubg_nn.moves(gb, d1, d2)
    return len(boards) / best_of(run)


def gnubg_check(befores, dice, afters) -> float:
    import gnubg_nn

    gb = [gnu_board(b) for b in befores]
    ga = [gnu_board(a) for a in afters]
    pairs = [(int(d[0]), int(d[1])) for d in dice]

    def run():
        for before, (d1, d2), after in zip(gb, pairs, ga):
            key = gnubg_nn.key_of_board(after)
            key in set(gnubg_nn.moves(before, d1, d2))
    return len(befores) / best_of(run)


def slowest_check_ms(positions) -> float:
    """The slowest public ``Position.check`` over every roll and result of the positions.

    Each check is timed three times and its best time kept, so that a pause of the machine
    (another process, the garbage collector) is not taken for a slow check.
    """
    positions[0].check(1, 2, positions[0])  # load the compiled check first
    worst = 0.0
    for pos in positions:
        for d1, d2 in ROLLS:
            for after in [play.position for play in pos.plays(d1, d2)[:20]] + [pos]:
                best = float("inf")
                for _ in range(3):
                    t = time.perf_counter()
                    pos.check(d1, d2, after)
                    best = min(best, time.perf_counter() - t)
                worst = max(worst, best)
    return worst * 1000


FIRST_CALL = ("import time; t = time.perf_counter(); from engine import Position; p = Position.start(); "
              "p.plays(3, 1); p.check(3, 1, p); Position.start('long').plays(6, 6); "
              "print(time.perf_counter() - t)")


def first_call_s(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, cwd=root, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        cold = first_call_s(cache)
        warm = first_call_s(cache)

    figures: dict[str, float] = {"first_call_cold_s": cold, "first_call_warm_s": warm}
    for variant in (BACKGAMMON, LONG_NARDY):
        positions = random_positions(variant, args.positions, args.seed)
        boards = np.array([p.board for p in positions for _ in ROLLS])
        dice = np.array([r for _ in positions for r in ROLLS], np.int64)
        befores, qdice, afters = queries(positions, args.seed)
        name = "backgammon" if variant is BACKGAMMON else "long"
        figures[f"{name}_enumerate_per_s"] = our_enumerate(boards, dice, variant)
        figures[f"{name}_check_per_s"] = our_check(befores, qdice, afters, variant)
        if variant is BACKGAMMON:
            figures["gnubg_enumerate_per_s"] = gnubg_enumerate(boards, dice)
            figures["gnubg_check_per_s"] = gnubg_check(befores, qdice, afters)
            figures["slowest_check_ms"] = slowest_check_ms(positions[: max(1, args.positions // 10)])
    figures["enumerate_ratio"] = figures["backgammon_enumerate_per_s"] / figures["gnubg_enumerate_per_s"]
    figures["check_ratio"] = figures["backgammon_check_per_s"] / figures["gnubg_check_per_s"]
    figures["long_vs_backgammon_enumerate"] = figures["long_enumerate_per_s"] / figures["backgammon_enumerate_per_s"]
    figures["long_vs_backgammon_check"] = figures["long_check_per_s"] / figures["backgammon_check_per_s"]

    for key, value in figures.items():
        print(f"{key:32} {value:14.4f}")
    if args.json:
        print(json.dumps({k: round(v, 4) for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
