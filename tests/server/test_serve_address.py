"""`tabletop serve` prints the address to open only once it listens (issue 20, point 14): the moment the line is
printed, a connection to that address succeeds; a server that cannot listen never prints it."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx

from .proc import SERVE, free_port

OPEN = re.compile(r"Open http://127\.0\.0\.1:(\d+)/ in your browser")


def start(port: int, db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(SERVE), "serve", "--port", str(port), "--db", f"sqlite:///{db}",
                             "--ai-workers", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "TABLETOP_HINT_WORKERS": "0"})


def lines_until_open(proc: subprocess.Popen[str], timeout: float = 60.0) -> tuple[list[str], int | None]:
    """The output up to the address line (or to the end), and the port that line names (None: no such line).
    The process is killed if neither comes within `timeout`."""
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    seen: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            m = OPEN.search(line)
            if m:
                return seen, int(m.group(1))
        return seen, None
    finally:
        timer.cancel()


def test_the_address_is_printed_once_the_server_listens(tmp_path: Path) -> None:
    port = free_port()
    proc = start(port, tmp_path / "server.sqlite3")
    try:
        seen, printed = lines_until_open(proc)
        # at once, no retry: the line is there, so the socket must be
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        assert printed == port, "".join(seen)
        assert httpx.get(f"http://127.0.0.1:{port}/api/meta/games", timeout=10).status_code == 200
        assert not any("serving on" in line for line in seen), "".join(seen)  # no early address line
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_server_that_cannot_listen_prints_no_address(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = start(port, tmp_path / "server.sqlite3")
        try:
            seen, printed = lines_until_open(proc)
            assert printed is None, "".join(seen)
            assert proc.wait(30) != 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)
