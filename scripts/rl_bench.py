#!/usr/bin/env python3
"""Steps per second of the PettingZoo environments against the raw engine, per game (docs/rl.md, issue 13).

    .venv/bin/python scripts/rl_bench.py [--seconds 2] [--players 2,4]
"""

from __future__ import annotations

import argparse

from tabletop.rl.bench import bench, table


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    p.add_argument("--players", default="2,4", help="player counts (comma-separated)")
    p.add_argument("--games", default="silencio,silos,siliconvania")
    args = p.parse_args()
    counts = [int(x) for x in args.players.split(",") if x]
    rows = bench([(g, n) for g in args.games.split(",") for n in counts], args.seconds)
    print(table(rows))


if __name__ == "__main__":
    main()
