"""Issue 20, point 3: AI-only games must not starve the others. Measured against a real `tabletop serve`:

- from 4 loopback addresses (127.0.0.2-5), games of four `hard` AI seats up to the total cap of AI-only games
  (16 by default: 4 from each address), all in play at once, with the default `--ai-workers` (1);
- meanwhile, from other addresses: a person's game against an `easy` AI (how long each AI reply takes after the
  person's move) and a game of two people with a 2 s move clock in which nobody moves (how long after the decision
  began each time-out move comes);
- then SIGTERM, and how long the server takes to exit.

`measure` is used by tests/server/test_ai_fairness.py, and runs as a benchmark against any checkout (the code before
a change, say) with `python -m tests.server.ai_load [--src OLD/src]`, which prints the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from .proc import Server

ADDRESSES = [f"127.0.0.{i}" for i in range(2, 6)]


def client_from(server: Server, address: str) -> httpx.Client:
    """An HTTP client whose requests come from `address` (a loopback address of its own)."""
    return httpx.Client(base_url=server.url, timeout=30, transport=httpx.HTTPTransport(local_address=address))


@dataclass
class Figures:
    ai_only_games: int = 0
    """AI-only games created (201) before the cap answered."""
    refused: list[int] = field(default_factory=list)
    """Statuses of the creations refused (one more from each address, and from a fifth)."""
    replies: list[float] = field(default_factory=list)
    """Seconds from a person's move to the `easy` AI's reply."""
    timeouts: list[float] = field(default_factory=list)
    """Seconds from the start of a 2 s decision to its time-out move."""
    exit_seconds: float = 0.0
    """Seconds from SIGTERM to the server's exit."""
    backlog_moves: int = 0
    """AI moves made in the AI-only games during the measurement (they do move, behind the others)."""

    def report(self) -> str:
        def line(name: str, xs: list[float]) -> str:
            if not xs:
                return f"{name}: none"
            return (f"{name}: n={len(xs)} median {statistics.median(xs):.3f} s, max {max(xs):.3f} s "
                    f"({', '.join(f'{x:.2f}' for x in xs)})")
        return "\n".join([
            f"AI-only games of 4 AI seats in play: {self.ai_only_games} (then refused: {self.refused})",
            line("easy AI reply after a person's move", self.replies),
            line("2 s move clock, time-out after the decision began", self.timeouts),
            f"AI moves in the AI-only games meanwhile: {self.backlog_moves}",
            f"SIGTERM to exit: {self.exit_seconds:.2f} s",
        ])


def _seqs(c: httpx.Client, ids: list[str]) -> int:
    return sum(int(c.get(f"/api/games/{gid}").json()["seq"]) for gid in ids)


