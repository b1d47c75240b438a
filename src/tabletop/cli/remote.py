"""`tabletop play --server URL --join INVITE` (or `--game-id ID --token TOKEN`): a seat of a server's game in the same
full-screen app as local play (or in line mode, `--plain`), over the public API only (tabletop.client).

`RemoteGame` is the game as the app sees it, behind the interface the app uses for a local state (`to_move`,
`view`, `log`, `legal_actions`, `apply`, `undoable`, `undo`, `sample`, `is_over`, `info`): everything it answers is
this seat's picture as the server last sent it. It listens to the table over one socket for the app's life
(`Seat.updates`: reconnecting and catching up from the last log and chat index, REST polling while the socket
cannot be had); what arrives is taken in the app's own thread (`absorb`): new pictures, the table's chat lines and
notices, and changes of the connection, which the status line shows. An action is sent over REST quoting the
picture's `seq`. Hints are asked of the server's hint endpoint (it knows the table: Silencio's hints know who is
AI); only when the server refuses one (no hint workers, too many asked, unreachable) is it searched here, from the
seat's sampler (`tabletop.core.belief`), and the hint screen says so. `RemoteApp` is the local app with its "AI is
thinking" turned into "waiting for the table"; `play_lines` is the line mode.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

from rich.console import Console, Group
from rich.markup import escape
from rich.text import Text
from textual.events import Mount
from textual.widgets import ProgressBar, Static

from tabletop.cli.common import Refused
from tabletop.cli.play import (
    ConcedeRequest,
    HumanAgent,
    LeaveGame,
    UndoRequest,
    _log_lines,
    full_screen,
    hint_table,
    renderer,
)
from tabletop.cli.tui import HintScreen, Outcome, PlayApp, game_module, log_lines
from tabletop.client import ApiError, Client, Seat, Updates, parse_invite
from tabletop.client.bot import RemoteSeat, SeatLog
from tabletop.core import Action, GameInfo, IllegalAction, LogEntry, SeatHandle, State, View, game_info
from tabletop.core.belief import Belief
from tabletop.core.seatnames import seat_names

Hint = tuple[Action, int, float, str]
"""A hint as the hint screens show it: the action, the search's tries, its value, the reason."""
FALLBACK_STATUSES = (0, 429, 500, 503, 504)
"""The server's refusals of a hint after which it is searched here instead (no hint workers, too many asked, the
server unreachable or failing); any other (409: not this seat's decision now) is only said."""


