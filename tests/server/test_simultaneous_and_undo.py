"""Over the wire: simultaneous decisions (SiliconVania's bids) and undo, as events in the log."""

from __future__ import annotations

import itertools
import json
import random
import re
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tabletop

from .conftest import GAMES, Factory, auth, create, state_of, two_humans, wait_for


def three_humans(client: TestClient, game: str) -> tuple[str, list[str]]:
    g = create(client, game, [{"kind": "creator"}, {"kind": "invite"}, {"kind": "invite"}])
    tokens = [g["token"]]
    for inv in g["invites"]:
        r = client.post(f"/api/games/{g['id']}/claim", json={"invite": inv["code"]})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return g["id"], tokens


def act(client: TestClient, gid: str, token: str, action: str, seq: int, caid: str | None = None) -> Any:
    body: dict[str, Any] = {"action": action, "seq": seq}
    if caid:
        body["client_action_id"] = caid
    return client.post(f"/api/games/{gid}/actions", headers=auth(token), json=body)


def undo(client: TestClient, gid: str, token: str, seq: int, count: int = 1, caid: str | None = None) -> Any:
    body: dict[str, Any] = {"count": count, "seq": seq}
    if caid:
        body["client_action_id"] = caid
    return client.post(f"/api/games/{gid}/undo", headers=auth(token), json=body)


