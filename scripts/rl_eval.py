#!/usr/bin/env python3
"""Measure a shipped policy against the heuristic (`medium`) and write the results into its model card.

    nice -n 15 .venv/bin/python scripts/rl_eval.py silos-3p --games 200 [--seed 1] [--no-write]
    nice -n 15 .venv/bin/python scripts/rl_eval.py runs/silos-2p.npz --games 200   # a candidate, before shipping

The evaluation protocol (docs/rl.md, "Shipped policies"):

- competitive games: one policy seat among `players - 1` `medium` seats; game g puts the policy at seat
  g mod players (seat rotation), on the deal `new_game(game, players, seed + g)`, the opponents seeded from g; a
  shared win counts 1/k. Greedy and sampled are measured on the same deals. The figure is the policy's win share
  with a 95% interval (normal approximation of the mean of per-game shares, 1.96 standard errors), beside the fair
  share 1/players and the target (0.60 with 2 players, 1.5/players otherwise);
- Silencio (cooperative): the policy team (every seat the policy) and the heuristic team play the same deals; the
  figure is the mean cards left of each and the paired difference (95% interval); then cross-play, one policy seat
  (rotated) among heuristic teammates, against the heuristic team on the same deals.

The card (`NAME.toml` beside `NAME.npz`) gets a `[results]` table (replacing one there): the figures, the games,
the seed, the command, and `play`, the mode (greedy or sampled) that measured stronger, which `policy:NAME`
plays by default and by which the lobby and `tabletop.agents.policy.ladder` place it among the levels.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tabletop.agents import make_agent
from tabletop.agents.policy import Shipped, find_shipped, load_policy, policy_agent, shipped_policies
from tabletop.core import SeatHandle, game_info, new_game


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (1.96 standard errors)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def play(game: str, players: int, seed: int, agents: Sequence[Any], limit: int = 5000) -> list[int]:
    """Play one game on the deal `seed`; the winners."""
    state = new_game(game, players, seed)
    handles = [SeatHandle(state, p) for p in range(players)]
    for _ in range(limit):
        p = state.to_move
        if p is None:
            break
        state.apply(agents[p].act(handles[p]))
    return list(state.winners()) if state.to_move is None else []


def cards_left(game: str, players: int, seed: int, agents: Sequence[Any]) -> float:
    state = new_game(game, players, seed)
    handles = [SeatHandle(state, p) for p in range(players)]
    while state.to_move is not None:
        p = state.to_move
        state.apply(agents[p].act(handles[p]))
    return float(-state.scores()[0])


def out_of_time(args: argparse.Namespace, started: float, g: int, n: int) -> bool:
    """Whether the --minutes budget is spent, checked after game g at a whole rotation of the seats."""
    return bool(args.minutes) and (g + 1) % n == 0 and time.perf_counter() - started > args.minutes * 60


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("name", help="a shipped policy (file name, or <game>-<n>p), or the path of a .npz weights file "
                                 "(its card is the .toml beside it)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1_000_000, help="the first deal (deals seed, seed+1, ...)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave the card as it is")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="stop early after this wall-clock time, at a whole rotation of the seats (0: never)")
    args = ap.parse_args()
    if args.name.endswith(".npz"):
        if not Path(args.name).is_file():
            ap.error(f"no weights file {args.name!r}")
        net = load_policy(args.name)
        shipped = Shipped(Path(args.name).stem, net.game, net.players, Path(args.name))
    else:
        found = [s for s in shipped_policies() if args.name in (s.name, f"{s.game}-{s.players}p")]
        if not found:
            ap.error(f"no shipped policy {args.name!r}; shipped: {', '.join(s.name for s in shipped_policies())}")
        shipped = find_shipped(args.name, found[0].game)
        net = load_policy(shipped.path)
    game, n = shipped.game, shipped.players
    coop = game_info(game).cooperative
    started = time.perf_counter()
    results: dict[str, object] = {"opponent": "medium", "games": args.games, "first_deal": args.seed}
    table = Table(title=f"{shipped.name}: {game_info(game).title}, {n} players, {args.games} games per row "
                        f"(deals {args.seed}..{args.seed + args.games - 1})")
    with Progress(transient=True) as bar:
        if coop:
            task = bar.add_task("team games", total=args.games * 4)
            base: list[float] = []
            team: list[float] = []
            cross_g: list[float] = []
            cross_s: list[float] = []
            for g in range(args.games):
                deal = args.seed + g
                heur = [make_agent("heuristic", game, 7919 * g + p) for p in range(n)]
                base.append(cards_left(game, n, deal, heur))
                bar.advance(task)
                for sample, out in ((False, team), (True, None)):
                    agents = [policy_agent(game, net, 31 * g + p, sample=sample) for p in range(n)]
                    left = cards_left(game, n, deal, agents)
                    if out is not None:
                        out.append(left)
                    else:
                        cross_s.append(left)  # the sampled team, kept apart below
                    bar.advance(task)
                mixed = [make_agent("heuristic", game, 7919 * g + p) for p in range(n)]
                mixed[g % n] = policy_agent(game, net, 31 * g, sample=False)
                cross_g.append(cards_left(game, n, deal, mixed))
                bar.advance(task)
                if out_of_time(args, started, g, n):
                    break
        else:
            task = bar.add_task("games", total=args.games * 2)
            wins: dict[str, list[float]] = {"greedy": [], "sampled": []}
            for g in range(args.games):
                me = g % n
                for mode in ("greedy", "sampled"):
                    seats: list[Any] = [make_agent("heuristic", game, 7919 * g + p) for p in range(n)]
                    seats[me] = policy_agent(game, net, 31 * g, sample=mode == "sampled")
                    winners = play(game, n, args.seed + g, seats)
                    wins[mode].append(1.0 / len(winners) if me in winners else 0.0)
                    bar.advance(task)
                if out_of_time(args, started, g, n):
                    break
    seconds = time.perf_counter() - started
    played = len(base) if coop else len(wins["greedy"])
    results["games"] = played
    if played < args.games:
        table.title = f"{table.title} [stopped after {played} games: --minutes {args.minutes}]"
    if coop:
        sampled_team = cross_s
        table.add_column("team")
        table.add_column("cards left (mean, 95%)")
        table.add_column("policy - heuristic (paired, 95%)")
        b = interval(base)
        table.add_row("heuristic team (medium)", f"{b[0]:.2f} [{b[1]:.2f}, {b[2]:.2f}]", "")
        best: tuple[float, str] | None = None
        for label, rows, key in (("policy team, greedy", team, "greedy"), ("policy team, sampled", sampled_team,
                                                                           "sampled"),
                                 ("1 policy seat (greedy) + heuristic", cross_g, "cross")):
            m = interval(rows)
            d = interval([a - h for a, h in zip(rows, base, strict=True)])
            table.add_row(label, f"{m[0]:.2f} [{m[1]:.2f}, {m[2]:.2f}]", f"{d[0]:+.2f} [{d[1]:+.2f}, {d[2]:+.2f}]")
            results[f"{key}_cards_left"] = round(m[0], 3)
            results[f"{key}_diff_low"], results[f"{key}_diff_high"] = round(d[1], 3), round(d[2], 3)
            if key != "cross" and (best is None or m[0] < best[0]):
                best = (m[0], key)
        assert best is not None
        results["medium_cards_left"] = round(b[0], 3)
        results["team_cards_left"] = round(best[0], 3)
        results["play"] = best[1]
    else:
        fair, target = 1.0 / n, (0.6 if n == 2 else 1.5 / n)
        table.add_column("policy")
        table.add_column("win share (95%)")
        table.add_column("fair share")
        table.add_column("target")
        table.add_column("vs target")
        for mode in ("greedy", "sampled"):
            m = interval(wins[mode])
            table.add_row(mode, f"{m[0]:.3f} [{m[1]:.3f}, {m[2]:.3f}]", f"{fair:.3f}", f"{target:.3f}",
                          "met" if m[0] >= target else f"missed by {target - m[0]:.3f}")
            results[f"{mode}_win"] = round(m[0], 4)
            results[f"{mode}_low"], results[f"{mode}_high"] = round(m[1], 4), round(m[2], 4)
        results["target"] = round(target, 4)
        results["play"] = "sampled" if results["sampled_win"] > results["greedy_win"] else "greedy"  # type: ignore[operator]
    results["seconds"] = round(seconds, 1)
    results["command"] = " ".join(shlex.quote(a) for a in ["scripts/rl_eval.py", *sys.argv[1:]])
    results["machine"] = (f"{os.cpu_count()} cores shared with other jobs, nice {os.nice(0)}, load average "
                          f"{os.getloadavg()[0]:.1f} at the end")
    Console(width=120).print(table)
    if not args.no_write:
        write_results(shipped.path.with_suffix(".toml"), results)


def write_results(card: Path, results: dict[str, object]) -> None:
    """Replace the card's `[results]` table (everything from its header to the end) with `results`."""
    text = card.read_text(encoding="utf-8") if card.exists() else ""
    head = text.split("\n[results]\n")[0].rstrip("\n")
    lines = ["", "[results]"]
    for k, v in results.items():
        lines.append(f"{k} = {json.dumps(v)}")
    card.write_text(head + "\n" + "\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
