"""A throwaway PostgreSQL cluster for `tabletop loadtest --db postgresql`: initdb in a temporary directory, listening
on a Unix socket there only (no TCP port), trust authentication, removed at the end. Debian's PostgreSQL refuses to
run as root: as root the programs run as the `postgres` user (`runuser -u postgres --`) in a directory it owns.
Unlike the test suite's cluster (tests/server/pg.py) it keeps `fsync` on: the figures are for a durable server.
It needs PostgreSQL's programs and psycopg (the `loadtest` extra).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

OWNER = "postgres"
PORT = 5432  # names the socket file only


class ClusterFailed(RuntimeError):
    """The throwaway cluster could not be made: PostgreSQL's programs are missing or one of them failed."""


def _tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)),
                                        None)
    if found is None:
        raise ClusterFailed(f"PostgreSQL's `{name}` was not found (Debian/Ubuntu: apt-get install postgresql)")
    return found


def _run(cmd: list[str]) -> None:
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", OWNER, "--", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ClusterFailed(f"{cmd[0]} failed: {done.stderr.strip() or done.stdout.strip()}")


@contextmanager
def throwaway_cluster(max_connections: int = 100) -> Iterator[str]:
    """Start a cluster with an empty database `tabletop`: its SQLAlchemy URL; stopped and removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
    if os.geteuid() == 0:
        entry = pwd.getpwnam(OWNER)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    data = root / "data"
    try:
        _run([_tool("initdb"), "-D", str(data), "-U", OWNER, "--auth=trust", "-E", "UTF8", "--locale=C"])
        opts = (f"-c listen_addresses='' -c unix_socket_directories={root} -p {PORT} "
                f"-c max_connections={max_connections}")
        _run([_tool("pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-o", opts, "-w", "-t", "60", "start"])
        import psycopg

        with psycopg.connect(host=str(root), port=PORT, user=OWNER, dbname="postgres", autocommit=True) as c:
            c.execute('CREATE DATABASE "tabletop"')
        yield f"postgresql+psycopg://{OWNER}@/tabletop?host={root}&port={PORT}"
    finally:
        if (data / "postmaster.pid").exists():
            _run([_tool("pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"])
        shutil.rmtree(root, ignore_errors=True)
