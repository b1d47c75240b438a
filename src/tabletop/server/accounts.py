"""Accounts and their sessions (issue 23), beside guest play, which stays as it was.

An account is a username and an Argon2id hash of its password (argon2-cffi). Signing in makes a session: a random
secret in an HttpOnly, SameSite=Lax cookie (Secure when the public URL is https), stored as its SHA-256 only, with
a CSRF token of its own. Every state-changing request that a session cookie authenticates must carry that token in
the `X-CSRF-Token` header (a synchronizer token, checked against the stored one): a page of another site can make
the browser send the cookie, but it cannot read the token. Sign-up and sign-in, which no session protects yet, are
refused when their `Origin` is another site's (no signing a victim in to an attacker's account).

Log-in attempts spend from two token buckets, one per account (by username, whether it exists or not) and one per
client address; an unknown username costs one Argon2 verification like a known one, so neither the answer nor its
time tells which usernames exist. A password is never logged, echoed, or kept anywhere but as its hash.

Revoking a session (signing out, revoking it from the list, changing the password, deleting the account) is
announced on the broker topic `session_topic(id)`: the sockets that session opened close at once (4401), in every
server process (the PostgreSQL broker carries it).
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from tabletop.server.creation import address_key, new_token, token_hash
from tabletop.server.errors import Conflict, Forbidden, Invalid, NotFound, RateLimited, Unauthorized
from tabletop.server.limits import Buckets
from tabletop.server.models import (
    AccountRow,
    GameRow,
    PasskeyRow,
    PasswordResetRow,
    RatingRow,
    ResultRow,
    SeatRow,
    SessionRow,
)
from tabletop.server.pubsub import Broker
from tabletop.server.settings import Settings
from tabletop.server.storage import Storage, _aware, now

COOKIE = "tabletop_session"
"""The session cookie's name."""
CSRF_HEADER = "X-CSRF-Token"
"""The header that carries a session's CSRF token on every state-changing request the session authenticates."""
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,23}$")
"""3 to 24 letters, digits, `_`, `.` or `-`, starting with a letter or digit (unique whatever their case)."""
PASSWORD_MIN, PASSWORD_MAX = 8, 256
DELETED_NAME = "a former player"
"""The name the seats of a deleted account are given (its finished games stay, anonymised)."""


def session_topic(session_id: str) -> str:
    """The broker topic on which a session's revocation is announced (its sockets close)."""
    return f"session:{session_id}"


def check_password(password: str, username: str) -> None:
    """Invalid (never quoting the password) unless it may be an account's password."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Invalid(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    if password.casefold() == username.casefold():
        raise Invalid("a password may not be the username")


def check_username(username: str) -> str:
    """The username as given, if valid (Invalid otherwise)."""
    if not USERNAME.match(username):
        raise Invalid("a username has 3 to 24 letters, digits, '_', '.' or '-', and starts with a letter or digit")
    return username


@dataclass(frozen=True)
class Account:
    """An account as the server shows it to its owner: never its password hash."""

    id: str
    username: str
    created: datetime


@dataclass(frozen=True)
class Session:
    """A signed-in browser. `id` is public (the sessions list, revoking); the cookie's secret is stored hashed."""

    id: str
    account_id: str
    csrf: str
    agent: str
    created: datetime
    last_seen: datetime
    expires: datetime


@dataclass(frozen=True)
class SignedIn:
    """A request's account and session."""

    account: Account
    session: Session


@dataclass(frozen=True)
class LoginLimits:
    """Log-in attempts (sign-in, and sign-up per address) allowed: a burst, then a sustained rate per second."""

    per_account_rate: float = 1 / 60
    per_account_burst: int = 10
    per_address_rate: float = 0.1
    per_address_burst: int = 30


def _account(r: AccountRow) -> Account:
    return Account(r.id, r.username, _aware(r.created))


