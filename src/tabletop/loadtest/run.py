"""`tabletop loadtest`: bot clients play whole games over WebSocket against a real `tabletop serve` process.

The server is started as a subprocess on a free loopback port, under its default limits, on a fresh database: an
SQLite file (default) or PostgreSQL (a throwaway cluster of its own, or `--db URL` of an empty database). Every
bot is one seat with its own source address (127.0.0.2, 127.0.0.3, ...), so the per-address limits apply per
player as they would on the internet, and it keeps its seat token within the per-token limit on its own (a 429
counts as an error).

A bot reads its socket; when a state message gives it legal actions it waits its think time, sends one over the
socket as the browser client does (quoting the `seq` it saw, with a client action id), and measures the round trip:
from the send to the moment both the acknowledgement and a state message at the acknowledged `seq` (or later) have
arrived. At the end of a game every seat compares the log entries
its socket delivered (each message's `log_start` must continue the previous `log_pos`) with its log from the
server, and each seat's acknowledged actions are compared with that seat's actions in the finished game's record
(the record keeps the engine's canonical order, in which a decision submitted ahead in a simultaneous step comes
when the engine reaches its seat, so it is compared seat by seat, not by event `seq`): entries missing on the
socket or actions acknowledged but not recorded are lost, entries delivered twice or actions recorded twice
duplicated.

Modes:
- `paced` (people-paced): `--games` concurrent games, each bot thinking 0.2-0.8 s (uniform) after its turn
  arrives, every game to its end.
- `saturation`: no think time; steps of concurrent games (2, 4, 8, ...), each played back to back for
  `--step-seconds`; reported per step, and the highest actions/s whose p99 stays within 100 ms.

Either way the engine's own cost per action (apply, the legal actions of the seat deciding, the view and the new
log entries of every seat and of a spectator) is measured in this process on the records of the games played, and
the server's memory (RSS) is sampled every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

import tabletop
from tabletop.server.settings import Settings

GAMES = ("silos", "siliconvania", "silencio")
STEPS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
"""Saturation: games at once per step, until p99 passes 200 ms."""


@dataclass
class Stats:
    """What the bots measured."""

    latencies: list[float] = field(default_factory=list)
    latency_at: list[float] = field(default_factory=list)
    """When each round trip began (perf_counter), for the timeline."""
    in_play: int = 0
    timeline: list[tuple[float, int, float]] = field(default_factory=list)
    """(time, games in play, server CPU seconds so far), every half second."""
    lags: list[tuple[float, float]] = field(default_factory=list)
    """(time, ms): when the bots' own event loop woke late (a busy or paused client inflates what it measures)."""
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    retries: int = 0
    games_done: int = 0
    games_unfinished: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)
    first: float = 0.0
    last: float = 0.0
    cpu0: float = field(default_factory=time.process_time)
    """The bots' own CPU time at the start (one process runs them all: a busy one delays what they measure)."""

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text[:300])


def percentile(xs: list[float], q: float) -> float:
    """The `q` quantile (0..1) of `xs`, nearest rank; 0 for none."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(q * len(s) + 0.5) - 1))]


class Addresses:
    """Loopback source addresses 127.0.0.2, 127.0.0.3, ..., one per bot."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> str:
        i = self.n
        self.n += 1
        return f"127.{(i // 250) // 250}.{(i // 250) % 250}.{i % 250 + 2}"


