"""A throwaway PostgreSQL cluster for the server tests: started once per test session, torn down at its end.

The pytest process that runs the session (the xdist controller, or the only process with `-n 0`) picks an empty
directory in `pytest_configure` and passes it to its workers in the environment (`TABLETOP_TEST_PG`). The first
test that needs PostgreSQL, in whichever worker, runs `initdb` and `pg_ctl start` there under a file lock; the
others find it running. Each worker gets its own database (`tabletop_gw0`, ...), and each test a fresh schema in
it. `pytest_unconfigure` in the session's process stops the cluster (`pg_ctl stop -m immediate`) and removes the
directory. The cluster listens on a Unix socket in that directory only, with trust authentication: nothing
outside the machine's root and the test run can reach it.

Debian's PostgreSQL refuses to run as root: as root, `initdb` and `pg_ctl` run as the `postgres` user
(`runuser -u postgres --`) in a directory that user owns; as anyone else they run directly. Without `initdb` on the
machine the tests that need PostgreSQL fail, saying what to install (they are never skipped).
"""

from __future__ import annotations

import fcntl
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ENV = "TABLETOP_TEST_PG"
PORT = 5432  # names the socket file only: the cluster listens on no TCP port
OWNER = "postgres"


class ClusterError(Exception):
    """PostgreSQL is missing, or would not start."""


def _tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)),
                                        None)
    if found is None:
        raise ClusterError(
            f"PostgreSQL's `{name}` was not found (on PATH or in /usr/lib/postgresql/*/bin): the server tests run "
            "against a throwaway PostgreSQL cluster. Install it (Debian/Ubuntu: apt-get install postgresql; "
            "macOS: brew install postgresql) and run the tests again."
        )
    return found


def _as_owner(cmd: list[str]) -> list[str]:
    """`cmd` run as the `postgres` user when we are root (PostgreSQL refuses root), else as ourselves."""
    if os.geteuid() != 0:
        return cmd
    try:
        pwd.getpwnam(OWNER)
    except KeyError:
        raise ClusterError(f"running as root, but there is no {OWNER!r} user to run PostgreSQL as") from None
    return ["runuser", "-u", OWNER, "--", *cmd]


def _run(cmd: list[str], what: str) -> None:
    done = subprocess.run(_as_owner(cmd), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ClusterError(f"{what} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")


def new_root() -> Path:
    """An empty directory for a cluster, owned by whoever will run PostgreSQL."""
    root = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
    if os.geteuid() == 0:
        try:
            entry = pwd.getpwnam(OWNER)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        except KeyError:
            pass  # reported when the cluster is started
    return root


class Cluster:
    """The cluster whose files, socket and log live in `root`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self.root / "lock", "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of `database` in this cluster (over the Unix socket)."""
        return f"postgresql+psycopg://{OWNER}@/{database}?host={self.root}&port={PORT}"

    def start(self) -> None:
        """Create and start the cluster unless a process of this session already has."""
        with self._locked():
            if (self.root / "ready").exists():
                return
            initdb, pg_ctl = _tool("initdb"), _tool("pg_ctl")
            _run([initdb, "-D", str(self.data), "-U", OWNER, "--auth=trust", "-E", "UTF8", "--locale=C",
                  "--no-sync"], "initdb")
            opts = (f"-c listen_addresses='' -c unix_socket_directories={self.root} -p {PORT} -c fsync=off "
                    "-c full_page_writes=off -c max_connections=200")
            _run([pg_ctl, "-D", str(self.data), "-l", str(self.root / "log"), "-o", opts, "-w", "-t", "60",
                  "start"], "pg_ctl start")
            (self.root / "ready").write_text("ready\n")

    def create_database(self, name: str) -> str:
        """A new, empty database `name` (dropped first if it exists): its URL."""
        import psycopg

        with psycopg.connect(host=str(self.root), port=PORT, user=OWNER, dbname="postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the cluster (if it was started) and remove its directory."""
        try:
            if (self.data / "postmaster.pid").exists():
                _run([_tool("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"], "pg_ctl stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def reset_schema(cluster: Cluster, database: str) -> None:
    """Empty `database` for the next test: drop and recreate its public schema."""
    import psycopg

    with psycopg.connect(host=str(cluster.root), port=PORT, user=OWNER, dbname=database, autocommit=True) as c:
        c.execute("DROP SCHEMA public CASCADE")
        c.execute("CREATE SCHEMA public")


# ---- the session's side (loaded by tests/conftest.py, so that it runs in the xdist controller) ---------------
def configure(config: pytest.Config) -> None:
    """In the session's process: choose the cluster's directory and tell the workers (started later) of it."""
    if hasattr(config, "workerinput") or os.environ.get(ENV):
        return
    root = new_root()
    os.environ[ENV] = str(root)
    config.stash[_ROOT] = root


def unconfigure(config: pytest.Config) -> None:
    """In the session's process: stop the cluster if any worker started it; remove its directory."""
    root = config.stash.get(_ROOT, None)
    if root is not None:
        Cluster(root).stop()
        os.environ.pop(ENV, None)


_ROOT = pytest.StashKey[Path]()


@contextmanager
def session_cluster() -> Iterator[Cluster]:
    """The session's cluster, started if needed. Without the session hooks (an unusual invocation), a private
    cluster for this process, stopped when the context ends."""
    shared = os.environ.get(ENV)
    cluster = Cluster(Path(shared) if shared else new_root())
    try:
        cluster.start()
        yield cluster
    finally:
        if not shared:
            cluster.stop()
