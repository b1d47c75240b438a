"""The only code that speaks SQL: games, seats and the append-only event log, behind one small class.

Rows are returned as frozen dataclasses, so nothing outside holds a session. Every write is its own
transaction, committed before the method returns: the caller tells clients only after that.
"""

from __future__ import annotations

import logging
import os
import queue
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, func, insert, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from tabletop.server.models import ClockRow, EventRow, GameRow, MessageRow, SeatRow

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True)
class Message:
    """A line at the table: `chat` from a seat, or a `notice` from the server (seat None)."""

    index: int
    kind: str
    seat: int | None
    name: str
    text: str
    time: datetime

    def public(self) -> dict[str, Any]:
        """As sent to clients."""
        return {"index": self.index, "kind": self.kind, "seat": self.seat, "name": self.name, "text": self.text,
                "time": self.time.isoformat()}


@dataclass(frozen=True)
class Clock:
    """A game's move clock: seconds per move; the decision owed at event `seq` is due at `deadline`."""

    game_id: str
    move_seconds: int
    seq: int | None
    deadline: datetime | None


class EventConflict(Exception):
    """Another writer already stored an event with this sequence number (or this client action id)."""


@dataclass(frozen=True)
class GameHeader:
    """A game's header as stored."""

    id: str
    game: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seed: int
    visibility: str
    creator_name: str
    creator_hash: str
    status: str
    created: datetime
    creator_address: str | None = None
    """A truncated SHA-256 of the address it was created from (None for games created before it was kept)."""


@dataclass(frozen=True)
class CreationCounts:
    """What the creation limits look at, for one address (`creator_address`) and in total."""

    recent: int
    """Games created from the address since the window's start."""
    oldest_recent: datetime | None
    open: int
    """Games created from the address that wait for players."""
    oldest_open: datetime | None
    waiting: int
    """Games waiting for players, in total."""
    ai_seats_mine: int
    """AI seats of the games created from the address that are waiting or in play."""
    ai_seats: int
    """AI seats of the games waiting or in play, in total."""
    ai_only: int
    """Games in play without a person's seat, in total."""


@dataclass(frozen=True)
class SeatInfo:
    """A seat as stored."""

    seat: int
    kind: str
    mode: str
    ai_label: str | None
    token_hash: str | None
    invite_hash: str | None
    name: str
    account_id: str | None = None
    """The account the seat is bound to (issue 23); None: a guest's seat (its token only) or an AI's."""


@dataclass(frozen=True)
class Event:
    """One stored event."""

    seq: int
    seat: int | None
    kind: str
    text: str
    client_action_id: str | None
    time: datetime


def now() -> datetime:
    """The current time, UTC."""
    return datetime.now(UTC)


