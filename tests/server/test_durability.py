"""SIGKILL a real `tabletop serve` mid-game, restart it on the same database: nothing acknowledged is lost, clients
reconnect over the WebSocket, catch up from their log index, and the game goes on to its end. SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import tabletop
from tabletop.server.storage import Storage

from .conftest import BACKENDS
from .proc import Server, receive, receive_until

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Player:
    """Plays both seats of a game over HTTP, recording every acknowledged action and the one in flight at a crash."""

    def __init__(self, url: str, gid: str, tokens: list[str], seed: int) -> None:
        self.url, self.gid, self.tokens, self.rng = url, gid, tokens, random.Random(seed)
        self.acked: list[tuple[int, str, str]] = []  # (seq of the event, action text, client action id)
        self.in_flight: tuple[int, dict[str, Any]] | None = None
        self.n = 0
        self.posting = threading.Event()

    def step(self, http: httpx.Client) -> bool:
        """One move (False once the game is over)."""
        pub = http.get(f"/api/games/{self.gid}/state").json()
        if pub["status"] == "over":
            return False
        seat = pub["to_move"]
        mine = http.get(f"/api/games/{self.gid}/state", headers=auth(self.tokens[seat])).json()
        body = {"action": self.rng.choice(mine["legal"]), "seq": mine["seq"], "client_action_id": f"move-{self.n}"}
        self.n += 1
        self.in_flight = (seat, body)
        self.posting.set()
        r = http.post(f"/api/games/{self.gid}/actions", headers=auth(self.tokens[seat]), json=body)
        assert r.status_code == 200, r.text
        self.in_flight = None
        self.acked.append((r.json()["seq"] - 1, r.json()["action"], body["client_action_id"]))
        return True

    def run_until_crash(self, stop: threading.Event) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as http:
            try:
                while not stop.is_set() and self.step(http):
                    pass
            except httpx.TransportError:
                pass  # the server died under us: `in_flight` may or may not have been stored


def test_sigkill_mid_game_loses_no_acknowledged_event_and_play_goes_on(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path / "server.log").start()
    with ExitStack() as stack:
        stack.callback(server.stop)
        with server.client() as http:
            g = http.post("/api/games", json={"game": "silos", "players": 2,
                                              "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
            gid = g["id"]
            friend = http.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]}).json()
        tokens = [g["token"], friend["token"]]
        socks = [stack.enter_context(server.socket(gid, t)) for t in tokens]
        seen = [[receive(s)] for s in socks]

        player = Player(server.url, gid, tokens, seed=7)
        stop = threading.Event()
        thread = threading.Thread(target=player.run_until_crash, args=(stop,))
        thread.start()
        while len(player.acked) < 12:
            assert thread.is_alive(), "the player stopped before the crash"
            threading.Event().wait(0.002)
        player.posting.clear()
        player.posting.wait(30)
        server.kill()  # mid-game, as an action is being posted
        stop.set()
        thread.join(30)
        for s, got in zip(socks, seen, strict=True):  # each socket saw events up to the crash, then was cut
            with pytest.raises(ConnectionClosed):
                while True:
                    got.append(receive(s, timeout=10))

        stored = Storage(db_url).events(gid)
        for seq, text, caid in player.acked:
            assert stored[seq].text == text and stored[seq].client_action_id == caid, f"event {seq} was lost"
        assert len(stored) in (len(player.acked), len(player.acked) + 1)  # + the one in flight, if it got stored

        print(f"killed after {len(player.acked)} acknowledged moves, one in flight: {player.in_flight is not None}, "
              f"stored: {len(stored)}")
        server.start()  # the same port, the same database
        with server.client() as http:
            if player.in_flight is not None:  # the retry of the request cut by the crash
                seat, body = player.in_flight
                r = http.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]), json=body)
                assert r.status_code == 200, r.text
                assert r.json()["duplicate"] is (len(stored) > len(player.acked))
                player.acked.append((r.json()["seq"] - 1, r.json()["action"], body["client_action_id"]))
                player.in_flight = None
            assert http.get(f"/api/games/{gid}/state").json()["seq"] == len(player.acked)
            socks = [stack.enter_context(server.socket(gid, t, since=got[-1]["log_pos"]))
                     for t, got in zip(tokens, seen, strict=True)]
            for s, got in zip(socks, seen, strict=True):
                first = receive(s)
                assert first["seq"] == len(player.acked) and first["log_start"] == got[-1]["log_pos"]
                got.append(first)
            while player.step(http):
                for s, got in zip(socks, seen, strict=True):
                    got.extend(receive_until(s, len(player.acked)))
            record = http.get(f"/api/games/{gid}/record").json()
        assert record["actions"] == [text for _, text, _ in player.acked]
        assert [e.text for e in Storage(db_url).events(gid)] == record["actions"]
        final = tabletop.replay(record)
        for seat, got in enumerate(seen):
            assert got[-1]["status"] == "over" and got[-1]["view"] == final.view(seat)
            cursors = [m["log_start"] for m in got]
            assert cursors == sorted(cursors)  # each reconnect resumed from where that client was
