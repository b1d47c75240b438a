"""Creating a game: the seat requests, the credentials (tokens and what is stored of them), the creation limits and
their checks, and what the creator gets back."""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import insert, select

from tabletop.server.ai import PolicyOffer, check_label
from tabletop.server.errors import Full, Invalid, Limited
from tabletop.server.models import LeaverLevelRow
from tabletop.server.storage import SeatInfo, Storage, now

SEAT_KINDS = ("creator", "invite", "open", "ai")


@dataclass(frozen=True)
class CreationLimits:
    """Limits on creating games (0 turns one off). A creator is known by the address it creates from: a creator
    token is new with every game, so it cannot key a limit (accounts: issue 23). Defaults: docs/server.md."""

    games_per_hour: int = 30
    """Games an address may create in an hour (a sliding window)."""
    open_games: int = 10
    """Games created from an address that may wait for players at once."""
    waiting_games: int = 2000
    """Games that may wait for players at once, in total."""
    waiting_expiry: float = 48 * 3600.0
    """Seconds after its creation a game still waiting for players expires (status `expired`)."""
    ai_seats_per_address: int = 16
    """AI seats in the unfinished games created from an address."""
    ai_seats: int = 1000
    """AI seats in unfinished games, in total."""
    ai_only_games: int = 16
    """Games in play with no person's seat (every seat an AI), in total."""
    lobby_per_creator: int = 3
    """Waiting games the public lobby lists per creator name and per address."""


def address_key(host: str | None) -> str:
    """The stored form of a client address: a truncated SHA-256 of it (an IPv6 address by its /64 network, what
    one household or host is given), never shown to anyone."""
    key = host or "unknown"
    with contextlib.suppress(ValueError):
        ip = ipaddress.ip_address(key)
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
            key = str(ipaddress.ip_network(f"{ip}/64", strict=False))
        elif isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            key = str(ip.ipv4_mapped)
    return hashlib.sha256(f"tabletop address {key}".encode()).hexdigest()[:32]


def when(t: datetime) -> str:
    """A time as shown in a refusal: to the minute, UTC."""
    return t.strftime("%Y-%m-%d %H:%M UTC")


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh credential: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class SeatRequest:
    """How a seat is filled at creation: `creator`, `invite`, `open` or `ai` (with a strength label)."""

    kind: str
    ai: str | None = None
    name: str | None = None


@dataclass
class Created:
    """What the creator gets back: the game id, a creator token, its own seat token, one invite per invited seat."""

    game_id: str
    creator_token: str
    seat: int | None
    seat_token: str | None
    invites: dict[int, str]


def check_limits(storage: Storage, lim: CreationLimits, key: str, status: str, infos: list[SeatInfo]) -> None:
    """Limited (429) or Full (503) if creating a game of `infos` (with `status`) from address `key` would pass a
    creation limit."""
    at = now()
    hour = timedelta(hours=1)
    counts = storage.creation_counts(key, at - hour)
    ai = sum(s.kind == "ai" for s in infos)
    expiry = timedelta(seconds=lim.waiting_expiry)
    if lim.games_per_hour and counts.recent >= lim.games_per_hour:
        first = counts.oldest_recent or at
        raise Limited(f"this address has created {counts.recent} games in the last hour, the most it may "
                      f"(TABLETOP_GAMES_PER_HOUR); the next one at {when(first + hour)}",
                      (first + hour - at).total_seconds())
    if status == "waiting" and lim.open_games and counts.open >= lim.open_games:
        first = counts.oldest_open or at
        raise Limited(f"this address has {counts.open} games waiting for players, the most it may "
                      f"(TABLETOP_OPEN_GAMES); fill or finish one, or wait until the oldest expires at "
                      f"{when(first + expiry)}", (first + expiry - at).total_seconds())
    if status == "waiting" and lim.waiting_games and counts.waiting >= lim.waiting_games:
        raise Full(f"the server holds {counts.waiting} games waiting for players, the most it takes "
                   "(TABLETOP_WAITING_GAMES); try again in a few minutes", 300)
    if ai and lim.ai_seats_per_address and counts.ai_seats_mine + ai > lim.ai_seats_per_address:
        raise Limited(f"this address has {counts.ai_seats_mine} AI seats in games waiting or in play and may "
                      f"have {lim.ai_seats_per_address} (TABLETOP_AI_SEATS_PER_ADDRESS); this game adds {ai}; "
                      "try again once one of them has ended", 60)
    if ai and lim.ai_seats and counts.ai_seats + ai > lim.ai_seats:
        raise Full(f"the server has {counts.ai_seats} AI seats in games waiting or in play, the most it takes "
                   f"is {lim.ai_seats} (TABLETOP_AI_SEATS); try again in a few minutes", 120)
    if ai == len(infos) and lim.ai_only_games and counts.ai_only >= lim.ai_only_games:
        raise Full(f"{counts.ai_only} games of AI seats only are in play, the most this server runs at once "
                   f"(TABLETOP_AI_ONLY_GAMES); try again once one has ended, or seat a person", 60)


def check_seats(seats: list[SeatRequest], players: int, game: str, policies: dict[str, PolicyOffer]) -> None:
    """Invalid unless `seats` are `players` valid seat requests for `game` (its AI strengths among `policies` too)."""
    if len(seats) != players:
        raise Invalid(f"{players} players need {players} seats, got {len(seats)}")
    for i, req in enumerate(seats):
        if req.kind not in SEAT_KINDS:
            raise Invalid(f"seat {i}: kind {req.kind!r} is not one of {', '.join(SEAT_KINDS)}")
        if req.kind == "ai" and req.ai is not None:
            why = check_label(req.ai, game, players, policies)
            if why is not None:
                raise Invalid(f"seat {i}: {why}")
        if req.kind != "ai" and req.ai is not None:
            raise Invalid(f"seat {i}: only an AI seat has a strength")
    if sum(r.kind == "creator" for r in seats) > 1:
        raise Invalid("at most one seat is the creator's")


def check_leaver_level(level: str, game: str, players: int, policies: dict[str, PolicyOffer]) -> None:
    """Invalid unless `level` can play a leaver's seat of `game` with `players` (an AI strength or a policy for it)."""
    why = check_label(level, game, players, policies)
    if why is not None:
        raise Invalid(f"leaver_level: {why}")


def store_leaver_level(storage: Storage, game_id: str, level: str) -> None:
    """The AI level that plays a leaver's seat of the game, as its creator chose (issue 23)."""
    storage._write(lambda conn: conn.execute(insert(LeaverLevelRow.__table__),  # type: ignore[arg-type]
                                             {"game_id": game_id, "level": level}))


def leaver_level_of(storage: Storage, game_id: str, default: str) -> str:
    """The AI level that plays a leaver's seat of the game: its creator's choice, or `default` (the server's
    `leaver_level`) for a game made before there was a choice."""
    with storage._session() as db:
        return db.scalar(select(LeaverLevelRow.level).where(LeaverLevelRow.game_id == game_id)) or default
