"""The SQLite database holds every live game's seed: a new file is created 0600 (its -wal and -shm companions
too), the default one in a 0700 folder (an older, wider folder is made private), whatever the umask."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.server.settings import default_db_url
from tabletop.server.storage import Storage, sqlite_file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    old = os.umask(0o000)  # the widest: a file made with the default mode would be 0644 or 0666
    yield
    os.umask(old)


def test_a_new_sqlite_file_and_its_companions_are_private(tmp_path: Path, open_umask: None) -> None:
    path = tmp_path / "games.db"
    storage = Storage(f"sqlite:///{path}")
    storage.migrate()
    with storage.engine.begin() as conn:  # the write-ahead log and shared memory exist while a connection is open
        conn.exec_driver_sql("CREATE TABLE probe (x INTEGER)")
        conn.exec_driver_sql("INSERT INTO probe VALUES (1)")
        files = [path, path.with_name("games.db-wal"), path.with_name("games.db-shm")]
        assert all(f.exists() for f in files)
        assert [oct(mode(f)) for f in files] == [oct(0o600)] * 3
    storage.close()


def test_an_existing_readable_file_is_warned_about_not_changed(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                                               ) -> None:
    path = tmp_path / "old.db"
    path.touch()
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="tabletop.server"):
        Storage(f"sqlite:///{path}").close()
    assert mode(path) == 0o644 and "chmod 600" in caplog.text


def test_the_default_folder_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_umask: None,
                                       caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_db_url()
    path = sqlite_file(url)
    assert path is not None and path.parent == tmp_path / "data" / "tabletop"
    assert mode(path.parent) == 0o700
    path.parent.chmod(0o755)  # as an older tabletop left it
    with caplog.at_level(logging.WARNING, logger="tabletop.server"):
        assert default_db_url() == url
    assert mode(path.parent) == 0o700 and "made private" in caplog.text
    Storage(url).close()
    assert mode(path) == 0o600


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "postgresql+psycopg://u@h/db"])
def test_urls_without_a_file(url: str) -> None:
    assert sqlite_file(url) is None
