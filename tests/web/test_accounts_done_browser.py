"""Issue 23's done-test in Chromium: two friends, each signed in on two browser contexts of their own, play a rated
SILOS game with a one-day move clock to its end. Each sets the "your turn" address on the settings page; the game is
made in the lobby's form (rated, a day a move) and the invitation taken on its page; every move is made from one of
the mover's signed-in contexts (the first moves by clicks on the table in a context that holds no seat token, the
rest by the page's own fetch with its session cookie and CSRF token, for speed). The server's clock is advanced by
days (the late seat is moved for) and its process restarted in between; each friend is mailed once per turn at a
local aiosmtpd server; the result shows on both profiles in the browser."""

from __future__ import annotations

import email
import email.policy
import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, Page

from .conftest import LAPTOP, ROOT, _free_port
from .table import Clicks, move_by_clicks, wait_turn_or_end
from .test_silos_browser import NO_COMPONENT

PASSWORD = "correct horse battery"
ADDRESS = {"ann": "ann@example.org", "ben": "ben@example.org"}
DAY = 86_400


class Inbox:
    """An aiosmtpd handler keeping every message it receives (as tests/server/test_accounts_mail.py's)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.addressed: list[str] = []  # each message's To, parsed once (the test asks after every move)
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)
            self.addressed.append(str(message["To"]))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m, to in zip(self.messages, self.addressed, strict=True) if to == address]


class Clocked:
    """tests/web/clocked_server.py as a subprocess: a real server whose clocks and mail the test drives."""

    def __init__(self, tmp: Path, smtp_port: int, host: str = "127.0.0.1") -> None:
        self.port = _free_port()
        self.url = f"http://{host}:{self.port}"  # `localhost` for passkeys: an IP address cannot be a WebAuthn RP
        self.log = tmp / "clocked.log"
        self.settings = {"db": f"sqlite:///{tmp / 'done.sqlite3'}", "ai_workers": 0, "public_url": self.url,
                         "smtp_host": "127.0.0.1", "smtp_port": smtp_port, "mail_interval": 3600, "clock_tick": 1000,
                         "password_memory_kib": 1024, "password_time_cost": 1, "hint_workers": 0,
                         "rate_per_address": 0, "rate_per_token": 0, "games_per_hour": 0, "open_games": 0}
        self.start()

    def start(self) -> None:
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, str(ROOT / "tests" / "web" / "clocked_server.py"), str(self.port),
                 json.dumps(self.settings)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"the clocked server did not start:\n{self.log.read_text()[-3000:]}")

    def ask(self, command: str) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().split()
        assert answer[:1] == ["ok"], (command, answer, self.log.read_text()[-2000:])
        return int(answer[1])

    def restart(self) -> None:
        """Kill the process (no clean shutdown) and start a new one on the same port and database."""
        self.stop(kill=True)
        deadline = time.monotonic() + 20
        while True:  # the port is free again once the old socket is gone
            try:
                self.start()
                return
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            self.proc.wait(20)


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@pytest.fixture
def clocked(built: None, tmp_path: Path, smtp: tuple[Inbox, int]) -> Iterator[Clocked]:
    s = Clocked(tmp_path, smtp[1])
    yield s
    s.stop()


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A request made by the page itself (its cookie; its session's CSRF token on a state-changing one)."""
    got: Any = page.evaluate(
        """async ([method, path, body]) => {
          const headers = {};
          if (method !== 'GET') {
            const me = await (await fetch('/api/account/me')).json();
            headers['X-CSRF-Token'] = me.csrf;
            headers['Content-Type'] = 'application/json';
          }
          const r = await fetch(path, {method, headers, body: body === null ? undefined : JSON.stringify(body)});
          return {status: r.status, body: await r.json()};
        }""", [method, path, body])
    return got


