"""Any agent as a remote seat of a server's game (`tabletop bot`, docs/bots.md): the bot API's Python side.

The agent is given a `RemoteSeat`: the seat handle of docs/agents.md, built from what the server sent this seat
(its view, its log, its legal actions) and nothing else. Its samples (`seat.sample(seed)`) come from the game's
sampler from the view and log alone (`tabletop.core.belief`), so every agent, the searches included, plays over the
network as it plays at home. `run_bot` follows the seat's socket (reconnecting and catching up from the last log
index, as `Seat.updates` does), decides whenever the seat owes a decision, and sends the action over REST; a refusal
(stale: the game moved on, e.g. the clock played for the seat; illegal; any other) is reported and the bot goes on
with the next picture of the game.
"""

from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.agents.base import Agent
from tabletop.client import ApiError, Seat, Updates
from tabletop.core import Action, IllegalAction, LogEntry, SeatHandle, State, View, game_info
from tabletop.core.belief import Belief
from tabletop.core.errors import shorten


class RemoteSeat(SeatHandle):
    """One seat of a game played on a server, as an agent sees it: the seat's view, log and legal actions as the
    server sent them, and samples drawn from them alone. It holds no state of the game (there is none here)."""

    __slots__ = ("_belief", "_legal", "_legal_texts", "_log", "_options", "_view")

    def __init__(self, game: str, players: int, options: dict[str, Any], seat: int, view: View,
                 log: list[LogEntry], legal: list[str]) -> None:
        # SeatHandle.__init__ wants a state: a remote seat has none, so the fields are set here
        self.seat = seat
        self.players = players
        self.info = game_info(game)
        self._options = dict(options)
        self._view = view
        self._log = log
        self._legal_texts = list(legal)
        self._legal: list[Action] | None = None
        self._belief: Belief | None = None

    @property
    def to_move(self) -> int | None:
        to: int | None = self._view.get("to_move")
        return to

    def view(self) -> View:
        return copy.deepcopy(self._view)

    def log(self, start: int = 0) -> list[LogEntry]:
        return [dict(e) for e in self._log[start:]]

    def sample(self, seed: int) -> State:
        if self._belief is None:  # the game's witness, built once for this picture
            self._belief = Belief(self.info.name, self.players, self._options, self.seat, self._view, self._log,
                                  self._legal_texts or None)
        return self._belief.sample(seed)

    def legal_actions(self) -> list[Action]:
        """The server's legal actions for this seat, as the game's own `Action` objects (those of a sample's, so an
        agent's search compares them as it does at home), in the server's order."""
        if self._legal is None:
            if not self._legal_texts:
                self._legal = []
            else:
                mine = {a.text: a for a in self.sample(0).legal_actions_for(self.seat)}
                missing = [t for t in self._legal_texts if t not in mine]
                if missing:
                    raise IllegalAction(f"the server's legal actions {missing[:3]} are not the sampler's: "
                                        f"{self.info.title}'s sampler and this server disagree (rules version?)")
                self._legal = [mine[t] for t in self._legal_texts]
        return list(self._legal)

    def owes_decision(self) -> bool:
        return bool(self._legal_texts)

    def parse_action(self, text: str) -> Action:
        for a in self.legal_actions():
            if a.text == text:
                return a
        raise IllegalAction(f"{text[:60]!r} is not legal now for seat {self.seat}; legal: "
                            + ", ".join(self._legal_texts[:40]))

    def __repr__(self) -> str:
        return f"<RemoteSeat {self.info.name} seat {self.seat}>"


@dataclass
class BotResult:
    """How a bot's game went: the last state the server sent, the decisions it sent and the refusals it got."""

    final: dict[str, Any]
    sent: int = 0
    refused: list[str] = field(default_factory=list)


class SeatLog:
    """The seat's log as the socket brings it (entries from `log_start` on, each picture), checked against the
    view's own tail and fetched again whole over REST when they disagree (an undo took entries back)."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.entries: list[LogEntry] = []

    def update(self, msg: dict[str, Any]) -> list[LogEntry]:
        start = int(msg.get("log_start", len(self.entries)))
        got = list(msg.get("log") or [])
        if start <= len(self.entries):
            self.entries = self.entries[:start] + got
        view = msg.get("view") or {}
        pos = view.get("log_pos", len(self.entries))
        tail = list(view.get("log") or [])
        if len(self.entries) != pos or (tail and self.entries[len(self.entries) - len(tail):] != tail):
            self.refetch(pos)
        return self.entries

    def refetch(self, pos: int) -> None:
        """The whole log again, up to the picture's `log_pos` (the game may have moved on since the picture: the
        newer entries are left for the next one)."""
        page = self.seat.log(0)
        self.entries = list(page.get("entries", []))[:pos]


def run_bot(seat: Seat, agent: Agent, say: Callable[[str], None] = print, idle_timeout: float | None = None,
            retries: int = 2) -> BotResult:
    """Play `seat` with `agent` until the game is over (or the socket stays silent `idle_timeout` seconds, or the
    seat's token is revoked): the last state, and what was sent and refused. An action the server refuses as
    illegal is asked of the agent again (`retries` times) on the same picture; a stale one waits for the next."""
    info = seat.client.info(seat.game_id)
    game, players, options = str(info["game"]), int(info["players"]), dict(info.get("options") or {})
    if seat.seat is None:
        raise ValueError("this token holds no seat: a bot plays a seat (claim an invite first)")
    log = SeatLog(seat)
    result = BotResult(final={})
    with contextlib.closing(seat.updates(since=0, timeout=idle_timeout)) as updates:
        _play(updates, seat, agent, say, retries, (game, players, options), log, result)
    return result


def _play(updates: Updates, seat: Seat, agent: Agent, say: Callable[[str], None], retries: int,
          table: tuple[str, int, dict[str, Any]], log: SeatLog, result: BotResult) -> None:
    """run_bot's loop over the seat's updates (closed by run_bot when it ends, so no socket outlives it: an open one
    left to the interpreter's exit would hang it, closing in the garbage collector)."""
    game, players, options = table
    assert seat.seat is not None
    decided_at = -1
    for msg in updates:
        kind = msg.get("type")
        if kind == "refused":
            result.refused.append(str(msg.get("detail", "")))
            say(f"refused ({msg.get('status')}): {msg.get('detail')}")
            continue
        if kind != "state":
            continue
        result.final = msg
        entries = log.update(msg)
        if msg.get("status") == "over":
            break
        seq = int(msg["seq"])
        if not msg.get("owes_decision") or seq == decided_at:
            continue
        handle = RemoteSeat(game, players, options, seat.seat, msg["view"], entries, list(msg.get("legal") or []))
        for attempt in range(1 + retries):  # an illegal answer is asked again (the picture did not change)
            t0 = time.monotonic()
            action = agent.act(handle)
            text = action.text if isinstance(action, Action) else str(action)
            try:
                seat.act(text, seq)
            except ApiError as e:
                result.refused.append(e.detail)
                what = {409: "stale (the game moved on)", 422: "illegal", 429: "too fast"}.get(e.status, "refused")
                say(f"seat {seat.seat}: {shorten(text)} {what}: {e.detail[:200]}")
                if e.status == 422 and attempt < retries:
                    continue
                break  # stale, or refused again: the next picture (or the clock) decides
            result.sent += 1
            decided_at = seq
            say(f"seat {seat.seat}: {text} ({time.monotonic() - t0:.1f} s)")
            break
