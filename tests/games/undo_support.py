"""Shared by the games' undo tests: the first step of seeded random games (with undo tracking) that a test wants."""

from __future__ import annotations

from collections.abc import Callable

import tabletop
from tabletop.core import Action, Rng, State


def find_step(game: str, players: int, want: Callable[[State, Action, State], bool], seeds: int,
              options: dict[str, str] | None = None) -> tuple[State, Action, State]:
    """The first (state before, action, state after) of seeded random games with undo tracking where `want`."""
    for seed in range(seeds):
        s = tabletop.new_game(game, players, seed, options)
        s.track_undo()
        rng = Rng(seed)
        while not s.is_over:
            legal = s.legal_actions()
            a = legal[rng.below(len(legal))]
            before = s.clone()
            s.apply(a)
            if want(before, a, s):
                return before, a, s
    raise AssertionError("no such step found")
