"""The guided first game in Chromium (issue 22): the lobby's "Learn to play Silencio" starts it, the lesson box
says each step, a move other than the step's is explained and not made, and the whole game is played to its end
and its scoring from the keyboard alone (Tab to a component or button, Enter), the other seat played by the
tutorial. SILOS and SiliconVania's lessons start and take their first step from the keyboard."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .conftest import LAPTOP, Served
from .table import seq_of

KEYBOARD_ONLY = {"end", "skip", "pass", "use red light"}


def silencio_path(action: str) -> list[str]:
    """The component keys to press for a Silencio action (web/src/games/silencio.ts's paths), or the button."""
    w = action.split()
    if action in KEYBOARD_ONLY or w[0] == "use":
        return [f"button.act[data-action='{action}']"]
    if w[0] in ("play", "place", "return", "give"):
        return [f"[data-key='card:{w[1]}']"]
    if w[0] == "shrine":
        if w[1] == "large":
            return ["[data-key='shrine:large']", f"[data-key='row:{w[2]}']"]
        return [f"[data-key='shrine:{w[1]}']"]
    if w[0] == "take":
        return [f"[data-key='rowcard:{w[1]}']"]
    if w[0] == "swap":
        return [f"[data-key='oracle:{w[1]}']", f"[data-key='card:{w[3]}']"]
    if w[0] == "oracle":
        return [f"[data-key='oracle:{w[1]}']", f"[data-key='player:{w[3][1:]}']"]
    raise AssertionError(f"no path for {action}")


def tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Press Tab until the focused element matches `selector`, then Enter: how a keyboard user reaches it."""
    page.wait_for_selector(selector)
    for _ in range(limit):
        if page.evaluate("([q]) => document.activeElement?.matches(q) ?? false", [selector]):
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is not reachable with Tab")


def start(page: Page, server: Served, game: str) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"button[data-tutorial={game}]")
    assert page.inner_text(f"button[data-tutorial={game}]").startswith("Learn to play")
    page.locator("body").focus()
    tab_to(page, f"button[data-tutorial={game}]")
    page.wait_for_selector("[data-testid=tutorial] .step p.move code", timeout=20_000)


def expected(page: Page) -> str:
    return page.inner_text("[data-testid=tutorial] .step p.move code").strip()


def test_the_silencio_tutorial_is_played_to_its_end_from_the_keyboard(browser: Browser, server: Served) -> None:
    page = browser.new_page(viewport=LAPTOP)
    start(page, server, "silencio")
    assert "in silence" in page.inner_text("[data-testid=tutorial] .intro")
    assert expected(page) == "give y8"
    # a legal move that is not the lesson's is explained, and nothing is sent
    before = seq_of(page)
    tab_to(page, "[data-key='card:r2']")
    page.wait_for_selector("[data-testid=tutorial] .wrong")
    assert "Not this one" in page.inner_text("[data-testid=tutorial] .wrong")
    assert seq_of(page) == before and expected(page) == "give y8"
    # the rules help the step points to opens at its section
    page.click("[data-testid=tutorial] button:has-text('Rules:')")
    assert page.get_attribute("details.rules", "open") is not None
    # "Show me" rings the move's pieces and gives the first the focus
    page.click("[data-testid=tutorial] button:has-text('Show me')")
    assert page.query_selector_all(".table .tutor-hint") and page.evaluate(
        "() => document.activeElement.dataset.key") == "card:y8"
    steps = 0
    while page.query_selector("[data-testid=tutorial] .step p.move code"):
        action = expected(page)
        progress = page.inner_text("[data-testid=tutorial] .progress")
        for sel in silencio_path(action):
            tab_to(page, sel if sel.startswith("button") else f".table {sel}.target")
        page.wait_for_function(
            "([p]) => { const e = document.querySelector('[data-testid=tutorial] .progress');"
            " return e && e.textContent !== p; }", arg=[progress], timeout=20_000)
        err = page.query_selector("[data-testid=tutorial] .wrong")
        assert err is None, err.inner_text() if err else ""
        steps += 1
        assert steps < 40
    page.wait_for_selector("[data-testid=tutorial] .step.end")
    assert "two cards" in page.inner_text("[data-testid=tutorial] .step.end")
    page.wait_for_selector(".actions .result")
    assert steps == 16


def test_the_other_tutorials_start_and_take_a_step(browser: Browser, server: Served) -> None:
    page = browser.new_page(viewport=LAPTOP)
    for game, first in [("silos", "place leader 5"), ("siliconvania", "bid 1 s22")]:
        start(page, server, game)
        assert expected(page) == first
        progress = page.inner_text("[data-testid=tutorial] .progress")
        tab_to(page, "[data-testid=tutorial-play]")  # "Play it for me", from the keyboard
        page.wait_for_function(
            "([p]) => { const e = document.querySelector('[data-testid=tutorial] .progress');"
            " return e && e.textContent !== p; }", arg=[progress], timeout=20_000)
        assert expected(page) != first
