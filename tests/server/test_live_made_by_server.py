"""`Live._made_by_server` (which of a seat's actions in force the server made, what `Live.undoable` cuts at) catches
up with new events incrementally and answers as a replay of every event through `effective_actions` would."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from unittest.mock import MagicMock

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.server.live import SERVER_ACTION_IDS, Live, effective_actions
from tabletop.server.storage import Event

WHEN = datetime(2026, 1, 1, tzinfo=UTC)
PLAYERS = 3


def replayed(events: list[Event]) -> list[list[bool]]:
    """The definition: every action in force, per seat, whether the server made it."""
    per: list[list[bool]] = [[] for _ in range(PLAYERS)]
    for ev in effective_actions(events):
        if ev.seat is not None and 0 <= ev.seat < PLAYERS:
            per[ev.seat].append((ev.client_action_id or "").startswith(SERVER_ACTION_IDS))
    return per


def live_game() -> Live:
    header = MagicMock()
    header.players = PLAYERS
    return Live(header, [], [], MagicMock())


event_parts = st.one_of(
    st.tuples(st.sampled_from([None, 0, 1, 2]), st.just("action"),
              st.sampled_from([None, "c1", "c2", SERVER_ACTION_IDS + "ai-3", SERVER_ACTION_IDS + "clock-4"])),
    st.tuples(st.sampled_from([0, 1, 2]), st.just("undo"), st.sampled_from(["1", "2", "3"])),
)


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(event_parts, max_size=8), max_size=8))
def test_the_incremental_lists_match_a_replay_of_every_event(batches: list[list[tuple[Any, str, Any]]]) -> None:
    live = live_game()
    for batch in batches:  # events arrive between reads, as they are committed
        for seat, kind, extra in batch:
            if kind == "action":
                live.events.append(Event(len(live.events), seat, kind, "x", extra, WHEN))
            else:
                live.events.append(Event(len(live.events), seat, kind, extra, None, WHEN))
        assert live._made_by_server() == replayed(live.events)


def test_a_shorter_event_list_is_read_afresh() -> None:
    live = live_game()
    live.events += [Event(0, 0, "action", "x", SERVER_ACTION_IDS + "ai-0", WHEN), Event(1, 0, "action", "y", "c", WHEN)]
    assert live._made_by_server()[0] == [True, False]
    live.events = [Event(0, 0, "action", "x", "c", WHEN)]
    assert live._made_by_server() == [[False], [], []]


def test_an_undo_takes_back_only_its_own_seats_last_actions() -> None:
    live = live_game()
    live.events += [Event(0, 0, "action", "a", SERVER_ACTION_IDS + "ai-0", WHEN), Event(1, 1, "action", "b", "c", WHEN),
                    Event(2, 0, "action", "c", "d", WHEN)]
    assert live._made_by_server() == [[True, False], [False], []]
    live.events.append(Event(3, 0, "undo", "1", None, WHEN))
    assert live._made_by_server() == [[True], [False], []]
