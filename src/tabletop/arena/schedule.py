"""The schedule of a tournament: the lineup, rotated seats and seeds derived from the arena seed.

Games are played in blocks of K (the player count). Within a block every game uses the same deal (game seed) and
the lineup is rotated by one seat per game, so every agent plays every seat, on the same deals, equally often when
the number of games is a multiple of K (a "duplicate" format, which also removes much of the luck of the deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.core import InvalidOptions, Rng, game_info


def derive_seed(seed: int, *keys: int) -> int:
    """A non-negative 63-bit seed derived from `seed` and `keys` (SplitMix64 chained), stable across platforms."""
    r = Rng(seed)
    for k in keys:
        r = Rng(r.next64() ^ (k & ((1 << 64) - 1)))
    return r.next64() >> 1


def lineup(game: str, specs: Sequence[str], players: int | None = None) -> list[str]:
    """The spec of each seat before rotation.

    Without `players` the count is the number of specs. With more seats than specs the last spec fills the rest
    (`ismcts,random --players 4` is ISMCTS against three random agents).
    """
    info = game_info(game)
    specs = [s.strip() for s in specs if s.strip()]
    if not specs:
        raise InvalidOptions("an arena needs at least one agent spec")
    if players is None:
        players = len(specs) if len(specs) > 1 else info.default_players
    if not info.min_players <= players <= info.max_players:
        raise InvalidOptions(f"{info.title} takes {info.min_players}-{info.max_players} players, not {players}")
    if len(specs) > players:
        raise InvalidOptions(f"{len(specs)} agent specs for {players} seats: give at most one spec per seat")
    return specs + [specs[-1]] * (players - len(specs))


@dataclass(frozen=True)
class Match:
    """One game of the schedule: everything a worker process needs to play it."""

    index: int
    game: str
    players: int
    seed: int
    specs: tuple[str, ...]  # per seat
    agent_seeds: tuple[int, ...]  # per seat
    options: dict[str, Any] = field(default_factory=dict)
    module: str = ""  # module that registers the game, imported by a fresh worker


def schedule(
    game: str,
    seats: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> list[Match]:
    """The `games` matches of a tournament of the lineup `seats`, rotated and seeded from `seed`."""
    info = game_info(game)
    k = len(seats)
    module = info.state_class.__module__
    out = []
    for g in range(games):
        block, shift = divmod(g, k)
        specs = tuple(seats[(s + shift) % k] for s in range(k))
        agent_seeds = tuple(derive_seed(seed, g, s, 1) for s in range(k))
        out.append(Match(g, game, k, derive_seed(seed, block), specs, agent_seeds, dict(options or {}), module))
    return out