class RemoteGame:
    """One seat's picture of a game on a server, in the shape of the local `State` the app drives (duck-typed)."""

    def __init__(self, seat: Seat) -> None:
        if seat.seat is None:
            raise Refused("this token holds no seat of the game")
        self.remote = seat
        facts = seat.client.info(seat.game_id)
        self.info: GameInfo = game_info(str(facts["game"]))
        self.players = int(facts["players"])
        self.options: dict[str, Any] = dict(facts.get("options") or {})
        self.seat: int = seat.seat
        self.seed = None
        self.chat = bool(facts.get("chat"))
        self._log = SeatLog(seat)
        self._lock = threading.Lock()
        self.msg: dict[str, Any] = {}
        self._legal: list[Action] = []
        self._belief: Belief
        self.notice = ""
        self.talk: list[dict[str, Any]] = []
        """The table's messages received (chat lines, the server's notices), oldest first."""
        self.via = "socket"
        """How the table is heard now: `socket`, `rest` (polling: the socket cannot be had) or `none`."""
        self.gone = ""
        """Why the table can no longer be heard (the seat's token revoked, ...), once it cannot."""
        self._inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self._updates: Updates | None = None
        self._listener: threading.Thread | None = None
        self.take(seat.state(), whole_log=True)

    # ---- the picture -------------------------------------------------------------------------------------
    def take(self, msg: dict[str, Any], whole_log: bool = False) -> None:
        """A new picture from the server (a REST state or a socket message)."""
        with self._lock:
            if whole_log or "log_start" not in msg:
                self._log.refetch(int(msg["view"].get("log_pos", 0)))
            else:
                self._log.update(msg)
            self.msg = msg
            view: View = msg["view"]
            legal = list(msg.get("legal") or []) if msg.get("owes_decision") else []
            self._legal = []
            self._belief = Belief(self.info.name, self.players, self.options, self.seat, view,
                                  list(self._log.entries), legal or None)
            if legal:
                mine = {a.text: a for a in self._belief.sample(0).legal_actions_for(self.seat)}
                self._legal = [mine[t] for t in legal if t in mine]

    def refresh(self) -> None:
        """The current picture over REST (after a refusal: the server's picture is the truth)."""
        self.take(self.remote.state())

    def key(self) -> tuple[Any, ...]:
        """What tells two pictures apart for the app: the event count, the status, whether a decision is owed."""
        return self.msg.get("seq"), self.msg.get("status"), bool(self.msg.get("owes_decision"))

    # ---- hearing the table (one socket for the app's life) ------------------------------------------------
    def listen(self, wake: Callable[[], None] | None = None) -> None:
        """Start hearing the table in a thread: every message is queued for `absorb` (and `wake` called, from that
        thread, so the app can take it in its own)."""
        if self._listener is not None:
            return
        updates = self.remote.updates(since=len(self._log.entries), chat_since=0)
        self._updates = updates

        def run() -> None:
            try:
                for msg in updates:
                    self._inbox.put(msg)
                    if wake is not None:
                        wake()
            except ApiError as e:
                self._inbox.put({"type": "connection", "via": "gone", "detail": e.detail})
            except Exception as e:  # never a traceback over the app: said in its status line
                self._inbox.put({"type": "connection", "via": "gone", "detail": f"the table's updates failed: {e!r}"})
            else:
                if not updates.closed:
                    self._inbox.put({"type": "connection", "via": "gone",
                                     "detail": "the server closed this seat's updates (its token no longer holds "
                                               "the seat?)"})
            if wake is not None and not updates.closed:
                wake()

        self._listener = threading.Thread(target=run, name=f"table {self.remote.game_id}", daemon=True)
        self._listener.start()

    def stop(self) -> None:
        """Stop hearing the table (the socket is closed)."""
        if self._updates is not None:
            self._updates.close()
        if self._listener is not None:
            self._listener.join(timeout=3)
        self._updates = self._listener = None

    def absorb(self, block: float = 0.0) -> tuple[bool, list[dict[str, Any]], list[dict[str, Any]]]:
        """Take what the table sent since the last call (waiting up to `block` seconds for a first message):
        whether the picture changed, the new table messages, the changes of connection. An older picture than
        the one held (an action's REST answer overtook the socket) is dropped."""
        changed, said, ways = False, [], []
        got: list[dict[str, Any]] = []
        with contextlib.suppress(queue.Empty):
            got.append(self._inbox.get(timeout=block) if block > 0 else self._inbox.get_nowait())
            while True:
                got.append(self._inbox.get_nowait())
        for msg in got:
            kind = msg.get("type")
            if kind == "state":
                if int(msg.get("seq", -1)) >= int(self.msg.get("seq", -1)):
                    before = self.key()
                    self.take(msg)
                    changed = changed or self.key() != before
            elif kind == "chat":
                new = [m for m in msg.get("messages") or [] if int(m.get("index", -1)) >= len(self.talk)]
                self.talk.extend(new)
                said.extend(new)
            elif kind == "connection":
                self.via = str(msg.get("via", "none"))
                if self.via == "gone":
                    self.gone = str(msg.get("detail", ""))
                ways.append(msg)
        return changed, said, ways

    def wait(self, timeout: float = 30.0) -> None:
        """The next picture that differs from this one (REST if nothing came in `timeout` seconds): for a caller
        that does not `listen` (the table is heard for this wait only)."""
        now = self.key()
        if self._listener is None:
            with contextlib.closing(self.remote.updates(since=len(self._log.entries), timeout=timeout)) as updates:
                for msg in updates:
                    if msg.get("type") == "state" and int(msg.get("seq", -1)) >= int(self.msg.get("seq", -1)):
                        self.take(msg)
                        if self.key() != now:
                            return
            self.refresh()
            return
        deadline = time.monotonic() + timeout
        while self.key() == now and time.monotonic() < deadline:
            self.absorb(block=min(1.0, max(0.0, deadline - time.monotonic())))

    # ---- the state interface the app uses ------------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.info.name

    @property
    def to_move(self) -> int | None:
        """This seat when it owes a decision (also one it may take ahead, e.g. a secret bid), else whose turn it is."""
        if self.msg.get("status") == "over":
            return None
        if self.msg.get("owes_decision"):
            return self.seat
        to: int | None = self.msg.get("to_move")
        return to

    @property
    def is_over(self) -> bool:
        return self.msg.get("status") == "over"

    def _check_seat(self, seat: int | None, allow_none: bool = True) -> None:
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}")

    def view(self, seat: int | None = None) -> View:
        return copy.deepcopy(self.msg["view"])  # only this seat's picture exists here

    def log(self, seat: int | None = None, start: int = 0) -> list[LogEntry]:
        return [dict(e) for e in self._log.entries[start:]]

    def legal_actions(self) -> list[Action]:
        return list(self._legal)

    def legal_actions_for(self, seat: int) -> list[Action]:
        return list(self._legal) if seat == self.seat else []

    def deciding(self) -> list[int]:
        return [int(q) for q in self.msg.get("deciding") or []]

    def parse_action(self, text: str) -> Action:
        want = " ".join(str(text).lower().split())
        for a in self._legal:
            if a.text == text or " ".join(a.text.lower().split()) == want:
                return a
        raise IllegalAction(f"{str(text)[:60]!r} is not legal now; legal: " + ", ".join(a.text for a in self._legal))

    def parse_action_for(self, seat: int, text: str) -> Action:
        return self.parse_action(text)

    def sample(self, seat: int, seed: int) -> State:
        return self._belief.sample(seed)

    def handle(self) -> RemoteSeat:
        """The seat handle of this picture (docs/agents.md): its view, log and legal actions, samples of the rest."""
        legal = [a.text for a in self._legal]
        return RemoteSeat(self.info.name, self.players, self.options, self.seat, self.msg["view"],
                          list(self._log.entries), legal)

    # ---- acting --------------------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Send the action (quoting this picture's seq) and take the server's next picture; ApiError if refused."""
        text = action.text if isinstance(action, Action) else str(action)
        answer = self.remote.act(text, int(self.msg["seq"]))
        self.take(answer.get("state") or self.remote.state())

    def track_undo(self) -> None:
        """The server keeps the undo trail."""

    def undoable(self, seat: int) -> int:
        return int(self.msg.get("undoable", 0)) if seat == self.seat else 0

    def undo_refusal(self, seat: int) -> str:
        return "the server allows no undo now (another seat has acted since, or something hidden was revealed)"

    def undo(self, seat: int, count: int = 1) -> RemoteGame:
        answer = self.remote.undo(int(self.msg["seq"]), count)
        self.take(answer.get("state") or self.remote.state(), whole_log=True)
        return self

    def say(self, text: str) -> None:
        self.remote.chat(text)

    def concede_refusal(self, seat: int) -> str:
        """Why the seat may not concede (the server has the last word): a cooperative game, or one that is over."""
        if self.info.cooperative:
            return (f"{self.info.title} is cooperative: the table wins or loses together, so no one concedes "
                    "(leave the table instead)")
        return "the game is over: there is nothing left to concede" if self.is_over else ""

    def concede(self, seat: int) -> dict[str, Any]:
        """Concede the seat on the server (ApiError if refused) and take its next picture."""
        answer = self.remote.concede()
        self.refresh()
        return answer

    def clock(self) -> dict[str, Any] | None:
        """The table's move clock (seconds per move, the deadline owed now), or None without one."""
        try:
            got = self.remote.client.request("GET", f"/api/games/{self.remote.game_id}/clock")
        except ApiError:
            return None
        clock = got.get("clock") if isinstance(got, dict) else None
        return clock if isinstance(clock, dict) else None

    # ---- hints ---------------------------------------------------------------------------------------------
    def server_hints(self, shown: list[Action]) -> tuple[list[Hint] | None, str]:
        """The server's hints for this seat's decision (`POST /api/games/{id}/hints`: searched there, knowing the
        table), as (action, tries, value, reason), and a line saying where they come from. None for the hints
        when the server refused in a way that leaves searching here (`FALLBACK_STATUSES`), the line then saying
        why; an empty list (and why) for any other refusal."""
        try:
            got = self.remote.client.request("POST", f"/api/games/{self.remote.game_id}/hints",
                                             token=self.remote.token)
        except ApiError as e:
            if e.status in FALLBACK_STATUSES:
                return None, (f"the server gave no hint ({e.detail[:120]}): searched here instead, from your "
                              "view only")
            return [], f"the server refused a hint: {e.detail[:160]}"
        by_text = {a.text: a for a in shown}
        ranked: list[Hint] = []
        for h in got.get("hints") or []:
            action = by_text.get(str(h.get("action")))
            if action is not None:
                ranked.append((action, int(h.get("visits", 0)), float(h.get("value", 0.0)), str(h.get("reason", ""))))
        stale = int(got.get("seq", self.msg.get("seq", 0))) != int(self.msg.get("seq", 0))
        where = "searched by the server for {:g} s, which knows who sits at the table".format(
            float(got.get("seconds") or 0))
        return ranked, where + ("; the game has moved on since" if stale else "")


