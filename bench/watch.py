"""Following a rendered game with the real recognizer: speed, latency and the record's fidelity.

Runs ``gammoncam watch`` (trained recognizer, no oracle) on a video written by
``gammoncam synth video --transcript FILE`` and reports

* speed: seconds of video per second of processing (CPU time of this process and wall time;
  at least 1 means the video is followed as fast as it plays), recognition ms per settle;
* latency: from the first still frame of a settle to the event it produced (median, max);
* fidelity: the turns the tracker recorded against the source transcript's turns shown in the
  video, compared as positions (the same play may be written in several ways), turn by turn
  and as the source's turns found in the record in order, and every call; the throws the
  render made not to count (its truth) against the re-roll calls. A double in the source that
  the referee calls (a foul injected: Crawford game, dead cube, not the owner) is left out of
  it with its answer, as the record leaves it out (RULES 6.4: it has no effect on the cube).

    gammoncam synth video --transcript T.txt --seed 5003 --out vid --max-turns 16 --fps 30
    PYTHONPATH=. python bench/watch.py vid T.txt --turns 16 [--game 1] [--join-at FRAME] [--condition NAME] [--json]

A later game (``--game``) of a match is watched with the score it began at (``watch --score``).
``--join-at`` watches the video from that frame on, as a stream joined mid-game: the record then
begins where the tracker joined (its ``Start`` tag), and is compared with the source's turns from
the one that begins at that position (``join_turn``; None when no turn of the source does: the
game was joined at a position misread). A record that lost the board and joined the game again
(``rejoined``: the tracker ends the game unseen and joins it where it stands) is compared from the
source's turn that begins there on, the turns between counted as not recorded. ``--condition``
watches the video with every frame put under a camera or room effect the renders lack (a lens
focused off the board, a dim room, a stream's compression: :mod:`vision.conditions`), recompressed.
"""

from __future__ import annotations

import argparse
from difflib import SequenceMatcher
import io
import json
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.errors import EngineError  # noqa: E402
from engine.position import Position  # noqa: E402
from engine.transcript import parse_transcript  # noqa: E402
from gammoncam.cli import main as gammoncam  # noqa: E402
from gammoncam.referee import Referee  # noqa: E402
from gammoncam.watch import DICE_DOUBT  # noqa: E402
from vision.conditions import CONDITIONS, apply  # noqa: E402


def turns_as_positions(actions, variant, start=None, befores: list | None = None,
                       numbers: list | None = None) -> list[tuple]:
    """(side, dice, position after) for each play, and (side, kind) for each cube action; from
    ``start`` (a record begun in progress) when given. ``befores`` gets (side, position before)
    for each turn, ``numbers`` its number in the transcript."""
    out = []
    pos = start.position if start is not None else Position.start(variant)
    for a in actions:
        if befores is not None and a.kind in ("play", "double", "take", "drop", "beaver"):
            befores.append((a.side, pos))
        if numbers is not None and a.kind in ("play", "double", "take", "drop", "beaver"):
            numbers.append(a.number)
        if a.kind == "play":
            if a.play is None:
                break  # a throw never played ends what the video can show
            try:
                after = pos.apply(a.play) if a.play else pos
            except EngineError:  # a record can hold a play that cannot be made: it counts as wrong
                out.append((a.side, "cannot be played", a.play))
                continue
            out.append((a.side, tuple(sorted(a.dice, reverse=True)), after.swapped().board.tobytes()))
            pos = after.swapped()
        elif a.kind in ("double", "take", "drop", "beaver"):
            out.append((a.side, a.kind))
    return out


def turn_wrong(k: int, seen, source) -> dict:
    """A turn recorded wrong (:func:`turns_as_positions`' items, ``seen`` None when not recorded):
    what each says of it, and whether only the roll differs (the play reached the same board)."""
    def what(turn):
        return None if turn is None else list(turn[1]) if isinstance(turn[1], tuple) else turn[1]

    roll_only = (seen is not None and isinstance(seen[1], tuple) and isinstance(source[1], tuple)
                 and seen[2] == source[2])
    return {"k": k, "side": source[0], "seen": what(seen), "source": what(source), "roll_only": roll_only}


