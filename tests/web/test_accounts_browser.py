"""Issue 23's account pages in Chromium: sign up and in, one account on two browser contexts (the seat follows the
account: the second context holds no seat token and plays the seat through its session), my games, settings (the
sessions listed and revoked, the password changed), sign-out, a wrong password refused, a profile and a leaderboard
with a finished rated game, and axe-core finding no serious violation on the new pages."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import LAPTOP, Served
from .table import Clicks, create_in_lobby, move_by_clicks, seq_of, wait_turn_or_end
from .test_a11y_browser import axe_violations, describe

PASSWORD = "correct horse battery"


def context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=LAPTOP, bypass_csp=True)  # bypass_csp: axe-core is injected


def sign(page: Page, base: str, username: str, password: str = PASSWORD, up: bool = False) -> None:
    """Sign up (or in) through the page's form; it lands on my games."""
    page.goto(f"{base}/{'signup' if up else 'signin'}")
    form = f"form[data-testid={'signup' if up else 'signin'}]"
    page.fill(f"{form} input[name=username]", username)
    page.fill(f"{form} input[name=password]", password)
    page.click(f"{form} button[type=submit]")
    page.wait_for_selector("main.mygames")
    assert page.inner_text(".accountbar strong") == username


def test_one_account_on_two_contexts_plays_its_seat_from_both(browser: Browser, server: Served) -> None:
    one, two = context(browser), context(browser)
    a, b = one.new_page(), two.new_page()
    sign(a, server.url, "carol", up=True)
    sign(b, server.url, "carol")
    gid = create_in_lobby(a, server.url, ["me", "ai:easy"], name="Carol", game="silos")
    assert b.evaluate("() => JSON.stringify(localStorage)").find(gid) < 0  # no seat token in the second context
    b.goto(f"{server.url}/account/games")
    row = b.wait_for_selector(f"li.mygame[data-id='{gid}']")
    assert row is not None and "seat 1" in row.inner_text()
    b.click(f"li.mygame[data-id='{gid}'] a")
    assert wait_turn_or_end(b) == "turn"  # the account's seat, played here through the session
    before = seq_of(b)
    move_by_clicks(b, random.Random(5), Clicks())
    a.wait_for_function("([s]) => Number(document.querySelector('.table > [data-seq]')?.dataset.seq) > s",
                        arg=[before], timeout=20_000)  # the first context sees the move made in the second
    one.close()
    two.close()


def test_settings_list_and_revoke_sessions_and_change_the_password(browser: Browser, server: Served) -> None:
    one, two = context(browser), context(browser)
    a, b = one.new_page(), two.new_page()
    sign(a, server.url, "dave", up=True)
    sign(b, server.url, "dave")
    a.goto(f"{server.url}/account")
    a.wait_for_selector("[data-testid=sessions] li")
    rows = a.query_selector_all("[data-testid=sessions] li")
    assert len(rows) == 2 and sum("(this one)" in r.inner_text() for r in rows) == 1
    other = next(r for r in rows if "(this one)" not in r.inner_text())
    button = other.query_selector("button")  # revoke the other context's session
    assert button is not None
    button.click()
    a.wait_for_function("() => document.querySelectorAll('[data-testid=sessions] li').length === 1")
    b.goto(f"{server.url}/account")
    b.wait_for_selector("main.signin-needed")  # the revoked context is signed out
    a.fill("form.password input[name=old_password]", PASSWORD)
    a.fill("form.password input[name=new_password]", "a new long password")
    a.click("form.password button[type=submit]")
    a.wait_for_selector("form.password p:has-text('Changed')")
    a.click(".accountbar button:has-text('Sign out')")
    a.wait_for_selector("form.create")
    assert "Sign in" in a.inner_text(".accountbar")
    a.goto(f"{server.url}/signin")
    a.fill("form[data-testid=signin] input[name=username]", "dave")
    a.fill("form[data-testid=signin] input[name=password]", PASSWORD)  # the old one: refused, said so
    a.click("form[data-testid=signin] button[type=submit]")
    a.wait_for_selector("form[data-testid=signin] .error:has-text('wrong username or password')")
    sign(a, server.url, "dave", "a new long password")
    one.close()
    two.close()


def _finished_rated_game(server: Served) -> str:
    """Two accounts (erin, fred) play a rated two-player SILOS game to its end over the API: its id."""
    rng = random.Random(23)
    clients = {}
    for name in ("erin", "fred"):
        c = httpx.Client(base_url=server.url, headers={"Origin": server.url}, timeout=30)
        me = c.post("/api/account/signup", json={"username": name, "password": PASSWORD}).json()
        c.headers["X-CSRF-Token"] = me["csrf"]
        clients[name] = c
    g = clients["erin"].post("/api/games", json={"game": "silos", "players": 2, "rated": True,
                                                 "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    clients["fred"].post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).raise_for_status()
    for _ in range(2000):
        states = {n: c.get(f"/api/games/{g['id']}/state").json() for n, c in clients.items()}
        if states["erin"]["status"] == "over":
            break
        n, s = next((n, s) for n, s in states.items() if s["owes_decision"])
        clients[n].post(f"/api/games/{g['id']}/actions", json={"action": rng.choice(s["legal"]), "seq": s["seq"]})
    else:
        raise AssertionError("the game did not end")
    for c in clients.values():
        c.close()
    return str(g["id"])


def test_a_profile_and_the_leaderboard_show_a_finished_rated_game(browser: Browser, server: Served) -> None:
    gid = _finished_rated_game(server)
    ctx = context(browser)
    page = ctx.new_page()
    for name in ("erin", "fred"):
        page.goto(f"{server.url}/players/{name}")
        page.wait_for_selector(f"[data-testid=recent] li[data-id='{gid}']")
        rating = page.inner_text("table.ratings tr[data-game=silos] td.rating")
        assert "±" in rating and "ranked by" in rating
        replay = page.get_attribute(f"[data-testid=recent] li[data-id='{gid}'] a:has-text('replay')", "href")
        assert replay == f"/g/{gid}"
    page.goto(f"{server.url}/leaderboard/silos")
    page.wait_for_selector("table.leaderboard tbody tr")
    names = [r.inner_text() for r in page.query_selector_all("table.leaderboard tbody tr td:nth-child(2)")]
    assert sorted(names) == ["erin", "fred"]
    bad = axe_violations(page)
    assert not bad, describe(bad)
    ctx.close()


def test_the_account_pages_have_no_serious_violation(browser: Browser, server: Served) -> None:
    ctx = context(browser)
    page = ctx.new_page()
    for path, ready in (("/signin", "form[data-testid=signin]"), ("/signup", "form[data-testid=signup]")):
        page.goto(f"{server.url}{path}")
        page.wait_for_selector(ready)
        bad = axe_violations(page)
        assert not bad, f"{path}: {describe(bad)}"
    sign(page, server.url, "gina", up=True)
    for path, ready in (("/account/games", "main.mygames"), ("/account", "form.delete"),
                        ("/players/gina", "main.profile h2"), ("/", "form.create label.rated")):
        page.goto(f"{server.url}{path}")
        page.wait_for_selector(ready)
        bad = axe_violations(page)
        assert not bad, f"{path}: {describe(bad)}"
    ctx.close()
