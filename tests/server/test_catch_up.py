"""A process that catches up on several events at once tracks every seat's decision exactly as the engine does
event by event (issue 20, point 12): each seat's `decision_seq` (its `since`) after a refresh is the one a process
that saw every event one at a time reports, so an action quoting it is accepted by every process alike."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import tabletop
from tabletop.server.pubsub import InProcessBroker
from tabletop.server.service import GameService, SeatRequest
from tabletop.server.storage import Storage


def _service(url: str) -> GameService:
    storage = Storage(url)
    storage.migrate()
    return GameService(storage, InProcessBroker(), None, "http://127.0.0.1")


@pytest.mark.parametrize("game", tabletop.games())
def test_a_batch_caught_up_at_once_gives_each_seat_the_decision_seq_of_one_event_at_a_time(game: str,
                                                                                           tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    writer, reader = _service(url), _service(url)
    rng = random.Random(game)
    players = 3
    batches = 0
    for _ in range(3):
        made = writer.create(game, players, {}, "private", [SeatRequest("creator"),
                                                            *[SeatRequest("invite")] * (players - 1)], "t")
        gid = made.game_id
        for s in range(1, players):  # every seat taken: the game is in play
            writer.storage.update_seat(gid, s, token_hash=f"h{s}", invite_hash=None, mode="invite")
        writer.storage.seat_person(gid, 0, {}, token_hash="h0", invite_hash=None, name="t", mode="creator")
        live_w = writer._get(gid)
        with live_w.lock:
            writer._refresh(live_w)
        live_r = reader._get(gid)  # cached here, then left behind
        while live_w.header.status == "playing" and live_w.seq < 150:
            for _ in range(rng.randint(2, 6)):  # several events while the reader does not look
                state = live_w.state
                if state.is_over:
                    break
                seat = rng.choice(state.deciding())
                action = rng.choice(state.legal_actions_for(seat)).text
                assert writer.act_for(gid, seat, action, live_w.since[seat], f"m{live_w.seq}") is not None
            with live_r.lock:
                reader._refresh(live_r)
            batches += 1
            fresh = _service(url)._get(gid)  # loaded event by event
            assert live_r.seq == live_w.seq == fresh.seq
            assert live_r.since == fresh.since == live_w.since, (gid, live_r.seq)
    assert batches > 20
