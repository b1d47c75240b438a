"""Route dependencies of accounts: the request's session (from its cookie), CSRF checks, the cookie itself."""

from __future__ import annotations

import secrets
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response

from tabletop.server.accounts import COOKIE, CSRF_HEADER, Accounts, SignedIn
from tabletop.server.errors import Forbidden, Unauthorized

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def get_accounts(request: Request) -> Accounts:
    """The app's accounts."""
    accounts: Accounts = request.app.state.accounts
    return accounts


def _check_csrf(request: Request, signed: SignedIn) -> None:
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not secrets.compare_digest(sent.encode(), signed.session.csrf.encode()):
        raise Forbidden(f"a request signed in by the session cookie needs its CSRF token in the {CSRF_HEADER} "
                        "header (GET /api/account/me gives it)")


def optional_session(request: Request) -> SignedIn | None:
    """The request's account and session, or None (no cookie, or a revoked or expired one: a guest). A
    state-changing request signed in by the cookie must carry the session's CSRF token: Forbidden otherwise."""
    secret = request.cookies.get(COOKIE)
    if not secret or len(secret) > 200:
        return None
    signed = get_accounts(request).session(secret)
    if signed is not None:
        _check_csrf(request, signed)
    return signed


def session_with_csrf(request: Request) -> SignedIn | None:
    """The request's account and session if its cookie is valid and its CSRF token sent; else None (a guest's
    request, a session without its token included: creating or claiming as a guest is what any page could do)."""
    secret = request.cookies.get(COOKIE)
    if not secret or len(secret) > 200:
        return None
    signed = get_accounts(request).session(secret)
    if signed is None:
        return None
    sent = request.headers.get(CSRF_HEADER, "")
    return signed if sent and secrets.compare_digest(sent.encode(), signed.session.csrf.encode()) else None


def required_session(signed: Annotated[SignedIn | None, Depends(optional_session)]) -> SignedIn:
    """The request's account and session; Unauthorized without one."""
    if signed is None:
        raise Unauthorized("sign in first (no session, or it was revoked or has expired)")
    return signed


def same_site(request: Request) -> None:
    """Forbidden when a browser sends the request from another site's page (its `Origin` is not the public URL's,
    the request's own host's, or an allowed origin): sign-up and sign-in, which no session protects yet."""
    origin = request.headers.get("origin")
    if origin is None:
        return  # not a browser's cross-site request (browsers send Origin on every cross-site POST)
    settings = request.app.state.settings
    pub = urlsplit(settings.public_url)
    allowed = {f"{pub.scheme}://{pub.netloc}", *settings.allowed_origins}
    host = request.headers.get("host")
    if host:
        allowed |= {f"http://{host}", f"https://{host}"}
    if origin not in allowed:
        raise Forbidden("this request came from another site's page")


def set_cookie(request: Request, response: Response, secret: str, max_age: int) -> None:
    """Set the session cookie: HttpOnly, SameSite=Lax, Secure when the server is reached over https."""
    secure = request.app.state.settings.public_url.startswith("https://")
    response.set_cookie(COOKIE, secret, max_age=max_age, path="/", httponly=True, samesite="lax", secure=secure)


def clear_cookie(request: Request, response: Response) -> None:
    """Remove the session cookie."""
    secure = request.app.state.settings.public_url.startswith("https://")
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)


AccountsDep = Annotated[Accounts, Depends(get_accounts)]
SessionDep = Annotated[SignedIn, Depends(required_session)]
MaybeSessionDep = Annotated[SignedIn | None, Depends(optional_session)]
CsrfSessionDep = Annotated[SignedIn | None, Depends(session_with_csrf)]
