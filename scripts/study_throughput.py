"""Study throughput: games per second with 1 and 2 local worker processes and with Ray on the same cores.

Every configuration plays the same fixed set of games (a small study, into a fresh dataset directory, so the Parquet
writes count too), in rounds that interleave the configurations (local 1, local 2, Ray, then again), because a shared
machine's load swings between minutes. Ray's start-up (the local cluster and a warm-up batch that starts its worker
processes) is measured once, apart, and excluded; so is the forking of the local pool. The report gives each
configuration's median games/s over the rounds, the speed-up of 2 workers over 1 and Ray's overhead against 2 local
workers.

    .venv/bin/python scripts/study_throughput.py --game silos --players 3 --games 120 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from tabletop.arena.backends import LocalBackend, RayBackend
from tabletop.study import parse_study, run_study

STUDY = """
[study]
name = "throughput"
game = "{game}"
seed = {seed}
[design]
batch = {games}
[factors]
players = [{players}]
agents = ["{agent}"]
[stop]
games = {games}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="silos")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster and local workers (default 2)")
    args = ap.parse_args()
    import ray

    os.environ.setdefault("RAY_worker_niceness", "0")  # as RayBackend does: workers at the driver's priority
    t0 = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    init = time.perf_counter() - t0
    work = Path(tempfile.mkdtemp(prefix="study-throughput-"))

    def spec(seed: int):  # type: ignore[no-untyped-def]
        return parse_study(STUDY.format(game=args.game, players=args.players, agent=args.agent, games=args.games,
                                        seed=seed))

    t0 = time.perf_counter()
    warm = parse_study(STUDY.format(game=args.game, players=args.players, agent=args.agent, games=2 * args.cpus,
                                    seed=999))
    run_study(warm, work / "warm", backend=RayBackend())
    warmup = time.perf_counter() - t0
    print(f"Ray start-up (excluded below): ray.init {init:.1f} s, first batch (starting its workers) {warmup:.1f} s")
    rates: dict[str, list[float]] = {"local, 1 worker": [], f"local, {args.cpus} workers": [],
                                     f"ray, {args.cpus} CPUs": []}
    for r in range(args.rounds):
        for name in rates:
            backend = RayBackend() if name.startswith("ray") else LocalBackend(1 if "1 worker" in name else args.cpus)
            try:
                run = run_study(spec(r), work / f"{r}-{name}", backend=backend)
            finally:
                backend.close()
            rates[name].append(run.played / run.seconds)
            print(f"round {r + 1}: {name}: {run.played} games in {run.seconds:.1f} s = {rates[name][-1]:.2f} games/s",
                  flush=True)
    ray.shutdown()
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"\n{args.game} {args.players}p {args.agent}, {args.games} games per run, {args.rounds} interleaved rounds, "
          "medians:")
    for k, v in med.items():
        print(f"  {k:>20}: {v:6.2f} games/s  (runs: {', '.join(f'{x:.2f}' for x in rates[k])})")
    one, two, on_ray = med["local, 1 worker"], med[f"local, {args.cpus} workers"], med[f"ray, {args.cpus} CPUs"]
    print(f"  speed-up of {args.cpus} local workers over 1: {two / one:.2f}x; Ray against {args.cpus} local workers: "
          f"{100 * (1 - on_ray / two):+.1f}% overhead")


if __name__ == "__main__":
    main()
