"""The referee's log (issue 4 item 3): a session killed at any instant and restarted has
exactly the state and verdicts it had; a file that is not a log is refused, never written."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.match import Throw, event_to_json
from engine.transcript import parse_transcript
from gammoncam.referee import LogError, Referee
from gammoncam.replay import Replay, transcript_profile

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "matches" / "bglab"
DRIVER = Path(__file__).with_name("session_driver.py")


def corpus_session(name: str = "match10013413.txt", *, calls: bool = True):
    """The events a replay of a corpus match submits, and the referee that took them; with
    ``calls``, a cocked throw (RULES 2.3) every 50 events, so that not every verdict is
    "accepted"."""
    transcript = parse_transcript((CORPUS / name).read_text())
    profile = transcript_profile(transcript)
    events = Replay(name).run(transcript).events
    if calls:
        events = [e for k, event in enumerate(events)
                  for e in ((event, Throw(3, 4, valid=False)) if k % 50 == 49 else (event,))]
    referee = Referee(profile)
    for event in events:
        referee.submit(event)
    return profile, referee


def _events_file(path: Path, profile, events) -> Path:
    """The JSON-lines file session_driver.py submits from: the profile, then the events."""
    with open(path, "w") as f:
        f.write(json.dumps(profile.to_json()) + "\n")
        for event in events:
            f.write(json.dumps(event_to_json(event)) + "\n")
    return path


def snapshot(referee: Referee):
    return ([r.to_json() for r in referee.rulings], referee.state.to_json())


def test_log_reopens_to_the_same_session(tmp_path):
    profile, reference = corpus_session()
    log = tmp_path / "match.gcref"
    with Referee.open(log, profile) as referee:
        for event in reference.events:
            referee.submit(event)
        assert snapshot(referee) == snapshot(reference)
    with Referee.open(log) as again:
        assert snapshot(again) == snapshot(reference)
        assert any(not r.accepted for r in again.rulings)


def test_notes_for_the_official_are_kept_beside_the_events_and_change_nothing(tmp_path):
    """A note (a play that fits other dice than those read) is logged where it came and read
    back with the session; the events replay as without it. A log made before notes were kept
    takes them too."""
    profile, reference = corpus_session(calls=False)
    log = tmp_path / "match.gcref"
    note = {"t": 41.5, "type": "dice_misread", "player": 2, "what": "the play fits 4-3, the dice were read 6-3"}
    with Referee.open(log, profile) as referee:
        for k, event in enumerate(reference.events[:30]):
            referee.submit(event)
            if k == 9:
                referee.note(note)
    with Referee.open(log) as again:
        assert again.notes == [{"after": 10, **note}]
        for event in reference.events[30:]:
            again.submit(event)
        assert snapshot(again) == snapshot(reference)
    db = sqlite3.connect(log)
    db.execute("DROP TABLE notes")  # as a log of the version before notes
    db.commit()
    db.close()
    with Referee.open(log) as older:
        assert older.notes == []
        older.note({"what": "a cube turned before the throw"})
    with Referee.open(log) as again:
        assert [n["what"] for n in again.notes] == ["a cube turned before the throw"]
        assert again.notes[0]["after"] == len(reference.events)


def test_kill_9_at_random_instants_then_restart(tmp_path):
    """A real subprocess killed with SIGKILL 20 times; the log then holds the session an
    uninterrupted run gives, state and verdicts alike."""
    profile, reference = corpus_session("match9102134.txt")  # 1,378 events
    assert len(reference.calls) > 20
    events = _events_file(tmp_path / "events.jsonl", profile, reference.events)
    log = tmp_path / "match.gcref"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rng = random.Random(4)
    kills = 0
    finished = False
    for attempt in range(40):
        proc = subprocess.Popen([sys.executable, str(DRIVER), str(log), str(events)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        if kills < 20:
            # kill at a random instant of the appending, once the log is open again: after a
            # random number of events (so the run cannot end first, however fast the machine)
            # and a random fraction of the next one
            assert proc.stdout.readline().startswith(b"open")
            for _ in range(rng.randint(0, 60)):
                assert proc.stdout.readline() == b"submitted\n"
            time.sleep(rng.uniform(0, 0.003))
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        out, err = proc.communicate(timeout=60)
        if proc.returncode == 0:
            assert out.split()[-1] == b"done", err
            finished = True
            break
        assert proc.returncode == -signal.SIGKILL, err.decode()
    assert kills == 20 and finished
    with Referee.open(log) as restarted:
        assert len(restarted.events) == len(reference.events)
        assert snapshot(restarted) == snapshot(reference)


def test_one_session_at_a_time_writes_a_log_and_a_reader_reads_it_as_it_stands(tmp_path):
    """A second writer would number its events over the first's (RULES 7.3: the log is what
    officials trust): opening a log another session writes is refused in one line naming the
    writer; reading it (``write=False``, as export does) is not, and writes nothing; once the
    writer closes, the log is the next one's."""
    profile, reference = corpus_session(calls=False)
    log = tmp_path / "match.gcref"
    with Referee.open(log, profile) as writer:
        for event in reference.events[:3]:
            writer.submit(event)
        for second in (lambda: Referee.open(log), lambda: Referee.open(log, profile)):
            with pytest.raises(LogError) as caught:
                second()
            message = str(caught.value)
            assert f"process {os.getpid()}" in message and "referee page" in message and "\n" not in message
        reader = Referee.open(log, write=False)
        assert reader.events == reference.events[:3] and snapshot(reader) == snapshot(writer)
        reader.submit(reference.events[3])  # in the reader's memory only
        reader.note({"what": "a reader's note"})
        writer.submit(reference.events[3])
    with Referee.open(log) as after:
        assert after.events == reference.events[:4] and after.notes == []
    with pytest.raises(LogError, match="no log there"):
        Referee.open(tmp_path / "none.gcref", profile, write=False)
    assert not (tmp_path / "none.gcref").exists()


