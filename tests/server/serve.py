"""`tabletop serve` for the tests that run real server processes: `python tests/server/serve.py serve --port ...`.

It is the real command (`tabletop.cli.main.main`, uvicorn and all), with one addition while the game branches of
issue 8 are unmerged: a game without a per-seat log (`State.log`) gets an empty one, as the in-process tests do in
conftest.py. Once every game keeps its log the shim is inert.
"""

from __future__ import annotations

import sys
from typing import Any

import tabletop
from tabletop.core import State
from tabletop.server import views


def _has_seat_log(game: str) -> bool:
    try:
        tabletop.new_game(game, seed=0).log(0, 0)
    except (NotImplementedError, TypeError):
        return False
    return True


_real = views.seat_log
_logged = {g: _has_seat_log(g) for g in tabletop.games()}


def _seat_log(state: State, seat: int | None, start: int) -> list[Any]:
    return _real(state, seat, start) if _logged[state.game] else []


if __name__ == "__main__":
    views.seat_log = _seat_log  # type: ignore[assignment]
    from tabletop.cli.main import main

    sys.exit(main(sys.argv[1:]))
