"""The Gymnasium single-agent environment."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tabletop.rl as rl
from tabletop.agents import InvalidAgentSpec
from tabletop.core import IllegalAction, InvalidOptions


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("game", "players", "opponents"),
    [("silos", 2, ["random"]), ("silos", 4, "heuristic"), ("silencio", 3, ["heuristic", "random"]),
     ("siliconvania", 2, ["random"]), ("siliconvania", 5, "random")],
)
def test_gymnasium_check_env_passes(game: str, players: int, opponents: list[str] | str) -> None:
    check_env(rl.single_agent(game, players=players, opponents=opponents), skip_render_check=True)


def test_an_episode_ends_with_the_learners_final_reward() -> None:
    env = rl.single_agent("silos", players=2, opponents="random", seat=1)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done, total = False, 0.0
    while not done:
        assert info["seat"] == 1 and env.state is not None and env.state.to_move == 1
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
        done = term or trunc
    assert env.state is not None and env.state.is_over
    winners = env.state.winners()
    assert total == pytest.approx(1 / len(winners) if 1 in winners else 0.0)
    with pytest.raises(IllegalAction, match="reset"):
        env.step(0)


def test_the_learners_seat_is_drawn_at_each_reset_when_not_given() -> None:
    env = rl.single_agent("silencio", players=3, opponents="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2}


def test_an_illegal_action_ends_the_episode_or_raises_and_never_touches_the_game() -> None:
    env = rl.single_agent("silos", players=2, opponents="random", seat=0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    assert env.state is not None
    before = env.state.record()
    _, reward, term, trunc, info = env.step(illegal)
    assert term and not trunc and reward == -1.0 and info["illegal_action"] == env.space.texts[illegal]
    assert env.state.record() == before
    strict = rl.single_agent("silos", players=2, opponents="random", seat=0, illegal="raise")
    strict.reset(seed=1)
    assert strict.state is not None
    before = strict.state.record()
    with pytest.raises(IllegalAction, match="not legal now"):
        strict.step(illegal)
    assert strict.state.record() == before


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(InvalidOptions, match="opponent"):
        rl.single_agent("silos", players=4, opponents=["random", "random"])
    with pytest.raises(InvalidAgentSpec):
        rl.single_agent("silos", players=2, opponents=["grandmaster"])
    with pytest.raises(InvalidOptions, match="seat"):
        rl.single_agent("silos", players=2, seat=2)
    with pytest.raises(InvalidOptions, match="illegal"):
        rl.single_agent("silos", players=2, illegal="ignore")
