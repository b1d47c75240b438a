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


# The browser tests start first: each plays whole games for up to two minutes, and started last (their place in the
# alphabet) they left one worker finishing a long game while the other idled. Each browser module runs on one worker,
# its `tabletop serve` started once rather than once per worker (`scripts/test` runs `--dist loadgroup`); the
# modules of the longest tests lead. An order, never a choice of tests: every test still runs.
FIRST = ("tests/web/test_accounts_done_browser.py", "tests/web/test_siliconvania_browser.py",
         "tests/web/test_three_clients_browser.py", "tests/web/test_story_browser.py",
         "tests/web/test_silos_browser.py", "tests/web/test_panels_browser.py")


def _rank(nodeid: str) -> int:
    path = nodeid.split("::", 1)[0]
    if path in FIRST:
        return FIRST.index(path)
    if path.startswith("tests/web/"):
        return len(FIRST)
    return len(FIRST) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: _rank(item.nodeid))  # stable: the order within each rank is kept
    for item in items:
        if _rank(item.nodeid) <= len(FIRST):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
