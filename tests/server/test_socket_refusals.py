"""Sockets refuse what they cannot take, with a close frame or an answer, and the log stays clean (issue 20,
points 6 and 7), against a real server process: out-of-range cursors are refused with 1008 and a reason, a cursor
past the end starts at the end, a 4,000-deep JSON array is answered `refused` and the socket stays up, a spectator
closed for sending too much leaves no traceback however many answers were queued, and a token is redacted from the
log however its parameter is spelled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .proc import Server, receive


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("refusals")
    s = Server(f"sqlite:///{tmp / 'db.sqlite3'}", tmp / "server.log").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def game(server: Server) -> dict[str, Any]:
    with server.client() as c:
        r = c.post("/api/games", json={"game": "silos", "players": 2,
                                       "seats": [{"kind": "creator"}, {"kind": "invite"}]})
        assert r.status_code == 201, r.text
        g: dict[str, Any] = r.json()
        g["token1"] = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).json()["token"]
        return g


def _socket(server: Server, gid: str, query: str) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws?{query}", open_timeout=10)


def _closed_with(ws: ClientConnection) -> tuple[int | None, str | None]:
    with pytest.raises(ConnectionClosed) as e:
        while True:
            ws.recv(timeout=10)
    return (e.value.rcvd.code, e.value.rcvd.reason) if e.value.rcvd is not None else (None, None)


@pytest.mark.parametrize("query", [f"since={10**26}", f"chat_since={10**20}", "since=10000001"])
def test_an_out_of_range_cursor_is_refused_with_a_close_frame_and_a_reason(server: Server, game: dict[str, Any],
                                                                           query: str) -> None:
    with _socket(server, game["id"], f"token={game['token']}&{query}") as ws:
        code, reason = _closed_with(ws)
    assert code == 1008, (code, reason)  # a close frame (no frame at all would leave rcvd None)
    assert reason is not None and "since" in reason and "10000000" in reason


def test_a_cursor_past_the_end_of_the_log_starts_at_its_end(server: Server, game: dict[str, Any]) -> None:
    with _socket(server, game["id"], f"token={game['token']}&since=5000&chat_since=9000") as ws:
        first = receive(ws)
    assert first["type"] == "state" and first["log"] == []
    assert first["log_start"] == first["log_pos"] == first["view"]["log_pos"] < 5000


def test_a_deeply_nested_message_is_refused_and_the_socket_stays_up(server: Server, game: dict[str, Any]) -> None:
    with _socket(server, game["id"], f"token={game['token']}") as ws:
        assert receive(ws)["type"] == "state"
        # within the 4 KiB a message may have: nesting far past any JSON parser's recursion limit
        for deep in ("[" * 2000 + "]" * 2000, '{"client_action_id": ' + "[" * 1900 + "]" * 1900 + "}"):
            ws.send(deep)
            answer = receive(ws)
            assert answer["type"] == "refused" and answer["status"] == 422, answer
            assert "JSON object" in answer["detail"] or "socket message" in answer["detail"]
        ws.send(json.dumps({"type": "act", "action": "nonsense", "seq": 0, "client_action_id": "n1"}))
        answer = receive(ws)
        assert answer["client_action_id"] == "n1" and answer["status"] in (409, 422), answer  # still answering
        ws.send("[" * 4000 + "]" * 4000)  # 8,000 bytes: over the size limit, closed with a frame that says so
        assert _closed_with(ws)[0] == 1009


def test_spectators_closed_for_flooding_leave_no_traceback(server: Server, game: dict[str, Any]) -> None:
    before = server.output()
    for _ in range(5):
        with _socket(server, game["id"], "") as ws:
            assert receive(ws)["type"] == "state"
            msg = json.dumps({"type": "act", "action": "x", "seq": 0, "client_action_id": "c"})
            try:
                for _ in range(120):
                    ws.send(msg)
            except ConnectionClosed:
                pass
            code, _reason = _closed_with(ws)
            assert code == 1008
    new = server.output()[len(before):]
    assert "Traceback" not in new and "Task exception" not in new, new[-3000:]


def test_a_token_is_redacted_however_its_parameter_is_spelled(server: Server, game: dict[str, Any]) -> None:
    token = game["token1"]
    for spelled in ("%74oken", "to%6Ben", "token"):
        with _socket(server, game["id"], f"{spelled}={token}") as ws:
            assert receive(ws)["seat"] == 1  # accepted as the seat: the parameter is the token
    log = server.output()
    assert "%74oken=[redacted]" in log
    assert token not in log and token[:12] not in log
