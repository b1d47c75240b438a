"""The engine's per-seat costs the server pays on every event, per game: `view(seat)`, the new log entries, and the
set-up (`new_game`), in microseconds, beside the cost of a decision (random playouts through the public API).

    .venv/bin/python scripts/view_bench.py [--games 200] [--seed 1] [--game silos ...]
    .venv/bin/python scripts/view_bench.py --setup 400 [--game siliconvania ...]   # set-up alone: new_game N times

Views are timed at every position of random playouts, for every seat and a spectator; the best of 3 rounds, in
CPU time of the process (`time.process_time`): on a shared machine the time spent waiting for a core is left out.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.progress import track
from rich.table import Table

import tabletop

CASES = [("silencio", 3), ("silos", 4), ("siliconvania", 4)]


def playout(game: str, players: int, seed: int) -> tuple[float, int, float, int, float, float]:
    """(seconds of set-up, decisions, seconds deciding, views, seconds viewing, seconds of new log entries)."""
    rng = random.Random(seed)
    t0 = time.process_time()
    state = tabletop.new_game(game, players, seed)
    setup = time.process_time() - t0
    seats: list[int | None] = [*range(players), None]
    cursors = dict.fromkeys(seats, 0)
    decide = view = logs = 0.0
    n = views = 0
    while not state.is_over:
        t = time.process_time()
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        decide += time.process_time() - t
        n += 1
        for s in seats:
            t = time.process_time()
            state.view(s)
            view += time.process_time() - t
            t = time.process_time()
            cursors[s] += len(state.log(s, cursors[s]))
            logs += time.process_time() - t
            views += 1
    return setup, n, decide, views, view, logs


def setup_round(game: str, players: int, n: int) -> float:
    """Seconds of CPU per `new_game`, over n games in a row."""
    t0 = time.process_time()
    for seed in range(n):
        tabletop.new_game(game, players, seed)
    return (time.process_time() - t0) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", choices=[g for g, _ in CASES], help="only this game (repeatable)")
    ap.add_argument("--setup", type=int, default=0, metavar="N",
                    help="time the set-up alone: new_game N times in a row (seeds 0..N-1), best of 5 rounds")
    args = ap.parse_args()
    if args.setup:
        for game, players in CASES:
            if args.game and game not in args.game:
                continue
            best_setup = min(setup_round(game, players, args.setup) for _ in range(5))
            print(f"{game} {players}p set-up: {best_setup * 1e6:.1f} µs "
                  f"(new_game {args.setup} times, best of 5 rounds)")
        return
    table = Table(title="engine costs per event (µs of CPU, best of 3 rounds)")
    for col in ("game", "set-up", "decision", "view (one seat)", "new log entries (one seat)", "view / decision"):
        table.add_column(col, justify="right")
    for game, players in CASES:
        if args.game and game not in args.game:
            continue
        best: list[float] | None = None
        for _round in range(3):
            tot = [0.0] * 6
            for g in track(range(args.games), description=f"{game} {players}p round {_round + 1}", transient=True):
                for i, x in enumerate(playout(game, players, args.seed + g)):
                    tot[i] += x
            games = args.games
            row = [tot[0] / games * 1e6, tot[2] / tot[1] * 1e6, tot[4] / tot[3] * 1e6, tot[5] / tot[3] * 1e6]
            best = row if best is None else [min(a, b) for a, b in zip(best, row, strict=True)]
        assert best is not None
        table.add_row(f"{game} {players}p", *(f"{x:.1f}" for x in best), f"{best[2] / best[1]:.1f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
