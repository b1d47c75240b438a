"""SQLite's `synchronous` is `full` unless the operator chooses `normal` (`TABLETOP_SQLITE_SYNC`); anything else is
refused with the accepted values."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import text

from tabletop.server.settings import Settings
from tabletop.server.storage import Storage


def _synchronous(st: Storage) -> int:
    with st.engine.connect() as conn:
        return int(conn.execute(text("PRAGMA synchronous")).scalar_one())


def test_every_commit_is_synced_by_default_and_at_checkpoints_when_chosen(tmp_path: Path) -> None:
    full = Storage(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    normal = Storage(f"sqlite:///{tmp_path / 'b.sqlite3'}", "normal")
    assert (_synchronous(full), _synchronous(normal)) == (2, 1)  # SQLite's FULL, NORMAL
    with full.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
    full.close()
    normal.close()


def test_an_unknown_setting_is_refused_saying_what_is_accepted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="full, normal"):
        Storage(f"sqlite:///{tmp_path / 'c.sqlite3'}", "off")
    monkeypatch.setenv("TABLETOP_SQLITE_SYNC", "off")
    with pytest.raises(ValidationError, match="'full' or 'normal'"):
        Settings()
    monkeypatch.setenv("TABLETOP_SQLITE_SYNC", "normal")
    assert Settings().sqlite_sync == "normal"
