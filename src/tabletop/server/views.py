"""What one seat is sent: the last step before the wire, and the only place the server reads a state for a seat.

Everything here goes through the engine's per-seat gates (`State.view`, `State.log`, the legal actions of the
seat to move); nothing reads another seat's view or the state itself.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import State
from tabletop.core.state import LogEntry


def seat_legal(state: State, seat: int | None) -> list[str]:
    """The legal actions of `seat` if it is its decision now, else nothing."""
    if seat is None or state.to_move != seat:
        return []
    return [a.text for a in state.legal_actions()]


def seat_log(state: State, seat: int | None, start: int) -> list[LogEntry]:
    """The entries of `seat`'s own log from `start` on (the engine's per-seat log cursor)."""
    return state.log(seat, start)


def seat_payload(state: State, seat: int | None, seq: int, status: str) -> dict[str, Any]:
    """A seat's (or a spectator's) picture of the game at event `seq`."""
    view = state.view(seat)
    return {
        "seq": seq,
        "seat": seat,
        "status": status,
        "to_move": state.to_move,
        "view": view,
        "legal": seat_legal(state, seat) if status == "playing" else [],
        "log_pos": view.get("log_pos"),
    }
