"""The runs of `tabletop loadtest` and their report: people-paced tables and saturation steps of bots
(`tabletop.loadtest.bots`) against a fresh server process (`tabletop.loadtest.process`), and the engine's own cost
per action measured on the records of the games played."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tabletop
from tabletop.client import Client
from tabletop.loadtest.bots import Addresses, LagMonitor, Stats, play_game
from tabletop.loadtest.process import RssSampler, database, raise_fd_limit, server_processes

STEPS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
"""Saturation: games at once per step, until p99 passes 200 ms."""


def percentile(xs: list[float], q: float) -> float:
    """The `q` quantile (0..1) of `xs`, nearest rank; 0 for none."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(q * len(s) + 0.5) - 1))]


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


class NotServed(ValueError):
    """Games asked for that the server does not play with that many players."""


def served_games(base: str, players: int) -> tuple[str, ...]:
    """The games the server at `base` plays with `players` players, in its order (`GET /api/meta/games`): a new game
    is load-tested without naming it here."""
    with Client(base, timeout=30) as c:
        meta = c.games()
    return tuple(m["name"] for m in meta if m["players"][0] <= players <= m["players"][1])


def game_for(i: int, games: tuple[str, ...]) -> str:
    return games[i % len(games)]


async def paced(base: str | tuple[str, ...], pid: int | list[int], n_games: int, games: tuple[str, ...],
                players: int, think: tuple[float, float],
                max_seconds: float, seed: int, seconds: float = 0.0, ramp: float = 0.0) -> dict[str, Any]:
    """`n_games` tables with think time. Table k sits down `k * ramp / n_games` s after the start (people arrive over
    `ramp` seconds, not all in the same instant) and plays games back to back until `seconds` have passed since the
    start, each game to its end (with `seconds` = 0: one game per table); `max_seconds` gives up on games."""
    stats, addrs, rng = Stats(), Addresses(), random.Random(seed)
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
            await play_game(base, game_for(i, games), players, addrs, think, rng, stats, deadline, sem)
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


async def saturation(base: str | tuple[str, ...], pid: int | list[int], steps: list[int], games: tuple[str, ...],
                     players: int, step_seconds: float,
                     seed: int) -> dict[str, Any]:
    """No think time; per step, `c` games played back to back for `step_seconds` (the last ones to their end)."""
    addrs, rng = Addresses(), random.Random(seed)
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
                await play_game(base, game_for(i, games), players, addrs, (0.0, 0.0), rng, stats, hard, sem)
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


def run(mode: str, db: str, games: tuple[str, ...] | None = None, n_games: int = 200, players: int = 2,
        think: tuple[float, float] = (0.2, 0.8), max_seconds: float = 900.0, steps: list[int] | None = None,
        step_seconds: float = 20.0, seed: int = 1, seconds: float = 0.0, ramp: float = 0.0,
        servers: int = 1) -> dict[str, Any]:
    """One load test against a fresh server and database: the report (a JSON-ready dict). `games`: the games to
    play in turn (None: every game the server plays with `players` players; `NotServed` for one it does not).
    `servers`: server processes on the one database (more than one needs PostgreSQL); the seats of a game are
    spread over them, and the server CPU is their sum."""
    if servers < 1 or (servers > 1 and db == "sqlite"):
        raise ValueError(f"{servers} server processes: one on SQLite, one or more on PostgreSQL")
    raise_fd_limit()
    report: dict[str, Any] = {"mode": mode, "db": db if db in ("sqlite", "postgresql") else "url",
                              "cpus": os.cpu_count(), "players": players, "servers": servers}
    with tempfile.TemporaryDirectory(prefix="tabletop-loadtest-") as tmp:
        workdir = Path(tmp)
        with database(db, workdir) as url, server_processes(url, workdir, servers) as procs, quiet_collector():
            base = procs[0][0]
            bases, pids = tuple(b for b, _ in procs), [p.pid for _, p in procs]
            served = served_games(base, players)
            missing = [g for g in games or () if g not in served]
            if missing or not served:
                raise NotServed(f"the server plays no {', '.join(missing) or 'game'} with {players} players; it "
                                f"plays {', '.join(served) or 'none'}")
            games = games or served
            report["games"] = list(games)
            records: list[dict[str, Any]] = []
            if mode in ("paced", "both"):
                report["paced"] = asyncio.run(paced(bases, pids, n_games, games, players, think, max_seconds, seed,
                                                    seconds, ramp))
                records += report["paced"].pop("records")
            if mode in ("saturation", "both"):
                sat = asyncio.run(saturation(bases, pids, steps or STEPS, games, players, step_seconds, seed))
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
    procs = report.get("servers", 1)
    lines = [f"load test: mode {report['mode']}, database {report['db']}"
             f"{f', {procs} server processes' if procs > 1 else ''}, {report['cpus']} CPUs, "
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
