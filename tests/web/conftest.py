"""Browser tests: Playwright for Python driving Debian's Chromium (/usr/bin/chromium; Playwright never downloads a
browser here) against a real `tabletop serve` process on a free port with a temporary SQLite database.

They need the built client (scripts/setup builds it) and Chromium (scripts/test installs it as root); without
either they fail with a message saying so, never skip. Screenshots go to test-artifacts/ (or $TABLETOP_ARTIFACTS).
"""

from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
STATIC = ROOT / "src" / "tabletop" / "server" / "static" / "index.html"
ARTIFACTS = Path(os.environ.get("TABLETOP_ARTIFACTS", ROOT / "test-artifacts"))
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """A `tabletop serve` subprocess: its base URL and log."""

    def __init__(self, tmp: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "serve.log"
        self.tmp = tmp
        self.start()

    def start(self) -> None:
        """Start `tabletop serve` on this port and database (again after a kill: a restart); wait until it answers."""
        tmp = self.tmp
        env = {**os.environ, "TABLETOP_RATE_PER_ADDRESS": "0", "TABLETOP_RATE_PER_TOKEN": "0",
               "TABLETOP_GAMES_PER_HOUR": "0", "TABLETOP_OPEN_GAMES": "0"}  # one session, one address
        cmd = [sys.executable, "-c", "import sys; from tabletop.cli.main import main; sys.exit(main(sys.argv[1:]))",
               "serve", "--port", str(self.port), "--db", f"sqlite:///{tmp / 'web.sqlite3'}", "--ai-workers", "1"]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tabletop serve exited:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/meta/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"tabletop serve did not answer:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no clean shutdown), as a crash would."""
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The client built from the current web/ sources: scripts/build-web rebuilds it if they changed (a no-op
    otherwise), one test worker at a time."""
    lock = tmp_path_factory.getbasetemp().parent / "build-web.lock"
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        done = subprocess.run([str(ROOT / "scripts" / "build-web")], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"scripts/build-web failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}", pytrace=False)
    if not STATIC.is_file():
        pytest.fail("the browser client is not built: run scripts/setup (needs Node.js 20+)", pytrace=False)


@pytest.fixture(scope="module")
def server(built: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    s = Served(tmp_path_factory.mktemp("serve"))
    yield s
    s.stop()


# Playwright's sync API runs an event loop in the test process while it is open: it is opened for each module and
# closed after it (as tests/fourth and tests/study do), so that a test run after the browser tests can start one of
# its own (`asyncio.run`) in whatever order the tests are run (tests/conftest.py starts the browser tests first).
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}: apt-get install chromium "
                    "(scripts/test does it when run as root)", pytrace=False)
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    yield b
    b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
