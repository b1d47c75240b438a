"""The game registry: game packages register their `GameInfo`; `new_game` builds a state from a name.

Games come from two places, both loaded lazily, once, at the first `games()`, `game_info()` or `new_game()`:

- the built-in games, `_BUILTIN`: `tabletop.games.<name>`, whose import calls `register`;
- plugins: every entry point of the group `tabletop.games` (`importlib.metadata`), in any installed distribution.
  The entry point's object is loaded (which imports its module). If it is callable, it is called with no
  arguments, and a `GameInfo` it returns is registered; a `GameInfo` itself is registered; a module (or any other
  object) is taken to have registered its games on import, by calling `register`.

  A plugin that fails (its import or its call raises, it registers no game, or it registers a name already taken,
  a built-in's above all) does not stop the other games: it is reported by a `PluginWarning` naming the entry point
  and the error, and whatever it registered is removed again.
"""

from __future__ import annotations

import importlib
import os
import threading
import types
import warnings
from collections.abc import Mapping
from importlib import metadata

from tabletop.core.errors import InvalidOptions, UnknownGame, shorten
from tabletop.core.options import OptionValue, resolve_options
from tabletop.core.state import GameInfo, State

_REGISTRY: dict[str, GameInfo] = {}
_BUILTIN = ("silencio", "siliconvania", "silos")
_loaded = False
ENTRY_POINT_GROUP = "tabletop.games"
_plugins_loaded = False
_PLUGINS: dict[str, str] = {}  # game name -> the entry point that registered it
_loading: str | None = None  # the entry point being loaded, while a plugin runs
_LOAD_LOCK = threading.RLock()  # two threads asking for the first time: the second waits for the games, never sees none


class PluginWarning(UserWarning):
    """A game plugin (an entry point of the `tabletop.games` group) that could not be loaded."""


def register(info: GameInfo) -> GameInfo:
    """Add a game to the registry (called by each game package on import, or by a plugin).

    While a plugin is loading, a name that is already registered is refused (`ValueError`): a plugin never
    replaces another game.
    """
    if _loading is not None:
        if not isinstance(info, GameInfo):
            raise TypeError(f"register() takes a GameInfo, not {type(info).__name__}")
        if info.name in _REGISTRY:
            taken = f"the built-in game {info.name!r}" if info.name in _BUILTIN else f"the game {info.name!r}"
            raise ValueError(f"{taken} is already registered; a plugin cannot replace it")
        _PLUGINS[info.name] = _loading
    _REGISTRY[info.name] = info
    info.state_class.info = info
    return info


def _load_builtin() -> None:
    """The built-in games, then the plugins: each once (under a lock: a thread never finds them half-loaded)."""
    global _loaded
    with _LOAD_LOCK:
        if not _loaded:
            _loaded = True  # first, so that a game's import asking the registry again does not recurse
            for name in _BUILTIN:
                try:
                    importlib.import_module(f"tabletop.games.{name}")
                except ModuleNotFoundError as e:  # a game not written yet is simply absent
                    if e.name != f"tabletop.games.{name}":
                        raise
        _load_plugins()


def _entry_points() -> list[metadata.EntryPoint]:
    seen: set[tuple[str, str]] = set()
    out = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if (ep.name, ep.value) not in seen:  # a distribution found twice on sys.path
            seen.add((ep.name, ep.value))
            out.append(ep)
    return out


def _load_plugins() -> None:
    global _plugins_loaded, _loading
    if _plugins_loaded:
        return
    _plugins_loaded = True
    try:
        eps = _entry_points()
    except Exception as e:  # unreadable metadata: the built-in games still work
        warnings.warn(f"tabletop: cannot list the {ENTRY_POINT_GROUP!r} plugins: {_describe(e)}", PluginWarning, 3)
        return
    for ep in eps:
        label = f"{ep.name} = {ep.value}"
        before = set(_REGISTRY)
        _loading = label
        try:
            obj = ep.load()
            if isinstance(obj, GameInfo):
                register(obj)
            elif callable(obj) and not isinstance(obj, types.ModuleType):
                made = obj()
                if isinstance(made, GameInfo) and _REGISTRY.get(made.name) is not made:
                    register(made)
            if set(_REGISTRY) == before:
                raise ValueError("it registered no game (call tabletop.core.register, or return a GameInfo)")
        except Exception as e:
            for name in set(_REGISTRY) - before:
                _REGISTRY.pop(name, None)
                _PLUGINS.pop(name, None)
            warnings.warn(
                f"tabletop: the game plugin {label!r} (entry point group {ENTRY_POINT_GROUP!r}) was not loaded: "
                f"{_describe(e)}",
                PluginWarning,
                3,
            )
        finally:
            _loading = None


def _describe(e: BaseException) -> str:
    """`RuntimeError: message`, the message cut to one short line."""
    text = " ".join(str(e).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def plugins() -> dict[str, str]:
    """The games registered by plugins: game name -> its entry point (`name = module:object`)."""
    _load_builtin()
    return dict(_PLUGINS)


def _forget_plugins() -> None:
    """Remove the plugins' games and discover the plugins again at the next use (for tests)."""
    global _plugins_loaded
    for name in _PLUGINS:
        _REGISTRY.pop(name, None)
    _PLUGINS.clear()
    _plugins_loaded = False


def games() -> list[str]:
    """Names of the registered games, sorted."""
    _load_builtin()
    return sorted(_REGISTRY)


def game_info(name: str) -> GameInfo:
    """The static facts of game `name`, or UnknownGame listing the known games."""
    _load_builtin()
    info = _REGISTRY.get(name) if isinstance(name, str) else None
    if info is None:
        raise UnknownGame(f"unknown game {shorten(name)}; known games: {', '.join(sorted(_REGISTRY))}")
    return info


def new_game(
    name: str,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> State:
    """A new game of `name` for `players` seats; `seed` fixes every chance draw (random if None)."""
    info = game_info(name)
    if players is None:
        players = info.default_players
    if not isinstance(players, int) or isinstance(players, bool) or not (
        info.min_players <= players <= info.max_players
    ):
        raise InvalidOptions(
            f"{info.title} takes {info.min_players}-{info.max_players} players, not {shorten(players)}"
        )
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        # the generator keeps 64 bits: a larger seed would silently be another seed's game
        raise InvalidOptions(f"seed must be a non-negative integer below 2**64, not {shorten(seed)}")
    if options:
        resolved = resolve_options(info.options, options, players)
    else:  # the defaults for this game and count, resolved once (a copy each time: setup may keep what it gets)
        cached = _DEFAULTS.get((info.name, players))
        if cached is None or cached[0] is not info:
            cached = _DEFAULTS[(info.name, players)] = (info, resolve_options(info.options, options, players))
        resolved = {k: list(v) if isinstance(v, list) else v for k, v in cached[1].items()}
    return info.state_class.setup(players, seed, resolved)


_DEFAULTS: dict[tuple[str, int], tuple[GameInfo, dict[str, OptionValue]]] = {}
"""Per game name and player count, the game's registration and its resolved default options (`new_game`)."""
