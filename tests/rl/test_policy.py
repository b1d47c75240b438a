"""The `policy:path=FILE` agent: numpy inference from a .npz that loading can never execute."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tabletop.agents import InvalidAgentSpec, RandomAgent, make_agent, play_game
from tabletop.agents.policy import FORMAT
from tabletop.core import new_game
from tabletop.spaces import action_space, encoder

from .configs import GAMES


def write_policy(path: Path, game: str, players: int, seed: int = 0, hidden: int = 16) -> Path:
    rng = np.random.default_rng(seed)
    obs, n = encoder(game, players).size, action_space(game, players).n
    meta = {"format": FORMAT, "game": game, "players": players, "obs": obs, "actions": n, "activation": "tanh",
            "layers": 2}
    np.savez(path, meta=np.array(json.dumps(meta)),
             w0=rng.normal(size=(obs, hidden)).astype(np.float32), b0=np.zeros(hidden, np.float32),
             w1=rng.normal(size=(hidden, n)).astype(np.float32), b1=np.zeros(n, np.float32))
    return path


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("sample", ["false", "true"])
def test_a_policy_plays_only_legal_moves_to_the_end(tmp_path: Path, game: str, sample: str) -> None:
    path = write_policy(tmp_path / "p.npz", game, 2)
    agent = make_agent(f"policy:path={path},sample={sample}", game, seed=1)
    state = new_game(game, 2, 7)
    chosen: list[str] = []

    def watch(before: object, seat: int, action: object) -> None:
        chosen.append(str(action))

    result = play_game(state, [agent, RandomAgent(2)], on_action=watch)  # apply() refuses any illegal action
    assert result.state.is_over and result.decisions[0] > 0 and chosen


def test_the_greedy_choice_is_the_legal_action_with_the_highest_logit(tmp_path: Path) -> None:
    from tabletop.core import SeatHandle

    path = write_policy(tmp_path / "p.npz", "silos", 2, seed=3)
    agent = make_agent(f"policy:path={path}", "silos")
    state = new_game("silos", 2, 4)
    seat = SeatHandle(state, state.to_move or 0)
    with np.load(path, allow_pickle=False) as z:
        x = encoder("silos", 2).encode(seat.view())
        logits = np.tanh(x @ z["w0"] + z["b0"]) @ z["w1"] + z["b1"]
    idx = action_space("silos", 2).indices(seat.legal_actions())
    best = seat.legal_actions()[int(np.argmax(logits[idx]))]
    assert agent.act(seat) is best


def test_a_pickled_object_in_the_file_is_refused_not_loaded(tmp_path: Path) -> None:
    path = tmp_path / "evil.npz"
    np.savez(path, meta=np.array([{"format": FORMAT}], dtype=object))
    with pytest.raises(InvalidAgentSpec, match="not a readable"):
        make_agent(f"policy:path={path}", "silos")


def test_bad_policy_files_and_specs_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(InvalidAgentSpec, match="needs a weights file"):
        make_agent("policy", "silos")
    with pytest.raises(InvalidAgentSpec, match="does not exist"):
        make_agent(f"policy:path={tmp_path / 'none.npz'}", "silos")
    with pytest.raises(InvalidAgentSpec, match=r"\.npz"):
        make_agent(f"policy:path={tmp_path / 'x.pt'}", "silos")
    with pytest.raises(InvalidAgentSpec, match="unknown policy parameter"):
        make_agent("policy:path=x.npz,temperature=2", "silos")
    path = write_policy(tmp_path / "p.npz", "silos", 2)
    with pytest.raises(InvalidAgentSpec, match="trained for silos"):
        make_agent(f"policy:path={path}", "silencio")
    agent = make_agent(f"policy:path={path}", "silos")
    from tabletop.core import SeatHandle

    state = new_game("silos", 3, 1)
    with pytest.raises(InvalidAgentSpec, match="2 players, not 3"):
        agent.act(SeatHandle(state, state.to_move or 0))
    bad = tmp_path / "bad.npz"
    np.savez(bad, meta=np.array(json.dumps({"format": FORMAT, "game": "silos", "players": 2, "obs": 5,
                                            "actions": 3, "activation": "tanh", "layers": 1})),
             w0=np.zeros((4, 3), np.float32), b0=np.zeros(3, np.float32))
    with pytest.raises(InvalidAgentSpec, match="wrong shape"):
        make_agent(f"policy:path={bad}", "silos")
