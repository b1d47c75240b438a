"""Two real server processes on one PostgreSQL database: moves made through one are pushed to the sockets of the
other, concurrent submissions through both leave every game consistent, one process at a time computes the AI
moves, and when it dies the other takes over."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.exceptions import ConnectionClosed

import tabletop
from tabletop.server.pubsub import AI_LOCK, psycopg_conninfo
from tabletop.server.storage import Storage

from .proc import Server, receive

GAMES = 4


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ai_lock_holders(url: str) -> int:
    """How many sessions hold the AI lock in this database."""
    with psycopg.connect(psycopg_conninfo(url)) as c:
        row = c.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = %s AND objid = %s"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            ((AI_LOCK >> 32) & 0xFFFFFFFF, AI_LOCK & 0xFFFFFFFF)).fetchone()
    assert row is not None
    return int(row[0])


def eventually(pred: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def collect(ws: Any, into: list[dict[str, Any]]) -> None:
    """Every message of a socket until the game is over (or the socket closes)."""
    try:
        while True:
            into.append(receive(ws, timeout=120))
            if into[-1]["status"] == "over":
                return
    except (ConnectionClosed, TimeoutError):
        return


class Table:
    """One game: seat 0 created through A, seat 1 claimed through B, seat 2 an AI; sockets on both processes."""

    def __init__(self, a: httpx.Client, b: httpx.Client, seed: int) -> None:
        g = a.post("/api/games", json={"game": "silos", "players": 3, "seats": [
            {"kind": "creator"}, {"kind": "invite"}, {"kind": "ai", "ai": "easy"}]}).json()
        self.gid: str = g["id"]
        r = b.post(f"/api/games/{self.gid}/claim", json={"invite": g["invites"][0]["code"]})
        assert r.status_code == 200, r.text
        self.tokens: list[str] = [g["token"], r.json()["token"]]
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str, str]] = []
        self.answers: list[tuple[int, bool]] = []

    def play(self, clients: list[httpx.Client], both: ThreadPoolExecutor) -> None:
        """To the end: each move read from either process and posted to BOTH at once with one client action id."""
        n = 0
        while True:
            http = self.rng.choice(clients)
            pub = http.get(f"/api/games/{self.gid}/state").json()
            if pub["status"] == "over":
                return
            seat = pub["to_move"]
            if seat == 2:  # the AI's turn: wait for it
                time.sleep(0.01)
                continue
            mine = http.get(f"/api/games/{self.gid}/state", headers=auth(self.tokens[seat])).json()
            if mine["seq"] != pub["seq"] or not mine["legal"]:
                continue
            body = {"action": self.rng.choice(mine["legal"]), "seq": mine["seq"], "client_action_id": f"m{n}"}
            n += 1
            futs = [both.submit(c.post, f"/api/games/{self.gid}/actions", headers=auth(self.tokens[seat]), json=body)
                    for c in clients]
            rs = [f.result() for f in futs]
            assert [r.status_code for r in rs] == [200, 200], [r.text for r in rs]
            got = [r.json() for r in rs]
            assert sorted(x["duplicate"] for x in got) == [False, True], got
            assert got[0]["seq"] == got[1]["seq"] == body["seq"] + 1 and got[0]["action"] == got[1]["action"]
            self.acked.append((body["seq"], got[0]["action"], body["client_action_id"]))


def test_two_processes_on_one_database_serve_the_same_games_consistently(pg_url: str, tmp_path: Path) -> None:
    a = Server(pg_url, tmp_path / "a.log", ai_workers=1).start()
    b = Server(pg_url, tmp_path / "b.log", ai_workers=1).start()
    with ExitStack() as stack:
        stack.callback(a.stop)
        stack.callback(b.stop)
        eventually(lambda: ai_lock_holders(pg_url) == 1, "one process to own the AI moves")
        ca, cb = stack.enter_context(a.client()), stack.enter_context(b.client())
        tables = [Table(ca, cb, seed) for seed in range(GAMES)]
        seen: dict[tuple[str, str], list[dict[str, Any]]] = {}
        readers = []
        for t in tables:
            for name, server, token in (("a0", a, t.tokens[0]), ("b1", b, t.tokens[1]), ("b-", b, None)):
                ws = stack.enter_context(server.socket(t.gid, token))
                seen[t.gid, name] = []
                readers.append(threading.Thread(target=collect, args=(ws, seen[t.gid, name])))
        for r in readers:
            r.start()
        both = stack.enter_context(ThreadPoolExecutor(2 * GAMES))
        with ThreadPoolExecutor(GAMES) as drivers:
            for f in [drivers.submit(t.play, [ca, cb], both) for t in tables]:
                f.result()
        for r in readers:
            r.join(120)
        assert ai_lock_holders(pg_url) == 1

        storage = Storage(pg_url)
        for t in tables:
            record = ca.get(f"/api/games/{t.gid}/record").json()
            assert cb.get(f"/api/games/{t.gid}/record").json() == record
            events = storage.events(t.gid)
            assert [e.seq for e in events] == list(range(len(record["actions"])))  # none lost, none doubled
            assert [e.text for e in events] == record["actions"]
            for seq, text, caid in t.acked:
                assert events[seq].text == text and events[seq].client_action_id == caid
            assert any(e.seat == 2 for e in events)  # the AI played
            final = tabletop.replay(record)
            for seat, token in enumerate(t.tokens):
                via_a = ca.get(f"/api/games/{t.gid}/log", headers=auth(token)).json()
                assert cb.get(f"/api/games/{t.gid}/log", headers=auth(token)).json() == via_a
                assert ca.get(f"/api/games/{t.gid}/state", headers=auth(token)).json()["view"] == final.view(seat)
            for name, seat in (("a0", 0), ("b1", 1), ("b-", None)):
                msgs = seen[t.gid, name]
                assert msgs and msgs[-1]["status"] == "over", (name, msgs[-1:] and msgs[-1]["seq"])
                assert msgs[-1]["view"] == final.view(seat) and msgs[-1]["seq"] == len(record["actions"])
                assert [m["seq"] for m in msgs] == sorted(m["seq"] for m in msgs)

        # the AI owner dies: the other process takes the AI moves over
        owner, other = (a, b) if "computes the AI moves" in a.output() else (b, a)
        owner.kill()
        eventually(lambda: ai_lock_holders(pg_url) == 1, "the survivor to take the AI moves over")
        with other.client() as http:
            g = http.post("/api/games", json={"game": "silos", "players": 2, "seats": [
                {"kind": "creator"}, {"kind": "ai", "ai": "easy"}]}).json()
            rng = random.Random(5)
            while True:
                s = http.get(f"/api/games/{g['id']}/state", headers=auth(g["token"])).json()
                if s["status"] == "over":
                    break
                if s["legal"]:
                    r = http.post(f"/api/games/{g['id']}/actions", headers=auth(g["token"]),
                                  json={"action": rng.choice(s["legal"]), "seq": s["seq"]})
                    assert r.status_code == 200, r.text
                else:
                    time.sleep(0.01)
            events = storage.events(g["id"])
            assert {e.seat for e in events} == {0, 1}
        storage.close()

