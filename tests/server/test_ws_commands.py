"""Acting over the game's socket: the same service call as REST (same checks, same answers), matched to the
client's action id; bad messages are refused with what is accepted, and nothing changes."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import WebSocketTestSession

import tabletop

from .conftest import Factory, auth, create, state_of, two_humans


def _until(ws: WebSocketTestSession, pred: Any) -> dict[str, Any]:
    """Read the socket until a message satisfies `pred` (skipping the others): that message."""
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("no such message in 50")


def _answer(ws: WebSocketTestSession, cid: str | None) -> dict[str, Any]:
    return _until(ws, lambda m: m["type"] in ("ack", "refused") and m.get("client_action_id") == cid)


def test_a_whole_game_played_over_the_sockets_matches_its_record(make_client: Factory) -> None:
    client = make_client(max_socket_messages_per_second=10_000)  # bots faster than any person
    gid, tokens = two_humans(client, "silencio")
    rng = random.Random(3)
    sent: list[tuple[int, str]] = []
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as w0, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as w1:
        socks = [w0, w1]
        latest = [_until(w, lambda m: m["type"] == "state") for w in socks]
        n = 0
        while latest[0]["status"] != "over":
            seat = next(s for s in (0, 1) if latest[s]["legal"])
            action = rng.choice(latest[seat]["legal"])
            n += 1
            socks[seat].send_json({"type": "act", "action": action, "seq": latest[seat]["seq"],
                                   "client_action_id": f"c{n}"})
            ack = _answer(socks[seat], f"c{n}")
            assert ack["type"] == "ack" and ack["action"] == action and not ack["duplicate"], ack
            sent.append((seat, action))
            for s in (0, 1):
                latest[s] = _until(socks[s], lambda m, q=ack["seq"]: m["type"] == "state" and m["seq"] >= q)
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["actions"] == [a for _, a in sent]
    assert tabletop.replay(record).is_over


def _answer_then_state(ws: WebSocketTestSession, cid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Read the acting socket until the answer to `cid` and then a state at the answered `seq` have come: the pair.
    Fails if a state at that `seq` came before the answer (the answer goes out before the state it causes)."""
    early: list[int] = []
    answer: dict[str, Any] = {}
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in ("ack", "refused") and msg.get("client_action_id") == cid:
            answer = msg
            assert all(seq < answer["seq"] for seq in early), (early, answer)
        elif msg["type"] == "state" and not answer:
            early.append(msg["seq"])
        elif msg["type"] == "state" and msg["seq"] >= answer["seq"]:
            return answer, msg
    raise AssertionError(f"no answer to {cid} and state after it in 50 messages (states before it: {early})")


def test_the_acting_socket_gets_its_ack_before_the_state_the_action_caused(make_client: Factory) -> None:
    client = make_client(max_socket_messages_per_second=10_000)
    gid, tokens = two_humans(client, "silos")
    rng = random.Random(5)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as w0, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as w1:
        socks = [w0, w1]
        latest = [_until(w, lambda m: m["type"] == "state") for w in socks]
        for n in range(30):
            if latest[0]["status"] == "over":
                break
            seat = next(s for s in (0, 1) if latest[s]["legal"])
            socks[seat].send_json({"type": "act", "action": rng.choice(latest[seat]["legal"]),
                                   "seq": latest[seat]["seq"], "client_action_id": f"o{n}"})
            ack, latest[seat] = _answer_then_state(socks[seat], f"o{n}")
            assert ack["type"] == "ack" and latest[seat]["seq"] == ack["seq"], (ack, latest[seat])
            other = 1 - seat
            latest[other] = _until(socks[other], lambda m, q=ack["seq"]: m["type"] == "state" and m["seq"] >= q)
        assert n >= 10  # enough moves to have seen the order many times


def test_an_undo_over_the_socket_is_answered_before_the_state_it_causes(make_client: Factory) -> None:
    client = make_client()
    g = create(client, "siliconvania", [{"kind": "creator"}, {"kind": "invite"}, {"kind": "invite"}])
    for inv in g["invites"]:  # three people seated: the game starts
        assert client.post(f"/api/games/{g['id']}/claim", json={"invite": inv["code"]}).status_code == 200
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['token']}") as ws:
        st = _until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "act", "action": st["legal"][3], "seq": st["seq"], "client_action_id": "bid"})
        ack, st = _answer_then_state(ws, "bid")
        assert ack["type"] == "ack" and st["undoable"] == 1, (ack, st)
        ws.send_json({"type": "undo", "count": 1, "seq": st["seq"], "client_action_id": "back"})
        ack, st = _answer_then_state(ws, "back")
        assert (ack["type"], ack["kind"], st["seq"], st["undoable"]) == ("ack", "undo", ack["seq"], 0), (ack, st)


