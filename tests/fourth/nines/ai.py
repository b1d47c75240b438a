"""What the search agents know about Nines (the game's `ai` part; docs/architecture.md, "The parts of a game").

- `value(state, seat)`, `VALUE_SCALE`, `SCORE_SCALE`, `CUTOFF_DEPTH`: the position value of the guided search's
  cut-off rollouts (tricks taken, then the strength of the hand), the margins that count as decisive, and the
  random steps played after the tree before the cut-off;
- `explain(before, after, seat)`: what a move changes at once, one line for a hint's reason;
- `LEVELS`: the `hard` level is the guided search.
"""

from __future__ import annotations

from typing import Any

VALUE_SCALE = 1.0
SCORE_SCALE = 1.0
CUTOFF_DEPTH = 2
LEVELS = {"hard": "guided:time=1.0"}


def value(state: Any, seat: int) -> float:
    """A trick taken is worth 1; a hand card is worth a share of a trick growing with its rank (a 9 nearly one)."""
    if state.is_over:
        return 10.0 if seat in state.winners() and len(state.winners()) == 1 else 0.0
    return state.points[seat] + sum((c - 1) / 9 for c in state.hands[seat])


def explain(before: Any, after: Any, me: int) -> str:
    """The trick the move wins or gives away (and the last one, which then plays itself), or the card it leads,
    and the result when the game ends."""
    out = []
    for entry in after.entries[len(before.entries):]:
        if entry.endswith("took the trick"):
            took = int(entry[2]) == me  # "{p0} took the trick"
            if not out:
                out.append("takes the trick" if took else "gives the trick away")
            else:
                out.append("then the last trick is " + ("yours" if took else "theirs"))
    if not out and after.trick:
        out.append(f"leads {after.trick[0]}")
    if after.is_over:
        winners = after.winners()
        out.append("wins the game" if winners == [me] else "a tie" if len(winners) == 2 else "loses the game")
    return ", ".join(out)
