"""The seat handle: what an agent is given instead of the state, so it cannot see what its seat may not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.core.action import Action
from tabletop.core.state import GameInfo, LogEntry, State, View


class SeatHandle:
    """One seat's window on a live game: its view, its legal actions and samples of what it cannot see.

    The true state is held only inside closures; the handle exposes no attribute that reaches it.
    """

    __slots__ = ("_legal", "_logf", "_parse", "_sample", "_to_move", "_view", "info", "players", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        self.players = state.players
        self.info: GameInfo = state.info
        self._view: Callable[[], View] = lambda: state.view(seat)
        self._legal: Callable[[], list[Action]] = lambda: state.legal_actions() if state.to_move == seat else []
        self._logf: Callable[[int], list[LogEntry]] = lambda start: state.log(seat, start)
        self._sample: Callable[[int], State] = lambda seed: state.sample(seat, seed)
        self._parse: Callable[[str], Action] = state.parse_action
        self._to_move: Callable[[], int | None] = lambda: state.to_move

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now (None when over)."""
        return self._to_move()

    def view(self) -> View:
        """All this seat may see."""
        return self._view()

    def log(self, start: int = 0) -> list[LogEntry]:
        """This seat's history from entry `start` on (its view's `log_pos` is the length)."""
        return self._logf(start)

    def legal_actions(self) -> list[Action]:
        """This seat's legal actions (empty when it is not this seat's decision)."""
        return self._legal()

    def sample(self, seed: int) -> State:
        """A full state consistent with this seat's view (a determinization), for search."""
        return self._sample(seed)

    def parse_action(self, text: str) -> Action:
        """The legal action with this canonical text."""
        return self._parse(text)

    def __repr__(self) -> str:
        return f"<SeatHandle {self.info.name} seat {self.seat}>"

    def __getstate__(self) -> Any:
        raise TypeError("a seat handle cannot be pickled")
