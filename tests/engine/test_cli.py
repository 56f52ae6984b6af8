"""``gammoncam moves`` and ``gammoncam check`` as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import Position

START = "4HPwATDgc/ABMA"


def gammoncam(*args, stdin: str | None = None):
    return subprocess.run([sys.executable, "-m", "gammoncam", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_moves_json_lists_each_distinct_result():
    run = gammoncam("moves", "--variant", "backgammon", "--position", START, "--dice", "3", "1", "--json")
    assert run.returncode == 0, run.stderr
    plays = json.loads(run.stdout)["plays"]
    assert len(plays) == 16
    entry = next(p for p in plays if p["play"] == "8/5 6/5")
    assert Position.parse(entry["position"]) == Position.parse(entry["board"])
    assert entry["board"]["player"][4] == 2  # the mover made its 5 point: not swapped


def test_moves_with_no_play_gives_the_unchanged_position():
    closed = Position([0] * 5 + [14] + [0] * 18, [2] * 6 + [0] * 6 + [3] + [0] * 11, mover_bar=1)
    run = gammoncam("moves", "--position", closed.position_id(), "--dice", "6", "6", "--json")
    assert json.loads(run.stdout) == {"plays": [{"play": "", "position": closed.position_id(),
                                                 "board": closed.to_json()}]}


def test_check_exit_codes():
    after = Position.parse(START).apply("8/5 6/5").position_id()
    legal = gammoncam("check", "--before", START, "--dice", "3", "1", "--after", after, "--json")
    assert legal.returncode == 0 and json.loads(legal.stdout) == {"legal": True, "play": "8/5 6/5"}
    illegal = gammoncam("check", "--before", START, "--dice", "4", "1", "--after", after, "--json")
    assert illegal.returncode == 1
    answer = json.loads(illegal.stdout)
    assert answer["legal"] is False and answer["reason"] == "no_such_play" and answer["detail"]
    bad = gammoncam("check", "--before", "nonsense", "--dice", "3", "1", "--after", after)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "before" in bad.stderr


def test_both_colours_on_a_point_is_an_illegal_play_not_bad_input():
    before = Position.parse(START)
    b = list(before.board)
    b[12] -= 1
    b[8] += 1  # 13/9, where... and 8/x: put a checker on the opponent's 8 point (mover's 17)
    b[7] -= 1
    b[16] += 1
    after = Position.from_board(b)
    run = gammoncam("check", "--before", START, "--dice", "4", "1", "--after",
                    json.dumps(after.to_json()), "--json")
    assert run.returncode == 1 and json.loads(run.stdout)["reason"] == "shared_point"


def test_jsonl_answers_every_line_in_order():
    after = Position.parse(START).apply("24/21 24/23")
    lines = [
        {"position": START, "dice": [3, 1]},
        "not json",
        {"position": "garbage", "dice": [3, 1]},
        {"position": Position.start().to_json(), "dice": [6, 6]},
        {"position": START, "dice": [0, 1]},
        {"dice": [3, 1]},
    ]
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    run = gammoncam("moves", "--jsonl", "-", stdin=text + "\n")
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and len(answers) == 6
    assert len(answers[0]["plays"]) == 16 and len(answers[3]["plays"]) > 0
    assert all("error" in answers[k] for k in (1, 2, 4, 5))
    checks = "\n".join(json.dumps(q) for q in [
        {"before": START, "dice": [3, 1], "after": after.position_id()},
        {"before": START, "dice": [3, 1], "after": after.to_json()},
        {"before": START, "dice": [3, 2], "after": after.position_id()},
    ])
    run = gammoncam("check", "--jsonl", "-", stdin=checks)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["legal"] for a in answers] == [True, True, False]


@pytest.mark.parametrize("args", [
    ("moves", "--position", START),
    ("moves", "--position", START, "--dice", "3", "9"),
    ("moves", "--position", START, "--dice", "3", "x"),
    ("moves", "--variant", "long", "--position", START, "--dice", "3", "1"),
    ("check", "--before", START, "--dice", "3", "1"),
    ("moves", "--jsonl", "/nonexistent/file"),
])
def test_bad_input_is_one_line_and_exit_2(args):
    run = gammoncam(*args)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
