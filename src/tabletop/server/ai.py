"""AI moves, computed in worker processes (never in the event loop).

The worker receives the game's record, rebuilds the state from it inside the worker (a process of this
server, on this machine: records never leave the server), and lets the agent decide through a `SeatHandle`
of its seat, so the agent sees only what that seat may see. Clients name strengths by label only.
"""

from __future__ import annotations

from typing import Any

from tabletop.agents import make_agent
from tabletop.agents.levels import LEVELS, level_spec
from tabletop.core import SeatHandle, replay

AI_LABELS: dict[str, str] = {level: level for level in LEVELS}
"""Strength label (what clients send) to agent spec (what only the server knows): each label is the level of the
same name, whose agent depends on the game (`tabletop.agents.levels.level_spec`)."""


def choose_action(record: dict[str, Any], seat: int, label: str, seed: int) -> str:
    """The canonical text of the action the `label` agent takes for `seat` in the game `record` describes."""
    state = replay(record)
    if seat not in state.deciding():
        raise ValueError(f"seat {seat} owes no decision")
    agent = make_agent(level_spec(AI_LABELS[label], state.game), state.game, seed)
    return agent.act(SeatHandle(state, seat)).text


def hint_actions(record: dict[str, Any], seat: int, seed: int, seconds: float) -> list[dict[str, Any]]:
    """Hints for `seat` from its own view (a `SeatHandle` of the state the record rebuilds to): the top candidate
    actions with their estimated value in [0, 1] (the chance of winning, as the search sees it), how many search
    samples tried them, and a one-line `reason` ("" where the game's search gives none). The search (the guided
    search in SILOS and SiliconVania, the baseline ISMCTS elsewhere) runs for `seconds` (its whole budget)."""
    from tabletop.agents.guided import hints_for

    handle = SeatHandle(replay(record), seat)
    return [{"action": c.action.text, "value": round(c.value, 4), "visits": c.visits, "reason": c.reason}
            for c in hints_for(handle, seconds=seconds, seed=seed)]
