"""Render the suite of games in bench/watch_suite.txt (once) and follow each with bench/watch.py.

The regression check for the tracker: every game is rendered into ``--out`` (kept between runs,
since a render takes minutes), then followed by ``gammoncam watch`` with the trained recognizer;
each report goes to ``OUT/wSEED.json`` and one line per game is printed, with the totals: turns
recorded right, the calls made, the re-rolls the render made against those called, and the
re-roll calls that match no throw that did not count.

    PYTHONPATH=. python bench/watch_suite.py --out runs/suite [--only 7419,7501] [--render-only] [--join-at 0.4]
                                             [--corner-noise 0.01] [--condition defocus] [--found-corners]

``--join-at SHARE`` watches each game from that share of its frames on, as a stream joined
mid-game (``bench/watch.py --join-at``): turns are counted from the one the tracker joined at.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's engine, not bench/engine.py beside this file
MATCHES = ROOT.parent / "shared" / "fixtures" / "matches" / "bglab"
SPECS = Path(__file__).with_name("watch_suite.txt")
LATE = "double after throw "  # a field naming a turn whose player doubles with the throw at rest


def specs(path: Path = SPECS) -> list[dict]:
    """The suite's games, as written in ``path``."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        seed, source, game, size, fps, turns, rerolls = fields[:7]
        spec = {"seed": int(seed), "source": source, "game": int(game), "size": size, "fps": fps,
                "turns": int(turns), "rerolls": int(rerolls), "edit": None, "put_right": False, "late": []}
        for extra in fields[7:]:
            if extra == "put right":
                spec["put_right"] = True
            elif extra.startswith(LATE):
                spec["late"].append(int(extra[len(LATE):]))
            else:
                spec["edit"] = extra
        out.append(spec)
    return out


def source_file(spec: dict, vdir: Path, edited: bool = True) -> Path:
    """The transcript the game is rendered from (with its foul injected, unless not ``edited``),
    or a self-play's record."""
    if spec["source"].startswith("selfplay:"):
        path = vdir / "source.txt"
        if spec["edit"] is None or not edited:
            return path
        if not path.exists():  # the self-play written first, for its foul to be injected
            from vision.synth.transcript import selfplay_turns, turns_transcript

            variant = spec["source"].split(":", 1)[1]
            vdir.mkdir(parents=True, exist_ok=True)
            path.write_text(turns_transcript(variant, selfplay_turns(variant, spec["seed"], spec["turns"])))
    else:
        path = MATCHES / spec["source"]
    if spec["edit"] is None or not edited:
        return path
    number, old, new = spec["edit"].split(":", 2)  # NEW may hold colons, OLD may not
    new = new.replace("\\n", "\n")  # a written \n in NEW starts a line: an action inserted
    lines = path.read_text().splitlines(keepends=True)
    line = lines[int(number) - 1]
    if old not in line:
        sys.exit(f"watch_suite: {spec['seed']}: '{old}' is not on line {number} of {path.name}")
    lines[int(number) - 1] = line.replace(old, new)
    edited = vdir / "source_with_foul.txt"
    edited.write_text("".join(lines))
    return edited


def unplayable(path: Path, game: int, turns: int) -> str | None:
    """The first play, of the ``turns`` of ``game`` in ``path`` that a render shows (counted as
    ``synth video --max-turns`` counts them), that cannot be made on the board the plays before it
    leave, said as "turn N: PLAY cannot be played"; None if all can."""
    from engine.errors import EngineError
    from engine.position import Position
    from engine.transcript import parse_transcript

    source = parse_transcript(path.read_text())
    position = Position.start(source.variant)
    shown = [a for a in source.games[game - 1].actions
             if (a.kind == "play" and a.play is not None) or a.kind in ("double", "take", "drop")]
    for action in shown[:turns]:
        if action.kind == "drop":
            break
        if action.kind == "play":
            try:
                position = (position.apply(action.play) if action.play else position).swapped()
            except EngineError:
                return f"turn {action.number}: {action.play} cannot be played"
    return None


def render(spec: dict, vdir: Path) -> None:
    vdir.mkdir(parents=True, exist_ok=True)
    if spec["source"].startswith("selfplay:") and spec["edit"] is None:
        what = ["--selfplay", spec["source"].split(":", 1)[1]]
    else:
        what = ["--transcript", str(source_file(spec, vdir))]
        if spec["put_right"]:  # the foul is put right to the source's own play (RULES 7.2)
            what += ["--put-right", str(source_file(spec, vdir, edited=False))]
        elif spec["edit"] is not None:
            # a foul left standing moves the board off the source's: a later play may have no
            # checker to move, and the render shows something else there, perhaps another foul
            # (10031's first edit); the turns from there count as wrong
            stuck = unplayable(source_file(spec, vdir), spec["game"], spec["turns"])
            if stuck:
                print(f"watch_suite: {spec['seed']}: warning: with the foul left standing, {stuck}; the render "
                      f"shows something else from there", file=sys.stderr)
    # into a scratch folder first: an interrupted render leaves nothing that looks finished
    scratch = Path(tempfile.mkdtemp(dir=vdir.parent))
    done = subprocess.run([sys.executable, "-m", "gammoncam", "synth", "video", *what, "--seed", str(spec["seed"]),
                           "--out", str(scratch), "--game", str(spec["game"]), "--max-turns", str(spec["turns"]),
                           "--size", spec["size"], "--fps", spec["fps"], "--rerolls", str(spec["rerolls"]),
                           *(a for n in spec["late"] for a in ("--double-after-throw", str(n)))], cwd=ROOT)
    if done.returncode:  # the render said why on stderr (a source line it cannot read)
        shutil.rmtree(scratch)
        sys.exit(f"watch_suite: {spec['seed']}: the render failed (exit {done.returncode})")
    for item in scratch.iterdir():
        item.replace(vdir / item.name)
    scratch.rmdir()


