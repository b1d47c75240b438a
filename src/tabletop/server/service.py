"""Games, seats, actions and AI moves: the server's rules of play, unaware of HTTP.

A live game is rebuilt from its stored events on first use and cached. Each game has a lock; an action is
checked on a clone of the live state, committed to the database, and only then swapped in and announced.
States are never mutated once live, so readers may take the current one and build views outside the lock.

Several server processes may share one PostgreSQL database. The database decides: an event is stored only if its
`seq` (and the seat's client action id) is still free, a seat is claimed only if still free. A process whose
cache is behind (its insert conflicts, a client quotes a later `seq`, a token it does not know) refreshes the game
from the database and decides again; a notice from another process refreshes the cached game before local
clients are told. Only the process the broker elects computes AI moves.

Its parts: a game in memory and its replay in `live`, the cache of games in memory in `cache`, what creating a game
takes (seat requests, tokens, the creation limits) in `creation`, where AI moves are computed in `moves`, the
refusals in `errors` (the names others import from here are re-exported).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import Connection

from tabletop.core import IllegalAction, InvalidOptions, State, UnknownGame, game_info, games, new_game
from tabletop.server import views
from tabletop.server.accounts import AccountKey
from tabletop.server.ai import PolicyOffer, find_policies, ordered_labels
from tabletop.server.cache import GameCache
from tabletop.server.creation import (
    Created,
    CreationLimits,
    SeatRequest,
    address_key,
    check_leaver_level,
    check_limits,
    check_seats,
    new_token,
    store_leaver_level,
    token_hash,
    when,
)
from tabletop.server.errors import (
    STATUS,
    Conflict,
    Forbidden,
    Full,
    Invalid,
    Limited,
    NotFound,
    ServiceError,
    Unauthorized,
)
from tabletop.server.live import SERVER_ACTION_IDS, Live, build_state, effective_actions
from tabletop.server.moves import AIMoves
from tabletop.server.pubsub import Broker, PgBroker
from tabletop.server.storage import Event, EventConflict, GameHeader, SeatInfo, Storage, now

__all__ = [  # its own, and those others import from here (from errors, live, creation)
    "SERVER_ACTION_IDS", "STATUS", "Conflict", "Created", "CreationLimits", "Forbidden", "Full", "GameService",
    "Invalid", "Limited", "Live", "NotFound", "SeatRequest", "ServiceError", "Unauthorized", "address_key",
    "build_state", "check_client_action_id", "effective_actions", "new_token", "token_hash",
]

log = logging.getLogger("tabletop.server")

BOT_LABEL = "bot"
"""The label of a person's seat a program plays (`GameService.mark_bot`): public, `"bot": true` in its seat's facts."""


def check_client_action_id(client_action_id: str | None) -> None:
    """Invalid if a client chose an id in the server's own namespace."""
    if client_action_id is not None and client_action_id.startswith(SERVER_ACTION_IDS):
        raise Invalid(f"client_action_id {client_action_id[:64]!r}: ids starting with {SERVER_ACTION_IDS!r} are the "
                      "server's own; choose any other string of 1-64 characters")