def _aware(t: datetime) -> datetime:
    """Times are stored in UTC; SQLite hands them back without their zone, PostgreSQL with it."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _header(r: GameRow) -> GameHeader:
    return GameHeader(r.id, r.game, r.rules_version, r.players, dict(r.options), r.seed, r.visibility,
                      r.creator_name, r.creator_hash, r.status, _aware(r.created), r.creator_address)


def _seat(r: SeatRow) -> SeatInfo:
    return SeatInfo(r.seat, r.kind, r.mode, r.ai_label, r.token_hash, r.invite_hash, r.name, r.account_id)


def _event(r: EventRow) -> Event:
    return Event(r.seq, r.seat, r.kind, r.text, r.client_action_id, _aware(r.time))


_INSERT_EVENT = insert(EventRow.__table__)  # type: ignore[arg-type]
_RAW_INSERT = ("INSERT INTO events (game_id, seq, seat, kind, text, client_action_id, time) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)")
_RAW_STATUS = "UPDATE games SET status = ? WHERE games.id = ?"
"""SQLite's direct path for a group of events (`Storage._commit_raw`): the statements `_insert_event` has
SQLAlchemy compile, written once."""
_RAW_GROUP = 64
"""The most events `_commit_raw` writes in one statement (7 parameters each, below SQLite's oldest limit of 999)."""
_RAW_INSERTS = ["", *(_RAW_INSERT + ", (?, ?, ?, ?, ?, ?, ?)" * (k - 1) for k in range(1, _RAW_GROUP + 1))]
"""`_RAW_INSERT` for k events at once, at index k."""
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def _insert_event(conn: Connection, game_id: str, ev: Event, status: str | None) -> None:
    conn.execute(_INSERT_EVENT, {"game_id": game_id, "seq": ev.seq, "seat": ev.seat, "kind": ev.kind,
                                 "text": ev.text, "client_action_id": ev.client_action_id, "time": ev.time})
    if status is not None:
        conn.execute(update(GameRow).where(GameRow.id == game_id).values(status=status))


@dataclass
class _Pending:
    """A write waiting for a group commit: `op` runs inside the group's transaction; its result or its error."""

    op: Callable[[Connection], Any]
    result: Any = None
    done: bool = False
    """Committed (or failed): set and read under the storage's write lock."""
    error: BaseException | None = None
    then: Callable[[_Pending], None] | None = None
    """Called once the write is committed (or failed), on the thread that committed it (`Storage.write_soon`)."""
    row: tuple[tuple[Any, ...], str | None] | None = None
    """The same write as plain parameters, for SQLite's direct path (`Storage._commit_raw`): an event's row of
    `_RAW_INSERT` and the game's new status (or None). None: the write is only `op`."""


log = logging.getLogger("tabletop.server")


def sqlite_file(url: str) -> Path | None:
    """The file of an `sqlite:///` URL; None for an in-memory database or another dialect."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    if u.database.startswith("file:") or u.query.get("mode") == "memory":
        return None  # a URI filename: SQLite's to interpret
    return Path(u.database)


def private_sqlite_file(path: Path) -> None:
    """Create the database file `path` readable by its owner only (0600) before SQLite opens it: it holds every
    live game's seed. SQLite gives its `-wal` and `-shm` companions the database file's mode; companions already
    there are brought down to it. A file that was already there with wider permissions is left as it is, with a
    warning in the log."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("the database file %s is readable by others (mode %o) and holds every live game's seed: "
                        "chmod 600 it", path, mode)
    except OSError:
        return  # SQLite says why it cannot open it
    else:
        os.close(fd)
        os.chmod(path, 0o600)  # whatever the umask
    mode = stat.S_IMODE(path.stat().st_mode)
    for suffix in ("-wal", "-shm", "-journal"):
        companion = path.with_name(path.name + suffix)
        if companion.exists() and stat.S_IMODE(companion.stat().st_mode) & ~mode:
            os.chmod(companion, mode)


SQLITE_SYNC = ("full", "normal")
"""SQLite's `synchronous` settings a server may run with (`TABLETOP_SQLITE_SYNC`)."""


