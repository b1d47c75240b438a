"""The fourth game, installed for these tests as a throw-away distribution (tests/fourth/distribution.py) and found
through the `tabletop.games` entry-point group; tabletop itself is not edited to know it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tabletop
from tabletop.core import registry

from .distribution import install_nines


@pytest.fixture(scope="session")
def nines_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the distribution (the `nines` package and its dist-info), once per session."""
    return install_nines(tmp_path_factory.mktemp("nines-dist"))


@pytest.fixture
def nines(nines_dist: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The distribution on `sys.path` and the game discovered through its entry point: the game's name. The
    plugins are forgotten after the test, so no other test sees a fourth game."""
    registry._forget_plugins()
    monkeypatch.syspath_prepend(str(nines_dist))
    assert "nines" in tabletop.games(), "the entry point of the throw-away distribution was not found"
    assert registry.plugins()["nines"] == "nines = nines:register_game"
    yield "nines"
    registry._forget_plugins()


@pytest.fixture
def pythonpath(nines_dist: Path) -> str:
    """`PYTHONPATH` for a child process (a server) that must find the game through the same entry point."""
    return f"{nines_dist}:{':'.join(p for p in sys.path if p)}"
