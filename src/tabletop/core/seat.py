"""The seat handle: what an agent is given instead of the state, so it sees only what its seat may see.

Trust model (see docs/architecture.md): Python cannot sandbox code running in the same process, so an agent
given a handle in-process is *trusted*: a determined one can always reach the state (through the garbage
collector, frames, or two attribute hops). The handle protects against accidents, not against malice: none of
its attributes, nor the `__self__` or closure cells of any of them, is the state. An *untrusted* agent runs in
another process and receives only views, logs and legal actions (the server will work this way).
"""

from __future__ import annotations

from typing import Any

from tabletop.core.action import Action
from tabletop.core.errors import IllegalAction
from tabletop.core.state import GameInfo, LogEntry, State, View


class _Table:
    """The private holder of the live state behind a handle (so no bound method of a handle belongs to the state)."""

    __slots__ = ("_game",)

    def __init__(self, state: State) -> None:
        self._game = state

    def __repr__(self) -> str:
        return "<table>"


class SeatHandle:
    """One seat's window on a live game: its view, its log, its legal actions and samples of what it cannot see.

    Everything it answers is what this seat may know: a seat that owes no decision is offered and accepted no action;
    one that owes a decision in a simultaneous step (`State.deciding`) before it is `to_move` is offered its own
    actions (`State.legal_actions_for`), so an agent can decide for it. In-process
    agents are trusted (see the module docstring); untrusted agents run in another process and get views only.
    """

    __slots__ = ("_table", "info", "players", "seat")

    def __init__(self, state: State, seat: int) -> None:
        state._check_seat(seat, allow_none=False)
        self.seat = seat
        self.players = state.players
        self.info: GameInfo = state.info
        self._table = _Table(state)

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now (None when over)."""
        return self._table._game.to_move

    def view(self) -> View:
        """All this seat may see."""
        return self._table._game.view(self.seat)

    def log(self, start: int = 0) -> list[LogEntry]:
        """This seat's history from entry `start` on (its view's `log_pos` is the length)."""
        return self._table._game.log(self.seat, start)

    def legal_actions(self) -> list[Action]:
        """This seat's legal actions: those of its turn, or of a simultaneous decision it owes ahead of its turn
        (`State.legal_actions_for`); empty when it owes no decision."""
        state = self._table._game
        if state.to_move == self.seat:
            return state.legal_actions()
        return state.legal_actions_for(self.seat)

    def owes_decision(self) -> bool:
        """Whether this seat owes a decision now (its turn, or a simultaneous step it has not yet decided in)."""
        return self.seat in self._table._game.deciding()

    def sample(self, seed: int) -> State:
        """A full state consistent with this seat's view (a determinization), for search."""
        return self._table._game.sample(self.seat, seed)

    def parse_action(self, text: str) -> Action:
        """This seat's legal action with this canonical text (its turn, or a simultaneous decision it owes ahead);
        a seat that owes no decision has every text refused, without a list."""
        state = self._table._game
        if state.to_move != self.seat and self.seat in state.deciding():
            return state.parse_action_for(self.seat, text)
        if state.to_move != self.seat:
            whose = "the game is over" if state.to_move is None else f"it is seat {state.to_move}'s turn"
            raise IllegalAction(f"seat {self.seat} has no decision now: {whose}, so no action of seat {self.seat} "
                                "is legal")
        return state.parse_action(text)

    def __repr__(self) -> str:
        return f"<SeatHandle {self.info.name} seat {self.seat}>"

    def __getstate__(self) -> Any:
        raise TypeError("a seat handle cannot be pickled")