def talk_lines(messages: list[dict[str, Any]], you: int | None) -> Text:
    """The table's messages as lines: `name: text` for chat (yours as "You"), the server's notices dim."""
    out = Text()
    for m in messages:
        if out:
            out.append("\n")
        text = str(m.get("text", ""))
        if m.get("kind") == "chat":
            out.append("You" if m.get("seat") == you else str(m.get("name") or "someone"), style="bold")
            out.append(": " + text)
        elif m.get("kind") == "rematch":
            out.append(f"{m.get('name') or 'someone'} started a rematch (game {text})", style="bold green")
        else:
            out.append(text, style="dim")
    return out


class ServerHintScreen(HintScreen):
    """The hint screen of a seat at a server's table: the hints asked of the server; searched here (with the
    local progress bar) only when the server refuses, and it says so."""

    def __init__(self, game: RemoteGame, shown: list[Action], seats: Any) -> None:
        super().__init__(game.handle(), shown, seats)
        self.game = game

    def on_mount(self, event: Mount | None = None) -> None:
        if event is not None:  # Textual passes it: not HintScreen's own mount, which would search here at once
            event.prevent_default()
        self.query_one(Static).update(Text("asking the server's search (from your seat's view only)..."))
        self.query_one(ProgressBar).update(total=None)  # the server says nothing until it answers
        self.run_worker(self._ask, thread=True, exclusive=True)

    def _ask(self) -> None:
        ranked, where = self.game.server_hints(self.shown)
        if self.stopped:
            return
        self.note = where
        if ranked is None:  # refused: searched here, the note says so
            self.app.call_from_thread(self.query_one(ProgressBar).update, total=100, progress=0)
            self._search()
            return
        self.app.call_from_thread(self._show, ranked)


