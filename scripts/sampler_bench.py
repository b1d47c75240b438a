"""What a remote seat's sample costs beside the engine's own (docs/bots.md): at positions of seeded random games,
the witness built once from the seat's view and log (`tabletop.core.belief.Belief`), then each sample from it,
against `State.sample` on the true state, the same seeds. Prints a table; nothing is asserted (a benchmark).

    .venv/bin/python scripts/sampler_bench.py [--players 3] [--games 4] [--samples 200]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

import tabletop
from tabletop.core import Rng, State
from tabletop.core.belief import Belief

GAMES = ("silencio", "silos", "siliconvania")


def positions(game: str, players: int, seed: int, every: int = 7) -> list[State]:
    state = tabletop.new_game(game, players, seed)
    rng, out, step = Rng(seed), [], 0
    while not state.is_over:
        if step % every == 0:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        step += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=4, help="seeded random games per game (positions every 7 steps)")
    ap.add_argument("--samples", type=int, default=200, help="samples per position")
    args = ap.parse_args()
    table = Table(title=f"A sample for the seat to move, {args.players} players (µs; witness in ms)")
    for col in ("game", "positions", "engine sample µs", "remote sample µs", "witness ms (median, max)"):
        table.add_column(col, justify="right" if col != "game" else "left")
    for game in GAMES:
        engine, remote, witness = [], [], []
        states = [s for seed in range(args.games) for s in positions(game, args.players, seed)]
        for state in states:
            seat = state.to_move
            assert seat is not None
            legal = [a.text for a in state.legal_actions_for(seat)]
            t0 = time.perf_counter()
            belief = Belief(game, state.players, state.options, seat, state.view(seat), state.log(seat), legal)
            witness.append((time.perf_counter() - t0) * 1e3)
            t0 = time.perf_counter()
            for k in range(args.samples):
                state.sample(seat, k)
            engine.append((time.perf_counter() - t0) / args.samples * 1e6)
            t0 = time.perf_counter()
            for k in range(args.samples):
                belief.sample(k)
            remote.append((time.perf_counter() - t0) / args.samples * 1e6)
        table.add_row(game, str(len(states)), f"{statistics.median(engine):.1f}", f"{statistics.median(remote):.1f}",
                      f"{statistics.median(witness):.2f}, {max(witness):.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
