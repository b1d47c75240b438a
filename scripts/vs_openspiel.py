"""The engines beside OpenSpiel's C++ hearts (issue 27's yardstick), in one run on one core.

Each round plays random games to their end through the public API (`tabletop.new_game`, `legal_actions`, `apply`;
set-up included) and, the same way, OpenSpiel's hearts through `pyspiel` (its deal's chance outcomes chosen at
random too); a game's cost is its whole time divided by the decisions it asked of players. Rounds alternate between
the games so that a change in the machine's load falls on all of them; the best round of each is reported, with its
ratio to hearts. Silencio's decisions are counted twice: all of them, and only those of more than one legal action
(the issue's Silencio baseline, taken once it stops asking one-answer decisions); hearts' are counted as OpenSpiel
asks them, a trick with one legal card included.

    pip install open_spiel            # into the project's environment: .venv/bin/pip install open_spiel
    .venv/bin/python scripts/vs_openspiel.py [--seconds 3] [--rounds 3] [--game silos ...] [--cpu]
    TABLETOP_PURE=1 .venv/bin/python scripts/vs_openspiel.py     # the pure-Python engine (src/tabletop/native.py)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import tabletop
from tabletop import native

GAMES = (("silencio", 3), ("silos", 4), ("siliconvania", 4))


def ours(game: str, players: int, many: bool) -> Callable[[int, random.Random], int]:
    """One random game of ours: the decisions it asked (with `many`, only those of more than one legal action)."""
    def play(seed: int, rng: random.Random) -> int:
        state = tabletop.new_game(game, players, seed)
        n = 0
        while not state.is_over:
            legal = state.legal_actions()
            if not many or len(legal) > 1:
                n += 1
            state.apply(legal[rng.randrange(len(legal))])
        return n
    return play


def hearts() -> Callable[[int, random.Random], int]:
    import pyspiel
    game = pyspiel.load_game("hearts")

    def play(seed: int, rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                n += 1
                state.apply_action(legal[rng.randrange(len(legal))])
        return n
    return play


def one_round(play: Callable[[int, random.Random], int], seconds: float, seed: int,
              clock: Callable[[], float] = time.perf_counter) -> tuple[float, int, int]:
    """Games for about `seconds` of `clock`: µs per decision, games, decisions."""
    rng = random.Random(seed)
    games = decisions = 0
    t0 = clock()
    while True:
        decisions += play(seed + games, rng)
        games += 1
        spent = clock() - t0
        if spent >= seconds:
            return spent / max(1, decisions) * 1e6, games, decisions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per game per round (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, alternating between the games (default 3)")
    ap.add_argument("--game", action="append", choices=[g for g, _ in GAMES], help="only this game beside hearts "
                    "(repeatable)")
    ap.add_argument("--cpu", action="store_true", help="time the process's CPU (time.process_time) rather than the "
                    "wall clock: on a loaded machine the time spent waiting for a core is left out")
    args = ap.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    try:
        base = hearts()
    except ImportError:
        print("OpenSpiel is not installed: .venv/bin/pip install open_spiel", file=sys.stderr)
        return 2
    runs: dict[str, Callable[[int, random.Random], int]] = {"hearts 4p (OpenSpiel C++)": base}
    for game, players in GAMES:
        if args.game and game not in args.game:
            continue
        runs[f"{game} {players}p"] = ours(game, players, many=False)
        if game == "silencio":
            runs[f"{game} {players}p, decisions of 2+ actions"] = ours(game, players, many=True)
    best: dict[str, tuple[float, int, int]] = {}
    for r in range(args.rounds):
        for name, play in runs.items():
            got = one_round(play, args.seconds, 1000 * r, clock)
            if name not in best or got[0] < best[name][0]:
                best[name] = got
            print(f"round {r + 1}: {name}: {got[0]:.2f} µs/decision ({got[1]} games)", file=sys.stderr)
    ref = best["hearts 4p (OpenSpiel C++)"][0]
    print(f"{'game':44} {'µs/decision':>12} {'× hearts':>9} {'games':>7} {'decisions/game':>15}")
    for name, (us, games, decisions) in best.items():
        print(f"{name:44} {us:12.2f} {us / ref:9.2f} {games:7d} {decisions / games:15.1f}")
    print(native.describe())  # the compiled engine or its pure twin (TABLETOP_PURE=1 runs the pure one)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
