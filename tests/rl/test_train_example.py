"""CI smoke run of examples/train_silos.py: a few PPO updates, the curve and weights that play as an agent."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from tabletop.agents import make_agent, play_game
from tabletop.core import new_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_silos.py"


def test_the_training_example_runs_a_few_updates_and_saves_a_playable_policy(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_silos", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out, plot, curve_file = tmp_path / "p.npz", tmp_path / "c.png", tmp_path / "c.json"
    curve = module.main(["--minutes", "0", "--updates", "2", "--steps", "64", "--batch", "32", "--epochs", "1",
                         "--eval-every", "2", "--eval-games", "2", "--out", str(out), "--plot", str(plot),
                         "--curve", str(curve_file), "--quiet"])
    assert curve["update"] == [1, 2] and len(curve["eval_win"]) == 1
    assert plot.stat().st_size > 1000 and json.loads(curve_file.read_text())["update"] == [1, 2]
    agent = make_agent(f"policy:path={out},sample=true", "silos", 0)
    state = new_game("silos", 2, 0)
    play_game(state, [agent, make_agent("random", "silos", 1)])
    assert state.is_over
