"""What an agent is: something that picks an action from a seat handle."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from tabletop.core import Action, SeatHandle


@runtime_checkable
class Agent(Protocol):
    """An agent decides for one seat; it sees the game only through the seat handle it is given."""

    name: str

    def act(self, seat: SeatHandle) -> Action:
        """The action to take; `seat.legal_actions()` is non-empty when this is called."""
        ...
