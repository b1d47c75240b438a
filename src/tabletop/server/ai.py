"""AI moves, computed in worker processes (never in the event loop).

The worker receives the game's record, rebuilds the state from it inside the worker (a process of this
server, on this machine: records never leave the server), and lets the agent decide through a `SeatHandle`
of its seat, so the agent sees only what that seat may see. Clients name strengths by label only.

Besides the built-in strengths, the server offers the trained policies of its policy directory (`policy_dir`
setting; by default the ones shipped in `tabletop/rl/policies/`): a file `NAME.npz` (format of
`tabletop.agents.policy`) is offered under the label `NAME` to games of the game and player count it was trained
for. A client sends the label; the server alone maps it to the file in its own directory, so no path ever comes
from a client.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import re
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, wait
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from tabletop.agents import make_agent
from tabletop.agents.levels import LEVELS, level_spec
from tabletop.core import SeatHandle, game_info, replay

log = logging.getLogger("tabletop.server")

AI_LABELS: dict[str, str] = {level: level for level in LEVELS}
"""Strength label (what clients send) to agent spec (what only the server knows): each label is the level of the
same name, whose agent depends on the game (`tabletop.agents.levels.level_spec`)."""

POLICY_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,9}")
"""A policy's label: its file name without `.npz`, lower-case letters, digits, `-` and `_`, at most 10 characters
(the length of a stored AI label), and not a built-in strength."""


@dataclass(frozen=True)
class PolicyOffer:
    """A trained policy this server offers: its label, what it plays, and (server-side only) its file."""

    label: str
    game: str
    players: int
    path: Path
    position: float = 2.5
    """Where it sits among the strengths by its model card's measured result (easy 0, medium 1, hard 2; 2.5 when
    not measured): `tabletop.agents.policy.Shipped.position`."""

    def public(self) -> dict[str, Any]:
        """What clients see: the label, what it plays and its place among the strengths, never the file."""
        return {"label": self.label, "game": self.game, "players": self.players, "position": self.position}


def ordered_labels(policies: list[PolicyOffer]) -> list[str]:
    """The strengths and `policies` as the lobby lists them: weakest first, each policy at its measured place
    among the levels (easy, medium, hard), unmeasured ones last."""
    rows = [(float(i), 0, level) for i, level in enumerate(LEVELS)]
    rows += [(p.position, 1, p.label) for p in policies]
    return [label for _, _, label in sorted(rows)]


def shipped_policy_dir() -> Path:
    """The policies that come with tabletop (`tabletop/rl/policies/`)."""
    return Path(str(resources.files("tabletop").joinpath("rl", "policies")))  # a folder: no import of tabletop.rl


def find_policies(directory: str | Path | None) -> dict[str, PolicyOffer]:
    """The policies offered from `directory` (None: the shipped ones), by label. A file whose name is not a
    valid label, or that does not load as a policy, is skipped with a warning in the server log."""
    folder = shipped_policy_dir() if directory is None else Path(directory)
    if not folder.is_dir():
        if directory is not None:
            log.warning("policy directory %s does not exist: no trained policies offered", folder)
        return {}
    try:
        from tabletop.agents.policy import Shipped, load_policy, read_card
    except ImportError:  # pragma: no cover - the agents package always has it
        return {}
    out: dict[str, PolicyOffer] = {}
    for path in sorted(folder.glob("*.npz")):
        label = path.stem
        if not POLICY_NAME.fullmatch(label) or label in AI_LABELS:
            log.warning("policy %s skipped: a label is 1-10 of a-z 0-9 - _ and not %s", path.name,
                        ", ".join(AI_LABELS))
            continue
        try:
            net = load_policy(path)
        except Exception as e:  # a broken file must not stop the server
            log.warning("policy %s skipped: %s", path.name, e)
            continue
        card = Shipped(label, net.game, net.players, path, read_card(path.with_suffix(".toml")))
        out[label] = PolicyOffer(label, net.game, net.players, path.resolve(), card.position)
    return out


def check_label(label: str, game: str, players: int, policies: dict[str, PolicyOffer]) -> str | None:
    """Why `label` cannot play a seat of `game` with `players` (a message naming what is allowed), or None."""
    fits = [p.label for p in policies.values() if p.game == game and p.players == players]
    allowed = ", ".join([*AI_LABELS, *fits])
    if label in AI_LABELS:
        return None
    offer = policies.get(label)
    if offer is None:
        if any(c in label for c in "/\\.:") or label.startswith("~"):
            return (f"AI strength {label[:40]!r} is not one of {allowed} (a trained policy is named by its label "
                    "from this server's list, never by a path)")
        return f"AI strength {label[:40]!r} is not one of {allowed}"
    if offer.game != game or offer.players != players:
        title = game_info(offer.game).title
        return (f"policy {label} plays {offer.players}-player {title}, not {players}-player "
                f"{game_info(game).title}; here: {allowed}")
    return None


def worker_init() -> None:
    """Run in each AI worker process as it starts: it ends when the server does, however the server ends.

    A pool worker waits on its task queue, whose write end it holds itself, so a server killed outright (SIGKILL, the
    OOM killer) would leave it, and through it the fork server, running for ever. The server holds the other end of
    the worker's parent sentinel: a thread waits for it to close and ends the process."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="tabletop-parent-watch", daemon=True).start()


