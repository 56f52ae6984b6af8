"""The packages depend one way (DEVELOPERS design card, STYLE.md): engine at the bottom,
vision on engine, device and web_ui on engine types only, the wiring (gammoncam) on top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "engine": {"engine"},
    "vision": {"engine", "vision"},
    "device": {"device"},
    "web_ui": {"engine", "web_ui"},
}
OURS = {"engine", "vision", "device", "web_ui", "gammoncam"}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & OURS


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_it_may(package):
    wrong = {str(path.relative_to(ROOT)): sorted(imported_packages(path) - ALLOWED[package])
             for path in (ROOT / package).rglob("*.py")}
    assert {path: names for path, names in wrong.items() if names} == {}
