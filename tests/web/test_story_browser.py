"""The table tells the story (issue 22), in Chromium: other seats' moves paced one at a time (with the switch), the
last move marked on the table and in the history, the summary since the player's last turn, the call to act in the
tab's title and favicon, undo clearing the history at once, the end screen of each game (SiliconVania's played to
its end with AI seats) and the rematch of two people and an AI."""

from __future__ import annotations

import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from .conftest import LAPTOP, PHONE, Served
from .table import Clicks, create_in_lobby, move_by_clicks, two_at_a_table, wait_turn_or_end

RECORD = """() => {
  window.__shown = [];
  window.__clicks = [];
  document.addEventListener('click', () => window.__clicks.push(performance.now()), true);
  const note = () => {
    const t = document.querySelector('.table > [data-seq]');
    if (!t) return;
    const seq = Number(t.dataset.seq);
    const last = window.__shown[window.__shown.length - 1];
    if (last && last.seq === seq) return;
    window.__shown.push({ seq, at: performance.now(), title: document.title,
      mine: !!document.querySelector('.tablehead .turn.mine'),
      icon: document.querySelector('link[rel~=icon]')?.dataset.turn ?? '',
      history: document.querySelectorAll('ol.history li').length });
  };
  new MutationObserver(note).observe(document.querySelector('main.table'), { childList: true });
  note();
}"""
"""Record each picture the table shows: its seq, when, the tab's title and favicon, the turn, the history's length."""


def held_token(page: Page, gid: str) -> tuple[int, str]:
    """The seat and token this browser keeps for game `gid` (its local storage)."""
    seats = json.loads(page.evaluate("localStorage.getItem('tabletop.seats.v1')") or "[]")
    mine = [s for s in seats if s["id"] == gid]
    assert mine, seats
    return int(mine[0]["seat"]), str(mine[0]["token"])


def api_table(server: Served, browser: Browser, game: str, seats: list[dict[str, Any]],
              **extra: Any) -> tuple[Page, str, str]:
    """A game made over the API with this browser holding the creator's seat (seat 0), its table open: the page,
    the game's id and the seat's token."""
    with httpx.Client(base_url=server.url) as c:
        r = c.post("/api/games", json={"game": game, "players": len(seats), "creator_name": "Ann", "seats": seats,
                                       **extra})
        assert r.status_code == 201, r.text
        g = r.json()
    held = {"id": g["id"], "game": game, "title": g["info"]["title"], "seat": 0, "token": g["token"], "added": 1}
    ctx = browser.new_context(viewport=LAPTOP)
    ctx.add_init_script(f"localStorage.setItem('tabletop.seats.v1', JSON.stringify([{json.dumps(held)}]))")
    page = ctx.new_page()
    page.goto(f"{server.url}/g/{g['id']}")
    page.wait_for_selector(".table > [data-seq]")
    return page, g["id"], g["token"]


