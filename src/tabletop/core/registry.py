"""The game registry: game packages register their `GameInfo`; `new_game` builds a state from a name."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping

from tabletop.core.errors import InvalidOptions, UnknownGame, shorten
from tabletop.core.options import OptionValue, resolve_options
from tabletop.core.state import GameInfo, State

_REGISTRY: dict[str, GameInfo] = {}
_BUILTIN = ("silencio", "siliconvania", "silos")
_loaded = False


def register(info: GameInfo) -> GameInfo:
    """Add a game to the registry (called by each game package on import)."""
    _REGISTRY[info.name] = info
    info.state_class.info = info
    return info


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _BUILTIN:
        try:
            importlib.import_module(f"tabletop.games.{name}")
        except ModuleNotFoundError as e:  # a game not written yet is simply absent
            if e.name != f"tabletop.games.{name}":
                raise


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
    resolved = resolve_options(info.options, options, players)
    return info.state_class.setup(players, seed, resolved)
