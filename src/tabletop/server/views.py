"""What one seat is sent: the last step before the wire, and the only place the server reads a state for a seat.

Everything here goes through the engine's per-seat gates (`State.view`, `State.log`, `State.legal_actions_for`,
and the public facts of who owes a decision, who has decided ahead and how many of its own actions a seat may take
back); nothing reads another seat's view or the state itself.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import State
from tabletop.core.state import LogEntry


def seat_legal(state: State, seat: int | None) -> list[str]:
    """The legal actions of `seat` if it owes a decision now (its turn, or a simultaneous step), else nothing."""
    if seat is None or state.to_move is None:
        return []
    return [a.text for a in state.legal_actions_for(seat)]


def seat_log(state: State, seat: int | None, start: int) -> list[LogEntry]:
    """The entries of `seat`'s own log from `start` on (the engine's per-seat log cursor)."""
    return state.log(seat, start)


def seat_payload(state: State, seat: int | None, seq: int, status: str, since: int | None = None,
                 undoable: int | None = None) -> dict[str, Any]:
    """A seat's (or a spectator's) picture of the game at event `seq`. `deciding` (public) lists every seat that owes
    a decision now, `decided` the seats that decided ahead and wait (not what they chose); for a seat, `owes_decision`,
    `decision_seq` (the event count its current decision has stood since: quote any count from it on) and
    `undoable` (how many of its own last actions it may take back now: `undoable` when the server gives it, which
    leaves out the moves it made for the seat, else the core's count)."""
    view = state.view(seat)
    playing = status == "playing"
    deciding = state.deciding() if playing else []
    out: dict[str, Any] = {
        "seq": seq,
        "seat": seat,
        "status": status,
        "to_move": state.to_move,
        "deciding": deciding,
        "decided": state.submitted() if playing else [],
        "view": view,
        "legal": seat_legal(state, seat) if playing else [],
        "log_pos": view.get("log_pos"),
    }
    if seat is not None:
        out["owes_decision"] = seat in deciding
        out["decision_seq"] = since if since is not None else seq
        out["undoable"] = (undoable if undoable is not None else state.undoable(seat)) if playing else 0
    return out
