"""A referee session in its own process, for the crash tests: ``session_driver.py LOG EVENTS [--hold]``.

It opens (or resumes) the log, submits the events of the JSON-lines file EVENTS that the log
does not hold yet, one by one, printing ``submitted`` after each, and ``done`` at the end. The
test kills it with ``kill -9`` at random instants and starts it again. With ``--hold`` it waits
for a line on its standard input once the log is open, before it submits anything.
"""

import json
import sys

from engine.match import event_from_json
from engine.profiles import Profile
from gammoncam.referee import Referee


def main(log: str, events_path: str, hold: bool = False) -> None:
    with open(events_path) as f:
        profile = Profile.from_json(json.loads(f.readline()))
        events = [event_from_json(json.loads(line)) for line in f]
    with Referee.open(log, profile) as referee:
        print("open", len(referee.events), flush=True)
        if hold:
            sys.stdin.readline()
        for event in events[len(referee.events):]:
            referee.submit(event)
            print("submitted", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], hold="--hold" in sys.argv[3:])
