"""`tabletop replay` names who took the last action and draws the final position's result."""

from __future__ import annotations

import tabletop
from tabletop.agents import make_agent, play_game
from tabletop.cli.main import main
from tabletop.core import save_record


def test_replay_end_names_the_last_actor_and_shows_the_final_scoring(tmp_path, capsys):
    state = tabletop.new_game("siliconvania", 3, 4)
    play_game(state, [make_agent("heuristic", "siliconvania", i) for i in range(3)])
    path = save_record(state.record(), tmp_path / "sv.json")
    last_actor = tabletop.replay(state.record(), upto=len(state.record()["actions"]) - 1).to_move
    assert main(["replay", str(path), "--end", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert f"last action: p{last_actor} " in out
    assert "Final scoring" in out and "seat 1 (you)" in out
