"""Statistics of a tournament: places, fair win shares, Wilson intervals, openskill ratings, per-agent summaries."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion `successes / n` (successes may be fractional: shared wins).

    Returns (0, 1) when n is 0.
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def places(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Each seat's place (1 = first): winners first, then by score; equal seats share the better place."""
    keys = [(p in winners, scores[p]) for p in range(len(scores))]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def win_shares(players: int, winners: Sequence[int]) -> list[float]:
    """Each seat's share of the win: 1/k for each of k winners (a shared win is counted fairly), else 0."""
    out = [0.0] * players
    for p in winners:
        out[p] = 1.0 / len(winners)
    return out


@dataclass
class GameOutcome:
    """The result of one arena game, JSON-ready through `to_json`."""

    index: int
    seed: int
    specs: list[str]  # agent spec of each seat
    scores: list[float]
    winners: list[int]
    decisions: list[int]
    seconds: list[float]
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def places(self) -> list[int]:
        """Each seat's place."""
        return places(self.scores, self.winners)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (one line of `--out`)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "specs": self.specs,
            "scores": self.scores,
            "winners": self.winners,
            "places": self.places,
            "decisions": self.decisions,
            "seconds": [round(s, 6) for s in self.seconds],
            "record": self.record,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOutcome:
        """The outcome a `to_json` dict describes."""
        return cls(
            int(data["index"]),
            int(data["seed"]),
            list(data["specs"]),
            [float(s) for s in data["scores"]],
            [int(w) for w in data["winners"]],
            [int(d) for d in data["decisions"]],
            [float(s) for s in data["seconds"]],
            dict(data.get("record", {})),
        )


@dataclass
class AgentStats:
    """One agent's figures over a tournament (an agent is a distinct spec string; each seat it held counts)."""

    spec: str
    games: int = 0  # seat-games played
    wins: float = 0.0  # shared wins count 1/k
    score_sum: float = 0.0
    place_sum: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def win_rate(self) -> float:
        """Wins per seat-game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_ci(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final score."""
        return self.score_sum / self.games if self.games else 0.0

    @property
    def mean_place(self) -> float:
        """Mean place (1 = first)."""
        return self.place_sum / self.games if self.games else 0.0

    @property
    def mean_decision_seconds(self) -> float:
        """Mean thinking time per decision."""
        return self.seconds / self.decisions if self.decisions else 0.0

    @property
    def ordinal(self) -> float:
        """A conservative rating, mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass
class Summary:
    """Per-agent figures, and team figures for a cooperative game."""

    agents: list[AgentStats]
    games: int
    cooperative: bool
    team_score: float = 0.0  # cooperative: mean over games of the team's (mean seat) score
    perfect: int = 0  # cooperative: games the team won

    @property
    def perfect_rate(self) -> float:
        """Share of games won by the team."""
        return self.perfect / self.games if self.games else 0.0

    @property
    def perfect_ci(self) -> tuple[float, float]:
        """95% Wilson interval of the perfect-game rate."""
        return wilson(self.perfect, self.games)


def summarize(outcomes: Iterable[GameOutcome], lineup: Sequence[str], cooperative: bool) -> Summary:
    """Per-agent figures over `outcomes` (processed in game-index order, so ratings are reproducible).

    Ratings use openskill's Plackett-Luce model, one update per game with each seat a one-player team ranked by
    its place. In a cooperative game a team win counts as a whole win for every seat (a shared win splits only
    among rivals). When one agent holds several seats of a game, each seat is rated as a copy of the agent and the
    agent's new mu and sigma are the means over its copies.
    """
    ordered = sorted(outcomes, key=lambda o: o.index)
    model = PlackettLuce()
    stats: dict[str, AgentStats] = {}
    for spec in lineup:
        stats.setdefault(spec, AgentStats(spec, mu=model.mu, sigma=model.sigma))
    team_total = 0.0
    perfect = 0
    for o in ordered:
        pl = o.places
        for seat, spec in enumerate(o.specs):
            a = stats.setdefault(spec, AgentStats(spec, mu=model.mu, sigma=model.sigma))
            a.games += 1
            a.score_sum += o.scores[seat]
            a.place_sum += pl[seat]
            a.decisions += o.decisions[seat]
            a.seconds += o.seconds[seat]
        shares = [1.0 if p in o.winners else 0.0 for p in range(len(o.specs))] if cooperative else None
        for seat, share in enumerate(shares or win_shares(len(o.specs), o.winners)):
            stats[o.specs[seat]].wins += share
        _rate(model, stats, o.specs, pl)
        team_total += sum(o.scores) / len(o.scores)
        perfect += bool(o.winners)
    n = len(ordered)
    return Summary(
        list(stats.values()),
        n,
        cooperative,
        team_score=team_total / n if n else 0.0,
        perfect=perfect if cooperative else 0,
    )


def _rate(model: Any, stats: dict[str, AgentStats], specs: Sequence[str], pl: Sequence[int]) -> None:
    teams = [[model.rating(mu=stats[s].mu, sigma=stats[s].sigma)] for s in specs]
    new = model.rate(teams, ranks=list(pl))
    by_spec: dict[str, list[tuple[float, float]]] = {}
    for seat, spec in enumerate(specs):
        r = new[seat][0]
        by_spec.setdefault(spec, []).append((float(r.mu), float(r.sigma)))
    for spec, rs in by_spec.items():
        stats[spec].mu = sum(m for m, _ in rs) / len(rs)
        stats[spec].sigma = sum(s for _, s in rs) / len(rs)
