"""The fourth game as a reinforcement-learning environment, through its `encoding` part alone: PettingZoo's
`api_test` and `seed_test` on `tabletop.rl.env("nines")` and `parallel_api_test` on its `parallel_env`, Gymnasium's
`check_env` on `single_agent`, episodes paying the documented rewards, and observations that are functions of the
seat's view (tests/rl's checks)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import tabletop.rl as rl
from rl import test_actions, test_encode  # tests/rl (tabletop.rl is imported as rl above)
from tabletop.core import new_game
from tabletop.core.parts import part
from tabletop.rl.aec import final_rewards
from tabletop.spaces import action_space, encoder


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("options", [{}, {"hand": 4}])
def test_pettingzoo_api_test_and_seed_test_pass_on_the_fourth_game(nines: str, options: dict[str, int]) -> None:
    api_test(rl.env(nines, players=2, options=options), num_cycles=200)
    seed_test(lambda: rl.env(nines, players=2, options=options), num_cycles=100)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_parallel_api_test_passes_on_the_fourth_game(nines: str) -> None:
    parallel_api_test(rl.parallel_env(nines, players=2), num_cycles=100)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_passes_on_the_fourth_game(nines: str) -> None:
    check_env(rl.single_agent(nines, players=2, opponents=["heuristic"]), skip_render_check=True)


def test_episodes_of_the_fourth_game_pay_the_win_shares(nines: str) -> None:
    rng = np.random.default_rng(3)
    for seed in range(5):
        env = rl.env(nines, players=2)
        env.reset(seed=seed)
        state = env.state
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert state is not None and state.is_over
        assert [totals[a] for a in env.possible_agents] == pytest.approx(final_rewards(state))
        assert sum(totals.values()) == pytest.approx(1.0)


def test_the_encoding_checks_of_tests_rl_pass_on_the_fourth_game(nines: str) -> None:
    assert action_space(nines, 2).texts == tuple(f"play {c}" for c in range(1, 10))
    for options in ({}, {"hand": 4}):
        test_encode.test_observations_have_the_layout_size_and_stay_in_bounds(nines, 2, options)
        test_encode.test_the_direct_state_encoding_equals_the_view_based_encoding_through_whole_games(nines, 2, options)
        test_actions.test_every_legal_action_has_an_index_under_every_option_set(nines, 2, options)
        test_encode.test_every_declared_field_exists_on_a_fresh_and_a_played_state(nines, 2, options)


def test_the_fast_encoder_reads_only_the_declared_fields_and_equals_the_view_based_one(nines: str) -> None:
    declared = {name for name, _ in part(nines, "encoding").ENCODED_FIELDS}  # type: ignore[union-attr]
    enc = encoder(nines, 2)
    assert not enc.compiled
    seen: set[str] = set()
    for seed in range(10):
        state = new_game(nines, 2, seed, {"hand": 3 + seed % 2})
        rng = random.Random(seed)
        while True:
            for seat in (0, 1):
                want = enc.encode(state.view(seat)).tobytes()
                assert enc.encode_state(test_encode._Recorder(state, seen), seat).tobytes() == want
                assert enc.encode_fast(state, seat).tobytes() == want
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert seen == declared


def test_an_observation_is_a_function_of_the_seats_view_only(nines: str) -> None:
    enc = encoder(nines, 2)
    distinct = set()
    for seed in range(40):
        state = new_game(nines, 2, seed, {"hand": 3 + seed % 2})
        rng = random.Random(seed)
        for _ in range(rng.randrange(4)):
            state.apply(rng.choice(state.legal_actions()))
        seat = state.to_move
        assert seat is not None
        obs = enc.encode_fast(state, seat)
        distinct.add(obs.tobytes())
        for k in range(3):
            other = state.sample(seat, k)  # the other hand and the face-down cards redrawn
            assert np.array_equal(enc.encode_fast(other, seat), obs)
        view = state.view(seat)
        assert obs[:9].sum() == len(view["hand"]) and all(obs[c - 1] == 1 for c in view["hand"])
    assert len(distinct) > 30  # not a constant: it follows what the seat sees