def play_over_rest(base: str, gid: str, tokens: list[str], rng: random.Random, limit: float = 240) -> dict[str, Any]:
    """The people at `tokens` play random legal moves over REST (the AI seats play themselves) until the game is
    over: the last state of the first token's seat."""
    deadline = time.monotonic() + limit
    n = 0
    with httpx.Client(base_url=base, timeout=30) as c:
        while True:
            moved = False
            for t in tokens:
                s = c.get(f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {t}"}).json()
                if s["status"] == "over":
                    first = c.get(f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {tokens[0]}"})
                    return dict(first.json())
                if s["legal"] and s.get("owes_decision", True):
                    r = c.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {t}"},
                               json={"action": rng.choice(s["legal"]), "seq": s["seq"], "client_action_id": f"r{n}"})
                    assert r.status_code in (200, 409), r.text
                    n += 1
                    moved = True
            if not moved:
                time.sleep(0.02)
            assert time.monotonic() < deadline, "the game did not end in time"


def test_ai_moves_are_paced_one_at_a_time_marked_as_the_last_move_and_summed_up_at_my_turn(
        server: Served, browser: Browser, artifacts: Path) -> None:
    pace = 1200
    ctx = browser.new_context(viewport=LAPTOP)
    ctx.add_init_script(f"localStorage.setItem('tabletop.pace', '{pace}')")  # the switch: tests are instant otherwise
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_in_lobby(page, server.url, ["me", "ai:easy", "ai:easy"])
    assert page.input_value("[data-testid=pace]") == str(pace)
    page.evaluate(RECORD)
    rng = random.Random(4)
    clicks = Clicks()
    marked = summed = 0
    for _ in range(6):
        if wait_turn_or_end(page) == "over":
            break
        if page.query_selector("ol.history li"):
            # the last move is marked in the history (its newest entries) and, where it moved something, on the table
            last = page.query_selector_all("ol.history li.last")
            every = page.query_selector_all("ol.history li")
            assert last and last[-1].get_attribute("data-index") == every[-1].get_attribute("data-index")
            marked += len(page.query_selector_all(".table .lastmove")) > 0
            since = [li.inner_text() for li in page.query_selector_all("[data-testid=since] li")]
            if since:  # what the others did since my last decision: the newest entries of the history
                summed += 1
                assert since == [li.inner_text().removesuffix(" ← last move") for li in every[-len(since):]] or all(
                    any(t in li.inner_text() for li in every) for t in since), since
            if marked == 1:
                page.screenshot(path=str(artifacts / "story-last-move-laptop.png"), full_page=True)
        move_by_clicks(page, rng, clicks)
    wait_turn_or_end(page)
    shown: list[dict[str, Any]] = page.evaluate("window.__shown")
    assert marked >= 1, "an AI's move was marked on the table"
    assert summed >= 1, "a summary since my last turn"
    # each AI move was its own picture, shown at least the pause after the one before (the player's own at once)
    ai = [(a, b) for a, b in itertools.pairwise(shown) if not a["mine"] and b["history"] > a["history"]]
    assert len(ai) >= 2, shown
    # after the player's own move the pause counts from the click (its own picture lands a moment later, with the
    # server's answer: on a loaded machine a third of the pause), otherwise from the picture before
    clicked: list[float] = page.evaluate("window.__clicks")
    gaps: list[float] = []
    for i in range(1, len(shown)):
        a, b = shown[i - 1], shown[i]
        if a["mine"] or b["history"] <= a["history"]:
            continue
        since = a["at"]
        if i >= 2 and shown[i - 2]["mine"]:  # `a` is the picture of the player's own move
            since = max((t for t in clicked if t <= a["at"]), default=a["at"])
        gaps.append(b["at"] - since)
    assert min(gaps) >= pace * 0.75, gaps
    # the call to act: the title and the favicon say whose turn it is, in every picture
    for s in shown:
        assert s["title"].startswith("● Your turn") == s["mine"], s
        assert s["icon"] == ("mine" if s["mine"] else "other"), s
    print(f"paced AI pictures: {len(gaps)}, gaps ms min {min(gaps):.0f} max {max(gaps):.0f} (pace {pace})")
    assert errors == []
    ctx.close()


def test_the_pause_is_a_setting_of_the_table_kept_in_the_browser(server: Served, browser: Browser) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy", "ai:easy"])
    assert page.input_value("[data-testid=pace]") == "0", "instant under automation unless set"
    page.select_option("[data-testid=pace]", "2000")
    assert page.evaluate("localStorage.getItem('tabletop.pace')") == "2000"
    page.reload()
    page.wait_for_selector(".silencio[data-seq]")
    assert page.input_value("[data-testid=pace]") == "2000"
    ctx.close()


def test_undo_removes_the_undone_entries_from_the_history_at_once(server: Served, browser: Browser) -> None:
    # two people at SILOS (made over the API; this browser holds the seat to move): the first placement is logged,
    # reveals nothing and is undoable until the other seat acts
    with httpx.Client(base_url=server.url) as c:
        g = c.post("/api/games", json={"game": "silos", "players": 2, "creator_name": "Ann",
                                        "seats": [{"kind": "creator"}, {"kind": "invite", "name": "Bo"}]}).json()
        bo = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).json()
        tokens = {0: g["token"], 1: bo["token"]}
        first = c.get(f"/api/games/{g['id']}/state").json()["to_move"]
    held = {"id": g["id"], "game": "silos", "title": "SILOS", "seat": first, "token": tokens[first], "added": 1}
    ctx = browser.new_context(viewport=LAPTOP)
    ctx.add_init_script(f"localStorage.setItem('tabletop.seats.v1', JSON.stringify([{json.dumps(held)}]))")
    page = ctx.new_page()
    page.goto(f"{server.url}/g/{g['id']}")
    page.wait_for_selector(".tablehead .turn.mine")
    before = [li.inner_text() for li in page.query_selector_all("ol.history li")]
    move_by_clicks(page, random.Random(2), Clicks(), frozenset({"stop", "skip", "done"}))
    page.wait_for_selector("[data-testid=undo]")
    page.wait_for_function("([n]) => document.querySelectorAll('ol.history li').length > n", arg=[len(before)])
    assert page.query_selector("ol.history li.last"), "the placement is the last move"
    page.click("[data-testid=undo]")
    page.wait_for_function("([n]) => document.querySelectorAll('ol.history li').length === n", arg=[len(before)],
                           timeout=5000)  # no reload: the undo's own answer cuts the history
    assert [li.inner_text() for li in page.query_selector_all("ol.history li")] == before
    page.wait_for_selector(".tablehead .turn.mine")
    ctx.close()


