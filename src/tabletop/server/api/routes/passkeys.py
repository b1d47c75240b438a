"""Passkeys (issue 23): WebAuthn credentials as a second way to sign in (the `webauthn` package).

A signed-in account registers a passkey (`POST /api/account/passkeys/options`, then `POST /api/account/passkeys`
with the browser's answer); anyone signs in with one (`POST /api/account/passkey/options`, then
`POST /api/account/passkey/signin`): a discoverable credential, so no username is asked. The relying party is the
host of `TABLETOP_PUBLIC_URL` and the expected origin that URL (a passkey is bound to its domain: an IP address
cannot be one). Each ceremony's challenge is kept in this process for five minutes and spent once."""

from __future__ import annotations

import secrets
import threading
import time
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, insert, select, update
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from tabletop.server.accounts import Accounts, _account
from tabletop.server.api.sessions import AccountsDep, SessionDep, same_site, set_cookie
from tabletop.server.errors import Forbidden, NotFound, Unauthorized
from tabletop.server.models import AccountRow, PasskeyRow
from tabletop.server.storage import now

router = APIRouter(prefix="/account", tags=["account"])

CHALLENGE_SECONDS = 300.0
"""How long a ceremony's challenge can be answered."""
_challenges: dict[str, tuple[bytes, str | None, float]] = {}
_lock = threading.Lock()


def _keep(challenge: bytes, account_id: str | None) -> str:
    ceremony = secrets.token_urlsafe(16)
    t = time.monotonic()
    with _lock:
        for k in [k for k, (_, _, at) in _challenges.items() if t - at > CHALLENGE_SECONDS]:
            del _challenges[k]
        _challenges[ceremony] = (challenge, account_id, t)
    return ceremony


def _spend(ceremony: str, account_id: str | None) -> bytes:
    with _lock:
        got = _challenges.pop(ceremony, None)
    if got is None or time.monotonic() - got[2] > CHALLENGE_SECONDS or got[1] != account_id:
        raise Forbidden("this passkey ceremony is unknown or expired: start again")
    return got[0]


def _party(request: Request) -> tuple[str, str]:
    """The relying party's id (the public URL's host) and the expected origin."""
    url = request.app.state.settings.public_url.rstrip("/")
    host = urlsplit(url).hostname or "localhost"
    return host, url


class Answer(BaseModel):
    """The browser's answer to a ceremony (a PublicKeyCredential as JSON) and the ceremony it answers."""

    model_config = ConfigDict(extra="forbid")
    ceremony: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any]
    name: str = Field(default="passkey", min_length=1, max_length=60)


def _listed(r: PasskeyRow) -> dict[str, Any]:
    return {"id": r.credential_id, "name": r.name, "created": r.created.isoformat()}


@router.post("/passkeys/options")
def registration_options(request: Request, accounts: AccountsDep, signed: SessionDep) -> dict[str, Any]:
    """The options for `navigator.credentials.create` (a discoverable credential of this account)."""
    rp_id, _ = _party(request)
    with accounts.storage._session() as s:
        have = s.scalars(select(PasskeyRow.credential_id).where(PasskeyRow.account_id == signed.account.id)).all()
    options = generate_registration_options(
        rp_id=rp_id, rp_name="tabletop", user_id=signed.account.id.encode(), user_name=signed.account.username,
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in have],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED))
    return {"ceremony": _keep(options.challenge, signed.account.id), "options": options_to_json(options)}


@router.post("/passkeys", status_code=201)
def register(body: Answer, request: Request, accounts: AccountsDep, signed: SessionDep) -> dict[str, Any]:
    """Store the passkey the browser made for the options of `ceremony`."""
    challenge = _spend(body.ceremony, signed.account.id)
    rp_id, origin = _party(request)
    try:
        got = verify_registration_response(credential=body.credential, expected_challenge=challenge,
                                           expected_rp_id=rp_id, expected_origin=origin)
    except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as e:
        raise Forbidden(f"the passkey was not accepted: {e}") from None
    created = now()
    row = {"credential_id": bytes_to_base64url(got.credential_id), "account_id": signed.account.id,
           "public_key": got.credential_public_key, "sign_count": got.sign_count, "name": body.name,
           "created": created}
    accounts.storage._write(lambda conn: conn.execute(insert(PasskeyRow.__table__), row))  # type: ignore[arg-type]
    return {"id": row["credential_id"], "name": body.name, "created": created.isoformat()}


@router.get("/passkeys")
def passkeys(accounts: AccountsDep, signed: SessionDep) -> list[dict[str, Any]]:
    """The account's passkeys."""
    with accounts.storage._session() as s:
        rows = s.scalars(select(PasskeyRow).where(PasskeyRow.account_id == signed.account.id)
                         .order_by(PasskeyRow.created)).all()
        return [_listed(r) for r in rows]


@router.delete("/passkeys/{credential_id}")
def remove(credential_id: Annotated[str, Path(min_length=1, max_length=1400)], accounts: AccountsDep,
           signed: SessionDep) -> dict[str, Any]:
    """Forget one of the account's passkeys (404 for another's)."""
    gone = accounts.storage._write(lambda conn: conn.execute(delete(PasskeyRow).where(
        PasskeyRow.credential_id == credential_id, PasskeyRow.account_id == signed.account.id)).rowcount)
    if not gone:
        raise NotFound("no such passkey")
    return {"removed": credential_id}


@router.post("/passkey/options", dependencies=[Depends(same_site)])
def authentication_options(request: Request) -> dict[str, Any]:
    """The options for `navigator.credentials.get` (any of this server's discoverable passkeys)."""
    rp_id, _ = _party(request)
    options = generate_authentication_options(rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    return {"ceremony": _keep(options.challenge, None), "options": options_to_json(options)}


def _signin_account(accounts: Accounts, credential_id: str) -> tuple[PasskeyRow, Any]:
    with accounts.storage._session() as s:
        key = s.get(PasskeyRow, credential_id)
        if key is None:
            raise Unauthorized("this passkey is not known here")
        row = s.get(AccountRow, key.account_id)
        if row is None:
            raise Unauthorized("this passkey is not known here")
        s.expunge(key)
        return key, _account(row)


@router.post("/passkey/signin", dependencies=[Depends(same_site)])
def signin(body: Answer, request: Request, response: Response, accounts: AccountsDep) -> dict[str, Any]:
    """Sign in with a passkey: a new session (the cookie set; the answer holds its CSRF token)."""
    challenge = _spend(body.ceremony, None)
    credential_id = str(body.credential.get("id", ""))
    key, account = _signin_account(accounts, credential_id)
    rp_id, origin = _party(request)
    try:
        got = verify_authentication_response(
            credential=body.credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=key.public_key, credential_current_sign_count=key.sign_count)
    except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError):
        raise Unauthorized("the passkey's answer was not accepted") from None
    accounts.storage._write(lambda conn: conn.execute(update(PasskeyRow).where(
        PasskeyRow.credential_id == credential_id).values(sign_count=got.new_sign_count)))
    signed, secret = accounts._open_session(account, request.headers.get("user-agent", ""))
    set_cookie(request, response, secret, int(accounts.session_life.total_seconds()))
    return {"username": account.username, "created": account.created.isoformat(), "csrf": signed.session.csrf,
            "session": signed.session.id}