class GameService:
    """Everything a client may ask of the server, in plain Python."""

    on_over: Callable[[GameHeader, list[SeatInfo], State], Callable[[Connection], None] | None] | None = None
    """What the event that ends a game also writes, in its transaction (the app sets `Ratings.final_op`)."""

    def __init__(self, storage: Storage, broker: Broker, pool_factory: Callable[[], Executor] | None,
                 public_url: str, cache_games: int = 2000, policy_dir: str | None = None, ai_slots: int = 1,
                 limits: CreationLimits | None = None) -> None:
        self.storage = storage
        self.policies: dict[str, PolicyOffer] = find_policies(policy_dir)
        """Trained policies offered as AI seats, by label (`policy_dir`; None: the shipped ones)."""
        self.broker = broker
        self.ai = AIMoves(pool_factory, ai_slots, self.policies, self._ai_commit, lambda: self._closed)
        """Where AI moves are computed (none without a `pool_factory`) and handed back to `_ai_commit`."""
        self.limits = limits or CreationLimits()
        self._create_lock = threading.Lock()
        self.public_url = public_url.rstrip("/")
        self.cache = GameCache(storage, cache_games)
        """The games in memory, loaded from and refreshed against the database."""
        self._live = self.cache.games  # the cached games by id, least recently used first
        self._closed = False
        self.shared = isinstance(broker, PgBroker)
        """Whether other server processes may write to the same database."""

    def start(self) -> None:
        """Start listening to the broker; games in play resume once this process owns the AI moves."""
        if isinstance(self.broker, PgBroker):
            self.broker.on_reconnect = self.refresh_all
        self.broker.start(self.on_remote, self._owned)

    def _owned(self) -> None:
        self.resume()

    # ---- static facts -----------------------------------------------------------------------------------
    def meta(self) -> list[dict[str, Any]]:
        """The engine's games, their player counts, options and rules versions; the AI labels (the built-in
        strengths and the trained policies for the game, weakest first: `ordered_labels`) and, in `policies`,
        which player count each policy plays and its place among the strengths."""
        out = []
        for name in games():
            d = game_info(name).describe()
            mine = [p for p in self.policies.values() if p.game == name]
            d["ai"] = ordered_labels(mine)  # weakest first, each policy at its measured place
            d["policies"] = [p.public() for p in mine]
            out.append(d)
        return out

    def invite_url(self, game_id: str, code: str) -> str:
        """The link a friend opens to claim an invited seat (the code rides in the fragment, never in logs)."""
        return f"{self.public_url}/join/{game_id}#{code}"

    # ---- creating and seating --------------------------------------------------------------------------
    def create(self, game: str, players: int | None, options: dict[str, Any], visibility: str,
               seats: list[SeatRequest] | None, creator_name: str, address: str | None = None,
               seed: int | None = None, account_id: str | None = None, leaver_level: str | None = None) -> Created:
        """A new game, created from client `address`; options are validated by the engine (Invalid says what is
        allowed); the creation limits (`CreationLimits`) answer Limited (429) or Full (503), saying when to retry.
        `seed` is the server's own choice (a tutorial's fixed deal); no client sets it. `account_id`: the creator
        is signed in, and the creator's seat is bound to that account. `leaver_level`: the AI level that plays a seat
        its player leaves (or concedes, with more than two players), stored with the game (None: none stored, the
        server's default applies)."""
        try:
            info = game_info(game)
        except UnknownGame as e:
            raise Invalid(str(e), allowed={"games": games()}) from None
        if players is None:
            players = len(seats) if seats else info.default_players
        seed = secrets.randbits(62) if seed is None else seed
        try:
            options = new_game(game, players, seed, options).options  # resolved: defaults filled in
        except InvalidOptions as e:
            raise Invalid(str(e), allowed=info.describe()) from None
        seats = seats or [SeatRequest("creator"), *[SeatRequest("open")] * (players - 1)]
        check_seats(seats, players, info.name, self.policies)
        if leaver_level is not None:
            check_leaver_level(leaver_level, info.name, players, self.policies)
        game_id = uuid.uuid4().hex
        creator_token = new_token()
        infos: list[SeatInfo] = []
        own_seat: int | None = None
        own_token: str | None = None
        invites: dict[int, str] = {}
        for i, req in enumerate(seats):
            name = req.name or (creator_name if req.kind == "creator" else f"seat {i + 1}")
            if req.kind == "ai":
                label = req.ai or "easy"
                infos.append(SeatInfo(i, "ai", "ai", label, None, None, req.name or f"AI ({label})"))
            elif req.kind == "creator":
                own_seat, own_token = i, new_token()
                infos.append(SeatInfo(i, "human", "creator", None, token_hash(own_token), None, name, account_id))
            elif req.kind == "invite":
                code = new_token()
                invites[i] = code
                infos.append(SeatInfo(i, "human", "invite", None, None, token_hash(code), name))
            else:
                infos.append(SeatInfo(i, "human", "open", None, None, None, name))
        status = "playing" if all(s.kind == "ai" or s.token_hash for s in infos) else "waiting"
        key = address_key(address)
        with self._create_lock:  # one process checks and stores one creation at a time (several: a small overshoot)
            check_limits(self.storage, self.limits, key, status, infos)
            header = GameHeader(game_id, game, info.version, players, dict(options), seed, visibility, creator_name,
                                token_hash(creator_token), status, now(), key)
            self.storage.create_game(header, infos)
        if leaver_level is not None:
            store_leaver_level(self.storage, game_id, leaver_level)
        live = self._get(game_id)
        with live.lock:
            self._schedule_ai(live)
        return Created(game_id, creator_token, own_seat, own_token, invites)

    def claim(self, game_id: str, code: str, name: str | None, account_id: str | None = None) -> tuple[int, str]:
        """Claim an invited seat with its one-time code: a fresh seat token; the code is spent. `account_id`: the
        claimant is signed in, and the seat is bound to the account (any of its sessions may play it)."""
        live = self._get(game_id)
        h = token_hash(code)
        with live.lock:
            self._check_not_expired(live)
            for refresh in (False, True):
                if refresh:
                    self._refresh(live)
                for s in live.seats:
                    if s.invite_hash is not None and secrets.compare_digest(s.invite_hash, h):
                        return self._seat_person(live, s, name, mode=s.mode, expect={"invite_hash": h},
                                                 account_id=account_id)
        raise Forbidden("this invite is not valid for this game (already used, revoked, or mistyped)")

    def join(self, game_id: str, seat: int | None, name: str | None, account_id: str | None = None
             ) -> tuple[int, str]:
        """Take an open seat (the first one if `seat` is None): a fresh seat token."""
        live = self._get(game_id)
        with live.lock:
            self._check_not_expired(live)
            free = [s for s in live.seats if s.mode == "open" and s.token_hash is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise Conflict("no open seat to take" if seat is None else f"seat {seat} is not open")
            return self._seat_person(live, free[0], name, mode="open", expect={"mode": "open", "token_hash": None},
                                     account_id=account_id)

    def reseat(self, game_id: str, creator_token: str, seat: int) -> str:
        """The creator revokes a person's seat token and gets a new one-time invite for that seat."""
        live = self._get(game_id)
        if not secrets.compare_digest(live.header.creator_hash, token_hash(creator_token)):
            raise Forbidden("only the game's creator may re-seat a player")
        with live.lock:
            if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
                raise Invalid(f"seat {seat} is not a person's seat")
            code = new_token()
            self.storage.update_seat(game_id, seat, token_hash=None, invite_hash=token_hash(code), mode="invite",
                                     account_id=None, ai_label=None)  # a bot's mark goes with its token
            live.seats[seat] = replace(live.seats[seat], token_hash=None, invite_hash=token_hash(code), mode="invite",
                                       account_id=None, ai_label=None)
            self.broker.publish(game_id, live.seq)  # other processes drop the revoked token
            return code

    def _seat_person(self, live: Live, s: SeatInfo, name: str | None, mode: str, expect: dict[str, Any],
                     account_id: str | None = None) -> tuple[int, str]:
        """Seat a person if the seat is still as `expect` says in the database (bound to `account_id` if given: one
        seat per account and game). Caller holds the lock."""
        if account_id is not None:
            held = [o.seat for o in live.seats if o.account_id == account_id]
            if held:
                raise Conflict(f"this account already holds seat {held[0]} of this game")
        token = new_token()
        new = replace(s, token_hash=token_hash(token), invite_hash=None, name=name or s.name, mode=mode)
        changed, started = self.storage.seat_person(live.header.id, s.seat, expect, token_hash=new.token_hash,
                                                    invite_hash=None, name=new.name, mode=mode,
                                                    account_id=account_id)
        if not changed:
            self._refresh(live)  # another process got there first
            raise Conflict(f"seat {s.seat} was just taken")
        self._refresh(live)  # the seats and status as stored, those other processes filled included
        if started:  # this claim filled the last empty seat (in the same commit, the game began)
            self._schedule_ai(live)
        self.broker.publish(live.header.id, live.seq)
        return s.seat, token

    # ---- reading -------------------------------------------------------------------------------------------
    def info(self, game_id: str) -> dict[str, Any]:
        """A game's public facts: no seed, no tokens, no hidden state."""
        live = self._get(game_id)
        with live.lock:
            return {**self._public(live.header, live.seats), "seq": live.seq}

    def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        """Public games waiting for players or being played, newest first: at most `lobby_per_creator` waiting
        games per creator name and per address (so no one fills it), none past its expiry."""
        per = self.limits.lobby_per_creator
        cutoff = self._expiry_cutoff()
        names: dict[str, int] = {}
        addresses: dict[str, int] = {}

        def keep(h: GameHeader) -> bool:
            if h.status != "waiting":
                return True
            if cutoff is not None and h.created < cutoff:
                return False
            if not per:
                return True
            name, address = h.creator_name.strip().casefold(), h.creator_address or h.id
            if names.get(name, 0) >= per or addresses.get(address, 0) >= per:
                return False
            names[name] = names.get(name, 0) + 1
            addresses[address] = addresses.get(address, 0) + 1
            return True

        return [self._public(h, s) for h, s in self.storage.list_games(("waiting", "playing"), limit, keep)]

    def _expiry_cutoff(self) -> datetime | None:
        """Games waiting since before this have expired (None: they never do)."""
        expiry = self.limits.waiting_expiry
        return now() - timedelta(seconds=expiry) if expiry > 0 else None

    def expire_waiting(self) -> int:
        """Games waiting for players past their expiry become `expired` (in the cache too; their sockets are told):
        how many."""
        cutoff = self._expiry_cutoff()
        if cutoff is None:
            return 0
        ids = self.storage.expire_waiting(cutoff)
        for game_id in ids:
            live = self.cache.find(game_id)
            if live is not None:
                with live.lock:
                    if live.header.status == "waiting":
                        live.header = replace(live.header, status="expired")
                    seq = live.seq
            else:
                seq = 0
            self.broker.publish(game_id, seq)
        if ids:
            log.info("%d game(s) waiting for players since before %s expired", len(ids), when(cutoff))
        return len(ids)

    def _check_not_expired(self, live: Live) -> None:
        """Conflict if the game expired (or is past its expiry, not yet swept). Caller holds the lock."""
        cutoff = self._expiry_cutoff()
        if live.header.status == "expired" or (
                live.header.status == "waiting" and cutoff is not None and live.header.created < cutoff):
            raise Conflict(f"this game expired: nobody took its open seats within "
                           f"{self.limits.waiting_expiry / 3600:g} h of its creation")

    @staticmethod
    def _public(h: GameHeader, seats: list[SeatInfo]) -> dict[str, Any]:
        info = game_info(h.game)
        return {
            "id": h.id, "game": h.game, "title": info.title, "chat": not info.no_chat, "rules_version": h.rules_version,
            "players": h.players, "options": h.options, "visibility": h.visibility, "status": h.status,
            "creator": h.creator_name, "created": h.created.isoformat(),
            "seats": [{"seat": s.seat, "kind": s.kind, "mode": s.mode, "ai": s.ai_label if s.kind == "ai" else None,
                       "name": s.name, "bot": s.kind != "ai" and s.ai_label == BOT_LABEL,
                       "taken": s.kind == "ai" or s.token_hash is not None} for s in seats],
        }

    def mark_bot(self, game_id: str, token: str) -> int:
        """The token's seat says a program plays it (a bot, docs/bots.md): marked `bot` at the table and in the
        lobby from now on (the seat's label: it stays a person's seat, played over the public API like any, on the
        same clock). Idempotent; the server's own AI seats are not bots."""
        seat = self.seat_of(game_id, token)
        if seat is None:
            raise Unauthorized("marking a seat as a bot needs its seat token (Authorization: Bearer <seat token>)")
        live = self._get(game_id)
        with live.lock:
            s = live.seats[seat]
            if s.kind == "ai":
                raise Invalid(f"seat {seat} is one of the server's AI seats, not a bot")
            if s.ai_label != BOT_LABEL:
                self.storage.update_seat(game_id, seat, ai_label=BOT_LABEL)
                live.seats[seat] = replace(s, ai_label=BOT_LABEL)
                self.broker.publish(game_id, live.seq)
        return seat

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token holds (None without a token: a spectator); Unauthorized for a wrong token."""
        live = self._get(game_id)
        if token is None:
            return None
        if isinstance(token, AccountKey):
            found = self.account_seat(game_id, token.account_id)
            if found is None:
                raise Unauthorized("this account holds no seat in this game")
            return found
        h = token_hash(token)
        for refresh in (False, True):
            if refresh:  # perhaps claimed through another process a moment ago
                with live.lock:
                    self._refresh(live)
            for s in live.seats:
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                    return s.seat
        raise Unauthorized("this token holds no seat in this game")

    def holds_nowait(self, game_id: str, token: str, seat: int) -> bool | None:
        """Whether `token` still holds `seat`, from the cached game without waiting (for the event loop); None if the
        game is not cached (ask `seat_of` from a worker thread). A re-seat replaces the seat's token in the cache
        before it is announced, here and (through the broker's refresh) in every other process, so a socket that
        checks this before each message it sends never sends a revoked token anything after the revocation."""
        live = self.cache.find_nowait(game_id)
        if live is None:
            return None
        seats = live.seats
        if not 0 <= seat < len(seats):
            return False
        if isinstance(token, AccountKey):
            return seats[seat].account_id == token.account_id
        held = seats[seat].token_hash
        return held is not None and secrets.compare_digest(held, token_hash(token))

    def account_seat(self, game_id: str, account_id: str) -> int | None:
        """The seat of `game_id` bound to the account, or None (refreshed once from the database before None: it
        may have been claimed through another process a moment ago)."""
        live = self._get(game_id)
        for refresh in (False, True):
            if refresh:
                with live.lock:
                    self._refresh(live)
            for s in live.seats:
                if s.account_id == account_id:
                    return s.seat
        return None

    def seats_changed(self, game_id: str) -> None:
        """A game's seats were changed in the database by someone else (an account deleted): refresh the cached
        game, here and, through the broker, in the other processes."""
        live = self.cache.find(game_id)
        if live is None:
            return
        with live.lock:
            self._refresh(live)
            self.broker.publish(game_id, live.seq)

    def attach(self, game_id: str, token: str, account_id: str) -> int:
        """Bind the seat a guest's `token` holds to the account (the token keeps working): the seat."""
        seat = self.seat_of(game_id, token)
        assert seat is not None
        live = self._get(game_id)
        with live.lock:
            s = live.seats[seat]
            if s.account_id == account_id:
                return seat
            if s.account_id is not None:
                raise Conflict(f"seat {seat} is bound to another account")
            if any(o.account_id == account_id for o in live.seats):
                raise Conflict("this account already holds another seat of this game")
            if not self.storage.update_seat(game_id, seat, {"token_hash": s.token_hash, "account_id": None},
                                            account_id=account_id):
                self._refresh(live)
                raise Conflict(f"seat {seat} changed meanwhile; try again")
            live.seats[seat] = replace(s, account_id=account_id)
            self.broker.publish(game_id, live.seq)  # other processes refresh the seat
            return seat

    def holds(self, game_id: str, token: str, seat: int) -> bool:
        """Whether `token` still holds `seat` (from a worker thread: may load the game)."""
        got = self.holds_nowait(game_id, token, seat)
        if got is not None:
            return got
        try:
            return self.seat_of(game_id, token) == seat
        except Unauthorized:
            return False

    def current(self, game_id: str) -> tuple[State, int, str]:
        """The live state, its event count and status, read together (the state is never mutated afterwards)."""
        live = self._get(game_id)
        with live.lock:
            return live.state, live.seq, live.header.status

    def current_for(self, game_id: str, seat: int | None) -> tuple[State, int, str, int | None, int | None]:
        """`current`, the event count from which `seat`'s current decision has stood, and how many of its last
        actions its player may take back (`Live.undoable`) (both None: a spectator)."""
        live = self._get(game_id)
        with live.lock:
            return self._picture(live, seat)

    @staticmethod
    def _picture(live: Live, seat: int | None) -> tuple[State, int, str, int | None, int | None]:
        known = seat is not None and seat < len(live.since)
        since = live.since[seat] if known and seat is not None else None
        undoable = live.undoable(seat) if known and seat is not None and live.header.status == "playing" else None
        return live.state, live.seq, live.header.status, since, undoable

    def owing(self, game_id: str) -> tuple[State, int, str, dict[int, tuple[int, datetime | None]]]:
        """`current`, and for every seat that owes a decision now: the event count its decision has stood since and
        the time of the event that started it (None: since the game began)."""
        live = self._get(game_id)
        with live.lock:
            out = {seat: (live.since[seat], live.events[live.since[seat] - 1].time if live.since[seat] else None)
                   for seat in live.state.deciding() if seat < len(live.since)}
            return live.state, live.seq, live.header.status, out

    def current_for_nowait(self, game_id: str, seat: int | None
                           ) -> tuple[State, int, str, int | None, int | None] | None:
        """`current_for` if it can be had at once, for the event loop: the game is cached (no database read) and its
        lock free (no commit under way); None otherwise (ask `current_for` from a worker thread)."""
        live = self.cache.find_nowait(game_id)  # never waits for the cache's lock (held while loading a game)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        try:
            return self._picture(live, seat)
        finally:
            live.lock.release()

    def snapshot(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) sees now: view, own legal actions, log position, seq, whether it owes a
        decision (and since which event), how many of its actions it may take back."""
        state, seq, status, since, undoable = self.current_for(game_id, seat)
        return {"game_id": game_id, **views.seat_payload(state, seat, seq, status, since, undoable)}

    def log_from(self, game_id: str, seat: int | None, start: int) -> dict[str, Any]:
        """`seat`'s own log from entry `start` on."""
        state, seq, _ = self.current(game_id)
        try:
            entries = views.seat_log(state, seat, start)
        except ValueError as e:
            raise Invalid(str(e)) from None
        return {"game_id": game_id, "seq": seq, "start": start, "entries": entries, "log_pos": start + len(entries)}

    def record(self, game_id: str) -> dict[str, Any]:
        """The full record (seed included) of a finished game; Conflict before the end."""
        live = self._get(game_id)
        with live.lock:
            if live.header.status != "over":
                raise Conflict("the record (with the seed) is available only once the game is over")
            return live.state.record()

    # ---- acting ----------------------------------------------------------------------------------------------
    def act(self, game_id: str, token: str | None, text: str, seq: int, client_action_id: str | None,
            with_state: bool = True) -> dict[str, Any]:
        """Apply `seat`'s action, quoted against event count `seq`; a retried `client_action_id` is a no-op. The
        answer carries the seat's new state unless `with_state` is False (a socket, which pushes it anyway)."""
        if token is None:
            raise Unauthorized("acting needs a seat token (Authorization: Bearer <token>)")
        check_client_action_id(client_action_id)
        seat = self.seat_of(game_id, token)
        assert seat is not None
        live = self._get(game_id)
        if live.seats[seat].mode == "left":
            raise Conflict(f"seat {seat} was left and the AI plays it: take it back first (POST .../takeback)")
        if live.seats[seat].mode == "conceded":
            raise Conflict(f"seat {seat} conceded: the AI plays it to the end of the game (a concession stands)")
        return self._retrying(live, seq, partial(self._act, live, seat, text, seq, client_action_id, with_state))

    def _retrying(self, live: Live, seq: int, attempt: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """Run `attempt` (a move quoted against event count `seq`) under the game's lock, twice at most: a quote
        ahead of this process's cache, an event stored first by another process, or (with other processes about) a
        refusal that may come from a stale cache refresh the game from the database before it is tried again."""
        for n in (1, 2):
            with live.lock:
                if seq > live.seq:  # the client heard of events this process has not: another process's
                    self._refresh(live)
                try:
                    return attempt()
                except EventConflict:  # another process stored an event first: look again
                    self._refresh(live)
                    if n == 2:
                        raise Conflict("the game moved on meanwhile; fetch the state and try again") from None
                except ServiceError:  # with other processes about, a refusal may come from a stale cache
                    if n == 2 or not self.shared:
                        raise
                    self._refresh(live)
        raise AssertionError("unreachable")

    def _duplicate(self, live: Live, seat: int, client_action_id: str | None, with_state: bool
                   ) -> dict[str, Any] | None:
        if client_action_id is not None:
            ev = live.event_of(seat, client_action_id)
            if ev is not None:
                return self._answer(live, seat, ev.seq + 1, ev.text, ev.kind, True, with_state)
        return None

    def _answer(self, live: Live, seat: int, seq: int, action: str | None, kind: str, duplicate: bool,
                with_state: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": seq, "action": action, "kind": kind, "duplicate": duplicate}
        if with_state:
            out["state"] = self.snapshot(live.header.id, seat)
        return out

    def _check_playing(self, live: Live) -> None:
        status, state = live.header.status, live.state
        if status == "expired":
            raise Conflict("this game expired before every seat was taken")
        if status == "waiting":
            open_seats = [s.seat for s in live.seats if s.kind == "human" and s.token_hash is None]
            raise Conflict(f"the game has not started: seat(s) {open_seats} not taken yet")
        if status == "over" or state.to_move is None:
            raise Conflict("the game is over")

    def _check_fresh(self, live: Live, seat: int, seq: int) -> None:
        """A decision is stale only if the seat's own decision changed after the event count it quotes: another
        seat's move that leaves this seat's decision as it was does not make it stale (boardgame.io #828)."""
        if seq > live.seq or seq < live.since[seat]:
            raise Conflict(f"stale: you saw event {seq}; your decision has stood since event {live.since[seat]} and "
                           f"the game is at event {live.seq}", state=self.snapshot(live.header.id, seat))

    def _act(self, live: Live, seat: int, text: str, seq: int, client_action_id: str | None, with_state: bool
             ) -> dict[str, Any]:
        dup = self._duplicate(live, seat, client_action_id, with_state)
        if dup is not None:
            return dup
        action = self._commit_prepared(live, *self._checked(live, seat, text, seq, client_action_id))
        self._schedule_ai(live)
        return self._answer(live, seat, live.seq, action, "action", False, with_state)

    def _checked(self, live: Live, seat: int, text: str, seq: int, client_action_id: str | None
                 ) -> tuple[State, str, Event, str | None]:
        """A seat's move quoted against `seq`, checked (fresh, the game in play, the seat to decide, the action
        legal: the refusals `act` answers) and applied to a clone (`_prepare`). Caller holds the lock."""
        self._check_fresh(live, seat, seq)
        self._check_playing(live)
        state = live.state
        if seat not in state.deciding():
            if seat in state.submitted():
                raise Conflict("you have already decided in this step; take it back with undo to change it")
            raise Conflict(f"not your turn: seat {state.to_move} is to move")
        try:
            return self._prepare(live, seat, text, client_action_id)
        except IllegalAction:
            legal = views.seat_legal(state, seat)
            shown = ", ".join(legal[:60]) + (", ..." if len(legal) > 60 else "")
            raise Invalid(f"{text[:80]!r} is not legal now; your legal actions: {shown}", legal=legal) from None

    def undo(self, game_id: str, token: str | None, count: int, seq: int, client_action_id: str | None,
             with_state: bool = True) -> dict[str, Any]:
        """Take back the seat's last `count` actions (an undo event in the log; nothing is deleted)."""
        if token is None:
            raise Unauthorized("undoing needs a seat token (Authorization: Bearer <token>)")
        check_client_action_id(client_action_id)
        seat = self.seat_of(game_id, token)
        assert seat is not None
        live = self._get(game_id)
        return self._retrying(live, seq, partial(self._undo, live, seat, count, seq, client_action_id, with_state))

    def _undo(self, live: Live, seat: int, count: int, seq: int, client_action_id: str | None, with_state: bool
              ) -> dict[str, Any]:
        dup = self._duplicate(live, seat, client_action_id, with_state)
        if dup is not None:
            return dup
        if seq > live.seq or seq < live.since[seat]:
            raise Conflict(f"stale: you saw event {seq}; your position has changed since event {live.since[seat]}",
                           state=self.snapshot(live.header.id, seat))
        self._check_playing(live)
        can = live.undoable(seat)
        if not 1 <= count <= can:
            why = "" if can else f": {self._undo_refusal(live, seat)}"
            raise Conflict(f"you may take back {can} action(s) now, not {count}{why}")
        ev = Event(live.seq, seat, "undo", str(count), client_action_id, now())
        new = build_state(live.header, [*live.events, ev])
        notice = self.broker.notice(live.header.id, ev.seq + 1)
        self.storage.append_event(live.header.id, ev, None, notice)
        live.state = new
        live.events.append(ev)
        live.track(ev.seq)
        self.broker.publish(live.header.id, live.seq, sent=notice is not None)
        self._schedule_ai(live)
        return self._answer(live, seat, live.seq, None, "undo", False, with_state)

    @staticmethod
    def _undo_refusal(live: Live, seat: int) -> str:
        """Why the seat may take nothing back now: the core's words (seats counted from 1), or that its last action
        was the server's (the AI's while the player had left, or the move clock's), which stands."""
        if live.state.undoable(seat):
            return ("your last action was made for your seat by the server (the AI while you were away, or the move "
                    "clock when time ran out): it stands")
        return live.state.undo_refusal(seat)

    def act_for(self, game_id: str, seat: int, text: str, since: int, client_action_id: str) -> str | None:
        """Commit `text` for `seat` on the server's own authority (a move clock ran out) if `seat` still owes the
        decision that has stood since event `since` (its turn, or a simultaneous step): the canonical action, or
        None if that decision was made or changed meanwhile. The event's client action id is `client_action_id` in
        the server's own namespace (`SERVER_ACTION_IDS`), which no client may use."""
        client_action_id = SERVER_ACTION_IDS + client_action_id
        live = self._get(game_id)
        with live.lock:
            if self.shared or since > live.seq:
                self._refresh(live)
            if (live.header.status != "playing" or seat not in live.state.deciding()
                    or seat >= len(live.since) or live.since[seat] != since):
                return None
            try:
                action = self._commit(live, seat, text, client_action_id)
            except EventConflict:
                self._refresh(live)
                return None
            self._schedule_ai(live)
            return action

    def _commit(self, live: Live, seat: int, text: str, client_action_id: str | None, concede: bool = False) -> str:
        """Apply on a clone, commit the event, then swap the state in and announce it. Caller holds the lock.
        `concede`: the seat concedes (`State.concede`; `text` is not read), an action event like any."""
        return self._commit_prepared(live, *self._prepare(live, seat, text, client_action_id, concede))

    def _commit_prepared(self, live: Live, new: State, action: str, ev: Event, status: str | None) -> str:
        """Commit a prepared move's event (`_prepare`), then swap its state in and announce it; the action. Caller
        holds the lock. EventConflict: another process stored this event count first."""
        notice = self.broker.notice(live.header.id, ev.seq + 1)  # other processes hear of it as it commits
        # the final event carries the results and ratings in its own transaction (tabletop.server.ratings)
        also = self.on_over(live.header, live.seats, new) if new.is_over and self.on_over is not None else None
        self.storage.append_event(live.header.id, ev, status, notice, also)  # EventConflict: another was first
        self._swap_in(live, new, ev, status, notice is not None)
        return action

    @staticmethod
    def _prepare(live: Live, seat: int, text: str, client_action_id: str | None, concede: bool = False
                 ) -> tuple[State, str, Event, str | None]:
        """The move applied to a clone of the live state (which stays as it was): the new state, the canonical
        action, its event and the game's new status (None: unchanged). IllegalAction if it is not legal."""
        new = live.state.clone()
        if concede:
            action = new.concede(seat).text
        else:
            action = new.parse_action_for(seat, text).text
            new.submit(seat, action)
        ev = Event(live.seq, seat, "action", action, client_action_id, now())
        return new, action, ev, "over" if new.is_over else None

    def _swap_in(self, live: Live, new: State, ev: Event, status: str | None, sent: bool) -> None:
        """The committed event's state becomes the live one, and it is announced. Caller holds the lock."""
        live.state = new
        live.events.append(ev)
        live.track(ev.seq)
        if status is not None:
            live.header = replace(live.header, status=status)
        self.broker.publish(live.header.id, live.seq, sent=sent)

    def act_soon(self, game_id: str, token: str | None, text: str, seq: int, client_action_id: str | None
                 ) -> asyncio.Future[dict[str, Any]] | None:
        """`act` (its answer without the state) for the event loop, without a hop to a worker thread: the move is
        checked and applied in the loop and its event handed to the storage's writer (`Storage.write_soon`); the
        future is resolved in the loop once the event is committed, the state swapped in and announced, as `act`
        does. None when that cannot be done at once (the game is not cached or its lock is taken, another
        process shares the database, it is PostgreSQL, an account's seat, a quote ahead of this process, the
        game's last move): then call `act` from a worker thread. A refusal raises the same `ServiceError` as `act`
        (checked in the same order). The game's lock is held until the commit is done, so a worker thread that
        wants the game waits as for any commit; the loop's own readers (`current_for_nowait`) see the state
        before the move until then."""
        if token is None or isinstance(token, AccountKey) or self.shared or not self.storage.writes_soon:
            return None
        check_client_action_id(client_action_id)
        live = self.cache.find_nowait(game_id)
        if live is None or live.writing or not live.lock.acquire(blocking=False):
            return None
        keep = False  # the lock stays held for the commit once the event is handed to the writer
        try:
            h = token_hash(token)
            seat = next((s.seat for s in live.seats
                         if s.token_hash is not None and secrets.compare_digest(s.token_hash, h)), None)
            if seat is None or seq > live.seq:  # perhaps claimed a moment ago, or events not yet here: `act` asks
                return None
            if live.seats[seat].mode in ("left", "conceded"):  # `act` says why, in its words
                return None
            loop = asyncio.get_running_loop()
            answer: asyncio.Future[dict[str, Any]] = loop.create_future()
            dup = self._duplicate(live, seat, client_action_id, False)
            if dup is not None:
                answer.set_result(dup)
                return answer
            new, action, ev, status = self._checked(live, seat, text, seq, client_action_id)
            if new.is_over:  # the final event writes the results and ratings too: `act` does it
                return None
            live.writing = True
            keep = True
        finally:
            if not keep:
                live.lock.release()

        def finish(error: BaseException | None) -> None:  # in the loop, once the writer is done with the event
            try:
                if error is None:
                    self._swap_in(live, new, ev, status, False)
                    self._schedule_ai(live)
                    result: dict[str, Any] | BaseException = self._answer(live, seat, live.seq, action, "action",
                                                                          False, False)
                elif isinstance(error, EventConflict):
                    result = Conflict("the game moved on meanwhile; fetch the state and try again")
                else:
                    result = error
            except Exception as e:
                result = e
            finally:
                live.writing = False
                live.lock.release()
            if answer.done():  # the socket went away meanwhile: the move stands all the same
                return
            if isinstance(result, BaseException):
                answer.set_exception(result)
            else:
                answer.set_result(result)

        def committed(error: BaseException | None) -> None:  # on the writer thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
                loop.call_soon_threadsafe(finish, error)

        try:
            self.storage.append_event_soon(game_id, ev, status, None, committed)
        except BaseException:  # the storage is closing: nothing was queued
            live.writing = False
            live.lock.release()
            raise
        return answer

    # ---- AI ----------------------------------------------------------------------------------------------
    def _schedule_ai(self, live: Live) -> None:
        """If an AI seat is to move, have a worker decide (once per decision). Caller holds the lock."""
        state = live.state
        if (self._closed or not self.ai.enabled or live.header.status != "playing" or state.to_move is None
                or not self.broker.owns_ai()):
            return
        seat = live.seats[state.to_move]
        decision = live.since[seat.seat] if seat.seat < len(live.since) else live.seq
        # once per decision of each seat: others deciding ahead meanwhile do not start another; two AI seats whose
        # simultaneous decisions began at the same event are two decisions (keyed by seat too)
        if seat.kind != "ai" or live.ai_pending == (seat.seat, decision):
            return
        live.ai_pending = (seat.seat, decision)
        # a game with a person at the table first; an AI-only game yields (`Lane`)
        priority = 0 if any(s.kind == "human" for s in live.seats) else 1
        table: list[str | None] = ["human" if s.kind != "ai" else (s.ai_label or "easy") for s in live.seats]
        self.ai.submit(live.header.id, live.seq, seat.seat, seat.ai_label or "easy", state.record(), priority, table)

    def _ai_commit(self, game_id: str, seq: int, seat: int, action: str) -> None:
        """Commit the move an AI decided at event `seq` unless its decision changed meanwhile (on the AI commit
        thread)."""
        live = self._get(game_id)
        with live.lock:
            if live.state.to_move != seat or live.since[seat] > seq:  # its decision changed meanwhile
                return
            if live.seats[seat].kind != "ai":  # a leaver took the seat back meanwhile
                return
            try:
                self._commit(live, seat, action, f"{SERVER_ACTION_IDS}ai-{live.seq}")
            except EventConflict:  # another process moved for this AI meanwhile (ownership changed hands)
                self._refresh(live)
            self._schedule_ai(live)

    def resume(self) -> int:
        """Once this process owns the AI moves (at start, or when the owner died): rebuild every game in play and
        let its AI move if it is to; the number resumed."""
        ids = self.storage.game_ids("playing")
        for game_id in ids:
            try:
                live = self._get(game_id)
                with live.lock:
                    self._refresh(live)
                    self._schedule_ai(live)
            except ServiceError as e:
                log.error("game %s not resumed: %s", game_id, e.message)
        log.info("tabletop server: %d game(s) in play resumed", len(ids))
        return len(ids)

    def on_remote(self, game_id: str, seq: int) -> None:
        """Another process stored an event (or seated someone) in `game_id`: refresh it if cached here."""
        live = self.cache.find(game_id)
        if live is None:
            return
        with live.lock:
            if seq >= live.seq:
                self._refresh(live)
                self._schedule_ai(live)

    def refresh_all(self) -> None:
        """Refresh every cached game (notices may have been missed)."""
        for live in self.cache.all():
            with live.lock:
                self._refresh(live)
                self._schedule_ai(live)

    def close(self) -> None:
        """Stop scheduling AI moves, stop listening, shut the worker pool down."""
        self._closed = True
        self.broker.close()
        self.ai.close()  # a search still running after 1.5 s is terminated; a commit under way finishes

    # ---- the cache (`GameCache`) ----------------------------------------------------------------------------
    def _get(self, game_id: str) -> Live:
        return self.cache.get(game_id)

    def _refresh(self, live: Live) -> None:
        """Bring a cached game up to the database (`GameCache.refresh`). Caller holds the lock."""
        self.cache.refresh(live)

    def cached(self) -> int:
        """How many games are in memory."""
        return self.cache.cached()
