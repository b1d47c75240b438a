"""Issue 20, point 3: AI-only games are capped, and they yield. With the default `--ai-workers` (1) and the total cap
of AI-only games of four `hard` seats in play (16, from four addresses), an `easy` AI in a person's game replies
within 1 s, a 2 s move clock fires within 2.5 s, the AI-only games still move, and SIGTERM ends the server within
5 s. Before the fix (same scenario, `python -m tests.server.ai_load --src OLD/src`): 21-22 s and 22-23 s."""

from __future__ import annotations

from pathlib import Path

import pytest

from .ai_load import measure
from .proc import Server


@pytest.mark.parametrize("level", ["hard", "easy"])
def test_ai_only_games_neither_starve_people_nor_stop_the_clocks(tmp_path: Path, level: str) -> None:
    """`hard`: searches that hold the only worker for a second each; `easy`: AI-only games that move as fast as the
    server commits (some 200 moves a second), whose commits must not queue ahead of a person's game's."""
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "serve.log", ai_workers=1).start()
    try:
        fig = measure(server, replies=6, timeouts=3, level=level)
    finally:
        server.kill()
    print(fig.report())
    assert fig.ai_only_games == 16
    assert fig.refused == [429] * 4 + [503], fig.refused  # each address's share (16 AI seats), then the total
    assert len(fig.replies) == 6 and max(fig.replies) < 1.0, fig.report()
    assert len(fig.timeouts) == 3 and max(fig.timeouts) < 2.5, fig.report()
    assert fig.backlog_moves > 0, fig.report()  # the AI-only games yield, they are not stopped
    assert fig.exit_seconds < 5.0, fig.report()
    log = server.output()
    assert "Traceback" not in log, log[-3000:]
