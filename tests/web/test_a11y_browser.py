"""Accessibility in Chromium (issue 22): axe-core (web/node_modules/axe-core, pinned in web/package.json) finds no
serious or critical violation on the lobby, on each game's table (at a decision of the player, at the laptop and
the phone size), on a tutorial's table and on a finished table; a whole game is played from the keyboard alone."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import LAPTOP, PHONE, ROOT, Served
from .table import create_in_lobby, seq_of, wait_actionable, wait_turn_or_end
from .test_siliconvania_browser import create_sv

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe-core finds on the page as it is now (WCAG 2 A and AA rules)."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is not installed at {AXE}: run scripts/setup (npm ci in web/)", pytrace=False)
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a',"
        " 'wcag21aa', 'best-practice']}, resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def axe_page(browser: Browser, size: dict[str, int]) -> Page:
    """A page whose Content Security Policy lets the test inject axe-core (the served page allows only its own
    scripts, as it should)."""
    return browser.new_context(viewport=size, bypass_csp=True).new_page()


def open_table(page: Page, base: str, game: str, seats: list[str]) -> None:
    if game == "siliconvania":
        create_sv(page, base, seats)
    else:
        create_in_lobby(page, base, seats, game=game)


def describe(violations: list[dict[str, Any]]) -> str:
    """Each violation and its distinct failures (one example element each)."""
    lines = []
    for v in violations:
        seen: dict[str, str] = {}
        for n in v["nodes"]:
            why = " ".join(n.get("failureSummary", "").split())[-150:]
            seen.setdefault(why, n["target"][0])
        lines += [f"{v['id']} ({v['impact']}): {v['help']}"] + [f"  {t}: {w}" for w, t in seen.items()]
    return "\n".join(lines)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_lobby_has_no_serious_violation(browser: Browser, server: Served, size: dict[str, int]) -> None:
    page = axe_page(browser, size)
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create")
    page.wait_for_selector("section.learn")
    bad = axe_violations(page)
    assert not bad, describe(bad)


SEATS = {"silencio": ["me", "ai:easy"], "silos": ["me", "ai:easy"], "siliconvania": ["me", "ai:easy"]}


@pytest.mark.parametrize("game", sorted(SEATS))
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_each_table_has_no_serious_violation(browser: Browser, server: Served, game: str, size: dict[str, int]) -> None:
    page = axe_page(browser, size)
    open_table(page, server.url, game, SEATS[game])
    assert wait_turn_or_end(page) == "turn"
    wait_actionable(page)
    page.wait_for_selector(".historybox")
    bad = axe_violations(page)
    assert not bad, describe(bad)


def test_a_tutorial_table_has_no_serious_violation(browser: Browser, server: Served) -> None:
    page = axe_page(browser, LAPTOP)
    page.goto(f"{server.url}/")
    page.click("button[data-tutorial=silencio]")
    page.wait_for_selector("[data-testid=tutorial] .step")
    bad = axe_violations(page)
    assert not bad, describe(bad)


def test_focus_is_visible_on_table_components(browser: Browser, server: Served) -> None:
    page = browser.new_page(viewport=LAPTOP)
    create_in_lobby(page, server.url, SEATS["silencio"], game="silencio")
    wait_actionable(page)
    page.focus(".table .target")
    style = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                          " return [s.outlineStyle, s.outlineWidth, s.boxShadow]; }")
    assert (style[0] != "none" and style[1] != "0px") or style[2] != "none", style
    assert page.evaluate("() => document.activeElement.getAttribute('role')") == "button"
    name = page.evaluate("() => document.activeElement.getAttribute('aria-label') || document.activeElement.title")
    assert name and any(c in name for c in ("red", "blue", "yellow", "green", "shrine")), name


def keyboard_move(page: Page, rng: random.Random) -> None:
    """One move from the keyboard alone: Tab through the page until a lit component or an action button has the
    focus (a random number of stops along), Enter, and follow a move of several components the same way."""
    wait_actionable(page)
    before = seq_of(page)
    for _ in range(4):
        stops = page.evaluate("() => document.querySelectorAll("
                              "'.table .target, .actions > .buttons button.act').length")
        want = rng.randrange(max(1, stops))
        seen = 0
        for _ in range(400):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement?.matches('.table .target, .actions > .buttons button.act')"):
                if seen == want:
                    break
                seen += 1
        else:
            raise AssertionError("no component reachable with Tab")
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)
        if not page.query_selector(".table .selected"):
            break
    page.wait_for_function(
        "([s]) => { const t = document.querySelector('.table > [data-seq]');"
        " return (t && Number(t.dataset.seq) > s) || document.querySelector('.actions .result'); }",
        arg=[before], timeout=20_000)


def test_a_whole_game_is_played_from_the_keyboard_alone(browser: Browser, server: Served) -> None:
    page = axe_page(browser, LAPTOP)
    create_in_lobby(page, server.url, ["me", "ai:easy"], game="silencio")
    rng = random.Random(7)
    moves = 0
    while wait_turn_or_end(page) == "turn":
        keyboard_move(page, rng)
        moves += 1
        assert moves < 60, "the game did not end"
    assert page.query_selector(".actions .result")
    assert moves >= 3
    bad = axe_violations(page)  # the finished table too
    assert not bad, describe(bad)


@pytest.mark.parametrize("path", ["/signin", "/signup"])
def test_the_account_forms_have_no_serious_violation(browser: Browser, server: Served, path: str) -> None:
    """The guest's account pages (issue 23); the signed-in ones are checked in test_accounts_browser.py."""
    page = axe_page(browser, PHONE)
    page.goto(f"{server.url}{path}")
    page.wait_for_selector("form.account")
    bad = axe_violations(page)
    assert not bad, describe(bad)
