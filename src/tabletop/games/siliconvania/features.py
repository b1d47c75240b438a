"""Per-seat features of a finished game of SiliconVania, for balance studies (`tabletop study`).

`position`: the seat number plus one (the game has no start player: bids set the order each round).
`objectives`: the objective kinds of the specialists the seat kept as city objectives, sorted, joined by `|`
(`Doctor|Noble`; empty when none). `objectives_kept`: how many. `mean_bid`: the mean of the silent bid cards the
seat revealed (a round with no bid card left counts 0; a recovery is not a bid).
"""

from __future__ import annotations

from typing import Any

from tabletop.games.siliconvania.components import OBJECTIVES
from tabletop.games.siliconvania.notation import COMPONENTS
from tabletop.games.siliconvania.rules import SiliconVaniaState


def seat_features(state: Any) -> dict[str, list[Any]]:
    """The feature columns of a finished game, one value per seat."""
    s: SiliconVaniaState = state
    n = s.players
    bids = [[b for b in s.bid_events[p] if b >= 0] for p in range(n)]
    return {
        "position": [p + 1 for p in range(n)],
        "objectives": ["|".join(sorted(OBJECTIVES[COMPONENTS.specialists[r].objective] for r in s.objs[p]))
                       for p in range(n)],
        "objectives_kept": [len(s.objs[p]) for p in range(n)],
        "mean_bid": [sum(b) / len(b) if b else 0.0 for b in bids],
    }
