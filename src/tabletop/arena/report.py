"""The arena's tables, drawn with rich."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletop.arena.runner import ArenaResult
from tabletop.core import game_info


def _secs(seconds: float) -> str:
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def _team(lineup: list[str]) -> str:
    counts: dict[str, int] = {}
    for spec in lineup:
        counts[spec] = counts.get(spec, 0) + 1
    return " + ".join(spec if n == 1 else f"{n}× {spec}" for spec, n in counts.items())


def agent_table(result: ArenaResult) -> Table:
    """One row per agent: seat-games, wins with 95% interval, mean score and place, rating, decision time."""
    s = result.summary
    info = game_info(result.game)
    title = f"{info.title}, {len(result.lineup)} players: {s.games} of {result.planned} games"
    if result.interrupted:
        title += " (interrupted)"
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    t.add_column("agent", overflow="fold", min_width=min(32, max(len(a.spec) for a in s.agents) if s.agents else 5))
    t.add_column("games", justify="right")
    t.add_column("wins (%, 95% CI)", justify="right", no_wrap=True)
    t.add_column(info.score_label, justify="right")
    t.add_column("place", justify="right")
    t.add_column("rating", justify="right")
    t.add_column("s/move", justify="right")
    for a in sorted(s.agents, key=lambda a: -a.ordinal):
        lo, hi = a.win_ci
        t.add_row(
            a.spec,
            str(a.games),
            f"{a.wins:g} ({a.win_rate:.1%}, {lo:.0%}-{hi:.0%})"
            if a.wins == int(a.wins)
            else f"{a.wins:.2f} ({a.win_rate:.1%}, {lo:.0%}-{hi:.0%})",
            f"{a.mean_score:.2f}",
            f"{a.mean_place:.2f}",
            f"{a.mu:.1f}±{a.sigma:.1f}",
            _secs(a.mean_decision_seconds),
        )
    return t


def team_table(result: ArenaResult) -> Table:
    """Cooperative games: the team's mean score and perfect-game rate."""
    s = result.summary
    lo, hi = s.perfect_ci
    title = f"{game_info(result.game).title}, {len(result.lineup)} players: {s.games} of {result.planned} games"
    title += " (interrupted)" if result.interrupted else ""
    t = Table(title=title + ", one team (cooperative)", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
              collapse_padding=True)
    t.add_column("team", overflow="fold")
    t.add_column("games", justify="right")
    t.add_column(f"mean team {game_info(result.game).score_label}", justify="right")
    t.add_column("perfect", justify="right")
    t.add_column("perfect % (95% CI)", justify="right", no_wrap=True)
    t.add_row(
        _team(result.lineup),
        str(s.games),
        f"{s.team_score:.3f}",
        str(s.perfect),
        f"{s.perfect_rate:.1%} ({lo:.0%}-{hi:.0%})",
    )
    return t


def render_result(result: ArenaResult) -> RenderableType:
    """Every table of a result."""
    # cooperative: every seat shares the result, so per-agent wins and ratings mean nothing: the team table only
    parts: list[RenderableType] = [team_table(result) if result.summary.cooperative else agent_table(result)]
    uneven = result.summary.games % len(result.lineup) and len(set(result.lineup)) > 1
    if uneven:
        parts.append(
            Text(
                f"note: {result.summary.games} games is not a multiple of {len(result.lineup)} seats, "
                "so seats were not rotated equally",
                style="yellow",
            )
        )
    return Group(*parts)