def test_two_friends_play_a_rated_silos_game_over_days_in_the_browser(
        browser: Browser, clocked: Clocked, smtp: tuple[Inbox, int]) -> None:
    inbox, _ = smtp
    base = clocked.url
    pages: dict[str, list[Page]] = {}
    for name in ("ann", "ben"):
        first, second = (browser.new_context(viewport=LAPTOP).new_page() for _ in range(2))
        for i, page in enumerate((first, second)):
            page.goto(f"{base}/{'signin' if i else 'signup'}")
            form = f"form[data-testid={'signin' if i else 'signup'}]"
            page.fill(f"{form} input[name=username]", name)
            page.fill(f"{form} input[name=password]", PASSWORD)
            page.click(f"{form} button[type=submit]")
            page.wait_for_selector("main.mygames")
        second.goto(f"{base}/account")  # the address is set on the settings page of the second context
        second.fill("form.mail input[name=email]", ADDRESS[name])
        second.click("form.mail button[type=submit]")
        second.wait_for_selector(f"form.mail p:has-text('{ADDRESS[name]}')")
        pages[name] = [first, second]

    ann = pages["ann"][0]  # the lobby's form: rated, a day a move, a friend invited
    ann.goto(f"{base}/")
    ann.wait_for_selector("form.create label.rated")
    ann.select_option("form.create select[name=game]", "silos")
    ann.select_option("form.create select[name=players]", "2")
    ann.select_option("form.create select[name=seat0]", "me")
    ann.select_option("form.create select[name=seat1]", "invite")
    ann.select_option("form.create select[name=move_seconds]", str(DAY))
    ann.check("form.create input[name=rated]")
    ann.click("form.create button[type=submit]")
    ann.wait_for_selector("[data-testid=created] input.invite")
    invite = ann.input_value("[data-testid=created] input.invite")
    gid = invite.split("/join/")[1].split("#")[0]
    ben = pages["ben"][0]
    ben.goto(invite)
    ben.click("text=Take my seat")
    ben.wait_for_selector(".silos[data-seq]")
    info = httpx.get(f"{base}/api/games/{gid}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["ann", "ben"]

    clocked.ask("tick")
    listed = api(pages["ben"][1], "GET", "/api/account/games")["body"]
    assert [g["id"] for g in listed] == [gid] and listed[0]["clock"]["move_seconds"] == DAY
    seat_of = {"ann": 0, "ben": 1}
    tables: dict[str, Page] = {}
    for name in ("ann", "ben"):  # the table opened in the context that holds no seat token
        table = pages[name][1]
        table.goto(f"{base}/account/games")
        row = table.wait_for_selector(f"li.mygame[data-id='{gid}']")
        assert row is not None and " left" in row.inner_text()  # the clock left, in my games
        table.click(f"li.mygame[data-id='{gid}'] a")
        table.wait_for_selector(".silos[data-seq]")
        assert table.evaluate("() => JSON.stringify(localStorage)").find(gid) < 0
        tables[name] = table

    rng = random.Random(23)
    clicks = Clicks()
    turns: dict[str, set[int]] = {"ann": set(), "ben": set()}
    timed_out = restarted = clicked = 0
    step = 0
    while True:
        clocked.ask("tick")
        clocked.ask("sweep")
        states = {n: api(pages[n][step % 2], "GET", f"/api/games/{gid}/state")["body"] for n in pages}
        if states["ann"]["status"] == "over":
            break
        for n, s in states.items():
            assert s["seat"] == seat_of[n]  # each context of the account plays the account's seat
            if s["owes_decision"]:
                turns[n].add(s["decision_seq"])
            assert len(inbox.to(ADDRESS[n])) == len(turns[n]), (n, step)  # once per turn, and for each
        mover = next(n for n, s in states.items() if s["owes_decision"])
        step += 1
        if step % 40 == 0:  # nobody moves for two days: the clock moves for the late seat
            assert clocked.ask(f"advance {2 * DAY}") >= 1
            timed_out += 1
            continue
        if step == 70:  # the process restarts; every context keeps its cookie and is signed in still
            clocked.restart()
            restarted += 1
            continue
        if step <= 4 or 71 <= step <= 74:  # by clicks on the table (after the restart: a reconnected page)
            assert wait_turn_or_end(tables[mover]) == "turn"
            move_by_clicks(tables[mover], rng, clicks, NO_COMPONENT)
            clicked += 1
            continue
        s = states[mover]
        r = api(pages[mover][step % 2], "POST", f"/api/games/{gid}/actions",
                {"action": rng.choice(s["legal"]), "seq": s["seq"]})
        assert r["status"] in (200, 409), r  # 409: a stale seq after a time-out: look again
        assert step < 3000, "the game did not end"
    assert timed_out >= 2 and restarted == 1 and clicked == 8
    assert sum(len(t) for t in turns.values()) == len(inbox.messages)
    assert all(turns.values())

    for name in ("ann", "ben"):  # the result on both profiles, in the browser of each
        page = pages[name][1]
        page.goto(f"{base}/players/{name}")
        item = page.wait_for_selector(f"[data-testid=recent] li[data-id='{gid}']")
        assert item is not None and "rated" in item.inner_text()
        assert page.inner_text("table.ratings tr[data-game=silos] td:nth-child(3)") == "1"
    results = {n: httpx.get(f"{base}/api/players/{n}").json()["recent"][0] for n in pages}
    assert sorted(r["place"] for r in results.values()) in ([1, 2], [1, 1])  # places count from 1 (a tie: both 1)
    for name in ("ann", "ben"):  # each profile page says how it ended for that friend
        page = pages[name][1]
        page.goto(f"{base}/players/{name}")
        said = page.inner_text(f"[data-testid=recent] li[data-id='{gid}'] .result")
        assert said == ("won" if results[name]["won"] else f"place {results[name]['place']}")
    page = pages["ben"][0]
    page.goto(f"{base}/account/games")
    page.wait_for_selector(f"li.mygame[data-id='{gid}'] .status:has-text('over')")
