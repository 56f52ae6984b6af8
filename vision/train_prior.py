"""Learn and check the position prior of :mod:`vision.position_prior`; write its tables and card.

Backgammon is learned from match transcripts of human play (every ``*.txt`` under
``--matches``, in the format of :mod:`engine.transcript`): the position after every play of
every game, seen from both sides. The files, sorted by name, are split: every
:data:`HOLD_OUT_EVERY`-th one is held out. Long nardy has no transcripts here, so it is learned
from random self-play (:func:`engine.selfplay.random_positions`), held out on another seed.
The tables shipped are the ones learned on the training part, so the card's figures are
held-out figures::

    python -m vision.train_prior --matches ../shared/fixtures/matches --out models/position_prior.npz

writes ``models/position_prior.npz`` and its card ``models/position_prior.md``.

>>> evaluate(PositionPrior.learn(np.zeros((1, 50), int), "long"), np.zeros((2, 50), int))["right"]
0.0
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from engine.errors import EngineError
from engine.position import Position
from engine.selfplay import random_positions
from engine.transcript import parse_transcript
from vision.position_prior import DECIDES, PositionPrior, save

HOLD_OUT_EVERY = 4  # the files at sorted index 3, 7, 11, ... are held out
LONG_SEEDS = {"train": 1, "held_out": 2}
THRESHOLDS = (1.0, 3.0, DECIDES, 10.0)  # nats, for the card's table


def match_files(root: Path) -> list[Path]:
    """Every transcript under ``root``, sorted by its path below it."""
    return sorted(root.rglob("*.txt"), key=lambda p: p.relative_to(root).as_posix())


def transcript_boards(path: Path, tally: dict) -> list[np.ndarray]:
    """Kernel boards after every play of every backgammon game of one transcript, each seen from
    both sides. A file that cannot be read gives none; a game stops at its first play that
    cannot be applied. ``tally`` counts files, games and what was skipped."""
    try:
        transcript = parse_transcript(path.read_text(errors="replace"))
    except EngineError:
        tally["files unreadable"] += 1
        return []
    if transcript.variant.name != "backgammon":
        tally["files not backgammon"] += 1
        return []
    tally["files"] += 1
    boards = []
    for game in transcript.games:
        tally["games"] += 1
        position, side = Position.start(transcript.variant), None
        for action in game.actions:
            if action.kind != "play" or not action.play:  # nothing moved
                continue
            if side is not None and action.side != side:
                position = position.swapped()
            side = action.side
            try:
                position = position.apply(action.play).validate()
            except EngineError:
                tally["games cut short"] += 1
                break
            boards += [position.board, position.swapped().board]
    return boards


def match_boards(files: list[Path], desc: str) -> tuple[np.ndarray, dict]:
    tally = dict.fromkeys(("files", "files unreadable", "files not backgammon", "games", "games cut short"), 0)
    boards = []
    for path in tqdm(files, desc=desc, unit="file"):
        boards += transcript_boards(path, tally)
    return np.array(boards, np.int8).reshape(-1, 50), tally


def selfplay_boards(count: int, seed: int) -> np.ndarray:
    """Long nardy boards of random self-play, each seen from both sides."""
    return np.array([b for p in random_positions("long", count, seed) for b in (p.board, p.swapped().board)])


def evaluate(prior: PositionPrior, boards: np.ndarray) -> dict:
    """How the prior reads held-out boards, each taken as read the right way round: the share
    ``right`` (evidence > 0; evidence 0, a board that is its own half-turn, is not right), the
    ``ties`` (evidence 0), the ``worst`` evidence, and for each threshold the share ``decided``
    (|evidence| at least it) and the count ``wrong`` among those (evidence at most minus it)."""
    evidence = prior.turn_evidence(boards)
    out = {"boards": len(boards), "right": float(np.mean(evidence > 0)), "ties": int(np.sum(evidence == 0)),
           "worst": float(evidence.min())}
    for t in THRESHOLDS:
        out[t] = {"decided": float(np.mean(np.abs(evidence) >= t)), "wrong": int(np.sum(evidence <= -t))}
    return out


def card(results: dict, data: dict, out: Path, seconds: float) -> str:
    rows = "\n".join(
        f"| {name} | {r['boards']:,} | {r['right']:.2%} | {r['ties']} | {r['worst']:.1f} | "
        + " | ".join(f"{r[t]['decided']:.1%} / {r[t]['wrong']}" for t in THRESHOLDS) + " |"
        for name, r in results.items())
    head = " | ".join(f"at {t:g} nats" for t in THRESHOLDS)
    return f"""# position_prior.npz — which way round a board in play is

