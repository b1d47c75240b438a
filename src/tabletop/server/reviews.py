"""Post-game reviews on the server (issue 24): a finished game's player asks for the review of their own decisions
(`tabletop.agents.review`); the hint workers compute it in the background; it is stored once (`reviews` table) and
served from the database afterwards.

- **Who, when**: only a player of the game (its seat token, or the signed-in account holding the seat), only once the
  game is over (a live game is refused: its record would reveal every hand), only the caller's own seat.
- **Where**: on the hint lane (`Table.hint_pool`, the same worker processes and the same priority queue as hints),
  in batches of `review_batch` decisions at the lane's lowest priority (`PRIORITY`), and only one batch of a review
  queued at a time: a hint asked meanwhile waits behind at most one batch. AI moves have their own lane and the move
  clock its own thread, so a review never delays a live game's AI or its clock.
- **Caps**: each player (a seat, or an account across its games) has at most one review in flight; the server at most
  `reviews_running` (more are refused as busy, 503, with a retry hint).
- **Budget**: `review_seconds` of search per decision (default 0.2 s), or `review_iters` iterations (reproducible:
  the review then equals `tabletop.agents.review.review(record, seat, None, review_iters, seed=0)`).
- **Progress**: `GET /api/games/{id}/review` (polling): `none`, `running` with decisions `done` of `total`, `done`
  with the review, or `failed` with why (asking again retries).

What the search sees is the review core's guarantee: each decision is searched from a `SeatHandle` of the position
then (the seat's view and log at that step), never from the revealed hands.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from tabletop.agents.review import Decision, Review, _mark, positions, review_positions
from tabletop.core import game_info
from tabletop.core.record import replay
from tabletop.server.accounts import AccountKey
from tabletop.server.ai import Lane
from tabletop.server.errors import Conflict, Full, Unauthorized
from tabletop.server.models import ReviewRow
from tabletop.server.service import GameService
from tabletop.server.settings import Settings
from tabletop.server.storage import now

log = logging.getLogger("tabletop.server")

PRIORITY = 5
"""A review batch's priority on the hint lane: after every hint (0)."""


def review_batch(record: dict[str, Any], seat: int, steps: list[int], seconds: float | None, iters: int | None,
                 seed: int = 0) -> list[dict[str, Any]]:
    """In a worker process: the decisions of `seat` at `steps` of the finished game `record` (unmarked), each
    searched from the seat's own view at that step (`review_positions`)."""
    wanted = set(steps)
    info = game_info(record["game"])
    chosen = [p for p in positions(record, seat) if p[0] in wanted]
    out = review_positions(record["game"], seat, chosen, seconds, iters, seed,
                           score_label=info.score_label, cooperative=info.cooperative)
    return [asdict(d) for d in out.decisions]


def decision_steps(record: dict[str, Any], seat: int) -> list[int]:
    """The steps of the record at which `seat` decided."""
    state = replay(record, upto=0)
    out = []
    for step, text in enumerate(record["actions"]):
        if state.to_move == seat:
            out.append(step)
        state.apply(text)
    return out


@dataclass
class _Job:
    game_id: str
    seat: int
    player: str
    record: dict[str, Any]
    steps: list[int]
    decisions: list[dict[str, Any]] = field(default_factory=list)
    next: int = 0


