"""A/B timing of two source trees of tabletop: the decision cost of random playouts, old against new.

Single benchmark runs swing by ±25% on a shared machine, so this runs the two trees side by side: each round starts
one child process per tree (the order alternating from round to round), each child plays the same seeded random
playouts and measures its own process time (not wall time) in `legal_actions()` + `apply()`. The report gives the
median microseconds per decision of each tree over the rounds and their ratio. The children also report how many
decisions they made: equal counts say the two trees played the same games.

    git archive main src | tar -x -C /tmp/old
    .venv/bin/python scripts/ab_bench.py --old /tmp/old/src --new src --game silos --games 300 --runs 7
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import json, sys, time
import tabletop
from tabletop.core import Rng

game, games, players, options = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
rng = Rng(0)
decisions = 0
seconds = 0.0
for n in players:
    for g in range(games):
        state = tabletop.new_game(game, n, g, options)
        t0 = time.process_time()
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
        seconds += time.process_time() - t0
print(json.dumps({"decisions": decisions, "seconds": seconds}))
"""


def run_child(src: Path, game: str, games: int, players: list[int], options: dict[str, object]) -> dict[str, float]:
    """One timed child process on the source tree `src`."""
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, game, str(games), json.dumps(players), json.dumps(options)],
        env=env, capture_output=True, text=True, check=True,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    """Interleaved runs of both trees; prints each run and the medians."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", type=Path, required=True, help="the old tree's src folder")
    ap.add_argument("--new", type=Path, required=True, help="the new tree's src folder")
    ap.add_argument("--game", default="silos")
    ap.add_argument("--games", type=int, default=300, help="random playouts per player count and run")
    ap.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    ap.add_argument("--options", default="{}", help="game options as JSON")
    ap.add_argument("--runs", type=int, default=5, help="runs of each tree (at least 5)")
    args = ap.parse_args(argv)
    players = [int(x) for x in args.players.split(",")]
    options = json.loads(args.options)
    trees = {"old": args.old, "new": args.new}
    us: dict[str, list[float]] = {"old": [], "new": []}
    for r in range(args.runs):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for name in order:
            res = run_child(trees[name], args.game, args.games, players, options)
            us[name].append(res["seconds"] / res["decisions"] * 1e6)
            print(f"run {r + 1} {name}: {us[name][-1]:.2f} µs/decision ({res['decisions']:.0f} decisions)", flush=True)
    old, new = statistics.median(us["old"]), statistics.median(us["new"])
    print(f"median old {old:.2f} µs/decision, new {new:.2f} µs/decision, new/old {new / old:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
