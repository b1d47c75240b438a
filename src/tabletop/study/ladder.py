"""The skill ladder: how much skill matters against luck, per game and player count.

The ladder's rungs are the random agent, the heuristic, the search at two stated budgets a move, and every trained
policy shipped for the game and player count (found by listing `tabletop.agents.policy.shipped_policies`, so a new
policy joins without a code change). Every ordered pair plays an arena: the row agent in one seat, the column agent
in the others, seats rotated on each deal; the figure is the row agent's share of the wins against its fair share
(1/players). In a cooperative game there is no opponent: each rung plays as the whole team and the figures are its
perfect-game rate and its mean score (Silencio: minus the cards left), which still tells teams apart where none
ends a game perfect.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.arena.stats import wilson, win_shares
from tabletop.core import game_info

BUDGETS = (0.05, 0.25)
"""The search's two stated budgets, in seconds a move."""


def ladder_agents(game: str, players: int, budgets: Sequence[float] = BUDGETS, folder: Path | None = None,
                  iters: Sequence[int] | None = None) -> list[str]:
    """The rungs, weakest first as designed: random, heuristic, the search at each budget, the shipped policies.
    With `iters` the search's budgets are iteration counts a move (the same on any machine), not seconds."""
    from tabletop.agents.policy import shipped_policies

    search = [f"ismcts:iters={i}" for i in iters] if iters is not None else [f"ismcts:time={b:g}" for b in budgets]
    return ["random", "heuristic", *search, *(f"policy:{s.name}" for s in shipped_policies(game, players, folder))]