class TokenPace:
    """The client's side of the server's per-token limit: never send faster than its bucket refills."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.tokens, self.then = rate * 0.95, float(max(1, burst - 2)), time.monotonic()
        self.burst = float(max(1, burst - 2))

    async def take(self) -> None:
        if self.rate <= 0:
            return
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.then) * self.rate)
        self.then = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.then = 1.0, time.monotonic()
        self.tokens -= 1


_TLS: ssl.SSLContext | None = None


def tls_context() -> ssl.SSLContext:
    """One TLS context for every bot's HTTP client: httpx builds one per client otherwise, loading the CA bundle
    (some 17 ms of the bots' event loop per client, two clients a game: a stall the bots would measure)."""
    global _TLS
    if _TLS is None:
        _TLS = ssl.create_default_context()
    return _TLS


@contextlib.contextmanager
def quiet_collector() -> Iterator[None]:
    """The bots' process during a run: its start-up heap frozen and the young generation collected every 50,000
    allocations instead of 700. Otherwise its own garbage collector stalls the loop that measures round trips: full
    collections of 100-180 ms and young ones of up to 15 ms were seen in a 100-table run (what is measured is the
    server, not the client's collector)."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


class Bot:
    """One seat: its own address, HTTP client and socket."""

    def __init__(self, base: str, address: str, settings: Settings) -> None:
        self.base, self.address = base, address
        self.http = httpx.AsyncClient(base_url=base, timeout=60,
                                      transport=httpx.AsyncHTTPTransport(local_address=address,
                                                                         verify=tls_context()))
        self.pace = TokenPace(settings.rate_per_token, settings.burst_per_token)
        self.token = ""
        self.ws: ClientConnection | None = None
        self.inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.log: list[Any] = []
        self.log_pos = 0
        self.acked: list[tuple[int, str]] = []

    async def request(self, stats: Stats, method: str, path: str, **kw: Any) -> httpx.Response:
        """A request, sent again after a transport error (an idle keep-alive connection the server closed just as
        it was reused): actions carry a client action id, so a retry is recognised, never applied twice."""
        for attempt in range(4):
            try:
                return await self.http.request(method, path, **kw)
            except httpx.TransportError:
                if attempt == 3:
                    raise
                stats.retries += 1
                await asyncio.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    async def open(self, game_id: str) -> None:
        host = self.base.split("://", 1)[1]
        self.ws = await connect(f"ws://{host}/api/games/{game_id}/ws?token={self.token}", open_timeout=60,
                                local_addr=(self.address, 0), max_size=2**22)

    async def read(self, stats: Stats) -> None:
        """Timestamp every message on arrival; check the log cursor (no gap, no repeat)."""
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                t = time.perf_counter()
                msg = orjson.loads(raw)
                if msg.get("type") == "state":
                    if msg["log_start"] > self.log_pos:
                        stats.lost += msg["log_start"] - self.log_pos
                        stats.error(f"log gap: {self.log_pos} -> {msg['log_start']}")
                    elif msg["log_start"] < self.log_pos:
                        stats.duplicated += self.log_pos - msg["log_start"]
                    self.log.extend(msg["log"][max(0, self.log_pos - msg["log_start"]):])
                    self.log_pos = max(self.log_pos, msg["log_pos"])
                await self.inbox.put((t, msg))
        await self.inbox.put((time.perf_counter(), {"type": "closed"}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()


async def play_game(base: str, game: str, players: int, addrs: Addresses, settings: Settings,
                    think: tuple[float, float], rng: random.Random, stats: Stats, deadline: float,
                    create_sem: asyncio.Semaphore) -> None:
    """Create a game of `players` bots, play it to its end (or `deadline`), verify what every seat saw."""
    bots = [Bot(base, addrs.next(), settings) for _ in range(players)]
    readers: list[asyncio.Task[None]] = []
    try:
        async with create_sem:
            seats = [{"kind": "creator"}] + [{"kind": "invite"}] * (players - 1)
            r = await bots[0].request(stats, "POST", "/api/games",
                                      json={"game": game, "players": players, "seats": seats})
            if r.status_code != 201:
                stats.error(f"create: {r.status_code} {r.text[:200]}")
                return
            g = r.json()
            gid = g["id"]
            bots[0].token = g["token"]
            for inv in g["invites"]:
                c = await bots[inv["seat"]].request(stats, "POST", f"/api/games/{gid}/claim",
                                                    json={"invite": inv["code"]})
                if c.status_code != 200:
                    stats.error(f"claim: {c.status_code} {c.text[:200]}")
                    return
                bots[inv["seat"]].token = c.json()["token"]
            for b in bots:
                await b.open(gid)
                readers.append(asyncio.create_task(b.read(stats)))
        stats.in_play += 1
        try:
            results = await asyncio.gather(*(seat_loop(b, i, gid, think, rng, stats, deadline)
                                             for i, b in enumerate(bots)))
        finally:
            stats.in_play -= 1
        if not all(results):
            stats.games_unfinished += 1
            return
        await verify(bots, gid, stats)
    except Exception as e:
        stats.error(f"{game}: {e!r}")
    finally:
        for t in readers:
            t.cancel()
        for b in bots:
            with contextlib.suppress(Exception):
                await b.close()


async def seat_loop(bot: Bot, seat: int, gid: str, think: tuple[float, float], rng: random.Random, stats: Stats,
                    deadline: float) -> bool:
    """Act over the socket whenever it offers legal actions; True once the game is over. The round trip of an
    action ends when both its acknowledgement and a picture at the acknowledged `seq` have arrived."""
    acted_at = -1
    waiting: str | None = None  # the client action id of an action not yet answered
    t0 = 0.0
    pending: tuple[int, float] | None = None  # (acknowledged seq, submit time): its picture is still to come
    newest_seq = -1
    newest: dict[str, Any] | None = None
    n = 0
    while True:
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            return False
        try:
            t, msg = await asyncio.wait_for(bot.inbox.get(), timeout)
        except TimeoutError:
            return False
        kind = msg["type"]
        if kind == "closed":
            stats.error(f"seat {seat}: socket closed")
            return False
        if kind in ("ack", "refused"):
            if msg.get("client_action_id") != waiting:
                stats.error(f"seat {seat}: an answer to an action it did not send: {str(msg)[:200]}")
                continue
            waiting = None
            if kind == "refused":
                stats.error(f"act: {msg['status']} {msg['detail'][:200]}")
            else:
                if msg["duplicate"]:  # each action is sent once over the socket
                    stats.duplicated += 1
                bot.acked.append((msg["seq"] - 1, msg["action"]))
                stats.actions += 1
                stats.first = stats.first or t0
                stats.last = time.perf_counter()
                if newest_seq >= msg["seq"]:  # its picture came first
                    stats.latencies.append(t - t0)
                    stats.latency_at.append(t0)
                else:
                    pending = (msg["seq"], t0)
        elif kind == "state":
            if msg["seq"] > newest_seq:
                newest_seq, newest = msg["seq"], msg
            if pending is not None and msg["seq"] >= pending[0]:
                stats.latencies.append(t - pending[1])
                stats.latency_at.append(pending[1])
                pending = None
        else:
            continue
        if newest is None or waiting is not None or pending is not None or not bot.inbox.empty():
            continue  # act on the newest picture only, one action at a time
        if newest["status"] == "over":
            return True
        if not newest["legal"] or newest["seq"] <= acted_at:
            continue
        msg = newest
        if think[1] > 0:
            await asyncio.sleep(rng.uniform(*think))
            if not bot.inbox.empty():  # something came meanwhile: look at it first
                continue
        await bot.pace.take()
        acted_at = msg["seq"]
        waiting = f"a{seat}-{n}"
        n += 1
        t0 = time.perf_counter()
        assert bot.ws is not None
        await bot.ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "seq": msg["seq"],
                                      "client_action_id": waiting}))


async def verify(bots: list[Bot], gid: str, stats: Stats) -> None:
    """Every acknowledged action recorded once at its place; every seat's socket delivered its whole log."""
    rec = await bots[0].request(stats, "GET", f"/api/games/{gid}/record")
    if rec.status_code != 200:
        stats.error(f"record: {rec.status_code}")
        return
    record = rec.json()
    seen: set[int] = set()
    for b in bots:
        for seq, _ in b.acked:
            if seq in seen:  # two acknowledgements of one event
                stats.duplicated += 1
            seen.add(seq)
    for seat, recorded in enumerate(actions_by_seat(record)):
        acked = [text for _, text in bots[seat].acked]
        lost, dup = Counter(acked) - Counter(recorded), Counter(recorded) - Counter(acked)
        stats.lost += sum(lost.values())
        stats.duplicated += sum(dup.values())
        if not lost and not dup and acked != recorded:
            stats.error(f"seat {seat}: its actions were recorded in another order than acknowledged")
    for b in bots:
        r = await b.request(stats, "GET", f"/api/games/{gid}/log", headers={"Authorization": f"Bearer {b.token}"})
        entries = r.json()["entries"]
        if entries != b.log:
            missing = len(entries) - len(b.log)
            stats.lost += max(0, missing)
            stats.duplicated += max(0, -missing)
            if missing == 0:
                stats.lost += 1
            stats.error(f"seat log differs from what its socket delivered ({len(b.log)} vs {len(entries)})")
    stats.games_done += 1
    stats.records.append(record)


def actions_by_seat(record: dict[str, Any]) -> list[list[str]]:
    """Each seat's actions in the finished game's record, in order. The record keeps the engine's canonical order,
    not the order of events: a decision submitted ahead in a simultaneous step (a secret bid, a passed card) is
    recorded when the engine reaches its seat, so an action's place in the record is not its event's `seq`; one
    seat's own actions keep their order. (The bots never undo: an action taken back is not in the record.)"""
    state = tabletop.new_game(record["game"], record["players"], record["seed"], record["options"])
    out: list[list[str]] = [[] for _ in range(record["players"])]
    for text in record["actions"]:
        seat = state.to_move
        assert seat is not None
        out[seat].append(text)
        state.apply(text)
    return out


def engine_cost(records: list[dict[str, Any]], limit: int = 60) -> dict[str, float]:
    """Seconds per action of the engine alone: apply, the legal actions of the seat deciding, the view and new log
    entries of every seat and of a spectator, as the server computes them per event."""
    total, n = 0.0, 0
    for record in records[:limit]:
        state = tabletop.new_game(record["game"], record["players"], record["seed"], record["options"])
        seats: list[int | None] = [*range(state.players), None]
        cursors = {s: 0 for s in seats}
        for action in record["actions"]:
            t = time.perf_counter()
            state.apply(action)
            if state.to_move is not None:
                state.legal_actions()
            for s in seats:
                state.view(s)
                cursors[s] += len(state.log(s, cursors[s]))
            total += time.perf_counter() - t
            n += 1
    return {"actions": n, "seconds_per_action": total / n if n else 0.0}


class LagMonitor:
    """The bots' event loop, checked every 5 ms: a wake-up more than 5 ms late is noted (with the time), so that a
    latency spike can be told apart from a stall of the client process measuring it (its garbage collector, or the
    machine's other work)."""

    def __init__(self, stats: Stats, period: float = 0.005) -> None:
        self.stats, self.period = stats, period

    async def run(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(self.period)
            late = time.perf_counter() - t - self.period
            if late > 0.005:
                self.stats.lags.append((t, late * 1000))


class RssSampler:
    """The server's resident memory, sampled from /proc, and the CPU time it has used."""

    def __init__(self, pid: int, stats: Stats | None = None) -> None:
        self.pid, self.peak, self.last = pid, 0, 0
        self.task: asyncio.Task[None] | None = None
        self.cpu0 = self.cpu()
        self.stats = stats
        """If given, its games in play and the server's CPU are sampled with the memory (the run's timeline)."""

    def cpu(self) -> float:
        """The server process's CPU seconds so far (user + system, all its threads)."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0

    def restart_cpu(self) -> None:
        self.cpu0 = self.cpu()

    def read(self) -> int:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    async def run(self) -> None:
        while True:
            self.last = self.read()
            self.peak = max(self.peak, self.last)
            if self.stats is not None:
                self.stats.timeline.append((time.perf_counter(), self.stats.in_play, self.cpu()))
            await asyncio.sleep(0.5)


# ---- the server process and its database ---------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


TUNING = ("TABLETOP_SOCKET_COMPRESSION", "TABLETOP_GC_YOUNG_THRESHOLD", "TABLETOP_ACT_THREADS")
"""The server's settings a load test passes on from its environment (to compare them); every other `TABLETOP_*`
variable is dropped, so the server runs under its default limits."""


@contextlib.contextmanager
def server_process(db_url: str, workdir: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`tabletop serve` on a free loopback port under its default limits: its URL and process."""
    port = free_port()
    cmd = [sys.executable, "-c", "import sys; from tabletop.cli.main import main; sys.exit(main(sys.argv[1:]))",
           "serve", "--port", str(port), "--db", db_url, "--ai-workers", "1"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_") or k in TUNING}
    log = open(workdir / "server.log", "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited ({proc.returncode}); see {workdir / 'server.log'}")
            try:
                if httpx.get(f"{url}/api/meta/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer in 60 s")
            time.sleep(0.1)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


@contextlib.contextmanager
def database(db: str, workdir: Path) -> Iterator[str]:
    """The URL of a fresh database: `sqlite` (a file in `workdir`), `postgresql` (a throwaway cluster) or a URL."""
    if db == "sqlite":
        yield f"sqlite:///{workdir / 'loadtest.sqlite3'}"
    elif db == "postgresql":
        from tabletop.server.pgcluster import throwaway_cluster

        with throwaway_cluster() as url:
            yield url
    else:
        yield db


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---- the runs --------------------------------------------------------------------------------------------------
def game_for(i: int, games: tuple[str, ...]) -> str:
    return games[i % len(games)]


async def paced(base: str, pid: int, n_games: int, games: tuple[str, ...], players: int, think: tuple[float, float],
                max_seconds: float, seed: int, seconds: float = 0.0, ramp: float = 0.0) -> dict[str, Any]:
    """`n_games` tables with think time. Table k sits down `k * ramp / n_games` s after the start (people arrive over
    `ramp` seconds, not all in the same instant) and plays games back to back until `seconds` have passed since the
    start, each game to its end (with `seconds` = 0: one game per table); `max_seconds` gives up on games."""
    settings, stats, addrs, rng = Settings(), Stats(), Addresses(), random.Random(seed)
    rss = RssSampler(pid, stats)
    rss.task = asyncio.create_task(rss.run())
    lag = asyncio.create_task(LagMonitor(stats).run())
    sem = asyncio.Semaphore(16)
    start = time.monotonic()
    deadline = start + max_seconds
    t0 = time.perf_counter()

    async def table(k: int) -> None:
        await asyncio.sleep(k * ramp / n_games)
        i = k
        while True:
            await play_game(base, game_for(i, games), players, addrs, settings, think, rng, stats, deadline, sem)
            i += n_games
            if time.monotonic() - start >= seconds or time.monotonic() >= deadline:
                return

    await asyncio.gather(*(table(k) for k in range(n_games)))
    rss.task.cancel()
    lag.cancel()
    out = summary(stats, rss, time.perf_counter() - t0, n_games)
    out.update(seconds_asked=seconds, ramp_seconds=ramp,
               bots_loop_late_max_ms=round(max((ms for _, ms in stats.lags), default=0.0), 1),
               bots_loop_late_over_20ms=sum(ms > 20 for _, ms in stats.lags))
    return out


async def saturation(base: str, pid: int, steps: list[int], games: tuple[str, ...], players: int, step_seconds: float,
                     seed: int) -> dict[str, Any]:
    """No think time; per step, `c` games played back to back for `step_seconds` (the last ones to their end)."""
    settings, addrs, rng = Settings(), Addresses(), random.Random(seed)
    rss = RssSampler(pid)
    rss.task = asyncio.create_task(rss.run())
    out: list[dict[str, Any]] = []
    all_records: list[dict[str, Any]] = []
    total = Stats()
    for c in steps:
        stats = Stats()
        rss.restart_cpu()
        sem = asyncio.Semaphore(16)
        stop = time.monotonic() + step_seconds
        hard = stop + 300

        async def slot(k: int, c: int = c, stats: Stats = stats, sem: asyncio.Semaphore = sem, stop: float = stop,
                       hard: float = hard) -> None:
            i = k
            while time.monotonic() < stop:
                await play_game(base, game_for(i, games), players, addrs, settings, (0.0, 0.0), rng, stats, hard, sem)
                i += c

        t0 = time.perf_counter()
        await asyncio.gather(*(slot(k) for k in range(c)))
        out.append({"games_at_once": c, **summary(stats, rss, time.perf_counter() - t0, None)})
        all_records += stats.records
        total.errors += stats.errors
        total.lost += stats.lost
        total.duplicated += stats.duplicated
        if out[-1]["p99_ms"] > 200 or stats.errors:
            break
    rss.task.cancel()
    ok = [s for s in out if s["p99_ms"] <= 100 and not s["errors"]]
    best = max(ok, key=lambda s: s["actions_per_s"]) if ok else None
    return {"steps": out, "best_within_p99_100ms": best, "records": all_records}


def timeline(stats: Stats) -> list[dict[str, float]]:
    """Per second of the run: round trips begun (count, p50, p99, max ms), games in play, server CPU busy (0-1)."""
    if not stats.latency_at:
        return []
    origin = min(min(stats.latency_at), stats.timeline[0][0] if stats.timeline else float("inf"))
    by_second: dict[int, list[float]] = {}
    for at, x in zip(stats.latency_at, stats.latencies, strict=True):
        by_second.setdefault(int(at - origin), []).append(x * 1000)
    lag: dict[int, float] = {}
    for at, ms in stats.lags:
        second = int(at - origin)
        lag[second] = max(lag.get(second, 0.0), ms)
    samples: dict[int, tuple[int, float]] = {}
    prev: tuple[float, float] | None = None
    for at, games, cpu in stats.timeline:
        second = int(at - origin)
        if prev is not None and at > prev[0]:
            samples[second] = (games, (cpu - prev[1]) / (at - prev[0]))
        prev = (at, cpu)
    out = []
    for second in range(max([*by_second, *samples, 0]) + 1):
        xs = sorted(by_second.get(second, []))
        games, busy = samples.get(second, (0, 0.0))
        out.append({"second": second, "round_trips": len(xs), "p50_ms": round(percentile(xs, 0.5), 1),
                    "p99_ms": round(percentile(xs, 0.99), 1), "max_ms": round(xs[-1] if xs else 0.0, 1),
                    "games_in_play": games, "server_cpu": round(busy, 2),
                    "bots_loop_late_ms": round(lag.get(second, 0.0), 1)})
    return out


def plot_timeline(report: dict[str, Any], path: str) -> None:
    """The people-paced run over time: round-trip p50/p99/max per second, games in play and the server's CPU."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["paced"]["timeline"]
    t = [r["second"] for r in rows]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True, height_ratios=[2, 1])
    for key, style, label in (("max_ms", ":", "max"), ("p99_ms", "-", "p99"), ("p50_ms", "--", "p50"),
                              ("bots_loop_late_ms", "-", "bots' loop late (max)")):
        ax.plot(t, [max(r[key], 0.1) for r in rows], style, label=label,
                **({"color": "black", "lw": 0.6} if key.startswith("bots") else {}))
    ax.axhline(50, color="grey", lw=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("round trip, ms")
    ax.legend(loc="upper right")
    p = report["paced"]
    ax.set_title(f"people-paced load test, {report['db']}: {p['games']} tables, {p['actions_per_s']} actions/s, "
                 f"p99 {p['p99_ms']} ms")
    ax2.plot(t, [r["games_in_play"] for r in rows], label="games in play")
    ax2.set_ylabel("games in play")
    ax3 = ax2.twinx()
    ax3.plot(t, [100 * r["server_cpu"] for r in rows], color="tab:red", lw=0.8, label="server CPU %")
    ax3.set_ylabel("server CPU %")
    ax2.set_xlabel("seconds")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def summary(stats: Stats, rss: RssSampler, seconds: float, n_games: int | None) -> dict[str, Any]:
    lat = [x * 1000 for x in stats.latencies]
    busy = (stats.last - stats.first) if stats.last > stats.first else seconds
    cpu = rss.cpu() - rss.cpu0
    return {
        "games": n_games, "games_finished": stats.games_done, "games_unfinished": stats.games_unfinished,
        "actions": stats.actions, "seconds": round(seconds, 1), "actions_per_s": round(stats.actions / busy, 1),
        "p50_ms": round(percentile(lat, 0.5), 1), "p95_ms": round(percentile(lat, 0.95), 1),
        "p99_ms": round(percentile(lat, 0.99), 1), "max_ms": round(max(lat, default=0.0), 1),
        "timeline": timeline(stats),
        "errors": len(stats.errors), "error_samples": stats.errors[:5], "lost_events": stats.lost,
        "duplicated_events": stats.duplicated, "retries": stats.retries,
        "server_rss_peak_mb": round(rss.peak / 2**20, 1),
        "server_rss_end_mb": round(rss.last / 2**20, 1), "records": stats.records,
        "server_cpu_ms_per_action": round(cpu * 1000 / stats.actions, 2) if stats.actions else None,
        "bots_cpu_ms_per_action": round((time.process_time() - stats.cpu0) * 1000 / stats.actions, 2)
        if stats.actions else None,
    }


def run(mode: str, db: str, games: tuple[str, ...] = GAMES, n_games: int = 200, players: int = 2,
        think: tuple[float, float] = (0.2, 0.8), max_seconds: float = 900.0, steps: list[int] | None = None,
        step_seconds: float = 20.0, seed: int = 1, seconds: float = 0.0, ramp: float = 0.0) -> dict[str, Any]:
    """One load test against a fresh server and database: the report (a JSON-ready dict)."""
    raise_fd_limit()
    report: dict[str, Any] = {"mode": mode, "db": db if db in ("sqlite", "postgresql") else "url",
                              "cpus": os.cpu_count(), "games": list(games), "players": players}
    with tempfile.TemporaryDirectory(prefix="tabletop-loadtest-") as tmp:
        workdir = Path(tmp)
        with database(db, workdir) as url, server_process(url, workdir) as (base, proc), quiet_collector():
            records: list[dict[str, Any]] = []
            if mode in ("paced", "both"):
                report["paced"] = asyncio.run(paced(base, proc.pid, n_games, games, players, think, max_seconds, seed,
                                                    seconds, ramp))
                records += report["paced"].pop("records")
            if mode in ("saturation", "both"):
                sat = asyncio.run(saturation(base, proc.pid, steps or STEPS, games, players, step_seconds, seed))
                records += sat.pop("records")
                for s in sat["steps"]:
                    s.pop("records", None)
                report["saturation"] = sat
        cost = engine_cost(records)
        report["engine"] = {"actions_measured": cost["actions"],
                            "us_per_action": round(cost["seconds_per_action"] * 1e6, 1),
                            "actions_per_s_one_core": round(1 / cost["seconds_per_action"], 0)
                            if cost["seconds_per_action"] else None}
    return report


def format_report(report: dict[str, Any]) -> str:
    """The report as a few lines of text."""
    lines = [f"load test: mode {report['mode']}, database {report['db']}, {report['cpus']} CPUs, "
             f"games {'/'.join(report['games'])} with {report['players']} players, bots over loopback addresses"]

    def row(name: str, s: dict[str, Any]) -> str:
        return (f"{name}: {s['actions']} actions in {s['seconds']} s = {s['actions_per_s']} actions/s; "
                f"round trip p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms, p99 {s['p99_ms']} ms (max {s['max_ms']}); "
                f"games finished {s['games_finished']}, unfinished {s['games_unfinished']}; errors {s['errors']}; "
                f"lost {s['lost_events']}, duplicated {s['duplicated_events']}; retries after a dropped connection "
                f"{s['retries']}; server CPU {s['server_cpu_ms_per_action']} ms per action (bots "
                f"{s.get('bots_cpu_ms_per_action')} ms); server RSS peak "
                f"{s['server_rss_peak_mb']} MB, end {s['server_rss_end_mb']} MB"
                + (f"; the bots' own loop woke late by up to {s['bots_loop_late_max_ms']} ms "
                   f"({s['bots_loop_late_over_20ms']} times by over 20 ms)" if "bots_loop_late_max_ms" in s else "")
                + (f"; first errors: {s['error_samples']}" if s["errors"] else ""))

    if "paced" in report:
        p = report["paced"]
        how = (f"{p['games']} tables arriving over {p['ramp_seconds']:g} s, each playing games back to back for "
               f"{p['seconds_asked']:g} s" if p["seconds_asked"] else f"{p['games']} games at once")
        lines.append(row(f"people-paced ({how}, 0.2-0.8 s think)", p))
    if "saturation" in report:
        for s in report["saturation"]["steps"]:
            lines.append(row(f"saturation, {s['games_at_once']} games at once", s))
        best = report["saturation"]["best_within_p99_100ms"]
        lines.append("saturation: highest actions/s with p99 <= 100 ms: "
                     + (f"{best['actions_per_s']} ({best['games_at_once']} games at once)" if best else "none"))
    e = report["engine"]
    lines.append(f"engine alone: {e['us_per_action']} us per action (apply, legal actions, every seat's and a "
                 f"spectator's view and log) over {e['actions_measured']} actions = {e['actions_per_s_one_core']} "
                 "actions/s on one core")
    return "\n".join(lines)
