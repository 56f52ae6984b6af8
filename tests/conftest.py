"""Shared test options: ``--full`` runs the full-size differential and soak tests."""

import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="run the full-size samples (slow: tens of minutes)")


@pytest.fixture(scope="session")
def full(request) -> bool:
    """True under ``pytest --full``: tests size their samples by it."""
    return request.config.getoption("--full")