def follow(spec: dict, vdir: Path, join_at: float | None = None, corner_noise: float = 0.0,
           condition: str | None = None, found_corners: bool = False) -> dict:
    joined = ["--corner-noise", str(corner_noise)] if corner_noise else []
    joined += ["--found-corners"] if found_corners else []
    joined += ["--condition", condition] if condition else []
    if join_at:
        joined += ["--join-at", str(int(join_at * sum(1 for _ in open(vdir / "frames.jsonl"))))]
    # a foul put right leaves the source's own play on the board and in the record
    source = source_file(spec, vdir, edited=not spec["put_right"])
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "watch.py"), str(vdir), str(source),
                          "--turns", str(spec["turns"]), "--game", str(spec["game"]), "--json", *joined],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if out.returncode != 0 or not out.stdout.strip():
        sys.exit(f"watch_suite: {spec['seed']}: bench/watch.py failed: {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def line(seed: int, r: dict) -> str:
    calls = ", ".join(f"{c['kind']}({c['reason']}) p{c['player']} {c['t']:.0f}s" for c in r["calls"]
                      if c["kind"] != "reroll")
    joined = f"board found {r['localised_px']} px off  " if "localised_px" in r else ""
    if r.get("join_at"):
        joined += (f"joined at turn {r['join_turn']} (frame {r['joined_frame']})  " if r["join_turn"] is not None
                  else f"joined {'at a position misread' if r['joined_frame'] else 'never'}  ")
    return (f"{seed}  {joined}turns {r['turns_right']:>2}/{r['turns_shown']:<2} "
            f"in order {r['turns_found_in_order']:>2}  "
            f"re-rolls {r['rerolls_called']}/{r['rerolls_thrown']} (unmatched {r['reroll_calls_unmatched']})  "
            f"unclear {r['unclear']:>2}  doubts {len(r.get('doubts', [])):>2} "
            f"({sum(bool(d.get('foul_if_read')) for d in r.get('doubts', []))} could hide a foul)  "
            f"turns wrong untold {r.get('turns_wrong_untold', '-')}  "
            f"latency {r['latency_ms_median']}/{r['latency_ms_max']} ms  "
            f"other calls: {calls or 'none'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "runs" / "suite"), help="where renders and reports are kept")
    ap.add_argument("--only", help="comma-separated seeds")
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--join-at", type=float, metavar="SHARE", help="watch each game from this share of its frames on")
    ap.add_argument("--corner-noise", type=float, default=0.0, metavar="SHARE",
                    help="give each game's corners this far off, as clicked by hand (bench/watch.py)")
    ap.add_argument("--found-corners", action="store_true", help="give no corners: the watch finds the board")
    ap.add_argument("--condition", metavar="NAME", help="watch each game under this camera or room condition "
                                                          "(bench/watch.py, vision.conditions)")
    args = ap.parse_args()
    out = Path(args.out)
    chosen = specs()
    if args.only:
        wanted = {int(s) for s in args.only.split(",")}
        chosen = [s for s in chosen if s["seed"] in wanted]
    totals = {"turns_right": 0, "turns_shown": 0, "rerolls_called": 0, "rerolls_thrown": 0,
              "reroll_calls_unmatched": 0, "other_calls": 0}
    for spec in chosen:
        vdir = out / f"vid{spec['seed']}"
        if not (vdir / "game.mp4").exists():
            render(spec, vdir)
        if args.render_only:
            continue
        report = follow(spec, vdir, args.join_at, args.corner_noise, args.condition, args.found_corners)
        name = (f"w{spec['seed']}" + (f"_join{args.join_at}" if args.join_at else "")
                + (f"_noise{args.corner_noise}" if args.corner_noise else "")
                + (f"_{args.condition}" if args.condition else "") + ("_found" if args.found_corners else ""))
        (out / f"{name}.json").write_text(json.dumps(report, indent=1))
        print(line(spec["seed"], report), flush=True)
        for key in totals:
            totals[key] += (sum(c["kind"] != "reroll" for c in report["calls"]) if key == "other_calls"
                            else report[key])
    if not args.render_only:
        print(f"all {len(chosen)}: turns {totals['turns_right']}/{totals['turns_shown']}, re-rolls "
              f"{totals['rerolls_called']}/{totals['rerolls_thrown']} (unmatched calls "
              f"{totals['reroll_calls_unmatched']}), other calls {totals['other_calls']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
