"""The fourth game in Chromium (Playwright, as tests/web): the lobby offers it, its table is the browser's generic
one (the view as text, moves from the action buttons, the help file's words on them), a click on an action lands
the move, and the game is played to its end against an AI seat."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright

from server.proc import Server
from web.conftest import CHROMIUM, LAPTOP, artifacts, built  # noqa: F401  (the browser tests' fixtures)
from web.table import wait_turn_or_end


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for this module only: Playwright's sync API runs an event loop in the thread while it is open, so
    it must close when the module ends (a session-wide one, opened here before tests/loadtest and tests/web,
    would leave that loop running under their `asyncio.run` and their own Playwright)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _view_field(page: object, name: str) -> str:
    """The text of field `name` of the generic table's view."""
    return str(page.inner_text(f".generic > dl > dt:text-is('{name}') + dd"))  # type: ignore[attr-defined]


def test_the_fourth_game_in_the_browsers_generic_table_a_click_lands_a_move(
        built: None, nines_server: Server, browser: Browser, artifacts: Path) -> None:  # noqa: F811
    base = nines_server.url
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/")
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=game]", "nines")
    page.select_option("form.create select[name=players]", "2")
    page.fill("form.create input[name=name]", "Ann")
    page.select_option("form.create select[data-option=hand]", "4")
    page.select_option("form.create select[name=seat0]", "me")
    page.select_option("form.create select[name=seat1]", "ai:easy")
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-testid=created]")
    page.click("text=Open the table")
    page.wait_for_selector(".generic[data-seq]")
    gid = re.search(r"/g/([0-9a-f]+)", page.url)
    assert gid, page.url
    info = httpx.get(f"{base}/api/games/{gid[1]}").json()
    assert info["game"] == "nines" and info["options"] == {"hand": 4}
    # the generic table: the seat's view as text, the seat's own hand only
    assert "Nines" in page.inner_text(".tablehead .gtitle")
    assert "not drawn yet" in page.inner_text(".generic .note")
    hand = [int(c) for c in _view_field(page, "hand").split(", ")]
    assert len(hand) == 4 and _view_field(page, "hand_sizes") == "4, 4"
    assert wait_turn_or_end(page) == "turn"
    buttons = page.query_selector_all(".actions > .buttons button.act")
    assert sorted(b.get_attribute("data-action") or "" for b in buttons) == sorted(f"play {c}" for c in hand)
    assert buttons[0].get_attribute("title") == "Play this card from your hand to the trick."  # help.toml
    page.screenshot(path=str(artifacts / "nines-generic-laptop.png"), full_page=True)
    # a click on an action: the move lands (the server's state, the history, the hand drawn again)
    card = max(hand)
    seq = int(page.get_attribute(".generic", "data-seq") or -1)
    page.click(f".actions > .buttons button.act[data-action='play {card}']")
    page.wait_for_selector(f".history li:text-is('You played {card}')")  # the reader's own move
    page.wait_for_function("([s]) => Number(document.querySelector('.generic').dataset.seq) > s", arg=[seq])
    record_so_far = httpx.get(f"{base}/api/games/{gid[1]}/state").json()
    assert record_so_far["seq"] > seq
    assert str(card) not in _view_field(page, "hand").split(", ")
    # and on to the end, a click each turn
    moves = 1
    while wait_turn_or_end(page, timeout=30_000) == "turn":
        page.click(".actions > .buttons button.act >> nth=0")
        moves += 1
        page.wait_for_function("([n]) => document.querySelectorAll('.history li').length > n",
                               arg=[2 * moves - 1])
        assert moves <= 3
    assert httpx.get(f"{base}/api/games/{gid[1]}").json()["status"] == "over"
    assert "Game over" in page.inner_text(".actions .result")
    record = httpx.get(f"{base}/api/games/{gid[1]}/record").json()
    assert record["actions"][0] == f"play {card}" and len(record["actions"]) == 6
    page.screenshot(path=str(artifacts / "nines-over-laptop.png"), full_page=True)
    assert errors == []
    ctx.close()
