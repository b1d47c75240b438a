"""Two real server processes on one PostgreSQL database: a chat line posted through one reaches the sockets of the
other, and a move clock is run by the AI-owning process alone (one time-out move, one notice)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path

from .proc import Server, receive


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_chat_crosses_processes_and_one_process_times_a_late_seat_out(pg_url: str, tmp_path: Path) -> None:
    env = {"TABLETOP_CLOCK_TICK": "0.1"}
    a = Server(pg_url, tmp_path / "a.log", ai_workers=1, env=env).start()
    b = Server(pg_url, tmp_path / "b.log", ai_workers=1, env=env).start()
    with ExitStack() as stack:
        stack.callback(a.stop)
        stack.callback(b.stop)
        ca, cb = stack.enter_context(a.client()), stack.enter_context(b.client())
        g = ca.post("/api/games", json={"game": "silos", "players": 2, "move_seconds": 3,
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
        gid = g["id"]
        spectator = stack.enter_context(b.socket(gid))
        assert receive(spectator)["type"] == "state"
        claimed = cb.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]})
        assert claimed.status_code == 200
        r = ca.post(f"/api/games/{gid}/chat", headers=auth(g["token"]), json={"text": "hello from A"})
        assert r.status_code == 200, r.text
        got = []
        deadline = time.monotonic() + 30
        while not any(m.get("type") == "chat" for m in got):
            assert time.monotonic() < deadline
            got.append(receive(spectator))
        chat = next(m for m in got if m["type"] == "chat")
        assert [x["text"] for x in chat["messages"]] == ["hello from A"]
        while cb.get(f"/api/games/{gid}/state").json()["seq"] < 1:  # nobody moves: the clock does, once
            assert time.monotonic() < deadline + 30
            time.sleep(0.1)
        time.sleep(1.0)  # a second process timing the same decision out would have done so by now
        events = cb.get(f"/api/games/{gid}/state").json()["seq"]
        notices = [m for m in ca.get(f"/api/games/{gid}/chat").json()["messages"] if m["kind"] == "notice"]
        assert len(notices) == events >= 1, (notices, events)  # one notice per timed-out decision, none twice
        assert "ran out of time (3 s a move)" in notices[0]["text"]
        assert "Traceback" not in a.output() + b.output(), json.dumps([a.output()[-2000:], b.output()[-2000:]])
