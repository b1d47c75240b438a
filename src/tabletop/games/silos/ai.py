"""What the search agents know about SILOS (the game's `ai` part; docs/architecture.md, "The parts of a game").

- `value(state, seat)`, `VALUE_SCALE`, `SCORE_SCALE`, `CUTOFF_DEPTH`: the position value the guided search scores
  its cut-off rollouts with (the heuristic agent's `value`), the value margin that counts as decisive, the score
  margin that does at the end of a game, and the random steps played after the tree before the cut-off;
- `explain(before, after, seat)`: what a move changes at once for the seat, one line for a hint's reason;
- `LEVELS`: the agent spec behind a strength label where it differs from the default (docs/agents.md).
"""

from __future__ import annotations

from typing import Any

from tabletop.games.silos.heuristic import value
from tabletop.games.silos.notation import N_LOCATIONS, N_TYPES

__all__ = ["CUTOFF_DEPTH", "LEVELS", "SCORE_SCALE", "VALUE_SCALE", "explain", "value"]

VALUE_SCALE = 12.0
SCORE_SCALE = 1.0
CUTOFF_DEPTH = 8
LEVELS = {"hard": "guided:time=1.0"}


def explain(before: Any, after: Any, me: int) -> str:
    """Emblems, humans and cows gained, and locations led, before and after a move (on one sample)."""
    out: list[str] = []
    de = after.emblems[me] - before.emblems[me]
    if de:
        out.append(f"{de:+d} emblem" + ("s" if abs(de) != 1 else ""))
    dh = sum(after.hum[me * N_TYPES:(me + 1) * N_TYPES]) - sum(before.hum[me * N_TYPES:(me + 1) * N_TYPES])
    if dh:
        out.append(f"{dh:+d} human" + ("s" if abs(dh) != 1 else ""))
    dc = after.cows[me] - before.cows[me]
    if dc:
        out.append(f"{dc:+d} cow" + ("s" if abs(dc) != 1 else ""))
    lead_b = sum(1 for loc in range(N_LOCATIONS) if before.ranking(loc)[:1] == [me])
    lead_a = sum(1 for loc in range(N_LOCATIONS) if after.ranking(loc)[:1] == [me])
    if lead_a != lead_b:
        out.append(f"leads {lead_a} location{'s' if lead_a != 1 else ''} (was {lead_b})")
    if not out:
        return ""
    return ", ".join(out)
