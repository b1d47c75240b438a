"""The core contract: states, actions, options, registry, records and the seat handle."""

from tabletop.core.action import Action, ActionTable
from tabletop.core.errors import IllegalAction, InvalidOptions, InvalidRecord, TabletopError, UnknownGame
from tabletop.core.options import Option
from tabletop.core.record import load_record, replay, save_record, validate_record
from tabletop.core.registry import game_info, games, new_game, register
from tabletop.core.rng import Rng
from tabletop.core.seat import SeatHandle
from tabletop.core.state import GameInfo, LogEntry, Seat, State, View

__all__ = [
    "Action",
    "ActionTable",
    "GameInfo",
    "IllegalAction",
    "InvalidOptions",
    "InvalidRecord",
    "LogEntry",
    "Option",
    "Rng",
    "Seat",
    "SeatHandle",
    "State",
    "TabletopError",
    "UnknownGame",
    "View",
    "game_info",
    "games",
    "load_record",
    "new_game",
    "register",
    "replay",
    "save_record",
    "validate_record",
]
