"""The tables: a game is its header (`games`), its seats (`seats`) and its append-only events (`events`).

The schema itself is created by the Alembic migrations in `migrations/versions`; these classes must match them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class GameRow(Base):
    """A game's header: everything needed to rebuild it from its events. The seed never leaves the server."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    rules_version: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    visibility: Mapped[str] = mapped_column(String(10))
    creator_name: Mapped[str] = mapped_column(String(40))
    creator_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(10), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    creator_address: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """A truncated SHA-256 of the address the game was created from (creation limits, the lobby); never shown."""
    __table_args__ = (Index("ix_games_creator_address_created", "creator_address", "created"),)


class SeatRow(Base):
    """One seat: a person (by token hash once claimed) or an AI (by strength label)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    mode: Mapped[str] = mapped_column(String(10))
    ai_label: Mapped[str | None] = mapped_column(String(10), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The account the seat is bound to (claimed while signed in, or attached later); None: a guest's or an AI's."""


class EventRow(Base):
    """One event of a game's log: an action (or, later, an undo). Never updated, never deleted."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),
        UniqueConstraint("game_id", "seat", "client_action_id", name="uq_events_client_action"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    client_action_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MessageRow(Base):
    """A line at the table: a player's chat (`chat`) or the server's notice to everyone (`notice`), indexed per
    game from 0. Never updated, never deleted."""

    __tablename__ = "messages"
    __table_args__ = (UniqueConstraint("game_id", "idx", name="uq_messages_game_idx"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    idx: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClockRow(Base):
    """A game's move clock: seconds per move, and the deadline of the decision owed at event `seq`."""

    __tablename__ = "clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    move_seconds: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountRow(Base):
    """A player's account (issue 23): a username (unique in its lower-case form) and an Argon2id password hash."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """Where "your turn" mails go (None: none); never shown to anyone but its owner."""
    turn_mail: Mapped[bool] = mapped_column(Boolean, server_default=true())
    """Whether the account wants "your turn" mails (the one-click opt-out clears it)."""
    mail_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The token of the account's one-click opt-out link (it can do nothing else)."""


class SessionRow(Base):
    """A signed-in browser: its cookie's secret stored hashed, its CSRF token, when it was made and last used."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    agent: Mapped[str] = mapped_column(String(120))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedGameRow(Base):
    """A game created rated (issue 23): its signed-in players' ratings move when it ends."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)


class RatingRow(Base):
    """An account's openskill rating (Plackett-Luce) in one game kind, and the rated games it counts."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """A finished game's result for one seat of an account, stored with the game's final event: its place, score,
    whether it won, and (rated) the rating it left with. Profiles read these (finished games only)."""

    __tablename__ = "results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(40))
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    won: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TurnMailRow(Base):
    """A "your turn" mail sent: at most one per game, seat and decision (the event count it has stood since)."""

    __tablename__ = "turn_mails"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    since: Mapped[int] = mapped_column(Integer, primary_key=True)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeftSeatRow(Base):
    """A seat whose player left (issue 23): an AI took it over; unrated from then on, even if taken back."""

    __tablename__ = "left_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(10))
    """The seat's mode before it was left (given back when the player takes the seat back)."""
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeaverLevelRow(Base):
    """The AI level its creator chose to play a leaver's seat of a game (issue 23); a game without a row (made before
    this table) takes the server's `leaver_level`."""

    __tablename__ = "leaver_levels"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    level: Mapped[str] = mapped_column(String(60))


class PasswordResetRow(Base):
    """A one-time password reset link (issue 23), stored as its SHA-256, valid until `expires`."""

    __tablename__ = "password_resets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PasskeyRow(Base):
    """A passkey (WebAuthn credential, issue 23) of an account: its id, public key (COSE) and signature count."""

    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    """base64url of the credential id."""
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(60))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewRow(Base):
    """A finished game's review of one seat's decisions (issue 24: `tabletop.server.reviews`), stored once."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    """`tabletop.agents.review.Review.to_json()`."""
    seconds: Mapped[float] = mapped_column(Float)
    """The search budget per decision it was made with."""
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))
