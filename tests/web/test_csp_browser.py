"""The client under its Content-Security-Policy (no inline script or style, requests and sockets to its own origin
only): Chromium reports no violation while the lobby, a table of each game and a few moves by clicking load and play,
and the socket (ws: to the same origin, allowed by `connect-src 'self'`) carries the game."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import LAPTOP, Served
from .table import Clicks, create_in_lobby, move_by_clicks, seq_of, wait_turn_or_end
from .test_siliconvania_browser import create_sv

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
});
"""


def watch(page: Page) -> list[str]:
    """CSP complaints on the console (the events are read with `violations`)."""
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(LISTEN)
    return console


def violations(page: Page) -> list[Any]:
    found: list[Any] = page.evaluate("window.__csp")
    return found


@pytest.mark.parametrize("game", ["silencio", "silos", "siliconvania"])
def test_no_csp_violation_while_a_table_loads_and_plays(server: Served, browser: Browser, game: str) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    console = watch(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    seats = ["me", "ai:easy"] if game != "silencio" else ["me", "ai:easy", "ai:easy"]
    gid = (create_sv(page, server.url, seats) if game == "siliconvania"  # its table's class is "sv"
           else create_in_lobby(page, server.url, seats, game=game))
    headers = httpx.get(f"{server.url}/g/{gid}").headers
    assert "script-src 'self';" in headers["content-security-policy"]
    rng = random.Random(3)
    clicks = Clicks()
    while clicks.moves < 3 and wait_turn_or_end(page) == "turn":
        move_by_clicks(page, rng, clicks)
    assert clicks.moves >= 1 and seq_of(page) >= 1
    page.wait_for_timeout(300)
    assert violations(page) == [] and console == [] and errors == []
    assert any(u.startswith(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws") for u in sockets), sockets
    # and the watch would see one: an inline script is refused and reported
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
                  " document.body.appendChild(s); }")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__ran") is None
    assert any("script-src" in v for v in violations(page)), violations(page)
    ctx.close()
