"""CI run of examples/train_sb3.py: a few hundred steps of sb3-contrib's MaskablePPO through the Gymnasium id, a
self-play phase against a pool holding the frozen model as a callable, and a saved model that plays legal moves."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_sb3.py"


def test_the_sb3_example_trains_masked_ppo_and_saves_a_model_that_plays_legal_moves(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_sb3", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "model.zip"
    result = module.main(["--game", "silos", "--players", "2", "--steps", "256", "--self-play-steps", "128",
                          "--n-steps", "64", "--batch", "32", "--epochs", "1", "--hidden", "32",
                          "--eval-games", "1", "--out", str(out), "--quiet"])
    assert result["env_id"] == "tabletop/silos-2p-v0" and result["steps"] == 384
    assert 0.0 <= result["win_rate"] <= 1.0 and out.stat().st_size > 1000
    model = MaskablePPO.load(out)
    env = gymnasium.make(result["env_id"], opponents="random", flat=True)
    obs, info = env.reset(seed=3)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=True)
        assert info["action_mask"][int(action)] == 1  # the masked choice is always legal
        obs, _, term, trunc, info = env.step(int(action))
        if term or trunc:
            break
    act = module.as_opponent(model)
    assert info["action_mask"][act(obs, info["action_mask"])] == 1 or not np.any(info["action_mask"])


def test_sb3s_own_vector_env_over_an_id_trains_maskable_ppo() -> None:
    from stable_baselines3.common.env_util import make_vec_env

    import tabletop.rl  # noqa: F401 (registers the ids)

    venv = make_vec_env("tabletop/silencio-2p-v0", n_envs=2, seed=0,
                        env_kwargs={"flat": True, "opponents": "random", "render_mode": None})
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=128)
    assert model.num_timesteps == 128
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (2, 1060) and (masks.sum(axis=1) > 0).all()
    venv.close()
