"""Configurations and playout helpers shared by the conformance tests, generated from the registry."""

from __future__ import annotations

import json
import os
from typing import Any

import tabletop
from tabletop.core import InvalidOptions, Rng, State

MAX_DECISIONS = 50_000
PLAYOUTS = int(os.environ.get("TABLETOP_PLAYOUTS", "240"))  # seeded random playouts per game


def configs(game: str) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with default options, plus every non-default option value at a valid count."""
    info = tabletop.game_info(game)
    out: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in range(info.min_players, info.max_players + 1)]
    for opt in info.options:
        values: list[Any] = [[c] for c in opt.choices] + [list(opt.choices)] if opt.multi else list(opt.choices)
        for v in values:
            if v == opt.default:
                continue
            for n in range(info.min_players, info.max_players + 1):
                try:
                    tabletop.new_game(game, n, 0, {opt.name: v})
                except InvalidOptions:
                    continue
                out.append((n, {opt.name: v}))
                break
    return out


def all_cases() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) for every registered game."""
    return [(g, n, o) for g in tabletop.games() for n, o in configs(g)]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    g, n, o = case
    opts = ",".join(f"{k}={v}" for k, v in o.items())
    return f"{g}-{n}p" + (f"-{opts}" if opts else "")


def seeds_for(game: str) -> int:
    """Playouts per configuration so that each game gets about PLAYOUTS playouts in all."""
    return max(2, PLAYOUTS // max(1, len(configs(game))))


def random_playout(state: State, seed: int, limit: int = MAX_DECISIONS) -> State:
    """Play uniformly random legal actions to the end."""
    rng = Rng(seed)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action but not over: {state!r}"
        state.apply(legal[rng.below(len(legal))])
        steps += 1
        assert steps < limit, f"no end after {limit} decisions: {state!r}"
    return state


def canonical_json(obj: Any) -> str:
    """JSON text; fails if the object is not JSON-ready."""
    return json.dumps(obj, sort_keys=True, allow_nan=False)
