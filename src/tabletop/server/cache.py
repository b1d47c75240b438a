"""The cache of live games: each loaded from the database on first use and rebuilt event by event, kept up to date
with it (`refresh`: what other processes stored), the least recently used dropped past `capacity`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace

from tabletop.core import game_info, new_game
from tabletop.server.errors import Conflict, NotFound
from tabletop.server.live import Live
from tabletop.server.storage import Storage


class GameCache:
    """The games in memory, by id, and how they are loaded from and refreshed against `storage`."""

    def __init__(self, storage: Storage, capacity: int) -> None:
        self.storage = storage
        self.capacity = max(1, capacity)
        self._lock = threading.Lock()
        self.games: OrderedDict[str, Live] = OrderedDict()  # least recently used first

    def find(self, game_id: str) -> Live | None:
        """The game if it is cached (never loads it)."""
        with self._lock:
            return self.games.get(game_id)

    def find_nowait(self, game_id: str) -> Live | None:
        """`find` for the event loop: a dict read, atomic, that never waits for the lock (held while a game loads)."""
        return self.games.get(game_id)

    def all(self) -> list[Live]:
        """Every cached game."""
        with self._lock:
            return list(self.games.values())

    def get(self, game_id: str) -> Live:
        """The game, loaded from the database if it is not cached (NotFound if there is none); now the most
        recently used."""
        with self._lock:
            live = self.games.get(game_id)
            if live is None:
                live = self.load(game_id)
                self.games[game_id] = live
                self._evict()
            else:
                self.games.move_to_end(game_id)
            return live

    def _evict(self) -> None:
        """Keep at most `capacity` games in memory: the least recently used finished ones go first, then the
        least recently used of any kind (a game dropped is rebuilt from the database when next needed; a commit
        still under way on a dropped copy is caught by the database and the new copy refreshed). Caller holds
        the cache's lock."""
        excess = len(self.games) - self.capacity
        if excess <= 0:
            return
        finished = [gid for gid, live in self.games.items() if live.header.status == "over"][:excess]
        for gid in finished:
            del self.games[gid]
        while len(self.games) > self.capacity:
            self.games.popitem(last=False)

    def cached(self) -> int:
        """How many games are in memory."""
        return len(self.games)

    def refresh(self, live: Live) -> None:
        """Bring a cached game up to the database: header, seats, and the events after its own. Caller holds the
        game's lock. A state is never mutated once live: new events are applied to a clone."""
        found = self.storage.game(live.header.id)
        if found is None:
            return
        live.header, live.seats = found
        new = self.storage.events(live.header.id, live.seq)
        if new:
            live.advance(new)  # on a clone, event by event, as `load` does (`Live.advance`)
            if live.state.is_over and live.header.status != "over":  # the header was read just before the last event
                live.header = replace(live.header, status="over")

    def load(self, game_id: str) -> Live:
        """A game rebuilt from the database, event by event (not cached by this: `get` caches it)."""
        found = self.storage.game(game_id) if len(game_id) <= 32 else None
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        header, seats = found
        info = game_info(header.game)
        if header.rules_version != info.version:
            raise Conflict(f"this game was started under {info.title} rules version {header.rules_version!r}; "
                           f"this server plays version {info.version!r} and will not change it silently")
        events = self.storage.events(game_id)
        live = Live(header, seats, [], new_game(header.game, header.players, header.seed, header.options))
        live.state.track_undo()
        live.track()
        live.advance(events, fresh=True)  # not yet live: no one else holds this state
        return live