@dataclass
class Ladder:
    """The ladder's results: per (row, column) the row agent's win shares and games (competitive), or per agent
    its perfect games and games, and its mean score per deal with the standard error (cooperative)."""

    game: str
    players: int
    agents: list[str]
    games: int
    pairs: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    team: dict[str, tuple[float, int]] = field(default_factory=dict)
    team_score: dict[str, tuple[float, float, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The results as JSON-ready data (`from_json` reads them back, so a figure is redrawn without playing)."""
        return {"game": self.game, "players": self.players, "agents": self.agents, "games": self.games,
                "pairs": [[a, b, w, n] for (a, b), (w, n) in self.pairs.items()],
                "team": [[a, w, n] for a, (w, n) in self.team.items()],
                "team_score": [[a, m, se, n] for a, (m, se, n) in self.team_score.items()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ladder:
        """The ladder `to_json` wrote."""
        return cls(str(data["game"]), int(data["players"]), [str(a) for a in data["agents"]], int(data["games"]),
                   {(str(a), str(b)): (float(w), int(n)) for a, b, w, n in data["pairs"]},
                   {str(a): (float(w), int(n)) for a, w, n in data["team"]},
                   {str(a): (float(m), float(se), int(n)) for a, m, se, n in data.get("team_score", [])})

    def rate(self, row: str, col: str) -> tuple[float, float, float]:
        """The row agent's win rate against the column agent's field, with its 95% Wilson interval."""
        w, n = self.pairs[row, col]
        lo, hi = wilson(w, n)
        return w / n, lo, hi


def run_ladder(game: str, players: int, games: int, seed: int = 0, workers: int = 1,
               agents: Sequence[str] | None = None, progress: bool = False) -> Ladder:
    """Play the ladder: `games` games per ordered pair (competitive) or `games` deals per agent (cooperative)."""
    from tabletop.arena.runner import run_arena

    rungs = list(agents) if agents is not None else ladder_agents(game, players)
    out = Ladder(game, players, rungs, games)
    if game_info(game).cooperative:
        for a in rungs:
            # The arena plays each deal once per seat rotation, which for one agent in every seat is the same deal
            # again: `games` deals are `games * players` games, and each deal counts once (its games' mean), so the
            # interval is over independent deals.
            r = run_arena(game, [a], games * players, players=players, workers=workers, seed=seed,
                          progress=progress)
            deals: dict[int, list[float]] = {}
            scores: dict[int, list[float]] = {}
            for o in r.outcomes:
                deals.setdefault(o.seed, []).append(float(bool(o.winners)))
                scores.setdefault(o.seed, []).append(sum(o.scores) / len(o.scores))  # the team's: every seat's
            out.team[a] = (sum(sum(v) / len(v) for v in deals.values()), len(deals))
            means = [sum(v) / len(v) for v in scores.values()]
            m = sum(means) / len(means)
            se = math.sqrt(sum((x - m) ** 2 for x in means) / (len(means) - 1) / len(means)) if len(means) > 1 else 0.0
            out.team_score[a] = (m, se, len(means))
        return out
    for i, a in enumerate(rungs):
        for j, b in enumerate(rungs):
            if i == j or (players == 2 and (b, a) in out.pairs):
                continue
            r = run_arena(game, [a, b], games, players=players, workers=workers, seed=seed, progress=progress)
            w, v = 0.0, 0.0
            for o in r.outcomes:  # `a` holds one seat (rotated), `b` the others
                shares = win_shares(len(o.specs), o.winners)
                w += sum(s for s, spec in zip(shares, o.specs, strict=True) if spec == a)
                v += sum(s for s, spec in zip(shares, o.specs, strict=True) if spec == b)
            out.pairs[a, b] = (w, len(r.outcomes))
            if players == 2:  # two seats: the same games, seen from the other seat, are the pair (b, a)
                out.pairs[b, a] = (v, len(r.outcomes))
    return out


def ladder_figure(ladder: Ladder, path: Path) -> str:
    """Draw the ladder as a heatmap (or, cooperative, bars) at `path` and return the sentence stating its finding."""
    import matplotlib
    from matplotlib.figure import Figure

    from tabletop.study.style import FONTS, PAGE_INCHES

    names = [a.replace("ismcts:time=", "search ").replace("ismcts:iters=", "search ").replace("policy:", "policy ")
             + (" s" if a.startswith("ismcts:time=") else " iters" if a.startswith("ismcts:iters=") else "")
             for a in ladder.agents]
    with matplotlib.rc_context(FONTS):
        wide = (1.6 * len(names) + 3) * (1.6 if ladder.team_score else 1)  # two panels side by side
        fig = Figure(figsize=(min(PAGE_INCHES, wide), 1.0 * len(names) + 1.6), layout="constrained")
        ax, side = fig.subplots(1, 2) if ladder.team_score else (fig.subplots(), None)
        if ladder.team:
            rates = [ladder.team[a][0] / ladder.team[a][1] for a in ladder.agents]
            cis = [wilson(*ladder.team[a]) for a in ladder.agents]
            ax.bar(names, [100 * r for r in rates], yerr=[[max(0.0, 100 * (r - lo)) for r, (lo, _) in zip(rates, cis,
                   strict=True)], [max(0.0, 100 * (hi - r)) for r, (_, hi) in zip(rates, cis, strict=True)]], capsize=4)
            ax.set_ylabel("perfect games (%), 95% CI")
            ax.tick_params(axis="x", labelrotation=30)
            score = ladder.team_score
            # the best by perfect games, ties broken by the mean score (where no team is ever perfect, the score)
            best = max(range(len(rates)), key=lambda i: (rates[i], score.get(ladder.agents[i], (0.0, 0.0, 0))[0]))
            words = (f"The best team is {names[best]}: {100 * rates[best]:.1f}% perfect games (95% CI "
                     f"{100 * cis[best][0]:.1f}-{100 * cis[best][1]:.1f}%)")
            if score and side is not None:
                unit = game_info(ladder.game).score_label
                means = [score[a][0] for a in ladder.agents]
                half = [1.96 * score[a][1] for a in ladder.agents]
                side.bar(names, means, yerr=half, capsize=4, color="tab:green")
                side.set_ylabel(f"mean {unit} a deal, 95% CI")
                side.tick_params(axis="x", labelrotation=30)
                top = max(range(len(means)), key=means.__getitem__)
                lo, hi = means[top] - half[top], means[top] + half[top]
                words += f"; by the mean {unit} a deal, {names[top]} at {means[top]:.2f} (95% CI {lo:.2f} to {hi:.2f})"
                if "random" in score and names[top] != "random":
                    words += f" against random's {score['random'][0]:.2f}"
            words += (f"; {ladder.games} deals per agent (each played {ladder.players} times, once per seat rotation, "
                      "and counted once).")
        else:
            fair = 1 / ladder.players
            grid = [[math.nan if a == b else 100 * ladder.rate(a, b)[0] for b in ladder.agents] for a in ladder.agents]
            im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100 * min(1.0, 2 * fair))
            for i, a in enumerate(ladder.agents):
                for j, b in enumerate(ladder.agents):
                    if a != b:
                        r, lo, hi = ladder.rate(a, b)
                        dark = abs(r - fair) > 0.6 * min(fair, 1 - fair)  # white on the deep colours
                        ax.text(j, i, f"{100 * r:.0f}%\n{100 * lo:.0f}-{100 * hi:.0f}", ha="center", va="center",
                                fontsize=10, color="white" if dark else "black")
            ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
            ax.set_yticks(range(len(names)), names)
            ax.set_xlabel("against (every other seat)")
            ax.set_ylabel("agent (one seat)")
            fig.colorbar(im, ax=ax, label=f"win rate (%), fair {100 * fair:.0f}%")
            label = dict(zip(ladder.agents, names, strict=True))

            def pair(x: str, y: str) -> str:
                r, lo, hi = ladder.rate(x, y)
                return f"{label[x]} against {label[y]} wins {100 * r:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"

            first = ("heuristic", "random") if {"heuristic", "random"} <= set(ladder.agents) else \
                (ladder.agents[-1], ladder.agents[0])
            words = f"{pair(*first)} against a fair {100 * fair:.0f}%"
            mean = {x: sum(ladder.rate(x, y)[0] for y in ladder.agents if y != x) / (len(ladder.agents) - 1)
                    for x in ladder.agents}
            strongest = max(ladder.agents, key=lambda x: (mean[x], x))
            rival = max((x for x in ladder.agents if x != strongest and x != "random"), key=lambda x: (mean[x], x),
                        default=None)
            if rival is not None and (strongest, rival) != first:
                r, lo, hi = ladder.rate(strongest, rival)
                words += (f"; the strongest rung, {label[strongest]} (a mean win rate of "
                          f"{100 * mean[strongest]:.0f}% against the others), against {label[rival]} wins "
                          f"{100 * r:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
            words += f"; {ladder.games} games per pair."
        fig.suptitle(f"{game_info(ladder.game).title}, {ladder.players} players")
        fig.savefig(path, dpi=110)
    return words + " Agents are not people: the ladder measures how far play can move the result, not how far " \
        "people will."