class Reviews:
    """The reviews of a server: started by players, computed on the hint lane, stored in `reviews`."""

    def __init__(self, service: GameService, settings: Settings, lane: Lane | None) -> None:
        self.service = service
        self.storage = service.storage
        self.settings = settings
        self.lane = lane
        self.seconds: float | None = None if settings.review_iters > 0 else settings.review_seconds
        self.iters: int | None = settings.review_iters if settings.review_iters > 0 else None
        self.batch = max(1, settings.review_batch)
        self._lock = threading.Lock()
        self._jobs: dict[tuple[str, int], _Job] = {}
        self._players: dict[str, tuple[str, int]] = {}
        self._failed: dict[tuple[str, int], str] = {}
        self._closed = False
        self.computed = 0
        """Reviews computed (and stored) by this process."""
        self.batches = 0
        """Review batches handed to the hint lane by this process."""

    def close(self) -> None:
        """Submit no more batches (the lane itself is closed with the table)."""
        self._closed = True

    # ---- the routes' entry points --------------------------------------------------------------------------
    def request(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Start the review of the caller's seat (or answer the stored one, or the one in flight)."""
        seat = self._player_seat(game_id, token)
        assert token is not None
        stored = self.stored(game_id, seat)
        if stored is not None:
            return stored
        key = (game_id, seat)
        player = token if isinstance(token, AccountKey) else f"seat:{game_id}/{seat}"
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                return self._progress(job)
            other = self._players.get(player)
            if other is not None:
                raise Conflict(f"you have a review in progress already (game {other[0]}); one at a time: ask "
                               "again once it is done")
            if self.lane is None:
                raise Full("reviews are computed by the hint workers, which are turned off on this server", 3600)
            if len(self._jobs) >= max(1, self.settings.reviews_running):
                raise Full("the server is reviewing as many games as it takes at once; try again in a minute", 30)
            record = self.service.record(game_id)
            job = _Job(game_id, seat, player, record, decision_steps(record, seat))
            self._jobs[key] = job
            self._players[player] = key
            self._failed.pop(key, None)
        if not job.steps:  # never decided: an empty review, stored at once
            self._finish(job)
            done = self.stored(game_id, seat)
            assert done is not None
            return done
        self._submit(job)
        with self._lock:
            return self._progress(job) if key in self._jobs else {"status": "running", "done": 0,
                                                                   "total": len(job.steps)}

    def status(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The caller's review: stored (`done`), in flight (`running`), `failed`, or `none` asked yet."""
        seat = self._player_seat(game_id, token)
        stored = self.stored(game_id, seat)
        if stored is not None:
            return stored
        key = (game_id, seat)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                return self._progress(job)
            failed = self._failed.get(key)
        base = {"game_id": game_id, "seat": seat}
        if failed is not None:
            return {**base, "status": "failed", "detail": failed}
        return {**base, "status": "none"}

    def stored(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review of `seat` in `game_id`, as answered to its player, or None."""
        with self.storage.engine.connect() as conn:
            row = conn.execute(select(ReviewRow.review, ReviewRow.seconds)
                               .where(ReviewRow.game_id == game_id, ReviewRow.seat == seat)).first()
        if row is None:
            return None
        return {"game_id": game_id, "seat": seat, "status": "done", "seconds": row.seconds, "review": row.review}

    # ---- internals -------------------------------------------------------------------------------------------
    def _player_seat(self, game_id: str, token: str | None) -> int:
        if token is None:
            raise Unauthorized("a review is for a player of the game, of their own decisions (Authorization: Bearer "
                               "<seat token>, or signed in with the account that held the seat)")
        seat = self.service.seat_of(game_id, token)  # Unauthorized for a token of no seat here, NotFound
        assert seat is not None
        if self.service.info(game_id)["status"] != "over":
            raise Conflict("a review is for a finished game: this one is not over (its record would reveal every "
                           "hand)")
        return seat

    def _progress(self, job: _Job) -> dict[str, Any]:
        return {"game_id": job.game_id, "seat": job.seat, "status": "running", "done": len(job.decisions),
                "total": len(job.steps), "seconds": self.seconds}

    def _submit(self, job: _Job) -> None:
        assert self.lane is not None
        part = job.steps[job.next:job.next + self.batch]
        job.next += len(part)
        try:
            fut = self.lane.submit(review_batch, job.record, job.seat, part, self.seconds, self.iters, 0,
                                   priority=PRIORITY)
        except RuntimeError as e:
            self._fail(job, f"the review workers are shutting down ({e}); ask again later")
            return
        self.batches += 1
        fut.add_done_callback(lambda f: self._batch_done(job, f))

    def _batch_done(self, job: _Job, fut: Future[list[dict[str, Any]]]) -> None:
        try:
            got = fut.result()
        except Exception as e:
            log.warning("review of game %s seat %d failed: %s", job.game_id, job.seat, e)
            self._fail(job, "the review could not be computed (a worker failed); ask again")
            return
        with self._lock:
            job.decisions.extend(got)
        if self._closed:
            self._fail(job, "the server is shutting down; ask again later")
        elif job.next < len(job.steps):
            self._submit(job)
        else:
            self._finish(job)

    def _finish(self, job: _Job) -> None:
        info = game_info(job.record["game"])
        out = Review(job.record["game"], job.seat, "team result" if info.cooperative else "win chance",
                     info.score_label, [Decision(**{**d, "mistake": False}) for d in job.decisions])
        _mark(out.decisions)
        row = {"game_id": job.game_id, "seat": job.seat, "review": out.to_json(),
               "seconds": self.seconds if self.seconds is not None else 0.0, "time": now()}
        try:
            with contextlib.suppress(IntegrityError):  # another server process stored it first: the same review
                self.storage._write(lambda conn: conn.execute(insert(ReviewRow.__table__), row))  # type: ignore[arg-type]
        except Exception as e:
            log.warning("review of game %s seat %d not stored: %s", job.game_id, job.seat, e)
            self._fail(job, "the review could not be stored; ask again")
            return
        with self._lock:
            self.computed += 1
            self._drop(job)

    def _fail(self, job: _Job, why: str) -> None:
        with self._lock:
            self._failed[(job.game_id, job.seat)] = why
            self._drop(job)

    def _drop(self, job: _Job) -> None:
        """Caller holds the lock."""
        self._jobs.pop((job.game_id, job.seat), None)
        if self._players.get(job.player) == (job.game_id, job.seat):
            del self._players[job.player]
