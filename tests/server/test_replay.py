"""The replay viewer's endpoint: a finished game's every step from every seat's view; never a live game's."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

import tabletop

from .conftest import Factory, auth, random_move, state_of, two_humans


def _play_until(client: TestClient, gid: str, tokens: list[str], rng: random.Random, stop: int | None
                ) -> dict[str, Any]:
    n = 0
    while True:
        states = [state_of(client, gid, t) for t in tokens]
        if states[0]["status"] == "over" or (stop is not None and n >= stop):
            return states[0]
        p = next(i for i, s in enumerate(states) if s["legal"])
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[p]),
                        json={"action": random_move(rng, states[p]), "seq": states[p]["seq"],
                              "client_action_id": f"r{n}"})
        assert r.status_code == 200, r.text
        n += 1


def test_replay_steps_are_refused_while_the_game_is_live_so_no_hand_leaks(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silencio")
    _play_until(client, gid, tokens, random.Random(1), stop=3)
    for k in (0, 1, 3):
        r = client.get(f"/api/games/{gid}/replay/{k}")
        assert r.status_code == 409, r.text
        assert "over" in r.json()["detail"] and "views" not in r.json()


def test_a_finished_games_replay_step_is_every_seats_view_after_its_first_k_actions(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silencio")
    final = _play_until(client, gid, tokens, random.Random(2), stop=None)
    record = client.get(f"/api/games/{gid}/record").json()
    n = len(record["actions"])
    for k in (0, 1, n // 2, n):
        r = client.get(f"/api/games/{gid}/replay/{k}")
        assert r.status_code == 200, r.text
        body = r.json()
        state = tabletop.replay(record, upto=k)
        assert body["step"] == k and body["steps"] == n
        assert body["action"] == (record["actions"][k - 1] if k else None)
        assert body["views"] == [state.view(p) for p in range(2)]
    assert client.get(f"/api/games/{gid}/replay/{n}").json()["views"][0] == final["view"]
    bad = client.get(f"/api/games/{gid}/replay/{n + 1}")
    assert bad.status_code == 422 and f"0..{n}" in bad.json()["detail"]
    assert client.get("/api/games/abc123/replay/0").status_code == 404
