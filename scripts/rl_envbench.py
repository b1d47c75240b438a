#!/usr/bin/env python3
"""Steps per second of tabletop's AEC environments, bare and wrapped, beside PettingZoo classic's connect_four,
leduc_holdem and chess, in one run (docs/rl.md, "Benchmarks"; issue 26).

    pip install pygame chess rlcard     # what PettingZoo's classic environments import
    nice -n 15 .venv/bin/python scripts/rl_envbench.py [--seconds 2] [--repeat 3] [--markdown]

Every environment runs the same loop, the one a PettingZoo user writes: `for agent in env.agent_iter()`, `last()`,
then `step(None)` for a finished agent or `step(a)` with `a` drawn uniformly (Python's `random.Random`, seeded)
from the action mask's legal indices, `reset(seed=...)` at the end of each game. *bare* is each library's raw
environment (tabletop `raw_env`, classic `raw_env`), *wrapped* its `env()` (PettingZoo's usual wrappers: classic's
TerminateIllegal, AssertOutOfBounds and OrderEnforcing; tabletop's OrderEnforcing). A figure is environment
steps per CPU second of this process (`time.process_time`, so other jobs on a shared machine slow it less than
wall-clock would), the median over `--repeat` interleaved rounds, all environments measured in each round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

TABLETOP = [("silos", 2), ("silos", 4), ("silencio", 2), ("silencio", 4), ("siliconvania", 2), ("siliconvania", 5)]


def classic(name: str) -> tuple[Callable[[], Any], Callable[[], Any]] | None:
    """PettingZoo classic's (raw_env, env) constructors for `name`, or None when its dependencies are missing."""
    try:
        if name == "connect_four":
            from pettingzoo.classic import connect_four_v3 as m
        elif name == "leduc_holdem":
            from pettingzoo.classic import leduc_holdem_v4 as m
        else:
            from pettingzoo.classic import chess_v6 as m
    except Exception:  # a missing optional dependency (pygame, chess, rlcard)
        return None
    return m.raw_env, m.env


def steps_per_second(make: Callable[[], Any], seconds: float, seed: int) -> float:
    """Environment steps per CPU second of random legal play, whole games, for about `seconds`."""
    env = make()
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    end = start + seconds
    game = 0
    while True:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                mask = obs["action_mask"]
                legal = np.asarray(mask).astype(bool).nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            del agent
        game += 1
        if time.process_time() >= end:
            break
        env.reset(seed=seed + game)
    return steps / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (medians)")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table (for docs/rl.md)")
    args = ap.parse_args()
    from tabletop import rl

    rows: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = []
    for g, n in TABLETOP:
        rows.append((f"tabletop {g} {n}p", lambda g=g, n=n: rl.raw_env(g, players=n),
                     lambda g=g, n=n: rl.env(g, players=n)))
    missing = []
    for name in ("connect_four", "leduc_holdem", "chess"):
        made = classic(name)
        if made is None:
            missing.append(name)
        else:
            rows.append((f"PettingZoo classic {name}", made[0], made[1]))
    results: dict[tuple[str, str], list[float]] = {}
    with Progress(transient=True) as bar:
        task = bar.add_task("measuring", total=len(rows) * 2 * args.repeat)
        for r in range(args.repeat):
            for label, raw, wrapped in rows:
                for kind, make in (("bare", raw), ("wrapped", wrapped)):
                    results.setdefault((label, kind), []).append(steps_per_second(make, args.seconds, 1000 * r))
                    bar.advance(task)
    ref = {k: statistics.median(results[("PettingZoo classic connect_four", k)])
           for k in ("bare", "wrapped")} if ("PettingZoo classic connect_four", "bare") in results else None
    header = ["environment", "bare steps/s", "wrapped steps/s", "bare / connect_four bare"]
    lines = []
    for label, _, _ in rows:
        bare, wrapped = (statistics.median(results[(label, k)]) for k in ("bare", "wrapped"))
        spread = f" ({min(results[(label, 'bare')]):,.0f}-{max(results[(label, 'bare')]):,.0f})"
        lines.append([label, f"{bare:,.0f}{spread if args.repeat > 1 else ''}", f"{wrapped:,.0f}",
                      f"{bare / ref['bare']:.2f}" if ref else "-"])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        t = Table(title=f"random legal play, CPU seconds {args.seconds} per cell, median of {args.repeat}")
        for h in header:
            t.add_column(h)
        for line in lines:
            t.add_row(*line)
        Console(width=140).print(t)
    if missing:
        print(f"not measured (pip install pygame chess rlcard): {', '.join(missing)}")


if __name__ == "__main__":
    main()
