"""Hints: only a seat that owes a decision (its turn, or a simultaneous step) may ask; ISMCTS from that seat's view
runs in a hint worker process
(the event loop keeps answering), rate-limited per seat; a hint changes nothing."""

from __future__ import annotations

import threading
import time

from .conftest import Factory, auth, state_of, two_humans


def test_the_seat_deciding_gets_its_legal_actions_ranked_with_values_and_visits(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.3)
    gid, tokens = two_humans(client, "silos")
    mover = state_of(client, gid)["to_move"]
    before = state_of(client, gid, tokens[mover])
    r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover]))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == mover and body["seq"] == before["seq"] and body["seconds"] == 0.3
    assert 1 <= len(body["hints"]) <= 5
    assert all(h["action"] in before["legal"] and 0.0 <= h["value"] <= 1.0 and h["visits"] >= 0
               for h in body["hints"])
    visits = [h["visits"] for h in body["hints"]]
    assert visits == sorted(visits, reverse=True) and visits[0] > 0
    assert state_of(client, gid, tokens[mover]) == before  # asking changes nothing


def test_only_a_seat_that_owes_a_decision_may_ask(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.1)
    gid, tokens = two_humans(client, "silos")  # sequential: only the seat to move owes a decision
    mover = state_of(client, gid)["to_move"]
    assert state_of(client, gid)["deciding"] == [mover]
    r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[1 - mover]))
    assert r.status_code == 409 and "owes a decision" in r.json()["detail"]
    assert "legal" not in r.json() and "hints" not in r.json()
    assert client.post(f"/api/games/{gid}/hints").status_code == 401  # a spectator
    assert client.post(f"/api/games/{gid}/hints", headers=auth("x" * 43)).status_code == 401


def test_every_seat_that_owes_a_simultaneous_decision_gets_hints_for_its_own_actions(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.2)
    gid, tokens = two_humans(client, "siliconvania")  # both seats owe a secret bid at the start
    assert sorted(state_of(client, gid)["deciding"]) == [0, 1]
    for seat in (0, 1):
        before = state_of(client, gid, tokens[seat])
        r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["seat"] == seat and 1 <= len(body["hints"]) <= 5
        assert all(h["action"] in before["legal"] for h in body["hints"])
        assert body["hints"][0]["visits"] > 0
        assert state_of(client, gid, tokens[seat]) == before  # asking changes nothing


def test_a_game_not_started_gets_no_hints(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.1)
    r = client.post("/api/games", json={"game": "silos", "players": 2,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]})
    g = r.json()
    assert client.post(f"/api/games/{g['id']}/hints", headers=auth(g["token"])).status_code == 409


def test_hints_are_rate_limited_per_seat_with_retry_after(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.05, hint_burst=1, hint_rate=0.01)
    gid, tokens = two_humans(client, "silencio")
    mover = state_of(client, gid)["to_move"]
    assert client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover])).status_code == 200
    r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover]))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1 and "too many hints" in r.json()["detail"]


def test_the_search_runs_outside_the_event_loop(make_client: Factory) -> None:
    client = make_client(hint_seconds=1.5)
    gid, tokens = two_humans(client, "silos")
    mover = state_of(client, gid)["to_move"]
    client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover]))  # warm the worker up
    got: list[int] = []
    t = threading.Thread(target=lambda: got.append(
        client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover])).status_code))
    start = time.monotonic()
    t.start()
    time.sleep(0.3)
    for _ in range(5):  # while the hint searches, the server answers at once
        t0 = time.monotonic()
        assert client.get("/api/meta/games").status_code == 200
        assert time.monotonic() - t0 < 0.5
    t.join()
    assert got == [200] and time.monotonic() - start >= 1.5


def test_a_server_without_hint_workers_says_so(make_client: Factory) -> None:
    client = make_client(hint_workers=0)
    gid, tokens = two_humans(client, "silos")
    mover = state_of(client, gid)["to_move"]
    r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover]))
    assert r.status_code == 503 and "turned off" in r.json()["detail"]


def test_a_hint_keeps_the_payload_the_client_reads_and_adds_a_one_line_reason(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.3)
    gid, tokens = two_humans(client, "siliconvania")
    r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    for h in r.json()["hints"]:
        assert set(h) == {"action", "value", "visits", "reason"}  # web/src/api.ts Hint: the first three, reason?
        assert isinstance(h["action"], str) and isinstance(h["value"], float) and isinstance(h["visits"], int)
        assert isinstance(h["reason"], str) and "\n" not in h["reason"]
