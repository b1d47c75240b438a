"""A small typed Python client of a tabletop server's public API (docs/server.md): the one client in Python.

    from tabletop.client import Client, parse_invite

    with Client("http://127.0.0.1:8000") as c:
        made = c.create("silos", players=2, seats=[{"kind": "creator"}, {"kind": "ai", "ai": "medium"}])
        seat = c.seat(made.game_id, made.token)            # a handle on your seat
        while (state := seat.state())["status"] != "over":
            if state["owes_decision"]:
                seat.act(state["legal"][0], state["seq"])
            else:
                state = seat.wait(state["seq"])              # the socket: the next state after this seq

An invite link (`https://host/join/<game>#<code>`) is claimed with `c.claim_invite(link, name)`, giving a `Seat`.
Every refusal of the server is an `ApiError` with its HTTP `status`, `kind` and `detail` (and `legal` where the
server lists your legal actions). Actions carry a `client_action_id` (made here when not given), so a retry after a
lost answer is applied at most once. `tabletop.client.aio` is the same client for an asyncio program holding many
seats (the load test).

Live updates: `Seat.updates()` is an `Updates`, a synchronous iterator of the server's messages for the seat over
one socket for as long as it is iterated:

    from contextlib import closing

    with closing(seat.updates()) as updates:                # close it when done (from any thread too)
        for msg in updates:
            if msg["type"] == "state":                       # after every event: seq, status, view, legal, the log
                ...                                          #   entries from `log_start` on, `log_pos`
            elif msg["type"] == "chat":                      # the table's lines and notices from `chat_pos` on
                ...
            elif msg["type"] == "connection":                # the way they come changed: via socket | rest | none
                print(msg["via"], msg["detail"])

It keeps two cursors, `log_pos` and `chat_pos` (what it has yielded), and every reconnection asks the server for
what comes after them, so a dropped socket or a restart of the server loses nothing and repeats nothing (backoff
0.2 s doubling to 5 s). When the socket cannot be opened twice in a row (`fallback_after`: the server is down, or a
proxy does not pass WebSockets) it polls REST every `poll_seconds` for the same `state` and `chat` messages, still
trying the socket now and then. It ends when the seat's token is revoked (close 4401; a handshake refused is
raised as REST's ApiError, 401 or 404), after `timeout` seconds without a message, or on `close()`.
`Seat.wait(seq)` is the one-shot form: the first state after `seq`.

It speaks HTTP and WebSocket only and imports nothing of `tabletop.server` (tests/test_layers.py checks it); it
needs the `client` extra (httpx, websockets).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Generator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

__all__ = ["ApiError", "Client", "Created", "Seat", "Updates", "parse_invite", "socket_url"]


class ApiError(Exception):
    """A request the server refused: its HTTP `status`, the error `kind`, the `detail` it gave, and the rest of the
    answer in `body` (e.g. `legal` for an illegal action, `state` for a stale one)."""

    def __init__(self, status: int, detail: str, kind: str = "", body: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {kind + ': ' if kind else ''}{detail}")
        self.status = status
        self.detail = detail
        self.kind = kind
        self.body = body or {}

    @property
    def legal(self) -> list[str]:
        """The legal actions the server listed with a refusal (empty if none)."""
        legal = self.body.get("legal")
        return [str(a) for a in legal] if isinstance(legal, list) else []


@dataclass
class Created:
    """The answer to creating a game: shown once, keep the tokens."""

    game_id: str
    creator_token: str
    seat: int | None
    token: str | None
    invites: list[dict[str, Any]] = field(default_factory=list)
    """`{"seat", "code", "url"}` per invited seat."""
    raw: dict[str, Any] = field(default_factory=dict)


def parse_invite(link: str) -> tuple[str, str, str]:
    """(server base URL, game id, invite code) of an invite link `https://host[/prefix]/join/<game>#<code>`."""
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/")
    head, sep, game_id = path.rpartition("/join/")
    if not sep or not game_id or not parts.fragment or parts.scheme not in ("http", "https"):
        raise ValueError(f"not an invite link (expected http(s)://host/join/<game>#<code>): {link[:80]!r}")
    return urlunsplit((parts.scheme, parts.netloc, head, "", "")), game_id, parts.fragment


def socket_url(base_url: str, game_id: str, token: str | None, since: int = 0, chat_since: int = 0) -> str:
    """The WebSocket URL of a game's live updates on the server at `base_url`: the log from entry `since`, the table's
    messages from index `chat_since`."""
    parts = urlsplit(base_url.rstrip("/"))
    scheme = "wss" if parts.scheme == "https" else "ws"
    query = f"since={since}" + (f"&chat_since={chat_since}" if chat_since else "")
    query += f"&token={token}" if token else ""
    return urlunsplit((scheme, parts.netloc, f"{parts.path}/api/games/{game_id}/ws", query, ""))


def _new_id() -> str:
    return "py-" + secrets.token_hex(8)


# ---- what both clients send and read (Client here, AsyncClient in tabletop.client.aio) ---------------------------
def with_token(token: str | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A request's keyword arguments for httpx, with the seat token as its bearer credential."""
    headers = dict(kwargs.pop("headers", {}) or {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return {**kwargs, "headers": headers}


def answer_of(r: httpx.Response) -> Any:
    """The decoded JSON answer of a response, or its refusal as an ApiError (status, kind, detail, the body)."""
    try:
        body = r.json() if r.content else {}
    except ValueError:
        body = {"detail": r.text[:300]}
    if r.status_code >= 400:
        if not isinstance(body, dict):
            body = {"detail": str(body)[:300]}
        detail = body.get("detail", r.reason_phrase)
        raise ApiError(r.status_code, detail if isinstance(detail, str) else json.dumps(detail)[:300],
                       str(body.get("kind", "")), body)
    return body


def create_payload(game: str, players: int | None = None, options: dict[str, Any] | None = None,
                   seats: list[dict[str, Any]] | None = None, name: str | None = None,
                   visibility: str | None = None, move_seconds: float | None = None) -> dict[str, Any]:
    """The body of `POST /api/games` (docs/server.md, "Creating a game"); what is None is left to the server."""
    payload: dict[str, Any] = {"game": game, "options": options or {}}
    for key, value in (("players", players), ("seats", seats), ("creator_name", name), ("visibility", visibility),
                       ("move_seconds", move_seconds)):
        if value is not None:
            payload[key] = value
    return payload


def created_of(body: dict[str, Any]) -> Created:
    """The answer to creating a game."""
    return Created(str(body["id"]), str(body.get("creator_token", "")), body.get("seat"), body.get("token"),
                   list(body.get("invites", [])), body)


def claim_payload(invite: str | None = None, seat: int | None = None, name: str | None = None) -> dict[str, Any]:
    """The body of `POST /api/games/{id}/claim`: an invited seat by its code, or an open one."""
    return {k: v for k, v in (("invite", invite), ("seat", seat), ("name", name)) if v is not None}


class Client:
    """The server at `base_url` (e.g. `http://127.0.0.1:8000`); a context manager that closes its connections."""

    def __init__(self, base_url: str, timeout: float = 15.0, transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP connections."""
        self._http.close()

    # ---- requests ---------------------------------------------------------------------------------------------
    def request(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        """One request to the API (`path` below the base URL); the decoded JSON answer, or ApiError."""
        try:
            r = self._http.request(method, path, **with_token(token, kwargs))
        except httpx.HTTPError as e:
            raise ApiError(0, f"the server at {self.base_url} did not answer: {e}", "unreachable") from None
        return answer_of(r)

    # ---- the server -------------------------------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        """The games this server plays, with their options, AI labels and table facts (`GET /api/meta/games`)."""
        return list(self.request("GET", "/api/meta/games"))

    def lobby(self) -> Any:
        """The public games in play and waiting for players."""
        return self.request("GET", "/api/games")

    def create(self, game: str, players: int | None = None, options: dict[str, Any] | None = None,
               seats: list[dict[str, Any]] | None = None, name: str | None = None, visibility: str = "public",
               move_seconds: float | None = None) -> Created:
        """Create a game (docs/server.md, "Creating a game"); the tokens are in the answer only."""
        body = self.request("POST", "/api/games", json=create_payload(game, players, options, seats, name, visibility,
                                                                     move_seconds))
        return created_of(body)

    def info(self, game_id: str) -> dict[str, Any]:
        """A game's public facts."""
        info: dict[str, Any] = self.request("GET", f"/api/games/{game_id}")
        return info

    def claim(self, game_id: str, invite: str | None = None, seat: int | None = None,
              name: str | None = None) -> Seat:
        """Take a seat: an invited one by its code, or an open one (`seat`, or any)."""
        body = self.request("POST", f"/api/games/{game_id}/claim", json=claim_payload(invite, seat, name))
        return Seat(self, game_id, str(body["token"]), int(body["seat"]))

    def claim_invite(self, link: str, name: str | None = None) -> Seat:
        """Claim the seat of an invite link (its server must be this client's)."""
        base, game_id, code = parse_invite(link)
        if base.rstrip("/") != self.base_url:
            raise ValueError(f"this invite is for {base}, not {self.base_url}")
        return self.claim(game_id, invite=code, name=name)

    def seat(self, game_id: str, token: str) -> Seat:
        """A handle on a seat you hold the token of (its number is read from the server)."""
        state = self.request("GET", f"/api/games/{game_id}/state", token=token)
        return Seat(self, game_id, token, state.get("seat"))

    def record(self, game_id: str) -> dict[str, Any]:
        """The finished game's record (409 before the end: a live game's record never leaves the server)."""
        record: dict[str, Any] = self.request("GET", f"/api/games/{game_id}/record")
        return record

    def messages(self, game_id: str, start: int = 0) -> dict[str, Any]:
        """The table's chat lines and notices from index `start` on."""
        out: dict[str, Any] = self.request("GET", f"/api/games/{game_id}/chat", params={"start": start})
        return out

    def socket_url(self, game_id: str, token: str | None, since: int = 0, chat_since: int = 0) -> str:
        """The WebSocket URL of a game's live updates."""
        return socket_url(self.base_url, game_id, token, since, chat_since)


class Seat:
    """One seat of one game, by its token: what the browser client does for a seat, over the same API."""

    def __init__(self, client: Client, game_id: str, token: str, seat: int | None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.log_pos = 0
        """The seat's log entries its updates have received (where the next socket starts)."""
        self.chat_pos = 0
        """The table's messages its updates have received."""
        self._ws: ClientConnection | None = None

    def _req(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.request(method, f"/api/games/{self.game_id}{path}", token=self.token, **kwargs)

    def state(self) -> dict[str, Any]:
        """The seat's picture: seq, status, to_move, its view and legal actions, owes_decision, ..."""
        state: dict[str, Any] = self._req("GET", "/state")
        return state

    def log(self, start: int = 0) -> dict[str, Any]:
        """The seat's log entries from `start` on and the new `log_pos`."""
        out: dict[str, Any] = self._req("GET", "/log", params={"start": start})
        return out

    def act(self, action: str, seq: int, client_action_id: str | None = None) -> dict[str, Any]:
        """Take an action (its text) decided at event `seq`; the answer, with the new `state`."""
        out: dict[str, Any] = self._req("POST", "/actions", json={
            "action": action, "seq": seq, "client_action_id": client_action_id or _new_id()})
        return out

    def undo(self, seq: int, count: int = 1, client_action_id: str | None = None) -> dict[str, Any]:
        """Take back the seat's last `count` actions (while no other seat has acted since)."""
        out: dict[str, Any] = self._req("POST", "/undo", json={
            "count": count, "seq": seq, "client_action_id": client_action_id or _new_id()})
        return out

    def concede(self) -> dict[str, Any]:
        """Concede a competitive game: with two players (or all but one conceded) it ends and the other wins,
        otherwise the seat is placed last and the table's AI plays it on (`seat`, `over`, `ai`: the AI's level)."""
        out: dict[str, Any] = self._req("POST", "/concede")
        return out

    def hints(self) -> list[dict[str, Any]]:
        """Search hints for the seat's decision: action, value, visits, reason."""
        return list(self._req("POST", "/hints").get("hints", []))

    def mark_bot(self) -> dict[str, Any]:
        """Say that a program plays this seat (docs/bots.md): marked as a bot at the table and in the lobby."""
        out: dict[str, Any] = self._req("POST", "/bot")
        return out

    def chat(self, text: str) -> dict[str, Any]:
        """Say a line at the table (refused in a game without chat, with the game's reason)."""
        out: dict[str, Any] = self._req("POST", "/chat", json={"text": text})
        return out

    # ---- the socket -------------------------------------------------------------------------------------------
    def updates(self, since: int | None = None, timeout: float | None = None, chat_since: int | None = None,
                fallback_after: int = 2, poll_seconds: float = 1.0) -> Updates:
        """The server's messages for this seat as they come, over one socket for as long as it is iterated (an
        `Updates`: `state` first, then a `state` after every event, `chat` for the table's lines, `ack`/`refused`
        for what was sent on it, and `connection` when the way they come changes). It reconnects when the socket
        drops, from the last log index and chat index it saw (so nothing is sent twice or missed), and falls back
        to polling REST while the socket cannot be had. It ends when the seat's token is revoked (4401), when
        `timeout` seconds pass with no message, or when it is closed (`Updates.close`, from any thread)."""
        return Updates(self, self.log_pos if since is None else since, self.chat_pos if chat_since is None
                       else chat_since, timeout, fallback_after, poll_seconds)

    def send(self, message: dict[str, Any]) -> None:
        """Send a message on the open socket (`{"type": "act", ...}`); only while iterating `updates`."""
        if self._ws is None:
            raise RuntimeError("no socket is open: iterate updates() first")
        self._ws.send(json.dumps(message))

    def wait(self, seq: int, timeout: float = 60.0) -> dict[str, Any]:
        """The first state after event `seq` (over the socket; the current state if the game is already past it)."""
        deadline = time.monotonic() + timeout
        with closing(self.updates(timeout=timeout)) as updates:
            for msg in updates:
                if msg.get("type") == "state" and (int(msg.get("seq", -1)) > seq or msg.get("status") == "over"):
                    return msg
                if time.monotonic() > deadline:
                    break
        return self.state()

    def rest_update(self, since: int) -> dict[str, Any]:
        """The seat's picture over REST in the shape of a socket `state` message: the state, and the log entries
        from `since` up to the picture's own log position (`log_start`, `log`, `log_pos`)."""
        state = self.state()
        pos = int(state.get("log_pos") or state.get("view", {}).get("log_pos") or 0)
        start = min(since, pos)
        entries = list(self.log(start).get("entries", []))[:pos - start]
        return {**state, "type": "state", "game_id": self.game_id, "log_start": start, "log": entries,
                "log_pos": start + len(entries)}


PERMANENT_CLOSES = (4401, 1008)
"""Socket close codes after which reconnecting is pointless: the seat token revoked, a request the server refuses."""


class Updates:
    """One seat's live updates (`Seat.updates`): an iterator of the server's messages over one socket, kept for as
    long as it is iterated. Cursors: `log_pos` (the seat's log entries received) and `chat_pos` (the table's
    messages received); every reconnection asks for what comes after them (the socket's `since` and `chat_since`),
    so a drop, a restart of the server or a stretch on REST loses nothing and repeats nothing.

    When the socket cannot be opened `fallback_after` times in a row (the server is down or restarting, or a proxy
    does not pass WebSockets), it polls REST every `poll_seconds` (the state, the log from `log_pos`, the chat from
    `chat_pos`, sent as the same `state` and `chat` messages) and tries the socket again now and then. Each change
    of the way is said once as `{"type": "connection", "via": "socket" | "rest" | "none", "detail"}` (`none`:
    neither answers; it keeps trying). `via` is the way now."""

    def __init__(self, seat: Seat, since: int, chat_since: int, timeout: float | None, fallback_after: int = 2,
                 poll_seconds: float = 1.0) -> None:
        self.seat = seat
        self.log_pos = since
        self.chat_pos = chat_since
        self.timeout = timeout
        self.fallback_after = max(1, fallback_after)
        self.poll_seconds = poll_seconds
        self.via = "socket"
        self.reconnects = 0
        """Sockets opened again after the first."""
        self._stop = threading.Event()
        self._ws: ClientConnection | None = None
        self._gen = self._run()

    def __iter__(self) -> Updates:
        return self

    def __next__(self) -> dict[str, Any]:
        return next(self._gen)

    def close(self) -> None:
        """Stop: the iteration ends (at once if it waits on the socket). Safe from another thread."""
        self._stop.set()
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
        with contextlib.suppress(ValueError):  # "generator already executing": it ends on its own, seeing the stop
            self._gen.close()

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    # ---- internals -----------------------------------------------------------------------------------------
    def _took(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Advance the cursors past a message about to be yielded."""
        kind = msg.get("type")
        if kind == "state":
            self.log_pos = int(msg.get("log_pos", self.log_pos))
            self.seat.log_pos = self.log_pos
        elif kind == "chat":
            self.chat_pos = max(self.chat_pos, int(msg.get("chat_pos", self.chat_pos)))
            self.seat.chat_pos = self.chat_pos
        return msg

    def _say(self, via: str, detail: str) -> dict[str, Any] | None:
        if via == self.via:
            return None
        self.via = via
        return {"type": "connection", "via": via, "detail": detail}

    def _run(self) -> Generator[dict[str, Any]]:
        seat = self.seat
        failures = 0
        opened = 0
        last = time.monotonic()
        next_try = 0.0
        last_key: tuple[Any, ...] | None = None
        while not self._stop.is_set():
            if self.timeout is not None and time.monotonic() - last > self.timeout:
                return
            if time.monotonic() >= next_try:
                url = seat.client.socket_url(seat.game_id, seat.token, self.log_pos, self.chat_pos)
                try:
                    ws = connect(url, open_timeout=10, max_size=2**24).__enter__()  # closed in the finally below
                except InvalidStatus as e:  # refused at the handshake: REST says why (401, 404, ...)
                    seat.state()  # raises the refusal as an ApiError; if it answers, the socket is blocked here
                    failures, detail = max(failures + 1, self.fallback_after), f"the socket was refused: {e}"
                except (OSError, TimeoutError, InvalidHandshake) as e:
                    failures, detail = failures + 1, f"the socket could not be opened: {e}"
                else:
                    if opened:
                        self.reconnects += 1
                    opened += 1
                    failures = 0
                    said = self._say("socket", "connected")
                    if said is not None:
                        yield said
                    self._ws = seat._ws = ws
                    try:
                        while not self._stop.is_set():
                            wait = 1.0 if self.timeout is None else min(1.0, max(0.0, self.timeout - (
                                time.monotonic() - last)))
                            try:
                                msg = json.loads(ws.recv(timeout=wait))
                            except TimeoutError:
                                if self.timeout is not None and time.monotonic() - last >= self.timeout:
                                    return
                                continue
                            last = time.monotonic()
                            if msg.get("type") == "state":
                                last_key = (msg.get("seq"), msg.get("status"))
                            yield self._took(msg)
                    except ConnectionClosed as e:
                        code = e.rcvd.code if e.rcvd is not None else None
                        if code in PERMANENT_CLOSES or self._stop.is_set():
                            return
                        detail = f"the socket dropped ({code or 'no close frame'}); reconnecting"
                        failures = 1
                    finally:
                        self._ws = seat._ws = None
                        with contextlib.suppress(Exception):
                            ws.close()
                    if self._stop.is_set():
                        return
                next_try = time.monotonic() + min(5.0, 0.2 * 2 ** (failures - 1))
            if failures >= self.fallback_after:  # the socket is not to be had: REST meanwhile
                try:
                    msg = seat.rest_update(self.log_pos)
                    page = seat.client.messages(seat.game_id, self.chat_pos)
                except ApiError as e:
                    if e.status != 0:
                        raise
                    said = self._say("none", f"the server does not answer ({e.detail}); trying again")
                    if said is not None:
                        yield said
                else:
                    said = self._say("rest", detail)
                    if said is not None:
                        yield said
                    key = (msg.get("seq"), msg.get("status"))
                    if key != last_key or msg["log"]:
                        last_key = key
                        last = time.monotonic()
                        yield self._took(msg)
                    if page.get("messages"):
                        last = time.monotonic()
                        yield self._took({"type": "chat", **page})
                self._stop.wait(min(self.poll_seconds, max(0.0, next_try - time.monotonic())) or 0.05)
            else:
                self._stop.wait(max(0.0, next_try - time.monotonic()))
