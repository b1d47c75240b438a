"""Game configurations the rl tests run over: every game, every player count, every value of every option."""

from __future__ import annotations

from typing import Any

from tabletop.core import game_info

GAMES = ("silencio", "silos", "siliconvania")


def option_sets(game: str) -> list[dict[str, Any]]:
    """Option sets that together use every declared value of every option (subsets: none, each one, all)."""
    info = game_info(game)
    sets: list[dict[str, Any]] = [{}]
    for o in info.options:
        if o.multi:
            sets += [{o.name: [c]} for c in o.choices]
            sets.append({o.name: list(o.choices)})
        else:
            sets += [{o.name: c} for c in o.choices if c != o.default]
    if game == "silos":  # the modules together, on alternate tiles
        sets.append({"alternate_tiles": [0, 2, 4, 6], "crop_circles": 6, "skill_tiles": True, "emblem_target": 4})
        sets.append({"alternate_tiles": [1, 3, 5], "crop_circles": 3, "skill_tiles": True})
    if game == "silencio":
        sets.append({"variant": "tavern", "dark_shrines": "all"})
    return sets


def configs(game: str) -> list[tuple[int, dict[str, Any]]]:
    """(players, options) pairs: every player count with every option set that is valid for it."""
    info = game_info(game)
    out = []
    for n in range(info.min_players, info.max_players + 1):
        for o in option_sets(game):
            if "first_player" in o and isinstance(o["first_player"], int) and o["first_player"] >= n:
                continue
            out.append((n, o))
    return out


def all_configs() -> list[tuple[str, int, dict[str, Any]]]:
    return [(g, n, o) for g in GAMES for n, o in configs(g)]


def few_configs() -> list[tuple[str, int, dict[str, Any]]]:
    """Several configurations per game: the smallest and largest table, default and non-default options."""
    out: list[tuple[str, int, dict[str, Any]]] = []
    for g in GAMES:
        info = game_info(g)
        sets = option_sets(g)
        out.append((g, info.min_players, {}))
        out.append((g, info.max_players, sets[-1]))
        if info.max_players - info.min_players >= 2:
            out.append((g, info.min_players + 1, sets[len(sets) // 2]))
    return out
