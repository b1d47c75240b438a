"""Learned judgements (`tabletop-lookahead-v1`): SiliconVania's lookahead player with a fitted city value.

The format, its refusals, the agent's equivalence with the heuristic when its weights are the heuristic's own sum,
the shipped `vania-Np` policies, and the trainer's reproducibility (examples/train_lookahead.py)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tabletop.agents import InvalidAgentSpec, make_agent, play_game
from tabletop.agents.policy import LOOKAHEAD_FORMAT, LookaheadPolicy, find_shipped, load_policy
from tabletop.core import SeatHandle, new_game
from tabletop.games.siliconvania import heuristic as H

ROOT = Path(__file__).resolve().parents[2]
# The heuristic's hand-written judgement as weights over FEATURES: total + 0.8 types (when fewer than 7: all 7
# types make 7 - 7 = 0 below) + 0.5 unhoused vampires + 0.7 of each of the two best hand objectives.
HAND = {"total": 1.0, "types": 0.8, "all_types": -5.6, "unhoused": 0.5, "hand_best": 0.7, "hand_second": 0.7}


def hand_weights() -> list[float]:
    return [HAND.get(name, 0.0) for name in H.FEATURES]


def write_judgement(path: Path, weights: list[float], game: str = "siliconvania", players: int = 2,
                    names: list[str] | None = None, temperature: float = 0.5) -> Path:
    meta = {"format": LOOKAHEAD_FORMAT, "game": game, "players": players,
            "features": list(H.FEATURES) if names is None else names, "temperature": temperature}
    np.savez(path, meta=np.array(json.dumps(meta)), w=np.asarray(weights, dtype=np.float64))
    return path


def _states(count: int) -> list[object]:
    """States along heuristic games of 2-5 players."""
    out: list[object] = []
    for g in range(count):
        n = 2 + g % 4
        state = new_game("siliconvania", n, 40 + g)
        agents = [H.HeuristicAgent(g * 10 + p) for p in range(n)]
        handles = [SeatHandle(state, p) for p in range(n)]
        k = 0
        while state.to_move is not None:
            p = state.to_move
            state.apply(agents[p].act(handles[p]))
            k += 1
            if k % 9 == 0:
                out.append(state.clone())
    return out


def test_the_features_are_named_and_the_hand_weights_are_the_heuristics_own_judgement() -> None:
    states = _states(3)
    assert len(states) > 20 and len(H.FEATURES) == len(set(H.FEATURES))
    agent = H.HeuristicAgent(0, hand_weights())
    for s in states:
        for me in range(s.players):  # type: ignore[attr-defined]
            f = H.features(s, me)
            assert len(f) == len(H.FEATURES) and all(math.isfinite(x) for x in f)
            assert agent.value(s, me) == pytest.approx(H.evaluate(s, me), abs=1e-9)


def test_with_the_hand_weights_the_learned_player_plays_the_heuristics_game_move_for_move() -> None:
    """Three 2-player deals, every decision the same. (With more players a bid can differ: the hand-written sum's
    float rounding puts a pool gap a last bit either side of a bidding threshold, 5 against 4.999...)"""
    for g in range(3):
        games: list[list[str]] = []
        for weights in (None, hand_weights()):
            texts: list[str] = []
            state = new_game("siliconvania", 2, 70 + g)
            agents = [H.HeuristicAgent(5 * g + p, weights) for p in range(2)]
            result = play_game(state, agents, on_action=lambda _s, _p, a: texts.append(a.text))  # noqa: B023
            assert result.state.is_over
            games.append(texts)
        assert games[0] == games[1] and len(games[0]) > 80


def test_other_weights_change_the_play_and_a_temperature_samples(tmp_path: Path) -> None:
    """A judgement that values only free coffins plays another game than the heuristic's: the weights are read."""
    weights = [1.0 if name == "free_coffins" else 0.0 for name in H.FEATURES]
    games = []
    for w in (None, weights):
        state = new_game("siliconvania", 2, 3)
        result = play_game(state, [H.HeuristicAgent(1, w), H.HeuristicAgent(2)])
        games.append(result.state.scores())
    assert games[0] != games[1]
    path = write_judgement(tmp_path / "j.npz", hand_weights(), temperature=2.0)
    for spec in (f"policy:path={path}", f"policy:path={path},sample=true"):
        result = play_game(new_game("siliconvania", 2, 9), [make_agent(spec, "siliconvania", 4),
                                                            make_agent("random", "siliconvania", 1)])
        assert result.state.is_over and result.decisions[0] > 0
    greedy = make_agent(f"policy:path={path}", "siliconvania", 4)
    sampled = make_agent(f"policy:path={path},sample=true", "siliconvania", 4)
    assert greedy.inner.temperature == 0.0 and sampled.inner.temperature == 2.0  # type: ignore[attr-defined]