def choose_action(record: dict[str, Any], seat: int, label: str, seed: int, policy: str | None = None,
                  table: list[str | None] | None = None) -> str:
    """The canonical text of the action the `label` agent takes for `seat` in the game `record` describes.
    A policy label comes with `policy`, the file the server resolved it to in its own directory. `table` is who
    sits at each seat (`seat_kinds`: public facts of the table): an agent that reads its teammates by their kind
    (Silencio's team agent, `at_table`) is given it."""
    state = replay(record)
    if seat not in state.deciding():
        raise ValueError(f"seat {seat} owes no decision")
    if label in AI_LABELS:
        agent = make_agent(level_spec(AI_LABELS[label], state.game), state.game, seed)
        at_table = getattr(agent, "at_table", None)
        if table is not None and at_table is not None:
            agent = at_table(seat, table)
    else:
        if policy is None:
            raise ValueError(f"AI label {label!r} is not offered by this server")
        from tabletop.agents.policy import policy_agent

        path = Path(policy)
        agent = policy_agent(state.game, _net(str(path), path.stat().st_mtime_ns), seed, sample=True)
    return agent.act(SeatHandle(state, seat)).text


@lru_cache(maxsize=8)
def _net(path: str, mtime: int) -> Any:
    """A policy (a network or a learned judgement), read once per worker process (and again when its file changes)."""
    from tabletop.agents.policy import load_policy

    return load_policy(path)


def hint_actions(record: dict[str, Any], seat: int, seed: int, seconds: float,
                 table: list[str | None] | None = None) -> list[dict[str, Any]]:
    """Hints for `seat` from its own view (a `SeatHandle` of the state the record rebuilds to): the top candidate
    actions with their estimated value in [0, 1] (the chance of winning, as the search sees it), how many search
    samples tried them, and a one-line `reason` ("" where the game's search gives none). The search (that of the
    game's `hard` level: `tabletop.agents.hints`) runs for `seconds` (its whole budget). `table` is who sits at
    each seat ("human", an AI label; `seat_kinds`): Silencio's hint reads each teammate by its kind and says so."""
    from tabletop.agents.hints import hints

    handle = SeatHandle(replay(record), seat)
    return [{"action": c.action.text, "value": round(c.value, 4), "visits": c.visits, "reason": c.reason}
            for c in hints(handle, seconds=seconds, seed=seed, table=table)]


def seat_kinds(seats: list[dict[str, Any]]) -> list[str | None]:
    """Who sits at each seat, from a game's public seats (`GameService.info`): "human" for a person's seat, the
    strength label for an AI's (a level, or a policy's label, which the hints take as unknown)."""
    return ["human" if s.get("kind") != "ai" else s.get("ai") for s in seats]


LIGHT_LABELS = frozenset({"easy", "medium"})
"""Strengths cheap enough to decide in a thread of the server (random, the heuristic: 0.2-3 ms a move, the replay of
the record included; 18 ms at worst), on the light lane, never queued behind the searches of the worker processes."""


@dataclass(order=True)
class _Job:
    """A job waiting in a lane: lower `priority` first, then first come first served (`order`)."""

    priority: int
    order: int
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: Future[Any] = field(compare=False)
    tries: int = field(default=0, compare=False)
    started: bool = field(default=False, compare=False)


