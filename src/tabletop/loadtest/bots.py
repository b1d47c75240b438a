"""The bots of `tabletop loadtest`: one seat each, with its own loopback source address, its client of the API (the
project's one Python client, `tabletop.client`, its asyncio side `tabletop.client.aio`) and socket,
playing a game to its end over the server's public API as the browser client does, then checking what its socket
delivered against the server's log and the finished game's record (nothing lost, nothing duplicated).

A client of the server: it speaks HTTP and WebSocket only and imports nothing of `tabletop.server`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import ssl
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from websockets.asyncio.client import ClientConnection

import tabletop
from tabletop.client import ApiError
from tabletop.client.aio import AsyncClient

T = TypeVar("T")

PER_TOKEN = (10.0, 40)
"""The server's default limit per seat token (requests per second, burst): `TABLETOP_RATE_PER_TOKEN` and
`TABLETOP_BURST_PER_TOKEN`, under which the load test runs its server. The bots keep within it by themselves; the
server does not advertise it, so it is written here (tests/loadtest checks it against the server's defaults)."""

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



class Bot:
    """One seat: its own address, its client of the API (`tabletop.client.aio`) and socket."""

    def __init__(self, base: str, address: str, per_token: tuple[float, int] = PER_TOKEN) -> None:
        self.base, self.address = base, address
        self.api = AsyncClient(base, timeout=60, local_address=address, verify=tls_context())
        self.pace = TokenPace(*per_token)
        self.token = ""
        self.ws: ClientConnection | None = None
        self.inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.log: list[Any] = []
        self.log_pos = 0
        self.acked: list[tuple[int, str]] = []

    async def call(self, stats: Stats, what: str, request: Awaitable[T]) -> T | None:
        """The answer of a request through the client, or None with the refusal counted as an error; a request
        cut by a transport error was sent again by the client (an idle keep-alive connection the server closed
        just as it was reused: actions carry a client action id, so a retry is recognised, never applied twice)
        and counted here as a retry."""
        before = self.api.retried
        try:
            return await request
        except ApiError as e:
            stats.error(f"{what}: {e.status} {e.detail[:200]}")
            return None
        finally:
            stats.retries += self.api.retried - before

    async def open(self, game_id: str) -> None:
        self.ws = await self.api.socket(game_id, self.token, open_timeout=60, max_size=2**22)

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
        await self.api.close()


async def play_game(base: str | tuple[str, ...], game: str, players: int, addrs: Addresses,
                    think: tuple[float, float], rng: random.Random, stats: Stats, deadline: float,
                    create_sem: asyncio.Semaphore) -> None:
    """Create a game of `players` bots, play it to its end (or `deadline`), verify what every seat saw. `base`: the
    server's URL, or the URLs of several server processes sharing one database: then the seats of a game are spread
    over them (seat i of the game with the k-th bot address first talks to server (k + i) mod n), so an event is
    pushed to sockets of other processes than the one that applied it."""
    bases = (base,) if isinstance(base, str) else base
    first = addrs.n
    bots = [Bot(bases[(first + i) % len(bases)], addrs.next()) for i in range(players)]
    readers: list[asyncio.Task[None]] = []
    try:
        async with create_sem:
            seats = [{"kind": "creator"}] + [{"kind": "invite"}] * (players - 1)
            made = await bots[0].call(stats, "create", bots[0].api.create(game, players, seats))
            if made is None:
                return
            gid = made.game_id
            bots[0].token = made.token or ""
            for inv in made.invites:
                bot = bots[inv["seat"]]
                claimed = await bot.call(stats, "claim", bot.api.claim(gid, invite=inv["code"]))
                if claimed is None:
                    return
                bot.token = claimed[1]
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
            # a later message at the same seq is a newer picture: a game waiting for its last seat at the socket's
            # first message, found playing once this process hears of the claim another process took
            if msg["seq"] >= newest_seq:
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
    record = await bots[0].call(stats, "record", bots[0].api.record(gid))
    if record is None:
        return
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
        got = await b.call(stats, "log", b.api.log(gid, b.token))
        if got is None:
            return
        entries = got["entries"]
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