def sqlite_pragmas(dbapi_conn: Any, sqlite_sync: str) -> None:
    """WAL, foreign keys and `PRAGMA synchronous=<sqlite_sync>` on a new SQLite connection (`make_engine`'s, and
    the writer's own of `Storage._commit_raw`)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")
    cur.close()


def make_engine(url: str, sqlite_sync: str = "full") -> Engine:
    """An engine for `url`; SQLite gets WAL, foreign keys, a busy timeout and `PRAGMA synchronous=<sqlite_sync>`
    (`full`: every commit synced to disk before it returns; `normal`: synced at checkpoints, so a commit survives
    the server's crash or SIGKILL but not the machine's power loss), and a new file is made private."""
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}, not {sqlite_sync[:20]!r}")
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:
            private_sqlite_file(path)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            sqlite_pragmas(dbapi_conn, sqlite_sync)

        return engine
    return create_engine(url, pool_pre_ping=True)


class Storage:
    """Games, seats and events in one SQL database (SQLite or PostgreSQL)."""

    def __init__(self, url: str, sqlite_sync: str = "full") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_sync)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock: AbstractContextManager[object] = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else nullcontext())
        """SQLite has one writer at a time: this process's writers queue here instead of in SQLite's busy handler
        (which sleeps in steps of up to 100 ms). WAL lets reads go on meanwhile; PostgreSQL needs no lock."""
        sqlite = self.engine.dialect.name == "sqlite"
        self._group = sqlite  # group commit of events (PostgreSQL groups concurrent commits by itself)
        self._group_mu = threading.Lock()
        self._group_queue: list[_Pending] = []
        self.batches = 0
        """Event commits made, and events they held (a figure for the load test: events per sync of the log)."""
        self.batched = 0
        self._writer: threading.Thread | None = None
        self._writer_wake: queue.SimpleQueue[None] = queue.SimpleQueue()
        """A token per wake-up of the writer thread (C's queue: cheaper than `threading.Event`'s Python-level
        condition on every move)."""
        self._closing = False
        self._sqlite_sync = sqlite_sync
        self._raw_file = sqlite_file(url) if sqlite else None
        """The SQLite file of `_commit_raw`'s own connection (None: an in-memory database, or PostgreSQL)."""
        self._raw: sqlite3.Connection | None = None
        self._time_text: Callable[[Any], Any] | None = (
            EventRow.__table__.c.time.type.dialect_impl(self.engine.dialect).bind_processor(self.engine.dialect)
            if sqlite else None)
        """SQLAlchemy's own conversion of an event's time to its SQLite text: the direct path stores the same."""
        self.raw_batches = 0
        """Groups committed by `_commit_raw` (of `batches`)."""

    @property
    def writes_soon(self) -> bool:
        """Whether `write_soon` is available: on SQLite, whose writes go through the group commit."""
        return self._group and not self._closing

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision shipped in the package."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        """Stop the writer thread (after the writes queued so far) and release the connection pool."""
        with self._group_mu:
            self._closing = True
        writer = self._writer
        if writer is not None:
            self._writer_wake.put(None)
            writer.join(timeout=30)
        with self._write_lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = None
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as s, s.begin():
            yield s

    def _write(self, op: Callable[[Connection], Any], row: tuple[tuple[Any, ...], str | None] | None = None) -> Any:
        """Run `op` in a write transaction, committed before this returns: its result (or its exception).

        On SQLite every write goes through one group commit: writes that arrive while another commit is under
        way are committed together with one sync of the log, instead of queueing for one sync each behind this
        process's write lock (SQLite has one writer at a time). If the group's transaction fails, each write is
        run again alone, so that only the failing one sees its error. PostgreSQL groups concurrent commits by
        itself: each write is its own transaction. `row`: the same write as an event's row (`_Pending.row`)."""
        if not self._group:
            with self.engine.begin() as conn:
                return op(conn)
        mine = _Pending(op, row=row)
        with self._group_mu:
            self._group_queue.append(mine)
        with self._write_lock:  # whoever holds the lock commits everything queued by then, its own included
            if not mine.done:
                with self._group_mu:
                    batch, self._group_queue = self._group_queue, []
                self._commit_batch(batch)
        if mine.error is not None:
            raise mine.error
        return mine.result

    def write_soon(self, op: Callable[[Connection], Any], then: Callable[[_Pending], None],
                   row: tuple[tuple[Any, ...], str | None] | None = None) -> None:
        """Queue `op` for the group commit without waiting for it (SQLite only, `writes_soon`): a writer thread of
        this storage commits it with whatever else is queued, then calls `then(pending)` on that thread (its
        `result` or `error` set). For a caller that must not block, the event loop: one thread commits for every
        game, and a move costs no hop to a worker thread of its own. `row`: the same write as an event's row
        (`_Pending.row`), for SQLite's direct path."""
        mine = _Pending(op, then=then, row=row)
        with self._group_mu:  # the writer thread checks for closing under the same lock: nothing queued is lost
            if not self.writes_soon:
                raise RuntimeError("write_soon needs SQLite's group commit, and a storage not closed")
            self._group_queue.append(mine)
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_queued, name="storage-writer", daemon=True)
                self._writer.start()
        self._writer_wake.put(None)

    def _write_queued(self) -> None:
        """The writer thread of `write_soon`: commits what is queued (with the writes of blocked callers queued
        meanwhile), one group at a time, until the storage closes and the queue is empty."""
        while True:
            wake = self._writer_wake
            wake.get()
            while not wake.empty():  # before taking the batch: a write queued after this wakes the thread again
                wake.get()
            with self._write_lock:
                with self._group_mu:
                    batch, self._group_queue = self._group_queue, []
                if batch:
                    self._commit_batch(batch)
            if self._closing:
                with self._group_mu:
                    if not self._group_queue:
                        return

    # ---- games and seats ------------------------------------------------------------------------------
    def create_game(self, header: GameHeader, seats: list[SeatInfo]) -> None:
        """Store a new game with its seats."""
        game = {"id": header.id, "game": header.game, "rules_version": header.rules_version,
                "players": header.players, "options": header.options, "seed": header.seed,
                "visibility": header.visibility, "creator_name": header.creator_name,
                "creator_hash": header.creator_hash, "status": header.status, "created": header.created,
                "creator_address": header.creator_address}
        rows = [{"game_id": header.id, "seat": seat.seat, "kind": seat.kind, "mode": seat.mode,
                 "ai_label": seat.ai_label, "token_hash": seat.token_hash, "invite_hash": seat.invite_hash,
                 "name": seat.name, "account_id": seat.account_id} for seat in seats]

        def op(conn: Connection) -> None:
            conn.execute(insert(GameRow.__table__), game)  # type: ignore[arg-type]
            if rows:
                conn.execute(insert(SeatRow.__table__), rows)  # type: ignore[arg-type]

        self._write(op)

    def game(self, game_id: str) -> tuple[GameHeader, list[SeatInfo]] | None:
        """A game's header and seats, or None."""
        with self._session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
            return _header(row), [_seat(r) for r in seats]

    def update_seat(self, game_id: str, seat: int, expect: dict[str, Any] | None = None, **fields: Any) -> bool:
        """Change a seat's mode, token hash, invite hash or name, provided its columns hold what `expect` says
        (so that two server processes cannot both claim one seat): whether it changed."""
        return self.seat_person(game_id, seat, expect, start=False, **fields)[0]

    def seat_person(self, game_id: str, seat: int, expect: dict[str, Any] | None = None, start: bool = True,
                    **fields: Any) -> tuple[bool, bool]:
        """`update_seat`, and in the same transaction, if the seat changed and no person's seat is left empty,
        the game's status from waiting to playing: (whether the seat changed, whether this write started the
        game). One commit for a claim, and one process (the one whose write started it) starts the game."""
        cond = [SeatRow.game_id == game_id, SeatRow.seat == seat]
        for name, value in (expect or {}).items():
            col = getattr(SeatRow, name)
            cond.append(col.is_(None) if value is None else col == value)
        change = update(SeatRow).where(*cond).values(**fields)
        empty_seats = select(func.count()).select_from(SeatRow).where(
            SeatRow.game_id == game_id, SeatRow.kind != "ai", SeatRow.token_hash.is_(None))
        begin = update(GameRow).where(GameRow.id == game_id, GameRow.status == "waiting").values(status="playing")

        def op(conn: Connection) -> tuple[bool, bool]:
            if getattr(conn.execute(change), "rowcount", 0) != 1:
                return False, False
            if not start or conn.scalar(empty_seats):
                return True, False
            return True, getattr(conn.execute(begin), "rowcount", 0) == 1

        changed, started = self._write(op)
        return bool(changed), bool(started)

    def set_status(self, game_id: str, status: str, expect: str | None = None) -> None:
        """Change a game's status (waiting, playing, over); only from `expect` if given."""
        cond = [GameRow.id == game_id] + ([GameRow.status == expect] if expect is not None else [])
        self._write(lambda conn: conn.execute(update(GameRow).where(*cond).values(status=status)))

    def list_games(self, statuses: tuple[str, ...], limit: int, keep: Callable[[GameHeader], bool] | None = None
                   ) -> list[tuple[GameHeader, list[SeatInfo]]]:
        """Public games in the given statuses, newest first: the first `limit` that `keep` accepts (all if None)."""
        with self._session() as s:
            query = (select(GameRow).where(GameRow.visibility == "public", GameRow.status.in_(statuses))
                     .order_by(GameRow.created.desc()))
            if keep is None:
                query = query.limit(limit)
            out = []
            for row in s.scalars(query.execution_options(yield_per=200)):
                header = _header(row)
                if keep is not None and not keep(header):
                    continue
                seats = s.scalars(select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat)).all()
                out.append((header, [_seat(r) for r in seats]))
                if len(out) >= limit:
                    break
            return out

    def creation_counts(self, address: str, since: datetime) -> CreationCounts:
        """The figures the creation limits check for `address` (its stored form), `since` the hour's start."""
        unfinished = GameRow.status.in_(("waiting", "playing"))
        mine = GameRow.creator_address == address
        ai_seats = (select(func.count()).select_from(SeatRow).join(GameRow, GameRow.id == SeatRow.game_id)
                    .where(SeatRow.kind == "ai", SeatRow.mode.notin_(("left", "conceded")),  # leavers' AI: not counted
                           unfinished))
        human = select(SeatRow.game_id).where(SeatRow.game_id == GameRow.id, (SeatRow.kind == "human")
                                              | SeatRow.mode.in_(("left", "conceded"))).exists()
        with self._session() as s:
            recent, oldest_recent = s.execute(select(func.count(), func.min(GameRow.created))
                                              .where(mine, GameRow.created >= since)).one()
            open_, oldest_open = s.execute(select(func.count(), func.min(GameRow.created))
                                           .where(mine, GameRow.status == "waiting")).one()
            waiting = s.scalar(select(func.count()).select_from(GameRow).where(GameRow.status == "waiting"))
            seats_mine = s.scalar(ai_seats.where(mine))
            seats_all = s.scalar(ai_seats)
            ai_only = s.scalar(select(func.count()).select_from(GameRow)
                               .where(GameRow.status == "playing", ~human))
        return CreationCounts(int(recent or 0), None if oldest_recent is None else _aware(oldest_recent),
                              int(open_ or 0), None if oldest_open is None else _aware(oldest_open),
                              int(waiting or 0), int(seats_mine or 0), int(seats_all or 0), int(ai_only or 0))

    def expire_waiting(self, before: datetime) -> list[str]:
        """Games still waiting for players that were created before `before` become `expired`: their ids."""
        with self._session() as s:
            ids = list(s.scalars(select(GameRow.id).where(GameRow.status == "waiting", GameRow.created < before)))
        if not ids:
            return []
        self._write(lambda conn: conn.execute(update(GameRow).where(GameRow.id.in_(ids), GameRow.status == "waiting")
                                              .values(status="expired")))
        return ids

    def game_ids(self, status: str) -> list[str]:
        """Ids of every game in `status`."""
        with self._session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status == status)).all())

    # ---- events ------------------------------------------------------------------------------------------
    def events(self, game_id: str, start: int = 0) -> list[Event]:
        """A game's events in sequence order, from `seq` = `start` on."""
        with self._session() as s:
            rows = s.scalars(select(EventRow).where(EventRow.game_id == game_id, EventRow.seq >= start)
                             .order_by(EventRow.seq)).all()
            return [_event(r) for r in rows]

    def append_event(self, game_id: str, ev: Event, status: str | None = None,
                     notice: tuple[str, str] | None = None, also: Callable[[Connection], None] | None = None
                     ) -> None:
        """Commit one event (and the game's new status, if it changed), or EventConflict if `seq` is taken. The
        hot path of every move: Core statements on a plain connection (no ORM unit of work), group-committed on
        SQLite (see `_write`); each event is committed before this returns. `notice` (PostgreSQL): a
        `pg_notify(channel, payload)` sent in the same transaction, so other server processes hear of the event
        when it commits, without a round trip of its own. `also`: more writes in the same transaction (a final
        event's results and ratings), stored if and only if the event is."""
        row = self._event_row(game_id, ev, status) if also is None else None  # `notice` is PostgreSQL's
        try:
            self._write(self._event_op(game_id, ev, status, notice, also), row)
        except IntegrityError as e:
            raise EventConflict(f"event {ev.seq} of game {game_id} already exists") from e

    def append_event_soon(self, game_id: str, ev: Event, status: str | None,
                          also: Callable[[Connection], None] | None,
                          then: Callable[[BaseException | None], None]) -> None:
        """`append_event` without waiting (SQLite, `write_soon`): `then(error)` is called on the writer thread once
        the event is committed (error None) or refused (an EventConflict if `seq` is taken, else the error)."""
        def done(p: _Pending) -> None:
            e = p.error
            if isinstance(e, IntegrityError):
                e = EventConflict(f"event {ev.seq} of game {game_id} already exists")
            then(e)

        self.write_soon(self._event_op(game_id, ev, status, None, also), done,
                        self._event_row(game_id, ev, status) if also is None else None)

    def _event_row(self, game_id: str, ev: Event, status: str | None) -> tuple[tuple[Any, ...], str | None] | None:
        """An event's parameters for `_commit_raw` (None where it does not apply: PostgreSQL, an in-memory SQLite)."""
        if self._raw_file is None or self._time_text is None:
            return None
        return (game_id, ev.seq, ev.seat, ev.kind, ev.text, ev.client_action_id, self._time_text(ev.time)), status

    def _event_op(self, game_id: str, ev: Event, status: str | None, notice: tuple[str, str] | None,
                  also: Callable[[Connection], None] | None) -> Callable[[Connection], None]:
        def op(conn: Connection) -> None:
            _insert_event(conn, game_id, ev, status)
            if also is not None:
                also(conn)
            if notice is not None and not self._group:
                conn.execute(_NOTIFY, {"channel": notice[0], "payload": notice[1]})

        return op

    def _commit_batch(self, batch: list[_Pending]) -> None:
        """Commit `batch` in one transaction (the caller holds the write lock). If it fails, each write is run
        again alone, so that only the failing one gets its error."""
        try:
            if self._raw_file is not None and all(p.row is not None for p in batch):
                results: list[Any] = self._commit_raw(batch)
            else:
                with self.engine.begin() as conn:
                    results = [p.op(conn) for p in batch]
        except Exception:
            for p in batch:
                try:
                    with self.engine.begin() as conn:
                        p.result = p.op(conn)
                except Exception as e:
                    p.error = e
        else:
            for p, r in zip(batch, results, strict=True):
                p.result = r
        self.batches += 1
        self.batched += len(batch)
        for p in batch:
            p.done = True
            if p.then is not None:
                try:
                    p.then(p)
                except Exception:  # a caller's hand-back must not stop the commits of the others
                    log.exception("a committed write's callback failed")

    def _commit_raw(self, batch: list[_Pending]) -> list[Any]:
        """Commit a group of events (every write of `batch` has its `row`) on the writer's own sqlite3
        connection, without SQLAlchemy: the same rows `_insert_event` writes, in one transaction (measured alone, one
        event a commit: 350-397 µs of CPU through SQLAlchemy, 203-242 this way; docs/performance.md). Any error
        rolls the group back and raises, and `_commit_batch` runs each write again alone through SQLAlchemy, which
        gives each its own error. The caller holds the write lock."""
        raw = self._raw
        if raw is None:
            assert self._raw_file is not None
            raw = sqlite3.connect(self._raw_file, timeout=30, isolation_level=None, check_same_thread=False)
            sqlite_pragmas(raw, self._sqlite_sync)
            self._raw = raw
        rows = [p.row for p in batch if p.row is not None]
        if len(rows) <= _RAW_GROUP and all(r[1] is None for r in rows):
            # one statement, its own transaction: the common case costs one call into SQLite (each call lets go of
            # Python's lock and takes it again, behind the busy event loop)
            raw.execute(_RAW_INSERTS[len(rows)], [x for r in rows for x in r[0]])
            self.raw_batches += 1
            return [None] * len(batch)
        try:
            raw.execute("BEGIN IMMEDIATE")
            raw.executemany(_RAW_INSERT, [r[0] for r in rows])
            for r in rows:
                if r[1] is not None:
                    raw.execute(_RAW_STATUS, (r[1], r[0][0]))
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        self.raw_batches += 1
        return [None] * len(batch)

    # ---- table messages (chat, notices) ---------------------------------------------------------------------
    def add_message(self, game_id: str, kind: str, seat: int | None, name: str, text: str,
                    limit: int | None = None) -> Message | None:
        """Append a message with the game's next index (retried if another writer took it); None if the game
        already holds `limit` messages."""
        def op(conn: Connection) -> Message | None:
            count = conn.scalar(select(func.count()).select_from(MessageRow).where(MessageRow.game_id == game_id))
            idx = int(count or 0)
            if limit is not None and idx >= limit:
                return None
            t = now()
            conn.execute(insert(MessageRow.__table__), {"game_id": game_id, "idx": idx, "kind": kind,  # type: ignore[arg-type]
                                                        "seat": seat, "name": name, "text": text, "time": t})
            return Message(idx, kind, seat, name, text, t)

        for _ in range(20):
            try:
                got: Message | None = self._write(op)
                return got
            except IntegrityError:
                continue
        raise EventConflict(f"could not store a message in game {game_id}: too many concurrent writers")

    def messages(self, game_id: str, start: int = 0, limit: int = 500) -> list[Message]:
        """A game's messages from index `start` on (at most `limit`)."""
        with self._session() as s:
            rows = s.scalars(select(MessageRow).where(MessageRow.game_id == game_id, MessageRow.idx >= start)
                             .order_by(MessageRow.idx).limit(limit)).all()
            return [Message(r.idx, r.kind, r.seat, r.name, r.text, _aware(r.time)) for r in rows]

    # ---- clocks --------------------------------------------------------------------------------------------
    def set_clock(self, game_id: str, move_seconds: int) -> None:
        """Give a game a move clock of `move_seconds`."""
        self._write(lambda conn: conn.execute(insert(ClockRow.__table__), {  # type: ignore[arg-type]
            "game_id": game_id, "move_seconds": move_seconds, "seq": None, "deadline": None}))

    def clock(self, game_id: str) -> Clock | None:
        """A game's clock, or None."""
        with self._session() as s:
            r = s.get(ClockRow, game_id)
            return None if r is None else _clock(r)

    def running_clocks(self) -> list[Clock]:
        """The clocks of every game in play."""
        with self._session() as s:
            rows = s.scalars(select(ClockRow).join(GameRow, GameRow.id == ClockRow.game_id)
                             .where(GameRow.status == "playing")).all()
            return [_clock(r) for r in rows]

    def set_deadline(self, game_id: str, seq: int, deadline: datetime) -> None:
        """Store the deadline of the decision owed at event `seq`."""
        self._write(lambda conn: conn.execute(update(ClockRow).where(ClockRow.game_id == game_id)
                                              .values(seq=seq, deadline=deadline)))


def _clock(r: ClockRow) -> Clock:
    return Clock(r.game_id, r.move_seconds, r.seq, None if r.deadline is None else _aware(r.deadline))
