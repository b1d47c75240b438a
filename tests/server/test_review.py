"""Post-game reviews on the server (issue 24, `tabletop.server.reviews`): refused while the game is live and for anyone
but a player of it; computed on the hint lane from the seat's own view (the same review as the core's, whose tests
show it reads only what the seat knew), stored once and then served from the database; one in flight per player."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from fastapi.testclient import TestClient

from tabletop.agents.review import review

from .conftest import Factory, auth, random_move, state_of, two_humans

ITERS = 12


def _play(client: TestClient, gid: str, tokens: list[str], rng: random.Random, stop: int | None = None) -> None:
    n = 0
    while True:
        states = [state_of(client, gid, t) for t in tokens]
        if states[0]["status"] == "over" or (stop is not None and n >= stop):
            return
        p = next(i for i, s in enumerate(states) if s["legal"])
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[p]),
                        json={"action": random_move(rng, states[p]), "seq": states[p]["seq"],
                              "client_action_id": f"r{n}"})
        assert r.status_code == 200, r.text
        n += 1


def _finished(client: TestClient, game: str = "silencio", seed: int = 3) -> tuple[str, list[str]]:
    gid, tokens = two_humans(client, game)
    _play(client, gid, tokens, random.Random(seed))
    return gid, tokens


def _wait_done(client: TestClient, gid: str, token: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(f"/api/games/{gid}/review", headers=token.headers if isinstance(token, _Csrf) else auth(token))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        assert body["status"] in ("running", "done"), body
        if body["status"] == "done":
            return body
        assert 0 <= body["done"] <= body["total"]
        assert time.monotonic() < deadline, body
        time.sleep(0.05)


def test_a_review_is_refused_while_the_game_is_live_and_to_anyone_but_its_players(make_client: Factory) -> None:
    client = make_client(review_iters=ITERS)
    gid, tokens = two_humans(client, "silencio")
    _play(client, gid, tokens, random.Random(1), stop=3)
    for method in (client.post, client.get):
        r = method(f"/api/games/{gid}/review", headers=auth(tokens[0]))
        assert r.status_code == 409 and "not over" in r.json()["detail"], r.text
        assert "review" not in r.json()
    assert client.app.state.reviews.batches == 0  # type: ignore[attr-defined]
    _play(client, gid, tokens, random.Random(1))
    assert client.post(f"/api/games/{gid}/review").status_code == 401  # a spectator
    assert client.post(f"/api/games/{gid}/review", headers=auth("x" * 43)).status_code == 401
    assert client.get(f"/api/games/{gid}/review").status_code == 401
    assert client.post("/api/games/abc123/review", headers=auth(tokens[0])).status_code == 404
    assert client.get(f"/api/games/{gid}/review", headers=auth(tokens[0])).json()["status"] == "none"
    assert client.app.state.reviews.batches == 0  # type: ignore[attr-defined]


def test_a_review_is_the_seats_own_computed_once_then_served_from_the_database(make_client: Factory,
                                                                                db_url: str) -> None:
    client = make_client(review_iters=ITERS, review_batch=3)
    gid, tokens = _finished(client)
    r = client.post(f"/api/games/{gid}/review", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    assert r.json()["status"] in ("running", "done") and r.json()["seat"] == 1
    body = _wait_done(client, gid, tokens[1])
    record = client.get(f"/api/games/{gid}/record").json()
    # the same review as the core's from the seat's own view at each step (tests/agents/test_review.py shows that
    # one never reads what the seat could not see), batched or not
    expected = review(record, 1, seconds=None, iters=ITERS, seed=0).to_json()
    assert body["review"] == expected
    assert body["review"]["measure"] == "team result" and len(body["review"]["decisions"]) > 5
    reviews = client.app.state.reviews  # type: ignore[attr-defined]
    assert reviews.computed == 1
    batches = reviews.batches
    assert batches == -(-len(expected["decisions"]) // 3)
    again = client.post(f"/api/games/{gid}/review", headers=auth(tokens[1]))
    assert again.json() == body and reviews.batches == batches and reviews.computed == 1
    other = client.get(f"/api/games/{gid}/review", headers=auth(tokens[0])).json()
    assert other["status"] == "none" and other["seat"] == 0  # seat 0's review is its own, not asked yet
    client.__exit__(None, None, None)
    fresh = make_client(review_iters=ITERS, db=db_url)
    served = fresh.get(f"/api/games/{gid}/review", headers=auth(tokens[1]))
    assert served.json() == body
    assert fresh.post(f"/api/games/{gid}/review", headers=auth(tokens[1])).json() == body
    assert fresh.app.state.reviews.computed == 0 and fresh.app.state.reviews.batches == 0  # type: ignore[attr-defined]


def test_each_player_has_at_most_one_review_in_flight_and_the_server_a_cap(make_client: Factory) -> None:
    client = make_client(review_seconds=0.2, review_batch=1, reviews_running=1)
    gid, tokens = _finished(client)
    reviews = client.app.state.reviews  # type: ignore[attr-defined]
    first = client.post(f"/api/games/{gid}/review", headers=auth(tokens[0])).json()
    assert first["status"] == "running" and first["total"] > 5
    second = client.post(f"/api/games/{gid}/review", headers=auth(tokens[0]))
    assert second.status_code == 200 and second.json()["status"] == "running"
    assert len(reviews._jobs) == 1  # asking again follows the review in flight, it starts no other
    busy = client.post(f"/api/games/{gid}/review", headers=auth(tokens[1]))  # over the server's cap of 1
    assert busy.status_code == 503 and "try again" in busy.json()["detail"] and "Retry-After" in busy.headers
    assert client.get(f"/api/games/{gid}/review", headers=auth(tokens[1])).json()["status"] == "none"
    done = _wait_done(client, gid, tokens[0])
    assert [d["step"] for d in done["review"]["decisions"]] == sorted(d["step"] for d in done["review"]["decisions"])
    assert done["seconds"] == 0.2 and reviews.computed == 1
    assert client.post(f"/api/games/{gid}/review", headers=auth(tokens[1])).json()["status"] in ("running", "done")
    _wait_done(client, gid, tokens[1])
    assert reviews.computed == 2


def test_a_hint_asked_during_a_review_goes_first(make_client: Factory) -> None:
    client = make_client(review_seconds=0.3, review_batch=2, hint_seconds=0.1)
    done_gid, done_tokens = _finished(client)
    gid, tokens = two_humans(client, "silos")
    assert client.post(f"/api/games/{done_gid}/review", headers=auth(done_tokens[0])).json()["status"] == "running"
    mover = state_of(client, gid)["to_move"]
    r = client.post(f"/api/games/{gid}/hints", headers=auth(tokens[mover]))
    assert r.status_code == 200, r.text
    body = client.get(f"/api/games/{done_gid}/review", headers=auth(done_tokens[0])).json()
    # the hint waited behind at most one batch of the review (2 decisions of 0.3 s), not for the whole of it
    assert body["status"] == "running" and body["done"] < body["total"], body


def test_a_signed_in_player_has_one_review_in_flight_across_their_games(make_client: Factory) -> None:
    from .test_accounts import FAST, csrf, signup

    client = make_client(**{**FAST, "hint_workers": 1}, review_seconds=0.2, review_batch=1)
    ann = signup(client, "ann")
    games = []
    for seed in (3, 4):
        g = client.post("/api/games", headers=csrf(ann), json={
            "game": "silencio", "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}]})
        assert g.status_code == 201, g.text
        claim = client.post(f"/api/games/{g.json()['id']}/claim", json={"invite": g.json()["invites"][0]["code"]})
        _play(client, g.json()["id"], [g.json()["token"], claim.json()["token"]], random.Random(seed))
        games.append(g.json()["id"])
    # signed in, no bearer token: the account's seat in each game
    first = client.post(f"/api/games/{games[0]}/review", headers=csrf(ann))
    assert first.status_code == 200 and first.json()["status"] == "running" and first.json()["seat"] == 0, first.text
    second = client.post(f"/api/games/{games[1]}/review", headers=csrf(ann))
    assert second.status_code == 409 and "one at a time" in second.json()["detail"], second.text
    _wait_done(client, games[0], _Csrf(csrf(ann)))
    assert client.post(f"/api/games/{games[1]}/review", headers=csrf(ann)).json()["status"] in ("running", "done")


class _Csrf(str):
    """A marker for `_wait_done`: poll with these headers instead of a bearer token."""

    headers: dict[str, str]

    def __new__(cls, headers: dict[str, str]) -> _Csrf:
        s = super().__new__(cls, "")
        s.headers = headers
        return s


def test_without_hint_workers_a_review_is_refused_as_busy_and_nothing_is_stored(make_client: Factory) -> None:
    client = make_client(hint_workers=0)
    gid, tokens = _finished(client)
    r = client.post(f"/api/games/{gid}/review", headers=auth(tokens[0]))
    assert r.status_code == 503 and "turned off" in r.json()["detail"], r.text
    assert client.get(f"/api/games/{gid}/review", headers=auth(tokens[0])).json()["status"] == "none"


def _events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[len("data: "):]) for line in text.splitlines() if line.startswith("data: ")]


def test_the_reviews_progress_is_pushed_as_server_sent_events_in_order_up_to_done(make_client: Factory) -> None:
    client = make_client(review_seconds=0.1, review_batch=1)  # slow enough for progress between the looks
    gid, tokens = _finished(client)
    assert client.get(f"/api/games/{gid}/review/events").status_code == 401  # a spectator: refused, no stream
    none = client.get(f"/api/games/{gid}/review/events", headers=auth(tokens[0]))
    assert none.status_code == 200 and [e["status"] for e in _events(none.text)] == ["none"]  # nothing asked
    assert client.post(f"/api/games/{gid}/review", headers=auth(tokens[0])).json()["status"] == "running"
    r = client.get(f"/api/games/{gid}/review/events", params={"token": tokens[0]})  # as an EventSource asks
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream"), r.text
    got = _events(r.text)
    assert [e["status"] for e in got[:-1]] == ["running"] * (len(got) - 1) and got[-1]["status"] == "done", got
    done = [e["done"] for e in got[:-1]]
    assert len(got) >= 3 and done == sorted(set(done)), done  # progress in order, each change once
    assert got[-1] == client.get(f"/api/games/{gid}/review", headers=auth(tokens[0])).json()
    assert got[-1]["seat"] == 0 and len(got[-1]["review"]["decisions"]) == got[0]["total"]
    late = _events(client.get(f"/api/games/{gid}/review/events", headers=auth(tokens[0])).text)
    assert late == [got[-1]]  # a stored review: one event and the end
    wrong = client.get(f"/api/games/{gid}/review/events", params={"token": "x" * 43})
    assert wrong.status_code == 401


def test_a_review_running_never_holds_up_a_live_games_ai_or_its_clock(make_client: Factory) -> None:
    """Reviews run on the hint lane: while one is in flight (tens of decisions of 0.5 s each, one worker), a live
    game's searching AI (the AI lane's worker process) and its move clock (the clock thread) still move, long before
    the review is done."""
    from .conftest import create, wait_for

    client = make_client(ai_workers=1, hint_workers=1, review_seconds=0.5, review_batch=1, clock_tick=0.1)
    done_gid, done_tokens = _finished(client, "silos", seed=5)
    started = client.post(f"/api/games/{done_gid}/review", headers=auth(done_tokens[0])).json()
    assert started["status"] == "running" and started["total"] > 20, started
    # a live game with the searching AI (SILOS hard: the guided search, 1 s a move, in the AI lane's worker)
    g = create(client, "silos", [{"kind": "creator"}, {"kind": "ai", "ai": "hard"}])
    mine = state_of(client, g["id"], g["token"])
    if mine["to_move"] == 0:  # the person moves first: one move, then the AI's turn
        r = client.post(f"/api/games/{g['id']}/actions", headers=auth(g["token"]),
                        json={"action": mine["legal"][0], "seq": mine["seq"], "client_action_id": "first"})
        assert r.status_code == 200, r.text
    before = state_of(client, g["id"], g["token"])
    assert before["to_move"] == 1, before
    ai_moved = wait_for(client, g["id"], g["token"], lambda s: s["seq"] > before["seq"], timeout=15)
    assert ai_moved["seq"] > before["seq"]
    # a live game whose seat to move runs out of its 1-second clock: the clock thread moves for it
    r = client.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 1,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]})
    assert r.status_code == 201, r.text
    timed = r.json()
    claimed = client.post(f"/api/games/{timed['id']}/claim", json={"invite": timed["invites"][0]["code"]})
    assert claimed.status_code == 200, claimed.text  # both seats taken: the game is under way, its clock runs
    assert wait_for(client, timed["id"], timed["token"], lambda s: s["seq"] >= 1, timeout=15)["seq"] >= 1
    body = client.get(f"/api/games/{done_gid}/review", headers=auth(done_tokens[0])).json()
    assert body["status"] == "running" and body["done"] < body["total"], body  # the review was still going