def _end_checks(page: Page) -> str:
    """The end panel: the result, the replay, the rematch and the lobby; no notice of a next card. Its text."""
    # the table draws every update in turn: on a loaded machine it may trail the game's end by a while
    page.wait_for_selector("[data-testid=score]", timeout=300_000)
    page.wait_for_selector("[data-testid=rematch]")
    assert page.get_attribute("[data-testid=lobby]", "href") == "/"
    assert page.title().startswith("Game over")
    assert "next" not in page.inner_text(".table .notes") if page.query_selector(".table .notes") else True
    assert "plays a random card next" not in page.inner_text("body")
    return page.inner_text("[data-testid=score]")


def test_the_end_of_siliconvania_with_ai_seats_shows_every_total_and_the_winner(
        server: Served, browser: Browser, artifacts: Path) -> None:
    page, gid, token = api_table(server, browser, "siliconvania",
                                 [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}, {"kind": "ai", "ai": "easy"}])
    final = play_over_rest(server.url, gid, [token], random.Random(8))
    text = _end_checks(page)
    names = [s["name"] for s in httpx.get(f"{server.url}/api/games/{gid}").json()["seats"]]
    winners = final["view"]["winners"]
    assert ("Shared victory" in text) == (len(winners) > 1)
    assert any(names[w][:6] in text for w in winners)
    totals = page.query_selector_all("[data-testid=score] table.score tr:last-child td")
    assert totals[0].inner_text() == "Total"
    assert [int(t.inner_text()) for t in totals[1:]] == [f["total"] for f in final["view"]["final"]]
    page.screenshot(path=str(artifacts / "story-siliconvania-end-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "story-siliconvania-end-phone.png"), full_page=True)
    page.context.close()


def test_the_end_of_silos_shows_every_seats_emblems_and_the_winner(server: Served, browser: Browser) -> None:
    page, gid, token = api_table(server, browser, "silos",
                                 [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}, {"kind": "ai", "ai": "easy"}],
                                 options={"emblem_target": 4})
    final = play_over_rest(server.url, gid, [token], random.Random(9))
    text = _end_checks(page)
    rows = page.query_selector_all("[data-testid=score] table.score tr")[1:]
    assert len(rows) == 3
    emblems = sorted((s["emblems"] for s in final["view"]["seats"]), reverse=True)
    assert [int(r.query_selector_all("td")[1].inner_text()) for r in rows] == emblems
    assert "wins" in text or "Shared victory" in text
    page.context.close()


def test_two_people_and_an_ai_finish_silencio_and_one_click_each_seats_them_in_the_rematch(
        server: Served, browser: Browser, artifacts: Path) -> None:
    ann, bo, (ann_ctx, bo_ctx) = two_at_a_table(server.url, browser, "silencio", 3, third="ai:easy")
    gid = ann.url.split("/g/")[1].split("?")[0]
    tokens = [held_token(ann, gid)[1], held_token(bo, gid)[1]]
    play_over_rest(server.url, gid, tokens, random.Random(12))
    for p in (ann, bo):
        text = _end_checks(p)
        assert "Team result:" in text and p.query_selector("[data-testid=verdict]")
        assert all(n in text for n in ("Ann", "Bo"))
    ann.screenshot(path=str(artifacts / "story-silencio-end-laptop.png"), full_page=True)
    old_info = httpx.get(f"{server.url}/api/games/{gid}").json()

    ann.click("[data-testid=rematch]")
    ann.wait_for_url("**/g/*?seat=0")
    new = ann.url.split("/g/")[1].split("?")[0]
    assert new != gid
    # Bo hears of it at the old table, and one click seats him
    bo.wait_for_selector("[data-testid=rematch]:has-text('Ann started a rematch')")
    bo.click("[data-testid=rematch]")
    bo.wait_for_url(f"**/g/{new}?seat=1")
    for p in (ann, bo):
        p.wait_for_selector(".silencio[data-seq]")
    info = httpx.get(f"{server.url}/api/games/{new}").json()
    assert info["status"] == "playing" and info["options"] == old_info["options"]
    assert [(s["kind"], s["ai"], s["name"]) for s in info["seats"]] == [
        (s["kind"], s["ai"], s["name"]) for s in old_info["seats"]]
    ann_seat, ann_token = held_token(ann, new)
    bo_seat, bo_token = held_token(bo, new)
    assert (ann_seat, bo_seat) == (0, 1) and ann_token != bo_token
    assert bo_token not in json.dumps(ann.evaluate("Object.assign({}, localStorage)"))
    assert ann_token not in json.dumps(bo.evaluate("Object.assign({}, localStorage)"))
    bo.screenshot(path=str(artifacts / "story-rematch-phone.png"), full_page=True)
    for c in (ann_ctx, bo_ctx):
        c.close()


HIDDEN_TAB = """(() => {
  window.__hidden = false;
  window.__notes = [];
  window.__tones = 0;
  Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
  class FakeNotification {
    static permission = 'default';
    static requestPermission() { FakeNotification.permission = 'granted'; return Promise.resolve('granted'); }
    constructor(title, opts) { window.__notes.push({ title, body: opts && opts.body }); }
    close() {}
  }
  window.Notification = FakeNotification;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() { window.__tones++; return super.createOscillator(); }
  };
})();"""
"""A tab the test can hide, and a Notification API and tone it can count (the real ones need a person's desktop)."""


def test_when_the_turn_comes_in_a_hidden_tab_a_tone_and_a_notification_allowed_by_a_click_say_it(
        server: Served, browser: Browser) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    ctx.add_init_script(HIDDEN_TAB)
    page = ctx.new_page()
    create_in_lobby(page, server.url, ["me", "ai:easy", "ai:easy"])
    page.click("[data-testid=notify]")  # the permission is asked only from the player's click
    page.wait_for_selector(".tablehead .notify.on")
    rng = random.Random(6)
    clicks = Clicks()
    for _ in range(8):
        assert wait_turn_or_end(page) == "turn"
        page.evaluate("window.__hidden = true")
        move_by_clicks(page, rng, clicks)
        page.wait_for_selector(".tablehead .turn.mine, .actions .result")
        page.evaluate("window.__hidden = false")
        if page.evaluate("window.__notes.length"):
            break
    notes = page.evaluate("window.__notes")
    assert notes and notes[0]["title"].startswith("Your turn"), notes
    assert page.evaluate("window.__tones") >= 1, "the tone sounded too (sound is on by default)"
    ctx.close()
