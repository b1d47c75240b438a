"""The load test is a client of the server with its own extra (issue 21): its package imports nothing of
`tabletop.server` (it starts the server through `tabletop serve` and speaks HTTP and WebSocket), what it assumes of
the server's defaults is the server's, its extra holds what it runs, and `tabletop loadtest` says which extra to
install when its dependencies are missing, and why the server did not start when it does not."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest

import tabletop
from tabletop.cli.main import main
from tabletop.loadtest import bots

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "tabletop" / "loadtest"


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


def test_the_load_test_imports_nothing_of_the_server() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert {p.stem for p in modules} >= {"__init__", "bots", "process", "run", "plot", "pgcluster"}
    for path in modules:
        server = sorted(m for m in imported(path) if m == "tabletop.server" or m.startswith("tabletop.server."))
        assert not server, (path.name, server)


def test_the_bots_keep_within_the_servers_default_limit_per_token() -> None:
    from tabletop.server.settings import Settings  # a test may look at both sides

    fields = Settings.model_fields  # the defaults, whatever this environment's TABLETOP_* variables say
    assert (fields["rate_per_token"].default, fields["burst_per_token"].default) == bots.PER_TOKEN


def test_the_loadtest_extra_holds_the_bots_and_the_server_they_start() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {r.split(">")[0].split("=")[0] for r in extras["loadtest"]}
    assert {"httpx", "websockets", "orjson"} <= names
    assert set(extras["server"]) <= set(extras["loadtest"]), set(extras["server"]) - set(extras["loadtest"])
    assert set(extras["loadtest"]) <= set(extras["dev"])


def test_without_its_dependencies_it_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    for name in [m for m in sys.modules if m == "tabletop.loadtest" or m.startswith("tabletop.loadtest.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(tabletop, "loadtest", raising=False)
    monkeypatch.setitem(sys.modules, "httpx", None)  # as if not installed: importing it fails
    assert main(["loadtest", "--mode", "paced"]) == 2
    err = capsys.readouterr().err
    assert "the load test needs its extra: pip install 'tabletop[loadtest]'" in err and "httpx" in err


def test_a_server_that_does_not_start_is_said_with_its_last_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--mode", "paced", "--db", "nosuch://x", "--games-at-once", "1", "--seconds", "0"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("tabletop: error: `tabletop serve` exited") and "nosuch" in out


def test_the_load_test_names_no_game_it_plays_the_servers(capsys: pytest.CaptureFixture[str]) -> None:
    for path in PACKAGE.glob("*.py"):
        text = path.read_text()
        assert not any(f'"{g}"' in text or f"'{g}'" in text for g in tabletop.games()), path.name
    assert main(["loadtest", "--mode", "paced", "--games", "silos,chess", "--games-at-once", "1"]) == 2
    out = capsys.readouterr().out
    assert "games must be among " + ", ".join(tabletop.games()) in out
    # no game takes 9 players: said once the server says what it plays
    assert main(["loadtest", "--mode", "paced", "--players", "9", "--games-at-once", "1", "--seconds", "0"]) == 2
    out = capsys.readouterr().out
    assert "the server plays no game with 9 players; it plays none" in out
