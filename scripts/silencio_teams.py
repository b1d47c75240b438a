"""Silencio teams on the same deals: every team (one agent spec at every seat) plays every deal, interleaved.

For each deal the teams play one after the other (their order alternating from deal to deal), so a team that
searches for a fixed time per move meets the same machine load as the other, on average. Prints per team the mean
cards left with its 95% interval, the perfect games with their Wilson 95% interval, thinking time per decision, and
for every team after the first the paired difference to the first team (mean and 95% interval over the deals).

    nice -n 5 .venv/bin/python scripts/silencio_teams.py --players 3 --deals 100 \\
        --teams ismcts:time=0.25 team:time=0.25 --out silencio3.jsonl --plot silencio3.png

A team is one spec for every seat (`team:time=0.25`) or one spec per seat joined by `+` (a mixed team,
`team:time=0.25+heuristic+heuristic`: as many specs as players); a mixed team's seats are rotated from deal to deal
(deal k seats the specs from seat k mod players on), so the first spec plays every seat equally often.
`proxy:err=0.2` is a human proxy: the heuristic, but with probability `err` a move any legal action (a person's
slip, which follows no convention). The issue-28 comparison (issue 28 in docs/silencio-team.md):

    nice -n 15 .venv/bin/python scripts/silencio_teams.py --players 3 --deals 100 --seed 28 --teams \
        heuristic+heuristic+heuristic team:time=0.25,partners=convention+heuristic+heuristic \
        team:time=0.25+heuristic+heuristic --out mixed3.jsonl

`--out` keeps every game as a JSON line (deal, team, cards left, decisions, seconds) and a rerun with the same
file skips the games already in it, so a long run can be stopped and resumed. `--seed 4 6 --deals 50` plays 50
deals of each seed (the same deals as `--seed 4` and `--seed 6` alone) and reports them together, so runs made one
seed at a time (on two cores, say) can be pooled by concatenating their `--out` files.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import tabletop
from tabletop.agents import InvalidAgentSpec, make_agent, play_game
from tabletop.agents.base import Agent
from tabletop.agents.spec import Params, register_kind
from tabletop.arena.schedule import derive_seed
from tabletop.arena.stats import wilson
from tabletop.core import Action, Rng, SeatHandle, TabletopError
from tabletop.games.silencio.heuristic import HeuristicAgent

T95 = {n: t for n, t in [(10, 2.228), (20, 2.086), (30, 2.042), (50, 2.009), (100, 1.984), (1000, 1.962)]}


def t95(n: int) -> float:
    """The two-sided 95% Student t quantile for n - 1 degrees of freedom (table, rounded up)."""
    for k in sorted(T95):
        if n - 1 <= k:
            return T95[k]
    return 1.96


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval."""
    if not xs:
        return math.nan, math.nan
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.inf
    return m, t95(len(xs)) * statistics.stdev(xs) / math.sqrt(len(xs))


def play(spec: str, players: int, deal_seed: int, team_index: int, options: dict[str, Any],
         deal_index: int = 0) -> dict[str, Any]:
    """One game of a team on a deal; a game in which an agent fails is replayed with other agent seeds (at most
    three times), and the row says how many attempts it took."""
    errors: list[str] = []
    for attempt in range(4):
        try:
            row = play_once(spec, players, deal_seed, team_index, options, attempt, deal_index)
        except Exception as e:  # an agent's bug must not end a long run: counted and reported instead
            errors.append(f"{type(e).__name__}: {e}"[:200])
            continue
        row["failed_attempts"] = errors
        return row
    raise RuntimeError(f"{spec} failed 4 times on deal {deal_seed}: {errors}")