class RemoteApp(PlayApp):
    """The local app at a server's table: this seat decides here, the others' decisions are awaited from the
    server (one socket for the app's life), undo and hints as at home (the hints the server's), the table's chat
    shown as it comes (a notice, and in the history beside the table and under `l`), `say TEXT` to talk where the
    game allows it, the connection and the clock in the status line."""

    def __init__(self, game: RemoteGame) -> None:
        specs = ["human" if i == game.seat else "remote" for i in range(game.players)]
        super().__init__(cast(State, game), specs, [None if i == game.seat else _AWAITED for i in range(game.players)])
        self.remote = game
        self.clock: dict[str, Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._tick)
        self._loop = asyncio.get_running_loop()
        self.remote.listen(wake=self._wake)
        self._fetch_clock()

    def on_unmount(self) -> None:
        self.remote.stop()

    def _wake(self) -> None:
        """From the listening thread: something arrived; the app takes it in its own loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._arrived)

    def _arrived(self) -> None:
        changed, said, ways = self.remote.absorb()
        you = self.remote.seat
        for m in said[-3:]:  # a reconnection's catch-up brings the whole chat: the last lines are enough
            if m.get("seat") == you and m.get("kind") == "chat":
                continue
            self.notify(talk_lines([m], you).plain[:300], title="at the table", markup=False,
                        severity="warning" if m.get("kind") == "notice" else "information", timeout=10)
        for w in ways:
            if w.get("via") == "gone":
                self.notify(f"the table can no longer be heard: {w.get('detail')}", severity="error",
                            markup=False, timeout=15)
        if changed:
            self.generation += 1
            self.advance()
            self._fetch_clock()
        elif said:
            self.show_table(self.remote.view(), self.remote.log())
        if ways or said:
            self._status()

    def _fetch_clock(self) -> None:
        def work() -> None:
            clock = self.remote.clock()
            with contextlib.suppress(RuntimeError):
                self.call_from_thread(setattr, self, "clock", clock)

        self.run_worker(work, thread=True, group="clock", exclusive=True)

    def _tick(self) -> None:
        clock = self.clock
        if (clock is not None and clock.get("move_seconds") and not self.remote.is_over
                and (not clock.get("deadline") or clock.get("seq") != self.remote.msg.get("seq"))):
            # a timed table whose server has not yet set this decision's deadline (its clock thread sets it on its
            # next tick after the move): ask again until it has
            self._fetch_clock()
        self._status()

    def _think(self, seat: int) -> None:
        """Another seat decides at the table: its decision comes over the socket (`_arrived`)."""

    def advance(self) -> None:
        """As at home; but while the table does not ask this seat (the game waits for its players, or this seat has
        decided ahead in a simultaneous step), wait for the server's next picture."""
        game = self.remote
        if not game.is_over and game.to_move == game.seat and not game.legal_actions():
            self.shown = []
            self.query_one("#options").clear_options()  # type: ignore[attr-defined]
            self.show_table(game.view(), game.log())
            self.thinking = game.seat
            self._status()
            return
        super().advance()

    def show_table(self, view: View, log: list[dict[str, Any]]) -> None:
        super().show_table(view, log)
        if self.remote.talk:
            self.query_one("#log", Static).update(Group(log_lines(log[-60:], self.seats),
                                                        Text("\nAt the table", style="bold underline"),
                                                        talk_lines(self.remote.talk[-12:], self.remote.seat)))

    def action_history(self) -> None:
        parts: list[Any] = [log_lines(self.remote.log(), self.seats)]
        if self.remote.talk:
            parts += [Text("\nAt the table", style="bold underline"), talk_lines(self.remote.talk, self.remote.seat)]
        elif self.remote.chat:
            parts.append(Text("\nNothing has been said at the table yet (say TEXT talks).", style="dim"))
        self.show_page("History, as you saw it", Group(*parts), end=True)

    def action_hints(self) -> None:
        if self.remote.to_move != self.remote.seat or not self.shown:
            self.notify("hints are for your own decision", severity="warning")
            return
        self.push_screen(ServerHintScreen(self.remote, self.shown, self.seats))

    def _choose(self, action: Action) -> None:
        if self.remote.to_move != self.remote.seat or action not in self.shown:
            return
        try:
            self.remote.apply(action)
        except ApiError as e:
            self.notify(f"the server refused {action.text}: {e.detail[:160]}", severity="error", timeout=8,
                        markup=False)
            self.remote.refresh()
        self.read[self.remote.seat] = len(self.remote.log(self.remote.seat))
        self.query_one("#entry").value = ""  # type: ignore[attr-defined]
        self.generation += 1
        self.advance()

    def typed_line(self, text: str) -> bool:
        """`say TEXT`: a line at the table's chat, where the game allows talking."""
        if not text.lower().startswith("say "):
            return False
        if not self.remote.chat:
            self.notify(f"no talking at this table: {self.remote.info.no_chat}", severity="warning", markup=False)
            return True
        try:
            self.remote.say(text[4:].strip())
        except ApiError as e:
            self.notify(f"not said: {e.detail[:160]}", severity="error", markup=False)
        return True

    def concede_words(self) -> str:
        if self.remote.players == 2:
            return "the game ends at once and the other side wins"
        return "you are placed last whatever your score (the game ends if only one other seat has not conceded), " \
               "and the table's AI plays your seat to the end"

    def concede(self, seat: int) -> None:
        self.generation += 1
        try:
            answer = self.remote.concede(seat)
        except ApiError as e:
            self.notify(f"the server refused: {e.detail[:160]}", severity="error", markup=False)
            self.remote.refresh()
            self.advance()
            return
        over = bool(answer.get("over"))
        self.notify("you conceded" + ("" if over else f": the AI ({answer.get('ai')}) plays your seat to the end"),
                    markup=False)
        self.advance()

    def action_undo(self) -> None:
        try:
            super().action_undo()
        except ApiError as e:
            self.notify(f"the server refused the undo: {e.detail[:160]}", severity="error", markup=False)
            self.remote.refresh()
            self.advance()

    def _status(self) -> None:
        game = self.remote
        if self.thinking is None or game.is_over:
            super()._status()
        else:
            out = Text(f" {game.info.title} ", style="bold reverse")
            out.append(" ")
            waiting = game.msg.get("status") == "waiting"
            if waiting:
                out.append("waiting for the players to take their seats", style="bold")
            elif self.thinking == game.seat:
                out.append("you have decided; waiting for the table", style="bold")
            else:
                out.append(SPIN[self.frame % len(SPIN)] + " waiting for ", style="bold yellow")
                out.append_text(self.seats.name(self.thinking))
            self.status(out)
        status = self.query_one("#status", Static)
        text = status.content
        if not isinstance(text, Text):
            return
        if game.via != "socket":
            text.append({"rest": "  ⚠ the socket is down: following the table over REST",
                         "none": "  ⚠ the server does not answer: reconnecting…",
                         "gone": f"  ⚠ {game.gone}"[:120]}.get(game.via, ""), style="bold red")
        deadline = self.clock.get("deadline") if self.clock else None
        if deadline and not game.is_over:
            with contextlib.suppress(ValueError):
                left = (datetime.fromisoformat(str(deadline)) - datetime.now(UTC)).total_seconds()
                text.append(f"  ⏱ {max(0, int(left))} s", style="bold magenta")
        status.update(text)

    def action_leave(self) -> None:
        self.generation += 1
        self.remote.stop()
        self.exit(Outcome(left=not self.remote.is_over, state=None, extra={"over": self.remote.is_over}))


