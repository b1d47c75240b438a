"""Move clocks: on time-out the heuristic agent moves for the late seat and the table is told (without the move);
the deadline is stored and survives a restart; a move in time starts the next decision's clock."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tabletop.server.storage import Storage

from .conftest import BACKENDS, Factory, auth, state_of, wait_for


def _clocked(client: TestClient, game: str, seconds: int) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"game": game, "players": 2, "move_seconds": seconds,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    c = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]})
    return g["id"], [g["token"], c.json()["token"]]


def _clock(client: TestClient, gid: str) -> dict[str, object]:
    clock: dict[str, object] = client.get(f"/api/games/{gid}/clock").json()["clock"]
    return clock


def test_every_late_seat_is_moved_for_by_the_heuristic_and_the_table_told_without_the_move(
        make_client: Factory) -> None:
    """SiliconVania opens with a simultaneous secret bid: both seats owe a decision, both are clocked, and when the
    time runs out the heuristic bids for each of them (not only for the seat to move)."""
    client = make_client(clock_tick=1000)  # ticked by hand
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    gid, tokens = _clocked(client, "siliconvania", 120)
    t0 = datetime.now().astimezone()
    assert clocks.check(t0) == 0  # the first look sets the deadline
    clock = _clock(client, gid)
    deadline = datetime.fromisoformat(str(clock["deadline"]))
    assert clock["seq"] == 0 and clock["move_seconds"] == 120
    assert timedelta(seconds=119) <= deadline - t0 <= timedelta(seconds=121)
    assert clocks.check(deadline - timedelta(seconds=1)) == 0 and state_of(client, gid)["seq"] == 0
    assert sorted(state_of(client, gid)["deciding"]) == [0, 1]
    legal = {seat: state_of(client, gid, tokens[seat])["legal"] for seat in (0, 1)}
    assert all(a.startswith("bid ") for seat in (0, 1) for a in legal[seat])
    assert clocks.check(deadline) == 2
    assert state_of(client, gid)["seq"] == 2
    notices = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [m["kind"] for m in notices] == ["notice", "notice"]
    for seat in (0, 1):
        own = client.get(f"/api/games/{gid}/log", headers=auth(tokens[seat])).json()["entries"]
        moved = [e["text"] for e in own if e["seat"] == seat and " revealed bid " not in e["text"]]
        assert len(moved) == 1, own  # the seat's own log shows what was played for it (a secret bid, since revealed)
        text = next(m["text"] for m in notices if f"(seat {seat + 1})" in m["text"])
        assert "ran out of time (2 min a move)" in text
        bid = moved[0].split(" with ")[0].split(" placed ")[1]  # e.g. "bid 4": the amount is the seat's secret
        assert bid not in text and not any(a in n["text"] for a in legal[seat] for n in notices)
    assert clocks.check(deadline + timedelta(seconds=1)) == 0  # a new decision, a new deadline
    assert _clock(client, gid)["seq"] == 2


def test_a_bidder_who_bid_in_time_is_not_moved_for_and_the_other_keeps_its_deadline(make_client: Factory) -> None:
    client = make_client(clock_tick=1000)
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    gid, tokens = _clocked(client, "siliconvania", 120)
    assert clocks.check(datetime.now().astimezone()) == 0
    deadline = datetime.fromisoformat(str(_clock(client, gid)["deadline"]))
    first = state_of(client, gid, tokens[1])
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[1]),
                    json={"action": first["legal"][0], "seq": first["seq"], "client_action_id": "b1"})
    assert r.status_code == 200, r.text
    assert clocks.check(deadline - timedelta(seconds=1)) == 0  # a new event: the deadline is seat 0's, kept
    assert datetime.fromisoformat(str(_clock(client, gid)["deadline"])) == deadline
    assert clocks.check(deadline) == 1
    notices = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert len(notices) == 1 and "(seat 1)" in notices[0]["text"]


def test_a_move_in_time_starts_the_next_clock_and_nothing_is_played_for_anyone(make_client: Factory) -> None:
    client = make_client(clock_tick=1000)
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    gid, tokens = _clocked(client, "silos", 60)
    clocks.check()
    first = datetime.fromisoformat(str(_clock(client, gid)["deadline"]))
    s = state_of(client, gid, tokens[state_of(client, gid)["to_move"]])
    time.sleep(0.05)
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[s["seat"]]),
                    json={"action": s["legal"][0], "seq": s["seq"]})
    assert r.status_code == 200
    assert clocks.check(first + timedelta(seconds=1)) == 0  # the old deadline no longer applies
    clock = _clock(client, gid)
    assert clock["seq"] == 1 and datetime.fromisoformat(str(clock["deadline"])) > first
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_the_stored_deadline_survives_a_restart_and_the_clock_owner_moves_on_time(make_client: Factory,
                                                                                  db_url: str) -> None:
    client = make_client(clock_tick=0.1)  # no AI pool: the clock thread decides (the pool: test_cluster_table.py)
    gid, tokens = _clocked(client, "silos", 5)
    wait = time.monotonic() + 10
    while _clock(client, gid)["deadline"] is None:
        assert time.monotonic() < wait
        time.sleep(0.05)
    deadline = datetime.fromisoformat(str(_clock(client, gid)["deadline"]))
    client.__exit__(None, None, None)  # the server stops before the deadline and stays down past it
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 1.0)
    restarted = datetime.now(UTC)
    again = make_client(clock_tick=0.1)
    assert wait_for(again, gid, tokens[0], lambda s: s["seq"] >= 1, timeout=10)["seq"] == 1
    (ev,) = Storage(db_url).events(gid)
    assert ev.client_action_id == "server:clock-0" and ev.seat in (0, 1)
    # the stored deadline held: the move came at once, not a fresh 5 s after the restart
    assert deadline <= ev.time < restarted + timedelta(seconds=4)
    wait = time.monotonic() + 5  # the notice is written just after the move is committed
    while not (notices := again.get(f"/api/games/{gid}/chat").json()["messages"]):
        assert time.monotonic() < wait
        time.sleep(0.05)
    assert len(notices) == 1 and "ran out of time (5 s a move)" in notices[0]["text"]


def test_a_clock_must_be_positive(make_client: Factory) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 0})
    assert r.status_code == 422
    assert client.get("/api/games").json() == []


def test_a_silencio_table_is_told_of_a_timeout_though_it_has_no_chat(make_client: Factory) -> None:
    client = make_client(clock_tick=1000)
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    gid, tokens = _clocked(client, "silencio", 30)
    clocks.check()
    deadline = datetime.fromisoformat(str(_clock(client, gid)["deadline"]))
    assert clocks.check(deadline) == 1
    page = client.get(f"/api/games/{gid}/chat").json()
    assert page["chat"] is False and [m["kind"] for m in page["messages"]] == ["notice"]
    r = client.post(f"/api/games/{gid}/chat", headers=auth(tokens[0]), json={"text": "sorry, I was away"})
    assert r.status_code == 403
