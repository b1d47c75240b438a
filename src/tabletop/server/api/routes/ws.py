"""WS /api/games/{id}/ws?token=...&since=k: live updates, each seat its own.

On connect: the seat's (or spectator's) view, legal actions, seq, whether it owes a decision (`owes_decision`,
`decision_seq`, and the public `deciding` and `decided`), how many of its actions it may take back (`undoable`),
and its log from entry `since`, then the table's messages from index `chat_since` (if any). After every event: the
same again, with only the log entries it has not been sent; after every new table message (chat or notice):
`{"type": "chat", "start", "messages", "chat_pos"}`.
A seat may act over its socket, as over REST (the same service call, the same checks): it sends
`{"type": "act", "action", "seq", "client_action_id"}` or `{"type": "undo", "count", "seq", "client_action_id"}` and
gets `{"type": "ack", "client_action_id", "seq", "action", "kind", "duplicate"}`, or `{"type": "refused",
"client_action_id", "status", "detail", ...}` with the status and body REST would have answered (409 with the seat's
state when stale, 422 with its legal actions when illegal, 429 when its token's rate is spent). Its new picture
follows as usual, always after that answer (the socket's state messages wait while one of its commands is
unanswered). This saves a request's HTTP handling per move (most of the server's cost per action). Any other
message is refused (422) and changes nothing; one larger than `max_socket_message_bytes` closes the socket (1009),
and so does sending more than `max_socket_messages_per_second` in a second (1008). A socket whose seat token is
revoked (the creator re-seated the player) is closed at once with `TOKEN_REVOKED` (4401).
Without a token, a browser signed in to an account that holds a seat of the game (issue 23: its session cookie)
plays that seat; the socket closes at once with 4401 when that session is closed (signed out, revoked, the password
changed, the account deleted) or the seat is no longer the account's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketState

from tabletop.core import State
from tabletop.server import views
from tabletop.server.accounts import COOKIE, AccountKey, Accounts, session_topic
from tabletop.server.limits import Buckets
from tabletop.server.pubsub import Subscription
from tabletop.server.schemas import SocketActIn, SocketUndoIn
from tabletop.server.service import STATUS, GameService, ServiceError
from tabletop.server.storage import SeatInfo
from tabletop.server.table import Table, chat_topic

router = APIRouter(tags=["live"])
POLICY_VIOLATION = 1008
INTERNAL_ERROR = 1011
MAX_INDEX = 10_000_000
"""The largest `since` and `chat_since` a socket takes (as REST's `start`); a larger one is refused with 1008."""
TOKEN_REVOKED = 4401
"""The close code of a socket whose seat token was revoked (the creator re-seated the player): sent at once, before
anything of the seat's that happens after the revocation."""
log = logging.getLogger("tabletop.server")
_COMMAND: TypeAdapter[SocketActIn | SocketUndoIn] = TypeAdapter(SocketActIn | SocketUndoIn)


def origin_allowed(ws: WebSocket, public_url: str, extra: list[str]) -> bool:
    """Non-browser clients send no Origin; a browser's must be the public URL's, the Host's, or listed."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    pub = urlsplit(public_url)
    allowed = {f"{pub.scheme}://{pub.netloc}", *extra}
    host = ws.headers.get("host")
    if host:
        allowed |= {f"http://{host}", f"https://{host}"}
    return origin in allowed


class _Feed:
    """One connection's cursor: builds the messages of its seat, encoded."""

    def __init__(self, service: GameService, game_id: str, seat: int | None, since: int,
                 shared: _Shared | None = None) -> None:
        self.service, self.game_id, self.seat, self.cursor = service, game_id, seat, since
        self.shared = shared

    def message(self) -> str:
        """The seat's message (from a worker thread: may wait for the game's lock or load it)."""
        return self._build(*self.service.current_for(self.game_id, self.seat))

    def message_nowait(self) -> str | None:
        """The seat's message built in the event loop when the game is cached and not being written (the views
        cost a fraction of a millisecond, less than a hop to a worker thread); None: use `message`. Built once
        per state for every socket of the same seat at the same log cursor (`_Shared`)."""
        got = self.service.current_for_nowait(self.game_id, self.seat)
        if got is None:
            return None
        if self.shared is None:
            return self._build(*got)
        state, seq, status, since, undoable = got
        key = (self.seat, self.cursor, seq, status, since, undoable)
        hit = self.shared.get(state, key)
        if hit is not None:
            text, self.cursor = hit
            return text
        text = self._build(state, seq, status, since, undoable)
        self.shared.put(state, key, (text, self.cursor))
        return text

    async def next(self) -> str:
        """The seat's message, in the loop when it can be had at once, else from a worker thread."""
        msg = self.message_nowait()
        return msg if msg is not None else await run_in_threadpool(self.message)

    def _build(self, state: State, seq: int, status: str, since: int | None, undoable: int | None) -> str:
        out = {"type": "state", "game_id": self.game_id,
               **views.seat_payload(state, self.seat, seq, status, since, undoable)}
        end = out.get("log_pos")
        if isinstance(end, int) and self.cursor > end:  # a `since` past the end of the log starts at its end
            self.cursor = end
        entries = views.seat_log(state, self.seat, self.cursor)
        out["log_start"] = self.cursor
        out["log"] = entries
        self.cursor += len(entries)
        out["log_pos"] = self.cursor
        return encode(out)


_Key = tuple[int | None, int, int, str, int | None, int | None]
"""(seat, log cursor, event count, status, the seat's decision standing since, what its player may take back): with
the state, all a message is made of."""


class _Shared:
    """One game's encoded state messages, for the sockets of this process: each built once per state and key
    (`_Key`: the seat among them) and sent as the same text to every socket of that seat at that log cursor (a seat
    on two devices, the spectators). Only the newest state's messages are kept; used from the event loop only."""

    def __init__(self) -> None:
        self.state: State | None = None
        self.messages: dict[_Key, tuple[str, int]] = {}
        self.sockets = 0

    def get(self, state: State, key: _Key) -> tuple[str, int] | None:
        return self.messages.get(key) if state is self.state else None

    def put(self, state: State, key: _Key, built: tuple[str, int]) -> None:
        if state is not self.state:  # a live state is never mutated: a new one is a new event (or a reload)
            self.state, self.messages = state, {}
        self.messages[key] = built


_SHARED: dict[str, _Shared] = {}
"""Per game with a socket open in this process (the event loop's: one loop per server process)."""


@contextlib.contextmanager
def _shared_of(game_id: str) -> Iterator[_Shared]:
    shared = _SHARED.get(game_id)
    if shared is None:
        shared = _SHARED[game_id] = _Shared()
    shared.sockets += 1
    try:
        yield shared
    finally:
        shared.sockets -= 1
        if shared.sockets <= 0 and _SHARED.get(game_id) is shared:
            del _SHARED[game_id]


_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
"""The integers orjson encodes; past them it raises TypeError."""


def _exact(x: Any) -> Any:
    """`x` with every integer past orjson's 64 bits replaced by its exact JSON text (an `orjson.Fragment`). Only
    the containers orjson refuses are walked in Python: each part is tried by orjson first and kept as it is when
    taken (a SiliconVania message's big integers sit in a few lists of its view's flow: walking the whole message,
    4 kB of JSON, cost 80 us in Python, ten times orjson's own encoding)."""
    if type(x) is int:
        return x if _INT_MIN <= x <= _INT_MAX else orjson.Fragment(str(x))
    if type(x) is dict:
        return {k: v if _plain(v) else _exact(v) for k, v in x.items()}
    if type(x) is list or type(x) is tuple:
        return [v if _plain(v) else _exact(v) for v in x]
    return x


def _plain(x: Any) -> bool:
    """Whether orjson takes `x` as it is (False: a container holding an integer past 64 bits, or another part
    orjson refuses, which `_exact` leaves as it is and the final encoding then refuses as before)."""
    if type(x) is int:
        return _INT_MIN <= x <= _INT_MAX
    if type(x) is dict or type(x) is list or type(x) is tuple:
        try:
            orjson.dumps(x, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:
            return False
    return True


def encode(msg: dict[str, Any]) -> str:
    """A socket message's JSON text. orjson (a tenth of json.dumps' cost) refuses integers past 64 bits
    (SiliconVania's public flow holds bit sets): those are written as their exact digits (`_exact`), the same
    number json would write, still by orjson."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return orjson.dumps(_exact(msg), option=orjson.OPT_NON_STR_KEYS).decode()


class _ChatFeed:
    """One connection's cursor in the table's messages (chat and notices, readable by everyone)."""

    def __init__(self, table: Table, game_id: str, since: int) -> None:
        self.table, self.game_id, self.cursor = table, game_id, since

    def message(self) -> dict[str, Any] | None:
        page = self.table.messages(self.game_id, self.cursor)
        if not page["messages"]:
            return None
        self.cursor = page["chat_pos"]
        return {"type": "chat", **page}


@router.websocket("/games/{game_id}/ws")
async def game_socket(ws: WebSocket, game_id: str, token: str | None = None, since: int = 0,
                      chat_since: int = 0) -> None:
    """Push this seat's picture of the game after every event."""
    service: GameService = ws.app.state.service
    settings = ws.app.state.settings
    if not origin_allowed(ws, settings.public_url, settings.allowed_origins):
        await ws.close(code=POLICY_VIOLATION, reason="origin not allowed")
        return
    if len(game_id) > 32 or (token is not None and len(token) > 200):
        await ws.close(code=POLICY_VIOLATION, reason="bad request")
        return
    if not (0 <= since <= MAX_INDEX and 0 <= chat_since <= MAX_INDEX):
        await ws.accept()  # accepted to be refused with a reason the client can read
        await ws.close(code=POLICY_VIOLATION, reason=f"since and chat_since are indexes from 0 to {MAX_INDEX}")
        return
    inbox = _Inbox()
    gone_sub: Subscription | None = None
    if token is None and ws.cookies.get(COOKIE):
        token, gone_sub = await _signed_in_seat(ws, service, game_id, lambda _seq: inbox.put(_GONE))
    try:
        seat = await run_in_threadpool(service.seat_of, game_id, token)
    except ServiceError as e:
        if gone_sub is not None:
            gone_sub.close()
        await ws.close(code=POLICY_VIOLATION, reason=e.message[:100])
        return
    await ws.accept()
    sub = service.broker.subscribe(game_id, lambda _seq: inbox.put(_EVENT))
    chat_sub = service.broker.subscribe(chat_topic(game_id), lambda _seq: inbox.put(_CHAT))
    chat = _ChatFeed(ws.app.state.table, game_id, chat_since)
    out = _Sender(ws)
    commands = _Commands(service, game_id, token, out, ws.app.state.act_pool, ws.app.state.per_token,
                         lambda: inbox.put(_EVENT), ws.app.state.act_in_loop)
    reader = asyncio.create_task(_read_until_closed(ws, settings.max_socket_message_bytes,
                                                    settings.max_socket_messages_per_second, commands))
    reader.add_done_callback(lambda _t: inbox.put(_CLOSED))
    holder = _Holder(service, game_id, seat, token)

    async def held() -> bool:
        """Whether the socket's token still holds its seat; if not, the socket is closed (4401). Checked after a
        message is built and before it is sent: a token once revoked never holds a seat again, so a message built
        while it still held the seat shows only what that holder was entitled to."""
        still = holder.holds_nowait()
        if still is None:
            still = await run_in_threadpool(holder.holds)
        if not still:
            await ws.close(code=TOKEN_REVOKED, reason="seat token revoked")
        return still

    try:
        with _shared_of(game_id) as shared:
            feed = _Feed(service, game_id, seat, since, shared)
            first = await feed.next()
            if not await held():
                return
            await out.send_or_raise(first)
            said = await run_in_threadpool(chat.message)
            if said is not None:
                await out.send_or_raise(said)
            # one wait per wake-up, on the socket's inbox: the notices of new events and table messages, the
            # session's closing and the reader's end all land there (coalesced: only the newest state is sent)
            while True:
                woken = await inbox.get()
                if _CLOSED in woken:
                    break
                if _GONE in woken:
                    await ws.close(code=TOKEN_REVOKED, reason="session closed")
                    break
                if _EVENT in woken and not commands.hold():  # held: asked again once the answer is out
                    msg = await feed.next()
                    if not await held():
                        break
                    await out.send_or_raise(msg)
                if _CHAT in woken:
                    said = await run_in_threadpool(chat.message)
                    if not await held():
                        break
                    if said is not None:
                        await out.send_or_raise(said)
    except (WebSocketDisconnect, ConnectionError, RuntimeError):  # the client went away mid-send
        pass
    except ServiceError as e:  # e.g. the game cannot be loaded (an old rules version): said, not dropped
        await _close_quietly(ws, POLICY_VIOLATION, e.message)
    except Exception as e:  # a fault of the server's own: logged once, and the socket closed with a close frame
        log.error("socket of game %s failed: %r", game_id, e)
        await _close_quietly(ws, INTERNAL_ERROR, "internal server error")
    finally:
        reader.cancel()
        if gone_sub is not None:
            gone_sub.close()
        sub.close()
        chat_sub.close()
        commands.close()


_EVENT, _CHAT, _GONE, _CLOSED = "event", "chat", "gone", "closed"


class _Inbox:
    """What woke a socket up since its loop last looked (a set of `_EVENT`, `_CHAT`, `_GONE`, `_CLOSED`): put from
    the event loop's callbacks, taken by the socket's one waiting coroutine."""

    def __init__(self) -> None:
        self.woken: set[str] = set()
        self.waiter: asyncio.Future[None] | None = None

    def put(self, what: str) -> None:
        self.woken.add(what)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> set[str]:
        while not self.woken:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        woken, self.woken = self.woken, set()
        return woken


class _Holder:
    """Whether the socket's token still holds its seat, asked before every message it is sent. The seat as last
    found held is remembered: a seat is never changed in place (`SeatInfo` is frozen; a re-seat, a leaver, a
    binding to an account or a reload each put a new one in the cached game), so while the cached game still has
    that very object at that seat, the token still holds it, and its hash need not be computed again."""

    def __init__(self, service: GameService, game_id: str, seat: int | None, token: str | None) -> None:
        self.service, self.game_id, self.seat, self.token = service, game_id, seat, token
        self.held_as: SeatInfo | None = None

    def holds_nowait(self) -> bool | None:
        seat, token = self.seat, self.token
        if seat is None or token is None:
            return True
        live = self.service.cache.find_nowait(self.game_id)
        seen = live.seats[seat] if live is not None and 0 <= seat < len(live.seats) else None
        if seen is not None and seen is self.held_as:
            return True
        still = self.service.holds_nowait(self.game_id, token, seat)
        if still and seen is not None and live is not None and live.seats[seat] is seen:
            self.held_as = seen
        return still

    def holds(self) -> bool:
        """`holds_nowait` from a worker thread (may load the game)."""
        if self.seat is None or self.token is None:
            return True
        return self.service.holds(self.game_id, self.token, self.seat)


async def _signed_in_seat(ws: WebSocket, service: GameService, game_id: str, wake: Callable[[int], None]
                          ) -> tuple[str | None, Subscription | None]:
    """The seat credential of the socket's signed-in account (its session cookie), and a subscription to its
    session's closing, taken before the session is checked again (a closing in between is not missed); (None, None)
    for a spectator: no valid session, or no seat of the account in this game. `wake` is called on its closing."""
    accounts: Accounts = ws.app.state.accounts
    secret = ws.cookies.get(COOKIE, "")
    if len(secret) > 200:
        return None, None
    signed = await run_in_threadpool(accounts.session, secret)
    if signed is None:
        return None, None
    try:
        seat = await run_in_threadpool(service.account_seat, game_id, signed.account.id)
    except ServiceError:
        return None, None
    if seat is None:
        return None, None
    gone = service.broker.subscribe(session_topic(signed.session.id), wake)
    if not await run_in_threadpool(accounts.seen_by_id, signed.session.id):
        gone.close()
        return None, None
    return AccountKey(signed.account.id), gone


async def _close_quietly(ws: WebSocket, code: int, reason: str) -> None:
    """Close with `code` and a reason (at most 123 bytes, as the protocol allows), if the socket is still open."""
    with contextlib.suppress(Exception):
        await ws.close(code=code, reason=reason.encode("utf-8")[:120].decode("utf-8", "ignore"))


class _Sender:
    """A socket's messages, sent one at a time (the push loop and the answers to commands share the socket). Once
    the socket is closed (by either side), what is still queued to be sent is dropped without a word: answers to a
    client that is gone are nobody's business, and no traceback in the log."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws, self.lock = ws, asyncio.Lock()
        self.closed = False

    async def send(self, msg: dict[str, Any] | str) -> None:
        """Send a message (a dict, or its text already encoded by `encode`)."""
        text = msg if isinstance(msg, str) else encode(msg)
        async with self.lock:
            if self.closed or self.ws.application_state != WebSocketState.CONNECTED:
                self.closed = True
                return
            try:
                await self.ws.send_text(text)
            except (WebSocketDisconnect, ConnectionError, RuntimeError):
                self.closed = True

    async def send_or_raise(self, msg: dict[str, Any] | str) -> None:
        """`send`, raising WebSocketDisconnect if the socket is closed (for the push loop, which then ends)."""
        await self.send(msg)
        if self.closed:
            raise WebSocketDisconnect(1000)


class _Commands:
    """A socket's actions and undos: the same service calls as REST, run in the action threads, answered in turn.

    The answer to an act or undo goes out before the state it causes (a promise of the socket, docs/server.md): the
    event's notice reaches the socket's loop before the action thread's result reaches `_run`, so while a command
    of this socket is unanswered the loop holds its state messages (`hold`) and `wake` asks for them again once the
    last answer is sent (the newest state then, coalesced as always)."""

    def __init__(self, service: GameService, game_id: str, token: str | None, out: _Sender, pool: Executor,
                 per_token: Buckets, wake: Callable[[], None], in_loop: bool = True) -> None:
        self.service, self.game_id, self.token, self.out = service, game_id, token, out
        self.pool, self.per_token, self.wake = pool, per_token, wake
        self.in_loop = in_loop
        """Moves applied in the loop when they can be (`GameService.act_soon`), else on `pool`."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.in_flight = 0
        """Acts and undos taken and not yet answered."""
        self.held = False
        """A state message was held for them."""

    def hold(self) -> bool:
        """Whether a state message must wait for the answers in flight (then `wake` is called once they are out)."""
        if not self.in_flight:
            return False
        self.held = True
        return True

    def take(self, text: str) -> None:
        """Parse one client message and answer it (an act or undo is applied off the loop). Whatever the message,
        it is answered (a `refused` with what is accepted) and never takes the socket down."""
        try:
            cmd = _COMMAND.validate_json(text)
        except (ValidationError, ValueError, RecursionError) as e:
            if not isinstance(e, ValidationError):
                self._refuse_unreadable(text)
                return
            problems = "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors()[:5])
            self._answer({"type": "refused", "client_action_id": _cid_of(text), "status": 422,
                          "detail": "a socket message must be {\"type\": \"act\", \"action\", \"seq\", "
                                    "\"client_action_id\"} or {\"type\": \"undo\", \"count\", \"seq\", "
                                    f"\"client_action_id\"}}: {problems}"[:1000]})
            return
        wait = self.per_token.take(self.token) if self.token is not None else 0.0
        if wait:
            self._answer({"type": "refused", "client_action_id": cmd.client_action_id, "status": 429,
                          "detail": f"too many requests; try again in {max(1, round(wait))} s"})
            return
        self.in_flight += 1
        task = asyncio.create_task(self._run(cmd))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _refuse_unreadable(self, text: str) -> None:
        self._answer({"type": "refused", "client_action_id": _cid_of(text), "status": 422,
                      "detail": "a socket message must be a JSON object {\"type\": \"act\" or \"undo\", ...}"})

    async def _run(self, cmd: SocketActIn | SocketUndoIn) -> None:
        try:
            await self._apply(cmd)
        finally:
            self.in_flight -= 1
            if not self.in_flight and self.held:
                self.held = False
                self.wake()

    async def _apply(self, cmd: SocketActIn | SocketUndoIn) -> None:
        loop = asyncio.get_running_loop()
        service, gid, token = self.service, self.game_id, self.token
        try:
            if isinstance(cmd, SocketActIn):
                # in the loop when it can be (the commit on the storage's writer thread), else on a worker thread
                soon = (service.act_soon(gid, token, cmd.action, cmd.seq, cmd.client_action_id)
                        if self.in_loop else None)
                r = await soon if soon is not None else await loop.run_in_executor(
                    self.pool, service.act, gid, token, cmd.action, cmd.seq, cmd.client_action_id, False)
            else:
                r = await loop.run_in_executor(self.pool, service.undo, gid, token, cmd.count, cmd.seq,
                                               cmd.client_action_id, False)
        except ServiceError as e:
            answer = {"type": "refused", "client_action_id": cmd.client_action_id, "status": STATUS[e.kind],
                      "detail": e.message, **e.extra}
        except Exception as e:  # never a trace to the client
            log.error("socket command failed", exc_info=e)
            answer = {"type": "refused", "client_action_id": cmd.client_action_id, "status": 500,
                      "detail": "internal server error"}
        else:
            answer = {"type": "ack", "client_action_id": cmd.client_action_id,
                      **{k: r[k] for k in ("seq", "action", "kind", "duplicate")}}
        await self.out.send(answer)

    def _answer(self, msg: dict[str, Any]) -> None:
        task = asyncio.create_task(self.out.send(msg))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def close(self) -> None:
        """The socket is gone: answers not yet sent are dropped (an action already applied stays applied)."""
        for task in list(self.tasks):
            task.cancel()


def _cid_of(text: str) -> str | None:
    """The client action id of a refused message, if it had a usable one (so the client can match the answer)."""
    try:
        got = orjson.loads(text)  # nesting deeper than orjson's limit is a JSONDecodeError, not a RecursionError
    except (ValueError, RecursionError):
        return None
    cid = got.get("client_action_id") if isinstance(got, dict) else None
    return cid if isinstance(cid, str) and 0 < len(cid) <= 64 else None


async def _read_until_closed(ws: WebSocket, max_bytes: int, per_second: int, commands: _Commands) -> None:
    window, count = 0.0, 0
    loop = asyncio.get_running_loop()
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        text, raw = msg.get("text"), msg.get("bytes")
        size = len(text.encode("utf-8", "replace")) if text is not None else len(raw or b"")
        if size > max_bytes:
            await ws.close(code=1009, reason="message too large")
            return
        now = loop.time()
        if now - window >= 1.0:
            window, count = now, 0
        count += 1
        if count > per_second:
            await ws.close(code=POLICY_VIOLATION, reason="too many messages")
            return
        commands.take(text if text is not None else (raw or b"").decode("utf-8", "replace"))


