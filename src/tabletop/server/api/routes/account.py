"""Accounts (issue 23): sign up, sign in and out, the account, its sessions, its password, deleting it.

Passwords arrive as `SecretStr` (never in a repr, a log line or a refusal); refusals say what was wrong without
quoting what was sent."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from tabletop.server.accounts import AccountKey, Session, SignedIn
from tabletop.server.api.deps import ServiceDep, TokenDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.api.sessions import AccountsDep, SessionDep, clear_cookie, same_site, set_cookie
from tabletop.server.errors import Forbidden, NotFound, ServiceError, Unauthorized
from tabletop.server.mail import opt_out, send_mail
from tabletop.server.storage import now

router = APIRouter(prefix="/account", tags=["account"])


class Credentials(BaseModel):
    """A username and a password."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1, max_length=40)
    password: SecretStr = Field(min_length=1, max_length=256)


class PasswordChange(BaseModel):
    """The current password and the new one."""

    model_config = ConfigDict(extra="forbid")
    old_password: SecretStr = Field(min_length=1, max_length=256)
    new_password: SecretStr = Field(min_length=1, max_length=256)


class MailIn(BaseModel):
    """The address "your turn" mails go to (null: none), and whether they are wanted."""

    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(default=None, max_length=254, pattern=r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
    turn_mail: bool = True


class ResetIn(BaseModel):
    """The username whose password is forgotten."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1, max_length=40)


class ResetConfirm(BaseModel):
    """The reset link's token and the new password."""

    model_config = ConfigDict(extra="forbid")
    token: SecretStr = Field(min_length=1, max_length=100)
    new_password: SecretStr = Field(min_length=1, max_length=256)


class PasswordConfirm(BaseModel):
    """The current password, asked again."""

    model_config = ConfigDict(extra="forbid")
    password: SecretStr = Field(min_length=1, max_length=256)


def _me(signed: SignedIn) -> dict[str, Any]:
    return {"username": signed.account.username, "created": signed.account.created.isoformat(),
            "csrf": signed.session.csrf, "session": signed.session.id}


def _session(s: Session, current: str) -> dict[str, Any]:
    return {"id": s.id, "agent": s.agent, "created": s.created.isoformat(), "last_seen": s.last_seen.isoformat(),
            "expires": s.expires.isoformat(), "current": s.id == current}


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


def _opened(request: Request, response: Response, accounts: AccountsDep, signed: SignedIn, secret: str
            ) -> dict[str, Any]:
    set_cookie(request, response, secret, int(accounts.session_life.total_seconds()))
    return _me(signed)


@router.post("/signup", status_code=201, dependencies=[Depends(same_site)])
def signup(body: Credentials, request: Request, response: Response, accounts: AccountsDep) -> dict[str, Any]:
    """A new account, signed in at once (the session cookie is set; the answer holds its CSRF token)."""
    signed, secret = accounts.signup(body.username, body.password.get_secret_value(), _address(request),
                                     request.headers.get("user-agent", ""))
    return _opened(request, response, accounts, signed, secret)


@router.post("/signin", dependencies=[Depends(same_site)])
def signin(body: Credentials, request: Request, response: Response, accounts: AccountsDep) -> dict[str, Any]:
    """Sign in (the session cookie is set; the answer holds its CSRF token)."""
    signed, secret = accounts.signin(body.username, body.password.get_secret_value(), _address(request),
                                     request.headers.get("user-agent", ""))
    return _opened(request, response, accounts, signed, secret)


@router.post("/signout")
def signout(request: Request, response: Response, accounts: AccountsDep, signed: SessionDep) -> dict[str, Any]:
    """Close this session (its sockets close too) and clear the cookie."""
    accounts.revoke(signed.account.id, signed.session.id)
    clear_cookie(request, response)
    return {"signed_out": True}


@router.get("/me")
def me(signed: SessionDep) -> dict[str, Any]:
    """The signed-in account, and this session's id and CSRF token (for the page's state-changing requests)."""
    return _me(signed)


@router.get("/sessions")
def sessions(accounts: AccountsDep, signed: SessionDep) -> list[dict[str, Any]]:
    """The account's open sessions, the most recently used first."""
    return [_session(s, signed.session.id) for s in accounts.sessions(signed.account.id)]


SessionId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$")]


@router.delete("/sessions/{session_id}")
def revoke(session_id: SessionId, request: Request, response: Response, accounts: AccountsDep,
           signed: SessionDep) -> dict[str, Any]:
    """Close one of the account's sessions: its cookie stops working and its sockets close at once."""
    accounts.revoke(signed.account.id, session_id)
    if session_id == signed.session.id:
        clear_cookie(request, response)
    return {"revoked": session_id}


@router.post("/password")
def change_password(body: PasswordChange, accounts: AccountsDep, signed: SessionDep) -> dict[str, Any]:
    """Change the password (the current one asked again); every other session closes, with its sockets."""
    closed = accounts.change_password(signed, body.old_password.get_secret_value(),
                                      body.new_password.get_secret_value())
    return {"changed": True, "sessions_closed": closed}


@router.post("/delete")
def delete_account(body: PasswordConfirm, request: Request, response: Response, accounts: AccountsDep,
                   service: ServiceDep, signed: SessionDep) -> dict[str, Any]:
    """Delete the account (its password asked again); its finished games stay, anonymised."""
    games = accounts.games_of(signed.account.id)
    accounts.delete(signed, body.password.get_secret_value())
    for game_id, _ in games:
        service.seats_changed(game_id)
    clear_cookie(request, response)
    return {"deleted": True}


MY_GAMES = 200
"""My games lists the account's newest games, at most this many."""
_ORDER = {"playing": 1, "waiting": 2, "over": 3}


def _my_game(request: Request, service: ServiceDep, game_id: str, seat: int) -> dict[str, Any]:
    info = service.info(game_id)
    out: dict[str, Any] = {"id": game_id, "game": info["game"], "title": info["title"], "status": info["status"],
                           "seat": seat, "players": [s["name"] for s in info["seats"]], "created": info["created"],
                           "your_turn": False, "to_move": [], "clock": None}
    if info["status"] == "playing":
        _, _, _, owing = service.owing(game_id)
        out["your_turn"] = seat in owing
        out["to_move"] = [{"seat": s, "name": info["seats"][s]["name"]} for s in sorted(owing)]
        clock = request.app.state.clocks.describe(game_id)
        if clock is not None:
            deadline = clock["deadline"]
            left = None
            if deadline is not None:
                left = max(0.0, (datetime.fromisoformat(deadline) - now()).total_seconds())
            out["clock"] = {"move_seconds": clock["move_seconds"], "deadline": deadline, "seconds_left": left}
    return out


@router.get("/games")
def my_games(request: Request, service: ServiceDep, accounts: AccountsDep, signed: SessionDep
             ) -> list[dict[str, Any]]:
    """Every game with a seat of the account (the newest `MY_GAMES`): the games where it is the account's turn
    first, then the others in play, those waiting for players, the finished ones; each with whose turn it is and
    the time left on its move clock. Public facts only (the names at the table, the status), as the lobby's."""
    out = []
    for game_id, seat in accounts.games_of(signed.account.id)[:MY_GAMES]:
        try:
            out.append(_my_game(request, service, game_id, seat))
        except ServiceError:
            continue  # a game that cannot be loaded (an old rules version) is left out, not an error
    out.sort(key=lambda g: (not g["your_turn"], _ORDER.get(g["status"], 4)))
    return out


@router.post("/games/{game_id}/attach")
def attach(game_id: GameId, service: ServiceDep, token: TokenDep, signed: SessionDep) -> dict[str, Any]:
    """Bind a guest's seat (bearer: its seat token, which keeps working) to the signed-in account."""
    if token is None or isinstance(token, AccountKey):
        raise Unauthorized("attaching a seat needs its seat token (Authorization: Bearer <seat token>)")
    return {"game_id": game_id, "seat": service.attach(game_id, token, signed.account.id)}


@router.get("/mail")
def mail_settings(accounts: AccountsDep, signed: SessionDep) -> dict[str, Any]:
    """The account's address for "your turn" mails and whether they are on."""
    return accounts.mail(signed.account.id)


@router.post("/mail")
def set_mail(body: MailIn, accounts: AccountsDep, signed: SessionDep) -> dict[str, Any]:
    """Set the address for "your turn" mails (null: none) and turn them on or off."""
    accounts.set_mail(signed.account.id, body.email, body.turn_mail)
    return accounts.mail(signed.account.id)


mail_router = APIRouter(prefix="/mail", tags=["account"])


@mail_router.get("/optout/{token}")
@mail_router.post("/optout/{token}")
def optout(token: Annotated[str, Path(min_length=1, max_length=64)], request: Request) -> dict[str, Any]:
    """One click (the link of a "your turn" mail, or its List-Unsubscribe-Post): no more such mails."""
    if not opt_out(request.app.state.accounts.storage, token):
        raise NotFound("this opt-out link is not valid")
    return {"turn_mail": False}


@router.post("/reset", dependencies=[Depends(same_site)])
def reset(body: ResetIn, request: Request, accounts: AccountsDep) -> dict[str, Any]:
    """Mail a one-time reset link (an hour) to the account's address, if it has one and SMTP is configured. The
    answer is the same whether or not the account exists or has an address."""
    settings = request.app.state.settings
    if not settings.smtp_host:
        raise Forbidden("this server sends no mail: ask its operator to reset the password (docs/server.md)")
    got = accounts.reset_link(body.username, _address(request))
    if got is not None:
        to, name, token = got
        link = f"{settings.public_url.rstrip('/')}/#reset={token}"
        send_mail(settings, to, "Your tabletop password",
                  f"Hello {name},\n\nto choose a new password, open this link within an hour:\n{link}\n"
                  "(or POST its token to /api/account/reset/confirm). If you did not ask, ignore this mail.\n")
    return {"sent": "if the account has an address, a link is on its way"}


@router.post("/reset/confirm", dependencies=[Depends(same_site)])
def reset_confirm(body: ResetConfirm, accounts: AccountsDep) -> dict[str, Any]:
    """Spend a reset link: the new password is set and every session of the account is closed."""
    accounts.reset_password(body.token.get_secret_value(), body.new_password.get_secret_value())
    return {"reset": True}
