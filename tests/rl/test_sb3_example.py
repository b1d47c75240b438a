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
