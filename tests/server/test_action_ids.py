"""Client action ids never collide with the server's own (issue 20, point 2): a client that gave an earlier move the
id a move clock's time-out would use cannot make that time-out hit the uniqueness rule and be dropped; ids in the
server's namespace are refused, over REST and over the socket, and change nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

from fastapi.testclient import TestClient

from tabletop.server.service import SERVER_ACTION_IDS

from .conftest import Factory, auth, state_of


def _silos_clocked(client: TestClient) -> tuple[str, dict[int, str]]:
    r = client.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 60,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    c = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]})
    assert c.status_code == 200, c.text
    return g["id"], {0: g["token"], 1: c.json()["token"]}


def _move(client: TestClient, gid: str, token: str, cid: str) -> dict[str, object]:
    s = state_of(client, gid, token)
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                    json={"action": s["legal"][0], "seq": s["seq"], "client_action_id": cid})
    assert r.status_code == 200, r.text
    body: dict[str, object] = r.json()
    return body


def test_a_client_id_shaped_like_the_clocks_does_not_stop_the_clock(make_client: Factory) -> None:
    """SILOS opens with leaders placed in turn, one action each: the second player's second decision stands from
    event 3. That player gives its first move the id `clock-3`, the id the clock once gave its time-out move of that
    decision; the clock still moves for it when its time runs out."""
    client = make_client(clock_tick=1000)  # ticked by hand
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    gid, tokens = _silos_clocked(client)
    first = state_of(client, gid)["to_move"]
    second = 1 - first
    _move(client, gid, tokens[first], "a1")
    _move(client, gid, tokens[second], "clock-3")
    _move(client, gid, tokens[first], "a2")
    now = state_of(client, gid, tokens[second])
    assert now["seq"] == 3 and now["to_move"] == second and now["decision_seq"] == 3, now  # the set-up holds
    t0 = datetime.now().astimezone()
    assert clocks.check(t0) == 0  # sets the deadline
    assert clocks.check(t0 + timedelta(seconds=61)) == 1  # the time-out move is committed, not dropped
    after = state_of(client, gid)
    assert after["seq"] == 4 and after["to_move"] == first
    notices = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert len(notices) == 1 and f"(seat {second + 1}) ran out of time" in notices[0]["text"]


def test_an_id_in_the_servers_namespace_is_refused_and_changes_nothing(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = _silos_clocked(client)
    seat = state_of(client, gid)["to_move"]
    s = state_of(client, gid, tokens[seat])
    for cid in (f"{SERVER_ACTION_IDS}clock-0", SERVER_ACTION_IDS):
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                        json={"action": s["legal"][0], "seq": s["seq"], "client_action_id": cid})
        assert r.status_code == 422, r.text
        assert "server's own" in r.json()["detail"] and "Traceback" not in r.text
        r = client.post(f"/api/games/{gid}/undo", headers=auth(tokens[seat]),
                        json={"count": 1, "seq": s["seq"], "client_action_id": cid})
        assert r.status_code == 422, r.text
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[seat]}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "act", "action": s["legal"][0], "seq": s["seq"],
                      "client_action_id": f"{SERVER_ACTION_IDS}x"})
        answer = ws.receive_json()
        assert answer["type"] == "refused" and answer["status"] == 422 and "server's own" in answer["detail"]
    assert state_of(client, gid)["seq"] == 0
