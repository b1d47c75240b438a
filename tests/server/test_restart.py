"""A restarted server (a new app on the same database) rebuilds games from their events and goes on: SQLite and
PostgreSQL."""

from __future__ import annotations

import random

import pytest

from .conftest import BACKENDS, Factory, auth, create, state_of, two_humans, wait_for

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


def test_a_restart_rebuilds_the_game_from_its_events_and_play_continues(make_client: Factory) -> None:
    first = make_client()
    gid, tokens = two_humans(first, "silos")
    rng = random.Random(1)
    for i in range(10):
        pub = state_of(first, gid)
        last = pub["to_move"], {"action": rng.choice(state_of(first, gid, tokens[pub["to_move"]])["legal"]),
                                "seq": pub["seq"], "client_action_id": f"move-{i}"}
        assert first.post(f"/api/games/{gid}/actions", headers=auth(tokens[last[0]]), json=last[1]).status_code == 200
    before = [state_of(first, gid, t) for t in tokens]
    first.__exit__(None, None, None)

    second = make_client()
    assert [state_of(second, gid, t) for t in tokens] == before
    retry = second.post(f"/api/games/{gid}/actions", headers=auth(tokens[last[0]]), json=last[1])
    assert retry.status_code == 200 and retry.json()["duplicate"] is True and retry.json()["seq"] == 10
    seat = before[0]["to_move"]
    mine = before[seat]
    r = second.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                    json={"action": mine["legal"][0], "seq": mine["seq"]})
    assert r.status_code == 200 and r.json()["seq"] == 11


def test_an_ai_to_move_when_the_server_stopped_moves_after_restart(make_client: Factory) -> None:
    idle = make_client(ai_workers=0)  # no worker: the AI cannot move before the "crash"
    g = create(idle, "silencio", [{"kind": "ai", "ai": "easy"}, {"kind": "creator"}],
               options={"first_player": 0})
    assert state_of(idle, g["id"])["to_move"] == 0 and state_of(idle, g["id"])["seq"] == 0
    idle.__exit__(None, None, None)

    live = make_client(ai_workers=1)
    s = wait_for(live, g["id"], g["token"], lambda s: s["seq"] > 0)
    assert s["status"] in ("playing", "over")
