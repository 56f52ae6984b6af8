"""``gammoncam moves`` and ``gammoncam check``: the engine on the command line.

Both read one query from their options or many from ``--jsonl FILE`` (``-`` for stdin), one
JSON object a line, and answer one line per query in order, ``{"error": ...}`` for a bad one,
so that thousands of queries cost one process start.
"""

from __future__ import annotations

import json
import sys

from engine import EngineError, Position, VARIANTS
from gammoncam.cli import UsageError


def register(subparsers) -> None:
    moves = subparsers.add_parser(
        "moves", help="every legal play of a roll",
        description="List one play for each distinct position a legal play of the dice reaches "
                    "(RULES 3.9). Positions stay seen from the same side (not swapped).")
    _common(moves)
    moves.add_argument("--position", metavar="P", help="GNU Position ID, XGID, LN: ID or Board JSON")
    moves.set_defaults(func=run_moves)

    check = subparsers.add_parser(
        "check", help="is a change of position a legal play?",
        description="Exit 0 when BEFORE -> AFTER is a legal play of the dice, 1 when it is "
                    "illegal (with its reason), 2 for input that cannot be read.")
    _common(check)
    check.add_argument("--before", metavar="P", help="position before the play")
    check.add_argument("--after", metavar="Q", help="position after the play, same side's view")
    check.set_defaults(func=run_check)


def _common(parser) -> None:
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="backgammon")
    parser.add_argument("--dice", nargs=2, type=int, metavar=("A", "B"))
    parser.add_argument("--json", action="store_true", help="answer in JSON")
    parser.add_argument("--jsonl", metavar="FILE", help="one JSON query a line ('-' for stdin)")


def moves_answer(position, dice, variant: str) -> dict:
    """The ``moves --json`` answer for one query (``position`` text or Board JSON)."""
    pos = _position(position, variant, "position")
    d1, d2 = _dice(dice)
    return {"plays": [{"play": play.notation, "position": play.position.position_id(),
                       "board": play.position.to_json()} for play in pos.plays(d1, d2)]}


def check_answer(before, dice, after, variant: str) -> dict:
    """The ``check --json`` answer for one query."""
    d1, d2 = _dice(dice)
    verdict = _position(before, variant, "before").check(d1, d2, _position(after, variant, "after"))
    return verdict.to_json()


def _position(text, variant: str, what: str) -> Position:
    try:
        return Position.parse(text, variant)
    except EngineError as exc:
        raise type(exc)(f"{what}: {exc}") from None


def _dice(dice) -> tuple[int, int]:
    if not isinstance(dice, (list, tuple)) or len(dice) != 2:
        raise EngineError("dice are two numbers, e.g. [3, 1]")
    return dice[0], dice[1]


def run_moves(args) -> int:
    if args.jsonl:
        return _jsonl(args.jsonl, lambda q: moves_answer(q["position"], q["dice"], args.variant))
    if args.position is None or args.dice is None:
        raise UsageError("give --position and --dice, or --jsonl")
    try:
        answer = moves_answer(args.position, args.dice, args.variant)
    except EngineError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(answer))
    else:
        for entry in answer["plays"]:
            print(f"{entry['play'] or '(no play)':<28} {entry['position']}")
    return 0


def run_check(args) -> int:
    if args.jsonl:
        return _jsonl(args.jsonl,
                      lambda q: check_answer(q["before"], q["dice"], q["after"], args.variant))
    if args.before is None or args.after is None or args.dice is None:
        raise UsageError("give --before, --dice and --after, or --jsonl")
    try:
        answer = check_answer(args.before, args.dice, args.after, args.variant)
    except EngineError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(answer))
    elif answer["legal"]:
        print(f"legal: {answer['play'] or '(no play)'}")
    else:
        print(f"illegal ({answer['reason']}): {answer['detail']}")
    return 0 if answer["legal"] else 1


def _jsonl(path: str, answer) -> int:
    """Answer each line of ``path``; a bad line gets ``{"error": ...}`` and the rest go on."""
    try:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    out = sys.stdout
    with stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                query = json.loads(line)
                if not isinstance(query, dict):
                    raise EngineError("a query is a JSON object")
                result = answer(query)
            except json.JSONDecodeError as exc:
                result = {"error": f"line {number}: not JSON ({exc.msg})"}
            except KeyError as exc:
                result = {"error": f"line {number}: the query lacks {exc.args[0]!r}"}
            except EngineError as exc:
                result = {"error": f"line {number}: {exc}"}
            out.write(json.dumps(result) + "\n")
    out.flush()
    return 0
