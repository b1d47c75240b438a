"""Server tests: a fresh database per test (an SQLite file; or a fresh schema in this worker's PostgreSQL database
for the tests parametrized over `BACKENDS`), the app run in-process by FastAPI's TestClient.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tabletop
from tabletop.server import Settings, create_app

from . import pg

GAMES = tabletop.games()


BACKENDS = ["sqlite", "postgresql"]
"""Parametrize a module over both: `pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)`."""


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[pg.Cluster]:
    """The session's throwaway PostgreSQL cluster (tests/server/pg.py); fails, never skips, without PostgreSQL."""
    try:
        with pg.session_cluster() as cluster:
            yield cluster
    except pg.ClusterError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="session")
def pg_database(pg_cluster: pg.Cluster) -> str:
    """This worker's own database in the cluster: its name."""
    name = f"tabletop_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    pg_cluster.create_database(name)
    return name


@pytest.fixture
def pg_url(pg_cluster: pg.Cluster, pg_database: str) -> str:
    """This worker's PostgreSQL database, emptied for this test: its URL."""
    pg.reset_schema(pg_cluster, pg_database)
    return pg_cluster.url(pg_database)


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test's database: a fresh SQLite file, or (`indirect` parameter "postgresql") a fresh PostgreSQL schema."""
    backend = getattr(request, "param", "sqlite")
    if backend == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        return url
    assert backend == "sqlite", backend
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


Factory = Callable[..., TestClient]


@pytest.fixture
def make_client(db_url: str) -> Iterator[Factory]:
    """Start an app on this test's database (`ai_workers=0`: no AI pool; no rate limits unless given); stopped at
    the end of the test."""
    started: list[TestClient] = []

    def make(ai_workers: int = 0, **settings: Any) -> TestClient:
        # limits off unless a test sets them (every request of a TestClient comes from one address)
        settings = {"rate_per_address": 0, "rate_per_token": 0, "games_per_hour": 0, "open_games": 0,
                    "ai_seats_per_address": 0, "ai_only_games": 0, **settings}
        app = create_app(Settings(db=settings.pop("db", db_url), ai_workers=ai_workers, **settings))
        client = TestClient(app)
        client.__enter__()
        started.append(client)
        return client

    yield make
    for c in reversed(started):
        c.__exit__(None, None, None)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "players": len(seats), "seats": seats, **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def two_humans(client: TestClient, game: str) -> tuple[str, list[str]]:
    """A 2-player game of the creator (seat 0) and an invited friend (seat 1): its id and both seat tokens."""
    g = create(client, game, [{"kind": "creator"}, {"kind": "invite"}])
    code = g["invites"][0]["code"]
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": code})
    assert r.status_code == 200, r.text
    return g["id"], [g["token"], r.json()["token"]]


def state_of(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def wait_for(client: TestClient, gid: str, token: str, pred: Callable[[dict[str, Any]], bool],
             timeout: float = 60.0) -> dict[str, Any]:
    """Poll the seat's state until `pred` holds (AI moves happen in a worker)."""
    deadline = time.monotonic() + timeout
    while True:
        s = state_of(client, gid, token)
        if pred(s):
            return s
        assert time.monotonic() < deadline, f"timed out waiting; last state seq {s['seq']}, to_move {s['to_move']}"
        time.sleep(0.005)


def random_move(rng: random.Random, s: dict[str, Any]) -> str:
    legal: list[str] = s["legal"]
    return rng.choice(legal)
