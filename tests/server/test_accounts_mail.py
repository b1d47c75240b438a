"""Your-turn e-mail (issue 23, part 4), against a real SMTP server started by the test (aiosmtpd, on a free
loopback port): one mail per game, seat and turn, to the seat's account only, none without SMTP configured, none
after the one-click opt-out; the move clock of a day survives a restart and is told in my games."""

from __future__ import annotations

import email
import email.policy
import threading
from collections.abc import Iterator
from datetime import timedelta
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from .conftest import Factory, auth
from .proc import free_port
from .test_accounts import FAST, csrf, other_browser, signup


class Inbox:
    """An aiosmtpd handler keeping every message it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def _mailed_game(make_client: Factory, port: int, **settings: Any) -> tuple[Any, Any, dict[str, Any],
                                                                             dict[str, Any], str, list[str]]:
    client = make_client(smtp_host="127.0.0.1", smtp_port=port, mail_interval=3600, clock_tick=1000,
                         **settings, **FAST)
    ann = signup(client, "ann")
    b1 = other_browser(client)
    ben = signup(b1, "ben")
    for browser, me, address in ((client, ann, "ann@example.org"), (b1, ben, "ben@example.org")):
        r = browser.post("/api/account/mail", headers=csrf(me), json={"email": address})
        assert r.status_code == 200 and r.json() == {"email": address, "turn_mail": True}
    g = client.post("/api/games", headers=csrf(ann), json={
        "game": "silos", "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}],
        "move_seconds": 86_400}).json()
    r = b1.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}, headers=csrf(ben))
    return client, b1, ann, ben, g["id"], [g["token"], r.json()["token"]]


def _mover(client: Any, gid: str, tokens: list[str]) -> int:
    owing = [seat for seat, t in enumerate(tokens)
             if client.get(f"/api/games/{gid}/state", headers=auth(t)).json()["owes_decision"]]
    assert len(owing) == 1, owing
    return owing[0]


def test_one_mail_per_turn_to_the_seat_whose_turn_it_is(make_client: Factory, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    client, _, _, _, gid, tokens = _mailed_game(make_client, port)
    mail = client.app.state.mail  # type: ignore[attr-defined]
    addresses = ["ann@example.org", "ben@example.org"]
    expected = {a: 0 for a in addresses}
    seen_turns = set()
    for _ in range(6):
        seat = _mover(client, gid, tokens)
        s = client.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json()
        new_turn = (seat, s["decision_seq"]) not in seen_turns
        seen_turns.add((seat, s["decision_seq"]))
        mail.sweep()
        mail.sweep()  # a second look sends nothing more
        expected[addresses[seat]] += int(new_turn)
        assert {a: len(inbox.to(a)) for a in addresses} == expected
        client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                    json={"action": s["legal"][0], "seq": s["seq"]}).raise_for_status()
    last = inbox.messages[-1]
    assert "Your turn in silos" in last["Subject"] and last["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "seed" not in last.as_string() and tokens[0] not in last.as_string() and tokens[1] not in last.as_string()


def test_the_one_click_opt_out_stops_the_mails(make_client: Factory, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    client, b1, ann, ben, gid, tokens = _mailed_game(make_client, port)
    mail = client.app.state.mail  # type: ignore[attr-defined]
    seat = _mover(client, gid, tokens)
    mail.sweep()
    (first,) = inbox.messages
    link = "".join(str(first["List-Unsubscribe"]).split()).strip("<>")
    path = link[link.index("/api/"):]
    assert other_browser(client).post(path).json() == {"turn_mail": False}  # no session needed: one click
    assert other_browser(client).get("/api/mail/optout/not-a-token").status_code == 404
    who = (client, ann) if seat == 0 else (b1, ben)
    assert who[0].get("/api/account/mail").json()["turn_mail"] is False
    s = client.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json()
    client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                json={"action": s["legal"][0], "seq": s["seq"]}).raise_for_status()
    while _mover(client, gid, tokens) != seat:
        other = _mover(client, gid, tokens)
        mail.sweep()
        s = client.get(f"/api/games/{gid}/state", headers=auth(tokens[other])).json()
        client.post(f"/api/games/{gid}/actions", headers=auth(tokens[other]),
                    json={"action": s["legal"][0], "seq": s["seq"]}).raise_for_status()
    mail.sweep()
    assert len(inbox.to(first["To"])) == 1  # opted out: no second mail


def test_no_mail_without_an_smtp_server(make_client: Factory, smtp: tuple[Inbox, int]) -> None:
    inbox, _ = smtp
    client = make_client(**FAST)
    ann = signup(client, "ann")
    client.post("/api/account/mail", headers=csrf(ann), json={"email": "ann@example.org"}).raise_for_status()
    g = client.post("/api/games", headers=csrf(ann), json={"game": "silos", "players": 2}).json()
    other_browser(client).post(f"/api/games/{g['id']}/claim", json={}).raise_for_status()
    assert client.app.state.mail.sweep() == 0 and inbox.messages == []  # type: ignore[attr-defined]
    bad = client.post("/api/account/mail", headers=csrf(ann), json={"email": "not an address"})
    assert bad.status_code == 422


def test_a_day_clock_survives_a_restart_and_shows_in_my_games(make_client: Factory, smtp: tuple[Inbox, int]
                                                             ) -> None:
    inbox, port = smtp
    client, b1, ann, _, gid, tokens = _mailed_game(make_client, port)
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    from tabletop.server.storage import now

    t0 = now()
    clocks.check(t0)  # the first look sets the deadline: a day from now
    left = client.get("/api/account/games").json()[0]["clock"]["seconds_left"]
    assert 86_000 < left <= 86_400
    seat = _mover(client, gid, tokens)
    client.__exit__(None, None, None)  # the server stops ...
    again = make_client(smtp_host="127.0.0.1", smtp_port=port, mail_interval=3600, clock_tick=1000, **FAST)
    assert again.post("/api/account/signin", json={"username": "ann", "password": "correct horse battery"}
                      ).status_code == 200
    clocks = again.app.state.clocks  # type: ignore[attr-defined]
    assert clocks.check(t0 + timedelta(hours=23)) == 0  # ... and after it, the deadline is the same
    assert clocks.check(t0 + timedelta(days=1, minutes=1)) == 1  # a day later, the late seat is moved for
    s = again.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json()
    assert not s["owes_decision"] or s["decision_seq"] > 0
    assert ann["username"] == "ann" and b1 is not None and inbox is not None


def test_a_forgotten_password_is_reset_by_a_mailed_one_time_link(make_client: Factory, smtp: tuple[Inbox, int]
                                                                  ) -> None:
    inbox, port = smtp
    client = make_client(smtp_host="127.0.0.1", smtp_port=port, mail_interval=3600, **FAST)
    ann = signup(client, "ann")
    client.post("/api/account/mail", headers=csrf(ann), json={"email": "ann@example.org"}).raise_for_status()
    stranger = other_browser(client)
    for username in ("ann", "nobody"):
        r = stranger.post("/api/account/reset", json={"username": username})
        assert r.status_code == 200 and r.json()["sent"].startswith("if the account")  # the same answer
    (mail,) = inbox.messages
    assert mail["To"] == "ann@example.org"
    token = str(mail.get_content()).split("#reset=")[1].split()[0]
    bad = stranger.post("/api/account/reset/confirm", json={"token": "forged", "new_password": "a new password"})
    assert bad.status_code == 403
    r = stranger.post("/api/account/reset/confirm", json={"token": token, "new_password": "a new password"})
    assert r.status_code == 200
    assert client.get("/api/account/me").status_code == 401  # every session closed
    again = stranger.post("/api/account/reset/confirm", json={"token": token, "new_password": "yet another one"})
    assert again.status_code == 403  # one time
    assert stranger.post("/api/account/signin", json={"username": "ann", "password": "a new password"}
                         ).status_code == 200


def test_without_smtp_a_reset_is_the_operators(make_client: Factory) -> None:
    client = make_client(**FAST)
    signup(client, "ann")
    r = other_browser(client).post("/api/account/reset", json={"username": "ann"})
    assert r.status_code == 403 and "operator" in r.json()["detail"]
