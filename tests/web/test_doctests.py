"""The examples in web_ui's docstrings run."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["web_ui.feed", "web_ui.board", "web_ui.demo_feed", "web_ui.server"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
