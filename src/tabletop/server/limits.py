"""Rate limits per client address and per token (token buckets), answered with 429 and `Retry-After`.

Every HTTP request and every socket opened spends one token from its address's bucket and, if it carries a seat
or creator token (`Authorization: Bearer`, or `?token=` on a socket), one from that token's bucket. A bucket holds
`burst` and refills at `rate` per second. Behind a reverse proxy the address is the one the proxy reports in
`X-Forwarded-For` (uvicorn trusts it from `Settings.trusted_proxies` only: 127.0.0.1 and ::1 by default).

Below the application, `ConnectionGuard` (applied by `guarded_http` to uvicorn's HTTP protocol) bounds slow clients:
a header timeout, an idle timeout, a head size and a cap on one address's open connections.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import threading
import time
from typing import TYPE_CHECKING, Any, ClassVar, cast
from urllib.parse import parse_qs

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

TRY_AGAIN_LATER = 1013


class Buckets:
    """Token buckets by key; thread-safe; idle full buckets are forgotten so memory stays bounded."""

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._lock = threading.Lock()
        self._b: dict[str, tuple[float, float]] = {}  # key -> (tokens, time)

    def take(self, key: str, now: float | None = None) -> float:
        """Spend one token for `key`: 0 if allowed, else the seconds until one is available."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._b.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens >= 1:
                self._b[key] = (tokens - 1, now)
                if len(self._b) > self.max_keys:
                    self._prune(now)
                return 0.0
            self._b[key] = (tokens, now)
            return (1 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        full = [k for k, (t, then) in self._b.items() if t + (now - then) * self.rate >= self.burst]
        for k in full:
            del self._b[k]


class RateLimit:
    """ASGI middleware: per-address and per-token buckets over HTTP requests and socket connections."""

    def __init__(self, app: ASGIApp, per_address: Buckets, per_token: Buckets) -> None:
        self.app, self.per_address, self.per_token = app, per_address, per_token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        wait = self.per_address.take(address)
        token = _token(scope)
        if not wait and token is not None:
            wait = self.per_token.take(token)
        if not wait:
            await self.app(scope, receive, send)
            return
        retry = max(1, math.ceil(wait))
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": "rate limited"})
            return
        await JSONResponse({"detail": f"too many requests; try again in {retry} s"}, status_code=429,
                           headers={"Retry-After": str(retry)})(scope, receive, send)


def _token(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip()[:200] or None if scheme.lower() == "bearer" else None
    if scope["type"] == "websocket":
        tokens = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
        return tokens[0][:200] if tokens else None
    return None


# ---- slow clients: header and idle timeouts, open connections per address (below the ASGI app, in uvicorn) ----

if TYPE_CHECKING:
    class _UvicornHttp(asyncio.Protocol):
        """What the guard uses of uvicorn's HTTP protocols (httptools_impl and h11_impl alike)."""

        cycle: Any
        transport: asyncio.Transport
        loop: asyncio.AbstractEventLoop

        def on_response_complete(self) -> None: ...

        def handle_websocket_upgrade(self, *args: Any) -> None: ...
else:
    _UvicornHttp = asyncio.Protocol


class ConnectionGuard:
    """The limits on connections of one server, and its count of open connections per client address.

    - `head_timeout`: seconds a connection has to complete a request head (request line and headers), counted from
      its opening and, on a kept-alive connection, from the end of the previous answer; then 408 and closed. A
      request body has as long again from the end of its head.
    - `idle_timeout`: seconds a new connection may send nothing at all before it is closed (between requests,
      uvicorn's keep-alive timeout does the same).
    - `max_head_bytes`: a longer request head gets 431 and is closed.
    - `per_address`: open connections (HTTP and sockets) one address may hold at once; one more gets 503 and is
      closed. Connections from `trusted` addresses (the reverse proxies whose X-Forwarded-For is believed) are not
      counted: behind a proxy every client arrives from it, and the proxy limits its clients itself.
    0 turns a limit off. Used from the event loop's thread only."""

    def __init__(self, head_timeout: float, idle_timeout: float, max_head_bytes: int, per_address: int,
                 trusted: list[str]) -> None:
        self.head_timeout, self.idle_timeout = head_timeout, idle_timeout
        self.max_head_bytes, self.per_address = max_head_bytes, per_address
        self.trusted = [ipaddress.ip_network(t, strict=False) for t in trusted]
        self.open: dict[str, int] = {}
        self.refused = 0
        self.timed_out = 0

    def counted(self, address: str | None) -> bool:
        """Whether connections from `address` count against the per-address limit."""
        if self.per_address <= 0 or not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False  # not an IP peer (a Unix socket)
        return not any(ip in net for net in self.trusted)

    def admit(self, address: str) -> bool:
        """Count a new connection from `address`, unless it is one too many (then False, nothing counted)."""
        n = self.open.get(address, 0)
        if n >= self.per_address:
            self.refused += 1
            return False
        self.open[address] = n + 1
        return True

    def release(self, address: str) -> None:
        """A counted connection from `address` closed."""
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)


def _answer(status: int, reason: str, detail: str, extra: str = "") -> bytes:
    body = json.dumps({"detail": detail}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n{extra}\r\n").encode() + body


class _Guarded(_UvicornHttp):
    """Mixed into uvicorn's HTTP protocol: applies `guard` (a ConnectionGuard) to each connection."""

    guard: ClassVar[ConnectionGuard]
    _address: str | None = None
    _head_timer: asyncio.TimerHandle | None = None
    _idle_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None
    _body_cycle: Any = None
    _head_bytes = 0
    _handed_over = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # uvloop's transports are not asyncio.Transport subclasses
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else None
        g = self.guard
        if g.counted(address):
            assert address is not None
            if not g.admit(address):
                cast(asyncio.Transport, transport).write(_answer(503, "Service Unavailable",
                                        f"too many connections from your address (at most {g.per_address} at once)",
                                        "retry-after: 5\r\n"))
                transport.close()
                return
            self._address = address
        if g.idle_timeout > 0:
            self._idle_timer = self.loop.call_later(g.idle_timeout, self._timed_out, False)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None
        if self._address is not None and not self._handed_over:
            self.guard.release(self._address)
            self._address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        waiting = self._head_timer is not None
        before = self.cycle
        self._head_bytes += len(data)
        super().data_received(data)
        if self._body_timer is not None and not self._body_cycle.more_body:
            self._body_timer.cancel()  # the body came in time
            self._body_timer = None
        if self._handed_over or self.cycle is not before:
            self._disarm()  # a request head arrived (or the connection became a socket)
            cycle = self.cycle
            if cycle is not before and cycle.more_body and self.guard.head_timeout > 0:
                self._body_cycle = cycle
                self._body_timer = self.loop.call_later(self.guard.head_timeout, self._body_timed_out, cycle)
        elif waiting and 0 < self.guard.max_head_bytes < self._head_bytes and not self.transport.is_closing():
            self._refuse(431, "Request Header Fields Too Large",
                         f"request heads are limited to {self.guard.max_head_bytes} bytes")

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # kept alive, nothing pipelined: the next head is timed from now

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(*args)
        protocol = self.transport.get_protocol()
        if protocol is self:
            return
        self._handed_over = True
        address = self._address
        if address is None:
            return
        lost = protocol.connection_lost
        guard = self.guard

        def connection_lost(exc: Exception | None) -> None:
            guard.release(address)
            lost(exc)

        protocol.connection_lost = connection_lost  # type: ignore[method-assign]

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_bytes = 0
        if self.guard.head_timeout > 0:
            self._head_timer = self.loop.call_later(self.guard.head_timeout, self._timed_out, True)

    def _disarm(self) -> None:
        for timer in (self._head_timer, self._idle_timer):
            if timer is not None:
                timer.cancel()
        self._head_timer = self._idle_timer = None

    def _timed_out(self, head: bool) -> None:
        if self.transport.is_closing():
            return
        self.guard.timed_out += 1
        if head and self._head_bytes:
            self._refuse(408, "Request Timeout",
                         f"a request head must arrive within {self.guard.head_timeout:g} s")
        else:
            self._disarm()
            self.transport.close()

    def _body_timed_out(self, cycle: Any) -> None:
        """A request body (at most `max_body_bytes`, checked in the app) still incomplete `head_timeout` after its
        head: 408, unless the application answered already, and closed; the application sees a disconnect."""
        self._body_timer = None
        if self.transport.is_closing() or not cycle.more_body:
            return
        self.guard.timed_out += 1
        started = cycle.response_started
        cycle.disconnected = True  # the application's answer, if any comes, goes nowhere
        cycle.message_event.set()
        if not started:
            self.transport.write(_answer(408, "Request Timeout",
                                         f"a request body must arrive within {self.guard.head_timeout:g} s of its "
                                         f"head"))
        self.transport.close()

    def _refuse(self, status: int, reason: str, detail: str) -> None:
        self._disarm()
        self.transport.write(_answer(status, reason, detail))
        self.transport.close()


def guarded_http(guard: ConnectionGuard, h11: bool = False) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools when installed and not `h11`, else h11) with `guard` applied:
    `uvicorn.Config(http=...)`."""
    base: type[_Guarded]
    try:
        if h11:
            raise ImportError("h11 asked for")
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        class GuardedHttpTools(_Guarded, HttpToolsProtocol):
            pass

        base = GuardedHttpTools
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        class GuardedH11(_Guarded, H11Protocol):
            pass

        base = GuardedH11
    return type("GuardedHttp", (base,), {"guard": guard})
