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
lost answer is applied at most once. The socket (`Seat.updates`) is a synchronous iterator of the server's messages
(`state`, `ack`, `refused`, `chat`, ...), reconnecting from the last log index it saw. `tabletop.client.aio` is the
same client for an asyncio program holding many seats (the load test).

It speaks HTTP and WebSocket only and imports nothing of `tabletop.server` (tests/test_layers.py checks it); it
needs the `client` extra (httpx, websockets).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

__all__ = ["ApiError", "Client", "Created", "Seat", "parse_invite", "socket_url"]


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


def socket_url(base_url: str, game_id: str, token: str | None, since: int = 0) -> str:
    """The WebSocket URL of a game's live updates on the server at `base_url`."""
    parts = urlsplit(base_url.rstrip("/"))
    scheme = "wss" if parts.scheme == "https" else "ws"
    query = f"since={since}" + (f"&token={token}" if token else "")
    return urlunsplit((scheme, parts.netloc, f"{parts.path}/api/games/{game_id}/ws", query, ""))


def _new_id() -> str:
    return "py-" + secrets.token_hex(8)


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
        headers = dict(kwargs.pop("headers", {}) or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            r = self._http.request(method, path, headers=headers, **kwargs)
        except httpx.HTTPError as e:
            raise ApiError(0, f"the server at {self.base_url} did not answer: {e}", "unreachable") from None
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
        payload: dict[str, Any] = {"game": game, "options": options or {}, "visibility": visibility}
        if players is not None:
            payload["players"] = players
        if seats is not None:
            payload["seats"] = seats
        if name is not None:
            payload["creator_name"] = name
        if move_seconds is not None:
            payload["move_seconds"] = move_seconds
        body = self.request("POST", "/api/games", json=payload)
        return Created(str(body["id"]), str(body.get("creator_token", "")),
                       body.get("seat"), body.get("token"), list(body.get("invites", [])), body)

    def info(self, game_id: str) -> dict[str, Any]:
        """A game's public facts."""
        info: dict[str, Any] = self.request("GET", f"/api/games/{game_id}")
        return info

    def claim(self, game_id: str, invite: str | None = None, seat: int | None = None,
              name: str | None = None) -> Seat:
        """Take a seat: an invited one by its code, or an open one (`seat`, or any)."""
        payload: dict[str, Any] = {}
        if invite is not None:
            payload["invite"] = invite
        if seat is not None:
            payload["seat"] = seat
        if name is not None:
            payload["name"] = name
        body = self.request("POST", f"/api/games/{game_id}/claim", json=payload)
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

    def socket_url(self, game_id: str, token: str | None, since: int = 0) -> str:
        """The WebSocket URL of a game's live updates."""
        return socket_url(self.base_url, game_id, token, since)


class Seat:
    """One seat of one game, by its token: what the browser client does for a seat, over the same API."""

    def __init__(self, client: Client, game_id: str, token: str, seat: int | None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.log_pos = 0
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
    def updates(self, since: int | None = None, timeout: float | None = None) -> Iterator[dict[str, Any]]:
        """The server's messages for this seat as they come (`state` first), reconnecting (from the last log index
        seen) when the socket drops; ends when the seat's token is revoked (4401) or `timeout` seconds pass with
        no message."""
        start = self.log_pos if since is None else since
        while True:
            try:
                with connect(self.client.socket_url(self.game_id, self.token, start), open_timeout=30,
                             max_size=2**24) as ws:
                    self._ws = ws
                    while True:
                        try:
                            msg = json.loads(ws.recv(timeout=timeout))
                        except TimeoutError:
                            return
                        if msg.get("type") == "state":
                            self.log_pos = start = int(msg.get("log_pos", start))
                        yield msg
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else None
                if code in (4401, 1008):
                    return
                time.sleep(0.2)  # dropped: reconnect from the last log index seen
            except (OSError, TimeoutError) as e:
                raise ApiError(0, f"cannot open the game's socket: {e}", "unreachable") from None
            finally:
                self._ws = None

    def send(self, message: dict[str, Any]) -> None:
        """Send a message on the open socket (`{"type": "act", ...}`); only while iterating `updates`."""
        if self._ws is None:
            raise RuntimeError("no socket is open: iterate updates() first")
        self._ws.send(json.dumps(message))

    def wait(self, seq: int, timeout: float = 60.0) -> dict[str, Any]:
        """The first state after event `seq` (over the socket; the current state if the game is already past it)."""
        deadline = time.monotonic() + timeout
        for msg in self.updates(timeout=timeout):
            if msg.get("type") == "state" and (int(msg.get("seq", -1)) > seq or msg.get("status") == "over"):
                return msg
            if time.monotonic() > deadline:
                break
        return self.state()