def called_doubles(source, game: int) -> set:
    """Indexes (in :func:`turns_as_positions`' list) of the source game's doubles the referee calls
    and of their answers: the record leaves them out (RULES 6.4: such a double has no effect on
    the cube), so the comparison does too."""
    from gammoncam.replay import Replay

    replay = Replay("source")
    replay.run(source)
    called = {(c.turn, c.player - 1) for c in replay.calls if c.game == game and c.kind == "illegal_double"}
    out, k, void = set(), 0, False
    for a in source.games[game - 1].actions:
        if a.kind not in ("play", "double", "take", "drop", "beaver"):
            continue
        if void and a.kind in ("take", "drop", "beaver") or a.kind == "double" and (a.number, a.side) in called:
            out.add(k)
        void = a.kind == "double" and (a.number, a.side) in called
        k += 1
    return out


def begins_at(start, turns: list, shown: list, befores: list) -> int | None:
    """The source's turn (an index of ``shown``) at which a record begun in progress at ``start``
    begins: where the same player is on roll at the same position, and, where a cube action and
    the play after it share that position (a game joined after a double was taken), the one from
    which most of the record's ``turns`` agree with the source's."""
    found = [k for k, (side, pos) in enumerate(befores[:len(shown)])
             if side == start.on_roll and pos == start.position]
    return max(found, key=lambda k: sum(a == b for a, b in zip(turns, shown[k:]))) if found else None


REROLL_WITHIN = 12.0  # seconds: a cocked die is called when its thrower throws again


def invalid_throws(frames_path: Path) -> list[tuple[float, int]]:
    """The throws that do not count in a render's frames.jsonl: when each came to rest, and its
    thrower (1 light, 2 dark)."""
    throws, before = [], None
    with open(frames_path) as f:
        for line in f:
            row = json.loads(line)
            if row.get("event") == "throw_at_rest" and before != "throw_at_rest" and not row["throw"]["valid"]:
                throws.append((row["time"], 1 if row["mover"] == "light" else 2))
            before = row.get("event")
    return throws


def reroll_matches(call: tuple[float, int | None], throw: tuple[float, int]) -> bool:
    """Whether a re-roll call (its time, the player called, None when unknown) answers a throw
    that did not count (its time and thrower): the thrower's, at most REROLL_WITHIN seconds later
    (a call on the other player, vid 9301, is a false call however close in time). A call at the
    very frame is on time: both times are taken less the start of a video watched from part way,
    and the render keeps its times to the millisecond, which leaves them up to a millisecond apart
    (vid 9998 at 15 fps joined at 40%: a call at the throw's own frame came 0.3 ms before the
    throw's time, and was counted as matching no throw)."""
    (t, player), (at, thrower) = call, throw
    return -1e-3 <= t - at <= REROLL_WITHIN and player in (None, thrower)


def rewrite(video: Path, out: Path, frame: int, condition: str | None,
            corners: np.ndarray) -> tuple[float, np.ndarray]:
    """Write ``video`` from ``frame`` on to ``out``, each frame put under ``condition`` when given
    (:mod:`vision.conditions`: a real camera's or room's effect the render lacks); the time cut off,
    in seconds, and the field's ``corners`` moved as the condition moves the picture."""
    import cv2

    cap = cv2.VideoCapture(str(video))
    fps = cap.get(cv2.CAP_PROP_FPS)
    cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
    rng = np.random.default_rng(0)  # one generator for the video: a sensor's noise differs frame to frame
    writer, moved = None, corners
    while True:
        ok, image = cap.read()
        if not ok:
            break
        if condition:
            image, truth = apply(condition, image, {"field": corners}, rng)
            moved = np.asarray(truth["field"], float)
        if writer is None:  # a condition may change the frame's size (``phone``)
            writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, image.shape[1::-1])
        writer.write(image)
    if writer is not None:
        writer.release()
    return frame / fps, moved


def localised_error(events: list[dict], field: np.ndarray) -> float | None:
    """How far (px, the worst corner) the board the watch followed (found last, before any camera
    move) lies from the render's field, in the corner order nearest it; None when none was found."""
    found = next((np.asarray(e["corners"], float) for e in reversed(events) if e["type"] == "localised"), None)
    if found is None:
        return None
    return round(min(float(np.abs(np.roll(found, k, axis=0) - field).max()) for k in range(4)), 2)


