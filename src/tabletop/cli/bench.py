"""`tabletop bench GAME`: random playouts through the public API, timed.

Reports games per second (setup included), microseconds per decision (one `legal_actions()` plus one
`apply()`, the random choice included, setup excluded) and microseconds per `clone()` of mid-game states,
for each player count.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tabletop
from tabletop import native
from tabletop.cli.common import Refused
from tabletop.cli.options import parse_options
from tabletop.core import Rng, State, game_info


@dataclass
class BenchResult:
    """Figures of one benchmark run."""

    game: str
    players: int
    games: int
    decisions: int
    total_seconds: float
    decision_seconds: float
    clone_us: float

    @property
    def games_per_s(self) -> float:
        """Whole games (setup and play) per second."""
        return self.games / self.total_seconds

    @property
    def us_per_decision(self) -> float:
        """Microseconds per legal_actions() + apply()."""
        return self.decision_seconds / max(1, self.decisions) * 1e6

    def line(self) -> str:
        """One plain line, for notes and logs."""
        return (f"{self.game} {self.players}p: {self.games_per_s:,.0f} games/s, "
                f"{self.us_per_decision:.2f} µs/decision, {self.clone_us:.2f} µs/clone "
                f"({self.games} games, {self.decisions / self.games:.0f} decisions/game)")


def bench(game: str, players: int, games: int, options: dict[str, Any] | None = None, seed: int = 0,
          progress: Any = None) -> BenchResult:
    """Time `games` seeded random playouts of `game` for `players` seats."""
    rng = Rng(seed)
    decisions = 0
    play_time = total = 0.0
    samples: list[State] = []
    for g in range(games):
        t0 = time.perf_counter()
        state = tabletop.new_game(game, players, seed + g, options)
        t1 = time.perf_counter()
        n = 0
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            n += 1
        t2 = time.perf_counter()
        decisions += n
        play_time += t2 - t1
        total += t2 - t0
        if progress is not None:
            progress()
    # clone timing on mid-game states
    for g in range(min(games, 100)):
        state = tabletop.new_game(game, players, seed + g, options)
        target = 1 + rng.below(60)
        for _ in range(target):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        samples.append(state)
    reps = max(1, 20_000 // len(samples))
    t0 = time.perf_counter()
    for _ in range(reps):
        for s in samples:
            s.clone()
    clone_us = (time.perf_counter() - t0) / (reps * len(samples)) * 1e6
    return BenchResult(game, players, games, decisions, total, play_time, clone_us)


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark and print a table."""
    info = game_info(args.game)
    if args.games < 1:
        raise Refused(f"--games must be at least 1, not {args.games}")
    counts = args.players or list(range(info.min_players, info.max_players + 1))
    for n in counts:
        if not info.min_players <= n <= info.max_players:
            raise Refused(f"--players {n}: {info.title} takes {info.min_players}-{info.max_players} players")
    if args.seed < 0:
        raise Refused(f"--seed must be a non-negative integer, not {args.seed}")
    options = parse_options(args.game, args.option or [])
    console = Console()
    results = []
    with Progress(console=console, transient=True) as bar:
        for n in counts:
            task = bar.add_task(f"{args.game} {n}p", total=args.games)
            results.append(bench(args.game, n, args.games, options, args.seed,
                                 progress=lambda t=task: bar.advance(t)))
    table = Table(title=f"{info.title}: random playouts through the public API (one core)",
                  caption=native.describe())  # which engine ran: compiled or its pure twin (src/tabletop/native.py)
    for col in ("players", "games", "decisions/game", "games/s", "µs/decision", "µs/clone"):
        table.add_column(col, justify="right")
    for r in results:  # each figure once: the table is the whole report
        table.add_row(f"{args.game} {r.players}p", str(r.games), f"{r.decisions / r.games:.0f}",
                      f"{r.games_per_s:,.0f}", f"{r.us_per_decision:.2f}", f"{r.clone_us:.2f}")
    console.print(table)
    return 0


def add_parser(sub: Any) -> None:
    """Register `bench`."""
    p = sub.add_parser("bench", help="time random playouts: games/s, µs per decision, µs per clone")
    p.add_argument("game")
    p.add_argument("--players", type=int, action="append", help="player count (repeatable; default: all)")
    p.add_argument("--games", type=int, default=2000, help="games per player count (default 2000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.set_defaults(func=cmd_bench)
