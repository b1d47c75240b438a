"""Real server processes for the tests: `tabletop serve` on a free loopback port, killed or stopped at will."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

SERVE = Path(__file__).with_name("serve.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One `tabletop serve` process on `port` with database `db`; its output goes to `log`. Rate limits are off
    unless `env` sets them (these tests play fast from one address)."""

    def __init__(self, db: str, log: Path, port: int | None = None, ai_workers: int = 0,
                 env: dict[str, str] | None = None) -> None:
        self.db, self.log, self.port, self.ai_workers = db, log, port or free_port(), ai_workers
        self.env = {"TABLETOP_RATE_PER_ADDRESS": "0", "TABLETOP_RATE_PER_TOKEN": "0", **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> Server:
        cmd = [sys.executable, str(SERVE), "serve", "--port", str(self.port), "--db", self.db,
               "--ai-workers", str(self.ai_workers)]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                         env={**os.environ, **self.env})
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.output()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/meta/games", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"the server did not answer in {timeout} s:\n{self.output()[-3000:]}")
            time.sleep(0.05)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful shutdown), SIGKILL after 20 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)

    def socket(self, game_id: str, token: str | None = None, since: int = 0) -> ClientConnection:
        q = f"?since={since}" + (f"&token={token}" if token else "")
        return connect(f"ws://127.0.0.1:{self.port}/api/games/{game_id}/ws{q}", open_timeout=10)


def receive(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return msg


def receive_until(ws: ClientConnection, seq: int, timeout: float = 30.0) -> list[dict[str, Any]]:
    """Messages until one at event `seq` or later."""
    out = [receive(ws, timeout)]
    while out[-1]["seq"] < seq:
        out.append(receive(ws, timeout))
    return out
