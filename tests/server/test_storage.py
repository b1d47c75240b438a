"""The storage layer on SQLite and on PostgreSQL: round trips, the append-only log and what the database enforces."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from tabletop.server.storage import Event, EventConflict, GameHeader, SeatInfo, Storage, now

from .conftest import BACKENDS

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


@pytest.fixture
def storage(db_url: str) -> Storage:
    s = Storage(db_url)
    s.migrate()
    return s


def header(game_id: str = "ab" * 16, status: str = "playing") -> GameHeader:
    return GameHeader(game_id, "silos", "1", 2, {"crop_circles": False, "nested": [1, {"a": None}]}, 2**62 - 1,
                      "public", "Ann", "c" * 64, status, now())


SEATS = [SeatInfo(0, "human", "creator", None, "t" * 64, None, "Ann"),
         SeatInfo(1, "ai", "ai", "medium", None, None, "AI (medium)")]


def event(seq: int, caid: str | None = None, seat: int = 0) -> Event:
    return Event(seq, seat, "action", f"move {seq}", caid, now())


def test_games_and_seats_round_trip(storage: Storage) -> None:
    h = header()
    storage.create_game(h, SEATS)
    got = storage.game(h.id)
    assert got is not None
    gh, seats = got
    assert replace(gh, created=h.created) == h and gh.created == h.created
    assert seats == SEATS
    storage.update_seat(h.id, 0, token_hash=None, invite_hash="i" * 64)
    storage.set_status(h.id, "over")
    got = storage.game(h.id)
    assert got is not None and got[0].status == "over" and got[1][0].invite_hash == "i" * 64
    assert storage.game("cd" * 16) is None


def test_migrating_twice_changes_nothing(storage: Storage, db_url: str) -> None:
    storage.create_game(header(), SEATS)
    again = Storage(db_url)
    again.migrate()
    assert again.game(header().id) is not None


def test_the_log_keeps_order_and_refuses_a_second_event_at_a_seq(storage: Storage) -> None:
    h = header()
    storage.create_game(h, SEATS)
    for k in range(5):
        storage.append_event(h.id, event(k, f"c{k}"))
    with pytest.raises(EventConflict):
        storage.append_event(h.id, event(3))
    with pytest.raises(EventConflict):  # the same client action id of the same seat
        storage.append_event(h.id, event(5, "c1"))
    storage.append_event(h.id, event(5, "c1", seat=1), status="over")  # another seat may reuse it
    evs = storage.events(h.id)
    assert [e.seq for e in evs] == list(range(6)) and evs[3].text == "move 3" and evs[3].client_action_id == "c3"
    got = storage.game(h.id)
    assert got is not None and got[0].status == "over"


def test_a_failed_append_leaves_no_trace(storage: Storage) -> None:
    h = header()
    storage.create_game(h, SEATS)
    storage.append_event(h.id, event(0))
    with pytest.raises(EventConflict):
        storage.append_event(h.id, event(0), status="over")  # the status change rolls back with it
    got = storage.game(h.id)
    assert got is not None and got[0].status == "playing" and len(storage.events(h.id)) == 1


def test_concurrent_writers_of_one_seq_one_wins(storage: Storage) -> None:
    h = header()
    storage.create_game(h, SEATS)
    barrier = threading.Barrier(8)
    won: list[int] = []
    lost: list[int] = []

    def write(i: int) -> None:
        barrier.wait()
        try:
            storage.append_event(h.id, Event(0, 0, "action", f"writer {i}", None, now()))
            won.append(i)
        except EventConflict:
            lost.append(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(lost) == 7
    assert [e.text for e in storage.events(h.id)] == [f"writer {won[0]}"]


def test_listing_and_ids_by_status(storage: Storage) -> None:
    storage.create_game(header("01" * 16, "waiting"), SEATS)
    storage.create_game(header("02" * 16, "playing"), SEATS)
    storage.create_game(replace(header("03" * 16, "playing"), visibility="private"), SEATS)
    storage.create_game(header("04" * 16, "over"), SEATS)
    assert sorted(storage.game_ids("playing")) == ["02" * 16, "03" * 16]
    listed = {h.id for h, _ in storage.list_games(("waiting", "playing"), 10)}
    assert listed == {"01" * 16, "02" * 16}


def test_a_missing_postgresql_tool_is_named_with_what_to_install(db_url: str) -> None:
    from . import pg

    with pytest.raises(pg.ClusterError, match="apt-get install postgresql"):
        pg._tool("initdb-that-is-not-there")
