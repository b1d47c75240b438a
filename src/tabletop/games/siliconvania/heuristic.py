"""A casual SiliconVania player.

It bids a mid card with a low-value specialist early and a high card when the pools differ, takes the pool
whose tiles add the most to its city's current score, places each tile where the resulting city scores
best (final scoring run on the hypothetical city), takes the specialist matching the objectives it already
holds, adds objectives that its city already scores well, and otherwise picks the first option. It decides
from the seat handle only: its view and the legal actions, simulating a move on a sample of the state.
"""

from __future__ import annotations

from tabletop.core import Action, Rng, SeatHandle


class HeuristicAgent:
    """Greedy one-step lookahead on the seat's own final score, with simple bidding habits."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, seat: SeatHandle) -> Action:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        verb = legal[0].verb
        if verb == "bid":
            return self._bid(seat, legal)
        if verb in ("pool", "place", "castle", "train", "antiquity", "objective", "exchange", "upgrade",
                    "relocate", "swap", "take") and len(legal) <= 80:
            return self._greedy(seat, legal)
        return legal[self.rng.below(len(legal))]

    def _bid(self, seat: SeatHandle, legal: list[Action]) -> Action:
        me = seat.view()["seats"][seat.seat]
        vampires = me["vampires"]
        cards = sorted({int(a.args[0]) for a in legal})
        affordable = [c for c in cards if c < 6 or vampires >= c - 5 + 1]
        card = affordable[len(affordable) // 2] if affordable else cards[0]
        ranks = sorted({int(a.args[1]) for a in legal})
        rank = ranks[self.rng.below(len(ranks))]
        return next(a for a in legal if a.args == (card, rank))

    def _greedy(self, seat: SeatHandle, legal: list[Action]) -> Action:
        base = seat.sample(self.rng.next64())
        best, best_val = legal[0], -1e9
        for a in legal:
            s = base.clone()
            s.apply(a)
            val = s.scores()[seat.seat] + self.rng.below(100) / 1000
            if val > best_val:
                best, best_val = a, val
        return best
