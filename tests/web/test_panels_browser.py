"""The panels around the board in Chromium: simultaneous bids, undo, hints, table chat, the move clock, the
game-specific hint line, the end-of-game score and the replay viewer; a server restart mid-game; the click-to-render
budget (p95 over 50 clicks <= 100 ms, measured in the page)."""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import LAPTOP, PHONE, Served
from .table import Clicks, create_in_lobby, move_by_clicks, play_to_end, seq_of, two_at_a_table, wait_turn_or_end
from .test_siliconvania_browser import sv_move


def _sv_pair(server: Served, browser: Browser) -> tuple[Page, Page, list[BrowserContext]]:
    """Ann (seat 0, laptop) and Bo (seat 1, phone, from the invite link) at a 2-player SiliconVania table."""
    return two_at_a_table(server.url, browser, "siliconvania", 2)


def test_a_later_seat_bids_at_once_the_header_shows_who_decided_and_a_queued_bid_can_be_undone(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ann, bo, ctxs = _sv_pair(server, browser)
    # The first bid step: both owe a bid at once; Bo (seat 1) need not wait for Ann (seat 0).
    ann.wait_for_selector("[data-testid=decided]")
    bo.wait_for_selector(".tablehead .turn.mine")
    assert ann.query_selector(".tablehead .turn.mine"), "Ann owes her bid too"
    assert "✓" not in ann.inner_text("[data-testid=decided]")
    sv_move(bo, random.Random(1), Clicks())
    ann.wait_for_function("() => document.querySelector('[data-testid=decided]')?.innerText.includes('✓ Bo')")
    assert ann.query_selector(".tablehead .turn.mine"), "Ann still owes her bid"
    assert "✓" not in ann.inner_text("[data-testid=decided] .dec:first-child"), "Ann has not decided"
    bo.wait_for_selector("[data-testid=undo]")
    assert "waiting for Ann" in bo.inner_text(".tablehead .turn")
    bo.evaluate("window.scrollTo(0, 0)")
    bo.screenshot(path=str(artifacts / "panels-bid-decided-undo-phone.png"), full_page=True)
    ann.screenshot(path=str(artifacts / "panels-bid-decided-laptop.png"))
    # Bo takes the queued bid back: he owes it again, and Ann's header no longer shows him decided.
    bo.click("[data-testid=undo]")
    bo.wait_for_selector(".tablehead .turn.mine")
    ann.wait_for_function("() => !document.querySelector('[data-testid=decided]')?.innerText.includes('✓')")
    assert not bo.query_selector("[data-testid=undo]")
    for c in ctxs:
        c.close()


def test_hints_list_the_top_actions_with_values_and_samples_and_outline_the_suggested_component(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ann, _bo, ctxs = _sv_pair(server, browser)
    ann.wait_for_selector(".tablehead .turn.mine")
    ann.click("[data-testid=hints] button.hintbtn")
    ann.wait_for_selector("[data-testid=hints] ol.hintlist li", timeout=30_000)
    rows = ann.query_selector_all("[data-testid=hints] ol.hintlist li")
    assert 1 <= len(rows) <= 5
    legal = {b.get_attribute("data-action") for b in ann.query_selector_all(".actions details.all button.act")}
    for r in rows:
        assert (r.get_attribute("data-action") or "") in legal
        assert r.query_selector(".hv").inner_text().endswith("%")  # type: ignore[union-attr]
        assert r.query_selector(".hn").inner_text().endswith("samples")  # type: ignore[union-attr]
    assert ann.query_selector(".table .suggested"), "the best hint's component is outlined on the table"
    ann.screenshot(path=str(artifacts / "panels-hints-laptop.png"))
    ann.set_viewport_size(PHONE)
    ann.evaluate("window.scrollTo(0, 0)")
    ann.screenshot(path=str(artifacts / "panels-hints-phone.png"), full_page=True)
    for c in ctxs:
        c.close()


def test_table_chat_reaches_the_other_seat_in_siliconvania_and_silencio_has_no_chat(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ann, bo, ctxs = _sv_pair(server, browser)
    ann.fill("[data-testid=chat] input", "good luck, Bo")
    ann.click("[data-testid=chat] button[type=submit]")
    bo.wait_for_selector("[data-testid=chat] li:has-text('good luck, Bo')")
    assert "Ann" in bo.inner_text("[data-testid=chat] li")
    bo.fill("[data-testid=chat] input", "you too")
    bo.press("[data-testid=chat] input", "Enter")
    ann.wait_for_selector("[data-testid=chat] li:has-text('you too')")
    ann.screenshot(path=str(artifacts / "panels-chat-laptop.png"))
    bo.evaluate("window.scrollTo(0, 0)")
    bo.screenshot(path=str(artifacts / "panels-chat-phone.png"), full_page=True)
    for c in ctxs:
        c.close()
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy"])
    assert wait_turn_or_end(page) == "turn"
    assert not page.query_selector("[data-testid=chat]"), "Silencio is played in silence"
    ctx.close()


def test_each_game_tells_what_to_click_in_its_own_words(server: Served, browser: Browser) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy"])
    assert wait_turn_or_end(page) == "turn"
    assert page.inner_text(".actions .hint") == "Click a highlighted card, shrine or player on the table."
    create_in_lobby(page, server.url, ["me", "ai:easy"], game="silos")
    assert wait_turn_or_end(page) == "turn"
    silos = page.inner_text(".actions .hint")
    assert "location" in silos and "shrine" not in silos
    ctx.close()


def test_the_move_clock_counts_down_in_the_header(server: Served, browser: Browser, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=game]", "silencio")
    page.select_option("form.create select[name=players]", "2")
    page.select_option("form.create select[name=seat1]", "ai:easy")
    page.select_option("form.create select[name=move_seconds]", "120")
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-testid=created]")
    page.click("text=Open the table")
    assert wait_turn_or_end(page) == "turn"
    page.wait_for_selector("[data-testid=clock]:not([hidden])")
    first = page.inner_text("[data-testid=clock]")
    assert first.startswith(("1:", "2:")) and first.endswith(" left"), first
    page.wait_for_function("(t) => document.querySelector('[data-testid=clock]').innerText !== t", arg=first,
                           timeout=5000)
    page.screenshot(path=str(artifacts / "panels-clock-phone.png"))
    ctx.close()


def test_the_end_shows_the_score_then_a_replay_with_step_controls_and_every_hand_open(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy", "ai:easy"])
    play_to_end(page, random.Random(5))
    score = page.inner_text("[data-testid=score]")
    assert "card(s) left" in score or "perfect" in score
    page.click("[data-testid=replay-open]")
    page.wait_for_selector("[data-testid=replay-step]:has-text('step 0 /')")
    steps = int(page.inner_text("[data-testid=replay-step]").split("/")[1])
    hands = page.query_selector_all("[data-testid=replay-hands] .openhand")
    assert len(hands) == 3 and all(h.query_selector_all(".card") for h in hands), "every hand is open at the deal"
    page.click("[data-testid=replay-next]")
    page.wait_for_selector("[data-testid=replay-step]:has-text('step 1 /')")
    assert page.inner_text("[data-testid=replay-action]").startswith("1. ")
    page.click("[data-testid=replay-last]")
    page.wait_for_selector(f"[data-testid=replay-step]:has-text('step {steps} / {steps}')")
    page.click("[data-testid=replay-prev]")
    page.wait_for_selector(f"[data-testid=replay-step]:has-text('step {steps - 1} /')")
    page.keyboard.press("Home")
    page.wait_for_selector("[data-testid=replay-step]:has-text('step 0 /')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("[data-testid=replay-step]:has-text('step 2 /')")
    page.screenshot(path=str(artifacts / "replay-silencio-laptop.png"), full_page=True)
    assert not page.query_selector("[data-testid=score]"), "the replay replaces the result until closed"
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "replay-silencio-phone.png"), full_page=True)
    page.click("text=Back to the result")
    page.wait_for_selector("[data-testid=score]")
    page.screenshot(path=str(artifacts / "score-silencio-phone.png"), full_page=True)
    ctx.close()


def test_a_server_restart_mid_game_resumes_where_the_player_was(
        built: None, browser: Browser, artifacts: Path, tmp_path: Path) -> None:
    own = Served(tmp_path)
    try:
        ctx = browser.new_context(viewport=LAPTOP)
        page = ctx.new_page()
        create_in_lobby(page, own.url, ["me", "ai:easy", "ai:easy"])
        rng = random.Random(11)
        clicks = Clicks()
        for _ in range(3):
            assert wait_turn_or_end(page) == "turn"
            move_by_clicks(page, rng, clicks)
        assert wait_turn_or_end(page) == "turn"
        hand = [e.get_attribute("data-card") for e in page.query_selector_all(".handcards .card")]
        history = page.inner_text("ol.history")
        seq = seq_of(page)
        own.kill()
        page.wait_for_selector(".tablehead .conn.off")
        own.start()
        page.wait_for_selector(".tablehead .conn.on", timeout=20_000)
        assert seq_of(page) == seq
        assert wait_turn_or_end(page) == "turn"
        assert [e.get_attribute("data-card") for e in page.query_selector_all(".handcards .card")] == hand
        assert page.inner_text("ol.history") == history
        move_by_clicks(page, rng, clicks)  # the restarted server takes the next move
        assert seq_of(page) > seq
        page.screenshot(path=str(artifacts / "silencio-after-server-restart-laptop.png"))
        ctx.close()
    finally:
        own.stop()


P95_BUDGET_MS = 100.0

_MEASURE = """() => {
  window.__clicks = [];
  let pending = null;
  const seqNow = () => Number(document.querySelector('.table > [data-seq]')?.dataset.seq ?? -1);
  document.addEventListener('click', (e) => {
    if (e.target.closest('.table .target, .actions button.act')) pending = { t0: performance.now(), seq: seqNow() };
  }, true);
  new MutationObserver(() => {
    if (pending && seqNow() > pending.seq) {
      window.__clicks.push(performance.now() - pending.t0);
      pending = null;
    }
  }).observe(document.querySelector('.table'), { subtree: true, childList: true, attributes: true });
}"""


def test_click_to_render_is_measured_over_50_clicks(server: Served, browser: Browser, artifacts: Path) -> None:
    """Every click on a target is followed by the new picture; the times are a benchmark, reported (printed and in
    test-artifacts/click-to-render.json) against the 100 ms p95 budget, not asserted: on a shared 2-core machine
    a timing assertion fails on the machine's load, not on the client (run this test alone with -s to read it)."""
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    rng = random.Random(21)
    samples: list[float] = []
    games = 0
    while len(samples) < 50:
        create_in_lobby(page, server.url, ["me", "ai:easy"])
        games += 1
        page.evaluate(_MEASURE)
        clicks = Clicks()
        while len(samples) + len(page.evaluate("window.__clicks")) < 50 and wait_turn_or_end(page) == "turn":
            move_by_clicks(page, rng, clicks)
        samples += page.evaluate("window.__clicks")
        assert games < 10
    samples = samples[:50]
    p95 = statistics.quantiles(samples, n=20)[-1]
    print(f"click-to-render over {len(samples)} clicks: median {statistics.median(samples):.1f} ms, "
          f"p95 {p95:.1f} ms, max {max(samples):.1f} ms ({games} games)")
    (artifacts / "click-to-render.json").write_text(
        json.dumps({"samples_ms": samples, "p95_ms": p95, "when": time.strftime("%Y-%m-%dT%H:%M:%S")}) + "\n")
    assert len(samples) == 50 and all(0 < x < 20_000 for x in samples), samples
    print(f"p95 {'within' if p95 <= P95_BUDGET_MS else 'OVER'} the {P95_BUDGET_MS:.0f} ms budget")
    ctx.close()
