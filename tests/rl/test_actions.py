"""The fixed action spaces: generated from the notation, pinned by checked-in files, append-only, complete."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tabletop.core import IllegalAction, game_info, new_game
from tabletop.spaces import action_space, generate, read_mapping

from .configs import GAMES, all_configs

SIZES = [(g, n) for g in GAMES for n in range(game_info(g).min_players, game_info(g).max_players + 1)]


@pytest.mark.parametrize(("game", "players"), SIZES)
def test_checked_in_mapping_is_a_prefix_of_the_generated_list(game: str, players: int) -> None:
    fixed = read_mapping(game, players)
    assert fixed, f"src/tabletop/games/{game}/actions/{game}-{players}p.txt is missing"
    generated = generate(game, players)
    assert generated[: len(fixed)] == fixed, "the generator reordered or dropped a pinned action: append only"
    assert len(set(fixed)) == len(fixed)


@pytest.mark.parametrize(("game", "players"), SIZES)
def test_the_space_in_force_keeps_every_pinned_index(game: str, players: int) -> None:
    space = action_space(game, players)
    fixed = read_mapping(game, players)
    assert list(space.texts[: len(fixed)]) == fixed
    for i in (0, len(fixed) // 2, len(fixed) - 1):
        assert space.index(space.text(i)) == i


def test_pinned_indices_of_some_actions_never_move() -> None:
    """A few indices written down once: if one changes, every trained policy would misread its actions."""
    assert action_space("silos", 2).index("card common") == 3
    assert action_space("silencio", 2).texts[:5] == ("pass", "end", "skip", "use red light", "renew oracle")
    assert action_space("siliconvania", 2).texts[0] == "bid 0 s1"


def test_an_unknown_text_or_index_is_a_clear_error() -> None:
    space = action_space("silos", 2)
    with pytest.raises(IllegalAction, match="no index"):
        space.index("fly to the moon")
    for bad in (-1, space.n, 2.0, True, "3"):
        with pytest.raises(IllegalAction, match="integer"):
            space.text(bad)  # type: ignore[arg-type]


def _walk(game: str, players: int, options: dict[str, Any], seed: int, limit: int = 1500) -> None:
    space = action_space(game, players)
    state = new_game(game, players, seed, options)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over:
            break
        legal = state.legal_actions()
        idx = space.indices(legal)  # raises IllegalAction naming any action without an index
        assert len(set(idx)) == len(idx)
        mask = space.mask(legal)
        assert int(mask.sum()) == len(legal) and mask.dtype == np.int8
        state.apply(rng.choice(legal))


@pytest.mark.parametrize(("game", "players", "options"), all_configs())
def test_every_legal_action_has_an_index_under_every_option_set(
    game: str, players: int, options: dict[str, Any]
) -> None:
    for seed in range(3):
        _walk(game, players, options, seed)
