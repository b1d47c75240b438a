"""Balance studies: the study file's errors, the plan, resuming after an interruption (nothing lost, nothing
duplicated), extending, the stopping rule, per-seat features, the report and its multiple-comparison correction."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tabletop.arena.backends import LocalBackend
from tabletop.cli.main import main as cli_main
from tabletop.study import (
    StudyError,
    block_tasks,
    figure_value,
    parse_study,
    play_task,
    read_rows,
    run_study,
)
from tabletop.study.features import game_features
from tabletop.study.report import MIN_RATE_EFFECT, Hypothesis, correct, write_report

T = TypeVar("T")
R = TypeVar("R")


def study(game: str = "silencio", players: str = "[2, 3]", agents: str = '["heuristic"]', options: str = "",
          stop: str = "games = 24", design: str = "batch = 8") -> str:
    return (f'[study]\nname = "t"\ngame = "{game}"\nseed = 3\n[design]\n{design}\n[factors]\nplayers = {players}\n'
            f"agents = {agents}\n{options}\n[stop]\n{stop}\n")


SILENCIO = study(options='[factors.options]\nvariant = ["none", "tavern"]')


def without_timing(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


# ---- the study file ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[study\nname=1", "not valid TOML"),
        (study().replace("[design]", "[desing]"), "unknown key 'desing'; the keys are: study, design, factors, stop"),
        (study(game="chess"), "unknown game 'chess'; the games are:"),
        (study(players="[5]"), "Silencio takes 2-4 players, not 5"),
        (study(agents='["heuristc"]'), "agents:"),
        (study(options='[factors.options]\ncolour = ["red"]'), "has no option 'colour'; its options: variant"),
        (study(options='[factors.options]\nvariant = ["pub"]'), "variant"),
        (study(options='[factors.options]\nvariant = "tavern"'), "variant must be a list of levels"),
        (study(stop='games = 10\nfigure = "seat_win_halfwidth"\ntarget = 0.01'), "Silencio is cooperative"),
        (study(stop='games = 10\nfigure = "widest"\ntarget = 0.01'), "unknown figure 'widest'; the figures are:"),
        (study(stop='games = 10\nfigure = "perfect_halfwidth"'), "needs a target"),
        (study(stop='games = 10\nfigure = "perfect_halfwidth"\ntarget = 2'), "between 0 and 1"),
        (study(stop="games = 0"), "games must be at least 1"),
        (study(stop='games = "many"'), "games must be a int"),
        (study(design='kind = "latin"'), "kind must be one of full, random"),
        (study(design="max_steps = 0"), "max_steps must be at least 1"),
        (study().replace('name = "t"\n', ""), "[study] needs 'name'"),
    ],
)
def test_a_bad_study_file_is_refused_naming_what_is_legal(text: str, words: str) -> None:
    with pytest.raises(StudyError, match=None) as e:
        parse_study(text, "s.toml")
    assert words in str(e.value)
    assert str(e.value).startswith("s.toml")


def test_the_command_refuses_a_bad_study_file_in_one_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(study(players="[9]"))
    out = tmp_path / "bad.study"
    assert cli_main(["study", str(bad), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "takes 2-4 players, not 9" in err and "Traceback" not in err
    assert not out.exists()
    assert cli_main(["study", str(tmp_path / "missing.toml"), "--no-progress"]) == 2
    assert "no study file" in capsys.readouterr().err


def test_every_ready_made_study_file_parses() -> None:
    folder = Path(__file__).resolve().parents[2] / "studies"
    files = sorted(folder.glob("*.toml"))
    assert {f.stem for f in files} >= {"silos", "silencio", "siliconvania"}
    for f in files:
        spec = parse_study(f.read_text(), f.name)
        assert spec.figure is not None and spec.target is not None  # each runs to a stopping rule
        assert all("heuristic" in lineup for lineup in spec.agents)  # headline findings with heuristic agents


# ---- the plan ----------------------------------------------------------------------------------------------------
def test_a_full_design_takes_every_cell_in_turn_and_a_random_one_draws_levels_per_block() -> None:
    full = parse_study(SILENCIO)
    cells = full.cells()
    assert len(cells) == 4
    seen = [(t.players, t.options["variant"]) for b in range(8) for t in block_tasks(full, cells, b)]
    assert seen[:4] == [(c.players, c.options["variant"]) for c in cells] and seen[4:] == seen[:4]
    rnd = parse_study(SILENCIO.replace("batch = 8", 'batch = 8\nkind = "random"'))
    drawn = [block_tasks(rnd, cells, b)[0] for b in range(200)]
    assert {(t.players, t.options["variant"]) for t in drawn} == {(c.players, c.options["variant"]) for c in cells}
    assert [block_tasks(rnd, cells, b)[0] for b in range(20)] == drawn[:20]  # fixed by the seed and the block


def test_a_mixed_lineup_is_rotated_over_the_seats_on_one_deal() -> None:
    spec = parse_study(study(players="[3]", agents='[["heuristic", "random"]]'))
    tasks = block_tasks(spec, spec.cells(), 5)
    assert [t.specs for t in tasks] == [("heuristic", "random", "random"), ("random", "random", "heuristic"),
                                        ("random", "heuristic", "random")]
    assert len({t.seed for t in tasks}) == 1
    same = parse_study(study(players="[3]", agents='["heuristic"]'))
    assert len(block_tasks(same, same.cells(), 5)) == 1  # nothing to rotate


# ---- resuming, extending, stopping -------------------------------------------------------------------------------
class InterruptedBackend(LocalBackend):
    """Plays `after` games, then acts as if Ctrl-C was pressed (in the batch in flight)."""

    def __init__(self, after: int) -> None:
        super().__init__(1)
        self.left = after

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        for item in items:
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield fn(item)


def test_an_interrupted_study_loses_only_the_batch_in_flight_and_resumes_without_duplicates(tmp_path: Path) -> None:
    spec = parse_study(SILENCIO)
    whole = run_study(spec, tmp_path / "whole")
    assert whole.reason == "budget" and whole.games == 24
    run = run_study(spec, tmp_path / "cut", backend=InterruptedBackend(12))  # batches of 8: one written, one lost
    assert run.reason == "interrupted" and run.games == 8
    assert len(read_rows(tmp_path / "cut")) == 8
    (tmp_path / "cut" / ".part-000000099-000000100.parquet.tmp").write_bytes(b"half a file")  # killed mid-write
    again = run_study(spec, tmp_path / "cut")
    assert (again.games_before, again.games, again.reason) == (8, 24, "budget")
    assert not list((tmp_path / "cut").glob(".*.tmp"))
    resumed = read_rows(tmp_path / "cut")
    assert len({(r["block"], r["game"]) for r in resumed}) == len(resumed) == 24
    assert without_timing(resumed) == without_timing(read_rows(tmp_path / "whole"))


def test_a_study_is_extended_by_a_larger_budget_and_refuses_another_studys_dataset(tmp_path: Path) -> None:
    spec = parse_study(SILENCIO)
    run_study(spec, tmp_path / "d", budget=8)
    first = without_timing(read_rows(tmp_path / "d"))
    more = run_study(spec, tmp_path / "d", budget=16)
    assert (more.games_before, more.games) == (8, 16)
    assert without_timing(read_rows(tmp_path / "d"))[:8] == first
    assert run_study(spec, tmp_path / "d", budget=16).played == 0  # done already: nothing is replayed
    other = parse_study(SILENCIO.replace("seed = 3", "seed = 4"))
    with pytest.raises(StudyError, match=r"holds another study \(its seed differ"):
        run_study(other, tmp_path / "d")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "notes.txt").write_text("mine")
    with pytest.raises(StudyError, match="not a study dataset"):
        run_study(spec, tmp_path / "junk")


def test_the_stopping_rule_stops_at_the_first_batch_that_meets_the_target(tmp_path: Path) -> None:
    text = study(players="[2]", stop='games = 5000\nfigure = "perfect_halfwidth"\ntarget = 0.12\nmin_games = 8')
    spec = parse_study(text)
    run = run_study(spec, tmp_path / "s")
    rows = read_rows(tmp_path / "s")
    assert run.reason == "target" and run.games == len(rows) < 5000
    assert run.figure is not None and run.figure <= 0.12
    assert figure_value(spec, rows[:-8]) > 0.12  # one batch fewer was not enough
    tighter = run_study(spec, tmp_path / "s", target=0.09)  # extended to a tighter target
    assert tighter.reason == "target" and tighter.figure is not None and tighter.figure <= 0.09


def test_the_seat_win_figure_is_the_widest_wilson_half_width_over_seat_positions() -> None:
    spec = parse_study(study(game="silos", players="[2]", stop='games = 9\nfigure = "seat_win_halfwidth"\n'
                                                             'target = 0.1'))
    rows = [{"players": 2, "shares": [1.0, 0.0], "seat_position": [1, 2]} for _ in range(30)]
    rows += [{"players": 2, "shares": [0.5, 0.5], "seat_position": [2, 1]} for _ in range(10)]
    from tabletop.arena import wilson

    lo1, hi1 = wilson(35, 40)
    lo2, hi2 = wilson(5, 40)
    assert figure_value(spec, rows) == pytest.approx(max(hi1 - lo1, hi2 - lo2) / 2)
    assert figure_value(spec, []) == math.inf


# ---- rows and features -------------------------------------------------------------------------------------------
def test_a_silos_row_has_positions_and_town_hall_ranks_as_permutations(tmp_path: Path) -> None:
    spec = parse_study(study(game="silos", players="[3]", agents='["random"]', stop="games = 2",
                             options="[factors.options]\ncrop_circles = [0, 6]"))
    rows = [play_task(t) for b in range(2) for t in block_tasks(spec, spec.cells(), b)]
    for r in rows:
        assert sorted(r["seat_position"]) == sorted(r["seat_rank"]) == sorted(r["seat_rank_end"]) == [1, 2, 3]
        assert sum(r["shares"]) == pytest.approx(1.0)
        assert json.loads(r["options"])["crop_circles"] == int(r["opt_crop_circles"])
    assert [r["opt_crop_circles"] for r in rows] == ["0", "6"]


def test_a_siliconvania_row_has_objectives_kept_and_mean_bids() -> None:
    spec = parse_study(study(game="siliconvania", players="[2]", agents='["random"]', stop="games = 1"))
    r = play_task(block_tasks(spec, spec.cells(), 0)[0])
    assert r["seat_objectives_kept"] == [len(o.split("|")) if o else 0 for o in r["seat_objectives"]]
    assert all(0 <= b <= 7 for b in r["seat_mean_bid"])


# ---- the report --------------------------------------------------------------------------------------------------
def test_holm_correction_adjusts_every_p_value_and_findings_need_the_minimum_effect() -> None:
    tests = [Hypothesis("a", 0.05, 0.0, 0.1, 0.01, MIN_RATE_EFFECT, "pp"),
             Hypothesis("b", 0.05, 0.0, 0.1, 0.04, 0.02, "pp"),
             Hypothesis("c", 0.05, 0.0, 0.1, 0.03, MIN_RATE_EFFECT, "pp"),
             Hypothesis("d", 0.01, 0.0, 0.02, 1e-9, MIN_RATE_EFFECT, "pp")]
    correct(tests)
    # Holm: sorted p 1e-9, 0.01, 0.03, 0.04 times 4, 3, 2, 1, made monotone
    assert [t.p_adj for t in tests] == pytest.approx([0.03, 0.06, 0.06, 4e-9])
    assert [t.kept for t in tests] == [True, False, False, False]  # b, c: raw p < 0.05 only; d: under 2 points


def test_the_report_is_written_with_its_figures(tmp_path: Path) -> None:
    run_study(parse_study(SILENCIO.replace("games = 24", "games = 48")), tmp_path / "coop")
    page = write_report(tmp_path / "coop")
    html = page.read_text()
    for name in ("perfect", "cards_left", "effects", "length"):
        png = page.parent / f"{name}.png"
        assert f'src="{name}.png"' in html and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Holm" in html and "Findings" in html
    silos = study(game="silos", players="[2]", agents='["random"]', stop="games = 12",
                  options="[factors.options]\nalternate_tiles = [[], [1, 2]]")
    run_study(parse_study(silos), tmp_path / "comp")
    page = write_report(tmp_path / "comp", tmp_path / "out")
    assert page == tmp_path / "out" / "index.html"
    for name in ("seat_position", "rank", "by_option", "effects"):
        assert (tmp_path / "out" / f"{name}.png").exists()
    assert "Town Hall rank 1" in page.read_text()


def test_the_dataset_records_action_kinds_and_the_report_lists_those_never_reached(tmp_path: Path) -> None:
    run_study(parse_study(study(players="[3]", stop="games = 16")), tmp_path / "k")  # no Tavern: never a tavern
    rows = read_rows(tmp_path / "k")
    taken = {k for r in rows for k in r["action_kinds"]}
    assert {"play", "give"} <= taken and "tavern" not in taken
    declared = set(game_features("silencio").action_kinds)
    assert taken <= declared  # every verb taken is declared
    html = write_report(tmp_path / "k").read_text()
    line = next(x for x in html.split("<li>") if x.startswith("decisions never reached"))
    assert "tavern" in line and f"of the {len(declared)} action kinds" in line and "play" not in line.split(";")[0]


def test_report_of_a_directory_without_a_study_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["study", "report", str(tmp_path)]) == 2
    assert "not a study dataset" in capsys.readouterr().err


def test_the_siliconvania_report_tests_every_objective_kind_kept(tmp_path: Path) -> None:
    text = study(game="siliconvania", players="[2]", agents='["random"]', stop="games = 16")
    run_study(parse_study(text), tmp_path / "sv")
    page = write_report(tmp_path / "sv").read_text()
    assert 'src="objectives.png"' in page and 'src="mean_bid.png"' in page
    kinds = {k for r in read_rows(tmp_path / "sv") for o in r["seat_objectives"] for k in o.split("|") if k}
    assert kinds and all(f"{k} objective" in page for k in kinds)


def test_a_dataset_directory_reads_as_is_with_pyarrow_pandas_and_duckdb(tmp_path: Path) -> None:
    import duckdb
    import pandas as pd
    import pyarrow.dataset as ds

    run_study(parse_study(SILENCIO), tmp_path / "d", budget=16)
    assert (tmp_path / "d" / "_study.toml").exists() and not (tmp_path / "d" / "study.toml").exists()
    assert ds.dataset(str(tmp_path / "d"), format="parquet").count_rows() == 16
    frame = pd.read_parquet(tmp_path / "d")
    assert len(frame) == 16 and set(frame["players"]) == {2, 3}
    with duckdb.connect() as db:
        n = db.execute(f"select count(*) from read_parquet('{tmp_path / 'd'}/*.parquet')").fetchall()
    assert n == [(16,)]


def test_a_dataset_of_an_older_version_keeps_working_its_study_file_moved_where_readers_skip_it(
        tmp_path: Path) -> None:
    spec = parse_study(SILENCIO)
    run_study(spec, tmp_path / "d", budget=8)
    (tmp_path / "d" / "_study.toml").rename(tmp_path / "d" / "study.toml")  # as an older version wrote it
    assert run_study(spec, tmp_path / "d", budget=16).games_before == 8
    assert (tmp_path / "d" / "_study.toml").exists() and not (tmp_path / "d" / "study.toml").exists()


def test_a_study_whose_batch_differs_is_refused_and_the_stored_file_is_kept(tmp_path: Path) -> None:
    spec = parse_study(SILENCIO)
    run_study(spec, tmp_path / "d", budget=8)
    stored = (tmp_path / "d" / "_study.toml").read_text()
    other = parse_study(SILENCIO.replace("batch = 8", "batch = 4"))
    with pytest.raises(StudyError, match=r"holds another study \(its batch differ"):
        run_study(other, tmp_path / "d")
    assert (tmp_path / "d" / "_study.toml").read_text() == stored
    assert len(read_rows(tmp_path / "d")) == 8


def test_a_separated_study_reports_the_real_drop_by_firth_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], recwarn: pytest.WarningsRecorder) -> None:
    """The issue's case: perfect games at 2 players, none at 4 (complete separation), with the Dark Shrines."""
    text = study(players="[2, 4]", stop="games = 240", design="batch = 120",
                 options='[factors.options]\ndark_shrines = ["none", "all"]').replace("seed = 3", "seed = 5")
    run_study(parse_study(text), tmp_path / "sep")
    rows = read_rows(tmp_path / "sep")
    four = [r for r in rows if r["players"] == 4]
    two = [r for r in rows if r["players"] == 2]
    assert not any(r["winners"] for r in four) and any(r["winners"] for r in two)  # the data separate
    raw = sum(bool(r["winners"]) for r in four) / len(four) - sum(bool(r["winners"]) for r in two) / len(two)
    page = write_report(tmp_path / "sep").read_text()
    row = next(r for r in page.split("<tr") if "perfect games (4 players rather than 2)" in r)
    found = re.search(r"95% CI ([-+\d.]+) to ([-+\d.]+)", row)
    assert found is not None
    lo, hi = (float(x) / 100 for x in found.groups())
    assert -1 <= lo <= raw <= hi <= 0 and hi - lo < 0.15
    assert "Firth" in row and "<td>yes</td>" in row and "Model notes" in page and "Firth" in page
    assert not recwarn.list and "Warning" not in capsys.readouterr().err


