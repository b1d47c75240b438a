"""A move sent over a socket is applied in the event loop (`GameService.act_soon`) and committed by the storage's
writer thread (`Storage.write_soon`), without a hop to a worker thread of its own: it answers, refuses and stores
exactly as `act` does, holds the game's lock until its commit is done, and stands even if nobody waits for it."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

import pytest

import tabletop
from tabletop.server.errors import Conflict, Invalid, ServiceError
from tabletop.server.pubsub import InProcessBroker
from tabletop.server.service import GameService, SeatRequest
from tabletop.server.storage import Event, EventConflict, Storage, now

from .test_storage import SEATS, header


def _service(tmp_path: Path, name: str = "db") -> GameService:
    storage = Storage(f"sqlite:///{tmp_path / name}.sqlite3")
    storage.migrate()
    return GameService(storage, InProcessBroker(), None, "http://127.0.0.1")


def _game(svc: GameService, game: str, players: int = 2) -> tuple[str, list[str]]:
    """A game in play, every seat a person's: its id and each seat's token."""
    made = svc.create(game, players, {}, "private", [SeatRequest("creator"), *[SeatRequest("invite")] * (players - 1)],
                      "t")
    assert made.seat == 0 and made.seat_token is not None
    tokens = [made.seat_token]
    for seat in range(1, players):
        got, token = svc.claim(made.game_id, made.invites[seat], f"p{seat}")
        assert got == seat
        tokens.append(token)
    return made.game_id, tokens


def _soon(svc: GameService, gid: str, token: str, text: str, seq: int, cid: str | None) -> dict[str, object]:
    async def go() -> dict[str, object]:
        fut = svc.act_soon(gid, token, text, seq, cid)
        assert fut is not None, "the move was not taken in the loop"
        return await fut

    return asyncio.run(go())


@pytest.mark.parametrize("game", tabletop.games())
def test_a_whole_game_played_in_the_loop_is_stored_as_played_and_reloads_to_the_same_state(game: str,
                                                                                          tmp_path: Path) -> None:
    svc = _service(tmp_path)
    gid, tokens = _game(svc, game)
    rng = random.Random(game)
    live = svc._get(gid)
    moves = 0
    while moves < 120:
        state = live.state
        seat = rng.choice(state.deciding())
        action = rng.choice(state.legal_actions_for(seat)).text
        before = live.seq
        if _ends(live.state, seat, action):
            break  # the last move is `act`'s (it writes the results too)
        got = _soon(svc, gid, tokens[seat], action, live.since[seat], f"m{before}")
        assert got == {"seq": before + 1, "action": action, "kind": "action", "duplicate": False}
        assert live.seq == before + 1 and not live.writing
        assert live.lock.acquire(blocking=False)  # released once committed
        live.lock.release()
        moves += 1
    assert moves > 10
    stored = svc.storage.events(gid)
    assert [e.text for e in stored] == [e.text for e in live.events]
    fresh = _service(tmp_path)._get(gid)  # another process loading the game from the database
    assert fresh.seq == live.seq and fresh.since == live.since
    assert fresh.state.view(None) == live.state.view(None)


def _ends(state: tabletop.State, seat: int, action: str) -> bool:
    s = state.clone()
    s.submit(seat, action)
    return s.is_over


def test_refusals_are_acts_refusals_and_change_nothing(tmp_path: Path) -> None:
    svc = _service(tmp_path)
    gid, tokens = _game(svc, "silos")
    live = svc._get(gid)
    mover = live.state.to_move
    assert mover is not None
    other = 1 - mover
    legal = live.state.legal_actions_for(mover)[0].text
    cases = [
        (tokens[other], legal, live.seq, Conflict),                  # not its turn
        (tokens[mover], "no such move", live.seq, Invalid),          # illegal: says what is legal
        (tokens[mover], legal, -1, Conflict),                        # stale quote
        (tokens[mover], legal, live.seq, Invalid, "server:mine"),    # a client action id of the server's
    ]
    for token, text, seq, kind, *cid in cases:
        client_id = cid[0] if cid else "c1"
        with pytest.raises(ServiceError) as by_thread:
            svc.act(gid, token, text, seq, client_id, False)

        async def in_loop(token: str = token, text: str = text, seq: int = seq, client_id: str = client_id) -> None:
            svc.act_soon(gid, token, text, seq, client_id)

        with pytest.raises(ServiceError) as by_loop:
            asyncio.run(in_loop())
        assert type(by_loop.value) is type(by_thread.value) is kind
        assert by_loop.value.message == by_thread.value.message
        assert live.seq == 0 and not live.writing
        assert live.lock.acquire(blocking=False)
        live.lock.release()


def test_a_retried_client_action_id_answers_the_first_move_again(tmp_path: Path) -> None:
    svc = _service(tmp_path)
    gid, tokens = _game(svc, "silencio")
    live = svc._get(gid)
    seat = live.state.deciding()[0]
    action = live.state.legal_actions_for(seat)[0].text
    first = _soon(svc, gid, tokens[seat], action, 0, "once")
    again = _soon(svc, gid, tokens[seat], action, 0, "once")
    assert first["duplicate"] is False and again == {**first, "duplicate": True}
    assert live.seq == 1


def test_a_move_committing_holds_the_game_and_stands_when_nobody_waits_for_it(tmp_path: Path) -> None:
    """While the commit is held up, the loop takes no other move of the game (`act_soon` says None) and a worker
    thread's `act` waits for the lock; the waiting socket goes away; once the commit is done the move stands and
    the worker's move follows it."""
    svc = _service(tmp_path)
    gid, tokens = _game(svc, "silos")
    live = svc._get(gid)
    seat = live.state.to_move
    assert seat is not None
    first = live.state.legal_actions_for(seat)[0].text
    results: list[object] = []

    async def go() -> None:
        with svc.storage._write_lock:  # a commit under way elsewhere: this move's event waits in the queue
            fut = svc.act_soon(gid, tokens[seat], first, 0, "a")
            assert fut is not None and live.writing
            assert svc.act_soon(gid, tokens[seat], first, 0, "b") is None  # the loop takes no second move
            assert live.seq == 0 and svc.current_for_nowait(gid, seat) is not None  # readers see the state before
            fut.cancel()  # the socket went away
        for _ in range(500):
            if not live.writing:
                break
            await asyncio.sleep(0.01)

    def follow() -> None:  # a worker thread acting meanwhile waits for the game's lock
        while live.seq == 0:
            threading.Event().wait(0.01)
        nxt = live.state
        mover = nxt.to_move
        assert mover is not None
        results.append(svc.act(gid, tokens[mover], nxt.legal_actions_for(mover)[0].text, live.seq, "c", False))

    t = threading.Thread(target=follow)
    t.start()
    asyncio.run(go())
    t.join(timeout=30)
    assert not live.writing
    assert [e.text for e in svc.storage.events(gid)][:1] == [first]
    assert live.seq == 2 and len(results) == 1


