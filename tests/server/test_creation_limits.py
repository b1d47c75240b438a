"""Issue 20, point 5: creation floods. Games per address per hour, games waiting per address, games waiting in
total, AI seats per address and in total, AI-only games in play (each a clear 429 or 503 with Retry-After and the
limit's name); waiting games expire; the lobby lists at most 3 waiting games per creator name and per address."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tabletop.server.service import Full, GameService, Limited, SeatRequest

from .conftest import BACKENDS, Factory, create

WAITING = [{"kind": "creator"}, {"kind": "invite"}]


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def made(service: GameService, address: str, name: str = "Ann", seats: list[SeatRequest] | None = None) -> str:
    seats = seats or [SeatRequest("creator"), SeatRequest("invite")]
    return service.create("silos", 2 if seats is None else len(seats), {}, "public", seats, name, address).game_id


def test_one_address_creating_fast_is_stopped_at_its_hourly_number(make_client: Factory) -> None:
    client = make_client(games_per_hour=30, open_games=10)  # the defaults
    codes = [client.post("/api/games", json={"game": "silos", "players": 2, "seats": WAITING}).status_code
             for _ in range(12)]
    assert codes == [201] * 10 + [429] * 2  # ten waiting at once
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": WAITING})
    assert r.status_code == 429 and "10 games waiting for players" in r.json()["detail"]
    assert "TABLETOP_OPEN_GAMES" in r.json()["detail"]
    assert 47 * 3600 < int(r.headers["Retry-After"]) <= 48 * 3600  # when the oldest expires
    started = [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}]  # games that start at once are not waiting
    codes = [client.post("/api/games", json={"game": "silos", "players": 2, "seats": started}).status_code
             for _ in range(21)]
    assert codes == [201] * 20 + [429]
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": started})
    assert r.status_code == 429 and "30 games in the last hour" in r.json()["detail"]
    assert "TABLETOP_GAMES_PER_HOUR" in r.json()["detail"] and 3500 < int(r.headers["Retry-After"]) <= 3600
    # another address is not affected
    assert made(service_of(client), "192.0.2.7")


def test_an_ipv6_address_counts_by_its_64_network(make_client: Factory) -> None:
    service = service_of(make_client(games_per_hour=2))
    made(service, "2001:db8:1:2::1")
    made(service, "2001:db8:1:2:ffff::9")
    with pytest.raises(Limited):
        made(service, "2001:db8:1:2::77")
    assert made(service, "2001:db8:1:3::1")


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_totals_answer_503_and_ai_seats_are_capped_per_address(make_client: Factory) -> None:
    client = make_client(waiting_games=2, ai_seats_per_address=4, ai_seats=7, ai_only_games=1)
    service = service_of(client)
    made(service, "192.0.2.1")
    made(service, "192.0.2.2")
    with pytest.raises(Full, match="TABLETOP_WAITING_GAMES"):
        made(service, "192.0.2.3")
    ai = [SeatRequest("ai", "easy")] * 4
    service.create("silos", 4, {}, "public", [SeatRequest("creator"), *ai[:3]], "Bo", "192.0.2.4")
    with pytest.raises(Limited, match=r"3 AI seats.*may have 4.*adds 2") as e:
        service.create("silos", 3, {}, "public", [SeatRequest("creator"), *ai[:2]], "Bo", "192.0.2.4")
    assert e.value.retry_after >= 1
    # AI-only games: one at once on this server (no AI workers here: it stays in play)
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": [{"kind": "ai"}] * 2})
    assert r.status_code == 201
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": [{"kind": "ai"}] * 2})
    assert r.status_code == 503 and "TABLETOP_AI_ONLY_GAMES" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) >= 1
    with pytest.raises(Full, match="TABLETOP_AI_SEATS"):  # 3 + 2 seats in unfinished games, 7 at most
        service.create("silos", 4, {}, "public", [SeatRequest("creator"), *ai[:3]], "Cy", "192.0.2.5")


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_the_lobby_lists_three_waiting_games_per_creator_name_and_per_address(make_client: Factory) -> None:
    client = make_client()
    service = service_of(client)
    same_name = [made(service, f"198.51.100.{i}", "Ann") for i in range(5)]
    same_address = [made(service, "203.0.113.9", f"name {i}") for i in range(5)]
    others = [made(service, f"192.0.2.{i}", f"other {i}") for i in range(3)]
    playing = [service.create("silos", 2, {}, "public", [SeatRequest("creator"), SeatRequest("ai", "easy")],
                              "Ann", "198.51.100.1").game_id for _ in range(4)]
    lobby: list[dict[str, Any]] = client.get("/api/games").json()
    ids = {g["id"] for g in lobby}
    assert len(ids & set(same_name)) == 3 and set(same_name[2:]) <= ids  # the newest three
    assert len(ids & set(same_address)) == 3 and set(same_address[2:]) <= ids
    assert set(others) <= ids and set(playing) <= ids  # games in play are not limited
    assert len([g for g in lobby if g["status"] == "waiting" and g["creator"].casefold() == "ann"]) == 3


def test_the_lobby_share_is_a_setting(make_client: Factory) -> None:
    client = make_client(lobby_per_creator=1)
    service = service_of(client)
    for _ in range(3):
        made(service, "203.0.113.1")
    assert len(client.get("/api/games").json()) == 1


def test_a_waiting_game_expires_and_says_so(make_client: Factory) -> None:
    client = make_client(waiting_expiry=1.0, clock_tick=0.1)
    g = create(client, "silos", [{"kind": "creator"}, {"kind": "invite"}, {"kind": "open"}], visibility="public")
    fresh = create(client, "silos", [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}])
    assert {x["id"] for x in client.get("/api/games").json()} >= {g["id"]}
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['token']}") as ws:
        assert ws.receive_json()["status"] == "waiting"
        time.sleep(1.2)
        assert ws.receive_json()["status"] == "expired"  # the socket is told
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "expired"
    assert g["id"] not in {x["id"] for x in client.get("/api/games").json()}
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]})
    assert r.status_code == 409 and "expired" in r.json()["detail"] and "1 h" not in r.json()["detail"]
    r = client.post(f"/api/games/{g['id']}/claim", json={})
    assert r.status_code == 409 and "expired" in r.json()["detail"]
    assert client.get(f"/api/games/{fresh['id']}").json()["status"] in ("playing", "over")  # never expires


def test_a_game_past_its_expiry_is_refused_before_the_sweep_too(make_client: Factory) -> None:
    client = make_client(waiting_expiry=0.5, clock_tick=1000)  # the clock thread never sweeps
    g = create(client, "silos", [{"kind": "creator"}, {"kind": "open"}], visibility="public")
    assert g["id"] in {x["id"] for x in client.get("/api/games").json()}
    time.sleep(0.7)
    assert g["id"] not in {x["id"] for x in client.get("/api/games").json()}
    r = client.post(f"/api/games/{g['id']}/claim", json={})
    assert r.status_code == 409 and "expired" in r.json()["detail"]
    assert service_of(client).expire_waiting() == 1
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "expired"
