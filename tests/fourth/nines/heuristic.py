"""A rule-of-thumb Nines player, through a seat handle only: follow with the lowest card that takes the trick (or
throw the lowest), lead the highest card."""

from __future__ import annotations

from tabletop.core import Action, Rng, SeatHandle


def card(action: Action) -> int:
    return int(action.args[0])


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def act(self, seat: SeatHandle) -> Action:
        legal = sorted(seat.legal_actions(), key=card)
        trick = seat.view()["trick"]
        if not trick:
            return legal[-1]
        winning = [a for a in legal if card(a) > trick[0]]
        return winning[0] if winning else legal[0]
