"""Fixtures of the web tests: a demo feed, its app, and a real server on 127.0.0.1."""

from __future__ import annotations

import pytest

from web_ui.app import create_app
from web_ui.demo_feed import DemoSession
from web_ui.feed import LiveFeed
from web_ui.server import serve
from web_helpers import TOKEN


@pytest.fixture
def feed() -> LiveFeed:
    return LiveFeed()


@pytest.fixture
def demo(feed) -> DemoSession:
    return DemoSession(feed, seed=7)


@pytest.fixture
def app(feed, demo):
    return create_app(feed, token=TOKEN)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def server(app):
    handle = serve(app, port=0)
    yield handle
    handle.stop()
