"""The fourth game, installed for these tests as a throw-away distribution (tests/fourth/distribution.py) and found
through the `tabletop.games` entry-point group; tabletop itself is not edited to know it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import tabletop
from server.proc import Server
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


@pytest.fixture(scope="session")
def nines_server(nines_dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real `tabletop serve` process (tests/server/proc.py) on a free port and a fresh SQLite file, with one AI
    worker, whose `PYTHONPATH` holds the throw-away distribution: the server finds the fourth game through its
    entry point, as it would find an installed plugin. Shared by the socket and the browser tests."""
    tmp = tmp_path_factory.mktemp("nines-serve")
    path = os.pathsep.join(filter(None, [str(nines_dist), os.environ.get("PYTHONPATH")]))
    env = {"PYTHONPATH": path, "TABLETOP_GAMES_PER_HOUR": "0", "TABLETOP_OPEN_GAMES": "0",
           "TABLETOP_AI_SEATS_PER_ADDRESS": "0", "TABLETOP_AI_ONLY_GAMES": "0"}
    server = Server(f"sqlite:///{tmp / 'nines.sqlite3'}", tmp / "serve.log", ai_workers=1, env=env).start()
    yield server
    server.stop()
