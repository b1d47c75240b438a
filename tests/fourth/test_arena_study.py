"""An arena and a balance study of the fourth game, through `tabletop.arena.run_arena` and `tabletop.study` as for
any game: the arena's outcomes replay, the study's rows carry the game's own features (its `features` part) and
the report is written."""

from __future__ import annotations

import json
from pathlib import Path

import tabletop
from tabletop.arena import run_arena
from tabletop.study import load_study, read_rows, run_study
from tabletop.study.report import write_report


def test_an_arena_of_the_fourth_game_between_two_agents(nines: str, tmp_path: Path) -> None:
    out = tmp_path / "arena.jsonl"
    result = run_arena(nines, ["heuristic", "random"], games=200, seed=1, options={"hand": 4}, out=out)
    assert not result.interrupted and len(result.outcomes) == 200
    stats = {a.spec: a for a in result.summary.agents}
    assert stats["heuristic"].games == stats["random"].games == 200  # seats rotated: each agent every game
    assert stats["heuristic"].wins + stats["random"].wins == 200
    assert stats["heuristic"].win_rate > stats["random"].win_rate  # the rule of thumb beats chance
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 200
    for line in lines[:20]:
        record = line["record"]
        assert record["game"] == nines and record["options"] == {"hand": 4} and len(record["actions"]) == 6
        assert tabletop.replay(record).winners() == line["winners"]


STUDY = """\
[study]
name = "Nines, the lead and the high cards"
game = "nines"
seed = 4

[design]
kind = "full"
batch = 16

[factors]
players = [2]
agents = ["heuristic", ["heuristic", "random"]]
[factors.options]
hand = [3, 4]

[stop]
games = 64
figure = "seat_win_halfwidth"
target = 0.001
"""


def test_a_small_study_of_the_fourth_game_runs_to_a_report(nines: str, tmp_path: Path) -> None:
    (tmp_path / "nines.toml").write_text(STUDY)
    spec = load_study(tmp_path / "nines.toml")
    run = run_study(spec, tmp_path / "nines.study")
    assert run.played == 64 and run.reason == "budget"
    rows = read_rows(tmp_path / "nines.study")
    assert len(rows) == 64
    assert {r["opt_hand"] for r in rows} == {"3", "4"}
    for r in rows:
        assert r["seat_position"] == [1, 2]
        assert r["length"] == 2 * (int(r["opt_hand"]) - 1)
        dealt = tabletop.new_game(nines, 2, r["seed"], json.loads(r["options"])).dealt  # the game's features part
        assert r["seat_high"] == [sum(c >= 7 for c in hand) for hand in dealt]
    page = write_report(tmp_path / "nines.study")
    text = Path(page).read_text()
    assert "Nines, the lead and the high cards" in text and "seat position" in text
