"""Driving the browser client like a person: the lobby form, clicks on highlighted table components."""

from __future__ import annotations

import random
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, ElementHandle, Page
from playwright.sync_api import Error as PlaywrightError

from .conftest import LAPTOP, PHONE

NO_COMPONENT = {"pass", "end", "skip", "use red light"}
"""Silencio's actions that concern no component on the table: the only ones made from the fallback buttons."""


TABLE_CLASS = {"siliconvania": "sv"}
"""The class of a game's table element where it is not the game's name."""


def two_at_a_table(base: str, browser: Browser, game: str, players: int, third: str | None = None,
                   shots: Path | None = None) -> tuple[Page, Page, list[BrowserContext]]:
    """Ann (seat 0, a laptop) creates a `game` table in the lobby with Bo (seat 1, a phone) invited and `third`
    (e.g. "ai:easy") at seat 2; Bo opens the invite link and takes the seat; both are at the table. `shots`: the
    folder for screenshots of the created game (Ann) and of the join page (Bo)."""
    table = TABLE_CLASS.get(game, game)
    ann_ctx, bo_ctx = browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)
    ann, bo = ann_ctx.new_page(), bo_ctx.new_page()
    ann.goto(f"{base}/")
    ann.wait_for_selector("form.create")
    ann.select_option("form.create select[name=game]", game)
    ann.select_option("form.create select[name=players]", str(players))
    ann.fill("form.create input[name=name]", "Ann")
    ann.select_option("form.create select[name=seat1]", "invite")
    if third is not None:
        ann.select_option("form.create select[name=seat2]", third)
    ann.click("form.create button[type=submit]")
    ann.wait_for_selector("[data-testid=created] input.invite")
    if shots is not None:
        ann.screenshot(path=str(shots / "lobby-created-laptop.png"), full_page=True)
    link = ann.input_value("[data-testid=created] input.invite")
    assert "/join/" in link and "#" in link, link
    bo.goto(link)
    bo.wait_for_selector("text=Take my seat")
    if shots is not None:
        bo.screenshot(path=str(shots / "join-phone.png"), full_page=True)
    bo.fill(".join input", "Bo")
    bo.click("text=Take my seat")
    bo.wait_for_selector(f".{table}[data-seq]")
    ann.click("text=Open the table")
    ann.wait_for_selector(f".{table}[data-seq]")
    # the table is drawn again as its game's meta and help arrive: a click landing while it is redrawn can miss
    # (a chat line typed at once was then never sent, one run in three); start once both pages are settled
    ann.wait_for_load_state("networkidle")
    bo.wait_for_load_state("networkidle")
    return ann, bo, [ann_ctx, bo_ctx]


def create_in_lobby(page: Page, base: str, seats: list[str], name: str = "Ann",
                    options: dict[str, str] | None = None, game: str = "silencio",
                    multi: dict[str, list[str]] | None = None) -> str:
    """Fill the lobby's form (the game, one seat choice per seat, options; `multi`: the boxes to tick of each
    multiple-choice option) and open the table: the game's id."""
    page.goto(f"{base}/")
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=game]", game)
    page.select_option("form.create select[name=players]", str(len(seats)))
    page.fill("form.create input[name=name]", name)
    for k, v in (options or {}).items():
        page.select_option(f"form.create select[data-option={k}]", v)
    for k, values in (multi or {}).items():
        for v in values:
            page.check(f"form.create [data-multi={k}] input[value='{v}']")
    for i, choice in enumerate(seats):
        page.select_option(f"form.create select[name=seat{i}]", choice)
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-testid=created]")
    page.click("text=Open the table")
    page.wait_for_selector(f".{game}[data-seq]")
    m = re.search(r"/g/([0-9a-f]+)", page.url)
    assert m, page.url
    return m.group(1)


def seq_of(page: Page) -> int:
    return int(page.get_attribute(".table > [data-seq]", "data-seq") or -1)


