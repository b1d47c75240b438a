"""A revoked seat token keeps no socket (issue 20, point 1): when the creator re-seats a player, every socket opened
with the old token is closed at once with 4401, before the seat's new holder claims it and plays; nothing of the
seat's after the revocation reaches the old token. Against real server processes: one on SQLite, and two on one
PostgreSQL database with the socket on the process that did not re-seat."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection

from tabletop.server.api.routes.ws import TOKEN_REVOKED

from .proc import Server, receive


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _messages_until_closed(ws: ClientConnection, timeout: float) -> tuple[list[dict[str, Any]], int | None]:
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            got.append(receive(ws, timeout=max(0.1, deadline - time.monotonic())))
    except ConnectionClosed:
        return got, ws.close_code
    except TimeoutError:
        pass
    return got, None


def _revoke_and_replay(creator: httpx.Client, player: httpx.Client, server_of_socket: Server) -> None:
    r = creator.post("/api/games", json={"game": "silencio", "players": 2,
                                         "seats": [{"kind": "creator"}, {"kind": "invite"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"]
    old = player.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]}).json()["token"]
    with server_of_socket.socket(gid, old) as ws:
        first = receive(ws)
        assert first["type"] == "state" and first["seat"] == 1
        t0 = time.monotonic()
        r = creator.post(f"/api/games/{gid}/reseat", headers=auth(g["creator_token"]), json={"seat": 1})
        assert r.status_code == 200, r.text
        code = r.json()["code"]
        got, closed = _messages_until_closed(ws, timeout=10)
        waited = time.monotonic() - t0
        assert closed == TOKEN_REVOKED, (closed, got)
        assert waited < 5, waited  # at once, not at the next event
        # the new holder claims and plays: the old socket is gone, and the old token is refused everywhere
        new = player.post(f"/api/games/{gid}/claim", json={"invite": code}).json()["token"]
        s = player.get(f"/api/games/{gid}/state", headers=auth(new)).json()
        assert s["seat"] == 1
        assert player.get(f"/api/games/{gid}/state", headers=auth(old)).status_code == 401
        assert not any(m.get("type") == "state" and m.get("seq", 0) > first["seq"] for m in got), got
    with pytest.raises(InvalidStatus):  # a socket opened with the old token is refused before it is accepted
        server_of_socket.socket(gid, old)


def test_a_revoked_token_loses_its_socket_at_once(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "server.log").start()
    try:
        with server.client() as c:
            _revoke_and_replay(c, c, server)
    finally:
        server.stop()
    assert "Traceback" not in server.output()


def test_a_token_revoked_through_another_process_loses_its_socket(pg_url: str, tmp_path: Path) -> None:
    a = Server(pg_url, tmp_path / "a.log").start()
    b = Server(pg_url, tmp_path / "b.log").start()
    with ExitStack() as stack:
        stack.callback(a.stop)
        stack.callback(b.stop)
        ca, cb = stack.enter_context(a.client()), stack.enter_context(b.client())
        _revoke_and_replay(ca, cb, b)
