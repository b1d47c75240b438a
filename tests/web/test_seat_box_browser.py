"""The seat's own choices at the table (issue 23), by clicks: leave the game to the AI and take the seat back,
concede a competitive game, keep a guest seat in the account signed in later. Cooperative games offer no concede."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser

from .conftest import Served
from .table import create_in_lobby, two_at_a_table
from .test_accounts_browser import context, sign


def _seat(server: Served, gid: str, seat: int) -> dict[str, object]:
    info = httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()
    return dict(info["seats"][seat]) | {"status": info["status"]}


def test_a_player_leaves_takes_the_seat_back_and_concedes_by_clicks(browser: Browser, server: Served,
                                                                   artifacts: Path) -> None:
    # Ann and Bo (a person, who does not move): once Ann left, the AI plays her turns and the game waits on Bo
    page, bo, ctxs = two_at_a_table(server.url, browser, "silos", 2)
    page.on("dialog", lambda d: d.accept())  # the confirmations of leave and concede
    gid = page.url.split("/g/")[1].split("?")[0].split("#")[0]
    page.wait_for_selector("[data-testid=concede]")  # SILOS is competitive
    page.screenshot(path=str(artifacts / "seatbox-laptop.png"), full_page=True)
    page.click("[data-testid=leave]")
    page.wait_for_selector("[data-testid=takeback]")
    assert "You left" in page.inner_text("[data-testid=seatbox]")
    page.screenshot(path=str(artifacts / "seatbox-left-laptop.png"), full_page=True)
    left = _seat(server, gid, 0)
    assert left["kind"] == "ai" and left["mode"] == "left", left
    page.click("[data-testid=takeback]")
    page.wait_for_selector("[data-testid=leave]")
    back = _seat(server, gid, 0)
    assert back["kind"] == "human" and back["status"] == "playing", back
    page.click("[data-testid=concede]")
    page.wait_for_selector(".actions [data-testid=score]", timeout=20_000)  # two players: over at once
    over = _seat(server, gid, 0)
    assert over["status"] == "over", over
    assert page.query_selector("[data-testid=seatbox]") is None  # nothing left to leave or concede
    bo.wait_for_selector(".actions [data-testid=score]", timeout=20_000)
    assert "Bo wins" in bo.inner_text(".actions"), bo.inner_text(".actions")
    for c in ctxs:
        c.close()


def test_a_cooperative_table_offers_leave_but_no_concede(browser: Browser, server: Served) -> None:
    ctx = context(browser)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy"], game="silencio")
    page.wait_for_selector("[data-testid=leave]")
    page.wait_for_timeout(500)  # the game's meta has been asked and answered
    assert page.query_selector("[data-testid=concede]") is None
    ctx.close()


def test_a_guest_seat_is_kept_in_the_account_signed_in_later(browser: Browser, server: Served) -> None:
    ctx = context(browser)
    page = ctx.new_page()
    gid = create_in_lobby(page, server.url, ["me", "ai:easy"], game="silos")
    assert page.query_selector("[data-testid=attach]") is None  # a guest: no account to keep it in
    table = page.url
    sign(page, server.url, "dora", up=True)
    page.goto(table)
    page.click("[data-testid=attach]")
    page.wait_for_selector("text=kept in your account")
    other = context(browser)  # another device signed in to the account: the seat is there
    second = other.new_page()
    sign(second, server.url, "dora")
    second.goto(f"{server.url}/account/games")
    row = second.wait_for_selector(f"li.mygame[data-id='{gid}']")
    assert row is not None and "seat 1" in row.inner_text()
    ctx.close()
    other.close()
