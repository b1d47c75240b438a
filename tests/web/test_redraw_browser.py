"""A table drawn again with the same picture (a hint or the rules help arriving) is brought up to date in place: the
components stay the same nodes, so the focus and a click under way survive the redraw (a redraw that replaced
them ate keyboard focus and clicks mid-game). A new picture is a new drawing."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import LAPTOP, Served
from .table import create_in_lobby, seq_of, wait_turn_or_end

KEPT = "() => window.__kept.isConnected && document.activeElement === window.__kept"


def test_a_hint_redraws_the_table_in_place_and_the_focused_component_keeps_the_focus(
        server: Served, browser: Browser) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy"], game="silos")
    assert wait_turn_or_end(page) == "turn"
    page.wait_for_selector("[data-testid=rules] summary:has-text('SILOS')")  # the help's redraw is behind us
    leader = ".table .target[data-key='reserve:leader']"
    page.wait_for_selector(leader)
    seq = seq_of(page)
    page.evaluate("([q]) => { const el = document.querySelector(q); window.__kept = el; el.focus(); }", [leader])
    # the hint is asked without moving the focus (a script's click): its answer draws the same picture again,
    # outlining the suggested component
    page.evaluate("() => document.querySelector('[data-testid=hints] button.hintbtn').click()")
    page.wait_for_selector("[data-testid=hints] ol.hintlist li", timeout=30_000)
    page.wait_for_selector(".table .suggested")
    assert seq_of(page) == seq
    assert page.evaluate(KEPT), "the focused component was replaced by the redraw and lost the focus"
    # a move (a new picture) is a new drawing: the old nodes go
    page.keyboard.press("Enter")
    page.wait_for_selector(".loc.target")
    page.click(".loc.target")
    page.wait_for_function("([s]) => Number(document.querySelector('.table > [data-seq]').dataset.seq) > s", arg=[seq])
    assert not page.evaluate("() => window.__kept.isConnected")
    ctx.close()
