"""tabletop: exact rules, AI opponents and play for SILOS, SiliconVania and Silencio.

    import tabletop
    s = tabletop.new_game("silencio", players=3, seed=5)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    print(s.scores(), s.winners())
"""

from tabletop import native as _native

_native.activate()  # the compiled engine or its pure twin, decided before any of it is imported

from tabletop.core import (  # noqa: E402
    Action,
    GameInfo,
    IllegalAction,
    InvalidOptions,
    InvalidRecord,
    SeatHandle,
    State,
    TabletopError,
    UnknownGame,
    game_info,
    games,
    load_record,
    new_game,
    replay,
    save_record,
)

__all__ = [
    "Action",
    "GameInfo",
    "IllegalAction",
    "InvalidOptions",
    "InvalidRecord",
    "SeatHandle",
    "State",
    "TabletopError",
    "UnknownGame",
    "game_info",
    "games",
    "load_record",
    "new_game",
    "replay",
    "save_record",
]
__version__ = "0.1.0"