def test_an_illegal_action_over_the_socket_is_refused_with_the_seats_legal_actions_and_changes_nothing(
        make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    before = state_of(client, gid, tokens[0])
    mover = before["to_move"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[mover]}") as ws:
        seq = _until(ws, lambda m: m["type"] == "state")["seq"]
        ws.send_json({"type": "act", "action": "fly to the moon", "seq": seq, "client_action_id": "x1"})
        refused = _answer(ws, "x1")
    assert refused["status"] == 422
    assert "is not legal now" in refused["detail"]
    assert refused["legal"] == state_of(client, gid, tokens[mover])["legal"]
    assert state_of(client, gid, tokens[0]) == before


def test_a_stale_action_over_the_socket_gets_409_with_the_seats_state(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    s = state_of(client, gid, tokens[0])
    mover = s["to_move"]
    mine = state_of(client, gid, tokens[mover])
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                    json={"action": mine["legal"][0], "seq": mine["seq"]})
    assert r.status_code == 200
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[mover]}") as ws:
        _until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "act", "action": mine["legal"][0], "seq": mine["seq"], "client_action_id": "old"})
        refused = _answer(ws, "old")
    assert refused["status"] in (409,)
    assert refused["state"]["seat"] == mover


def test_a_retried_socket_action_gets_the_original_success_and_is_applied_once(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    mover = state_of(client, gid)["to_move"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[mover]}") as ws:
        st = _until(ws, lambda m: m["type"] == "state")
        body = {"type": "act", "action": st["legal"][0], "seq": st["seq"], "client_action_id": "same"}
        ws.send_json(body)
        first = _answer(ws, "same")
        ws.send_json(body)
        again = _answer(ws, "same")
    assert first["type"] == again["type"] == "ack"
    assert (again["seq"], again["action"], again["duplicate"]) == (first["seq"], first["action"], True)
    assert state_of(client, gid)["seq"] == first["seq"]


def test_malformed_socket_messages_are_refused_with_what_is_accepted_and_change_nothing(
        make_client: Factory) -> None:
    client = make_client(max_socket_messages_per_second=10_000)
    gid, tokens = two_humans(client, "siliconvania")
    before = state_of(client, gid, tokens[0])
    bad: list[str] = [
        "not json", "[]", "{}", '{"type": "act"}', '{"type": "fly", "client_action_id": "b"}',
        '{"type": "act", "action": "x", "seq": -1, "client_action_id": "b"}',
        '{"type": "act", "action": "x", "seq": 0, "client_action_id": "b", "extra": 1}',
        '{"type": "undo", "count": 0, "seq": 0, "client_action_id": "b"}',
        '{"type": "act", "action": "", "seq": 0, "client_action_id": "b"}',
        '{"type": "act", "action": "x", "seq": 0, "client_action_id": ""}',
    ]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
        _until(ws, lambda m: m["type"] == "state")
        for text in bad:
            ws.send_text(text)
            got = _until(ws, lambda m: m["type"] == "refused")
            assert got["status"] == 422, (text, got)
            assert '"type": "act"' in got["detail"] and "Traceback" not in got["detail"], got
        ws.send_json({"type": "undo", "count": 1, "seq": before["seq"], "client_action_id": "u"})
        assert _answer(ws, "u")["status"] == 409  # nothing of this seat's to take back: the socket still answers
    assert state_of(client, gid, tokens[0]) == before


def test_a_spectator_socket_cannot_act(make_client: Factory) -> None:
    client = make_client()
    gid, _tokens = two_humans(client, "silos")
    before = state_of(client, gid)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        st = _until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "act", "action": "pass", "seq": st["seq"], "client_action_id": "s"})
        assert _answer(ws, "s")["status"] == 401
    assert state_of(client, gid) == before


def test_socket_actions_spend_the_tokens_rate_limit(make_client: Factory) -> None:
    client = make_client(rate_per_token=0.01, burst_per_token=3)
    gid, tokens = two_humans(client, "silos")
    mover = state_of(client, gid)["to_move"]
    other = tokens[1 - mover]  # 2 of its 3 requests spent on claiming and connecting: one more, then refused
    with client.websocket_connect(f"/api/games/{gid}/ws?token={other}") as ws:
        st = _until(ws, lambda m: m["type"] == "state")
        statuses = []
        for i in range(3):
            ws.send_json({"type": "act", "action": "pass", "seq": st["seq"], "client_action_id": f"r{i}"})
            statuses.append(_answer(ws, f"r{i}")["status"])
    assert statuses[-1] == 429 and 429 not in statuses[:1], statuses