def test_a_writer_killed_leaves_the_log_to_the_next(tmp_path):
    """The writer's lock goes with its process, however it ends: a watch killed with SIGKILL
    while it holds the log is no reason to refuse the watch started again."""
    profile, reference = corpus_session(calls=False)
    events = _events_file(tmp_path / "events.jsonl", profile, reference.events[:5])
    log = tmp_path / "match.gcref"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(DRIVER), str(log), str(events), "--hold"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline() == b"open 0\n"
        with pytest.raises(LogError, match=f"process {proc.pid}"):
            Referee.open(log)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    with Referee.open(log) as again:
        assert again.events == []
        again.submit(reference.events[0])


def test_a_file_that_is_not_a_log_is_refused_and_left_alone(tmp_path):
    profile, _ = corpus_session(calls=False)
    text = tmp_path / "notes.txt"
    text.write_bytes(b"match notes, not a database\n" * 10)
    foreign = tmp_path / "other.sqlite"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE t(x)")
    db.commit()
    db.close()
    damaged = tmp_path / "damaged.gcref"
    with Referee.open(damaged, profile) as referee:
        for event in corpus_session(calls=False)[1].events:
            referee.submit(event)
    data = bytearray(damaged.read_bytes())
    data[4096 + 8:4096 + 200] = os.urandom(192)  # the events table's page
    damaged.write_bytes(bytes(data))

    for path, words in ((text, "not an SQLite database"), (foreign, "another program"),
                        (damaged, "")):
        before = path.read_bytes()
        with pytest.raises(LogError) as caught:
            Referee.open(path, profile)
        message = str(caught.value)
        assert str(path) in message and words in message and "\n" not in message
        assert path.read_bytes() == before  # never overwritten


def test_a_log_where_none_can_be_made_is_one_line_error(tmp_path):
    """A folder that is not there (a typo in --log) or is not writable: a LogError, no traceback."""
    profile, _ = corpus_session(calls=False)
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    readonly.chmod(0o500)
    try:
        for path in (tmp_path / "no such folder" / "a.gcref", readonly / "a.gcref"):
            if path.parent == readonly and os.access(readonly, os.W_OK):
                continue  # running as root: every folder is writable
            with pytest.raises(LogError, match="cannot open the log there") as caught:
                Referee.open(path, profile)
            assert "\n" not in str(caught.value) and not path.exists()
    finally:
        readonly.chmod(0o700)


def test_a_log_refuses_another_profile(tmp_path):
    profile, _ = corpus_session(calls=False)
    log = tmp_path / "a.gcref"
    Referee.open(log, profile).close()
    with pytest.raises(LogError, match="started with profile 'tournament'"):
        Referee.open(log, profile.replace(match_length=profile.match_length + 2))


def test_bad_input_is_refused_before_it_is_logged(tmp_path):
    from engine.match import InvalidEventError, Throw

    profile, _ = corpus_session(calls=False)
    log = tmp_path / "a.gcref"
    with Referee.open(log, profile) as referee:
        with pytest.raises(InvalidEventError):
            referee.submit(Throw(7, 1))
    with Referee.open(log) as again:
        assert again.events == []


def test_silent_mode_logs_calls_without_telling_the_listeners(tmp_path):
    """RULES 7.3: monitor mode calls out, silent mode only logs; the recorders (what lists the
    calls for the officials) hear every call in both."""
    profile, reference = corpus_session()
    heard = {"monitor": [], "silent": []}
    recorded = {"monitor": [], "silent": []}
    for mode in heard:
        with Referee.open(tmp_path / f"{mode}.gcref", profile, mode=mode,
                          listeners=[lambda k, r, s, mode=mode: heard[mode].append(r.reason)]) as ref:
            ref.recorders.append(lambda k, r, s, mode=mode: recorded[mode].append(r.reason))
            for event in reference.events:
                ref.submit(event)
            assert [r for _, r in ref.calls] == [r for _, r in reference.calls]
    assert heard["monitor"] == [r.reason for _, r in reference.calls] and heard["monitor"]
    assert heard["silent"] == []
    assert recorded["monitor"] == recorded["silent"] == heard["monitor"]


