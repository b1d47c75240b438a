"""Shared route dependencies: the service, the bearer token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from tabletop.server.service import GameService, Unauthorized


def get_service(request: Request) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


def bearer(authorization: Annotated[str | None, Header(max_length=200)] = None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use Authorization: Bearer <seat token>")
    return token.strip()


ServiceDep = Annotated[GameService, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(bearer)]
