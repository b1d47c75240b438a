"""`tabletop replay --seat N` tells what the last action looked like from seat N's log (never the record's action
text, which holds every secret) and draws the final position's result."""

from __future__ import annotations

import tabletop
from tabletop.agents import make_agent, play_game
from tabletop.cli.main import main
from tabletop.core import save_record
from tabletop.core.logwords import render


def test_replay_end_shows_the_last_action_as_the_seat_saw_it_and_the_final_scoring(tmp_path, capsys):
    state = tabletop.new_game("siliconvania", 3, 4)
    play_game(state, [make_agent("heuristic", "siliconvania", i) for i in range(3)])
    path = save_record(state.record(), tmp_path / "sv.json")
    before = tabletop.replay(state.record(), upto=len(state.record()["actions"]) - 1)
    seen = state.log(1, before.view(1)["log_pos"])
    assert seen, "the last action of a game is seen by every seat"
    assert main(["replay", str(path), "--end", "--seat", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "last action, as P2 saw it: You " in out
    assert all(render(e, None, 1) in out for e in seen)
    assert "Final scoring" in out and "seat 1 (you)" in out
