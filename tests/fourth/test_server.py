"""The fourth game on a real server process (`tabletop serve`, which finds it through the distribution's entry
point on its `PYTHONPATH`): listed with its help, created over REST, played to the end over the game's sockets by
both seats, its record replaying; an AI seat (a worker process) and the hints play it too."""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import tabletop
from server.proc import Server, receive


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _until(ws: Any, pred: Any) -> dict[str, Any]:
    for _ in range(50):
        msg = receive(ws)
        if pred(msg):
            return msg
    raise AssertionError("no such message in 50")


def test_the_server_lists_the_fourth_game_with_its_facts_and_help(nines_server: Server) -> None:
    with nines_server.client() as http:
        games = {g["name"]: g for g in http.get("/api/meta/games").json()}
        help_ = http.get("/api/meta/games/nines/help")
    assert set(games) >= {"nines", "silencio", "silos", "siliconvania"}
    assert games["nines"]["title"] == "Nines" and games["nines"]["players"] == [2, 2]
    assert [o["name"] for o in games["nines"]["options"]] == ["hand"]
    assert help_.status_code == 200
    assert help_.json()["actions"] == {"play ": "Play this card from your hand to the trick."}


def test_a_whole_game_of_the_fourth_game_over_the_servers_sockets_both_seats(nines_server: Server,
                                                                            nines: str) -> None:
    with nines_server.client() as http:
        g = http.post("/api/games", json={"game": "nines", "players": 2, "options": {"hand": 4},
                                          "seats": [{"kind": "creator"}, {"kind": "invite"}]})
        assert g.status_code == 201, g.text
        gid, mine = g.json()["id"], g.json()["token"]
        claimed = http.post(f"/api/games/{gid}/claim", json={"invite": g.json()["invites"][0]["code"]})
        assert claimed.status_code == 200, claimed.text
        tokens = [mine, claimed.json()["token"]]
        rng = random.Random(5)
        sent: list[str] = []
        with contextlib.ExitStack() as stack:
            socks = [stack.enter_context(nines_server.socket(gid, t)) for t in tokens]
            latest = [_until(w, lambda m: m["type"] == "state") for w in socks]
            assert latest[0]["view"]["hand"] != latest[1]["view"]["hand"] and len(latest[1]["view"]["hand"]) == 4
            assert latest[0]["status"] == "playing"
            while latest[0]["status"] != "over":
                seat = next(s for s in (0, 1) if latest[s]["legal"])
                assert latest[1 - seat]["legal"] == []  # the other seat is offered nothing
                action = rng.choice(latest[seat]["legal"])
                socks[seat].send(json.dumps({"type": "act", "action": action, "seq": latest[seat]["seq"],
                                             "client_action_id": f"a{len(sent)}"}))
                ack = _until(socks[seat], lambda m: m["type"] in ("ack", "refused"))
                assert ack["type"] == "ack" and ack["action"] == action, ack
                sent.append(action)
                for s in (0, 1):
                    latest[s] = _until(socks[s], lambda m, q=ack["seq"]: m["type"] == "state" and m["seq"] >= q)
            texts = [e["text"] for e in latest[1]["log"]]
        record = http.get(f"/api/games/{gid}/record").json()
        final = http.get(f"/api/games/{gid}/state").json()
    assert len(sent) == 6 and record["actions"] == sent  # the last trick played itself
    state = tabletop.replay(record)
    assert state.is_over and final["view"]["result"] == {"points": state.points, "winners": state.winners()}
    assert texts[-1].endswith("took the trick")


def _start(http: Any, seats: list[dict[str, Any]]) -> tuple[str, str]:
    g = http.post("/api/games", json={"game": "nines", "players": 2, "seats": seats})
    assert g.status_code == 201, g.text
    return g.json()["id"], g.json()["token"]


def _mine(http: Any, gid: str, token: str, timeout: float = 30.0) -> dict[str, Any]:
    """The seat's state once it has a decision to make or the game is over (the AI seat moves in a worker)."""
    deadline = time.monotonic() + timeout
    while True:
        s: dict[str, Any] = http.get(f"/api/games/{gid}/state", headers=_auth(token)).json()
        if s["legal"] or s["status"] == "over":
            return s
        assert time.monotonic() < deadline, s
        time.sleep(0.02)


def test_an_ai_seat_plays_the_fourth_game_on_the_server(nines_server: Server, nines: str) -> None:
    with nines_server.client() as http:
        gid, token = _start(http, [{"kind": "ai", "ai": "medium"}, {"kind": "creator"}])
        while (s := _mine(http, gid, token))["status"] != "over":
            r = http.post(f"/api/games/{gid}/actions", headers=_auth(token),
                          json={"action": s["legal"][0], "seq": s["seq"]})
            assert r.status_code == 200, r.text
        record = http.get(f"/api/games/{gid}/record").json()
    state = tabletop.replay(record)
    assert state.is_over and len(record["actions"]) == 4
    assert record["actions"][0] == f"play {max(state.dealt[0])}"  # the medium seat (the heuristic) leads its highest


def test_the_server_gives_hints_for_the_fourth_game(nines_server: Server, nines: str) -> None:
    with nines_server.client() as http:
        gid, token = _start(http, [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}])
        s = _mine(http, gid, token)
        h = http.post(f"/api/games/{gid}/hints", headers=_auth(token))
    assert h.status_code == 200, h.text
    body = h.json()
    assert body["seat"] == 0 and body["seq"] == s["seq"]
    hints = body["hints"]
    assert hints and {x["action"] for x in hints} == set(s["legal"])  # three cards: every one of them a hint
    assert all(0.0 <= x["value"] <= 1.0 and x["visits"] > 0 for x in hints)
    assert all(x["reason"].startswith(f"leads {x['action'].split()[1]}") for x in hints)  # the game's ai part
