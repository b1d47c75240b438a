"""A person plays SILOS in Chromium against AI seats by clicking the town map, the cards and the humans."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
from playwright.sync_api import Browser

from .conftest import LAPTOP, PHONE, Served
from .table import Clicks, create_in_lobby, move_by_clicks, wait_turn_or_end

NO_COMPONENT = frozenset({"stop", "skip", "done", "skill 0 keep", "skill 0 reject", "power 4 draw three"})
"""SILOS actions that concern no single component on the table: the only ones made from the fallback buttons."""


def test_a_person_plays_silos_with_every_module_against_two_easy_ai_to_the_end_by_clicking_the_table(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gid = create_in_lobby(page, server.url, ["me", "ai:easy", "ai:easy"], game="silos",
                          options={"emblem_target": "4", "crop_circles": "6", "skill_tiles": "true"},
                          multi={"alternate_tiles": ["2", "4", "5"]})
    info = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert info["options"]["alternate_tiles"] == [2, 4, 5] and info["options"]["crop_circles"] == 6
    # the map: seven locations, the streets of the view, the alternate tiles and the crop circles tile marked
    view = httpx.get(f"{server.url}/api/games/{gid}/state").json()["view"]
    assert len(page.query_selector_all(".silos .loc")) == 7
    assert len(page.query_selector_all(".silos svg.streets line")) == len(view["streets"])
    assert page.inner_text(".loc[data-loc='4'] .lnum") == "4*"
    assert "crop" in page.inner_text(".loc[data-loc='6'] .lhead")
    rng = random.Random(7)
    clicks = Clicks()
    shots = {2: "silos-positioning", 20: "silos-midgame"}
    while wait_turn_or_end(page, timeout=120_000) == "turn":
        move_by_clicks(page, rng, clicks, NO_COMPONENT)
        if clicks.moves in shots:
            name = shots[clicks.moves]
            page.screenshot(path=str(artifacts / f"{name}-laptop.png"), full_page=True)
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
            page.set_viewport_size(LAPTOP)
        assert clicks.moves < 600, "the game did not end"
    page.screenshot(path=str(artifacts / "silos-over-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "silos-over-phone.png"), full_page=True)
    assert httpx.get(f"{server.url}/api/games/{gid}").json()["status"] == "over"
    final = httpx.get(f"{server.url}/api/games/{gid}/state").json()["view"]
    result = page.inner_text(".actions .result")
    for p in final["winners"]:
        assert info["seats"][p]["name"].split(" ")[0] in result
    assert clicks.component > clicks.moves // 2, clicks  # most moves were clicks on the table
    assert errors == []
    ctx.close()


def test_the_help_panel_opens_with_the_rules_and_each_move_is_explained(server: Served, browser: Browser,
                                                                          artifacts: Path) -> None:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy"], game="silos")
    help_data = httpx.get(f"{server.url}/api/meta/games/silos/help").json()
    page.wait_for_selector("[data-testid=rules] summary:has-text('SILOS')")
    page.click("[data-testid=rules] summary")
    rules = page.inner_text("[data-testid=rules]")
    for r in help_data["rules"]:
        assert r["title"] in rules and r["text"][:40] in rules
    assert wait_turn_or_end(page) == "turn"
    # initial positioning: the move panel says what placing does; after picking the leader, each highlighted
    # location's tooltip says what clicking it does, and every location's tooltip explains its power
    assert help_data["actions"]["place leader"] in page.inner_text("[data-testid=explain]")
    page.click(".table .target[data-key='reserve:leader']")
    page.wait_for_selector(".loc.target")
    assert help_data["actions"]["place leader"] in (page.get_attribute(".loc.target", "title") or "")
    assert help_data["actions"]["place figure"] not in page.inner_text("[data-testid=explain]")
    for loc in range(7):
        tip = page.get_attribute(f".loc[data-loc='{loc}']", "title") or ""
        assert any(t in tip for t in help_data["terms"].values()), tip
    page.screenshot(path=str(artifacts / "silos-help-phone.png"), full_page=True)
    ctx.close()
