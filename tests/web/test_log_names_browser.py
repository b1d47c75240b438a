"""Every history entry of a player's action names its actor in the browser: 'You' for the player's own seat, the
seat's name otherwise (issue 22), in each of the three games, after a few moves against AI seats."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.sync_api import Browser

from .conftest import LAPTOP, Served
from .table import Clicks, create_in_lobby, move_by_clicks, wait_turn_or_end
from .test_siliconvania_browser import create_sv, sv_move

GAMES = {
    "silencio": (["me", "ai:easy", "ai:easy"], frozenset({"pass", "end", "skip", "use red light"}), {}),
    "silos": (["me", "ai:easy"], frozenset({"stop", "skip", "done", "skill 0 keep", "skill 0 reject",
                                            "power 4 draw three"}), {}),
    "siliconvania": (["me", "ai:easy", "ai:easy"], None, {}),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_history_entry_names_its_actor_you_for_the_player(server: Served, browser: Browser, game: str) -> None:
    seats, no_component, options = GAMES[game]
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    gid = (create_sv(page, server.url, seats) if game == "siliconvania"
           else create_in_lobby(page, server.url, seats, name="Ann", game=game, options=options))
    rng = random.Random(3)
    clicks = Clicks()
    while clicks.moves < 6 and wait_turn_or_end(page, timeout=60_000) == "turn":
        if no_component is None:
            sv_move(page, rng, clicks)
        else:
            move_by_clicks(page, rng, clicks, no_component)
    info = httpx.get(f"{server.url}/api/games/{gid}").json()
    names = [s["name"] for s in info["seats"]]
    me = names.index("Ann")
    page.wait_for_function("() => document.querySelectorAll('ol.history li').length > 0")
    # the spectator's log has the same entries and actors as the seat's (only secret words differ)
    log = httpx.get(f"{server.url}/api/games/{gid}/log").json()["entries"]
    items = page.query_selector_all("ol.history li")
    assert len(items) >= clicks.moves
    checked = 0
    for li in items:
        text = li.inner_text().removesuffix(" ← last move").strip()
        assert "{p" not in text, text  # no raw seat token reaches the page
        entry = log[int(li.get_attribute("data-index") or -1)]
        if entry["seat"] is None:
            continue
        who = "You" if entry["seat"] == me else names[entry["seat"]]
        assert text.startswith((who + " ", who + "'s ", "Your ")) if who == "You" else text.startswith(who), (who, text)
        checked += 1
    assert checked >= clicks.moves, (checked, clicks.moves)
    ctx.close()
