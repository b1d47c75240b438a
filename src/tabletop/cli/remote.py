"""`tabletop play --server URL --join INVITE` (or `--game ID --token TOKEN`): a seat of a server's game in the same
full-screen app as local play, over the public API only (tabletop.client).

`RemoteGame` is the game as the app sees it, behind the interface the app uses for a local state (`to_move`,
`view`, `log`, `legal_actions`, `apply`, `undoable`, `undo`, `sample`, `is_over`, `info`): everything it answers is
this seat's picture as the server last sent it, and its samples (for the hints, searched here from the seat's view)
come from the game's sampler (`tabletop.core.belief`). An action is sent over REST quoting the picture's `seq`; the
next picture comes over the socket (`Seat.wait`, reconnecting from the last log index), or by REST when the socket
cannot be opened; the log is caught up from the last index it holds. `RemoteApp` is the local app with its "AI is
thinking" turned into "waiting for the table": another seat's decision is awaited, not computed.
"""

from __future__ import annotations

import argparse
import copy
import threading
from contextlib import closing
from typing import Any, cast

from rich.text import Text

from tabletop.cli.common import Refused
from tabletop.cli.tui import Outcome, PlayApp
from tabletop.client import ApiError, Client, Seat, parse_invite
from tabletop.client.bot import SeatLog
from tabletop.core import Action, GameInfo, IllegalAction, LogEntry, State, View, game_info
from tabletop.core.belief import Belief


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
        """The current picture over REST (the fallback when the socket cannot be had)."""
        self.take(self.remote.state())

    def _key(self, msg: dict[str, Any]) -> tuple[Any, ...]:
        return msg.get("seq"), msg.get("status"), bool(msg.get("owes_decision"))

    def wait(self, timeout: float = 30.0) -> None:
        """The next picture that differs from this one (a new event, the game starting or ending, a decision now
        owed) over the socket; REST if the socket cannot be opened or stays silent `timeout` seconds."""
        now = self._key(self.msg)
        try:
            with closing(self.remote.updates(timeout=timeout)) as updates:  # type: ignore[type-var]  # closes the socket
                for msg in updates:
                    if msg.get("type") == "state" and self._key(msg) != now:
                        self.take(msg)
                        return
        except ApiError:
            pass
        self.refresh()

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

    def undo(self, seat: int, count: int = 1) -> RemoteGame:
        answer = self.remote.undo(int(self.msg["seq"]), count)
        self.take(answer.get("state") or self.remote.state(), whole_log=True)
        return self

    def say(self, text: str) -> None:
        self.remote.chat(text)

    def clock(self) -> dict[str, Any] | None:
        """The table's move clock (seconds per move, the deadline owed now), or None without one."""
        try:
            got = self.remote.client.request("GET", f"/api/games/{self.remote.game_id}/clock")
        except ApiError:
            return None
        clock = got.get("clock") if isinstance(got, dict) else None
        return clock if isinstance(clock, dict) else None


class RemoteApp(PlayApp):
    """The local app at a server's table: this seat decides here, the others' decisions are awaited from the
    server (the socket), undo and hints as at home, `say TEXT` at the table where the game allows talking."""

    def __init__(self, game: RemoteGame) -> None:
        specs = ["human" if i == game.seat else "remote" for i in range(game.players)]
        super().__init__(cast(State, game), specs, [None if i == game.seat else _AWAITED for i in range(game.players)])
        self.remote = game
        self.clock: dict[str, Any] | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        self._status()

    def _think(self, seat: int) -> None:
        """Another seat decides at the table: wait for the server's next picture (in a worker thread)."""
        gen = self.generation

        def work() -> None:
            self.remote.wait()
            self.clock = self.remote.clock()
            self.call_from_thread(self._arrived, gen)

        self.run_worker(work, thread=True, group="wait", exclusive=True)

    def advance(self) -> None:
        """As at home; but while the table does not ask this seat (the game waits for its players, or this seat has
        decided ahead in a simultaneous step), wait for the server's next picture."""
        game = self.remote
        if not game.is_over and game.to_move == game.seat and not game.legal_actions():
            self.shown = []
            self.query_one("#options").clear_options()  # type: ignore[attr-defined]
            self.thinking = None
            waiting = "waiting for the players to take their seats" if game.msg.get("status") == "waiting" \
                else "waiting for the table"
            self.status(Text(f" {game.info.title}  {waiting}", style="bold"))
            self._think(game.seat)
            return
        super().advance()

    def _arrived(self, gen: int) -> None:
        if gen == self.generation:
            self.advance()

    def _choose(self, action: Action) -> None:
        if self.remote.to_move != self.remote.seat or action not in self.shown:
            return
        try:
            self.remote.apply(action)
        except ApiError as e:
            self.notify(f"the server refused {action.text}: {e.detail[:160]}", severity="error", timeout=8)
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
            self.notify(f"no talking at this table: {self.remote.info.no_chat}", severity="warning")
            return True
        try:
            self.remote.say(text[4:].strip())
            self.notify("said at the table")
        except ApiError as e:
            self.notify(f"not said: {e.detail[:160]}", severity="error")
        return True

    def action_undo(self) -> None:
        try:
            super().action_undo()
        except ApiError as e:
            self.notify(f"the server refused the undo: {e.detail[:160]}", severity="error")
            self.remote.refresh()
            self.advance()

    def _status(self) -> None:
        super()._status()
        clock = self.clock
        deadline = clock.get("deadline") if clock else None
        if deadline:
            from datetime import UTC, datetime

            try:
                left = (datetime.fromisoformat(str(deadline)) - datetime.now(UTC)).total_seconds()
            except ValueError:
                return
            status = self.query_one("#status")
            text = getattr(status, "content", None)
            if text is not None and hasattr(text, "append"):
                text.append(f"  ⏱ {max(0, int(left))} s", style="bold magenta")
                status.update(text)  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        self.generation += 1
        self.exit(Outcome(left=not self.remote.is_over, state=None, extra={"over": self.remote.is_over}))


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


def cmd_remote(args: argparse.Namespace) -> int:
    """`tabletop play --server URL ...`: play the seat in the full-screen app; 0 when it ends or is left."""
    with Client(args.server) as client:
        try:
            seat = connect_seat(client, args.join, args.game_id, args.token, args.name)
            if args.join:
                print(f"seat {seat.seat} of game {seat.game_id}; to come back: tabletop play --server {args.server} "
                      f"--game-id {seat.game_id} --token {seat.token}")
            game = RemoteGame(seat)
            outcome = RemoteApp(game).run()
        except ApiError as e:
            raise Refused(e.detail if e.status == 0 else f"the server refused: {e}") from None
        except ValueError as e:
            raise Refused(str(e)) from None
    over = game.is_over if outcome is None else bool(outcome.extra.get("over"))
    print("game over" if over else "left the table (the game goes on; come back with --game-id/--token)")
    return 0

