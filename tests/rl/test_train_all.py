"""CI smoke runs of examples/train.py: any game and player count, reproducible from its seed, a model card."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tabletop.agents import play_game
from tabletop.agents.policy import PolicyAgent, PolicyNet
from tabletop.core import new_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_any", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(module: ModuleType, out: Path, game: str, players: int, seed: int = 0) -> dict[str, object]:
    return module.main(["--game", game, "--players", str(players), "--minutes", "0", "--bc-games", "2",
                        "--bc-epochs", "1", "--updates", "2", "--steps", "32", "--batch", "16", "--epochs", "1",
                        "--snapshot-every", "1", "--seed", str(seed), "--out", str(out)])


@pytest.mark.parametrize(("game", "players"), [("silos", 3), ("silencio", 2), ("siliconvania", 2)])
def test_one_command_trains_any_game_and_writes_weights_and_a_card(tmp_path: Path, game: str, players: int) -> None:
    module = _module()
    out = tmp_path / "p.npz"
    log = _run(module, out, game, players)
    assert log["updates"] == 2 and log["bc_games"] == 2
    net = PolicyNet(out)
    assert (net.game, net.players) == (game, players)
    with np.load(out, allow_pickle=False) as z:
        assert z["w0"].dtype == np.float16  # the size budget: half precision, compressed
    card = tomllib.loads(out.with_suffix(".toml").read_text(encoding="utf-8"))
    assert card["policy"]["game"] == game and card["policy"]["players"] == players
    assert card["training"]["ppo_updates"] == 2 and "--updates 2" in card["training"]["reproduce"]
    result = play_game(new_game(game, players, 3), [PolicyAgent(game, net, p) for p in range(players)])
    assert result.state.is_over  # every seat the policy: a legal game to its end


def test_the_same_seed_gives_the_same_weights_and_another_seed_others(tmp_path: Path) -> None:
    module = _module()
    paths = [tmp_path / f"{name}.npz" for name in ("a", "b", "c")]
    for path, seed in zip(paths, (5, 5, 6), strict=True):
        _run(module, path, "silos", 2, seed)
    with np.load(paths[0]) as a, np.load(paths[1]) as b, np.load(paths[2]) as c:
        assert all(np.array_equal(a[k], b[k]) for k in a.files)
        assert not np.array_equal(a["w0"], c["w0"])


def test_a_bad_player_count_is_refused_before_training(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        _module().main(["--game", "siliconvania", "--players", "6", "--out", str(tmp_path / "x.npz")])
    assert not (tmp_path / "x.npz").exists()


def test_dagger_rounds_add_the_policys_own_states_labelled_by_the_heuristic_and_reproduce(tmp_path: Path) -> None:
    module = _module()
    args = ["--game", "silencio", "--players", "3", "--minutes", "0", "--bc-games", "2", "--bc-epochs", "3",
            "--dagger", "2", "--dagger-games", "3", "--updates", "0", "--eval-every", "0", "--seed", "4"]
    logs = [module.main([*args, "--out", str(tmp_path / f"{n}.npz")]) for n in ("a", "b")]
    assert logs[0]["dagger_rounds"] == 2 and logs[0]["dagger_games"] == 6
    card = tomllib.loads((tmp_path / "a.toml").read_text(encoding="utf-8"))["training"]
    assert card["dagger_rounds"] == 2 and "--dagger 2 --dagger-games 3" in card["reproduce"]
    with np.load(tmp_path / "a.npz") as a, np.load(tmp_path / "b.npz") as b:
        assert all(np.array_equal(a[k], b[k]) for k in a.files)
    # the labels are the heuristic's choices in states the policy reached: every one of them legal there
    layers = module.numpy_layers(module.ActorCritic(module.encoder("silencio", 3).size,
                                                    module.action_space("silencio", 3).n, 16))
    obs, legal, choice, reward, played = module.policy_data(layers, "silencio", 3, 2, 9, float("inf"), 3000)
    assert played == 2 and len(obs) == len(legal) == len(choice) == len(reward) > 0
    assert all(c in set(idx.tolist()) for c, idx in zip(choice, legal, strict=True))


def test_a_large_action_space_is_fitted_on_the_legal_logits_alone_with_the_same_values_and_codes_are_lossless() -> None:
    module = _module()
    torch = pytest.importorskip("torch")
    obs, legal, choice, _, played = module.imitation_data("siliconvania", 2, 1, 0.1, 2, float("inf"), 3000)
    assert played == 1 and obs[0].dtype == np.uint16
    n = module.action_space("siliconvania", 2).n
    assert n > module.LARGE
    model = module.ActorCritic(module.encoder("siliconvania", 2).size, n, 8)
    assert not model.pi.weight.any()  # starts at zero: rows of actions never legal in training stay zero
    torch.nn.init.normal_(model.pi.weight)
    rows = list(range(5))
    x = torch.from_numpy(module.CODES.decode(np.stack([obs[k] for k in rows])))
    width = max(len(legal[k]) for k in rows)
    idx = torch.zeros((len(rows), width), dtype=torch.int64)
    valid = torch.zeros((len(rows), width), dtype=torch.bool)
    mask = torch.zeros((len(rows), n), dtype=torch.int8)
    for row, k in enumerate(rows):
        idx[row, :len(legal[k])] = torch.from_numpy(legal[k])
        valid[row, :len(legal[k])] = True
        mask[row, torch.from_numpy(legal[k])] = 1
    with torch.no_grad():
        full, v_full = model(x, mask)
        part, v_part = model.legal_forward(x, idx, valid)
    for row, k in enumerate(rows):
        assert torch.allclose(part[row, :len(legal[k])], full[row, torch.from_numpy(legal[k])], atol=1e-5)
        assert choice[k] in set(legal[k].tolist())
    assert torch.equal(v_full, v_part)
    # the stored codes give back the encoder's float32 values exactly
    state = module.new_game("siliconvania", 2, 5)
    enc = module.encoder("siliconvania", 2)
    raw = enc.encode_fast(state, 0)
    assert np.array_equal(module.CODES.decode(module.CODES.encode(raw)), raw)


def test_a_dagger_round_cut_short_is_dropped_and_the_reproduce_line_still_gives_the_same_weights(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _module()
    real = module.policy_data
    calls: list[int] = []

    def cut_third(*args: object) -> object:  # the third round runs out of budget: fewer games than asked
        calls.append(1)
        obs, legal, choice, reward, played = real(*args)
        return (obs, legal, choice, reward, played - 1) if len(calls) == 3 else (obs, legal, choice, reward, played)

    args = ["--game", "silencio", "--players", "2", "--minutes", "0", "--bc-games", "2", "--bc-epochs", "3",
            "--dagger-games", "2", "--updates", "2", "--steps", "32", "--batch", "16", "--epochs", "1",
            "--eval-every", "1", "--eval-games", "2", "--seed", "8"]
    monkeypatch.setattr(module, "policy_data", cut_third)
    log = module.main([*args, "--dagger", "4", "--out", str(tmp_path / "a.npz")])
    assert log["dagger_rounds"] == 2 and log["dagger_seeds"] == 3
    reproduce = tomllib.loads((tmp_path / "a.toml").read_text(encoding="utf-8"))["training"]["reproduce"]
    assert "--dagger 2 --dagger-games 2 --dagger-seeds 3" in reproduce
    monkeypatch.setattr(module, "policy_data", real)
    module.main([*args, "--dagger", "2", "--dagger-seeds", "3", "--out", str(tmp_path / "b.npz")])
    with np.load(tmp_path / "a.npz") as a, np.load(tmp_path / "b.npz") as b:
        assert all(np.array_equal(a[k], b[k]) for k in a.files)
