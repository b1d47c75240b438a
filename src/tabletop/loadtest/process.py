"""The server a load test measures: `tabletop serve` started as a subprocess (the command, not the server's code) on a
free loopback port, under its default limits, on a fresh database; its memory and CPU read from /proc."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from tabletop.loadtest.bots import Stats


class ServerFailed(RuntimeError):
    """The server did not start: it exited (its last lines of output say why) or did not answer."""


class RssSampler:
    """The server's resident memory, sampled from /proc, and the CPU time it has used (summed over its processes,
    when several serve one database)."""

    def __init__(self, pid: int | list[int], stats: Stats | None = None) -> None:
        self.pids = [pid] if isinstance(pid, int) else list(pid)
        self.peak, self.last = 0, 0
        self.task: asyncio.Task[None] | None = None
        self.cpu0 = self.cpu()
        self.stats = stats
        """If given, its games in play and the server's CPU are sampled with the memory (the run's timeline)."""

    def cpu(self) -> float:
        """The server processes' CPU seconds so far (user + system, all their threads)."""
        total = 0.0
        for pid in self.pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, IndexError, ValueError):
                pass
        return total

    def restart_cpu(self) -> None:
        self.cpu0 = self.cpu()

    def read(self) -> int:
        total = 0
        for pid in self.pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            except OSError:
                pass
        return total

    async def run(self) -> None:
        while True:
            self.last = self.read()
            self.peak = max(self.peak, self.last)
            if self.stats is not None:
                self.stats.timeline.append((time.perf_counter(), self.stats.in_play, self.cpu()))
            await asyncio.sleep(0.5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


TUNING = ("TABLETOP_SOCKET_COMPRESSION", "TABLETOP_GC_YOUNG_THRESHOLD", "TABLETOP_ACT_THREADS", "TABLETOP_ACT_IN_LOOP",
          "TABLETOP_SQLITE_SYNC")
"""The server's settings a load test passes on from its environment (to compare them); every other `TABLETOP_*`
variable is dropped, so the server runs under its default limits."""


def last_lines(path: Path, n: int = 5) -> str:
    """The last `n` non-empty lines of a log, joined with " | " (or "no output")."""
    try:
        lines = [x.strip() for x in path.read_text(errors="replace").splitlines() if x.strip()]
    except OSError:
        lines = []
    return " | ".join(lines[-n:]) or "no output"


@contextlib.contextmanager
def server_processes(db_url: str, workdir: Path, n: int) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """`n` `tabletop serve` processes on one database (each on its own port, logging to server-<i>.log): their URLs
    and processes. More than one needs PostgreSQL: the processes hear each other's events by its LISTEN/NOTIFY."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(server_process(db_url, workdir, f"server-{i}.log" if n > 1 else "server.log"))
               for i in range(n)]


@contextlib.contextmanager
def server_process(db_url: str, workdir: Path, log_name: str = "server.log"
                   ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`tabletop serve` on a free loopback port under its default limits: its URL and process. Its output goes to
    `workdir`/server.log; if it does not start, `ServerFailed` carries the log's last lines (the working directory
    is a temporary one, gone by the time the error is read)."""
    port = free_port()
    cmd = [sys.executable, "-c", "import sys; from tabletop.cli.main import main; sys.exit(main(sys.argv[1:]))",
           "serve", "--port", str(port), "--db", db_url, "--ai-workers", "1"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_") or k in TUNING}
    log = open(workdir / log_name, "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                log.flush()
                raise ServerFailed(f"`tabletop serve` exited ({proc.returncode}): {last_lines(workdir / log_name)}")
            try:
                if httpx.get(f"{url}/api/meta/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise ServerFailed(f"`tabletop serve` did not answer in 60 s: {last_lines(workdir / log_name)}")
            time.sleep(0.1)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


@contextlib.contextmanager
def database(db: str, workdir: Path) -> Iterator[str]:
    """The URL of a fresh database: `sqlite` (a file in `workdir`), `postgresql` (a throwaway cluster) or a URL."""
    if db == "sqlite":
        yield f"sqlite:///{workdir / 'loadtest.sqlite3'}"
    elif db == "postgresql":
        from tabletop.loadtest.pgcluster import throwaway_cluster

        with throwaway_cluster() as url:
            yield url
    else:
        yield db


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
