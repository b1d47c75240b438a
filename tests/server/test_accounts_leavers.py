"""Leavers (issue 23, part 5): a player leaves a rated game in play, the AI (medium) plays the seat, the table is
told, the player cannot act until taking the seat back, takes it back; the seat is unrated from its leaving on while
the others' ratings move; a left seat is not counted against the AI caps."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from tabletop.server.creation import address_key
from tabletop.server.storage import now

from .conftest import Factory, auth
from .test_accounts import FAST, csrf, other_browser, signup


def _three(make_client: Factory) -> tuple[TestClient, list[TestClient], list[dict[str, Any]], str, list[str]]:
    client = make_client(ai_workers=1, **FAST)
    browsers = [client, other_browser(client), other_browser(client)]
    me = [signup(b, n) for b, n in zip(browsers, ("ann", "ben", "carl"), strict=True)]
    g = client.post("/api/games", headers=csrf(me[0]), json={
        "game": "silos", "players": 3, "rated": True,
        "seats": [{"kind": "creator"}, {"kind": "invite"}, {"kind": "invite"}]}).json()
    tokens = [g["token"]]
    for i in (1, 2):
        r = browsers[i].post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][i - 1]["code"]},
                             headers=csrf(me[i]))
        tokens.append(r.json()["token"])
    return client, browsers, me, g["id"], tokens


def _play(client: TestClient, gid: str, tokens: list[str], seats: list[int], rng: random.Random,
          actions: int | None = None) -> int:
    """Random moves by `seats` (the others are the AI's) for `actions` actions or to the end: how many events the
    AI added meanwhile."""
    done = 0
    start = client.get(f"/api/games/{gid}/state").json()["seq"]
    deadline = time.monotonic() + 120
    while actions is None or done < actions:
        moved = False
        for seat in seats:
            s = client.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json()
            if s["status"] == "over":
                return s["seq"] - start - done
            if s["legal"]:
                r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                                json={"action": rng.choice(s["legal"]), "seq": s["seq"]})
                assert r.status_code in (200, 409), r.text  # 409: the AI moved meanwhile
                if r.status_code == 200:
                    moved = True
                    done += 1
        if not moved:  # the AI's turn
            assert time.monotonic() < deadline, "the AI did not move for the left seat"
            time.sleep(0.01)
    return int(client.get(f"/api/games/{gid}/state").json()["seq"]) - start - done


def test_a_leavers_seat_is_played_by_the_ai_and_taken_back(make_client: Factory) -> None:
    client, browsers, me, gid, tokens = _three(make_client)
    assert other_browser(client).post(f"/api/games/{gid}/leave").status_code == 401  # no token, no session
    assert client.post(f"/api/games/{gid}/leave").status_code == 403  # a session without its CSRF token
    r = browsers[1].post(f"/api/games/{gid}/leave", headers=csrf(me[1]))  # ben, by his session
    assert r.status_code == 200 and r.json() == {"seat": 1, "ai": "medium"}
    seat = client.get(f"/api/games/{gid}").json()["seats"][1]
    assert seat["kind"] == "ai" and seat["mode"] == "left" and seat["ai"] == "medium"
    notices = [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"] if m["kind"] == "notice"]
    assert any("ben" in t and "left" in t and "AI (medium)" in t for t in notices)
    assert browsers[1].post(f"/api/games/{gid}/leave", headers=csrf(me[1])).status_code == 409
    counts = client.app.state.service.storage.creation_counts(  # type: ignore[attr-defined]
        address_key("testclient"), now() - timedelta(hours=1))
    assert counts.ai_seats == 0 and counts.ai_only == 0  # a leaver's AI does not count against the caps
    rng = random.Random(4)
    ai_moves = _play(client, gid, tokens, [0, 2], rng, actions=12)
    assert ai_moves >= 1
    s = client.get(f"/api/games/{gid}/state", headers=auth(tokens[1])).json()
    if s["legal"]:
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[1]),
                        json={"action": s["legal"][0], "seq": s["seq"]})
        assert r.status_code == 409 and "take it back" in r.json()["detail"]
    r = browsers[1].post(f"/api/games/{gid}/takeback", headers=csrf(me[1]))
    assert r.status_code == 200 and client.get(f"/api/games/{gid}").json()["seats"][1]["kind"] == "human"
    assert browsers[1].post(f"/api/games/{gid}/takeback", headers=csrf(me[1])).status_code == 409
    _play(client, gid, tokens, [0, 1, 2], rng)
    profiles = {n: client.get(f"/api/players/{n}").json() for n in ("ann", "ben", "carl")}
    assert [r["games"] for r in profiles["ann"]["ratings"]] == [1]
    assert [r["games"] for r in profiles["carl"]["ratings"]] == [1]
    assert profiles["ben"]["ratings"] == [] and profiles["ben"]["recent"][0]["rated"] is False


def test_a_seat_timed_out_three_times_in_a_row_is_taken_over(make_client: Factory) -> None:
    client = make_client(ai_workers=1, clock_tick=1000, **FAST)
    g = client.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 60,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    gid = g["id"]
    token = other_browser(client).post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]}
                                       ).json()["token"]
    tokens = [g["token"], token]
    clocks = client.app.state.clocks  # type: ignore[attr-defined]
    t = now()
    timed_out: list[int] = []
    for _ in range(40):  # nobody moves: the clock moves for whoever owes, a day later each time
        clocks.check(t)
        t += timedelta(days=1)
        owing = [i for i, tok in enumerate(tokens)
                 if client.get(f"/api/games/{gid}/state", headers=auth(tok)).json()["owes_decision"]]
        if clocks.check(t):
            timed_out.extend(owing)
        seats = client.get(f"/api/games/{gid}").json()["seats"]
        if any(s["mode"] == "left" for s in seats):
            break
    left = [s["seat"] for s in client.get(f"/api/games/{gid}").json()["seats"] if s["mode"] == "left"]
    assert len(left) == 1
    assert timed_out.count(left[0]) == 3 and timed_out[-1] == left[0]  # its third time-out (it never moved)
    notices = [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"] if m["kind"] == "notice"]
    assert sum("ran out of time" in n for n in notices) == len(timed_out) and "left the game" in notices[-1]


def test_a_move_the_ai_made_for_a_left_seat_is_not_the_players_to_take_back(make_client: Factory) -> None:
    """A seat's trailing actions may be taken back (SiliconVania's draft: pool, then pool again), but one the AI made
    for the seat while its player was away stands once the player takes the seat back: undoable 0 over REST and on
    the socket, the undo refused saying why; the player's own next action is theirs to take back again. The AI's
    move is committed here as the AI's worker commits it (GameService._ai_commit), so nothing races the test."""
    client = make_client()  # no AI workers: the test moves for the AI
    service = client.app.state.service  # type: ignore[attr-defined]
    g = client.post("/api/games", json={"game": "siliconvania", "players": 2,
                                         "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    gid = g["id"]
    claimed = client.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]}).json()
    tokens = [g["token"], claimed["token"]]

    def state(seat: int) -> dict[str, Any]:
        return dict(client.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json())

    for seat in (0, 1):  # the first round's bids
        s = state(seat)
        assert client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                           json={"action": s["legal"][0], "seq": s["seq"]}).status_code == 200
    drafter = client.get(f"/api/games/{gid}/state").json()["to_move"]
    assert client.post(f"/api/games/{gid}/leave", headers=auth(tokens[drafter])).status_code == 200
    s = state(drafter)
    service._ai_commit(gid, s["seq"], drafter, s["legal"][0])  # the AI takes a tile from a pool for the seat
    assert service._get(gid).state.undoable(drafter) == 1  # the core would let the seat take it back
    assert client.post(f"/api/games/{gid}/takeback", headers=auth(tokens[drafter])).status_code == 200
    s = state(drafter)
    assert s["undoable"] == 0 and s["owes_decision"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[drafter]}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["undoable"] == 0
    r = client.post(f"/api/games/{gid}/undo", headers=auth(tokens[drafter]), json={"count": 1, "seq": s["seq"]})
    assert r.status_code == 409 and "made for your seat by the server" in r.json()["detail"]
    assert state(drafter)["seq"] == s["seq"]  # nothing changed
    # the player's own next action is theirs to take back (one: the AI's before it stands)
    assert client.post(f"/api/games/{gid}/actions", headers=auth(tokens[drafter]),
                       json={"action": s["legal"][0], "seq": s["seq"]}).status_code == 200
    mine = state(drafter)
    assert service._get(gid).state.undoable(drafter) == 2 and mine["undoable"] == 1
    r = client.post(f"/api/games/{gid}/undo", headers=auth(tokens[drafter]), json={"count": 2, "seq": mine["seq"]})
    assert r.status_code == 409 and "1 action(s) now, not 2" in r.json()["detail"]
    assert client.post(f"/api/games/{gid}/undo", headers=auth(tokens[drafter]),
                       json={"count": 1, "seq": mine["seq"]}).status_code == 200
    assert state(drafter)["undoable"] == 0
