#!/usr/bin/env python3
"""Steps per second of the PettingZoo environments against the raw engine, per game (docs/rl.md, issue 13).

    .venv/bin/python scripts/rl_bench.py [--seconds 2] [--players 2,4] [--repeat 3]

With --repeat N the sweep runs N times interleaved; the table shows medians and the range of the AEC / engine
ratio over the repetitions (each ratio from one back-to-back pair).
"""

from __future__ import annotations

import argparse

from rich.progress import Progress

from tabletop.core.errors import TabletopError
from tabletop.rl.bench import bench, table
from tabletop.rl.encode import encoder


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    p.add_argument("--players", default="2,4", help="player counts (comma-separated)")
    p.add_argument("--games", default="silencio,silos,siliconvania")
    p.add_argument("--repeat", type=int, default=1, help="interleaved repetitions of the whole sweep (medians)")
    args = p.parse_args()
    if args.repeat < 1 or args.seconds <= 0:
        p.error("--repeat must be at least 1 and --seconds positive")
    try:
        counts = [int(x) for x in args.players.split(",") if x]
    except ValueError:
        p.error(f"--players takes player counts separated by commas, not {args.players[:40]!r}")
    games = [(g, n) for g in args.games.split(",") for n in counts]
    for g, n in games:
        try:
            encoder(g, n)  # the game and player count exist (and have an environment)
        except TabletopError as e:
            p.error(str(e))
    with Progress(transient=True) as bar:
        task = bar.add_task("measuring", total=len(games) * args.repeat)
        rows = bench(games, args.seconds, args.repeat, lambda: bar.advance(task))
    print(table(rows))


if __name__ == "__main__":
    main()
