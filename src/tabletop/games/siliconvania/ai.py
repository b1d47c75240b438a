"""What the search agents know about SiliconVania (the game's `ai` part; docs/architecture.md, "The parts of a
game").

- `value(state, seat)`, `VALUE_SCALE`, `SCORE_SCALE`, `CUTOFF_DEPTH`: the position value the guided search scores
  its cut-off rollouts with (the heuristic agent's `evaluate`), the value margin that counts as decisive, the
  score margin that does at the end of a game, and the random steps played after the tree before the cut-off;
- `explain(before, after, seat)`: what a move changes at once in the seat's scoring, one line for a hint's reason;
- `LEVELS`: the agent spec behind a strength label where it differs from the default (docs/agents.md).
"""

from __future__ import annotations

from typing import Any

from tabletop.games.siliconvania.heuristic import evaluate as value

__all__ = ["CUTOFF_DEPTH", "LEVELS", "SCORE_SCALE", "VALUE_SCALE", "explain", "value"]

VALUE_SCALE = 8.0
SCORE_SCALE = 5.0
CUTOFF_DEPTH = 8
LEVELS = {"hard": "guided:time=1.0"}

PARTS = (("blood", "blood"), ("animals", "animals"), ("housed", "housed vampires"), ("diversity", "diversity"),
         ("contracts", "contracts"), ("objectives", "objectives"), ("tiaras", "tiaras"))
"""The parts of the score breakdown a hint names, with their words."""


def explain(before: Any, after: Any, me: int) -> str:
    """The change of the seat's victory points now, and of each part of its score that changes."""
    b, a = before.breakdown(me), after.breakdown(me)
    changes = [f"{label} {a[key] - b[key]:+d}" for key, label in PARTS if a[key] != b[key]]
    total = a["total"] - b["total"]
    if not changes and not total:
        return ""
    return f"{total:+d} VP now" + (f" ({', '.join(changes)})" if changes else "")
