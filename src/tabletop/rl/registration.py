"""Gymnasium ids for every registered game and player count: `tabletop/<game>-<n>p-v0`.

`register_envs()` runs when `tabletop.rl` is imported (with gymnasium installed), and again whenever it is called
(a game registered later, a plugin found after the import, gets its ids then; ids already registered are kept).
Each id is the single-agent environment (`tabletop.rl.gym.SingleAgentEnv`) of that game and player count; every
other argument of `single_agent` is a keyword of `gymnasium.make` (`opponents`, `seat`, `options`, `flat`,
`reward`, `illegal`, ...). The games come from the registry, so no game is named here.
"""

from __future__ import annotations

import importlib.util

from tabletop.core import game_info, games

ENTRY_POINT = "tabletop.rl.gym:SingleAgentEnv"
VERSION = 0


def env_id(game: str, players: int) -> str:
    """The Gymnasium id of a game and player count, e.g. `tabletop/<game>-2p-v0`."""
    return f"tabletop/{game_info(game).name}-{players}p-v{VERSION}"


def _has_encoding(home: str) -> bool:
    try:
        return importlib.util.find_spec(f"{home}.encoding") is not None
    except ModuleNotFoundError:
        return False


def register_envs() -> list[str]:
    """Register (once) the id of every game with an `encoding` part and every player count; the ids, sorted."""
    import gymnasium

    ids = []
    for name in games():
        info = game_info(name)
        if not _has_encoding(info.home):
            continue
        for n in range(info.min_players, info.max_players + 1):
            i = env_id(name, n)
            if i not in gymnasium.registry:
                gymnasium.register(id=i, entry_point=ENTRY_POINT, kwargs={"game": info.name, "players": n})
            ids.append(i)
    return sorted(ids)
