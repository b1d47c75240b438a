"""A/B timing of the search agents of two source trees: iterations per second of `ismcts`, `guided` and `team`.

Each round starts one child process per tree (the order alternating from round to round); each child searches
the same positions (an early, a middle and a late one of each game, from the committed search positions of
`tests/agents/data/search_positions.json`) with a fixed seed and measures its own process time per iteration.
The report gives, per game, stage and search, the median iterations per second of each tree over the rounds and
their ratio (new / old; below 1 is slower), and the children's iteration counts (equal when both searched alike).

    git worktree add /tmp/before <commit>
    .venv/bin/python scripts/search_bench.py --old /tmp/before/src --new src --rounds 7
    .venv/bin/python scripts/search_bench.py --builds    # this tree: old = pure Python, new = compiled (mypyc)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, sys, time
import tabletop
from tabletop.core import SeatHandle

positions, seconds = json.loads(sys.argv[1]), float(sys.argv[2])

def replay(p):
    s = tabletop.new_game(p["game"], p["players"], p["seed"])
    for text in p["actions"]:
        s.apply(next(a for a in s.legal_actions() if str(a) == text))
    return s

def searches(seat, game):
    from tabletop.agents import ismcts, guided
    yield "ismcts", lambda: ismcts.Search(seat, ismcts.make_rollout("random", game, 1), 7)
    yield "guided", lambda: guided.GuidedSearch(seat, 7)
    if game == "silencio":
        from tabletop.agents.team import TeamAgent
        agent = TeamAgent("silencio", seed=7, iters=1)
        agent._read(seat, seat.log())
        yield "team", lambda: agent.new_search(seat, 7)

out = []
for p in positions:
    seat = SeatHandle(replay(p), p["seat"])
    for name, make in searches(seat, p["game"]):
        search = make()
        search.run(5)  # warm up
        search = make()
        n, t0 = 0, time.process_time()
        while time.process_time() - t0 < seconds:
            search.run(10)
            n += 10
        out.append([p["game"], p["stage"], name, n / (time.process_time() - t0), search.iterations])
print(json.dumps(out))
"""


def pick_positions() -> list[dict[str, object]]:
    """An early, a middle and a late position of each game (3 players), from the committed set."""
    data = json.loads((Path(__file__).parents[1] / "tests/agents/data/search_positions.json").read_text())
    out = []
    for game in ("silos", "siliconvania", "silencio"):
        ps = [p for p in data["positions"] if p["game"] == game and p["players"] == 3]
        ps.sort(key=lambda p: len(p["actions"]))
        for stage, p in zip(("early", "middle", "late"), (ps[0], ps[len(ps) // 2], ps[-1]), strict=True):
            out.append({k: p[k] for k in ("game", "players", "seed", "actions", "seat")} | {"stage": stage})
    return out


def run_child(src: Path, positions: list[dict[str, object]], seconds: float,
              pure: bool | None = None) -> list[list[object]]:
    env = {**os.environ, "PYTHONPATH": str(src.resolve()), "PYTHONHASHSEED": "0"}  # the same dict layouts
    env.pop("TABLETOP_PURE", None)
    if pure:
        env["TABLETOP_PURE"] = "1"  # the pure-Python twin of the compiled engine (src/tabletop/native.py)
    res = subprocess.run([sys.executable, "-c", CHILD, json.dumps(positions), str(seconds)], env=env,
                         capture_output=True, text=True, check=True)
    rows: list[list[object]] = json.loads(res.stdout)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", type=Path, help="the old tree's src folder")
    ap.add_argument("--new", type=Path, help="the new tree's src folder")
    ap.add_argument("--builds", action="store_true",
                    help="one tree (--new, default: this one's src), old: its pure-Python engine, new: compiled")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=0.4, help="search time per position and search in a child")
    args = ap.parse_args(argv)
    if args.builds:
        args.new = args.old = args.new or Path(__file__).resolve().parents[1] / "src"
    elif args.old is None or args.new is None:
        ap.error("give --old and --new, or --builds")
    positions = pick_positions()
    rates: dict[str, dict[tuple[str, str, str], list[float]]] = {"old": {}, "new": {}}
    for r in range(args.rounds):
        order = [("old", args.old), ("new", args.new)]
        if r % 2:
            order.reverse()
        for label, src in order:
            pure = None if not args.builds else label == "old"
            for game, stage, name, rate, _ in run_child(src, positions, args.seconds, pure):
                rates[label].setdefault((str(game), str(stage), str(name)), []).append(float(rate))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    print(f"{'game':<13}{'stage':<8}{'search':<8}{'old it/s':>10}{'new it/s':>10}{'new/old':>9}")
    ratios = []
    for key in rates["old"]:
        old, new = statistics.median(rates["old"][key]), statistics.median(rates["new"][key])
        ratios.append(new / old)
        print(f"{key[0]:<13}{key[1]:<8}{key[2]:<8}{old:>10.0f}{new:>10.0f}{new / old:>9.3f}")
    print(f"median ratio {statistics.median(ratios):.3f}, lowest {min(ratios):.3f} ({args.rounds} rounds, "
          f"median per cell)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
