"""The asynchronous side of the Python client (`tabletop.client`), for programs that hold many seats in one event loop
(the load test, `tabletop.loadtest`): the same requests, answers and refusals (`ApiError`) as `Client`, over
`httpx.AsyncClient`, and the game's socket as a `websockets` asyncio connection.

    async with AsyncClient("http://127.0.0.1:8000", local_address="127.0.0.2") as c:
        made = await c.create("silos", players=2, seats=[{"kind": "creator"}, {"kind": "invite"}])
        seat, token = await c.claim(made.game_id, invite=made.invites[0]["code"])
        ws = await c.socket(made.game_id, token)

A request cut by a transport error (an idle keep-alive connection the server closed just as it was reused) is sent
again, up to `retries` times, and counted in `retried`: actions carry a client action id, so a retry is never
applied twice. Other refusals are an `ApiError` at once.
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tabletop.client import (
    ApiError,
    Created,
    answer_of,
    claim_payload,
    create_payload,
    created_of,
    socket_url,
    with_token,
)

__all__ = ["AsyncClient"]


class AsyncClient:
    """The server at `base_url`, from `local_address` if given (a loopback address of its own per simulated player)."""

    def __init__(self, base_url: str, timeout: float = 60.0, local_address: str | None = None,
                 verify: ssl.SSLContext | bool = True, retries: int = 3,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.local_address = local_address
        self.retries = retries
        self.retried = 0
        """Requests sent again after a transport error."""
        if transport is None:
            transport = httpx.AsyncHTTPTransport(local_address=local_address, verify=verify)
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the HTTP connections."""
        await self._http.aclose()

    async def request(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        """One request to the API; the decoded JSON answer, or ApiError (as `Client.request`)."""
        sent = with_token(token, kwargs)
        for attempt in range(self.retries + 1):
            try:
                r = await self._http.request(method, path, **sent)
                break
            except httpx.TransportError as e:
                if attempt == self.retries:
                    raise ApiError(0, f"the server at {self.base_url} did not answer: {e!r}", "unreachable") from None
                self.retried += 1
                await asyncio.sleep(0.05 * (attempt + 1))
        return answer_of(r)

    async def games(self) -> list[dict[str, Any]]:
        """The games this server plays (`GET /api/meta/games`)."""
        return list(await self.request("GET", "/api/meta/games"))

    async def create(self, game: str, players: int | None = None, seats: list[dict[str, Any]] | None = None,
                     options: dict[str, Any] | None = None, name: str | None = None, visibility: str | None = None,
                     move_seconds: float | None = None) -> Created:
        """Create a game (as `Client.create`; the server's default visibility, private, unless given)."""
        body = await self.request("POST", "/api/games", json=create_payload(game, players, options, seats, name,
                                                                           visibility, move_seconds))
        return created_of(body)

    async def claim(self, game_id: str, invite: str | None = None, seat: int | None = None,
                    name: str | None = None) -> tuple[int, str]:
        """Take a seat (an invited one by its code, or an open one): (its number, its token)."""
        body = await self.request("POST", f"/api/games/{game_id}/claim", json=claim_payload(invite, seat, name))
        return int(body["seat"]), str(body["token"])

    async def record(self, game_id: str) -> dict[str, Any]:
        """The finished game's record (409 before the end)."""
        record: dict[str, Any] = await self.request("GET", f"/api/games/{game_id}/record")
        return record

    async def log(self, game_id: str, token: str, start: int = 0) -> dict[str, Any]:
        """The seat's log entries from `start` on."""
        out: dict[str, Any] = await self.request("GET", f"/api/games/{game_id}/log", token=token,
                                                 params={"start": start})
        return out

    async def socket(self, game_id: str, token: str | None, since: int = 0, open_timeout: float = 60.0,
                     max_size: int = 2**22) -> ClientConnection:
        """The game's socket of live updates for the token's seat (from `local_address` if given)."""
        local = (self.local_address, 0) if self.local_address else None
        return await connect(socket_url(self.base_url, game_id, token, since), open_timeout=open_timeout,
                             max_size=max_size, local_addr=local)