SPIN = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class _Awaited:
    """The other seats of a server's game: decided at the table, never here (RemoteApp awaits them)."""

    name = "at the table"

    def act(self, seat: Any) -> Action:
        raise RuntimeError("a seat at the table decides there")


_AWAITED: Any = _Awaited()


def connect_seat(client: Client, join: str | None, game_id: str | None, token: str | None, name: str | None) -> Seat:
    """The seat to play: claimed from an invite link, or one held by its token."""
    if join is not None:
        base, _, _ = parse_invite(join)
        if base.rstrip("/") != client.base_url:
            raise Refused(f"this invite is for {base}, not --server {client.base_url}")
        return client.claim_invite(join, name=name)
    if not game_id or not token:
        raise Refused("give an invite (--join LINK) or a seat you hold (--game-id ID --token TOKEN)")
    return client.seat(game_id, token)


class RemoteHuman(HumanAgent):
    """The person at the terminal in line mode at a server's table: the local prompts, with the hints asked of
    the server (searched here only if it refuses, and said) and `say TEXT` at the table."""

    def __init__(self, console: Console, game: RemoteGame) -> None:
        super().__init__(console, game.info.name, undoable=game.undoable, undo_refusal=game.undo_refusal,
                         concede_refusal=game.concede_refusal)
        self.table = game

    def typed(self, answer: str) -> bool:
        if not answer.lower().startswith("say "):
            return False
        if not self.table.chat:
            self.console.print(f"[yellow]no talking at this table: {escape(self.table.info.no_chat)}[/]")
            return True
        try:
            self.table.say(answer[4:].strip())
            self.console.print("[dim]said at the table[/]")
        except ApiError as e:
            self.console.print(f"[red]not said: {escape(e.detail[:160])}[/]")
        return True

    def _hints(self, seat: SeatHandle, shown: list[Action]) -> None:
        with self.console.status("asking the server's search (from your seat's view only)..."):
            ranked, where = self.table.server_hints(shown)
        self.console.print(Text(where, style="yellow" if ranked is None else "dim"))
        if ranked is None:
            super()._hints(seat, shown)
            return
        self.console.print(hint_table([(a, v, val) for a, v, val, _ in ranked], shown, [r for *_, r in ranked]))