class ProxyAgent:
    """A human proxy: the heuristic, but with probability `err` a move any legal action instead."""

    name = "proxy"

    def __init__(self, seed: int, err: float) -> None:
        self._heuristic = HeuristicAgent(seed)
        self._rng = Rng(seed ^ 0x9E3779B97F4A7C15)
        self.err = err

    def act(self, seat: SeatHandle) -> Action:
        """The heuristic's choice, or with probability `err` a uniformly random legal action."""
        legal = seat.legal_actions()
        if len(legal) > 1 and (self._rng.next64() >> 11) * (1.0 / (1 << 53)) < self.err:
            return legal[self._rng.below(len(legal))]
        return self._heuristic.act(seat)


def _proxy_factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    p = Params("proxy", params, ("err",), game)
    err = p.number("err", positive=False)
    err = 0.2 if err is None else err
    if not 0.0 <= err <= 1.0:
        raise InvalidAgentSpec(f"proxy: err must be between 0 and 1, not {err}")
    return ProxyAgent(seed, err)


register_kind("proxy", _proxy_factory)


def seat_specs(team: str, players: int, deal_index: int) -> list[str]:
    """The spec of every seat of a team on the deal_index-th deal: one spec everywhere, or a mixed team's specs
    rotated by deal_index (InvalidAgentSpec when a mixed team has not one spec per player)."""
    parts = team.split("+")
    if len(parts) == 1:
        return parts * players
    if len(parts) != players:
        raise InvalidAgentSpec(f"the mixed team {team!r} has {len(parts)} specs for {players} players")
    k = deal_index % players
    return [parts[(s - k) % players] for s in range(players)]


