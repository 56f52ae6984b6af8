"""Every example in the docstrings runs as written."""

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("engine", "vision", "gammoncam", "device", "web_ui")
SKIP = {"gammoncam.__main__"}  # running it is the command line itself


def _modules():
    for package in PACKAGES:
        root = importlib.import_module(package)
        yield package
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if info.name not in SKIP:
                yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
