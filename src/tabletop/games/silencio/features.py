"""Per-seat features of a finished game of Silencio, for balance studies (`tabletop study`).

`position`: the seat's place in turn order, 1 for the first player. `cards_left`: the cards the seat still holds at
the end (in hand and lying face up in front of it); the team's total is minus any seat's score.
"""

from __future__ import annotations

from typing import Any

from tabletop.games.silencio.rules import SilencioState


def seat_features(state: Any) -> dict[str, list[Any]]:
    """The feature columns of a finished game, one value per seat."""
    s: SilencioState = state
    n = s.players
    return {
        "position": [(p - s.first) % n + 1 for p in range(n)],
        "cards_left": [len(s.hands[p]) + len(s.fronts[p]) for p in range(n)],
    }
