"""REST routes of games: create, lobby, info, seats, actions, state, log, record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from tabletop.server.api.deps import ServiceDep, TokenDep
from tabletop.server.api.sessions import CsrfSessionDep
from tabletop.server.creation import leaver_level_of
from tabletop.server.errors import Forbidden
from tabletop.server.schemas import ActionIn, ClaimIn, CreateGameIn, ReseatIn, UndoIn
from tabletop.server.service import SeatRequest, Unauthorized

router = APIRouter(prefix="/games", tags=["games"])
GameId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$")]


@router.post("", status_code=201)
def create_game(body: CreateGameIn, service: ServiceDep, request: Request, signed: CsrfSessionDep
                ) -> dict[str, Any]:
    """A new game. The answer holds the creator's tokens and the invite links: shown once, stored hashed. The
    client's address (the proxy's `X-Forwarded-For` behind one) keys the creation limits. Signed in (the session
    cookie and its CSRF token), the creator's seat is bound to the account."""
    if body.rated and signed is None:
        raise Forbidden("a rated game is created signed in (the session cookie and its CSRF token)")
    seats = [SeatRequest(s.kind, s.ai, s.name) for s in body.seats] if body.seats else None
    address = request.client.host if request.client is not None else None
    creator_name = body.creator_name
    if signed is not None and "creator_name" not in body.model_fields_set:
        creator_name = signed.account.username  # signed in: the account's name unless another is given
    level = body.leaver_level or request.app.state.settings.leaver_level
    made = service.create(body.game, body.players, body.options, body.visibility, seats, creator_name,
                          address, account_id=signed.account.id if signed is not None else None, leaver_level=level)
    if body.move_seconds is not None:
        service.storage.set_clock(made.game_id, body.move_seconds)
    if body.rated:
        request.app.state.ratings.mark_rated(made.game_id)
    return {
        "id": made.game_id,
        "creator_token": made.creator_token,
        "seat": made.seat,
        "token": made.seat_token,
        "invites": [{"seat": s, "code": c, "url": service.invite_url(made.game_id, c)}
                    for s, c in made.invites.items()],
        "info": {**service.info(made.game_id), "leaver_level": level},
    }


@router.get("")
def lobby(service: ServiceDep) -> list[dict[str, Any]]:
    """Public games waiting for players or in play."""
    return service.lobby()


@router.get("/{game_id}")
def game_info(game_id: GameId, service: ServiceDep, request: Request) -> dict[str, Any]:
    """A game's public facts and seats, and the AI level that plays a leaver's seat there (`leaver_level`)."""
    info = service.info(game_id)
    return {**info, "leaver_level": leaver_level_of(service.storage, game_id, request.app.state.settings.leaver_level)}


@router.post("/{game_id}/claim")
def claim(game_id: GameId, body: ClaimIn, service: ServiceDep, signed: CsrfSessionDep, request: Request
          ) -> dict[str, Any]:
    """Claim an invited seat (one time) or take an open seat: a fresh seat token. Signed in (the session cookie
    and its CSRF token), the seat is bound to the account: any of its signed-in browsers may play it. A rated
    game's seats are for signed-in players only."""
    account_id = signed.account.id if signed is not None else None
    if account_id is None and request.app.state.ratings.is_rated(game_id):
        raise Forbidden("this game is rated: sign in to take a seat (the session cookie and its CSRF token)")
    name = body.name if body.name is not None or signed is None else signed.account.username
    if body.invite is not None:
        seat, token = service.claim(game_id, body.invite, name, account_id)
    else:
        seat, token = service.join(game_id, body.seat, name, account_id)
    return {"seat": seat, "token": token}


@router.post("/{game_id}/reseat")
def reseat(game_id: GameId, body: ReseatIn, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The creator (bearer: the creator token) revokes a seat's token and gets a new invite for it."""
    if token is None:
        raise Unauthorized("re-seating needs the creator token (Authorization: Bearer <creator token>)")
    code = service.reseat(game_id, token, body.seat)
    return {"seat": body.seat, "code": code, "url": service.invite_url(game_id, code)}


@router.post("/{game_id}/actions")
def act(game_id: GameId, body: ActionIn, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Take an action for the token's seat."""
    return service.act(game_id, token, body.action, body.seq, body.client_action_id)


@router.post("/{game_id}/undo")
def undo(game_id: GameId, body: UndoIn, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Take back the token's seat's last actions (an undo event in the log; refused once another seat acted or
    something hidden was revealed since)."""
    return service.undo(game_id, token, body.count, body.seq, body.client_action_id)


@router.get("/{game_id}/state")
def state(game_id: GameId, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The token's seat's view, legal actions and log position (a spectator's view without a token)."""
    return service.snapshot(game_id, service.seat_of(game_id, token))


@router.get("/{game_id}/log")
def seat_log(game_id: GameId, service: ServiceDep, token: TokenDep,
             start: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> dict[str, Any]:
    """The token's seat's own log (the spectator's without a token) from entry `start` on."""
    return service.log_from(game_id, service.seat_of(game_id, token), start)


@router.get("/{game_id}/record")
def record(game_id: GameId, service: ServiceDep) -> dict[str, Any]:
    """The full record, seed included, once the game is over."""
    return service.record(game_id)
