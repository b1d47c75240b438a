"""The compiled engine's `hard` against the pure-Python engine's `hard` at the same time a move (issue 27).

Both builds play one game: this process runs the compiled build (it refuses to start on the pure one), a child
process started with TABLETOP_PURE=1 runs the pure twin and keeps its own copy of the game, applying every action
as it is made. The same agent spec (default: the game's `hard` level at `--seconds` a move, e.g.
`guided:time=0.25`) plays both seats, so the only difference is the build: how many iterations each search gets
in its time. Game g deals `new_game(game, players, seed + g)`, puts the compiled build at seat g mod players (seat
rotation) and seeds both agents from g. A shared win counts 1/k. `--jobs` games run at once (one per core: a
search's time is wall-clock time, so more jobs than free cores would starve both sides alike).

    .venv/bin/python scripts/build_match.py --game silos --games 200 --seconds 0.25 --jobs 2
    .venv/bin/python scripts/build_match.py --game siliconvania --games 200 --seconds 0.25 --jobs 2 --json out.json

It prints the compiled build's win share with its 95% interval (the mean of per-game shares, 1.96 standard
errors) and the decisions per game.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

CHILD = r"""
import json, sys
from tabletop import new_game
from tabletop.agents import make_agent
from tabletop.core import SeatHandle
from tabletop.native import running_compiled
print(json.dumps({"compiled": running_compiled()}), flush=True)
state = agent = handle = None
for line in sys.stdin:
    m = json.loads(line)
    if m["do"] == "new":
        state = new_game(m["game"], m["players"], m["seed"])
        agent = make_agent(m["spec"], m["game"], m["agent_seed"])
        handle = SeatHandle(state, m["seat"])
    elif m["do"] == "apply":
        state.apply(next(a for a in state.legal_actions() if str(a) == m["action"]))
    elif m["do"] == "act":
        print(json.dumps({"action": str(agent.act(handle))}), flush=True)
"""


class PureSeat:
    """The pure build's seat: a child process holding its own copy of the game."""

    def __init__(self) -> None:
        env = {**os.environ, "TABLETOP_PURE": "1"}
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, text=True)
        hello = self._read()
        if hello.get("compiled"):
            raise SystemExit("the child meant to run the pure build runs the compiled one")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the pure build's child process ended")
        got: dict[str, Any] = json.loads(line)
        return got

    def send(self, **m: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(m) + "\n")
        self.proc.stdin.flush()

    def act(self) -> str:
        self.send(do="act")
        return str(self._read()["action"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(10)


def play(game: str, players: int, spec: str, seed: int, g: int) -> tuple[float, int]:
    """Game g: the compiled build's share of the win and the decisions asked (of two or more actions)."""
    from tabletop import new_game
    from tabletop.agents import make_agent
    from tabletop.core import SeatHandle

    me = g % players
    state = new_game(game, players, seed + g)
    pure: dict[int, PureSeat] = {}
    try:
        for p in range(players):
            if p != me:
                pure[p] = PureSeat()
                pure[p].send(do="new", game=game, players=players, seed=seed + g, spec=spec,
                             agent_seed=7919 * g + p, seat=p)
        agent = make_agent(spec, game, 7919 * g + me)
        handle = SeatHandle(state, me)
        decisions = 0
        while state.to_move is not None:
            p = state.to_move
            legal = state.legal_actions()
            decisions += len(legal) > 1
            text = str(agent.act(handle)) if p == me else pure[p].act()
            state.apply(next(a for a in legal if str(a) == text))
            for seat in pure.values():
                seat.send(do="apply", action=text)
        winners = list(state.winners())
        return (1.0 / len(winners) if me in winners else 0.0), decisions
    finally:
        for seat in pure.values():
            seat.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--game", default="silos")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.25, help="each search's time a move")
    ap.add_argument("--spec", default="", help="the agent spec of both seats (default: the game's hard level at "
                                               "--seconds)")
    ap.add_argument("--seed", type=int, default=2_000_000, help="the first deal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", default="", help="also write the results here")
    args = ap.parse_args()

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from tabletop.agents.levels import level_spec
    from tabletop.native import describe, running_compiled

    if not running_compiled():
        raise SystemExit(f"this process must run the compiled build ({describe()}): scripts/compile first")
    spec = args.spec or level_spec("hard", args.game).split(":")[0] + f":time={args.seconds}"
    shares: list[float] = [0.0] * args.games
    decisions: list[int] = [0] * args.games
    with Progress() as bar, ProcessPoolExecutor(args.jobs) as pool:
        task = bar.add_task(f"{args.game}: compiled vs pure, {spec}", total=args.games)
        futures = {pool.submit(play, args.game, args.players, spec, args.seed, g): g for g in range(args.games)}
        for f in as_completed(futures):
            g = futures[f]
            shares[g], decisions[g] = f.result()
            bar.advance(task)
    n = len(shares)
    mean = sum(shares) / n
    half = 1.96 * math.sqrt(sum((s - mean) ** 2 for s in shares) / (n - 1) / n) if n > 1 else 0.0
    table = Table(title=f"{args.game}, {args.players} players: {spec} on each seat, {n} seat-rotated games "
                        f"(deals {args.seed}..{args.seed + n - 1})")
    for col in ("build", "win share (95%)", "decisions per game", "load average at the end"):
        table.add_column(col)
    load = os.getloadavg()[0]
    table.add_row("compiled (mypyc)", f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]",
                  f"{sum(decisions) / n:.1f}", f"{load:.1f}")
    table.add_row("pure Python", f"{1 - mean:.3f}", "", "")
    Console(width=130).print(table)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"game": args.game, "players": args.players, "spec": spec, "games": n, "first_deal": args.seed,
                       "compiled_share": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4),
                       "decisions_per_game": round(sum(decisions) / n, 1), "load_average": round(load, 2)}, out)


if __name__ == "__main__":
    main()
