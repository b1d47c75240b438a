"""The online game server (`tabletop serve`): FastAPI over the engine, an append-only event log in SQL.

Layout (after the FastAPI full-stack template): `settings` (pydantic-settings), `models` (SQLAlchemy tables),
`storage` (the only code that speaks SQL), `service` (games, seats, actions, AI scheduling; no HTTP; over `live`,
`cache`, `creation`, `moves` and `errors`), `pubsub` (who is told of new events), `api/routes/*` (REST and
WebSocket), `app` (wiring). The engine knows nothing of any of it: the server is a consumer of `tabletop.new_game`,
`State.apply/view/log` and `SeatHandle`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.server.app import create_app
    from tabletop.server.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """`create_app` and `Settings`, imported when first asked for: a process that needs one module of the package
    (an AI worker imports `tabletop.server.ai`) does not pay for FastAPI, SQLAlchemy and Alembic (3 s a start)."""
    if name == "create_app":
        from tabletop.server.app import create_app
        return create_app
    if name == "Settings":
        from tabletop.server.settings import Settings
        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
