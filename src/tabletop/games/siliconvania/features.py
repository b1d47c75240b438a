"""Per-seat features of a finished game of SiliconVania, for balance studies (`tabletop study`).

`position`: the seat number plus one (the game has no start player: bids set the order each round).
`objectives`: the objective kinds of the specialists the seat kept as city objectives, sorted, joined by `|`
(`Doctor|Noble`; empty when none). `objectives_kept`: how many. `mean_bid`: the mean of the silent bid cards the
seat revealed (a round with no bid card left counts 0; a recovery is not a bid).

What the studies read here besides `seat_features` (the interface: `tabletop.study.features`, and "The parts of a
game" in docs/architecture.md): `START_PLAYER` (False: no start player, position is the seat), `FIGURES` (the win
rate by objective kind kept, with its stopping figure `objective_win_halfwidth`, and by mean bid).
"""

from __future__ import annotations

from typing import Any

from tabletop.games.siliconvania.components import OBJECTIVES
from tabletop.games.siliconvania.notation import COMPONENTS as DATA
from tabletop.games.siliconvania.rules import SiliconVaniaState

START_PLAYER = False
"""No start player: bids set the order each round, so `position` is the seat number."""

FIGURES = (
    {
        "kind": "kinds", "column": "objectives", "name": "objectives", "title": "Win rate by objective kept",
        "axis": "objective kind kept (at least one card)", "colour": "tab:purple",
        "words": "keeping {a} {value} objective", "model": "{value} objective",
        "caption": "The win rate of the seats that kept at least one objective of each kind, with 95% Wilson "
                   "intervals; the dashed line is the mean fair rate over the player counts. Each kind's effect on "
                   "winning is tested by a logistic regression adjusted for the player count (its average marginal "
                   "effect, in points).",
        "stop": "objective_win_halfwidth",
        "stop_doc": "largest 95% half-width over the win rates of seats that kept each objective",
    },
    {
        "kind": "binned", "column": "mean_bid", "name": "mean_bid", "title": "Win rate by mean bid",
        "axis": "mean silent bid (rounded)", "colour": "tab:red", "low": 1, "high": 7,
        "caption": "The win rate of seats by their mean revealed bid card, rounded, with 95% Wilson intervals.",
    },
)
"""The report's SiliconVania figures: the win rate by objective kind kept, and by mean bid."""


def _any(ids: list[int]) -> str:
    return "(" + "|".join(str(i) for i in ids) + ")"


COMPONENTS = {
    **{f"{kind} tiles": rf"^place t{_any([i for i, t in enumerate(DATA.tiles) if t.type == k])} "
                        rf"|^exchange \S+ t{_any([i for i, t in enumerate(DATA.tiles) if t.type == k])}$"
                        rf"|^castle {kind.lower().replace(' ', '')} "
       for k, kind in enumerate(DATA.types)},
    **{f"{name}s": rf"^take s{_any(sorted(r for r, s in DATA.specialists.items() if s.name == name))}$"
       for name in sorted({s.name for s in DATA.specialists.values()})},
}
"""The components of the component-value study (`tabletop.study.components`): per building type, a regular
expression matching the actions that place, exchange for or take a castle of that type; per specialist, the actions
that take one (a bid spends a card in hand, so it is left alone); an agent forbidden a component is never offered
them."""


def seat_features(state: Any) -> dict[str, list[Any]]:
    """The feature columns of a finished game, one value per seat."""
    s: SiliconVaniaState = state
    n = s.players
    bids = [[b for b in s.bid_events[p] if b >= 0] for p in range(n)]
    return {
        "position": [p + 1 for p in range(n)],
        "objectives": ["|".join(sorted(OBJECTIVES[DATA.specialists[r].objective] for r in s.objs[p]))
                       for p in range(n)],
        "objectives_kept": [len(s.objs[p]) for p in range(n)],
        "mean_bid": [sum(b) / len(b) if b else 0.0 for b in bids],
    }

ACTION_KINDS = ("antiquity", "bid", "castle", "exchange", "objective", "place", "pool", "recover", "relocate",
                "swap", "take", "train", "upgrade")
"""Every action kind of the game (the first word of each verb of its notation's action table), for the report's
"decisions never reached"."""
