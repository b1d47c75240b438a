"""Random-playout timing for SILOS: `python -m tabletop.games.silos.bench [games]`.

Reports games/s and µs per decision (legal_actions + apply through the public API, setup included) for 2, 3
and 4 players, after a short warm-up.
"""

from __future__ import annotations

import sys
import time

import tabletop
from tabletop.core import Rng


def bench(players: int, games: int, options: dict[str, object] | None = None) -> tuple[float, float, float]:
    """(games per second, decisions per game, µs per decision) over `games` seeded random playouts."""
    decisions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        s = tabletop.new_game("silos", players, 1000 + seed, options)
        rng = Rng(seed)
        while not s.is_over:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            decisions += 1
    dt = time.perf_counter() - t0
    return games / dt, decisions / games, dt / decisions * 1e6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for n in (2, 3, 4):
        bench(n, 5)
        gps, dpg, us = bench(n, games)
        print(f"{n}p: {gps:.0f} games/s, {dpg:.0f} decisions/game, {us:.2f} us/decision")


if __name__ == "__main__":
    main()
