"""``gammoncam export LOG``: a referee log read back, as a match transcript or event by event;
``gammoncam amend LOG``: an official's word on a roll the record got wrong; ``gammoncam result
LOG``: an official's word on how a game ended where the record did not see it; ``gammoncam double
LOG``: an official's word on a double and take the record did not see.

    gammoncam export ~/.local/share/gammoncam/logs/watch-20261202-101500-4242.sqlite --out match.mat
    gammoncam export session.sqlite --format jsonl
    gammoncam amend session.sqlite --game 1 --turn 14 --player 2 --dice 6-4 --by "A. Official"
    gammoncam result session.sqlite --game 3 --winner 2 --points 2 --by "A. Official"
    gammoncam double session.sqlite --game 2 --turn 9 --player 1 --by "A. Official"

The log is what ``watch`` (or any referee session) wrote before acting on each event, so it is
the record that survives a crash, a lost camera or a closed page. ``mat`` (the default) is the
JellyFish/XG transcript (RULES 9) that ``watch --transcript-out`` writes; ``jsonl`` is one JSON
object per logged event: the event, the referee's verdict (with a call's kind and reason), and
the match after it: game, score, cube, and the position's IDs, GNU Backgammon's Position ID
and Match ID and the XGID for backgammon, the long nardy ID for long nardy. The notes the log
keeps beside the events (:meth:`gammoncam.referee.Referee.note`: the moments the watch was unsure
of, what the officials did on the page) come as lines of their own, ``{"note": {...}}``, after
the event they followed.
The log is not changed; a file that is not a referee log is one line and exit status 2.

A roll the watch recorded wrong (a die misread whose play fits either roll, a dance recorded with
another roll that leaves no play) is amended with ``amend``, as on the referee page while the game
is watched (:meth:`gammoncam.referee.Referee.amend_roll`): only the roll changes, every play must
stand and no call may come of it, or it is refused in one line; a call made on the roll misread
is withdrawn. A foul the watch missed, because its play is legal for the roll misread, is
recorded with ``--foul`` once an official saw the roll thrown: the play is called on the roll given
(RULES 7.2) and the game goes on from the board as it stood. The amendment is a note in the log
(who, what it was, the calls withdrawn or made); the events and verdicts stay as seen, and the
transcript ``export`` writes has the roll amended.

    gammoncam amend session.sqlite --game 1 --turn 9 --player 1 --dice 3-2 --foul --by "A. Official"

A game the watch saw end unseen (the board set up again after a resignation agreed at the table,
or a double dropped out of the camera's sight) has no result in the record, so the score, and the
Crawford game and dead cubes that follow from it, leave it out. ``result`` states it
(:meth:`gammoncam.referee.Referee.state_result`), as the referee page does while the game is
watched: the points as scored, the cube's value included; the last game, if the record holds it
still in progress (the watch stopped before the next game), is ended with it. What the score
then decides is judged again: a double the record took in what is now the Crawford game or on a
dead cube (RULES 6.2, 6.3) is called, and said so. A game the record saw end is refused in one
line, as is a result that wins the match before games the record has after it.

A double and take the watch did not see (the cube turned under a hand, its face unread in a dim
room), found only after the turn, is stated with ``double``
(:meth:`gammoncam.referee.Referee.state_double`; while the game is played the referee page's
"state double" does it at once): the player doubled at the start of the turn named, before its
throw, and the other took. The cube stands at twice its value at the taker's side from then on,
so the game's points count it and what hangs on the cube is judged again: a later double by the
doubler, who no longer owns the cube, is called, a redouble by the taker called for want of the
cube is withdrawn. The transcript writes the double and take before that turn, which the turns
after it are numbered from. A double the rules forbid then (not the cube's owner, the Crawford
game, a dead cube: RULES 5.2, 6.2, 6.3) is refused in one line; a double dropped ended the game,
which ``result`` states.

    gammoncam double session.sqlite --game 1 --turn 7 --player 2 --by "A. Official"
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import sys
from pathlib import Path

from gammoncam.cli import UsageError


def register(subparsers) -> None:
    parser = subparsers.add_parser("export", help="a referee log as a match transcript, or its events with "
                                                  "position IDs")
    parser.add_argument("log", metavar="LOG", help="the referee session's SQLite log (watch --log)")
    parser.add_argument("--format", choices=("mat", "jsonl"), default="mat",
                        help="mat: the match transcript (default); jsonl: every event with its verdict and IDs")
    parser.add_argument("--out", metavar="FILE", help="write here instead of to standard output")
    parser.set_defaults(func=run)
    amend = subparsers.add_parser("amend", help="amend a roll the referee log recorded wrong (the plays stand)")
    amend.add_argument("log", metavar="LOG", help="the referee session's SQLite log (watch --log)")
    amend.add_argument("--game", type=int, required=True, help="the game, as the transcript numbers it")
    amend.add_argument("--turn", type=int, required=True, help="the turn's number in that game's transcript")
    amend.add_argument("--player", type=int, choices=(1, 2), required=True, help="1: light, 2: dark")
    amend.add_argument("--dice", required=True, help="the roll thrown, e.g. 6-4")
    amend.add_argument("--by", default="referee", help="who amends it (kept in the log)")
    amend.add_argument("--foul", action="store_true",
                       help="the play recorded is a foul of this roll, seen by the official: call it (RULES 7.2)")
    amend.set_defaults(func=run_amend)
    result = subparsers.add_parser("result", help="state how a game ended where the referee log did not see it")
    result.add_argument("log", metavar="LOG", help="the referee session's SQLite log (watch --log)")
    result.add_argument("--game", type=int, required=True, help="the game, as the transcript numbers it")
    result.add_argument("--winner", type=int, choices=(1, 2), required=True, help="1: light, 2: dark")
    result.add_argument("--points", type=int, required=True, help="the points it scored, the cube's value included")
    result.add_argument("--by", default="referee", help="who states it (kept in the log)")
    result.set_defaults(func=run_result)
    double = subparsers.add_parser("double", help="state a double and take the referee log did not see")
    double.add_argument("log", metavar="LOG", help="the referee session's SQLite log (watch --log)")
    double.add_argument("--game", type=int, required=True, help="the game, as the transcript numbers it")
    double.add_argument("--turn", type=int, required=True,
                        help="the doubler's turn it came before, as that game's transcript numbers it")
    double.add_argument("--player", type=int, choices=(1, 2), required=True, help="who doubled: 1 light, 2 dark")
    double.add_argument("--by", default="referee", help="who states it (kept in the log)")
    double.set_defaults(func=run_double)


def event_records(referee) -> list[dict]:
    """Each logged event as a JSON object: ``seq`` (from 1), the ``event`` as logged, the
    referee's ``verdict`` and the match ``after`` it; each note as ``{"note": {...}}`` after its
    event.

    >>> from engine.profiles import profile
    >>> from engine.match import Double, NewGame, OpeningThrow
    >>> from gammoncam.referee import Referee
    >>> ref = Referee(profile("tournament", match_length=3))
    >>> _ = ref.submit(NewGame()), ref.submit(OpeningThrow(3, 1)), ref.submit(Double())
    >>> last = event_records(ref)[-1]
    >>> last["event"], last["verdict"]["reason"], last["after"]["gnubg_id"]
    ({'event': 'double', 'thrown': False}, 'after_throw', '4HPwATDgc/ABMA:MIFlAAAAAAAE')
    """
    from engine.match import event_to_json
    from engine.matchid import position_ids
    from gammoncam.referee import as_judged

    notes = {}
    for note in referee.notes:
        notes.setdefault(note["after"], []).append({"note": note})
    out = list(notes.get(0, []))
    judged = as_judged(referee.profile, referee.events, referee.notes)[0]  # a result counts from when it was stated
    for seq, (event, (ruling, state)) in enumerate(zip(referee.events, judged), 1):
        after = {"game": state.game, "score": list(state.score), "cube": state.cube,
                 "cube_owner": None if state.owner is None else state.owner + 1}
        after.update(position_ids(state))
        out.append({"seq": seq, "event": event_to_json(event), "verdict": ruling.to_json(), "after": after})
        out.extend(notes.get(seq, []))
    return out


def _open(path: str, write: bool):
    """The session the referee log at ``path`` holds; ``write``: to add an official's word to
    it (refused while a watch writes it), else to read it as it stands."""
    from gammoncam.referee import LogError, Referee

    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    try:
        return Referee.open(path, write=write)
    except LogError as exc:
        raise UsageError(str(exc)) from None


def run_amend(args) -> int:
    dice = re.fullmatch(r"\s*([1-6])\s*[-, ]?\s*([1-6])\s*", args.dice)
    if dice is None:
        raise UsageError(f"--dice must be two dice such as 6-4, not {args.dice!r}")
    note, _ = _amend_log(args.log, "amendment", lambda referee: referee.amend_roll(
        args.game, args.turn, args.player, (int(dice[1]), int(dice[2])), author=args.by, foul=args.foul))
    print(f"game {args.game}, turn {args.turn}, player {args.player}: {note['dice'][0]}-{note['dice'][1]} "
          f"(was {note['was'][0]}-{note['was'][1]}), amended by {args.by}{_calls_said(note)}")
    return 0


def _amend_log(path: str, what: str, amend) -> tuple[dict, tuple]:
    """``amend(referee)`` on the referee log at ``path``: an official's word, which the referee
    keeps there as a note; that note and the score after it. A word the record cannot take, or a
    log it cannot be written to (read-only, a full disk), is one line."""
    from engine.transcript import AmendmentError

    referee = _open(path, write=True)
    try:
        return amend(referee), referee.state.score
    except AmendmentError as exc:
        raise UsageError(str(exc)) from None
    except sqlite3.Error as exc:
        raise UsageError(f"{path}: cannot write the {what} to the log ({exc})") from None
    finally:
        referee.close()


def _calls_said(note: dict) -> str:
    """What an official's amendment (``note``, as the referee keeps it) did to the calls, as
    ``amend`` and ``result`` print it: the events whose calls it withdrew, those it called."""
    seqs = note["withdrawn"]
    withdrawn = (f"; the call{'s' * (len(seqs) > 1)} on event{'s' * (len(seqs) > 1)} {', '.join(map(str, seqs))} "
                 "withdrawn" if seqs else "")
    return withdrawn + "".join(f"; event {c['seq']} called: {c['text']}" for c in note["called"])


def run_result(args) -> int:
    note, score = _amend_log(args.log, "result", lambda referee: referee.state_result(
        args.game, args.winner, args.points, author=args.by))
    was = f" (was player {note['was'][0]}, {note['was'][1]} point(s))" if note["was"] else ""
    print(f"game {args.game}: player {args.winner} won {args.points} point(s){was}, stated by {args.by}; "
          f"the score is {score[0]}-{score[1]}{_calls_said(note)}")
    return 0


def run_double(args) -> int:
    note, score = _amend_log(args.log, "double", lambda referee: referee.state_double(
        args.game, args.turn, args.player, author=args.by))
    print(f"game {args.game}, turn {args.turn}: player {args.player} doubled to {note['value']} and player "
          f"{3 - args.player} took, stated by {args.by}; the score is {score[0]}-{score[1]}{_calls_said(note)}")
    return 0


def run(args) -> int:
    from gammoncam.watch import transcript_text

    referee = _open(args.log, write=False)
    try:
        if args.format == "mat":
            text = transcript_text(referee)
        else:
            text = "".join(json.dumps(record) + "\n" for record in event_records(referee))
    finally:
        referee.close()
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror}") from None
    return 0
