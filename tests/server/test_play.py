"""Whole games over REST: a person against an AI in each game, to the end; the record then replays exactly."""

from __future__ import annotations

import random

import pytest

import tabletop

from .conftest import GAMES, Factory, auth, create, random_move, wait_for


@pytest.mark.parametrize("game", GAMES)
def test_person_against_easy_ai_plays_to_the_end(make_client: Factory, game: str) -> None:
    client = make_client(ai_workers=1)
    g = create(client, game, [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}])
    gid, token, me = g["id"], g["token"], g["seat"]
    assert g["info"]["status"] == "playing"
    rng = random.Random(game)
    actions = 0
    while True:
        s = wait_for(client, gid, token, lambda s: s["status"] == "over" or s["to_move"] == me)
        if s["status"] == "over":
            break
        assert s["legal"], "my turn comes with my legal actions"
        r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                        json={"action": random_move(rng, s), "seq": s["seq"], "client_action_id": f"a{actions}"})
        assert r.status_code == 200, r.text
        actions += 1
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["actions"]) == s["seq"] > actions > 0
    final = tabletop.replay(record)
    assert final.is_over
    assert final.view(me) == s["view"]
    assert client.get(f"/api/games/{gid}").json()["status"] == "over"