**Task.** `vision/position_prior.py`: the field's corners fix the board only up to a half turn,
and a half turn moves every checker to the diagonally opposite point (each side's point p to its
p + 12, RULES 1). From the starting position the turn is plain; a camera that joins a game in
progress asks this prior which reading a game is likelier to reach. `turn_evidence(boards)` =
log P(board) - log P(half-turned board), in nats; positive: the board as read is the likelier.
`DECIDES` = {DECIDES:g} nats: weaker evidence decides nothing.

**Model.** Naive Bayes per variant: for each side, in its own numbering, log P(count 0..15 on
point p) for p = 1..24, log P(bar count) and log P(borne-off count), both sides sharing the
tables; learned by counting with add-one (Laplace) smoothing. Bars and borne-off counts cancel
in the evidence. No network: {out.stat().st_size:,} bytes of numpy tables, one file holding both
variants keyed by name (`backgammon`, `long`).

**Data.**

- Backgammon: human play, the {data['files']} match transcripts under `--matches`, sorted by
  name, every {HOLD_OUT_EVERY}th held out; the position after every play of every game, seen from
  both sides (a game stops at its first play that cannot be applied).
  - Training: {data['train']}.
  - Held out: {data['held_out']}.
- Long nardy: **no human games here, so random self-play** (`engine.selfplay.random_positions`,
  a legal play drawn at random each turn, each position seen from both sides). Real long nardy
  play may be told apart less surely than these figures say.
  - Training: {data['long_train']}.
  - Held out: {data['long_held']}.

**Rebuild** ({seconds:.0f} s on 2 CPU cores):

    {data['command']}

**Held-out figures.** Each held-out board is taken as read the right way round. Right: evidence
above 0 (evidence exactly 0, a board that is its own half-turn, counts as not right). Worst: the
lowest evidence met. Then, for each threshold, the share of boards decided (evidence at least it
in absolute value) / how many of them were decided the wrong way. A board and its swapped view
have the same evidence, so every position counts twice.

| variant | boards | right | evidence 0 | worst | {head} |
|---|---|---|---|---|{'---|' * len(THRESHOLDS)}
{rows}
"""


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m vision.train_prior", description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=Path, required=True, help="folder of match transcripts (*.txt)")
    parser.add_argument("--out", type=Path, required=True, help="the .npz to write; its card goes next to it (.md)")
    parser.add_argument("--long-train", type=int, default=60_000, help="long nardy self-play positions to learn")
    parser.add_argument("--long-held-out", type=int, default=20_000, help="long nardy self-play positions to check")
    args = parser.parse_args(argv)
    began = time.perf_counter()

    files = match_files(args.matches)
    held = [p for i, p in enumerate(files) if i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1]
    train = [p for i, p in enumerate(files) if i % HOLD_OUT_EVERY != HOLD_OUT_EVERY - 1]
    bg_train, train_tally = match_boards(train, "training matches")
    bg_held, held_tally = match_boards(held, "held-out matches")
    boards = {"backgammon": (bg_train, bg_held),
              "long": (selfplay_boards(args.long_train, LONG_SEEDS["train"]),
                       selfplay_boards(args.long_held_out, LONG_SEEDS["held_out"]))}

    priors = {name: PositionPrior.learn(learn, name) for name, (learn, _) in boards.items()}
    results = {name: evaluate(priors[name], check) for name, (_, check) in boards.items()}
    save(priors, args.out)
    seconds = time.perf_counter() - began

    def told(tally, some):
        return (f"{tally['files']} files ({tally['files unreadable']} unreadable, {tally['files not backgammon']} "
                f"not backgammon), {tally['games']} games ({tally['games cut short']} cut short), "
                f"{len(some):,} boards")

    long_train, long_held = boards["long"]
    data = {"files": len(files), "train": told(train_tally, bg_train), "held_out": told(held_tally, bg_held),
            "long_train": f"{args.long_train:,} positions of seed {LONG_SEEDS['train']}, {len(long_train):,} boards",
            "long_held": f"{args.long_held_out:,} positions of seed {LONG_SEEDS['held_out']}, "
                         f"{len(long_held):,} boards",
            "command": "python -m vision.train_prior " + shlex.join(sys.argv[1:] if argv is None else argv)}
    text = card(results, data, args.out, seconds)
    args.out.with_suffix(".md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