def _session(r: SessionRow) -> Session:
    return Session(r.id, r.account_id, r.csrf, r.agent, _aware(r.created), _aware(r.last_seen), _aware(r.expires))


class Accounts:
    """Accounts and sessions in the server's database."""

    LAST_SEEN_STEP = timedelta(minutes=1)
    """A session's `last_seen` is written at most this often."""

    def __init__(self, storage: Storage, broker: Broker, hasher: PasswordHasher | None = None,
                 session_days: float = 30.0, limits: LoginLimits | None = None,
                 clock: Callable[[], datetime] = now) -> None:
        self.storage, self.broker, self.clock = storage, broker, clock
        self.hasher = hasher or PasswordHasher()  # Argon2id, RFC 9106's second recommended parameters
        self.session_life = timedelta(days=session_days)
        limits = limits or LoginLimits()
        self.per_account = Buckets(limits.per_account_rate, limits.per_account_burst)
        self.per_address = Buckets(limits.per_address_rate, limits.per_address_burst)
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))  # verified for unknown usernames: the same time

    # ---- signing up and in ----------------------------------------------------------------------------------
    def _spend(self, address: str | None, username: str | None) -> None:
        wait = self.per_address.take(address_key(address))
        if wait:
            raise RateLimited("too many log-in attempts from this address; try again later", wait)
        if username is not None:
            wait = self.per_account.take(username.casefold())
            if wait:
                raise RateLimited("too many log-in attempts for this account; try again later", wait)

    def signup(self, username: str, password: str, address: str | None, agent: str) -> tuple[SignedIn, str]:
        """A new account, signed in: its session and the cookie's secret. Conflict if the username is taken."""
        check_username(username)
        check_password(password, username)
        self._spend(address, None)
        account = Account(uuid.uuid4().hex, username, self.clock())
        row = {"id": account.id, "username": username, "username_key": username.casefold(),
               "password_hash": self.hasher.hash(password), "created": account.created}
        try:
            self.storage._write(lambda conn: conn.execute(insert(AccountRow.__table__), row))  # type: ignore[arg-type]
        except IntegrityError:
            raise Conflict(f"the username {username!r} is taken") from None
        return self._open_session(account, agent)

    def signin(self, username: str, password: str, address: str | None, agent: str) -> tuple[SignedIn, str]:
        """Sign in: a new session and the cookie's secret; Unauthorized (the same answer for an unknown username
        and a wrong password) or RateLimited."""
        self._spend(address, username)
        with self.storage._session() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.username_key == username.casefold())).first()
            stored = row.password_hash if row is not None else self._dummy
            account = _account(row) if row is not None else None
        ok = self._verify(stored, password)
        if account is None or not ok:
            raise Unauthorized("wrong username or password")
        if self.hasher.check_needs_rehash(stored):
            self._set_hash(account.id, self.hasher.hash(password))
        return self._open_session(account, agent)

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def _set_hash(self, account_id: str, hashed: str) -> None:
        self.storage._write(lambda conn: conn.execute(
            update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed)))

    def _open_session(self, account: Account, agent: str) -> tuple[SignedIn, str]:
        secret = new_token()
        t = self.clock()
        session = Session(uuid.uuid4().hex, account.id, new_token(), agent[:120], t, t, t + self.session_life)
        row = {"id": session.id, "secret_hash": token_hash(secret), "account_id": account.id, "csrf": session.csrf,
               "agent": session.agent, "created": t, "last_seen": t, "expires": session.expires}
        self.storage._write(lambda conn: conn.execute(insert(SessionRow.__table__), row))  # type: ignore[arg-type]
        return SignedIn(account, session), secret

    # ---- a request's session --------------------------------------------------------------------------------
    def session(self, secret: str) -> SignedIn | None:
        """The account and session of a cookie's secret; None if it is unknown, revoked or expired."""
        h = token_hash(secret)
        with self.storage._session() as s:
            got = s.execute(select(SessionRow, AccountRow).join(AccountRow, AccountRow.id == SessionRow.account_id)
                            .where(SessionRow.secret_hash == h)).first()
            if got is None:
                return None
            session, account = _session(got[0]), _account(got[1])
        t = self.clock()
        if t >= session.expires:
            self._drop([session.id])
            return None
        if t - session.last_seen >= self.LAST_SEEN_STEP:
            self.storage._write(lambda conn: conn.execute(
                update(SessionRow).where(SessionRow.id == session.id).values(last_seen=t)))
        return SignedIn(account, session)

    def seen_by_id(self, session_id: str) -> bool:
        """Whether the session is still open (not revoked, not expired)."""
        with self.storage._session() as s:
            row = s.get(SessionRow, session_id)
            return row is not None and self.clock() < _aware(row.expires)

    # ---- sessions -------------------------------------------------------------------------------------------
    def sessions(self, account_id: str) -> list[Session]:
        """The account's open sessions, the most recently used first."""
        t = self.clock()
        with self.storage._session() as s:
            rows = s.scalars(select(SessionRow).where(SessionRow.account_id == account_id)
                             .order_by(SessionRow.last_seen.desc())).all()
            return [_session(r) for r in rows if t < _aware(r.expires)]

    def revoke(self, account_id: str, session_id: str) -> None:
        """Close one of the account's sessions (its cookie stops working, its sockets close)."""
        with self.storage._session() as s:
            row = s.get(SessionRow, session_id)
            if row is None or row.account_id != account_id:
                raise NotFound("no such session of this account")
        self._drop([session_id])

    def _drop(self, ids: list[str]) -> None:
        if not ids:
            return
        self.storage._write(lambda conn: conn.execute(delete(SessionRow).where(SessionRow.id.in_(ids))))
        for sid in ids:
            self.broker.publish(session_topic(sid), 0)

    def _others(self, account_id: str, keep: str | None) -> list[str]:
        with self.storage._session() as s:
            return [sid for sid in s.scalars(select(SessionRow.id).where(SessionRow.account_id == account_id))
                    if sid != keep]

    # ---- the account ----------------------------------------------------------------------------------------
    def _check_own_password(self, account_id: str, password: str) -> None:
        with self.storage._session() as s:
            row = s.get(AccountRow, account_id)
            if row is None:
                raise Unauthorized("this account no longer exists")
            stored = row.password_hash
        wait = self.per_account.take(f"id:{account_id}")
        if wait:
            raise RateLimited("too many password attempts for this account; try again later", wait)
        if not self._verify(stored, password):
            raise Forbidden("the current password is wrong")

    def change_password(self, signed: SignedIn, old: str, new: str) -> int:
        """Change the password (the current one is asked again): every other session of the account is closed,
        and its sockets with it; the number closed."""
        check_password(new, signed.account.username)
        self._check_own_password(signed.account.id, old)
        self._set_hash(signed.account.id, self.hasher.hash(new))
        others = self._others(signed.account.id, keep=signed.session.id)
        self._drop(others)
        return len(others)

    def delete(self, signed: SignedIn, password: str) -> None:
        """Delete the account (its password asked again): its sessions close, its seats are unbound and renamed
        `DELETED_NAME`; its games stay, the finished ones with their records, anonymised."""
        self._check_own_password(signed.account.id, password)
        account_id = signed.account.id
        sessions = self._others(account_id, keep=None)

        def op(conn: Connection) -> None:
            conn.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                         .values(account_id=None, name=DELETED_NAME))
            conn.execute(update(ResultRow).where(ResultRow.account_id == account_id).values(account_id=None))
            conn.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
            conn.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            conn.execute(delete(PasskeyRow).where(PasskeyRow.account_id == account_id))
            conn.execute(delete(AccountRow).where(AccountRow.id == account_id))

        self.storage._write(op)
        for sid in sessions:
            self.broker.publish(session_topic(sid), 0)

    def mail(self, account_id: str) -> dict[str, Any]:
        """The account's mail settings, for its owner only."""
        with self.storage._session() as s:
            row = s.get(AccountRow, account_id)
            if row is None:
                raise Unauthorized("this account no longer exists")
            return {"email": row.email, "turn_mail": bool(row.turn_mail)}

    def set_mail(self, account_id: str, email: str | None, turn_mail: bool) -> None:
        """Set the address of "your turn" mails and whether they are wanted (a new opt-out token with an address)."""
        token = new_token() if email else None
        self.storage._write(lambda conn: conn.execute(update(AccountRow).where(AccountRow.id == account_id)
                                                      .values(email=email, turn_mail=turn_mail, mail_token=token)))

    RESET_LIFE = timedelta(hours=1)
    """How long a password reset link is valid."""

    def reset_link(self, username: str, address: str | None) -> tuple[str, str, str] | None:
        """A one-time password reset token for the account (spent from both log-in buckets): (its address, its
        username, the token), or None if the account is unknown or has no address (the caller answers the same)."""
        self._spend(address, username)
        with self.storage._session() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.username_key == username.casefold())).first()
            if row is None or not row.email:
                return None
            account_id, email, name = row.id, row.email, row.username
        token = new_token()
        values = {"token_hash": token_hash(token), "account_id": account_id, "expires": self.clock() + self.RESET_LIFE}
        self.storage._write(lambda conn: conn.execute(insert(PasswordResetRow.__table__), values))  # type: ignore[arg-type]
        return email, name, token

    def reset_password(self, token: str, new: str) -> None:
        """Spend a reset token: the new password is set and every session of the account closed (Forbidden for an
        unknown, spent or expired token)."""
        h = token_hash(token)
        with self.storage._session() as s:
            row = s.get(PasswordResetRow, h)
            account = s.get(AccountRow, row.account_id) if row is not None else None
            valid = row is not None and account is not None and self.clock() < _aware(row.expires)
            account_id, username = (account.id, account.username) if account is not None else ("", "")
        if not valid:
            raise Forbidden("this reset link is not valid (already used, expired, or mistyped)")
        check_password(new, username)
        hashed = self.hasher.hash(new)

        def op(conn: Connection) -> int:
            spent = conn.execute(delete(PasswordResetRow).where(PasswordResetRow.token_hash == h))
            if getattr(spent, "rowcount", 0) != 1:
                return 0  # spent meanwhile
            conn.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed))
            return 1

        if not self.storage._write(op):
            raise Forbidden("this reset link is not valid (already used, expired, or mistyped)")
        self._drop(self._others(account_id, keep=None))

    def games_of(self, account_id: str) -> list[tuple[str, int]]:
        """(game id, seat) of every seat bound to the account, the newest game first."""
        with self.storage._session() as s:
            rows = s.execute(select(SeatRow.game_id, SeatRow.seat).join(GameRow, GameRow.id == SeatRow.game_id)
                             .where(SeatRow.account_id == account_id).order_by(GameRow.created.desc())).all()
            return [(g, seat) for g, seat in rows]


def make_accounts(storage: Storage, broker: Broker, settings: Settings) -> Accounts:
    """The accounts of a server with `settings`."""
    hasher = PasswordHasher(time_cost=settings.password_time_cost, memory_cost=settings.password_memory_kib)
    limits = LoginLimits(settings.login_rate_per_account, settings.login_burst_per_account,
                         settings.login_rate_per_address, settings.login_burst_per_address)
    return Accounts(storage, broker, hasher, settings.session_days, limits)


class AccountKey(str):
    """A signed-in account's credential for a seat, made by the server from a valid session (never from a
    request's text): the service's seat gates (`seat_of`, `holds_nowait`) find the seat bound to the account."""

    account_id: str

    def __new__(cls, account_id: str) -> AccountKey:
        key = super().__new__(cls, f"account:{account_id}")
        key.account_id = account_id
        return key
