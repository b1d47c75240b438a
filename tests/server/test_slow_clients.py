"""Slow clients against a real `tabletop serve` (uvicorn and all): unfinished request heads get 408 and are closed
after `TABLETOP_HEAD_TIMEOUT`, silent connections after `TABLETOP_IDLE_TIMEOUT`, one address holds at most
`TABLETOP_MAX_CONNECTIONS_PER_ADDRESS` connections (503 beyond; sockets count, and are released when they close),
oversized heads get 431, and a normal client is served meanwhile. The measurement with the real numbers:
tests/server/slow_clients.py."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .proc import Server, free_port
from .slow_clients import measure

ENV = {"TABLETOP_HEAD_TIMEOUT": "1.5", "TABLETOP_IDLE_TIMEOUT": "1", "TABLETOP_MAX_CONNECTIONS_PER_ADDRESS": "5",
       "TABLETOP_MAX_HEAD_BYTES": "4096"}
CLIENT = "127.0.0.2"  # not a trusted proxy address (127.0.0.1 is)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("slow")
    s = Server(f"sqlite:///{tmp / 'db.sqlite3'}", tmp / "server.log", env=ENV).start()
    yield s
    s.stop()
    assert "Traceback" not in s.output() and "internal error" not in s.output(), s.output()[-3000:]


def raw(port: int, source: str = CLIENT) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.settimeout(10)
    return s


def read_all(s: socket.socket) -> bytes:
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


def test_unfinished_heads_and_silent_connections_are_closed_and_one_address_is_capped(server: Server) -> None:
    r = measure(server.port, partial=12, silent=3, watch=15)
    times = [t for t in r.partial + r.silent if t is not None]
    assert len(times) == 15, r.lines()  # every slow socket was closed by the server
    assert max(times) < 4, r.lines()
    assert r.answered.count(503) == 10 and r.answered.count(408) == 5, r.lines()  # 5 admitted, the rest refused
    assert r.normal_failed == 0 and r.normal_ok >= 2, r.lines()


def test_a_closed_connection_frees_its_place_sockets_included(server: Server) -> None:
    game = httpx.post(f"{server.url}/api/games", json={"game": "silos", "players": 2, "visibility": "public"})
    gid = game.json()["id"]
    with ExitStack() as sockets:
        for _ in range(5):
            sockets.enter_context(connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws", sock=raw(server.port),
                                          open_timeout=10))
        over = raw(server.port)
        assert read_all(over).startswith(b"HTTP/1.1 503 "), "a sixth connection from the address is refused"
        with httpx.Client(base_url=server.url, timeout=10) as local:  # 127.0.0.1: a trusted proxy, not counted
            assert local.get("/api/meta/games").status_code == 200
    time.sleep(0.3)
    s = raw(server.port)
    s.sendall(b"GET /api/meta/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert read_all(s).startswith(b"HTTP/1.1 200 "), "the closed sockets gave their places back"


def test_a_kept_alive_connection_serves_request_after_request(server: Server) -> None:
    s = raw(server.port)
    for _ in range(3):  # each head is timed from the end of the previous answer, not from the connection's start
        time.sleep(0.7)
        s.sendall(b"GET /api/meta/games HTTP/1.1\r\nHost: x\r\n\r\n")
        head = s.recv(65536)
        assert head.startswith(b"HTTP/1.1 200 "), head[:200]
        time.sleep(0.2)
        while b"\r\n\r\n" not in head:
            head += s.recv(65536)
        s.setblocking(False)
        try:
            while s.recv(65536):
                pass
        except BlockingIOError:
            pass
        s.setblocking(True)
        s.settimeout(10)
    s.close()


def test_an_oversized_head_gets_431(server: Server) -> None:
    s = raw(server.port)
    s.sendall(b"GET /api/meta/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 5000)
    answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 431 ") and b"limited to 4096 bytes" in answer, answer[:300]


def test_a_body_that_does_not_come_gets_408_and_a_timely_one_is_served(server: Server) -> None:
    s = raw(server.port)
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
    start = time.monotonic()
    answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"request body must arrive" in answer, answer[:300]
    assert 1.0 < time.monotonic() - start < 4
    s = raw(server.port)
    body = b'{"game": "silos", "players": 2}'
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body) + body[:5])
    time.sleep(0.5)
    s.sendall(body[5:])
    assert read_all(s).startswith(b"HTTP/1.1 201 ")


@pytest.mark.parametrize("h11", [False, True], ids=["httptools", "h11"])
def test_the_guard_works_on_both_of_uvicorns_http_protocols(h11: bool) -> None:
    """The same limits on a bare ASGI app served by uvicorn in a thread, with each HTTP implementation."""
    import threading

    import uvicorn

    from tabletop.server.limits import ConnectionGuard, guarded_http

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = ConnectionGuard(head_timeout=1.0, idle_timeout=0.5, max_head_bytes=4096, per_address=2,
                            trusted=["127.0.0.1"])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=guarded_http(guard, h11=h11),
                                           lifespan="off", log_level="warning", timeout_keep_alive=1,
                                           h11_max_incomplete_event_size=4096))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        silent, partial = raw(port), raw(port)
        partial.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert read_all(raw(port)).startswith(b"HTTP/1.1 503 ")  # a third from 127.0.0.2
        start = time.monotonic()
        assert read_all(silent) == b"" and time.monotonic() - start < 1.0  # idle: closed after 0.5 s
        assert read_all(partial).startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - start < 2.0
        ok = raw(port)
        ok.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert read_all(ok).startswith(b"HTTP/1.1 200 ")  # the closed ones gave their places back
        big = raw(port)
        big.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 5000)
        assert read_all(big)[:13] == (b"HTTP/1.1 400 " if h11 else b"HTTP/1.1 431 ")  # h11's own limit: 400
        assert guard.open == {}
    finally:
        server.should_exit = True
        thread.join(10)
