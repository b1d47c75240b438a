"""The skill ladder: its rungs (random, heuristic, the search at two budgets, every shipped policy for the game and
player count, by listing), the arenas of every ordered pair, and its figure with its sentence."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tabletop.agents.policy import shipped_policies
from tabletop.arena.runner import run_arena
from tabletop.study.ladder import BUDGETS, Ladder, ladder_agents, ladder_figure, run_ladder


def test_the_rungs_take_up_every_shipped_policy_for_the_game_and_player_count(tmp_path: Path) -> None:
    base = ["random", "heuristic", *(f"ismcts:time={b:g}" for b in BUDGETS)]
    assert base[2:] == ["ismcts:time=0.05", "ismcts:time=0.25"]
    shipped = [f"policy:{s.name}" for s in shipped_policies("silos", 2)]
    assert ladder_agents("silos", 2) == base + shipped
    assert ladder_agents("silos", 2, folder=tmp_path) == base  # an empty folder: no policy


def test_the_search_rungs_can_be_iteration_budgets(tmp_path: Path) -> None:
    rungs = ladder_agents("silos", 2, folder=tmp_path, iters=[50, 200])
    assert rungs == ["random", "heuristic", "ismcts:iters=50", "ismcts:iters=200"]


def test_a_two_player_ladder_plays_each_pair_once_and_reads_it_from_both_seats() -> None:
    ladder = run_ladder("silos", 2, 4, seed=2, agents=["random", "heuristic", "random:"])
    assert len(ladder.pairs) == 6
    for (a, b), (w, n) in ladder.pairs.items():
        assert n == 4 and w + ladder.pairs[b, a][0] == n  # a two-player game's shares sum to one


def test_a_ladder_plays_every_ordered_pair_and_states_its_finding(tmp_path: Path) -> None:
    ladder = run_ladder("silos", 2, 6, seed=1, agents=["random", "heuristic"])
    assert set(ladder.pairs) == {("random", "heuristic"), ("heuristic", "random")}
    for (a, b), (w, n) in ladder.pairs.items():
        assert n == 6 and 0 <= w <= n
        r, lo, hi = ladder.rate(a, b)
        assert 0 <= lo <= r + 1e-12 and r <= hi + 1e-12 <= 1 + 1e-12
    words = ladder_figure(ladder, tmp_path / "ladder.png")
    assert (tmp_path / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    assert words.startswith("heuristic against random wins ") and "Agents are not people" in words


def test_a_cooperative_ladder_is_each_rungs_perfect_rate_as_the_whole_team(tmp_path: Path) -> None:
    ladder = run_ladder("silencio", 2, 6, seed=1, agents=["random", "heuristic"])
    assert set(ladder.team) == {"random", "heuristic"} and all(n == 6 for _, n in ladder.team.values())
    assert all(0 <= w <= n for w, n in ladder.team.values())
    assert "perfect games" in ladder_figure(ladder, tmp_path / "ladder.png")


def test_a_cooperative_ladder_counts_distinct_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    import tabletop.arena.runner as arena

    # the arena replays one deal per seat rotation: the ladder must play `games` distinct deals and count each once
    r = arena.run_arena("silencio", ["heuristic"], 6, players=3, seed=1)
    deals = {o.seed for o in r.outcomes}
    assert len(deals) == 2
    asked: list[int] = []
    real = arena.run_arena

    def spy(*args: Any, **kw: Any) -> Any:
        asked.append(args[2])
        return real(*args, **kw)

    monkeypatch.setattr(arena, "run_arena", spy)
    ladder = run_ladder("silencio", 3, 2, seed=1, agents=["heuristic"])
    assert asked == [6]
    per_deal = [[float(bool(o.winners)) for o in r.outcomes if o.seed == d] for d in deals]
    assert ladder.team["heuristic"] == (sum(sum(v) / len(v) for v in per_deal), 2)


def test_a_cooperative_ladder_gives_each_team_its_mean_score_and_breaks_ties_of_perfect_rates_by_it(
        tmp_path: Path) -> None:
    # four players: hardly a deal ends perfect, so the perfect rates tie at 0 and the mean score tells teams apart
    ladder = run_ladder("silencio", 4, 6, seed=2, agents=["random", "heuristic"])
    r = run_arena("silencio", ["heuristic"], 24, players=4, seed=2)
    per_deal: dict[int, list[float]] = {}
    for o in r.outcomes:
        per_deal.setdefault(o.seed, []).append(o.scores[0])
    means = [sum(v) / len(v) for v in per_deal.values()]
    m, se, n = ladder.team_score["heuristic"]
    assert n == 6 and math.isclose(m, sum(means) / 6) and se > 0
    assert ladder.team_score["heuristic"][0] > ladder.team_score["random"][0]  # fewer cards left than random
    again = Ladder.from_json(json.loads(json.dumps(ladder.to_json())))
    assert again.team_score == ladder.team_score
    words = ladder_figure(ladder, tmp_path / "ladder.png")
    if ladder.team["heuristic"][0] == ladder.team["random"][0]:
        assert words.startswith("The best team is heuristic")
    assert "by the mean −cards left a deal, heuristic at" in words and "against random's" in words
    old = ladder.to_json()
    del old["team_score"]  # a ladder.json written before the score: redrawn with the perfect rates alone
    assert "by the mean" not in ladder_figure(Ladder.from_json(old), tmp_path / "old.png")
