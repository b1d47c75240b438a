"""The rematch (POST /api/games/{id}/rematch, tabletop.server.rematch): one click of a finished game's player makes
the same game again (options, AI seats, names, clock) and seats the caller; every other player takes its own seat
there with its own old token; the new game is announced at the old table; no token reaches another seat."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient

from .conftest import Factory, auth, create, random_move, state_of


def test_a_rematch_repeats_the_game_and_seats_each_player_by_its_own_token(make_client: Factory) -> None:
    client = make_client(ai_workers=1)
    g = create(client, "silos", [{"kind": "creator", "name": "Ann"}, {"kind": "invite", "name": "Bo"},
                                 {"kind": "ai", "ai": "easy"}], move_seconds=120, options={"crop_circles": 2})
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]})
    assert r.status_code == 200, r.text
    tokens = [g["token"], r.json()["token"]]
    assert client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[0])).status_code == 409  # not over yet
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    while state_of(client, gid, tokens[0])["status"] != "over":
        if not _play_out_step(client, gid, tokens, rng):
            time.sleep(0.01)  # the AI seat is deciding
        assert time.monotonic() < deadline, "the game did not end"

    assert client.post(f"/api/games/{gid}/rematch").status_code == 401  # a spectator has no seat to carry over
    first = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[0]))
    assert first.status_code == 200, first.text
    a = first.json()
    new = a["id"]
    assert a["created"] is True and a["seat"] == 0 and new != gid
    info = a["info"]
    old_info = client.get(f"/api/games/{gid}").json()
    assert (info["game"], info["players"], info["options"], info["visibility"]) == (
        old_info["game"], old_info["players"], old_info["options"], old_info["visibility"])
    assert [(s["kind"], s["ai"], s["name"]) for s in info["seats"]] == [
        (s["kind"], s["ai"], s["name"]) for s in old_info["seats"]]
    assert [s["taken"] for s in info["seats"]] == [True, False, True] and info["status"] == "waiting"
    assert client.get(f"/api/games/{new}/clock").json()["clock"]["move_seconds"] == 120
    assert tokens[1] not in first.text

    # the old table hears of it (its id only: no code, no token)
    chat = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [(m["kind"], m["text"], m["seat"]) for m in chat if m["kind"] == "rematch"] == [("rematch", new, 0)]

    # the old tokens hold no seat of the new game; the new one of Ann does
    assert client.get(f"/api/games/{new}/state", headers=auth(tokens[1])).status_code == 401
    assert state_of(client, new, a["token"])["seat"] == 0

    second = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[1]))
    assert second.status_code == 200, second.text
    b = second.json()
    assert (b["id"], b["seat"], b["created"]) == (new, 1, False) and "creator_token" not in b
    assert a["token"] not in second.text and b["token"] != a["token"]
    assert state_of(client, new, b["token"])["seat"] == 1
    assert client.get(f"/api/games/{new}").json()["status"] == "playing"

    # a seat is given once; asking again does not make a third game
    again = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[1]))
    assert again.status_code == 403 and "already taken" in again.json()["detail"]
    again0 = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[0]))
    assert again0.status_code == 403
    chat = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert sum(m["kind"] == "rematch" for m in chat) == 1


def _play_out_step(client: TestClient, gid: str, tokens: list[str], rng: random.Random) -> bool:
    """One move of whichever person owes a decision (the AI seat moves by itself): whether one was made."""
    for t in tokens:
        s = state_of(client, gid, t)
        if s["status"] == "playing" and s["legal"] and s.get("owes_decision", True):
            r = client.post(f"/api/games/{gid}/actions", headers=auth(t),
                            json={"action": random_move(rng, s), "seq": s["seq"],
                                  "client_action_id": f"m{rng.random()}"})
            assert r.status_code in (200, 409), r.text
            return True
    return False
