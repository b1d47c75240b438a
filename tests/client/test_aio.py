"""The asyncio side of the Python client (`tabletop.client.aio`, the load test's client): the same answers and
refusals as `Client`, a request cut by a transport error sent again and counted, and the same socket URL."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tabletop.client import ApiError, Client
from tabletop.client.aio import AsyncClient


def _handler(cuts: list[int]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        if cuts[0] > 0:
            cuts[0] -= 1
            raise httpx.RemoteProtocolError("server closed the idle connection", request=request)
        if request.url.path == "/api/games" and request.method == "POST":
            body = json.loads(request.content)
            assert body["game"] == "silos" and body["players"] == 2
            return httpx.Response(201, json={"id": "g1", "creator_token": "c", "seat": 0, "token": "t0",
                                             "invites": [{"seat": 1, "code": "abc"}]})
        if request.url.path == "/api/games/g1/claim":
            assert json.loads(request.content) == {"invite": "abc"}
            return httpx.Response(200, json={"seat": 1, "token": "t1"})
        if request.url.path == "/api/games/g1/log":
            assert request.headers["Authorization"] == "Bearer t1" and request.url.params["start"] == "0"
            return httpx.Response(200, json={"entries": [], "log_pos": 0})
        return httpx.Response(409, json={"detail": "the game is not over", "kind": "conflict", "legal": ["pass"]})
    return httpx.MockTransport(handle)


def test_answers_refusals_and_a_retried_transport_error() -> None:
    async def go() -> None:
        cuts = [2]
        async with AsyncClient("http://h:1/", transport=_handler(cuts)) as c:
            made = await c.create("silos", 2, [{"kind": "creator"}, {"kind": "invite"}])
            assert (made.game_id, made.token, made.invites[0]["code"]) == ("g1", "t0", "abc")
            assert c.retried == 2 and cuts == [0]  # cut twice, sent again twice, answered once
            assert await c.claim("g1", invite="abc") == (1, "t1")
            assert (await c.log("g1", "t1"))["log_pos"] == 0
            with pytest.raises(ApiError) as refused:
                await c.record("g1")
            assert refused.value.status == 409 and refused.value.detail == "the game is not over"
            assert refused.value.kind == "conflict" and refused.value.legal == ["pass"]
        async with AsyncClient("http://h:1", transport=_handler([9]), retries=3) as c:
            with pytest.raises(ApiError) as down:
                await c.games()
            assert down.value.status == 0 and down.value.kind == "unreachable" and c.retried == 3

    asyncio.run(go())


def test_its_socket_url_is_the_sync_clients() -> None:
    with Client("https://host/prefix/") as sync:
        assert sync.socket_url("g1", "tok", 5) == "wss://host/prefix/api/games/g1/ws?since=5&token=tok"
    from tabletop.client import socket_url
    assert socket_url("http://h:1", "g", None) == "ws://h:1/api/games/g/ws?since=0"