def given_corners(stage: Path, noise: float) -> tuple[np.ndarray, bool]:
    """The render's field corners as a user gives them: exact (the render's stage), or ``noise``
    of the field's diagonal off (a hand's clicks, seeded by the digits of the render's folder);
    and whether they are given by hand (``watch`` then fits them to the field's edges)."""
    corners = np.array(json.loads(stage.read_text())["field"], float)
    if noise:
        diagonal = float(np.linalg.norm(corners[2] - corners[0]))
        seed = int("".join(filter(str.isdigit, stage.parent.name)) or 0)
        corners += np.random.default_rng(seed).normal(0, noise * diagonal, corners.shape)
    return corners, bool(noise)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("video_dir")
    ap.add_argument("transcript")
    ap.add_argument("--game", type=int, default=1)
    ap.add_argument("--turns", type=int, help="the --max-turns the video was rendered with")
    ap.add_argument("--join-at", type=int, metavar="FRAME", help="watch from this frame on (joined mid-game)")
    ap.add_argument("--corner-noise", type=float, default=0.0, metavar="SHARE",
                    help="give the corners this far off, as clicked by hand: Gaussian on each coordinate, SHARE of "
                         "the field's diagonal")
    ap.add_argument("--condition", choices=sorted(CONDITIONS),
                    help="put every frame under this camera or room condition first (vision.conditions)")
    ap.add_argument("--found-corners", action="store_true",
                    help="give no corners: the watch finds the board itself, as on a stream (the corners it "
                         "localised first are reported against the render's)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    vdir = Path(args.video_dir)
    missing = [str(p) for p in (Path(args.transcript), vdir / "frames.jsonl", vdir / "game.mp4") if not p.is_file()]
    if missing:
        ap.error(f"no such file: {', '.join(missing)} (a folder written by gammoncam synth video, and its transcript)")
    source = parse_transcript(Path(args.transcript).read_text())
    frames = sum(1 for _ in open(vdir / "frames.jsonl"))
    # A later game of a match is watched as an official joining between games would: saying
    # the score, and whether the Crawford game is behind (RULES 6.2).
    joined = []
    if source.match_length and args.game > 1:
        score = source.games[args.game - 1].score
        joined = ["--score", f"{score[0]},{score[1]}"]
        if any(max(g.score) == source.match_length - 1 for g in source.games[:args.game - 1]):
            joined.append("--crawford-played")
    with tempfile.TemporaryDirectory() as tmp:
        seen_path = Path(tmp) / "seen.mat"
        video, t0 = vdir / "game.mp4", 0.0
        field, by_hand = given_corners(vdir / "stage.json", args.corner_noise)
        if args.join_at or args.condition:
            video = Path(tmp) / "watched.mp4"
            t0, field = rewrite(vdir / "game.mp4", video, args.join_at or 0, args.condition, field)
        corners = Path(tmp) / "corners.json"  # a render's "field" is taken as exact, hand-given "corners" are fitted
        corners.write_text(json.dumps({"corners" if by_hand else "field": field.round(2).tolist()}))
        given = ["--corners-file", str(corners)]
        if args.found_corners:  # away from the render's stage.json, which the watch would take as given
            given = []
            if video.parent == vdir:
                video = Path(tmp) / video.name
                video.symlink_to((vdir / "game.mp4").resolve())
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = gammoncam(["watch", "--video", str(video), *given,
                              "--variant", source.variant.name, "--match", str(source.match_length), "--json",
                              "--stats", "--log", str(Path(tmp) / "log.sqlite"),
                              "--transcript-out", str(seen_path), *joined])
        events = [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]
        stats = next(json.loads(line) for line in err.getvalue().splitlines() if line.startswith('{"stats"'))
        seen = parse_transcript(seen_path.read_text())
        with Referee.open(Path(tmp) / "log.sqlite") as logged:  # the moments noted for a second look
            doubts = [{k: note[k] for k in ("t", "game", "turn", "player", "what", *DICE_DOUBT) if k in note}
                      for note in logged.notes if "what" in note]
    # The render's truth: throws that came to rest not counting (RULES 2.3), each matched by a
    # re-roll call on its thrower at most REROLL_WITHIN seconds later.
    invalid = [(t - t0, thrower) for t, thrower in invalid_throws(vdir / "frames.jsonl") if t >= t0]
    rerolls = [(e["t"], e.get("player")) for e in events if e["type"] == "call" and e["kind"] == "reroll"]
    befores: list = []
    want = turns_as_positions(source.games[args.game - 1].actions, source.variant, befores=befores)
    numbers: list = []  # the record's number of each turn it has (its first game's)
    got = (turns_as_positions(seen.games[0].actions, source.variant, seen.games[0].start, numbers=numbers)
           if seen.games else [])
    left_out = called_doubles(source, args.game)
    kept = [k for k in range(len(want[:args.turns] if args.turns else want)) if k not in left_out]
    shown, befores = [want[k] for k in kept], [befores[k] for k in kept]
    join_turn = None
    if seen.games and seen.games[0].start is not None:
        join_turn = begins_at(seen.games[0].start, got, shown, befores)
        shown = shown[join_turn:] if join_turn is not None else []
    # A record that lost the board ends the game unseen and joins it again where it stands
    # (`Tracker._record_lost`): the later games of the record that begin in progress go on from
    # the source's turn that begins there, the turns between them left out (None, never right).
    for game in seen.games[1:]:
        again = turns_as_positions(game.actions, source.variant, game.start)
        k = None if game.start is None else begins_at(game.start, again, shown, befores[join_turn or 0:])
        if k is None:
            break  # a game set up anew, or joined where the source never stood
        got = got[:k] + [None] * (k - len(got)) + again
    right = sum(a == b for a, b in zip(got, shown))
    wrong = [{**turn_wrong(i, a, b), "turn": numbers[i] if i < len(numbers) else None}
             for i, (a, b) in enumerate(zip(got, shown)) if a != b]
    first_wrong = next((i for i, (a, b) in enumerate(zip(got, shown)) if a != b), None)
    # A turn recorded wrong that no doubt names is one an official would not know to look at again
    # (the record's first game: its turns have numbers).
    told = {(d.get("turn"), d.get("player")) for d in doubts if d.get("game") == 1}
    untold = sum(got[w["k"]] is not None and w["turn"] is not None and (w["turn"], w["side"] + 1) not in told
                 for w in wrong)
    # A call rejects an event (an illegal double is not recorded), which shifts the turns after
    # it: the source's turns found in the record in order tell how much of the game was seen.
    found = sum(block.size for block in SequenceMatcher(None, shown, got, autojunk=False).get_matching_blocks())
    s = stats["stats"]
    report = {
        "frames": frames, "exit": code,
        "video_s": s["video_s"], "cpu_s": s["cpu_s"], "wall_s": s["wall_s"],
        "speed_cpu": round(s["video_s"] / s["cpu_s"], 2) if s["cpu_s"] else None,
        "speed_wall": round(s["video_s"] / s["wall_s"], 2) if s["wall_s"] else None,
        "settles": s["settled"], "looked_again": s.get("looked_again"), "recognize_ms_median": s["recognize_ms_median"],
        "latency_ms_median": s["latency_ms_median"], "latency_ms_max": s["latency_ms_max"],
        "turns_shown": len(shown), "turns_recorded": sum(turn is not None for turn in got), "turns_right": right,
        "turns_found_in_order": found,
        "rejoined": sum(e["type"] == "game_end_unseen" and "lost the board" in e.get("inferred", "") for e in events),
        "first_wrong_turn": first_wrong, "record_equals_source": got == shown, "turns_wrong": wrong,
        "turns_wrong_untold": untold,
        "join_at": args.join_at, "join_turn": join_turn,
        "joined_frame": next((e["frame"] + (args.join_at or 0) for e in events if e.get("joined")), None),
        "calls": [{k: e.get(k) for k in ("t", "kind", "reason", "player")} for e in events if e["type"] == "call"],
        "unclear": sum(e["type"] == "unclear" for e in events),
        "doubts": doubts,
        "rerolls_thrown": len(invalid),
        "rerolls_called": sum(any(reroll_matches(call, throw) for call in rerolls) for throw in invalid),
        "reroll_calls_unmatched": sum(not any(reroll_matches(call, throw) for throw in invalid) for call in rerolls),
    }
    if args.found_corners:
        report["localised_px"] = localised_error(events, field)
    if args.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:>22}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