def test_a_judgement_file_is_checked_before_it_plays(tmp_path: Path) -> None:
    ok = write_judgement(tmp_path / "ok.npz", hand_weights())
    policy = load_policy(ok)
    assert isinstance(policy, LookaheadPolicy) and policy.players == 2 and policy.weights == hand_weights()
    bad_names = write_judgement(tmp_path / "names.npz", hand_weights()[:-1], names=list(H.FEATURES[:-1]))
    with pytest.raises(InvalidAgentSpec, match="features are not the"):
        load_policy(bad_names)
    short = write_judgement(tmp_path / "short.npz", hand_weights()[:-1])
    with pytest.raises(InvalidAgentSpec, match="one per feature"):
        load_policy(short)
    nan = write_judgement(tmp_path / "nan.npz", [float("nan")] * len(H.FEATURES))
    with pytest.raises(InvalidAgentSpec, match="finite"):
        load_policy(nan)
    with pytest.raises(InvalidAgentSpec, match="temperature"):
        load_policy(write_judgement(tmp_path / "t.npz", hand_weights(), temperature=0.0))
    with pytest.raises(InvalidAgentSpec, match="no learned judgement"):
        load_policy(write_judgement(tmp_path / "silos.npz", hand_weights(), game="silos"))
    with pytest.raises(InvalidAgentSpec, match="played by 2-5"):
        load_policy(write_judgement(tmp_path / "six.npz", hand_weights(), players=6))
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array(json.dumps({"format": "tabletop-tree-v9", "game": "siliconvania"})))
    with pytest.raises(InvalidAgentSpec, match=r"format must be tabletop-mlp-v1 .* or tabletop-lookahead-v1"):
        load_policy(other)
    with pytest.raises(InvalidAgentSpec, match="trained for siliconvania, not silos"):
        make_agent(f"policy:path={ok}", "silos")
    agent = make_agent(f"policy:path={ok}", "siliconvania")
    with pytest.raises(InvalidAgentSpec, match="trained for 2 players, not 3"):
        agent.act(SeatHandle(new_game("siliconvania", 3, 1), 0))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_shipped_siliconvania_policies_are_judgements_with_measured_results(players: int) -> None:
    shipped = find_shipped(f"siliconvania-{players}p", "siliconvania")
    assert shipped.name == f"vania-{players}p" and isinstance(load_policy(shipped.path), LookaheadPolicy)
    assert "train_lookahead.py" in shipped.card["training"]["reproduce"]
    results = shipped.results
    assert results["games"] >= 200 and results["opponent"] == "medium"
    agent = make_agent(f"policy:vania-{players}p", "siliconvania", 2)
    others = [make_agent("medium", "siliconvania", 10 + p) for p in range(players - 1)]
    assert play_game(new_game("siliconvania", players, 11), [agent, *others]).state.is_over


def _trainer(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_lookahead", ROOT / "examples" / "train_lookahead.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_lookahead", module)  # its worker functions are found by name
    spec.loader.exec_module(module)
    return module


def test_the_trainer_writes_a_playable_judgement_and_reproduces_it_with_any_number_of_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _trainer(monkeypatch)
    weights = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}" / "v.npz"
        module.main(["--players", "2", "--rounds", "1", "--games", "6", "--eval-games", "2", "--workers",
                     str(workers), "--out", str(out)])
        policy = load_policy(out)
        assert isinstance(policy, LookaheadPolicy)
        weights.append(policy.weights)
        card = (out.with_suffix(".toml")).read_text(encoding="utf-8")
        assert "reproduce" in card and "curve = [[0, " in card
    assert weights[0] == weights[1]
    assert weights[0] != hand_weights()
