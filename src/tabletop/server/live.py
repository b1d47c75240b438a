"""A game in memory (`Live`) and how a game's events rebuild its state: `effective_actions` (the actions an undo has
not taken back), `build_state` (the state they rebuild to) and `Live.advance` (the one replay loop, event by event,
tracking each seat's `since`: used to load a game and to catch a cached one up with the database)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from tabletop.core import State, new_game
from tabletop.server.storage import Event, GameHeader, SeatInfo

SERVER_ACTION_IDS = "server:"
"""The prefix of the client action ids the server gives its own moves (a move clock's time-out:
`server:clock-<since>`, an AI seat's move: `server:ai-<seq>`). Clients may not use it: an id a client chose can never
collide with one of the server's, so no client can make the server's own move hit the uniqueness rule on action ids
and be dropped; and a seat's player never takes back a move the server made for the seat (`Live.undoable`)."""


@dataclass
class Live:
    """A game in memory: header, seats, events and the state they rebuild to."""

    header: GameHeader
    seats: list[SeatInfo]
    events: list[Event]
    state: State
    lock: threading.RLock = field(default_factory=threading.RLock)
    ai_pending: tuple[int, int] | None = None  # (seat, decision seq) an AI worker is deciding
    writing: bool = False
    """A move applied in the event loop waits for its commit (`GameService.act_soon`), holding `lock`: no other
    move of the loop's may start (the loop's thread could take the re-entrant lock again)."""
    since: list[int] = field(default_factory=list)
    """Per seat: the event count from which its current decision has stood (what it must quote to act)."""
    marks: list[tuple[bool, tuple[str, ...]]] = field(default_factory=list)
    """Per seat: whether it owes a decision and its legal actions, as of the last event (to move `since`)."""
    _by_action_id: dict[tuple[int, str], Event] = field(default_factory=dict, repr=False, compare=False)
    _indexed: int = field(default=0, repr=False, compare=False)
    _made: tuple[int, list[list[bool]]] | None = field(default=None, repr=False, compare=False)

    def undoable(self, seat: int) -> int:
        """How many of `seat`'s last actions its player may take back now: the core's count (`State.undoable`), cut
        at the first of them the server made for the seat (an AI seat's move while the player had left, or the move
        clock's when time ran out: a server id, `SERVER_ACTION_IDS`), which stands. Caller holds the lock."""
        can = self.state.undoable(seat)
        if can == 0:
            return 0
        made = self._made_by_server()[seat] if seat < self.header.players else []
        n = 0
        for by_server in reversed(made):  # the seat's actions in force, newest first: the core's `can` trail
            if n == can or by_server:
                break
            n += 1
        return n

    def _made_by_server(self) -> list[list[bool]]:
        """Per seat, its actions in force in order: whether the server made each. The events are only ever
        appended, so the lists catch up with the new events (an action appends to its seat's list, an undo takes
        its seat's last ones back, as `effective_actions` does) instead of replaying them all on every event."""
        events = self.events
        made = self._made
        if made is None or made[0] > len(events):  # first use, or the list was replaced by a shorter one
            made = (0, [[] for _ in range(self.header.players)])
        done, per = made
        for ev in events[done:]:
            if ev.seat is None or not 0 <= ev.seat < len(per):
                continue
            if ev.kind == "action":
                per[ev.seat].append((ev.client_action_id or "").startswith(SERVER_ACTION_IDS))
            elif ev.kind == "undo":
                mine = per[ev.seat]
                del mine[max(0, len(mine) - int(ev.text)):]
        self._made = (len(events), per)
        return per

    def event_of(self, seat: int, client_action_id: str) -> Event | None:
        """The first event of `seat` carrying `client_action_id`, if any (a retried action is found here). The
        events are only ever appended, so the index catches up with the new ones instead of scanning them all."""
        events = self.events
        if self._indexed > len(events):  # the list was replaced by a shorter one: index it afresh
            self._by_action_id.clear()
            self._indexed = 0
        index = self._by_action_id
        for ev in events[self._indexed:]:
            if ev.seat is not None and ev.client_action_id is not None:
                index.setdefault((ev.seat, ev.client_action_id), ev)
        self._indexed = len(events)
        return index.get((seat, client_action_id))

    def track(self, first: int | None = None) -> None:
        """Move each seat's `since` past the events from `first` on that changed its decision: the seat's own
        events (actions, undos), any event after which its legal actions or whether it owes one changed. Without
        `first`: start afresh (every seat's decision standing since the current event count)."""
        state = self.state
        deciding = set(state.deciding())
        marks = [(seat in deciding, tuple(a.text for a in state.legal_actions_for(seat)))
                 for seat in range(self.header.players)]
        if first is None or len(self.since) != len(marks):
            self.since = [self.seq] * len(marks)
        else:
            for seat, mark in enumerate(marks):
                if mark != self.marks[seat] or any(ev.seat == seat for ev in self.events[first:]):
                    self.since[seat] = self.seq
        self.marks = marks

    def advance(self, events: list[Event], *, fresh: bool = False) -> None:
        """Apply `events` (those after this game's own) one at a time, tracking each seat's `since` after each, so
        that it is what it was when the event came: an action is applied (or submitted by its seat), an undo
        rebuilds the state from the log. A batch tracked at once would move a seat's `since` to the last event even
        when its decision changed at an earlier one and not since, and this process would then refuse as stale an
        action quoting the count that every other process (and the engine, event by event) accepts. The live state
        is never mutated: the events are applied to a clone of it, unless `fresh` (no one else holds it yet). Caller
        holds the lock (or the game is not yet cached)."""
        if not events:
            return
        state = self.state if fresh else self.state.clone()
        for ev in events:
            self.events.append(ev)
            if ev.kind == "action":
                if ev.seat is None:
                    state.apply(ev.text)
                else:
                    state.submit(ev.seat, ev.text)
            else:
                state = build_state(self.header, self.events)
            self.state = state  # a clone of this lock's own until the lock is released
            self.track(ev.seq)

    @property
    def seq(self) -> int:
        """The number of events so far (what a client must quote to act)."""
        return len(self.events)


def effective_actions(events: list[Event]) -> list[Event]:
    """The action events still in force: an undo event (text: how many) takes back its seat's last actions."""
    out: list[Event] = []
    for ev in events:
        if ev.kind == "action":
            out.append(ev)
        elif ev.kind == "undo":
            count = int(ev.text)
            for i in range(len(out) - 1, -1, -1):
                if count == 0:
                    break
                if out[i].seat == ev.seat:
                    del out[i]
                    count -= 1
    return out


def build_state(header: GameHeader, events: list[Event]) -> State:
    """The state a game's events rebuild to: every action still in force submitted by its seat, in log order (a
    decision submitted ahead is queued again), with undo tracking on."""
    state = new_game(header.game, header.players, header.seed, header.options)
    state.track_undo()
    for ev in effective_actions(events):
        if ev.seat is None:
            state.apply(ev.text)
        else:
            state.submit(ev.seat, ev.text)
    return state