class Lane:
    """A priority queue of jobs in front of an executor (a pool of worker processes, or of threads).

    At most `slots` jobs are handed to the executor at a time (its number of workers), so the executor's own
    first-in-first-out queue never holds a backlog: whatever waits, waits here, in priority order (0 first: the
    games with a person at the table; an AI-only game's jobs yield). `submit` never blocks.

    A pool whose worker process died (killed, out of memory) is broken for good (`BrokenProcessPool` from its
    futures and from `submit`): the lane replaces it with a new one from `factory`, once per breakage, says so in one
    log line (no traceback), and runs again every job the dead pool held (each at most `retries` times; then its
    future gets the error). `close` cancels what waits and gives running jobs `grace` seconds before it terminates
    the worker processes."""

    def __init__(self, name: str, factory: Callable[[], Executor], slots: int, retries: int = 2) -> None:
        self.name, self._factory, self.slots, self.retries = name, factory, max(1, slots), retries
        self._executor = factory()
        self._heap: list[_Job] = []
        self._running: dict[Future[Any], tuple[_Job, Executor]] = {}
        self._cv = threading.Condition()
        self._order = itertools.count()
        self._broken: Executor | None = None
        self._closed = False
        self.replaced = 0
        """How many broken pools were replaced."""
        self._thread = threading.Thread(target=self._run, name=f"tabletop-lane-{name.replace(' ', '-')}",
                                        daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any, priority: int = 0) -> Future[Any]:
        """Queue `fn(*args)`; its future (RuntimeError once the lane is closed)."""
        fut: Future[Any] = Future()
        with self._cv:
            if self._closed:
                raise RuntimeError(f"the {self.name} lane is closed")
            heapq.heappush(self._heap, _Job(priority, next(self._order), fn, args, fut))
            self._cv.notify_all()
        return fut

    def waiting(self) -> int:
        """Jobs queued or running."""
        with self._cv:
            return len(self._heap) + len(self._running)

    def processes(self) -> list[int]:
        """The pids of the current pool's worker processes (none for a pool of threads)."""
        procs = getattr(self._executor, "_processes", None) or {}
        return [p.pid for p in list(procs.values()) if p.pid is not None]

    def _warm(self, executor: Executor) -> None:
        """Start the executor's workers now, in the lane's own thread: a pool of processes spawns a worker (a fork
        from the fork server, which first imports the agents) inside the `submit` that needs it, and the first job
        of every process waited for that (0.6 s on an idle machine, seconds on a loaded one)."""
        for _ in range(self.slots):
            with contextlib.suppress(Exception):  # a pool broken already is found by the next real job
                executor.submit(int)

    def _run(self) -> None:
        self._warm(self._executor)
        while True:
            with self._cv:
                while not self._closed and self._broken is None and (
                        not self._heap or len(self._running) >= self.slots):
                    self._cv.wait()
                if self._closed:
                    return
                broken = self._broken
                if broken is None:
                    job = heapq.heappop(self._heap)
                    executor = self._executor
            if broken is not None:
                self._replace(broken)
                self._warm(self._executor)
                continue
            if not job.started:
                if not job.future.set_running_or_notify_cancel():
                    continue  # cancelled while it waited
                job.started = True
            try:
                inner = executor.submit(job.fn, *job.args)
            except BrokenExecutor:  # a worker died while the pool was idle
                with self._cv:
                    heapq.heappush(self._heap, job)
                    self._mark_broken(executor)
                continue
            except RuntimeError as e:  # shut down under us: the lane is closing
                job.future.set_exception(e)
                continue
            with self._cv:
                self._running[inner] = (job, executor)
            inner.add_done_callback(self._finished)

    def _mark_broken(self, executor: Executor) -> None:
        """Caller holds the condition."""
        if executor is self._executor and self._broken is None and not self._closed:
            self._broken = executor
            self._cv.notify_all()

    def _replace(self, old: Executor) -> None:
        """A new pool for the broken `old` one, said once in the log (no traceback)."""
        new = self._factory()
        with self._cv:
            swap = old is self._executor and not self._closed
            if swap:
                self._executor = new
                jobs = len(self._heap) + len(self._running)
            self._broken = None
        with contextlib.suppress(Exception):
            (old if swap else new).shutdown(wait=False, cancel_futures=True)
        if swap:
            log.error("the %s workers' pool broke (a worker process died: killed, or out of memory); a new pool "
                      "took over and the %d job(s) it held or that were waiting are run again", self.name, jobs)
            with self._cv:
                self.replaced += 1  # counted once said: whoever sees the count sees the log line

    def _finished(self, inner: Future[Any]) -> None:
        with self._cv:
            job, executor = self._running.pop(inner)
            exc = None if inner.cancelled() else inner.exception()
            again = isinstance(exc, BrokenExecutor) and not self._closed and job.tries < self.retries
            if isinstance(exc, BrokenExecutor):
                self._mark_broken(executor)
            if again:
                job.tries += 1
                heapq.heappush(self._heap, job)
            self._cv.notify_all()
        if again:
            return
        if inner.cancelled():
            job.future.set_exception(RuntimeError(f"the {self.name} lane is closed"))
        elif exc is not None:
            job.future.set_exception(exc)
        else:
            job.future.set_result(inner.result())

    def close(self, grace: float = 1.5) -> None:
        """Cancel the jobs that wait, give the running ones `grace` seconds, then terminate the worker processes."""
        with self._cv:
            self._closed = True
            queued, self._heap = self._heap, []
            running = list(self._running)
            executor = self._executor
            self._cv.notify_all()
        for job in queued:
            if not job.future.cancel():
                job.future.set_exception(RuntimeError(f"the {self.name} lane is closed"))
        procs = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for inner in running:  # one not started yet never will be now: cancelled, not waited for (a commit lane
            inner.cancel()  # waited its whole grace of 10 s for such a job, one shutdown in three under AI load)
        _, late = wait(running, timeout=grace)
        if late:
            for p in procs:
                with contextlib.suppress(Exception):
                    p.terminate()
            for p in procs:
                with contextlib.suppress(Exception):
                    p.join(1)
                    if p.is_alive():
                        p.kill()
        self._thread.join(1)
