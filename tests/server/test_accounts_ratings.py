"""Ratings (issue 23, part 3): a rated game between signed-in players moves both ratings once, in the transaction
of its final event, even when the final action is retried or sent to two server processes on one PostgreSQL
database; Silencio keeps records instead; profiles and leaderboards show finished games only."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from .conftest import Factory, auth
from .proc import Server
from .test_accounts import FAST, csrf, other_browser, signup

Http = TestClient | httpx.Client


def rated_game(client: Http, b1: Http, ann: dict[str, Any], ben: dict[str, Any], game: str = "silos",
               rated: bool = True) -> tuple[str, list[str]]:
    g = client.post("/api/games", headers=csrf(ann), json={
        "game": game, "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}], "rated": rated})
    assert g.status_code == 201, g.text
    r = b1.post(f"/api/games/{g.json()['id']}/claim", json={"invite": g.json()["invites"][0]["code"]},
                headers=csrf(ben))
    assert r.status_code == 200, r.text
    return g.json()["id"], [g.json()["token"], r.json()["token"]]


def play_out(clients: list[Http], gid: str, tokens: list[str], seed: int = 0) -> None:
    """Random legal moves by whichever seat owes one (`clients[i]` for seat i) until the game is over."""
    rng = random.Random(seed)
    while True:
        moved = False
        for seat, token in enumerate(tokens):
            s = clients[seat].get(f"/api/games/{gid}/state", headers=auth(token)).json()
            if s["status"] == "over":
                return
            if not s["legal"]:
                continue
            move = {"action": rng.choice(s["legal"]), "seq": s["seq"], "client_action_id": f"m{s['seq']}"}
            r = clients[seat].post(f"/api/games/{gid}/actions", headers=auth(token), json=move)
            assert r.status_code == 200, r.text
            moved = True
        assert moved, "nobody owes a decision in a game not over"


def _accounts(make_client: Factory) -> tuple[TestClient, TestClient, dict[str, Any], dict[str, Any]]:
    client = make_client(**FAST)
    ann = signup(client, "ann")
    b1 = other_browser(client)
    ben = signup(b1, "ben")
    return client, b1, ann, ben


def test_a_rated_game_moves_both_ratings_once(make_client: Factory) -> None:
    client, b1, ann, ben = _accounts(make_client)
    gid, tokens = rated_game(client, b1, ann, ben)
    live = client.get("/api/players/ann").json()
    assert live["recent"] == [] and live["ratings"] == []  # a live game shows nowhere
    assert client.get("/api/leaderboard/silos").json()["players"] == []
    play_out([client, b1], gid, tokens)
    profiles = {n: client.get(f"/api/players/{n}").json() for n in ("ann", "ben")}
    for p in profiles.values():
        (rating,) = p["ratings"]
        assert rating["game"] == "silos" and rating["games"] == 1
        assert rating["sigma"] < 25 / 3 and rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"],
                                                                             abs=0.01)
        (recent,) = p["recent"]
        assert recent["game_id"] == gid and recent["rated"] is True
        assert client.get(recent["record"]).status_code == 200  # over: the record is there to replay
    won = {n: p["recent"][0]["won"] for n, p in profiles.items()}
    if won["ann"] != won["ben"]:
        winner, loser = ("ann", "ben") if won["ann"] else ("ben", "ann")
        assert profiles[winner]["ratings"][0]["mu"] > profiles[loser]["ratings"][0]["mu"]
        assert profiles[winner]["ratings"][0]["wins"] == 1
    board = client.get("/api/leaderboard/silos").json()["players"]
    assert {b["username"] for b in board} == {"ann", "ben"} and board[0]["ordinal"] >= board[1]["ordinal"]
    # the final action retried (its client action id), and anything sent after the end, change nothing
    s = client.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
    client.post(f"/api/games/{gid}/actions", headers=auth(tokens[0]),
                json={"action": "x", "seq": s["seq"], "client_action_id": f"m{s['seq'] - 1}"})
    again = client.get("/api/players/ann").json()
    assert again["ratings"] == profiles["ann"]["ratings"] and len(again["recent"]) == 1


def test_rated_games_are_for_signed_in_players(make_client: Factory) -> None:
    client, _, ann, _ = _accounts(make_client)
    guest = other_browser(client)
    r = guest.post("/api/games", json={"game": "silos", "players": 2, "rated": True})
    assert r.status_code == 403
    g = client.post("/api/games", headers=csrf(ann), json={
        "game": "silos", "players": 2, "seats": [{"kind": "creator"}, {"kind": "invite"}], "rated": True}).json()
    r = guest.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]})
    assert r.status_code == 403 and "rated" in r.json()["detail"]
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "waiting"  # the seat is still free


def test_an_unrated_game_leaves_results_but_no_rating(make_client: Factory) -> None:
    client, b1, ann, ben = _accounts(make_client)
    gid, tokens = rated_game(client, b1, ann, ben, rated=False)
    play_out([client, b1], gid, tokens, seed=3)
    p = client.get("/api/players/ben").json()
    assert p["ratings"] == [] and p["recent"][0]["rated"] is False and p["recent"][0]["rating"] is None
    assert client.get("/api/leaderboard/silos").json()["players"] == []


def test_silencio_keeps_records_not_ratings(make_client: Factory) -> None:
    client, b1, ann, ben = _accounts(make_client)
    gid, tokens = rated_game(client, b1, ann, ben, game="silencio")
    play_out([client, b1], gid, tokens, seed=5)
    p = client.get("/api/players/ann").json()
    assert p["ratings"] == []
    (record,) = p["records"]
    final = p["recent"][0]
    assert record["players"] == 2 and record["games"] == 1 and record["perfect"] == int(final["won"])
    assert record["fewest_cards_left"] == -final["score"]
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/leaderboard/nogame").status_code == 404


def test_deleting_an_account_drops_its_ratings_and_keeps_the_others(make_client: Factory) -> None:
    client, b1, ann, ben = _accounts(make_client)
    gid, tokens = rated_game(client, b1, ann, ben)
    play_out([client, b1], gid, tokens, seed=7)
    b1.post("/api/account/delete", headers=csrf(ben), json={"password": "correct horse battery"}
            ).raise_for_status()
    assert client.get("/api/players/ben").status_code == 404
    assert [b["username"] for b in client.get("/api/leaderboard/silos").json()["players"]] == ["ann"]
    assert client.get("/api/players/ann").json()["recent"][0]["game_id"] == gid


def test_the_final_action_sent_to_two_processes_rates_once(pg_url: str, tmp_path: Path) -> None:
    """Two `tabletop serve` processes on one PostgreSQL database; every move, the final one included, is sent to
    both at once with the same client action id, and the final one is retried: each rating counts one game."""
    env = {"TABLETOP_PASSWORD_MEMORY_KIB": "1024", "TABLETOP_PASSWORD_TIME_COST": "1", "TABLETOP_HINT_WORKERS": "0"}
    a = Server(pg_url, tmp_path / "a.log", env=env).start()
    b = Server(pg_url, tmp_path / "b.log", env=env).start()
    try:
        with a.client() as ca, b.client() as cb, httpx.Client(base_url=b.url) as ben_b:
            ann = signup(ca, "ann")  # type: ignore[arg-type]
            ben = signup(ben_b, "ben")  # type: ignore[arg-type]
            gid, tokens = rated_game(ca, ben_b, ann, ben)
            rng = random.Random(11)
            final: dict[str, Any] | None = None
            while final is None:
                moved = False
                for seat, token in enumerate(tokens):
                    s = ca.get(f"/api/games/{gid}/state", headers=auth(token)).json()
                    if s["status"] == "over" or not s["legal"]:
                        continue
                    move = {"action": rng.choice(s["legal"]), "seq": s["seq"], "client_action_id": f"m{s['seq']}"}
                    answers: list[httpx.Response] = []

                    def send(c: httpx.Client, move: dict[str, Any] = move, token: str = token,
                             answers: list[httpx.Response] = answers) -> None:
                        answers.append(c.post(f"/api/games/{gid}/actions", headers=auth(token), json=move))

                    threads = [threading.Thread(target=send, args=(c,)) for c in (ca, cb)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join()
                    assert any(r.status_code == 200 for r in answers), [r.text for r in answers]
                    moved = True
                    if any(r.status_code == 200 and r.json()["state"]["status"] == "over" for r in answers):
                        final = {"seat": seat, "move": move}
                        break
                assert moved or final is not None, "nobody owes a decision in a game not over"
            for c in (ca, cb):  # retried at both
                c.post(f"/api/games/{gid}/actions", headers=auth(tokens[final["seat"]]), json=final["move"])
            for c in (ca, cb):
                p = c.get("/api/players/ann").json()
                assert [r["games"] for r in p["ratings"]] == [1] and len(p["recent"]) == 1
    finally:
        a.stop()
        b.stop()
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT games FROM ratings ORDER BY account_id")).scalars().all() == [1, 1]
        assert conn.execute(text("SELECT count(*) FROM results WHERE game_id = :g"), {"g": gid}).scalar() == 2
    engine.dispose()
