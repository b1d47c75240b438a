"""SQLite events are committed in groups: writers that arrive during a commit share the next one, every event is
committed before its writer returns, and a conflicting event is refused alone."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tabletop.server.storage import Event, EventConflict, Storage, now

from .test_storage import SEATS, header


def _storage(tmp_path: Path, games: int) -> tuple[Storage, list[str]]:
    st = Storage(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    st.migrate()
    ids = [f"{i:032x}" for i in range(games)]
    for gid in ids:
        st.create_game(header(gid), SEATS)
    return st, ids


def test_concurrent_writers_share_commits_and_every_event_is_stored_once(tmp_path: Path) -> None:
    st, ids = _storage(tmp_path, 8)
    per_game = 25
    errors: list[BaseException] = []

    def writer(gid: str) -> None:
        try:
            for seq in range(per_game):
                st.append_event(gid, Event(seq, 0, "action", f"move {seq}", f"c{seq}", now()))
                # committed before append_event returned: a fresh read sees it
                assert [e.seq for e in st.events(gid, seq)] == [seq]
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(g,)) for g in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for gid in ids:
        assert [e.seq for e in st.events(gid)] == list(range(per_game))
    assert st.batched == 8 * per_game
    assert st.batches < st.batched  # some commits held several events (the check can fail: one commit each)


def test_a_conflicting_event_in_a_group_is_refused_alone(tmp_path: Path) -> None:
    st, (a, b) = _storage(tmp_path, 2)
    st.append_event(a, Event(0, 0, "action", "first", None, now()))
    from tabletop.server.storage import _Pending  # the group of two, as two writers would queue it

    good, bad = _Pending(b, Event(0, 0, "action", "fine", None, now()), None), \
        _Pending(a, Event(0, 1, "action", "taken seq", None, now()), None)
    with st._write_lock:
        st._commit_batch([bad, good])
    assert isinstance(bad.error, EventConflict) and good.error is None
    assert [e.text for e in st.events(a)] == ["first"] and [e.text for e in st.events(b)] == ["fine"]
    with pytest.raises(EventConflict):
        st.append_event(a, Event(0, 1, "action", "again", None, now()))
