"""The post-game review in Chromium (issue 24): a player of a finished short game asks for the review of their moves
in the replay viewer, sees the progress (pushed by the server as events, not polled), then the graph of their
estimated result above the replay and the mistakes list; a click on a point of the graph goes to that move in the
replay."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser

from .conftest import LAPTOP, Served
from .table import create_in_lobby, play_to_end


def test_a_finished_games_player_reviews_their_moves_and_a_point_goes_to_that_move(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy", "ai:easy"])
    play_to_end(page, random.Random(7))
    page.click("[data-testid=replay-open]")
    page.wait_for_selector("[data-testid=replay-step]:has-text('step 0 /')")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url.split('?')[0]}"))
    page.click("[data-testid=review-ask]")
    progress = page.wait_for_selector("[data-testid=review-progress]", timeout=30_000)
    assert progress is not None and "Reviewing" in progress.inner_text()
    page.wait_for_selector("[data-testid=review-graph]", timeout=120_000)
    events = [a for a in asked if a.endswith("/review/events")]
    polls = [a for a in asked if a.startswith("GET ") and a.endswith("/review")]
    assert len(events) == 1 and not polls, asked  # one event stream, no polling
    pushed = int(page.get_attribute("[data-testid=review]", "data-pushed") or "0")
    assert pushed >= 2, pushed  # progress, then the review itself, both pushed
    label = page.inner_text(".reviewlabel")
    assert "expected cards left" in label or "expected result" in label, label  # Silencio values the team's result
    points = page.query_selector_all("[data-testid=review-point]")
    assert len(points) >= 2
    page.wait_for_selector("[data-testid=review-mistakes]")
    point = points[len(points) // 2]
    step = int(point.get_attribute("data-step") or "-1")
    assert step >= 1
    point.click()
    page.wait_for_selector(f"[data-testid=replay-step]:has-text('step {step} /')")
    assert page.inner_text("[data-testid=replay-action]").startswith(f"{step}. ")
    page.screenshot(path=str(artifacts / "review-silencio-laptop.png"), full_page=True)
    # reopened later, the stored review is shown at once (no new request for it)
    page.click("button.closereplay")
    page.click("[data-testid=replay-open]")
    page.wait_for_selector("[data-testid=review-graph]")
    assert not page.query_selector("[data-testid=review-ask]")
    ctx.close()
