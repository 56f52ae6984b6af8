"""Shared test options and fixtures: ``--full`` runs the full-size differential and soak tests;
``interruptible`` starts a child process that Ctrl-C (SIGINT) stops; referee logs written by
default go to a scratch data directory, not the user's."""

import os
import signal

import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="run the full-size samples (slow: tens of minutes)")


@pytest.fixture(scope="session")
def full(request) -> bool:
    """True under ``pytest --full``: tests size their samples by it."""
    return request.config.getoption("--full")


@pytest.fixture(scope="session")
def interruptible() -> dict:
    """``subprocess.Popen`` keywords for a child that a test stops with SIGINT, as a user does
    with Ctrl-C. A test run started as a background job of a non-interactive shell ignores
    SIGINT, its children inherit that, and Python then installs no KeyboardInterrupt handler:
    the child would never stop. The child gets SIGINT's default back before it starts."""
    return {"preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)}


@pytest.fixture(scope="session", autouse=True)
def scratch_data_home(tmp_path_factory):
    """$XDG_DATA_HOME, where ``gammoncam watch`` keeps its referee logs by default, points at a
    scratch directory for the whole run (children started by tests inherit it)."""
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data_home"))
    yield
    if old is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = old


@pytest.fixture(scope="session")
def dark_turn():
    """``dark_turn(referee, dice, play)``: in a new game of ``referee``'s, light opens 3-1 (8/5
    6/5), dark throws ``dice`` and plays ``play``, and light throws 5-2, so dark's turn is over
    (one an official may amend); the referee's verdict on dark's play."""
    from engine.match import NewGame, OpeningThrow, Played, Throw

    def play(referee, dice, dark_play: str):
        for event in (NewGame(), OpeningThrow(3, 1)):
            referee.submit(event)
        referee.submit(Played(referee.state.position.apply("8/5 6/5")))
        referee.submit(Throw(*dice))
        ruling = referee.submit(Played(referee.state.position.apply(dark_play)))
        referee.submit(Throw(5, 2))
        return ruling
    return play