def test_a_result_stated_counts_from_then_on_and_the_log_reopens_to_the_same_session(tmp_path):
    """Game 1 ended unseen; in game 2 dark doubled and light took before the official stated that
    dark won game 1 for 4 points (RULES 6.2: game 2 is then the Crawford game). The double taken
    before the statement is called in the note (it had no effect, 6.4: the record's cube is 1),
    dark's double after it is called as it is made; the log reopened has the same verdicts, state
    and record, the double before the statement judged as it was then."""
    from engine.match import Double, EndUnseen, NewGame, OpeningThrow, Played, Take
    from engine.position import Position
    from engine.profiles import profile

    log = tmp_path / "log.sqlite"
    with Referee.open(log, profile("tournament", match_length=5)) as referee:
        for event in (NewGame(), OpeningThrow(3, 1), Played(Position.start().apply("8/5 6/5")), EndUnseen(),
                      NewGame(), OpeningThrow(5, 2), Played(Position.start().apply("13/8 13/11")), Double(), Take()):
            assert referee.submit(event).accepted
        note = referee.state_result(1, 2, 4, author="Chief TD")
        assert (note["seq"], note["was"], note["withdrawn"]) == (4, None, [])
        assert [(c["seq"], c["kind"], c["reason"], c["game"], c["turn"], c["player"]) for c in note["called"]] == \
            [(8, "illegal_double", "crawford_game", 2, 1, 2)]
        assert (referee.state.score, referee.state.crawford, referee.state.cube) == ((0, 4), True, 1)
        assert referee.record[3] == EndUnseen(1, 4) and referee.events[3] == EndUnseen()
        for event in (Throw(6, 4), Played(referee.state.position.apply("24/18 13/9"))):
            assert referee.submit(event).accepted
        assert referee.submit(Double()).reason == "crawford_game"  # judged on the score stated
        before = snapshot(referee), referee.record
    with Referee.open(log) as again:
        assert (snapshot(again), again.record) == before
        assert [r.accepted for r in again.rulings][7] is True  # dark's first double as judged when made


def test_a_double_stated_counts_from_then_on_and_the_log_reopens_to_the_same_session(tmp_path):
    """Dark doubled before their 4-1 and light took, unseen (the cube turned under a hand); the
    official states it once light has thrown again. The record has the double before the 4-1,
    the cube stands at 2 at light's side, and dark's later double is called (RULES 5.2: not the
    owner). A roll amended after it (the 4-1's 13/9/8 is a 3-2's too, 13/10/8) names the event
    as the log numbers it, though the record has one more before it; the log reopened has the
    same verdicts, state and record."""
    from engine.match import CubeUnseen, Double, NewGame, OpeningThrow, Played
    from engine.position import Position
    from engine.profiles import profile

    log = tmp_path / "log.sqlite"
    opened = Position.start().apply("8/5 6/5")
    with Referee.open(log, profile("tournament", match_length=5)) as referee:
        for event in (NewGame(), OpeningThrow(3, 1), Played(opened), Throw(4, 1),
                      Played(opened.swapped().apply("13/8")), Throw(5, 2)):
            assert referee.submit(event).accepted
        note = referee.state_double(1, 1, 2, author="Chief TD")
        assert (note["seq"], note["value"], note["withdrawn"], note["called"]) == (4, 2, [], [])
        assert (referee.state.cube, referee.state.owner) == (2, 0)
        assert referee.record[3] == CubeUnseen(doubler=1) and referee.record[4:] == referee.events[3:]
        amended = referee.amend_roll(1, 2, 2, (3, 2), author="Chief TD")  # the 4-1 is turn 2 from now on
        assert amended["seq"] == 4 and referee.record[4] == Throw(3, 2) and referee.events[3] == Throw(4, 1)
        assert referee.submit(Played(referee.state.position.apply("13/8 13/11"))).accepted
        assert referee.submit(Double()).reason == "not_cube_owner"
        before = snapshot(referee), referee.record
    with Referee.open(log) as again:
        assert (snapshot(again), again.record) == before


def test_a_double_that_would_make_one_stated_before_illegal_is_refused():
    """Dark's double before their second turn is stated; a double by dark before their first turn
    would leave light the cube's owner, so the double stated first could not have been made
    (RULES 5.2): refused, and the record keeps the one stated."""
    from engine.match import NewGame, OpeningThrow, Played
    from engine.position import Position
    from engine.profiles import profile
    from engine.transcript import AmendmentError

    referee = Referee(profile("money"))
    light = Position.start().apply("8/5 6/5")
    dark = light.swapped().apply("13/8")
    for event in (NewGame(), OpeningThrow(3, 1), Played(light), Throw(4, 1), Played(dark), Throw(2, 1),
                  Played(dark.swapped().apply("13/11 6/5")), Throw(6, 5)):
        assert referee.submit(event).accepted
    assert referee.state_double(1, 2, 2)["seq"] == 8
    with pytest.raises(AmendmentError, match="a double an official stated before one the rules forbid"):
        referee.state_double(1, 1, 2)
    assert [n["type"] for n in referee.notes] == ["double"] and (referee.state.cube, referee.state.owner) == (2, 0)
