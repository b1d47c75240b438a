"""Tournaments between agents: rotated seats, local processes, fair win shares, Wilson intervals, openskill ratings.

from tabletop.arena import run_arena
result = run_arena("silos", ["ismcts:time=1", "random"], games=40, players=4, workers=2, seed=1)
result.summary.agents  # per-agent figures
"""

from tabletop.arena.report import agent_table, render_result, team_table
from tabletop.arena.runner import ArenaResult, play_match, run_arena
from tabletop.arena.schedule import Match, derive_seed, lineup, schedule
from tabletop.arena.stats import AgentStats, GameOutcome, Summary, places, summarize, wilson, win_shares

__all__ = [
    "AgentStats",
    "ArenaResult",
    "GameOutcome",
    "Match",
    "Summary",
    "agent_table",
    "derive_seed",
    "lineup",
    "places",
    "play_match",
    "render_result",
    "run_arena",
    "schedule",
    "summarize",
    "team_table",
    "wilson",
    "win_shares",
]
