"""Slow clients against a real `tabletop serve`: how long it holds connections that never finish their request head.

    .venv/bin/python tests/server/slow_clients.py [--partial 200] [--silent 20] [--watch 70] [--env K=V ...]

starts a server (tests/server/proc.py `Server`, a fresh SQLite file), opens `--partial` sockets that send an
unfinished request head (a request line and half a header, then nothing) and `--silent` sockets that send nothing,
all from 127.0.0.2 (a loopback address that is not a trusted proxy, as a client on the internet is not), and
watches for `--watch` seconds when the server closes each; meanwhile a normal client on 127.0.0.1 asks
`GET /api/meta/games` twice a second. It prints when the slow sockets were closed and how the normal client fared.
`tests/server/test_slow_clients.py` runs a small one.
"""

from __future__ import annotations

import argparse
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.server.proc import Server
else:
    from .proc import Server

PARTIAL_HEAD = b"GET /api/meta/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@dataclass
class Report:
    """When the server closed each slow socket (seconds after it was opened; None: still open at the end)."""

    partial: list[float | None]
    silent: list[float | None]
    answered: list[int | str] = field(default_factory=list)
    """What the slow sockets read before the close: the status code of an answer, or "" for none."""
    normal_ok: int = 0
    normal_failed: int = 0
    normal_latencies: list[float] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        for name, times in (("partial head", self.partial), ("sent nothing", self.silent)):
            closed = sorted(t for t in times if t is not None)
            still = len(times) - len(closed)
            if closed:
                out.append(f"{name}: {len(times)} sockets, {len(closed)} closed by the server (after "
                           f"min {closed[0]:.1f} / median {statistics.median(closed):.1f} / max {closed[-1]:.1f} s),"
                           f" {still} still open at the end")
            else:
                out.append(f"{name}: {len(times)} sockets, none closed, {still} still open at the end")
        codes: dict[str, int] = {}
        for a in self.answered:
            codes[str(a) or "none"] = codes.get(str(a) or "none", 0) + 1
        out.append(f"answers read by the slow sockets before the close: {codes}")
        lat = sorted(self.normal_latencies)
        p = f"max {lat[-1] * 1000:.1f} ms, median {statistics.median(lat) * 1000:.1f} ms" if lat else "none"
        out.append(f"normal client meanwhile: {self.normal_ok} answered, {self.normal_failed} failed ({p})")
        return out


def measure(port: int, partial: int = 200, silent: int = 20, watch: float = 70.0,
            source: str = "127.0.0.2") -> Report:
    """Open the slow sockets against 127.0.0.1:`port` and watch them for `watch` seconds (or until all closed)."""
    sel = selectors.DefaultSelector()
    opened: dict[socket.socket, tuple[str, int, float]] = {}
    closed: dict[tuple[str, int], float] = {}
    answered: dict[tuple[str, int], bytes] = {}
    socks = []
    for kind, n in (("partial", partial), ("silent", silent)):
        for i in range(n):
            s = socket.socket()
            s.bind((source, 0))
            s.connect(("127.0.0.1", port))
            if kind == "partial":
                s.sendall(PARTIAL_HEAD)
            s.setblocking(False)
            opened[s] = (kind, i, time.monotonic())
            sel.register(s, selectors.EVENT_READ)
            socks.append(s)
    stop = threading.Event()
    report = Report([], [])

    def normal() -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as c:
            while not stop.is_set():
                t = time.monotonic()
                try:
                    ok = c.get("/api/meta/games").status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    report.normal_ok += 1
                    report.normal_latencies.append(time.monotonic() - t)
                else:
                    report.normal_failed += 1
                stop.wait(0.5)

    thread = threading.Thread(target=normal, daemon=True)
    thread.start()
    deadline = time.monotonic() + watch
    while len(closed) < len(opened) and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            kind, i, t0 = opened[s]
            try:
                data = s.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                data = b""
            if data:
                answered[(kind, i)] = answered.get((kind, i), b"") + data
                continue
            closed[(kind, i)] = time.monotonic() - t0
            sel.unregister(s)
    stop.set()
    thread.join(15)
    for s in socks:
        s.close()
    report.partial = [closed.get(("partial", i)) for i in range(partial)]
    report.silent = [closed.get(("silent", i)) for i in range(silent)]
    for key in [(k, i) for (k, i, _) in opened.values()]:
        head = answered.get(key, b"")
        report.answered.append(int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else "")
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--partial", type=int, default=200)
    ap.add_argument("--silent", type=int, default=20)
    ap.add_argument("--watch", type=float, default=70.0)
    ap.add_argument("--env", action="append", default=[], help="TABLETOP_X=value for the server")
    args = ap.parse_args(argv)
    env = dict(kv.split("=", 1) for kv in args.env)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/slow.sqlite3", Path(tmp) / "server.log", env=env).start()
        try:
            report = measure(server.port, args.partial, args.silent, args.watch)
        finally:
            server.stop()
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
