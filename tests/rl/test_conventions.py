"""The conventions researchers expect (issue 26): Gymnasium ids, PettingZoo's classic `env()`/`raw_env()`, the
illegal-action option, the flat observation, the vector environment's autoreset, the ParallelEnv, and opponents
given as callables, agents or pools."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper, TerminateIllegalWrapper

import tabletop
import tabletop.rl as rl
from tabletop.agents import RandomAgent
from tabletop.core import IllegalAction, InvalidOptions, SeatHandle, State, game_info, new_game
from tabletop.core.registry import _forget_plugins

from .configs import GAMES


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# ---- Gymnasium ids -----------------------------------------------------------------------------------------------
def test_every_game_and_player_count_has_a_gymnasium_id_from_the_registry() -> None:
    want = sorted(rl.env_id(g, n) for g in tabletop.games()
                  for n in range(game_info(g).min_players, game_info(g).max_players + 1))
    assert rl.register_envs() == want and len(want) >= 10 and set(GAMES) <= set(tabletop.games())
    for i in want:
        spec = gymnasium.spec(i)
        assert spec.entry_point == "tabletop.rl.gym:SingleAgentEnv" and spec.namespace == "tabletop"
    assert rl.env_id(GAMES[1], 3) == f"tabletop/{GAMES[1]}-3p-v0"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_an_id_makes_the_single_agent_env_with_its_keywords() -> None:
    env = gymnasium.make(rl.env_id("silos", 3), opponents=["heuristic", "random"], seat=1, flat=True)
    inner = env.unwrapped
    assert isinstance(inner, rl.SingleAgentEnv)
    assert (inner.game, inner.players, inner.fixed_seat, inner.flat) == ("silos", 3, 1, True)
    assert inner.opponent_specs == ["heuristic", "random"]
    obs, info = env.reset(seed=2)
    assert obs.shape == (387,) and info["seat"] == 1 and info["action_mask"].sum() > 0
    check_env(gymnasium.make(rl.env_id("silencio", 2)).unwrapped, skip_render_check=True)
    # gymnasium's "module:id" form imports tabletop.rl first, so it works in a fresh process too
    assert isinstance(gymnasium.make(f"tabletop.rl:{rl.env_id('silencio', 4)}").unwrapped, rl.SingleAgentEnv)


def test_a_plugin_game_found_after_the_import_gets_its_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fourth.distribution import install_nines  # tests/fourth: the fourth game as a throw-away distribution

    _forget_plugins()
    monkeypatch.syspath_prepend(str(install_nines(tmp_path)))
    try:
        assert "nines" in tabletop.games()
        ids = rl.register_envs()
        assert "tabletop/nines-2p-v0" in ids
        env = gymnasium.make("tabletop/nines-2p-v0", opponents="random")
        obs, _info = env.reset(seed=0)
        assert obs["observation"].shape == (rl.single_agent("nines").encoder.size,)
    finally:
        for i in [i for i in gymnasium.registry if i.startswith("tabletop/nines-")]:
            del gymnasium.registry[i]
        _forget_plugins()


# ---- PettingZoo: env() wrapped as classic's, raw_env() bare ------------------------------------------------------
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_env_is_wrapped_like_pettingzoo_classic_and_raw_env_is_bare() -> None:
    env = rl.env("silencio", players=2)
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env.unwrapped, rl.TabletopAEC)
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection  # what the order-enforcing wrapper adds
    env.reset(seed=3)
    assert isinstance(env.state, State) and env.state is env.unwrapped.state
    assert env.legal_indices() == env.unwrapped.legal_indices()
    raw = rl.raw_env("silencio", players=2)
    assert type(raw) is rl.TabletopAEC
    api_test(raw, num_cycles=100)
    api_test(rl.env("siliconvania", players=3, illegal="terminate"), num_cycles=100)


# ---- the illegal-action option -----------------------------------------------------------------------------------
def test_illegal_terminate_ends_the_game_with_minus_one_for_the_offender_as_classics_wrapper() -> None:
    env = rl.env("silos", players=3, illegal="terminate")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(5):
        env.step(_pick(env.observe(env.agent_selection)["action_mask"], rng))
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.state.record() if env.state else None
    env.step(bad)
    assert env.state is not None and env.state.record() == before  # the game itself is untouched
    assert all(env.terminations.values())
    seen = {}
    for agent in env.agent_iter():
        _, reward, term, _, info = env.last()
        assert term
        seen[agent] = reward
        if agent == offender:
            assert info["illegal_action"] == env.unwrapped.space.texts[bad]
        env.step(None)
    assert seen == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}

    # the same rewards as PettingZoo's TerminateIllegalWrapper over the raising environment
    classic = TerminateIllegalWrapper(rl.raw_env("silos", players=3), illegal_reward=-1)
    classic.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(5):
        classic.step(_pick(classic.observe(classic.agent_selection)["action_mask"], rng))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        classic.step(bad)
    assert dict(classic._cumulative_rewards) == seen


def test_illegal_raise_stays_the_default_and_bad_modes_are_refused() -> None:
    env = rl.env("silencio", players=2)
    env.reset(seed=1)
    with pytest.raises(IllegalAction, match="not legal now"):
        env.step(env.unwrapped.space.n + 5)  # out of range: our clear error, not an AssertionError
    with pytest.raises(InvalidOptions, match="illegal"):
        rl.env("silencio", illegal="ignore")
    with pytest.raises(InvalidOptions, match="illegal_reward"):
        rl.raw_env("silencio", illegal="terminate", illegal_reward="-1")  # type: ignore[arg-type]


# ---- the flat observation ----------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "players"), [("silencio", 2), ("silos", 4), ("siliconvania", 3)])
def test_flat_gives_a_box_observation_and_the_mask_in_info(game: str, players: int) -> None:
    env = rl.single_agent(game, players=players, flat=True, seat=0)
    size, n = env.encoder.size, env.space.n
    assert isinstance(env.observation_space, gymnasium.spaces.Box) and env.observation_space.shape == (size,)
    obs, info = env.reset(seed=7)
    assert obs.shape == (size,) and obs.dtype == np.float32 and env.observation_space.contains(obs)
    assert info["action_mask"].shape == (n,) and info["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"], env.action_masks()) and info["action_mask"].sum() > 0
    dict_env = rl.single_agent(game, players=players, seat=0)
    dobs, _ = dict_env.reset(seed=7)
    assert np.array_equal(dobs["observation"], obs)  # the same vector, unchanged
    check_env(env, skip_render_check=True)


# ---- the vector environment --------------------------------------------------------------------------------------
def _vec(mode: AutoresetMode) -> Any:
    return gymnasium.make_vec(rl.env_id("silencio", 2), num_envs=2, vectorization_mode="sync",
                              vector_kwargs={"autoreset_mode": mode}, opponents="random", flat=True)


def test_the_vector_env_resets_a_finished_episode_on_the_next_step() -> None:
    vec = _vec(AutoresetMode.NEXT_STEP)
    assert isinstance(vec, SyncVectorEnv)
    obs, info = vec.reset(seed=5)
    assert obs.shape == (2, 257) and info["action_mask"].shape == (2, 1060)
    rng = np.random.default_rng(5)
    ended = None
    for _ in range(400):
        masks = info["action_mask"]
        actions = np.array([_pick(m, rng) if m.any() else 0 for m in masks])
        obs, reward, term, trunc, info = vec.step(actions)
        if ended is not None:
            # the step after the end: that sub-environment was reset (its action ignored), reward 0, a new game
            assert reward[ended] == 0.0 and not term[ended] and not trunc[ended]
            assert info["action_mask"][ended].sum() > 0
            assert not vec.envs[ended].unwrapped.state.is_over
            break
        done = np.flatnonzero(term | trunc)
        if len(done):
            ended = int(done[0])
            assert term[ended] and info["action_mask"][ended].sum() == 0  # the last observation of the episode
    assert ended is not None
    vec.close()


def test_the_vector_env_same_step_autoreset_keeps_the_final_observation() -> None:
    vec = _vec(AutoresetMode.SAME_STEP)
    _, info = vec.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(400):
        _obs, _reward, term, trunc, info = vec.step(np.array([_pick(m, rng) for m in info["action_mask"]]))
        done = np.flatnonzero(term | trunc)
        if len(done):
            i = int(done[0])
            assert info["_final_obs"][i] and info["final_obs"][i].shape == (257,)
            assert info["action_mask"][i].sum() > 0  # already the new episode's first decision
            assert info["final_info"]["_seat"][i] and not info["final_info"]["action_mask"][i].any()
            assert not vec.envs[i].unwrapped.state.is_over
            break
    else:
        pytest.fail("no episode ended")
    vec.close()


# ---- the ParallelEnv ---------------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "players"), [("silencio", 3), ("silos", 2), ("siliconvania", 2),
                                               ("siliconvania", 4)])
def test_the_parallel_env_passes_the_parallel_api_test(game: str, players: int) -> None:
    parallel_api_test(rl.parallel_env(game, players=players, max_steps=400), num_cycles=400)
    # PettingZoo's seed test samples without masks: with illegal="terminate" an illegal draw ends the game
    parallel_seed_test(lambda: rl.parallel_env(game, players=players, illegal="terminate"), num_cycles=100)
    runs = []
    for _ in range(2):  # the same seed and the same masked choices: the same game, observation for observation
        env, rng, seen = rl.parallel_env(game, players=players, max_steps=150), np.random.default_rng(0), []
        obs, _ = env.reset(seed=9)
        while env.agents:
            seen.append(b"".join(o["observation"].tobytes() + o["action_mask"].tobytes() for o in obs.values()))
            obs, *_ = env.step({a: _pick(o["action_mask"], rng) for a, o in obs.items() if o["action_mask"].any()})
        runs.append(seen)
    assert runs[0] == runs[1] and len(runs[0]) > 20


def test_simultaneous_decisions_step_together_and_the_game_is_the_engines() -> None:
    env = rl.parallel_env("siliconvania", players=3)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    together, decisions = 0, 0
    while env.agents:
        deciding = env.deciding_agents()
        assert deciding == [a for a, o in obs.items() if o["action_mask"].any()]
        assert env.state is not None and deciding == [env.possible_agents[s] for s in env.state.deciding()]
        together += len(deciding) > 1
        decisions += len(deciding)
        actions = {a: _pick(o["action_mask"], rng) if o["action_mask"].any() else 0 for a, o in obs.items()}
        obs, rewards, terms, _truncs, _ = env.step(actions)
    state = env.state
    assert state is not None and state.is_over and together >= 3 and all(terms.values())
    assert sum(rewards.values()) == pytest.approx(1.0)
    record = state.record()
    assert len(record["actions"]) == decisions
    replay = new_game(record["game"], 3, record["seed"], record["options"])
    for text in record["actions"]:
        replay.apply(text)
    assert replay.snapshot() == state.snapshot()


def test_a_parallel_illegal_action_raises_or_terminates() -> None:
    env = rl.parallel_env("siliconvania", players=2)
    obs, _ = env.reset(seed=2)
    masks = {a: o["action_mask"] for a, o in obs.items()}
    deciding = env.deciding_agents()
    assert len(deciding) == 2  # the first bid: both seats at once
    good = {a: int(np.flatnonzero(masks[a])[0]) for a in deciding}
    bad = dict(good, **{deciding[1]: int(np.flatnonzero(masks[deciding[1]] == 0)[0])})
    assert env.state is not None
    before = env.state.record()
    with pytest.raises(IllegalAction, match="nothing was applied"):
        env.step(bad)
    with pytest.raises(IllegalAction):
        env.step({deciding[0]: good[deciding[0]]})  # a deciding seat's action missing
    assert env.state.record() == before and env.state.submitted() == []
    strict = rl.parallel_env("siliconvania", players=2, illegal="terminate")
    strict.reset(seed=2)
    _, rewards, terms, _, infos = strict.step(bad)
    assert rewards == {deciding[0]: 0.0, deciding[1]: -1.0} and all(terms.values()) and strict.agents == []
    assert "illegal_action" in infos[deciding[1]]


# ---- opponents: callables, agents, pools -------------------------------------------------------------------------
def test_a_callable_opponent_gets_its_own_observation_and_mask() -> None:
    calls: list[tuple[tuple[int, ...], int]] = []

    def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
        calls.append((observation.shape, int(action_mask.sum())))
        return int(np.flatnonzero(action_mask)[0])

    env = rl.single_agent("silos", players=2, opponents=first_legal, seat=1)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        _obs, _, term, trunc, info = env.step(_pick(info["action_mask"], rng))
        if term or trunc:
            break
    assert len(calls) >= 10 and all(shape == (385,) and legal > 0 for shape, legal in calls)

    def cheat(observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask == 0)[0])

    with pytest.raises(IllegalAction, match="opponent at seat 0"):
        rl.single_agent("silos", players=2, opponents=[cheat], seat=1).reset(seed=0)


def test_an_agent_object_opponent_decides_through_its_seat_handle() -> None:
    class Counting:
        name = "counting"

        def __init__(self) -> None:
            self.inner, self.seats = RandomAgent(0), set()

        def act(self, seat: SeatHandle) -> Any:
            self.seats.add(seat.seat)
            return self.inner.act(seat)

    agent = Counting()
    env = rl.single_agent("silencio", players=3, opponents=agent, seat=0)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(10):
        _, _, term, trunc, info = env.step(_pick(info["action_mask"], rng))
        if term or trunc:
            break
    assert agent.seats == {1, 2} and env.opponents == [None, agent, agent]


def test_a_pool_draws_one_member_per_episode_from_the_envs_seed() -> None:
    def first(observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])

    pool = rl.Pool(["random", first, RandomAgent(2)])
    env = rl.single_agent("silos", players=3, opponents=pool, seat=0)
    draws = []
    env.reset(seed=11)
    for _ in range(12):
        draws.append([id(o) if not isinstance(o, str) else o for o in env.opponents[1:]])
        env.reset()
    again = rl.single_agent("silos", players=3, opponents=pool, seat=0)
    again.reset(seed=11)
    redo = []
    for _ in range(12):
        redo.append([id(o) if not isinstance(o, str) else o for o in again.opponents[1:]])
        again.reset()
    assert draws == redo  # the env's seed fixes the draws
    assert {m for d in draws for m in d} == {"random", id(first), id(pool.members[2])}  # every member is drawn
    with pytest.raises(InvalidOptions, match="at least one"):
        rl.Pool([])
    with pytest.raises(InvalidOptions, match="an opponent is"):
        rl.single_agent("silos", players=2, opponents=[3.5])  # type: ignore[list-item]