def test_seat_2_bids_before_seats_0_and_1_and_the_outcome_is_the_sequential_game(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = three_humans(client, "siliconvania")
    with ExitStack() as stack:
        socks = [stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws?token={t}")) for t in tokens]
        first = [ws.receive_json() for ws in socks]
        assert all(m["owes_decision"] for m in first) and first[0]["deciding"] == [0, 1, 2]
        seen = [state_of(client, gid, t) for t in tokens]  # each seat's picture before anyone bids
        bids = [s["legal"][7 * i % len(s["legal"])] for i, s in enumerate(seen)]
        r2 = act(client, gid, tokens[2], bids[2], seen[2]["seq"])
        assert r2.status_code == 200, r2.text
        pushed = [ws.receive_json() for ws in socks]
        assert [m["decided"] for m in pushed] == [[2], [2], [2]]
        assert pushed[2]["owes_decision"] is False and pushed[2]["legal"] == []
        assert pushed[2]["view"]["your_decision"] == bids[2]
        for m in pushed[:2]:
            assert m["owes_decision"] is True and "your_decision" not in m["view"]
            assert not re.search(re.escape(bids[2]) + r"(?!\d)", json.dumps(m)), "seat 2's secret bid leaked"
        # seat 0 and 1 quote what they saw before seat 2 bid: another seat's move makes neither stale (#828)
        r0 = act(client, gid, tokens[0], bids[0], seen[0]["seq"])
        assert r0.status_code == 200, r0.text
        r1 = act(client, gid, tokens[1], bids[1], seen[1]["seq"])
        assert r1.status_code == 200, r1.text
    after_bids = [state_of(client, gid, t) for t in tokens]
    assert all(p["seq"] == 3 and p["decided"] == [] for p in after_bids)
    rng = random.Random(2)
    while state_of(client, gid)["status"] == "playing":  # play on to the end, to get the record
        mover = state_of(client, gid)["to_move"]
        mine = state_of(client, gid, tokens[mover])
        assert act(client, gid, tokens[mover], rng.choice(mine["legal"]), mine["seq"]).status_code == 200
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["actions"][:3] == bids, "the record keeps the seat order, whoever bid first"
    sequential = tabletop.replay(record, upto=3)
    for seat, picture in enumerate(after_bids):
        assert picture["view"] == sequential.view(seat)
        assert picture["legal"] == [a.text for a in sequential.legal_actions_for(seat)]


def test_the_live_game_after_bids_ahead_equals_the_replay_of_its_record(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = three_humans(client, "siliconvania")
    rng = random.Random(5)
    order: list[int] = []
    while state_of(client, gid)["status"] == "playing":
        pub = state_of(client, gid)
        seat = rng.choice(pub["deciding"])
        mine = state_of(client, gid, tokens[seat])
        r = act(client, gid, tokens[seat], rng.choice(mine["legal"]), mine["decision_seq"])
        assert r.status_code == 200, r.text
        order.append(seat)
    assert any(a > b for a, b in itertools.pairwise(order)), "some seat bid ahead"
    record = client.get(f"/api/games/{gid}/record").json()
    replayed = tabletop.replay(record)
    assert replayed.is_over
    for seat, t in enumerate(tokens):
        assert state_of(client, gid, t)["view"] == replayed.view(seat)


def test_a_stale_quote_is_still_refused_when_the_seats_own_decision_changed(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = three_humans(client, "siliconvania")
    s0 = state_of(client, gid, tokens[0])
    assert act(client, gid, tokens[0], s0["legal"][0], s0["seq"]).status_code == 200
    r = act(client, gid, tokens[0], s0["legal"][0], s0["seq"])
    assert r.status_code == 409  # it already bid: no decision now
    s1 = state_of(client, gid, tokens[1])
    assert s1["decision_seq"] == 0  # seat 0's bid left seat 1's decision as it was
    assert act(client, gid, tokens[1], s1["legal"][0], 0).status_code == 200


def test_undo_over_the_wire_is_an_event_and_every_seat_is_told(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = three_humans(client, "siliconvania")
    with ExitStack() as stack:
        socks = [stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws?token={t}")) for t in tokens]
        for ws in socks:
            ws.receive_json()
        s0 = state_of(client, gid, tokens[0])
        before = [state_of(client, gid, t)["view"] for t in tokens]
        assert act(client, gid, tokens[0], s0["legal"][3], s0["seq"]).status_code == 200
        for ws in socks:
            ws.receive_json()
        mine = state_of(client, gid, tokens[0])
        assert mine["undoable"] == 1
        assert undo(client, gid, tokens[1], mine["seq"]).status_code == 409  # nothing of seat 1's to take back
        r = undo(client, gid, tokens[0], mine["seq"], caid="u-1")
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == 2 and r.json()["kind"] == "undo"
        again = undo(client, gid, tokens[0], mine["seq"], caid="u-1")
        assert again.status_code == 200 and again.json()["duplicate"] is True
        pushed = [ws.receive_json() for ws in socks]
        assert all(m["seq"] == 2 for m in pushed)
        for seat, m in enumerate(pushed):
            before_view = dict(before[seat])
            now_view = dict(m["view"])
            before_view.pop("log", None), now_view.pop("log", None)
            before_view.pop("log_pos", None), now_view.pop("log_pos", None)
            assert now_view == before_view, "the undo restored what every seat saw"
    assert state_of(client, gid, tokens[0])["owes_decision"] is True
    assert client.get(f"/api/games/{gid}").json()["seq"] == 2  # the log kept the action and the undo


@pytest.mark.parametrize("game", GAMES)
def test_undo_refused_after_another_seat_acted_over_the_wire(make_client: Factory, game: str) -> None:
    """Play on with two people until a seat that may undo exists; the other seat acts; undo is refused with 409."""
    client = make_client()
    gid, tokens = two_humans(client, game)
    rng = random.Random(game)
    for _ in range(400):
        pub = state_of(client, gid)
        mover = pub["to_move"]
        mine = state_of(client, gid, tokens[mover])
        assert act(client, gid, tokens[mover], rng.choice(mine["legal"]), mine["seq"]).status_code == 200
        after = state_of(client, gid, tokens[mover])
        nxt = state_of(client, gid)["to_move"]
        if after["undoable"] and nxt is not None and nxt != mover:
            other = state_of(client, gid, tokens[nxt])
            assert act(client, gid, tokens[nxt], other["legal"][0], other["seq"]).status_code == 200
            late = state_of(client, gid, tokens[mover])
            assert late["undoable"] == 0
            r = undo(client, gid, tokens[mover], late["seq"])
            assert r.status_code == 409 and "take back 0" in r.json()["detail"]
            # and says why, in a player's words: who acted since (seats counted from 1), or what made the move stand
            assert r.json()["detail"].endswith((f": Player {nxt + 1} has acted since your last action",
                                                ": the last action showed something hidden or drew by chance, so it "
                                                "stands")), r.json()["detail"]
            return
    raise AssertionError("no undoable move before another seat's turn was found")


def test_undo_survives_a_restart(make_client: Factory, db_url: str) -> None:
    client = make_client()
    gid, tokens = three_humans(client, "siliconvania")
    s0 = state_of(client, gid, tokens[0])
    assert act(client, gid, tokens[0], s0["legal"][1], s0["seq"]).status_code == 200
    s2 = state_of(client, gid, tokens[2])
    assert act(client, gid, tokens[2], s2["legal"][2], s2["seq"]).status_code == 200  # ahead
    assert undo(client, gid, tokens[0], 1).status_code == 200
    pictures = [state_of(client, gid, t) for t in tokens]
    fresh = make_client()
    assert [state_of(fresh, gid, t) for t in tokens] == pictures
    assert pictures[2]["view"]["your_decision"] == s2["legal"][2] and pictures[0]["owes_decision"]


def test_two_ai_seats_whose_bids_began_at_the_same_event_both_bid(make_client: Factory) -> None:
    """Two AI seats owe simultaneous bids from the same event: the second is asked once the first has bid (a
    regression: the AI was asked once per decision *event*, so the second AI seat never moved)."""
    client = make_client(ai_workers=1)
    ai = {"kind": "ai", "ai": "easy"}
    g = create(client, "siliconvania", [{"kind": "creator"}, ai, ai])
    gid, token = g["id"], g["token"]
    mine = state_of(client, gid, token)
    bid = next(a for a in mine["legal"] if a.startswith("bid "))
    r = act(client, gid, token, bid, mine["decision_seq"])
    assert r.status_code == 200, r.text
    after = wait_for(client, gid, token, lambda s: s["seq"] >= 3 and s["owes_decision"], timeout=60)
    assert after["seq"] >= 3 and after["status"] == "playing", "both AI seats bid after the person"