def test_write_soon_commits_with_the_group_and_calls_back_after_the_commit(tmp_path: Path) -> None:
    st = Storage(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    st.migrate()
    gid = "a" * 32
    st.create_game(header(gid), SEATS)
    done = threading.Semaphore(0)
    seen: list[tuple[int, BaseException | None, list[int]]] = []

    def then_for(seq: int):  # type: ignore[no-untyped-def]
        def then(error: BaseException | None) -> None:
            seen.append((seq, error, [e.seq for e in st.events(gid, seq)]))  # committed before the call
            done.release()
        return then

    with st._write_lock:  # queued behind a commit under way: the three go in one group
        for seq in range(3):
            st.append_event_soon(gid, Event(seq, 0, "action", f"m{seq}", None, now()), None, None, then_for(seq))
        batches = st.batches
    for _ in range(3):
        assert done.acquire(timeout=10)
    assert sorted(s for s, _, _ in seen) == [0, 1, 2]
    assert all(err is None and got[:1] == [s] for s, err, got in seen)
    assert st.batches == batches + 1
    st.append_event_soon(gid, Event(1, 0, "action", "taken", None, now()), None, None, then_for(1))
    assert done.acquire(timeout=10)
    assert isinstance(seen[-1][1], EventConflict)
    st.close()
    assert not st.writes_soon
    with pytest.raises(RuntimeError):
        st.append_event_soon(gid, Event(3, 0, "action", "late", None, now()), None, None, then_for(3))