@dataclass
class Clicks:
    component: int = 0
    fallback: list[str] = field(default_factory=list)
    moves: int = 0
    stalls: list[str] = field(default_factory=list)
    """Moves whose clicks made nothing happen (no move sent, no new picture, no error): what the page showed each
    time. A person clicks again; `move_by_clicks` lets its caller try again, at most `MAX_STALLS` times a game."""


MAX_STALLS = 2


def wait_turn_or_end(page: Page, timeout: float = 60_000) -> str:
    """'turn' when this seat must decide, 'over' when the game ended."""
    page.wait_for_selector(".tablehead .turn.mine, .actions .result", timeout=timeout)
    return "over" if page.query_selector(".actions .result") else "turn"



ACTIONABLE = ".table .target, .actions > .buttons button.act:not(:disabled)"

IDLE = "document.querySelector('main.table')?.getAttribute('aria-busy') !== 'true'"
"""No move or undo of this seat on its way (the table's aria-busy): the picture drawn is one to act from."""


def wait_actionable(page: Page, timeout: float = 15_000) -> None:
    """Wait until the page offers something to do: no move of this seat on its way, and a target or a button to
    click. The turn line can be drawn a frame before the table's targets (a socket message redraws the header and
    the table in turn), and stays while a move is on its way (the table then has no targets, its buttons are
    disabled). Never met within `timeout`: the test fails."""
    page.wait_for_function(f"([q]) => {IDLE} && document.querySelector(q) !== null", arg=[ACTIONABLE],
                           timeout=timeout)

SETTLE = """(e) => Promise.all(document.getAnimations()
  .filter((a) => a.playState === 'running' && (a.effect === null || a.effect.getComputedTiming().endTime !== Infinity))
  .map((a) => a.finished.catch(() => null)))"""
"""Wait until no finite animation runs (the table's motion of the last move has played out; an endless one, a pulse,
does not count): a person aims at a component once it is still. A click on a moving component can land beside it,
on the table itself, and make nothing happen (seen in a fresh-clone run of .ci/run: in a SILOS "place the drawn
humans" step the click reached a DIV of the table beside the drawn human)."""


def _click(el: ElementHandle) -> bool:
    """Click a table target once the table's motion has settled; False if it left the page first (a redraw), which
    a person would not notice."""
    try:
        el.evaluate(SETTLE)
    except PlaywrightError as e:  # the element left the page meanwhile
        if "not attached" not in str(e) and "Execution context was destroyed" not in str(e):
            raise
        return False
    try:
        el.click(position={"x": 6, "y": 6})
    except PlaywrightError as e:
        if "not attached" not in str(e):
            raise
        return False
    return True


def click_a_target(page: Page, rng: random.Random, targets: list[ElementHandle]) -> None:
    """Click one of `targets` at random; if the table was redrawn between query and click (a socket message of the
    same seq), click one of the fresh table's targets instead."""
    if not _click(targets[rng.randrange(len(targets))]):
        wait_actionable(page)
        fresh = page.query_selector_all(".table .target")
        fresh[rng.randrange(len(fresh))].click(position={"x": 6, "y": 6})


CLICK_LOG = """() => { if (window.__clickLog) return; window.__clickLog = [];
  document.addEventListener('click', (e) => {
    const t = e.target instanceof Element ? e.target.closest('[data-key]') : null;
    const d = document.querySelector('.table > [data-seq]');
    window.__clickLog.push([Math.round(performance.now()), t ? t.dataset.key : String(e.target && e.target.nodeName),
                            d ? d.dataset.seq : null]); }, true); }"""
"""Installed by `move_by_clicks`: every click the page received (time, the component's key, the drawn seq), for the
message of a move that made no new picture."""


def _new_picture(page: Page, before: int, timeout: float) -> bool:
    """Wait for a picture newer than seq `before` with no move of this seat on its way (or an error line); False if
    none came within `timeout` ms. A newer seq alone does not say the move was made: in a simultaneous step (a
    SiliconVania bid) the other seats' decisions advance it while this seat's clicks and move are under way."""
    try:
        page.wait_for_function(
            "([s]) => { const t = document.querySelector('.table > [data-seq]');"
            f" return (t && Number(t.dataset.seq) > s && {IDLE})"
            " || document.querySelector('.actions .error:not(:empty)'); }",
            arg=[before], timeout=timeout)
    except PlaywrightError as e:
        if "Timeout" not in str(e):
            raise
        return False
    return True


