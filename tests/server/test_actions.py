"""Acting: retries, stale sequence numbers, illegal and off-turn actions, the record, garbage requests."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import GAMES, Factory, auth, state_of, two_humans


def act(client: TestClient, gid: str, token: str, action: str, seq: int, caid: str | None = None) -> Any:
    body: dict[str, Any] = {"action": action, "seq": seq}
    if caid is not None:
        body["client_action_id"] = caid
    return client.post(f"/api/games/{gid}/actions", headers=auth(token), json=body)


def mover(client: TestClient, gid: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    s = state_of(client, gid)
    return s["to_move"], state_of(client, gid, tokens[s["to_move"]])


@pytest.mark.parametrize("game", GAMES)
def test_a_retried_client_action_id_gets_the_original_success(make_client: Factory, game: str) -> None:
    client = make_client()
    gid, tokens = two_humans(client, game)
    seat, s = mover(client, gid, tokens)
    first = act(client, gid, tokens[seat], s["legal"][0], s["seq"], "x-1")
    assert first.status_code == 200 and first.json()["seq"] == s["seq"] + 1
    again = act(client, gid, tokens[seat], s["legal"][-1], s["seq"], "x-1")
    assert again.status_code == 200
    assert again.json()["seq"] == first.json()["seq"] and again.json()["action"] == first.json()["action"]
    assert again.json()["duplicate"] is True
    assert state_of(client, gid)["seq"] == s["seq"] + 1


def test_a_stale_seq_gets_409_with_the_current_view(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    seat, s = mover(client, gid, tokens)
    assert act(client, gid, tokens[seat], s["legal"][0], s["seq"]).status_code == 200
    seat2, s2 = mover(client, gid, tokens)
    r = act(client, gid, tokens[seat2], s2["legal"][0], s2["seq"] - 1)
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    assert r.json()["state"]["view"] == s2["view"] and r.json()["state"]["seq"] == s2["seq"]


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_lists_only_the_seats_own_actions(make_client: Factory, game: str) -> None:
    client = make_client()
    gid, tokens = two_humans(client, game)
    seat, s = mover(client, gid, tokens)
    r = act(client, gid, tokens[seat], "no such action", s["seq"])
    assert r.status_code == 422
    assert r.json()["legal"] == s["legal"]
    assert "your legal actions" in r.json()["detail"]
    assert state_of(client, gid, tokens[seat]) == s


@pytest.mark.parametrize("game", GAMES)
def test_acting_off_turn_is_refused_and_lists_nothing(make_client: Factory, game: str) -> None:
    client = make_client()
    gid, tokens = two_humans(client, game)
    seat, s = mover(client, gid, tokens)
    while len(s["deciding"]) > 1:  # a simultaneous step (SiliconVania's bids): both may act; go past it
        assert act(client, gid, tokens[seat], s["legal"][0], s["seq"]).status_code == 200
        seat, s = mover(client, gid, tokens)
    other = 1 - seat
    assert state_of(client, gid, tokens[other])["owes_decision"] is False
    r = act(client, gid, tokens[other], s["legal"][0], s["seq"])
    assert r.status_code == 409
    assert set(r.json()) == {"detail"} and "not your turn" in r.json()["detail"]
    assert not any(a in r.json()["detail"] for a in s["legal"] if len(a) > 3)
    assert state_of(client, gid, tokens[seat]) == s


def test_acting_needs_a_valid_token(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silencio")
    _, s = mover(client, gid, tokens)
    r = client.post(f"/api/games/{gid}/actions", json={"action": s["legal"][0], "seq": s["seq"]})
    assert r.status_code == 401
    assert act(client, gid, "forged-token", s["legal"][0], s["seq"]).status_code == 401
    r = client.post(f"/api/games/{gid}/actions", headers={"Authorization": "Basic abc"},
                    json={"action": s["legal"][0], "seq": s["seq"]})
    assert r.status_code == 401


def test_the_record_is_refused_before_the_end(make_client: Factory) -> None:
    client = make_client()
    gid, _ = two_humans(client, "silencio")
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 409 and "seed" not in r.json()


def test_unknown_games_are_404(make_client: Factory) -> None:
    client = make_client()
    assert client.get("/api/games/0123abcd/state").status_code == 404
    assert client.get("/api/games/not-hex!/state").status_code in (404, 422)


GARBAGE: list[tuple[str, Any]] = [
    ("raw", b"not json"),
    ("raw", b"[1,2,3]"),
    ("raw", b"\xff\xfe\x00"),
    ("json", {}),
    ("json", {"action": 5, "seq": 0}),
    ("json", {"action": "x", "seq": "zero"}),
    ("json", {"action": "x", "seq": -1}),
    ("json", {"action": "x", "seq": 0, "extra": 1}),
    ("json", {"action": "x" * 5000, "seq": 0}),
    ("json", {"action": "", "seq": 0}),
    ("json", {"action": "x", "seq": 0, "client_action_id": "c" * 500}),
    ("json", {"action": None, "seq": None}),
    ("raw", json.dumps({"action": "y" * 40_000, "seq": 0}).encode()),
]


def test_garbage_gets_4xx_and_leaves_the_game_unchanged(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    seat, before = mover(client, gid, tokens)
    h = {**auth(tokens[seat]), "Content-Type": "application/json"}
    paths = [f"/api/games/{gid}/actions", f"/api/games/{gid}/claim", f"/api/games/{gid}/reseat", "/api/games"]
    for path in paths:
        for kind, body in GARBAGE:
            r = (client.post(path, headers=h, content=body) if kind == "raw"
                 else client.post(path, headers=h, json=body))
            assert 400 <= r.status_code < 500, (path, body, r.status_code, r.text)
            assert "Traceback" not in r.text and "File \"" not in r.text
    for q in ("?start=-1", "?start=abc", "?start=99999999999"):
        r = client.get(f"/api/games/{gid}/log{q}", headers=auth(tokens[seat]))
        assert 400 <= r.status_code < 500, (q, r.text)
    assert state_of(client, gid, tokens[seat]) == before
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["taken"] is True