def play_lines(game: RemoteGame, console: Console) -> bool:
    """Line mode at a server's table (`--plain`, or output that is not a terminal): the table's moves and chat
    printed as they come, this seat's decisions asked at a prompt; True when the game is over, False if left."""
    human = RemoteHuman(console, game)
    names = [str(s.get("name") or f"Player {i + 1}") for i, s in enumerate(
        game.remote.client.info(game.remote.game_id).get("seats") or [])]
    console.print(f"[bold]{escape(game.info.title)}[/]: you are Player {game.seat + 1} of {game.players} at "
                  f"game {game.remote.game_id} (" + ", ".join(escape(n) for n in names) + ")", highlight=False)
    if game.chat:
        console.print("[dim]say TEXT talks at the table[/]")
    printed = max(0, len(game.log()) - 10)  # the last lines of what happened before
    waited: tuple[Any, ...] | None = None
    game.listen()
    block = 0.0
    try:
        while True:
            _, said, ways = game.absorb(block)
            for m in said:
                console.print(Text.assemble(("at the table: ", "cyan"), talk_lines([m], game.seat)))
            for w in ways:
                style = "green" if w.get("via") == "socket" else "bold red"
                console.print(Text(f"connection: {w.get('detail')}", style=style))
            entries = game.log()
            for line in _log_lines(entries[printed:], game.seat):
                console.print(Text(line), highlight=False)
            printed = len(entries)
            if game.is_over:
                _end_lines(console, game, names)
                return True
            if game.via == "gone":
                return False
            if game.to_move == game.seat and game.legal_actions():
                block = 0.0
                try:
                    action = human.act(game.handle())
                except UndoRequest:
                    try:
                        game.undo(game.seat, 1)
                        console.print("[dim]your last action was taken back[/]")
                    except ApiError as e:
                        console.print(f"[red]the server refused the undo: {escape(e.detail[:160])}[/]")
                        game.refresh()
                    printed = min(printed, len(game.log()))
                    continue
                except ConcedeRequest:
                    try:
                        answer = game.concede(game.seat)
                        console.print("[dim]you conceded" + ("" if answer.get("over") else
                                      f": the AI ({escape(str(answer.get('ai')))}) plays your seat to the end") + "[/]")
                    except ApiError as e:
                        console.print(f"[red]the server refused: {escape(e.detail[:160])}[/]")
                        game.refresh()
                    continue
                try:
                    game.apply(action)
                except ApiError as e:
                    console.print(f"[red]the server refused {escape(action.text)}: {escape(e.detail[:160])}[/]")
                    game.refresh()
                continue
            if game.key() != waited:
                waited = game.key()
                who = ("the players to take their seats" if game.msg.get("status") == "waiting"
                       else "the table" if game.to_move in (None, game.seat) else names[game.to_move]
                       if game.to_move < len(names) else f"Player {game.to_move + 1}")
                console.print(Text(f"waiting for {who}...", style="dim"))
            block = 1.0
    except (LeaveGame, KeyboardInterrupt):
        return False
    finally:
        game.stop()


