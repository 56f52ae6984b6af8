"""Options shared by every test directory.

``--full`` asks for the full-size runs (long differential tests); a test reads it through the
``full`` fixture and scales its sample, so the default run stays quick.
"""

import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="run the full-size differential tests (slow)")


@pytest.fixture(scope="session")
def full(request) -> bool:
    """True when pytest was started with ``--full``."""
    return request.config.getoption("--full")
