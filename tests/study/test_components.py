"""The component-value study (tabletop.study.components): the prohibition holds, the declared patterns name real
actions, the design is paired, and the paired intervals cover a known truth."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.agents import make_agent, play_game
from tabletop.core import Action, SeatHandle, State
from tabletop.study.components import (
    ComponentError,
    ForbiddenSeat,
    ForbiddingAgent,
    components_of,
    design,
    effects,
    paired,
    play_component_task,
)


def _forbidden_game(game: str, players: int, pattern: str, seed: int = 3) -> tuple[list[str], ForbiddenSeat]:
    state = tabletop.new_game(game, players, seed)
    agents = [make_agent("heuristic", game, s) for s in range(players)]
    handle = ForbiddenSeat(state, 0, pattern)
    agents[0] = ForbiddingAgent(agents[0], handle)
    played: list[str] = []

    def seen(_: State, seat: int, action: Action) -> None:
        if seat == 0:
            played.append(action.text)

    play_game(state, agents, on_action=seen)
    return played, handle


def test_a_forbidden_seat_never_takes_a_shrine() -> None:
    played, handle = _forbidden_game("silencio", 3, r"^shrine ")
    assert handle.fallbacks == 0
    assert played and not [t for t in played if t.startswith("shrine ")]


def test_a_forbidden_seat_never_enters_the_church() -> None:
    pattern = components_of("silos")["Church"]
    played, handle = _forbidden_game("silos", 2, pattern)
    assert handle.bites > 0
    assert not [t for t in played if re.search(pattern, t)]


def test_when_everything_is_forbidden_everything_is_offered() -> None:
    played, handle = _forbidden_game("silencio", 3, r".")
    assert played and handle.fallbacks >= len(played)


def test_an_agent_that_ignores_the_handle_is_caught() -> None:
    state = tabletop.new_game("silencio", 3, 1)

    class Cheat:
        name = "cheat"

        def act(self, seat: SeatHandle) -> Action:
            return state.legal_actions()[0]  # not from `seat`

    first = state.legal_actions()
    assert len(first) > 1 and state.to_move is not None
    handle = ForbiddenSeat(state, state.to_move, f"^{re.escape(first[0].text)}$")
    agents = [make_agent("heuristic", "silencio", s) for s in range(3)]
    agents[handle.seat] = ForbiddingAgent(Cheat(), handle)
    with pytest.raises(ComponentError, match="forbidden"):
        play_game(state, agents)


@pytest.mark.parametrize("game,players", [("silos", 2), ("silencio", 3), ("siliconvania", 2)])
def test_every_declared_component_names_actions_that_occur(game: str, players: int) -> None:
    comps = components_of(game)
    offered: set[str] = set()
    for seed in range(3):
        state = tabletop.new_game(game, players, seed)
        play_game(state, [make_agent("heuristic", game, s) for s in range(players)],
                  on_action=lambda st_, _s, _a: offered.update(a.text for a in st_.legal_actions()))
    missing = [name for name, p in comps.items() if not any(re.search(p, t) for t in offered)]
    assert not missing, f"{game}: no legal action in 3 games matches {missing}"


def test_the_design_is_paired_and_rotates_the_focal_seat() -> None:
    comps = {"a": "^x$", "b": "^y$"}
    tasks = design("silos", 2, 4, seed=7, components=comps)
    assert len(tasks) == 4 * 3
    for b in range(4):
        mine = [t for t in tasks if t.block == b]
        assert [t.component for t in mine] == ["", "a", "b"]
        assert len({(t.deal, t.agent_seeds, t.focal) for t in mine}) == 1
        assert mine[0].focal == b % 2
    assert len({t.deal for t in tasks}) == 4


def test_a_prohibition_that_never_bites_changes_nothing() -> None:
    tasks = design("silencio", 3, 2, seed=1, components={"nothing": r"^no such action$"})
    rows = [play_component_task(t) for t in tasks]
    (res, score) = effects(rows)
    assert (res.diff, res.lo, res.hi, res.changed, res.bites) == (0.0, 0.0, 0.0, 0, 0.0)
    assert score.diff == 0.0


def test_effects_recover_known_paired_differences() -> None:
    rows = []
    for b in range(50):
        rows.append({"block": b, "component": "", "result": 0.5, "score": 10.0, "bites": 0, "fallbacks": 0})
        rows.append({"block": b, "component": "c", "result": 0.5 - (0.5 if b % 5 == 0 else 0.0),
                     "score": 8.0, "bites": 2, "fallbacks": 1})
    (res, score) = effects(rows)
    assert res.diff == pytest.approx(-0.1) and res.lo < -0.1 < res.hi and res.changed == 10
    assert (score.diff, score.lo, score.hi) == (-2.0, -2.0, -2.0)
    assert res.bites == 2 and res.fallbacks == 50 and res.deals == 50


def test_paired_intervals_cover_the_truth_in_at_least_90_of_100_datasets() -> None:
    covered = 0
    for seed in range(100):
        rng = random.Random(seed)
        truth = 0.08  # a binary result: the forbidden seat wins with 0.42 against 0.50, the deal correlating both
        diffs = []
        for _ in range(300):
            u = rng.random()
            v = rng.random() if rng.random() < 0.5 else u  # half the deals play out alike
            diffs.append(float(v < 0.42) - float(u < 0.50))
        _, lo, hi = paired(diffs)
        covered += lo <= -truth <= hi
    assert covered >= 90


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False), min_size=2, max_size=40))
def test_the_paired_interval_holds_its_mean(diffs: list[float]) -> None:
    m, lo, hi = paired(diffs)
    assert lo <= m + 1e-9 and m <= hi + 1e-9


def test_fewer_than_two_deals_is_refused() -> None:
    with pytest.raises(ComponentError, match="at least 2"):
        paired([0.5])


def _tiny_component_study(tmp: Path) -> Path:
    from tabletop.study.components import ComponentStudy, run_components, save_components

    comps = {k: v for k, v in components_of("silos").items() if k in ("Church", "University")}
    rows = run_components(design("silos", 2, 6, seed=4, components=comps))
    save_components(tmp / "comp", ComponentStudy("silos", 2, 6, 4, "heuristic", rows))
    return tmp / "comp"


def test_a_saved_component_study_reads_back_as_it_was(tmp_path: Path) -> None:
    from tabletop.study.components import load_components

    study = load_components(_tiny_component_study(tmp_path))
    assert (study.game, study.players, study.deals, study.seed, study.agent) == ("silos", 2, 6, 4, "heuristic")
    assert len(study.rows) == 6 * 3 and {r["component"] for r in study.rows} == {"", "Church", "University"}


def test_a_directory_without_a_component_study_is_refused_naming_what_it_needs(tmp_path: Path) -> None:
    from tabletop.study.components import load_components

    with pytest.raises(ComponentError, match=r"components\.json and rows\.json\.gz"):
        load_components(tmp_path)


def test_the_summary_names_the_component_worth_most_with_its_interval() -> None:
    from tabletop.study.components import Effect, summary

    found = [Effect("Church", "result", -0.2, -0.25, -0.15, 100, 3.0, 0, 50),
             Effect("University", "result", 0.1, 0.05, 0.15, 100, 3.0, 0, 50),
             Effect("Town Hall", "result", -0.01, -0.05, 0.03, 100, 3.0, 0, 50)]
    words = summary("silos", found)
    assert words.startswith("Worth most to the agent: the Church. A seat that may not take the Church wins 20.0 "
                            "points less often (95% CI -25.0 to -15.0 points).")
    assert words.endswith("Over-valued by the agent: the University. A seat that may not take the University wins "
                          "10.0 points more often (95% CI +5.0 to +15.0 points).")
    weak = summary("silos", [Effect("Church", "result", -0.01, -0.05, 0.03, 100, 3.0, 0, 50)])
    assert weak == ("Worth most to the agent: the Church. A seat that may not take the Church wins 1.0 points less "
                    "often (95% CI -5.0 to +3.0 points): not a clear effect, its interval holds 0, so no component "
                    "is shown to matter at this size.")
    coop = summary("silencio", [Effect("blue shrine", "result", -0.02, -0.03, -0.01, 100, 3.0, 0, 5)])
    assert coop.startswith("Worth most to the agent: the blue shrine. A team whose one seat may not take the blue "
                           "shrine makes a perfect game 2.0 points less often")


def test_the_study_report_has_a_component_value_section(tmp_path: Path) -> None:
    from tabletop.study import parse_study, run_study
    from tabletop.study.report import write_report

    comp = _tiny_component_study(tmp_path)
    spec = parse_study('[study]\nname = "s"\ngame = "silos"\nseed = 1\n[design]\nbatch = 8\n[factors]\n'
                       'players = [2]\nagents = ["heuristic"]\n[stop]\ngames = 8\n')
    run_study(spec, tmp_path / "s.study")
    page = html.unescape(write_report(tmp_path / "s.study", components=[comp]).read_text(encoding="utf-8"))
    assert "<h2>Component value, 2 players (by intervention)</h2>" in page
    assert '<img src="components-2p.png"' in page and (tmp_path / "s.study/report/components-2p.png").stat().st_size
    assert re.search(r"A seat that may not take the Church (wins \d+\.\d points (less|more) often \(95% CI "
                     r"[+-]\d+\.\d to [+-]\d+\.\d points\)|wins exactly as often as with it: the result changed on "
                     r"none of 6 deals)", page)
    assert "6 deals (seed 4), 2 players, every seat `heuristic`" in page
    assert "Agents are not people" in page


def test_a_component_study_of_another_game_is_refused_and_nothing_written(tmp_path: Path) -> None:
    from tabletop.study import parse_study, run_study
    from tabletop.study.report import write_report
    from tabletop.study.spec import StudyError

    comp = _tiny_component_study(tmp_path)
    spec = parse_study('[study]\nname = "s"\ngame = "silencio"\nseed = 1\n[design]\nbatch = 8\n[factors]\n'
                       'players = [2]\nagents = ["heuristic"]\n[stop]\ngames = 8\n')
    run_study(spec, tmp_path / "s.study")
    with pytest.raises(StudyError, match="a component-value study of SILOS, not of Silencio"):
        write_report(tmp_path / "s.study", components=[comp])
    assert not (tmp_path / "s.study/report/index.html").exists()
