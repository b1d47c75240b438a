"""SQLite writes are committed in groups: writers that arrive during a commit share the next one, every write is
committed before its writer returns, a conflicting one is refused alone, and a claim that fills the last seat
starts the game in the same commit."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from tabletop.server.storage import Event, EventConflict, SeatInfo, Storage, now

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
    st.batches = st.batched = 0
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
    from tabletop.server.storage import _insert_event, _Pending  # the group of two, as two writers would queue it


    good = _Pending(lambda conn: _insert_event(conn, b, Event(0, 0, "action", "fine", None, now()), None))
    bad = _Pending(lambda conn: _insert_event(conn, a, Event(0, 1, "action", "taken seq", None, now()), None))
    with st._write_lock:
        st._commit_batch([bad, good])
    assert isinstance(bad.error, IntegrityError) and good.error is None
    assert [e.text for e in st.events(a)] == ["first"] and [e.text for e in st.events(b)] == ["fine"]
    with pytest.raises(EventConflict):
        st.append_event(a, Event(0, 1, "action", "again", None, now()))


def test_writes_of_every_kind_share_a_commit_with_events(tmp_path: Path) -> None:
    """A new game and a table message queued behind a commit are committed with the events, in one group."""
    st, (a,) = _storage(tmp_path, 1)
    st.batches = st.batched = 0
    threads = [threading.Thread(target=f) for f in (
        lambda: st.append_event(a, Event(0, 0, "action", "move", None, now())),
        lambda: st.create_game(header("f" * 32), SEATS),
        lambda: st.add_message(a, "chat", 0, "ann", "hello"),
    )]
    with st._write_lock:  # a commit under way: the three writes queue for the next group
        for t in threads:
            t.start()
        while len(st._group_queue) < 3:
            threading.Event().wait(0.001)
    for t in threads:
        t.join()
    assert (st.batches, st.batched) == (1, 3)
    assert [e.text for e in st.events(a)] == ["move"]
    assert st.game("f" * 32) is not None and [m.text for m in st.messages(a)] == ["hello"]


def test_a_claim_that_fills_the_last_seat_starts_the_game_in_its_commit(tmp_path: Path) -> None:
    st = Storage(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    st.migrate()
    gid = "e" * 32
    waiting = [SeatInfo(i, "human", "invite", None, None, f"inv{i}", f"p{i}") for i in range(3)]
    st.create_game(header(gid, status="waiting"), waiting)
    seats = len(waiting)
    for seat in range(seats):
        changed, started = st.seat_person(gid, seat, {"invite_hash": f"inv{seat}"}, token_hash=f"t{seat}",
                                          invite_hash=None)
        assert changed and started == (seat == seats - 1)
        assert st.game(gid)[0].status == ("playing" if started else "waiting")  # type: ignore[index]
    # the same invite again: nothing changes, nothing starts
    assert st.seat_person(gid, 0, {"invite_hash": "inv0"}, token_hash="x", invite_hash=None) == (False, False)


def _rows(st: Storage) -> list[tuple[object, ...]]:
    with st.engine.connect() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(
            "SELECT game_id, seq, seat, kind, text, client_action_id, time FROM events ORDER BY game_id, seq")]


def test_sqlites_direct_path_stores_what_sqlalchemy_stores(tmp_path: Path) -> None:
    """Events committed on the writer's own sqlite3 connection (`Storage._commit_raw`) are the rows SQLAlchemy's
    statements write, byte for byte, the game's status included; the same events read back the same."""
    t = now()
    events = [Event(0, 0, "action", '{"kind": "place"}', "c0", t), Event(1, None, "undo", "1", None, t),
              Event(2, 1, "action", "é ✓ \x00 end", "c2" * 32, t)]
    stores = []
    for direct in (False, True):
        (tmp_path / str(direct)).mkdir()
        st, (gid,) = _storage(tmp_path / str(direct), 1)
        if not direct:
            st._raw_file = None  # the SQLAlchemy path only
        for ev in events:
            st.append_event(gid, ev, "finished" if ev.seq == 2 else None)
        assert st.raw_batches == (len(events) if direct else 0)
        stores.append((_rows(st), st.events(gid), st.game(gid)[0].status))  # type: ignore[index]
        st.close()
    assert stores[0] == stores[1]
    assert stores[1][2] == "finished" and [e.text for e in stores[1][1]] == [e.text for e in events]


def test_a_conflicting_event_in_a_direct_group_is_refused_alone(tmp_path: Path) -> None:
    st, (a, b) = _storage(tmp_path, 2)
    st.append_event(a, Event(0, 0, "action", "first", None, now()))
    got: dict[str, BaseException | None] = {}
    done = threading.Semaphore(0)

    def then(name: str):  # type: ignore[no-untyped-def]
        def call(error: BaseException | None) -> None:
            got[name] = error
            done.release()
        return call

    before = st.raw_batches
    with st._write_lock:  # a commit under way: both queue for one group, whose direct commit fails as a whole
        st.append_event_soon(a, Event(0, 1, "action", "taken seq", None, now()), None, None, then("bad"))
        st.append_event_soon(b, Event(0, 0, "action", "fine", None, now()), None, None, then("good"))
    for _ in range(2):
        assert done.acquire(timeout=30)
    assert isinstance(got["bad"], EventConflict) and got["good"] is None
    assert st.raw_batches == before  # the group was rolled back, and each write run again alone
    assert [e.text for e in st.events(a)] == ["first"] and [e.text for e in st.events(b)] == ["fine"]
    st.append_event_soon(b, Event(1, 0, "action", "next", None, now()), None, None, then("next"))
    assert done.acquire(timeout=30) and got["next"] is None and st.raw_batches == before + 1
    st.close()


def test_an_in_memory_database_takes_the_sqlalchemy_path(tmp_path: Path) -> None:
    st = Storage("sqlite://")
    st.migrate()
    st.create_game(header("a" * 32), SEATS)
    st.append_event("a" * 32, Event(0, 0, "action", "move", None, now()))
    assert st.raw_batches == 0 and [e.text for e in st.events("a" * 32)] == ["move"]


def test_a_group_of_events_is_one_statement_on_the_direct_path(tmp_path: Path) -> None:
    """Events queued behind a commit under way are written by one INSERT of several rows (`_RAW_INSERTS`), each
    committed, in order, and each writer called back without an error."""
    st, ids = _storage(tmp_path, 3)
    got: list[tuple[str, BaseException | None]] = []
    done = threading.Semaphore(0)
    before = st.raw_batches

    def then(gid: str):  # type: ignore[no-untyped-def]
        def call(error: BaseException | None) -> None:
            got.append((gid, error))
            done.release()
        return call

    with st._write_lock:
        for seq in range(2):
            for gid in ids:
                st.append_event_soon(gid, Event(seq, seq, "action", f"{gid[-1]}{seq}", f"c{seq}", now()), None, None,
                                     then(gid))
    for _ in range(6):
        assert done.acquire(timeout=30)
    assert all(error is None for _, error in got) and len(got) == 6
    assert st.raw_batches == before + 1  # the six in one group
    for gid in ids:
        assert [(e.seq, e.seat, e.text, e.client_action_id) for e in st.events(gid)] == [
            (0, 0, f"{gid[-1]}0", "c0"), (1, 1, f"{gid[-1]}1", "c1")]
    st.close()
