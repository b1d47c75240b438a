"""Issue 23's done-test, over the HTTP API (not yet in Chromium): two friends, each signed in on two clients of their
own (cookie jars), play a rated SILOS game with a one-day move clock to its end; the server's clock is advanced by
days (the late seat is moved for) and the server restarted in between (sessions, seats and deadlines survive);
each friend is mailed once per turn at a local SMTP server; the result shows on both profiles."""

from __future__ import annotations

import random
from datetime import timedelta

from fastapi.testclient import TestClient

from tabletop.server.storage import now

from .conftest import Factory
from .test_accounts import FAST, csrf, other_browser, signup
from .test_accounts_mail import Inbox
from .test_accounts_mail import smtp as smtp  # the local SMTP server fixture
from .test_accounts_seats import signin

ADDRESS = {"ann": "ann@example.org", "ben": "ben@example.org"}


def test_two_friends_play_a_rated_game_over_days(make_client: Factory, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    settings = {"smtp_host": "127.0.0.1", "smtp_port": port, "mail_interval": 3600, "clock_tick": 1000, **FAST}
    server = make_client(**settings)
    ann = signup(server, "ann")
    a2 = other_browser(server)
    b1 = other_browser(server)
    ben = signup(b1, "ben")
    b2 = other_browser(server)
    signin(a2, "ann")
    signin(b2, "ben")
    for browser, me, name in ((server, ann, "ann"), (b1, ben, "ben")):
        browser.post("/api/account/mail", headers=csrf(me), json={"email": ADDRESS[name]}).raise_for_status()
    g = server.post("/api/games", headers=csrf(ann), json={
        "game": "silos", "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}], "rated": True,
        "move_seconds": 86_400}).json()
    gid = g["id"]
    b1.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]}, headers=csrf(ben)
            ).raise_for_status()
    clients: dict[str, list[TestClient]] = {"ann": [server, a2], "ben": [b1, b2]}
    seat_of = {"ann": 0, "ben": 1}
    rng = random.Random(23)
    turns: dict[str, set[int]] = {"ann": set(), "ben": set()}
    timed_out = restarted = 0
    step = 0
    while True:
        app = clients["ann"][0]
        app.app.state.clocks.check(now())  # type: ignore[attr-defined]  # deadlines of the new decisions
        app.app.state.mail.sweep()  # type: ignore[attr-defined]
        states = {n: clients[n][step % 2].get(f"/api/games/{gid}/state").json() for n in clients}
        if states["ann"]["status"] == "over":
            break
        for n, s in states.items():
            assert s["seat"] == seat_of[n]  # each client of the account plays the account's seat, no token
            if s["owes_decision"]:
                turns[n].add(s["decision_seq"])
            assert len(inbox.to(ADDRESS[n])) == len(turns[n]), (n, step)  # once per turn, and for each
        mover = next(n for n, s in states.items() if s["owes_decision"])
        step += 1
        if step % 40 == 0:  # nobody moves for two days: the clock moves for the late seat
            assert app.app.state.clocks.check(now() + timedelta(days=2)) >= 1  # type: ignore[attr-defined]
            timed_out += 1
            continue
        if step == 70:  # the server restarts; every client keeps its cookie and is signed in still
            server.__exit__(None, None, None)
            server = make_client(**settings)
            clients = {n: [TestClient(server.app, cookies=c.cookies) for c in cs] for n, cs in clients.items()}
            restarted += 1
            continue
        browser = clients[mover][step % 2]
        me = browser.get("/api/account/me").json()
        s = browser.get(f"/api/games/{gid}/state").json()  # the account's other client: the same seat
        r = browser.post(f"/api/games/{gid}/actions", headers=csrf(me),
                         json={"action": rng.choice(s["legal"]), "seq": s["seq"]})
        assert r.status_code in (200, 409), r.text  # 409: a stale seq after a restart or a time-out: look again
    assert timed_out >= 2 and restarted == 1
    profiles = {n: clients[n][1].get(f"/api/players/{n}").json() for n in clients}
    for n, p in profiles.items():
        (recent,) = p["recent"]
        assert recent["game_id"] == gid and recent["rated"] and recent["seat"] == seat_of[n]
        assert [r["games"] for r in p["ratings"]] == [1]
        assert sum(len(t) for t in turns.values()) == len(inbox.messages)
    assert {profiles[n]["recent"][0]["won"] for n in profiles} <= {True, False}
    assert [g["status"] for g in clients["ben"][0].get("/api/account/games").json()] == ["over"]