def _state(c: httpx.Client, gid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    body: dict[str, Any] = r.json()
    return body


def measure(server: Server, replies: int = 10, timeouts: int = 4, per_address: int = 4, wait: float = 30.0,
            level: str = "hard") -> Figures:
    """Run the scenario on a started `server` (stopped with SIGTERM at the end); the AI-only games' seats play at
    `level`."""
    fig = Figures()
    ai_ids: list[str] = []
    hard4 = {"game": "silos", "players": 4, "seats": [{"kind": "ai", "ai": level}] * 4}
    for address in ADDRESSES:
        with client_from(server, address) as c:
            for _ in range(per_address):
                r = c.post("/api/games", json=hard4)
                if r.status_code == 201:
                    ai_ids.append(r.json()["id"])
                else:
                    fig.refused.append(r.status_code)
            fig.refused.append(c.post("/api/games", json=hard4).status_code)  # one more than its share
    with client_from(server, "127.0.0.6") as c:
        fig.refused.append(c.post("/api/games", json=hard4).status_code)  # past the total
    fig.ai_only_games = len(ai_ids)
    time.sleep(1.0)  # the backlog builds up
    with client_from(server, "127.0.0.7") as people, client_from(server, "127.0.0.8") as clocked, \
            client_from(server, "127.0.0.9") as watch:
        before = _seqs(watch, ai_ids)
        # a person against an easy AI
        r = people.post("/api/games", json={"game": "silos", "players": 2, "creator_name": "Ann",
                                            "seats": [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}]})
        r.raise_for_status()
        g = r.json()
        gid, token, me = g["id"], g["token"], g["seat"]
        deadline = time.monotonic() + wait
        s = _state(people, gid, token)
        while s["to_move"] != me and time.monotonic() < deadline:  # the AI may open
            time.sleep(0.01)
            s = _state(people, gid, token)
        for _ in range(replies * 10):
            if len(fig.replies) >= replies or s["status"] != "playing" or s["to_move"] != me:
                break
            r = people.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                            json={"action": s["legal"][0], "seq": s["seq"]})
            r.raise_for_status()
            t0, mine = time.monotonic(), r.json()["seq"]
            while True:
                s = _state(people, gid, token)
                if s["seq"] == mine and s["to_move"] == me:
                    break  # the person's turn goes on: no AI reply to time
                if s["seq"] > mine and (s["to_move"] == me or s["status"] != "playing"):
                    fig.replies.append(time.monotonic() - t0)
                    break
                if time.monotonic() - t0 > wait:
                    fig.replies.append(float("inf"))
                    break
                time.sleep(0.01)
            if fig.replies and fig.replies[-1] == float("inf"):
                break
        # two people, a 2 s move clock, nobody moves: a time-out every 2 s
        r = clocked.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 2,
                                             "seats": [{"kind": "creator"}, {"kind": "invite"}]})
        r.raise_for_status()
        g = r.json()
        claim = clocked.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]})
        claim.raise_for_status()
        tokens = {g["seat"]: g["token"], claim.json()["seat"]: claim.json()["token"]}
        s = _state(clocked, g["id"], tokens[0])
        mover = s["to_move"]
        s = _state(clocked, g["id"], tokens[mover])
        r = clocked.post(f"/api/games/{g['id']}/actions", headers={"Authorization": f"Bearer {tokens[mover]}"},
                         json={"action": s["legal"][0], "seq": s["seq"]})
        r.raise_for_status()
        # the decision's start as the server has it (its stored deadline less the 2 s), against the moment the
        # time-out move is seen: the client's polling adds its few milliseconds, never the other way round
        seq, began, waited = r.json()["seq"], None, time.monotonic()
        while len(fig.timeouts) < timeouts:
            got = int(clocked.get(f"/api/games/{g['id']}").json()["seq"])
            seen = datetime.now(UTC)
            if got > seq:
                if began is not None:
                    fig.timeouts.append((seen - began).total_seconds())
                seq, began, waited = got, None, time.monotonic()
                continue
            if began is None:
                clock = clocked.get(f"/api/games/{g['id']}/clock").json()["clock"]
                if clock["seq"] == seq and clock["deadline"] is not None:
                    began = datetime.fromisoformat(clock["deadline"]) - timedelta(seconds=2)
            if time.monotonic() - waited > wait:
                fig.timeouts.append(float("inf"))
                break
            time.sleep(0.01)
        fig.backlog_moves = _seqs(watch, ai_ids) - before
    assert server.proc is not None
    t0 = time.monotonic()
    server.proc.terminate()
    try:
        server.proc.wait(60)
    except Exception:
        server.kill()
    fig.exit_seconds = time.monotonic() - t0
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", help="run the server from this source folder (e.g. an older checkout's src/)")
    parser.add_argument("--ai-workers", type=int, default=1)
    parser.add_argument("--keep", help="keep the database and the server's log in this folder")
    parser.add_argument("--level", default="hard", help="the AI-only games' strength (default hard)")
    args = parser.parse_args()
    env = {"PYTHONPATH": os.path.abspath(args.src)} if args.src else {}
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        server = Server(f"sqlite:///{Path(tmp) / 'db.sqlite3'}", Path(tmp) / "serve.log", ai_workers=args.ai_workers,
                        env=env).start()
        try:
            print(measure(server, level=args.level).report())
        finally:
            server.kill()


if __name__ == "__main__":
    main()
