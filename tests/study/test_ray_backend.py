"""The Ray backend: the same games and the same rows as the local processes, for the study and the arena.

Ray runs as a local cluster of two CPUs, started once for the module (its start-up is most of this file's time)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.arena import run_arena
from tabletop.arena.backends import LocalBackend, RayBackend, make_backend
from tabletop.cli.main import main as cli_main
from tabletop.study import parse_study, read_rows, run_study

STUDY = """
[study]
name = "ray"
game = "silencio"
seed = 11
[design]
batch = 6
[factors]
players = [3]
agents = [["heuristic", "random"]]
[factors.options]
variant = ["none", "tavern"]
[stop]
games = 18
"""


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    import ray

    os.environ.setdefault("RAY_worker_niceness", "0")  # as RayBackend does when it starts a cluster
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()


def rows_without_timing(path: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in read_rows(path)]


def test_local_and_ray_backends_write_identical_rows_for_the_same_seeds(ray_cluster: None, tmp_path: Path) -> None:
    spec = parse_study(STUDY)
    local = LocalBackend(2)
    try:
        run_study(spec, tmp_path / "local", backend=local)
    finally:
        local.close()
    ray_backend = RayBackend()
    run = run_study(spec, tmp_path / "ray", backend=ray_backend)
    ray_backend.close()  # the module's cluster stays up: the backend did not start it
    assert run.backend == "ray" and run.games == 18
    rows = rows_without_timing(tmp_path / "ray")
    assert rows == rows_without_timing(tmp_path / "local")
    assert {tuple(r["specs"]) for r in rows} == {("heuristic", "random", "random"), ("random", "random", "heuristic"),
                                                 ("random", "heuristic", "random")}


def test_the_arena_plays_the_same_games_on_ray(ray_cluster: None) -> None:
    local = run_arena("silencio", ["heuristic", "random"], games=6, players=2, seed=4)
    on_ray = run_arena("silencio", ["heuristic", "random"], games=6, players=2, seed=4, backend=make_backend("ray"))
    assert [(o.index, o.scores, o.winners, o.record) for o in on_ray.outcomes] == \
        [(o.index, o.scores, o.winners, o.record) for o in local.outcomes]


def test_the_commands_take_backend_ray(ray_cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text(STUDY.replace("games = 18", "games = 6"))
    assert cli_main(["study", str(spec), "--out", str(tmp_path / "d"), "--backend", "ray", "--no-progress"]) == 0
    assert "6 games" in capsys.readouterr().out and len(read_rows(tmp_path / "d")) == 6
    assert cli_main(["arena", "silencio", "--agents", "heuristic", "--players", "2", "--games", "2",
                     "--backend", "ray", "--no-progress"]) == 0
    assert cli_main(["arena", "silencio", "--agents", "heuristic", "--games", "2", "--address", "auto",
                     "--no-progress"]) == 2
    assert "--address is for --backend ray" in capsys.readouterr().err
