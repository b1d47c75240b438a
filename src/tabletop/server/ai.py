"""AI moves, computed in worker processes (never in the event loop).

The worker receives the game's record, rebuilds the state from it inside the worker (a process of this
server, on this machine: records never leave the server), and lets the agent decide through a `SeatHandle`
of its seat, so the agent sees only what that seat may see. Clients name strengths by label only.
"""

from __future__ import annotations

from typing import Any

from tabletop.agents import make_agent
from tabletop.core import SeatHandle, replay

AI_LABELS: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "ismcts:time=1.0"}
"""Strength label (what clients send) to agent spec (what only the server knows)."""


def choose_action(record: dict[str, Any], seat: int, label: str, seed: int) -> str:
    """The canonical text of the action the `label` agent takes for `seat` in the game `record` describes."""
    state = replay(record)
    if seat not in state.deciding():
        raise ValueError(f"seat {seat} owes no decision")
    agent = make_agent(AI_LABELS[label], state.game, seed)
    return agent.act(SeatHandle(state, seat)).text


def hint_actions(record: dict[str, Any], seat: int, seed: int, seconds: float) -> list[dict[str, Any]]:
    """ISMCTS hints for `seat` from its own view (a `SeatHandle` of the state the record rebuilds to): the top
    candidate actions with their estimated value in [0, 1] and how many search iterations tried them. The
    search runs for `seconds` (its whole budget)."""
    from tabletop.agents.ismcts import hints

    handle = SeatHandle(replay(record), seat)
    return [{"action": a.text, "value": round(value, 4), "visits": visits}
            for a, visits, value in hints(handle, iters=10**9, seed=seed, seconds=seconds)]
