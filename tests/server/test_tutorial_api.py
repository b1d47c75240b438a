"""/api/tutorials: a guided first game on its fixed deal, the other seats played by the tutorial from its script,
the learner told only the step it is at (never the seed, nor the other seats' coming moves)."""

from __future__ import annotations

import json

import pytest

from tabletop.server.api.routes.tutorials import tutorial

from .conftest import Factory, auth, state_of, two_humans


@pytest.mark.parametrize("game", ["silencio", "silos", "siliconvania"])
def test_a_tutorial_is_played_to_its_end_through_the_api(make_client: Factory, game: str) -> None:
    client = make_client()
    listed = client.get("/api/tutorials").json()
    assert {"game": game, "title": tutorial(game).title} in listed  # type: ignore[union-attr]
    r = client.post(f"/api/tutorials/{game}", json={"name": "Ann"})
    assert r.status_code == 201, r.text
    made = r.json()
    gid, token, seat = made["id"], made["token"], made["seat"]
    t = tutorial(game)
    assert t is not None and seat == t.seat
    secret = {s.action for s in t.steps if s.seat != t.seat} - {s.action for s in t.steps if s.seat == t.seat}
    lesson = made["tutorial"]
    moves = 0
    while lesson["next"] is not None:
        text = json.dumps(lesson)
        assert "seed" not in text and "record" not in text
        assert not any(f'"{a}"' in text for a in secret), "the lesson names another seat's move"
        st = state_of(client, gid, token)
        assert lesson["next"]["action"] in st["legal"], (lesson["next"], st["legal"][:10])
        r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                        json={"action": lesson["next"]["action"], "seq": st["seq"]})
        assert r.status_code == 200, r.text
        moves += 1
        r = client.post(f"/api/tutorials/{game}/{gid}/advance", headers=auth(token))
        assert r.status_code == 200, r.text
        lesson = r.json()
    assert moves == sum(s.seat == t.seat for s in t.steps)
    assert lesson["outro"] and lesson["at"] == len(t.steps)
    assert state_of(client, gid, token)["status"] == "over"
    assert gid not in {g["id"] for g in client.get("/api/games").json()}  # private: not in the lobby


def test_advance_needs_the_learners_token_and_a_tutorial_game(make_client: Factory) -> None:
    client = make_client()
    made = client.post("/api/tutorials/silencio", json={}).json()
    assert client.post(f"/api/tutorials/silencio/{made['id']}/advance").status_code == 401
    gid, tokens = two_humans(client, "silencio")
    r = client.post(f"/api/tutorials/silencio/{gid}/advance", headers=auth(tokens[0]))
    assert r.status_code == 422 and "not a tutorial game" in r.text
    assert client.post("/api/tutorials/nosuchgame", json={}).status_code == 404
    st = state_of(client, gid, tokens[0])
    assert st["seq"] == 0  # refused: nothing changed
