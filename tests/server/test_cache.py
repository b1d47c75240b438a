"""The game cache is bounded (finished games leave first, any game is rebuilt on demand), and AI moves are
committed on the service's own thread, not in the worker pool's internal one."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from tabletop.server.service import GameService
from tabletop.server.storage import Storage

from .conftest import Factory, create, state_of, two_humans, wait_for


def test_the_cache_keeps_at_most_its_bound_and_drops_finished_games_first(make_client: Factory) -> None:
    client = make_client(cache_games=3)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    games = [two_humans(client, "silos") for _ in range(3)]
    pictures = [state_of(client, gid, tokens[0]) for gid, tokens in games]
    assert service.cached() == 3
    middle = service._live[games[1][0]]
    middle.header = replace(middle.header, status="over")  # as if finished: it goes before older games in play
    fourth = two_humans(client, "silencio")
    assert service.cached() == 3 and games[1][0] not in service._live and games[0][0] in service._live
    for _ in range(3):
        two_humans(client, "silencio")
    assert service.cached() == 3 and games[0][0] not in service._live
    middle.header = replace(middle.header, status="playing")
    for (gid, tokens), before in zip(games, pictures, strict=True):  # rebuilt from the database on demand
        assert state_of(client, gid, tokens[0]) == before
    assert service.cached() == 3 and fourth[0] not in service._live


def test_ai_moves_are_committed_on_the_services_commit_thread(make_client: Factory, monkeypatch: Any) -> None:
    writers: list[str] = []
    real = Storage.append_event

    def spy(self: Storage, *args: Any, **kwargs: Any) -> None:
        writers.append(threading.current_thread().name)
        real(self, *args, **kwargs)

    monkeypatch.setattr(Storage, "append_event", spy)
    client = make_client(ai_workers=1)
    g = create(client, "silencio", [{"kind": "ai", "ai": "easy"}, {"kind": "creator"}], options={"first_player": 0})
    wait_for(client, g["id"], g["token"], lambda s: s["seq"] > 0)
    assert writers and all(name.startswith("tabletop-ai-commit") for name in writers), writers
