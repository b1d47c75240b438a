"""Rate limits per client address and per token (token buckets), answered with 429 and `Retry-After`.

Every HTTP request and every socket opened spends one token from its address's bucket and, if it carries a seat
or creator token (`Authorization: Bearer`, or `?token=` on a socket), one from that token's bucket. A bucket holds
`burst` and refills at `rate` per second. Behind a reverse proxy the address is the one the proxy reports in
`X-Forwarded-For` (uvicorn trusts it from the proxy addresses in `--forwarded-allow-ips`, 127.0.0.1 by default).
"""

from __future__ import annotations

import math
import threading
import time
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
