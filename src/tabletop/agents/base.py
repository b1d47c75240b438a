"""What an agent is: something that picks an action from a seat handle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tabletop.core import Action, SeatHandle


@runtime_checkable
class Agent(Protocol):
    """An agent decides for one seat; it sees the game only through the seat handle it is given."""

    name: str

    def act(self, seat: SeatHandle) -> Action:
        """The action to take; `seat.legal_actions()` is non-empty when this is called."""
        ...


HINT_SECONDS = 2.0
"""The default search time of a hint."""


@dataclass
class Candidate:
    """A root action after a search: samples behind it, its estimated win probability, and a short reason."""

    action: Action
    visits: int
    value: float
    reason: str = ""
