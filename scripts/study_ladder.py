"""The skill ladder of a game and player count (tabletop.study.ladder): every ordered pair of random, heuristic,
the search at 0.05 and 0.25 s a move and every shipped policy for the game and player count, as a heatmap and a
table in OUT (ladder.png, ladder.md).

    .venv/bin/python scripts/study_ladder.py --game silos --players 2 --games 40 --workers 2 --out ladder-silos-2p
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from tabletop.study.ladder import Ladder, ladder_agents, ladder_figure, run_ladder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=40, help="games per ordered pair (per agent when cooperative)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--iters", help="the search's budgets as iterations a move, comma-separated (e.g. 50,200): the "
                    "same on any machine; default: 0.05 and 0.25 s a move")
    ap.add_argument("--agents", help="the rungs, comma-separated specs (default: the ladder's own)")
    ap.add_argument("--results", type=Path, help="redraw from this ladder.json (of the same arguments) without playing")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    iters = [int(x) for x in a.iters.split(",")] if a.iters else None
    rungs = a.agents.split(",") if a.agents else ladder_agents(a.game, a.players, iters=iters)
    if a.results is not None:
        ladder = Ladder.from_json(json.loads(a.results.read_text(encoding="utf-8")))
    else:
        ladder = run_ladder(a.game, a.players, a.games, seed=a.seed, workers=a.workers, agents=rungs, progress=True)
    (a.out / "ladder.json").write_text(json.dumps(ladder.to_json(), indent=1) + "\n", encoding="utf-8")
    words = ladder_figure(ladder, a.out / "ladder.png")
    per = "deals per agent" if ladder.team else "games per pair"
    lines = [f"# Skill ladder: {ladder.game}, {ladder.players} players, {ladder.games} {per}", "", words, ""]
    if ladder.team:
        lines += ["| agent (whole team) | perfect deals (each deal's mean over its games) | mean score a deal (95% CI) "
                  "| deals |", "|---|---|---|---|"]
        for k, (w, n) in ladder.team.items():
            m, se, _ = ladder.team_score.get(k, (math.nan, math.nan, 0))
            lines.append(f"| {k} | {w:g} | {m:.2f} ({m - 1.96 * se:.2f} to {m + 1.96 * se:.2f}) | {n} |")
    else:
        lines += ["| agent (one seat) | against (the others) | win rate (95% CI) | games |", "|---|---|---|---|"]
        for (x, y), (_, n) in ladder.pairs.items():
            r, lo, hi = ladder.rate(x, y)
            lines.append(f"| {x} | {y} | {100 * r:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) | {n} |")
    (a.out / "ladder.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
