"""CI smoke run of examples/train_silos.py, now 2-player SILOS through examples/train.py: a few updates, the learning
curve drawn, and weights that play as an agent."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

from tabletop.agents import make_agent, play_game
from tabletop.core import new_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_silos.py"


def test_the_silos_example_is_train_py_for_two_player_silos_with_its_curve(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_silos", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out, plot = tmp_path / "p.npz", tmp_path / "c.png"
    log = module.main(["--minutes", "0", "--bc-games", "3", "--bc-epochs", "1", "--updates", "2", "--steps", "64",
                       "--batch", "32", "--epochs", "1", "--eval-every", "2", "--eval-games", "2", "--out", str(out),
                       "--plot", str(plot)])
    assert log["updates"] == 2 and [u for u, _ in log["curve"]] == [0, 2]  # after imitation, then every 2 updates
    assert log["kept_update"] in (0, 2)
    card = tomllib.loads(out.with_suffix(".toml").read_text(encoding="utf-8"))
    assert card["policy"]["game"] == "silos" and card["policy"]["players"] == 2
    assert card["training"]["kept_update"] == log["kept_update"] and card["training"]["cpu_seconds"] > 0
    assert plot.stat().st_size > 1000
    agent = make_agent(f"policy:path={out},sample=true", "silos", 0)
    state = new_game("silos", 2, 0)
    play_game(state, [agent, make_agent("random", "silos", 1)])
    assert state.is_over
