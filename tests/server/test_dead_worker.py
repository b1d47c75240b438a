"""Issue 20, point 4: a dead worker is replaced. SIGKILL of the AI and hint worker processes (as the OOM killer
would do), once while a `hard` AI seat is searching and once while they idle: the AI seat still moves (its
search is run again), a move clock still fires, a hint still comes, and the log says it once per pool, without a
traceback. A pool whose worker died while idle is replaced when its next job comes (nothing was lost meanwhile)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx

from .proc import Server


def descendants(pid: int) -> dict[int, int]:
    """Every process below `pid`: pid -> parent pid (from /proc)."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
    out: dict[int, int] = {}
    frontier = [pid]
    while frontier:
        p = frontier.pop()
        for child, ppid in parent.items():
            if ppid == p and child not in out:
                out[child] = ppid
                frontier.append(child)
    return out


def running(pid: int) -> bool:
    """`pid` is a live process (not gone, not a zombie waiting for its parent)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def workers(server: Server) -> list[int]:
    """The pool workers: children of the fork server (itself a child of the server), not its direct children."""
    assert server.proc is not None
    return [p for p, ppid in descendants(server.proc.pid).items() if ppid != server.proc.pid]


def state(c: httpx.Client, gid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def my_turn(c: httpx.Client, gid: str, token: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        s = state(c, gid, token)
        if s["to_move"] == s["seat"] and s["status"] == "playing":
            return s
        assert time.monotonic() < deadline, f"the AI did not move: seq {s['seq']}, to_move {s['to_move']}"
        time.sleep(0.02)


def move(c: httpx.Client, gid: str, token: str, s: dict[str, Any]) -> int:
    r = c.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
               json={"action": s["legal"][0], "seq": s["seq"]})
    assert r.status_code == 200, r.text
    seq: int = r.json()["seq"]
    return seq


def kill(pids: list[int]) -> None:
    for p in pids:
        os.kill(p, signal.SIGKILL)


def test_killed_workers_are_replaced_their_jobs_retried_and_said_once(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "serve.log", ai_workers=1,
                    env={"TABLETOP_HINT_SECONDS": "0.3", "TABLETOP_CLOCK_TICK": "0.2"}).start()
    try:
        with server.client() as c:
            g = c.post("/api/games", json={"game": "silos", "players": 2,
                                           "seats": [{"kind": "creator"}, {"kind": "ai", "ai": "hard"}]}).json()
            gid, token = g["id"], g["token"]
            s = my_turn(c, gid, token)
            r = c.post(f"/api/games/{gid}/hints", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200 and r.json()["hints"], r.text  # the hint worker is up
            seq = move(c, gid, token, s)  # the hard AI searches (1 s) in the AI worker...
            time.sleep(0.3)
            first = workers(server)
            assert len(first) == 2, first  # one AI worker, one hint worker
            kill(first)  # ...and is killed in the middle of it: the move is searched again in a new pool
            s = my_turn(c, gid, token)
            assert s["seq"] > seq
            second = workers(server)
            assert len(second) == 1 and not set(second) & set(first)  # the new AI worker (hints: no new one yet)
            kill(second)  # idle this time: found broken at the next job
            seq = move(c, gid, token, s)
            s = my_turn(c, gid, token)
            assert s["seq"] > seq
            r = c.post(f"/api/games/{gid}/hints", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200 and r.json()["hints"], r.text
            # a move clock still fires (two people, nobody moves)
            g = c.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 1,
                                           "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
            c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).raise_for_status()
            deadline = time.monotonic() + 10
            while c.get(f"/api/games/{g['id']}").json()["seq"] == 0:
                assert time.monotonic() < deadline, "the clock did not fire"
                time.sleep(0.05)
    finally:
        server.stop()
    log = server.output()
    assert "Traceback" not in log and "BrokenProcessPool" not in log, log[-4000:]
    assert log.count("the AI workers' pool broke") == 2, log[-4000:]  # once per killing, not once per job or tick
    assert log.count("the hint workers' pool broke") == 1, log[-4000:]  # found at the next hint, replaced once


def test_a_killed_server_leaves_no_worker_or_fork_server_behind(tmp_path: Path) -> None:
    """SIGKILL of the server itself (the OOM killer, a crash): its AI and hint workers, their fork servers and the
    resource tracker all end within seconds, rather than waiting on their task queues for ever."""
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "serve.log", ai_workers=1,
                    env={"TABLETOP_HINT_SECONDS": "0.3"}).start()
    try:
        with server.client() as c:
            g = c.post("/api/games", json={"game": "silos", "players": 2,
                                           "seats": [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}]}).json()
            gid, token = g["id"], g["token"]
            s = my_turn(c, gid, token)
            r = c.post(f"/api/games/{gid}/hints", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200 and r.json()["hints"], r.text
            move(c, gid, token, s)
            my_turn(c, gid, token)  # the AI worker has moved
        assert server.proc is not None
        below = descendants(server.proc.pid)
        assert len(workers(server)) == 2, below  # one AI worker, one hint worker, under their fork servers
    finally:
        server.kill()
    deadline = time.monotonic() + 15
    while left := [p for p in below if running(p)]:
        assert time.monotonic() < deadline, f"still running 15 s after the server was killed: {left}"
        time.sleep(0.1)
