"""Garbage to every endpoint (paths, query parameters, headers, bodies, socket messages): each answer is a clear 4xx
with a JSON `{"detail": ...}` and no stack trace, no game changes, and nothing is ever a 5xx."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from .conftest import Factory, auth, create, two_humans

ENDPOINTS = [  # (method, path template): {gid} is a real game's id or garbage
    ("GET", "/api/meta/games"), ("POST", "/api/games"), ("GET", "/api/games"), ("GET", "/api/games/{gid}"),
    ("POST", "/api/games/{gid}/claim"), ("POST", "/api/games/{gid}/reseat"), ("POST", "/api/games/{gid}/actions"),
    ("GET", "/api/games/{gid}/state"), ("GET", "/api/games/{gid}/log"), ("GET", "/api/games/{gid}/record"),
    ("POST", "/api/games/{gid}/undo"),
    ("POST", "/api/games/{gid}/hints"), ("POST", "/api/games/{gid}/chat"), ("GET", "/api/games/{gid}/chat"),
    ("GET", "/api/games/{gid}/clock"),
]
READS = {path for method, path in ENDPOINTS if method == "GET"} | {"/api/games/{gid}/hints"}
"""Requests that may succeed and change nothing (a hint asked with the real token of the seat to move)."""
KEYS = ["game", "players", "options", "visibility", "seats", "creator_name", "invite", "seat", "name", "action",
        "seq", "client_action_id", "count", "kind", "ai", "start", "token", "since", "move_seconds", "chat_since"]
# not "text": {"text": "hi"} with a real token is a valid chat line, not garbage (bad lines: tests/server/test_chat.py)

text = st.text(max_size=60)
ascii_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False), text)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(KEYS) | text, inner, max_size=4), max_leaves=12)
bodies = st.one_of(
    st.none(),
    st.binary(max_size=300),
    values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(KEYS), values, max_size=5).map(lambda v: json.dumps(v).encode()),
)
garbage_ids = st.one_of(st.just("{gid}"), st.text(max_size=40), st.just("0" * 32), st.just("f" * 33))
headers = st.dictionaries(
    st.sampled_from(["Authorization", "Content-Type", "Origin", "Content-Length", "X-Forwarded-For", "Accept"]),
    st.one_of(ascii_text, ascii_text.map(lambda t: "Bearer " + t)), max_size=3)
queries = st.dictionaries(st.sampled_from(KEYS) | ascii_text, ascii_text, max_size=3)


def snapshot(client: TestClient, gid: str, tokens: list[str]) -> Any:
    return ([client.get(f"/api/games/{gid}/state", headers=auth(t)).json() for t in tokens],
            client.get(f"/api/games/{gid}").json(), client.get("/api/games").json(),
            client.get(f"/api/games/{gid}/chat").json(), client.get(f"/api/games/{gid}/clock").json())


def check_answer(r: httpx.Response, read: bool) -> None:
    assert r.status_code < 500, (r.status_code, r.text)
    assert "Traceback" not in r.text and 'File "' not in r.text
    if read and r.status_code == 200:  # a harmless read (say, unknown query parameters are ignored)
        return
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body, dict) and "detail" in body, r.text


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_garbage_to_every_http_endpoint_gets_a_clear_4xx_and_changes_nothing(make_client: Factory,
                                                                              data: st.DataObject) -> None:
    client = fuzz_client(make_client)
    gid, tokens = client.fuzz_game  # type: ignore[attr-defined]
    before = client.fuzz_before  # type: ignore[attr-defined]
    method, path = data.draw(st.sampled_from(ENDPOINTS))
    if data.draw(st.booleans()):
        method = data.draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]))
    path = path.replace("{gid}", data.draw(garbage_ids)).replace("{gid}", gid)
    if data.draw(st.integers(0, 9)) == 0:
        path += "/" + data.draw(st.text(max_size=20))
    h = data.draw(headers)
    if data.draw(st.booleans()):  # a real seat token, with a garbage request
        h["Authorization"] = f"Bearer {tokens[data.draw(st.integers(0, 1))]}"
    body = data.draw(bodies)
    try:
        r = client.request(method, path, params=data.draw(queries), headers=h, content=body)
    except (httpx.InvalidURL, UnicodeEncodeError, ValueError):
        return  # the client refuses to send it at all
    final = r.url.path  # after a redirect to the canonical path (a trailing slash)
    read = method == "GET" or final.endswith("/hints")
    check_answer(r, read=read and any(final == t.replace("{gid}", gid) for t in READS))
    assert snapshot(client, gid, tokens) == before


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=queries, messages=st.lists(st.one_of(st.binary(max_size=6000), st.text(max_size=5000)), max_size=4),
       use_gid=st.booleans())
def test_garbage_to_the_socket_closes_it_or_is_ignored_and_changes_nothing(
        make_client: Factory, query: dict[str, str], messages: list[str | bytes], use_gid: bool) -> None:
    client = fuzz_client(make_client)
    gid, tokens = client.fuzz_game  # type: ignore[attr-defined]
    q = httpx.QueryParams(query)
    path = f"/api/games/{gid if use_gid else 'zz'}/ws?{q}"
    try:
        with client.websocket_connect(path) as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and "Traceback" not in json.dumps(first)
            for m in messages:
                ws.send_bytes(m) if isinstance(m, bytes) else ws.send_text(m)
    except WebSocketDisconnect as e:
        assert e.code in (1000, 1008, 1009, 1013), e.code
    assert snapshot(client, gid, tokens) == client.fuzz_before  # type: ignore[attr-defined]


_clients: dict[int, TestClient] = {}


def fuzz_client(make_client: Factory) -> TestClient:
    """One app per test (hypothesis runs many examples inside one test): a game of two people, an AI game."""
    key = id(make_client)
    if key not in _clients:
        _clients.clear()
        client = make_client(hint_seconds=0.01)
        gid, tokens = two_humans(client, "silos")
        create(client, "silencio", [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}], visibility="public")
        for _ in range(300):  # play on until no seat may undo: a garbage request must not be able to change it
            seat = client.get(f"/api/games/{gid}/state").json()["to_move"]
            mine = client.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json()
            client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                        json={"action": mine["legal"][0], "seq": mine["seq"]})
            pics = [client.get(f"/api/games/{gid}/state", headers=auth(t)).json() for t in tokens]
            if not any(p["undoable"] for p in pics):
                break
        client.fuzz_game = (gid, tokens)  # type: ignore[attr-defined]
        client.fuzz_before = snapshot(client, gid, tokens)  # type: ignore[attr-defined]
        _clients[key] = client
    return _clients[key]