# ---- the step limit (rule-coverage signal) -------------------------------------------------------------------------
def test_a_game_past_the_step_limit_is_cut_listed_by_the_report_and_left_out_of_every_figure(tmp_path: Path) -> None:
    free = parse_study(study(players="[2]", stop="games = 16"))
    run_study(free, tmp_path / "free")
    whole = read_rows(tmp_path / "free")
    steps = sorted(sum(r["decisions"]) for r in whole)
    limit = steps[len(steps) // 2]  # about half the games go past it
    capped = parse_study(study(players="[2]", stop="games = 16", design=f"batch = 8\nmax_steps = {limit}"))
    run_study(capped, tmp_path / "cut")
    rows = read_rows(tmp_path / "cut")
    assert [r["cut"] for r in rows] == [sum(r["decisions"]) > limit for r in whole]
    assert any(r["cut"] for r in rows) and not all(r["cut"] for r in rows)
    for a, b in zip(whole, rows, strict=True):
        if b["cut"]:  # the same game up to the limit, with no result
            assert sum(b["decisions"]) == limit and b["winners"] == [] and b["places"] == []
            assert b["shares"] == [0.0, 0.0] and b["length"] < a["length"]
        else:
            assert without_timing([a]) == without_timing([b])
    kept = [r for r in whole if sum(r["decisions"]) <= limit]
    assert figure_value(capped, rows, "perfect_halfwidth") == figure_value(capped, kept, "perfect_halfwidth")
    html = write_report(tmp_path / "cut").read_text()
    n = sum(r["cut"] for r in rows)
    line = next(x for x in html.split("<li>") if "step limit" in x)
    assert line.startswith(f"{n} of 16 games hit the step limit ({limit} decisions a game")
    first = next(r for r in rows if r["cut"])
    assert f"block {first['block']} (seed {first['seed']}" in line
    findings = json.loads((tmp_path / "cut" / "report" / "findings.json").read_text())
    assert findings["games"] == 16 - n  # the games analysed: those that ended
    free_html = write_report(tmp_path / "free").read_text()
    assert "no game of the 16 hit the step limit (10000 decisions a game" in free_html


def test_the_step_limit_is_part_of_the_study_but_its_default_reads_as_a_file_without_it(tmp_path: Path) -> None:
    plain = parse_study(SILENCIO)
    assert plain.max_steps == 10_000
    assert parse_study(SILENCIO.replace("batch = 8", "batch = 8\nmax_steps = 10000")).identity() == plain.identity()
    run_study(plain, tmp_path / "d", budget=8)
    with pytest.raises(StudyError, match=r"its max_steps differ"):
        run_study(parse_study(SILENCIO.replace("batch = 8", "batch = 8\nmax_steps = 50")), tmp_path / "d")


def test_a_dataset_written_before_the_cut_column_reads_every_game_as_played_to_its_end(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    run_study(parse_study(SILENCIO), tmp_path / "d", budget=8)
    for part in (tmp_path / "d").glob("part-*.parquet"):  # as an older version wrote it
        pq.write_table(pq.read_table(part).drop(["cut"]), part)
    rows = read_rows(tmp_path / "d")
    assert len(rows) == 8 and all(r["cut"] is False for r in rows)
    assert all(r["cut"] is False for r in read_rows(tmp_path / "d", ["block", "game", "cut"]))
    assert write_report(tmp_path / "d").exists()
