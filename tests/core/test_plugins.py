"""Games found through the `tabletop.games` entry-point group: a throw-away distribution written into tmp_path.

The plugin's game is the two-player trick game of tests/core/plugin_game.py (its source copied into the plugin's
package, so its classes are the plugin's own), registered as `plugnines`. The conformance harness's per-case checks
are run on it as on a built-in game.
"""

from __future__ import annotations

import inspect
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import tabletop
from conformance import test_conformance, test_simultaneous_and_undo
from conformance.harness import configs
from fourth.distribution import write_distribution
from tabletop.core import registry
from tabletop.core.registry import PluginWarning

BUILTIN = ["silencio", "siliconvania", "silos"]
GAME = Path(__file__).with_name("plugin_game.py")


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """tmp_path on sys.path, the registry's plugins forgotten before and after (and the plugins' modules)."""
    before = set(sys.modules)
    registry._forget_plugins()
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    registry._forget_plugins()  # discovered again, without tmp_path, at the next use
    for name in set(sys.modules) - before:
        if name.startswith("ttplug_"):
            del sys.modules[name]


def toy_plugin(root: Path) -> None:
    write_distribution(
        root,
        "ttplug_toy",
        {"plugnines": "ttplug_toy:register_game"},
        {
            "ttplug_toy/rules.py": GAME.read_text(),
            "ttplug_toy/__init__.py": (
                '"""A game plugin: its entry point returns the GameInfo to register."""\n'
                "from tabletop.core import GameInfo\n"
                "from ttplug_toy.rules import INFO\n\n\n"
                "def register_game() -> GameInfo:\n"
                "    return INFO\n"
            ),
        },
    )


def test_a_plugin_game_is_listed_and_plays_through_the_conformance_harness(plugin_path: Path) -> None:
    toy_plugin(plugin_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PluginWarning)
        assert tabletop.games() == sorted([*BUILTIN, "plugnines"])
    info = tabletop.game_info("plugnines")
    assert info.state_class.__module__ == "ttplug_toy.rules"
    assert registry.plugins() == {"plugnines": "plugnines = ttplug_toy:register_game"}
    state = tabletop.new_game("plugnines", seed=7)
    assert state.info is info and not state.is_over
    checks = [
        f
        for module in (test_conformance, test_simultaneous_and_undo)
        for name, f in vars(module).items()
        if name.startswith("test_") and callable(f) and list(inspect.signature(f).parameters) == ["case"]
    ]
    assert len(checks) >= 10
    for players, options in configs("plugnines"):
        for check in checks:
            check(("plugnines", players, options))
    # the built-in games are untouched
    for name in BUILTIN:
        assert tabletop.game_info(name).state_class.__module__.startswith(f"tabletop.games.{name}.")
        assert tabletop.new_game(name, seed=1).legal_actions()


def test_discovery_is_lazy_and_runs_once(plugin_path: Path) -> None:
    toy_plugin(plugin_path)
    assert "ttplug_toy" not in sys.modules  # nothing is imported before the first use
    tabletop.games()
    assert "ttplug_toy" in sys.modules
    del sys.modules["ttplug_toy"]
    tabletop.games()
    tabletop.game_info("plugnines")
    assert "ttplug_toy" not in sys.modules, "the entry points were loaded once, not at every use"


def test_a_module_or_a_game_info_may_be_the_entry_point(plugin_path: Path) -> None:
    write_distribution(
        plugin_path,
        "ttplug_forms",
        {"bymodule": "ttplug_forms.bymodule", "byinfo": "ttplug_forms.byinfo:INFO"},
        {
            "ttplug_forms/rules.py": GAME.read_text(),
            "ttplug_forms/__init__.py": "",
            "ttplug_forms/bymodule.py": (
                "from tabletop.core import GameInfo, register\n"
                "from ttplug_forms.rules import Nines\n\n\n"
                "class Coop(Nines):\n"
                "    pass\n\n\n"
                'register(GameInfo("plugcoop", "Plug Coop", 2, 2, True, "1", (), Coop))\n'
            ),
            "ttplug_forms/byinfo.py": "from ttplug_forms.rules import INFO as INFO\n",
        },
    )
    assert tabletop.games() == sorted([*BUILTIN, "plugcoop", "plugnines"])
    assert tabletop.new_game("plugcoop", 2, 1).info.cooperative


def test_a_broken_plugin_is_reported_and_the_built_in_games_still_work(plugin_path: Path) -> None:
    silos = tabletop.game_info("silos")
    write_distribution(
        plugin_path,
        "ttplug_broken",
        {
            "crashes": "ttplug_broken.crashes",
            "missing": "ttplug_broken.nowhere:register",
            "silos": "ttplug_broken.usurper:register_game",
            "idle": "ttplug_broken.idle",
        },
        {
            "ttplug_broken/__init__.py": "",
            "ttplug_broken/crashes.py": 'raise RuntimeError("the plugin is broken")\n',
            "ttplug_broken/idle.py": "",
            "ttplug_broken/usurper.py": (
                "from tabletop.core import GameInfo, register\n"
                "from tabletop.games.silencio import INFO\n\n\n"
                "def register_game() -> None:\n"
                '    register(GameInfo("silos", "Not SILOS", 2, 4, True, "1", (), INFO.state_class))\n'
            ),
        },
    )
    with pytest.warns(PluginWarning) as caught:
        registry._forget_plugins()
        names = tabletop.games()
    messages = [str(w.message) for w in caught]
    assert names == BUILTIN
    assert tabletop.game_info("silos") is silos
    assert tabletop.new_game("silos", 2, 1).legal_actions()
    assert len(messages) == 4, messages
    by_name = {m.split("'")[1].split(" = ")[0]: m for m in messages}
    assert "RuntimeError: the plugin is broken" in by_name["crashes"]
    assert "ModuleNotFoundError" in by_name["missing"] and "ttplug_broken.nowhere" in by_name["missing"]
    assert "the built-in game 'silos' is already registered; a plugin cannot replace it" in by_name["silos"]
    assert "registered no game" in by_name["idle"]
    assert all("'tabletop.games'" in m for m in messages)
    assert registry.plugins() == {}


def test_a_plugin_that_fails_halfway_leaves_nothing_registered(plugin_path: Path) -> None:
    write_distribution(
        plugin_path,
        "ttplug_half",
        {"half": "ttplug_half:register_game"},
        {
            "ttplug_half/rules.py": GAME.read_text(),
            "ttplug_half/__init__.py": (
                "from tabletop.core import register\n"
                "from ttplug_half.rules import INFO\n\n\n"
                "def register_game() -> None:\n"
                "    register(INFO)\n"
                '    raise OSError("data file missing")\n'
            ),
        },
    )
    with pytest.warns(PluginWarning, match="OSError: data file missing"):
        assert tabletop.games() == BUILTIN
    with pytest.raises(tabletop.UnknownGame):
        tabletop.game_info("plugnines")