def _end_lines(console: Console, game: RemoteGame, names: list[str]) -> None:
    """The end in line mode: the final table as this seat sees it, why it ended and every seat's score."""
    view = game.view()
    console.rule("game over")
    console.print(renderer(game.info.name)(view))
    mod = game_module(game.info.name)
    if mod is not None:
        seats = seat_names(view, game.players, None, game.seat)
        console.print(Text("Game over: " + mod.end_reason(view), style="bold"))
        console.print(mod.scores(view, seats))


def cmd_remote(args: argparse.Namespace) -> int:
    """`tabletop play --server URL ...`: play the seat in the full-screen app (line mode with --plain or when the
    terminal is not one); 0 when it ends or is left."""
    console = Console()
    with Client(args.server) as client:
        try:
            seat = connect_seat(client, args.join, args.game_id, args.token, args.name)
            if args.join:
                print(f"seat {seat.seat} of game {seat.game_id}; to come back: tabletop play --server {args.server} "
                      f"--game-id {seat.game_id} --token {seat.token}")
            game = RemoteGame(seat)
            if full_screen(args, game.info.name):
                outcome = RemoteApp(game).run()
                over = game.is_over if outcome is None else bool(outcome.extra.get("over"))
            else:
                over = play_lines(game, console)
        except ApiError as e:
            raise Refused(e.detail if e.status == 0 else f"the server refused: {e}") from None
        except ValueError as e:
            raise Refused(str(e)) from None
    print("game over" if over else "left the table (the game goes on; come back with --game-id/--token)")
    return 0
