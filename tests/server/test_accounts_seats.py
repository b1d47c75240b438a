"""Seats follow the account (issue 23, part 2): a seat claimed (or created) while signed in is bound to the account
and any browser signed in to it plays it, over REST and over the socket; a guest's seat is attached later; tokens
keep working; my games lists every game of the account, its turn first; a session's closing closes its sockets."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tabletop.server.accounts import CSRF_HEADER, DELETED_NAME
from tabletop.server.api.routes.ws import TOKEN_REVOKED

from .conftest import Factory, auth
from .test_accounts import FAST, PASSWORD, csrf, other_browser, signup


def signin(client: TestClient, username: str) -> dict[str, Any]:
    r = client.post("/api/account/signin", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def friends_game(c: Factory, game: str = "silos", **extra: Any) -> tuple[TestClient, dict[str, Any], dict[str, Any],
                                                                      dict[str, Any], dict[str, Any]]:
    """Ann (browser a1) creates a 2-seat game signed in; Ben (browser b1) claims the invite signed in: the server,
    ann's and ben's sign-ins, the creation's and the claim's answers."""
    client = c(**FAST)
    ann = signup(client, "ann")
    g = client.post("/api/games", headers=csrf(ann),
                    json={"game": game, "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}], **extra})
    assert g.status_code == 201, g.text
    b1 = other_browser(client)
    ben = signup(b1, "ben")
    r = b1.post(f"/api/games/{g.json()['id']}/claim", json={"invite": g.json()["invites"][0]["code"]},
                headers=csrf(ben))
    assert r.status_code == 200, r.text
    client.b1 = b1  # type: ignore[attr-defined]
    return client, ann, ben, g.json(), r.json()


def test_a_seat_claimed_signed_in_is_played_from_another_browser_of_the_account(make_client: Factory) -> None:
    a1, _, ben, g, claim = friends_game(make_client)
    gid = g["id"]
    b2 = other_browser(a1)
    ben2 = signin(b2, "ben")
    s = b2.get(f"/api/games/{gid}/state").json()
    assert s["seat"] == 1  # no token: the account's seat
    a2 = other_browser(a1)
    ann2 = signin(a2, "ann")
    s = a2.get(f"/api/games/{gid}/state").json()
    assert s["seat"] == 0
    mover, signed = (a2, ann2) if s["legal"] else (b2, ben2)  # the second browser of whoever is to move
    s = mover.get(f"/api/games/{gid}/state").json()
    move = {"action": s["legal"][0], "seq": s["seq"]}
    refused = mover.post(f"/api/games/{gid}/actions", json=move)  # the session, without its CSRF token
    assert refused.status_code == 403 and CSRF_HEADER in refused.json()["detail"]
    assert mover.get(f"/api/games/{gid}/state").json()["seq"] == s["seq"]
    r = mover.post(f"/api/games/{gid}/actions", json=move, headers=csrf(signed))
    assert r.status_code == 200, r.text
    # the tokens of the creation and the claim keep working, beside the accounts
    assert a1.get(f"/api/games/{gid}/state", headers=auth(claim["token"])).json()["seat"] == 1
    assert other_browser(a1).get(f"/api/games/{gid}/state", headers=auth(g["token"])).json()["seat"] == 0
    # the other account's browser is not ann's seat
    assert b2.get(f"/api/games/{gid}/state").json()["seat"] == 1
    assert ben2["username"] == ben["username"]


def test_a_signed_in_account_without_a_seat_is_a_spectator(make_client: Factory) -> None:
    a1, *_, g, _ = friends_game(make_client)
    carl = other_browser(a1)
    me = signup(carl, "carl")
    s = carl.get(f"/api/games/{g['id']}/state").json()
    assert s["seat"] is None
    r = carl.post(f"/api/games/{g['id']}/actions", json={"action": "x", "seq": 0}, headers=csrf(me))
    assert r.status_code == 401


def test_a_claim_without_the_csrf_token_is_a_guests_claim(make_client: Factory) -> None:
    client = make_client(**FAST)
    ann = signup(client, "ann")
    g = client.post("/api/games", json={"game": "silos", "players": 2,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    assert client.get("/api/account/games").json() == []  # created without the token: a guest's game
    client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).raise_for_status()
    assert client.get("/api/account/games").json() == []
    assert ann["username"] == "ann"


def test_one_seat_per_account_and_game(make_client: Factory) -> None:
    client = make_client(**FAST)
    ann = signup(client, "ann")
    g = client.post("/api/games", headers=csrf(ann), json={"game": "silos", "players": 3, "seats": [
        {"kind": "creator"}, {"kind": "invite"}, {"kind": "open"}]}).json()
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}, headers=csrf(ann))
    assert r.status_code == 409 and "already holds seat 0" in r.json()["detail"]
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]})  # as a guest: fine
    assert r.status_code == 200


def test_my_games_lists_my_turn_first_with_whose_turn_and_the_clock(make_client: Factory) -> None:
    client = make_client(**FAST)
    ann = signup(client, "ann")
    b1 = other_browser(client)
    ben = signup(b1, "ben")
    ids = []
    for _ in range(2):
        g = client.post("/api/games", headers=csrf(ann), json={
            "game": "silos", "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}],
            "move_seconds": 86_400}).json()
        b1.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]},
                headers=csrf(ben)).raise_for_status()
        ids.append(g["id"])
    waiting = client.post("/api/games", headers=csrf(ann), json={
        "game": "silos", "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()["id"]
    client.app.state.clocks.check(datetime.now().astimezone())  # type: ignore[attr-defined]  # deadlines set
    # play on until it is ann's turn in the older game (ids[0]) and ben's in the newer one (ids[1])
    for gid, wanted in ((ids[0], 0), (ids[1], 1)):
        while True:
            s = client.get(f"/api/games/{gid}/state").json()
            owes_ann = s["owes_decision"]
            if (wanted == 0) == owes_ann and (owes_ann or b1.get(f"/api/games/{gid}/state").json()["owes_decision"]):
                break
            browser, who = (client, ann) if owes_ann else (b1, ben)
            s = browser.get(f"/api/games/{gid}/state").json()
            browser.post(f"/api/games/{gid}/actions", headers=csrf(who),
                         json={"action": s["legal"][0], "seq": s["seq"]}).raise_for_status()
    mine = client.get("/api/account/games").json()
    assert [m["id"] for m in mine][:1] == [ids[0]] and mine[0]["your_turn"] is True
    by_id = {m["id"]: m for m in mine}
    assert set(by_id) == {*ids, waiting}
    assert by_id[ids[1]]["your_turn"] is False and by_id[ids[1]]["to_move"] == [{"seat": 1, "name": "ben"}]
    assert by_id[waiting]["status"] == "waiting" and mine[-1]["id"] == waiting
    clock = by_id[ids[0]]["clock"]
    assert clock["move_seconds"] == 86_400 and 0 < clock["seconds_left"] <= 86_400
    theirs = b1.get("/api/account/games").json()
    assert theirs[0]["id"] == ids[1] and theirs[0]["your_turn"] and theirs[0]["seat"] == 1
    assert all("token" not in str(m) and "seed" not in m for m in mine + theirs)
    assert other_browser(client).get("/api/account/games").status_code == 401


def test_a_guest_seat_is_attached_to_an_account_later(make_client: Factory) -> None:
    client = make_client(**FAST)
    g = client.post("/api/games", json={"game": "silos", "players": 2,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    guest = other_browser(client)
    token = guest.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).json()["token"]
    me = signup(guest, "gus")
    assert guest.get(f"/api/games/{g['id']}/state").json()["seat"] is None  # not yet the account's
    url = f"/api/games/{g['id']}/attach"
    assert guest.post(f"/api/account{url[4:]}", headers=auth(token)).status_code == 403  # no CSRF token
    r = guest.post(f"/api/account{url[4:]}", headers={**auth(token), **csrf(me)})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert guest.get(f"/api/games/{g['id']}/state").json()["seat"] == 1
    phone = other_browser(client)
    signin(phone, "gus")
    assert phone.get(f"/api/games/{g['id']}/state").json()["seat"] == 1
    assert client.get(f"/api/games/{g['id']}/state", headers=auth(token)).json()["seat"] == 1  # the token too
    mallory = other_browser(client)
    m = signup(mallory, "mallory")
    r = mallory.post(f"/api/account{url[4:]}", headers={**auth(token), **csrf(m)})
    assert r.status_code == 409
    r = mallory.post(f"/api/account{url[4:]}", headers={**auth("not a token"), **csrf(m)})
    assert r.status_code == 401


def _closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as e:
        for _ in range(20):
            ws.receive_json()
    return e.value.code


@pytest.mark.parametrize("how", ["revoke", "password", "signout", "reseat"])
def test_a_closed_session_closes_its_sockets_at_once(make_client: Factory, how: str) -> None:
    a1, ann, _, g, _ = friends_game(make_client)
    gid = g["id"]
    a2 = other_browser(a1)
    ann2 = signin(a2, "ann")
    with a2.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 0
        if how == "revoke":
            a1.delete(f"/api/account/sessions/{ann2['session']}", headers=csrf(ann)).raise_for_status()
        elif how == "password":
            a1.post("/api/account/password", headers=csrf(ann),
                    json={"old_password": PASSWORD, "new_password": "another password"}).raise_for_status()
        elif how == "signout":
            a2.post("/api/account/signout", headers=csrf(ann2)).raise_for_status()
        else:
            a1.post(f"/api/games/{gid}/reseat", headers=auth(g["creator_token"]), json={"seat": 0}
                    ).raise_for_status()
            s = a1.get(f"/api/games/{gid}/state", headers=auth(g["invites"][0]["code"]))  # nothing: no seat
            assert s.status_code == 401
            a1.post(f"/api/games/{gid}/chat", headers=auth(g["creator_token"]), json={"text": "hi"})
        assert _closed_with(ws) == TOKEN_REVOKED
    if how == "reseat":
        assert a2.get(f"/api/games/{gid}/state").json()["seat"] is None  # the seat is no longer the account's


def test_a_socket_of_the_account_plays_its_seat(make_client: Factory) -> None:
    a1, *_, g, _ = friends_game(make_client)
    b2 = other_browser(a1)
    signin(b2, "ben")
    a2 = other_browser(a1)
    signin(a2, "ann")
    mover = a2 if a2.get(f"/api/games/{g['id']}/state").json()["legal"] else b2
    with mover.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        s = ws.receive_json()
        assert s["legal"]
        ws.send_json({"type": "act", "action": s["legal"][0], "seq": s["seq"], "client_action_id": "a-1"})
        got = [ws.receive_json() for _ in range(2)]
        assert {m["type"] for m in got} == {"ack", "state"}
    assert a1.get(f"/api/games/{g['id']}/state").json()["seq"] == s["seq"] + 1


def test_deleting_an_account_anonymises_its_seats(make_client: Factory) -> None:
    a1, ann, _, g, claim = friends_game(make_client)
    b1: TestClient = a1.b1  # type: ignore[attr-defined]
    ben = b1.get("/api/account/me").json()
    b1.post("/api/account/delete", headers=csrf(ben), json={"password": PASSWORD}).raise_for_status()
    info = a1.get(f"/api/games/{g['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["ann", DELETED_NAME]
    assert a1.get(f"/api/games/{g['id']}/state", headers=auth(claim["token"])).json()["seat"] == 1
    assert [m["id"] for m in a1.get("/api/account/games").json()] == [g["id"]]
    assert ann["username"] == "ann"
