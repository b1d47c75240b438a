"""Per-seat features of a finished game of Nines, for balance studies: `position` (1 leads the first trick) and
`high` (how many of the cards 7, 8, 9 the seat was dealt)."""

from __future__ import annotations

from typing import Any


def seat_features(state: Any) -> dict[str, list[Any]]:
    return {
        "position": [1, 2],
        "high": [sum(c >= 7 for c in hand) for hand in state.dealt],
    }
