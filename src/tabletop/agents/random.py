"""The random agent: a uniform choice among the legal actions, seeded."""

from __future__ import annotations

from tabletop.core import Action, Rng, SeatHandle


class RandomAgent:
    """Uniformly random legal actions; reproducible from its seed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def act(self, seat: SeatHandle) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(seat.legal_actions())
