"""The PettingZoo AEC environments: the API tests for every game and several configurations, episodes to the
end, rewards, truncation and bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tabletop.rl as rl
from tabletop.core import IllegalAction, InvalidOptions, UnknownGame, game_info, new_game
from tabletop.rl.aec import final_rewards

from .configs import GAMES, few_configs


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "players", "options"), few_configs())
def test_pettingzoo_api_test_and_seed_test_pass(game: str, players: int, options: dict[str, Any]) -> None:
    api_test(rl.env(game, players=players, options=options), num_cycles=400)
    seed_test(lambda: rl.env(game, players=players, options=options), num_cycles=200)


def _play_out(env: Any, rng: np.random.Generator) -> dict[str, float]:
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize(("game", "players", "options"), few_configs())
def test_a_game_played_to_the_end_pays_the_documented_rewards(game: str, players: int, options: dict[str, Any]) -> None:
    env = rl.env(game, players=players, options=options)
    env.reset(seed=11)
    state = env.state
    totals = _play_out(env, np.random.default_rng(0))
    assert state is not None and state.is_over
    expected = final_rewards(state)
    assert [totals[a] for a in env.possible_agents] == pytest.approx(expected)
    if game == "silencio":
        assert len(set(expected)) == 1  # the team's shared result
    else:
        assert sum(expected) == pytest.approx(1.0)  # win shares


def test_rank_rewards_run_from_one_to_minus_one_and_ties_share() -> None:
    state = new_game("silos", 3, 5)
    rng = np.random.default_rng(5)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    r = final_rewards(state, "rank")
    assert max(r) <= 1.0 and min(r) >= -1.0 and sum(r) == pytest.approx(0.0)
    winners = state.winners()
    assert all(r[w] == max(r) for w in winners)


def test_silencio_reward_is_the_team_result_with_a_bonus_for_a_perfect_game() -> None:
    state = new_game("silencio", 2, 3)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    left = -state.scores()[0]
    dealt = 6 * 2
    bonus = 1.0 if left == 0 else 0.0
    assert final_rewards(state) == [pytest.approx(1 - left / dealt + bonus)] * 2


def test_a_game_that_reaches_the_step_limit_is_truncated_for_everyone() -> None:
    env = rl.env("silos", players=2, max_steps=25)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 25
    assert game_info("silos").step_limit >= 1000


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    env = rl.env("silencio", players=3)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.record() if env.state else None
    who = env.agent_selection
    with pytest.raises(IllegalAction, match="not legal now"):
        env.step(illegal)
    assert env.state is not None and env.state.record() == before and env.agent_selection == who


def test_only_the_seat_to_move_has_a_non_empty_mask() -> None:
    env = rl.env("siliconvania", players=3)
    env.reset(seed=4)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(UnknownGame):
        rl.env("chess")
    with pytest.raises(InvalidOptions, match="players"):
        rl.env("silos", players=7)
    with pytest.raises(InvalidOptions, match="emblem_target"):
        rl.env("silos", players=2, options={"emblem_target": 9})
    with pytest.raises(InvalidOptions, match="render_mode"):
        rl.env("silos", render_mode="rgb_array")
    with pytest.raises(InvalidOptions, match="max_steps"):
        rl.env("silos", max_steps=0)
    with pytest.raises(InvalidOptions, match="reward"):
        rl.env("silos", reward="score")


@pytest.mark.parametrize("game", GAMES)
def test_ansi_render_shows_the_spectators_table(game: str) -> None:
    env = rl.env(game, players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    if game == "silencio":
        assert env.state is not None
        hand = env.state.view(0)["hand"]
        assert not all(c in text for c in hand)  # a spectator's table: no hand shown
