"""The arena's picture: a PNG for competitive and cooperative games, and the --plot option."""

from __future__ import annotations

import pytest

from tabletop.arena import run_arena
from tabletop.arena.plot import plot_result
from tabletop.cli.main import main


@pytest.mark.parametrize(("game", "specs", "players"), [("silos", ["heuristic", "random"], 2),
                                                        ("silencio", ["random"], 3)])
def test_plot_writes_a_png_of_win_shares_and_scores(tmp_path, game, specs, players):
    result = run_arena(game, specs, 4, players=players, workers=1, seed=1, progress=False)
    path = plot_result(result, tmp_path / "arena.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_arena_plot_option(tmp_path, capsys):
    out = tmp_path / "p.png"
    assert main(["arena", "silencio", "--agents", "random", "--players", "2", "--games", "2", "--no-progress",
                 "--plot", str(out)]) == 0
    assert out.exists() and "plot written" in capsys.readouterr().out
