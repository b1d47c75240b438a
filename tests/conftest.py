"""Session-wide set-up that must run in the process that owns the test session (the xdist controller too).

The server tests' throwaway PostgreSQL cluster (tests/server/pg.py) is chosen here, started by the first test that
needs it, and torn down when the session ends: the README's test command needs nothing else set up.
"""

from __future__ import annotations

import pytest

from server import pg


def pytest_configure(config: pytest.Config) -> None:
    pg.configure(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    pg.unconfigure(config)