def what_the_page_shows(page: Page, before: int) -> dict[str, Any]:
    """What a test failing on a move that made no new picture needs: the drawn seq against the one before the move,
    the turn line, the targets and selection, the busy mark, the error line and the page's last clicks."""
    got = page.evaluate("""() => { const d = document.querySelector('.table > [data-seq]');
      const q = (s) => Array.from(document.querySelectorAll(s)).map((x) => x.dataset.key || x.textContent.trim());
      return { seq: d ? d.dataset.seq : null, busy: document.querySelector('main.table')?.getAttribute('aria-busy'),
        turn: document.querySelector('.tablehead .turn')?.textContent, targets: q('.table .target').slice(0, 12),
        selected: q('.table .selected'), buttons: q('.actions > .buttons button.act'),
        error: document.querySelector('.actions .error')?.textContent ?? null,
        clicks: (window.__clickLog || []).slice(-8), now: Math.round(performance.now()) }; }""")
    return {"seq_before": before, **got}


def move_by_clicks(page: Page, rng: random.Random, clicks: Clicks,
                   no_component: set[str] | frozenset[str] = frozenset(NO_COMPONENT)) -> None:
    """Make one move: a random legal target on the table (following multi-click moves), or one of the fallback
    buttons, which offer only actions that concern no component."""
    page.evaluate(CLICK_LOG)
    wait_actionable(page)
    before = seq_of(page)
    fallback = [b.get_attribute("data-action") or "" for b in page.query_selector_all(".actions > .buttons button.act")]
    assert set(fallback) <= no_component, f"a component action is offered only as a button: {fallback}"
    targets = page.query_selector_all(".table .target")
    choice = rng.randrange(len(targets) + len(fallback))
    if choice >= len(targets):
        action = fallback[choice - len(targets)]
        page.click(f".actions > .buttons button.act[data-action='{action}']")
        clicks.fallback.append(action)
    else:
        for _ in range(4):
            click_a_target(page, rng, targets)
            clicks.component += 1
            if not page.query_selector(".table .selected"):
                break
            targets = page.query_selector_all(".table .target")
            assert targets, "a selection with nothing to click next"
        else:
            raise AssertionError("a move of more than four clicks")
    moved(page, before, clicks)


def moved(page: Page, before: int, clicks: Clicks, timeout: float = 20_000) -> bool:
    """After a move's last click: wait for the picture past seq `before`, and count the move. False when the clicks
    made nothing happen (no move on its way, no new picture, no error) within `timeout` ms: said as a warning, kept
    in `clicks.stalls` (at most `MAX_STALLS` a game) for the caller to try again. A move on its way (the table's
    aria-busy) gets 60 s more: the server is slow on a loaded machine. An error line fails the test."""
    if not _new_picture(page, before, timeout):
        shown = what_the_page_shows(page, before)
        if shown["busy"] != "true":
            clicks.stalls.append(f"seq {before}: {shown}")
            warnings.warn(f"clicks made no move (tried again): {shown}", stacklevel=2)  # in the run's summary
            assert len(clicks.stalls) <= MAX_STALLS, f"clicks made no move {len(clicks.stalls)} times: {clicks.stalls}"
            return False
        if not _new_picture(page, before, 60_000):
            raise AssertionError(f"a move sent made no new picture in {timeout / 1000 + 60:.0f} s: {shown}")
    clicks.moves += 1
    err = page.query_selector(".actions .error")
    assert err is None or not err.inner_text().strip(), err.inner_text() if err else ""
    return True


def play_to_end(page: Page, rng: random.Random, max_moves: int = 400) -> Clicks:
    clicks = Clicks()
    while wait_turn_or_end(page) == "turn":
        move_by_clicks(page, rng, clicks)
        assert clicks.moves < max_moves, "the game did not end"
    return clicks