def play_once(spec: str, players: int, deal_seed: int, team_index: int, options: dict[str, Any],
              attempt: int, deal_index: int = 0) -> dict[str, Any]:
    """One game of a team on a deal, its agents seeded from the deal, the team and the attempt."""
    state = tabletop.new_game("silencio", players, deal_seed, options)
    keys = [(team_index, s) if attempt == 0 else (team_index, s, attempt) for s in range(players)]
    specs = seat_specs(spec, players, deal_index)
    agents = [make_agent(specs[s], "silencio", derive_seed(deal_seed, *k)) for s, k in enumerate(keys)]
    searched = [0, 0]  # decisions searched, iterations in them
    seen: list[Any] = [None] * players
    mixed = "+" in spec
    first = {s for s in range(players) if not mixed or specs[s] == spec.split("+")[0]}

    def observe(_state: Any, seat: int, _action: Any) -> None:
        if mixed and seat not in first:
            return  # the search figures are those of the team's first spec (its seats, in a mixed team)
        search = getattr(agents[seat], "last_search", None)
        if search is not None and search is not seen[seat] and search.iterations:
            searched[0] += 1
            searched[1] += search.iterations
        seen[seat] = search

    t0 = time.perf_counter()
    result = play_game(state, agents, observe)
    return {
        "deal": deal_seed, "team": spec, "players": players, "cards_left": state.cards_left(),
        "decisions": sum(result.decisions[s] for s in first),
        "seconds": round(sum(result.seconds[s] for s in first), 3),
        "searched": searched[0], "iterations": searched[1], "wall": round(time.perf_counter() - t0, 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the teams on the deals and print the table (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--teams", nargs="+", default=["ismcts:time=0.25", "team:time=0.25"],
                    help="agent specs, one team each (the first is the baseline of the paired differences)")
    ap.add_argument("--players", type=int, default=3, help="2, 3 or 4")
    ap.add_argument("--deals", type=int, default=100, help="deals every team plays (per seed)")
    ap.add_argument("--seed", type=int, nargs="+", default=[0],
                    help="fixes the deals and the agents' seeds; several seeds play --deals deals each")
    ap.add_argument("--out", type=Path, help="JSON lines of every game; games already in it are not replayed")
    ap.add_argument("--plot", type=Path, help="also draw the cards left per team (PNG)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    console = Console(stderr=True)
    if args.players not in (2, 3, 4) or args.deals < 1:
        console.print("[red]--players must be 2, 3 or 4 and --deals at least 1[/red]")
        return 2
    try:
        for spec in args.teams:
            for one in seat_specs(spec, args.players, 0):
                make_agent(one, "silencio", 0)
    except (InvalidAgentSpec, TabletopError) as e:
        console.print(f"[red]{e}[/red]")
        return 2
    deals = [derive_seed(seed, d) for seed in args.seed for d in range(args.deals)]
    done: dict[tuple[int, str], dict[str, Any]] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            if row.get("players") == args.players:
                done[(row["deal"], row["team"])] = row
    index = {d: k for k, d in enumerate(deals)}
    todo = [(d, i, spec) for k, d in enumerate(deals)
            for i, spec in (enumerate(args.teams) if k % 2 == 0 else reversed(list(enumerate(args.teams))))
            if (d, spec) not in done]
    out = args.out.open("a") if args.out else None
    with Progress(TextColumn("silencio {task.fields[players]}p"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=args.no_progress) as bar:
        task = bar.add_task("games", total=len(todo), players=args.players)
        try:
            for d, i, spec in todo:
                row = play(spec, args.players, d, i, {}, index[d] % args.deals)
                done[(d, spec)] = row
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                bar.advance(task)
        except KeyboardInterrupt:
            console.print("[yellow]interrupted: the games finished so far are counted[/yellow]")
        finally:
            if out:
                out.close()
    report(args.teams, deals, done, args.players, args.plot)
    return 0


def report(teams: list[str], deals: list[int], done: dict[tuple[int, str], dict[str, Any]], players: int,
           plot: Path | None) -> None:
    """The table of the teams (and the plot)."""
    table = Table(title=f"Silencio, {players} players, same deals for every team")
    for col in ("team", "deals", "mean cards left (95%)", "perfect (Wilson 95%)", "s/decision",
                "iterations/search", "Δ cards vs first (95%)"):
        table.add_column(col, justify="left" if col == "team" else "right")
    base = teams[0]
    lefts: dict[str, list[int]] = {}
    for spec in teams:
        rows = [done[(d, spec)] for d in deals if (d, spec) in done]
        left = [r["cards_left"] for r in rows]
        lefts[spec] = left
        if not rows:
            table.add_row(spec, "0", "-", "-", "-", "-", "-")
            continue
        m, h = mean_ci([float(x) for x in left])
        perfect = sum(1 for x in left if x == 0)
        lo, hi = wilson(perfect, len(left))
        per = sum(r["seconds"] for r in rows) / max(1, sum(r["decisions"] for r in rows))
        paired = [done[(d, spec)]["cards_left"] - done[(d, base)]["cards_left"] for d in deals
                  if (d, spec) in done and (d, base) in done]
        dm, dh = mean_ci([float(x) for x in paired])
        its = sum(r.get("iterations", 0) for r in rows) / max(1, sum(r.get("searched", 0) for r in rows))
        diff = "-" if spec == base else f"{dm:+.2f} ± {dh:.2f} ({len(paired)})"
        rate = f"{perfect}/{len(left)} = {perfect / len(left):.0%} [{lo:.0%}, {hi:.0%}]"
        table.add_row(spec, str(len(rows)), f"{m:.2f} ± {h:.2f}", rate, f"{per:.3f}", f"{its:.0f}", diff)
    Console(width=160).print(table)
    for spec in teams:
        failed = [e for d in deals if (d, spec) in done for e in done[(d, spec)].get("failed_attempts", [])]
        if failed:
            Console(width=160).print(f"{spec}: {len(failed)} game(s) replayed with other agent seeds after an "
                                     f"agent failed, e.g. {failed[0]}")
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        top = max((max(v) for v in lefts.values() if v), default=0)
        bins = [x - 0.5 for x in range(top + 2)]
        ax.hist([lefts[s] for s in teams], bins=bins, label=teams)
        ax.set_xlabel("cards left at the end")
        ax.set_ylabel("deals")
        ax.set_title(f"Silencio, {players} players, {len(deals)} deals, the same for every team")
        ax.legend()
        fig.tight_layout()
        fig.savefig(plot)
        plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
