"""Server settings: defaults, overridden by `TABLETOP_*` environment variables, then by `tabletop serve` flags."""

from __future__ import annotations

import logging
import stat
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from tabletop.server.creation import CreationLimits

log = logging.getLogger("tabletop.server")


def default_db_url() -> str:
    """An SQLite file in the user's data directory, which is created private (0700) if missing, and made private
    if it is not: the file holds every live game's seed (storage creates it 0600)."""
    folder = Path(platformdirs.user_data_dir("tabletop", appauthor=False))
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) & 0o077:  # an older tabletop made it 0755, or the umask widened it
        log.warning("%s was readable by others; made private (0700): it holds the server's database", folder)
        folder.chmod(0o700)
    return f"sqlite:///{folder / 'server.sqlite3'}"


class Settings(BaseSettings):
    """Everything the server reads at start-up."""

    model_config = SettingsConfigDict(env_prefix="TABLETOP_")

    db: str = ""
    """SQLAlchemy URL: `sqlite:///path` or `postgresql+psycopg://user:pass@host/db`; empty = the default file."""
    public_url: str = "http://127.0.0.1:8000"
    """The address people reach the server at; invite links carry it."""
    allowed_origins: list[str] = []
    """Browser origins allowed to open WebSockets besides the public URL's and the request's own host."""
    ai_workers: int = 1
    """Worker processes that compute AI moves."""
    policy_dir: str = ""
    """A directory of trained policies (`NAME.npz`, tabletop.agents.policy's format) offered as AI seats under the
    label `NAME` to games of the game and player count each was trained for; empty = the policies shipped with
    tabletop (`tabletop/rl/policies/`). Clients send labels only, never paths."""
    max_body_bytes: int = 16_384
    """Request bodies larger than this are refused (413)."""
    max_socket_message_bytes: int = 4096
    """A socket message from a client larger than this closes the socket (1009)."""
    max_socket_messages_per_second: int = 50
    """A client that sends more socket messages than this in a second is disconnected (1008)."""
    rate_per_address: float = 20.0
    """Requests (and sockets opened) per second per client address, sustained; 0 turns the limit off."""
    burst_per_address: int = 100
    """Requests an address may make at once before `rate_per_address` applies."""
    rate_per_token: float = 10.0
    """Requests per second per seat or creator token, sustained; 0 turns the limit off."""
    burst_per_token: int = 40
    """Requests a token may make at once before `rate_per_token` applies."""
    head_timeout: float = 10.0
    """Seconds a connection has to send a complete request head (request line and headers), from its opening or
    from the end of the previous answer; then 408 and closed (`tabletop.server.limits.ConnectionGuard`). 0: off."""
    idle_timeout: int = Field(default=5, ge=1)
    """Seconds a connection may send nothing, before its first request or between requests, before it is closed."""
    max_head_bytes: int = 32_768
    """A longer request head (request line and headers) gets 431 and its connection is closed. 0: off."""
    max_connections_per_address: int = 64
    """Open connections (HTTP and sockets) one client address may hold at once; one more gets 503 and is closed.
    Connections from `trusted_proxies` are not counted (the proxy limits its clients). 0: off."""
    trusted_proxies: list[str] = ["127.0.0.1", "::1"]
    """Addresses (or networks) of the reverse proxies whose `X-Forwarded-For` is believed (uvicorn's
    `forwarded_allow_ips`): the loopback addresses only, unless set. Their connections are not counted per address."""
    api_docs: bool = False
    """Serve the interactive API pages /docs (Swagger UI) and /redoc, which load their scripts from a CDN
    (jsdelivr); off by default. /openapi.json, the API's description, is always served."""
    socket_compression: bool = False
    """Offer per-message deflate on sockets. Off by default: a seat's state message is 1.5-5.5 KB of JSON, and
    compressing it (2-4 times smaller) cost 0.2-0.4 ms of server CPU per action in the load test, 12-21%."""
    act_threads: int = 8
    """Threads that apply actions sent over sockets and commit them (the event loop never waits on the database),
    where `act_in_loop` does not."""
    sqlite_sync: Literal["full", "normal"] = "full"
    """SQLite's `synchronous` (`tabletop.server.storage.make_engine`): `full` syncs every commit to disk before a
    move is acknowledged; `normal` (WAL) syncs at checkpoints: an acknowledged move survives the server's crash or
    SIGKILL, not the machine's power loss, for fewer syncs of the disk. PostgreSQL is not affected."""
    act_in_loop: bool = True
    """Apply a move sent over a socket in the event loop, its event committed by the storage's one writer thread
    (`GameService.act_soon`; SQLite in one process), instead of on an act thread that waits for the commit."""
    gc_young_threshold: int = 50_000
    """Allocations between collections of Python's young generation (Python's default is 700), with the start-up
    heap frozen out of the collector's scans; 0 keeps Python's defaults (see `tabletop.server.app.quiet_collector`)."""
    cache_games: int = 2000
    """Games kept in memory at most; the least recently used finished games go first (rebuilt on demand)."""

    hint_workers: int = 1
    """Worker processes that compute hints (ISMCTS from the asking seat's view); 0 turns hints off."""
    hint_seconds: float = 2.0
    """The search time of one hint."""
    hint_rate: float = 0.2
    """Hints per second per seat, sustained (one every 5 s); `hint_burst` at once."""
    hint_burst: int = 3
    """Hints a seat may ask for at once before `hint_rate` applies."""
    review_seconds: float = 0.2
    """Post-game reviews (issue 24, `tabletop.server.reviews`): the search time per reviewed decision."""
    review_iters: int = 0
    """If above 0, reviews search this many iterations per decision instead of `review_seconds` (reproducible)."""
    review_batch: int = 4
    """Decisions per review job on the hint lane: a hint waits behind at most one batch (~0.8 s by default)."""
    reviews_running: int = 4
    """Reviews in flight on this server at most (each player at most one); more are refused as busy (503)."""
    chat_rate: float = 1.0
    """Chat lines per second per seat, sustained; `chat_burst` at once."""
    chat_burst: int = 5
    """Chat lines a seat may send at once before `chat_rate` applies."""
    chat_max_chars: int = 500
    """The longest chat line."""
    chat_max_messages: int = 5000
    """Messages (chat and notices) a game holds at most."""
    clock_tick: float = 0.5
    """How often (seconds) the AI-owning process looks at the move clocks."""

    # creation limits (0 turns one off; `tabletop.server.creation.CreationLimits`, docs/server.md)
    games_per_hour: int = Field(default=30, ge=0)
    """Games one address may create in an hour."""
    open_games: int = Field(default=10, ge=0)
    """Games created from one address that may wait for players at once."""
    waiting_games: int = Field(default=2000, ge=0)
    """Games that may wait for players at once, in total."""
    waiting_expiry: float = Field(default=48 * 3600.0, ge=0)
    """Seconds after its creation a game still waiting for players expires (status `expired`)."""
    ai_seats_per_address: int = Field(default=16, ge=0)
    """AI seats in the unfinished games created from one address."""
    ai_seats: int = Field(default=1000, ge=0)
    """AI seats in unfinished games, in total."""
    ai_only_games: int = Field(default=16, ge=0)
    """Games of AI seats only in play at once, in total."""
    lobby_per_creator: int = Field(default=3, ge=0)
    """Waiting games the public lobby lists per creator name and per address."""

    # accounts (issue 23: tabletop.server.accounts, docs/server.md "Accounts")
    session_days: float = Field(default=30.0, gt=0)
    """Days a session (a signed-in browser) lasts from its sign-in."""
    password_time_cost: int = Field(default=3, ge=1)
    """Argon2id passes over memory per password hash (RFC 9106's second recommended option: 3)."""
    password_memory_kib: int = Field(default=65_536, ge=8)
    """Argon2id memory per password hash, KiB (64 MiB)."""
    login_rate_per_account: float = Field(default=1 / 60, ge=0)
    """Log-in attempts per second per username, sustained (one a minute); 0 turns the limit off."""
    login_burst_per_account: int = Field(default=10, ge=1)
    """Log-in attempts a username may take at once before `login_rate_per_account` applies."""
    login_rate_per_address: float = Field(default=0.1, ge=0)
    """Log-in and sign-up attempts per second per client address, sustained; 0 turns the limit off."""
    login_burst_per_address: int = Field(default=30, ge=1)
    """Log-in and sign-up attempts an address may make at once before `login_rate_per_address` applies."""

    # your-turn e-mail (issue 23: tabletop.server.mail); off while smtp_host is empty
    smtp_host: str = ""
    """The SMTP server "your turn" mails are sent through; empty: no mail."""
    smtp_port: int = 25
    """Its port."""
    smtp_starttls: bool = False
    """Upgrade the connection with STARTTLS before sending."""
    smtp_user: str = ""
    """The user to log in to the SMTP server as (empty: no log-in)."""
    smtp_password: str = ""
    """Its password."""
    smtp_from: str = "tabletop@localhost"
    """The mails' From address."""
    mail_interval: float = Field(default=30.0, gt=0)
    """Seconds between two looks for turns owed a mail."""
    leaver_level: str = "medium"
    """The AI level that plays a seat its player left (tabletop.server.leavers)."""
    leaver_timeouts: int = Field(default=3, ge=0)
    """A seat whose move clock ran out this many times in a row is played by the AI from then on (0: never)."""

    def creation_limits(self) -> CreationLimits:
        """The creation limits in force."""
        return CreationLimits(self.games_per_hour, self.open_games, self.waiting_games, self.waiting_expiry,
                              self.ai_seats_per_address, self.ai_seats, self.ai_only_games, self.lobby_per_creator)

    def db_url(self) -> str:
        """The database URL in force."""
        return self.db or default_db_url()
