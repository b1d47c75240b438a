"""Live updates over the WebSocket: each seat gets exactly its own view, legal actions and log; origins checked."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

import tabletop

from .conftest import GAMES, Factory, auth, state_of, two_humans


def _collect_until(ws: Any, seq: int, into: list[dict[str, Any]]) -> None:
    while True:
        msg = ws.receive_json()
        into.append(msg)
        if msg["seq"] >= seq:
            return


@pytest.mark.parametrize("game", GAMES)
def test_every_socket_message_is_exactly_its_seats_own_picture(make_client: Factory, game: str) -> None:
    """Two people and a spectator, a whole game: each message equals that seat's view at that event."""
    client = make_client()
    gid, tokens = two_humans(client, game)
    rng = random.Random(f"ws-{game}")
    seats: list[int | None] = [0, 1, None]
    got: dict[int | None, list[dict[str, Any]]] = {s: [] for s in seats}
    with ExitStack() as stack:
        socks = {}
        for s in seats:
            q = f"?token={tokens[s]}" if s is not None else ""
            socks[s] = stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws{q}"))
        for s in seats:
            got[s].append(socks[s].receive_json())
        while True:
            pub = state_of(client, gid)
            if pub["status"] == "over":
                break
            mover = pub["to_move"]
            mine = state_of(client, gid, tokens[mover])
            r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                            json={"action": rng.choice(mine["legal"]), "seq": mine["seq"]})
            assert r.status_code == 200, r.text
            for s in seats:
                _collect_until(socks[s], r.json()["seq"], got[s])
    record = client.get(f"/api/games/{gid}/record").json()
    states = [tabletop.replay(record, upto=k) for k in range(len(record["actions"]) + 1)]
    for s in seats:
        cursor = 0
        assert got[s][-1]["status"] == "over"
        for msg in got[s]:
            truth = states[msg["seq"]]
            assert msg["seat"] == s
            assert msg["view"] == truth.view(s), f"seat {s} at event {msg['seq']}: view differs from view({s})"
            own = [a.text for a in truth.legal_actions_for(s)] if s is not None and not truth.is_over else []
            assert msg["legal"] == (own if msg["status"] == "playing" else [])
            if msg["status"] == "playing":
                assert msg["deciding"] == truth.deciding()
                if s is not None:
                    assert msg["owes_decision"] == (s in truth.deciding())
            assert msg["log_start"] == cursor
            assert msg["log"] == truth.log(s, cursor)
            cursor = msg["log_pos"]


@pytest.mark.parametrize("game", GAMES)
def test_a_reconnecting_client_catches_up_from_its_log_index(make_client: Factory, game: str) -> None:
    client = make_client()
    gid, tokens = two_humans(client, game)
    for _ in range(6):
        pub = state_of(client, gid)
        mine = state_of(client, gid, tokens[pub["to_move"]])
        client.post(f"/api/games/{gid}/actions", headers=auth(tokens[pub["to_move"]]),
                    json={"action": mine["legal"][0], "seq": mine["seq"]})
    full = client.get(f"/api/games/{gid}/log", headers=auth(tokens[0])).json()
    assert full["log_pos"] == len(full["entries"]) == state_of(client, gid, tokens[0])["log_pos"]
    k = len(full["entries"]) // 2
    tail = client.get(f"/api/games/{gid}/log?start={k}", headers=auth(tokens[0])).json()
    assert tail["entries"] == full["entries"][k:]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}&since={k}") as ws:
        msg = ws.receive_json()
    assert msg["log"] == full["entries"][k:] and msg["log_pos"] == full["log_pos"]


def test_sockets_refuse_foreign_origins_and_bad_tokens(make_client: Factory) -> None:
    client = make_client(public_url="https://games.example.org")
    gid, tokens = two_humans(client, "silencio")
    url = f"/api/games/{gid}/ws?token={tokens[0]}"
    evil = {"Origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(url, headers=evil) as ws:
        ws.receive_json()
    assert e.value.code == 1008
    with client.websocket_connect(url, headers={"Origin": "https://games.example.org"}) as ws:
        assert ws.receive_json()["seat"] == 0
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/api/games/{gid}/ws?token=wrong") as ws:
        ws.receive_json()
