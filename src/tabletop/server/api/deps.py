"""Shared route dependencies: the service, the bearer token (or a signed-in account's seat)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from tabletop.server.accounts import AccountKey
from tabletop.server.api.sessions import optional_session
from tabletop.server.service import GameService, Unauthorized


def get_service(request: Request) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


def bearer(request: Request, authorization: Annotated[str | None, Header(max_length=200)] = None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; without one, on a game's route, the seat of the
    signed-in account (issue 23: an `AccountKey`, if its session cookie is valid, its CSRF token sent on a
    state-changing request, and the account holds a seat in that game); else None (a spectator)."""
    if authorization is None:
        game_id = request.path_params.get("game_id")
        if not isinstance(game_id, str):
            return None
        signed = optional_session(request)
        if signed is None or get_service(request).account_seat(game_id, signed.account.id) is None:
            return None
        return AccountKey(signed.account.id)
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use Authorization: Bearer <seat token>")
    return token.strip()


ServiceDep = Annotated[GameService, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(bearer)]
