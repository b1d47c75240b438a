"""Snapshots of the app's screens (pytest-textual-snapshot) guard the layout at 80x24 and 100x30.

Deterministic: fixed game seeds, AI seats with fixed seeds, taken when the human seat decides (no spinner).
Update after an intended change of layout: pytest tests/cli/test_tui_snapshots.py --snapshot-update.
"""

from __future__ import annotations

import random

import pytest

import tabletop
from tabletop.cli.tui import PlayApp, ReplayApp

from .test_tui import app_for, until_human


@pytest.mark.parametrize(("game", "size"), [("silencio", (80, 24)), ("silos", (80, 24)),
                                            ("siliconvania", (100, 30)), ("silos", (120, 40))])
def test_the_table_hand_and_decision_fit_the_screen(snap_compare, game, size):
    app = app_for(game, seed=11)

    async def ready(pilot):
        await until_human(app, pilot)

    assert snap_compare(app, terminal_size=size, run_before=ready)


def test_the_end_of_a_game_shows_why_it_ended_and_the_scores(snap_compare):
    state = tabletop.new_game("silencio", 3, 6)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    app = PlayApp(state, ["human", "random", "random"], [None, None, None])
    assert snap_compare(app, terminal_size=(80, 24))


def test_too_small_a_window_asks_for_a_larger_one_or_plain(snap_compare):
    assert snap_compare(app_for("siliconvania"), terminal_size=(80, 24))


def finished(game: str, players: int, seed: int) -> tabletop.State:
    state = tabletop.new_game(game, players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "players", "size"), [("silos", 4, (80, 24)), ("silencio", 4, (80, 24)),
                                                       ("siliconvania", 5, (100, 30))])
def test_the_end_shows_the_winners_every_seats_score_and_the_final_table(snap_compare, game, players, size):
    state = finished(game, players, 7)
    app = PlayApp(state, ["human"] + ["random"] * (players - 1), [None] * players)
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize(("game", "players", "size"), [("silos", 4, (80, 24)), ("silencio", 3, (80, 24)),
                                                       ("siliconvania", 4, (100, 30))])
def test_a_replay_at_its_end_shows_the_result_first(snap_compare, game, players, size):
    app = ReplayApp(finished(game, players, 7).record())
    assert snap_compare(app, terminal_size=size, press=["end"])
