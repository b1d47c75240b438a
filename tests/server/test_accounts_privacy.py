"""Nothing leaks through accounts (issue 23): a seat played by its account's session sees exactly what its token
sees (that seat's view only, over REST and the socket), a signed-in account without a seat sees the spectator's,
and my games, profiles and leaderboards of a live game hold no seed, no record, no hidden card."""

from __future__ import annotations

import random
from typing import Any

from .conftest import Factory, auth
from .test_accounts import FAST, csrf, other_browser, signup
from .test_accounts_seats import friends_game, signin


def _strip(s: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in s.items() if k not in ("type",)}


def test_a_sessions_seat_sees_what_its_token_sees_and_nothing_more(make_client: Factory) -> None:
    a1, _, _, g, claim = friends_game(make_client, game="siliconvania")
    gid = g["id"]
    a2, b2, carl = other_browser(a1), other_browser(a1), other_browser(a1)
    signin(a2, "ann")
    signin(b2, "ben")
    signup(carl, "carl")
    tokens = [g["token"], claim["token"]]
    rng = random.Random(2)
    for _ in range(12):
        for seat, (browser, token) in enumerate(((a2, tokens[0]), (b2, tokens[1]))):
            by_session = browser.get(f"/api/games/{gid}/state").json()
            by_token = other_browser(a1).get(f"/api/games/{gid}/state", headers=auth(token)).json()
            assert by_session == by_token and by_session["seat"] == seat
            assert browser.get(f"/api/games/{gid}/log").json() == \
                other_browser(a1).get(f"/api/games/{gid}/log", headers=auth(token)).json()
        spectator = other_browser(a1).get(f"/api/games/{gid}/state").json()
        assert carl.get(f"/api/games/{gid}/state").json() == spectator
        with a2.websocket_connect(f"/api/games/{gid}/ws") as ws:
            pushed = ws.receive_json()
        with other_browser(a1).websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
            assert _strip(ws.receive_json()) == _strip(pushed)
        for browser, token in ((a2, tokens[0]), (b2, tokens[1])):
            s = browser.get(f"/api/games/{gid}/state").json()
            if s["legal"] and s["status"] == "playing":
                browser.post(f"/api/games/{gid}/actions", headers=auth(token),
                             json={"action": rng.choice(s["legal"]), "seq": s["seq"]}).raise_for_status()
    # nothing of the live game's secrets anywhere an account looks
    assert a2.get(f"/api/games/{gid}/record").status_code == 409
    pages = [a2.get("/api/account/games").text, b2.get("/api/account/games").text,
             a2.get("/api/players/ann").text, a2.get("/api/players/ben").text,
             a2.get("/api/leaderboard/siliconvania").text]
    for page in pages:
        assert "seed" not in page and "actions" not in page and "token" not in page
    assert a2.get("/api/players/ann").json()["recent"] == []


def test_another_account_cannot_play_or_read_a_seat(make_client: Factory) -> None:
    a1, *_, g, _ = friends_game(make_client)
    mallory = other_browser(a1)
    m = signup(mallory, "mallory")
    s = mallory.get(f"/api/games/{g['id']}/state").json()
    assert s["seat"] is None and s["legal"] == []
    r = mallory.post(f"/api/games/{g['id']}/undo", headers=csrf(m), json={"count": 1, "seq": s["seq"]})
    assert r.status_code == 401
    with mallory.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        assert ws.receive_json()["seat"] is None
    assert mallory.get("/api/account/games").json() == []
    assert FAST  # the accounts' cheap hashing is on
