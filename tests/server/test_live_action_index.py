"""`Live.event_of` (the index a retried action is found by) answers as a scan of every event would."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from unittest.mock import MagicMock

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.server.live import Live
from tabletop.server.storage import Event

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def scan(events: list[Event], seat: int, cid: str) -> Event | None:
    for ev in events:
        if ev.seat == seat and ev.client_action_id == cid:
            return ev
    return None


event_parts = st.tuples(st.sampled_from([None, 0, 1, 2]), st.sampled_from(["action", "undo"]),
                        st.sampled_from([None, "a", "b", "c"]))


@settings(max_examples=200, deadline=None)
@given(batches=st.lists(st.lists(event_parts, max_size=6), max_size=6),
       asks=st.lists(st.tuples(st.sampled_from([0, 1, 2]), st.sampled_from(["a", "b", "c", "d"])), min_size=1))
def test_event_of_matches_a_scan(batches: list[list[tuple[Any, str, Any]]], asks: list[tuple[int, str]]) -> None:
    live = Live(MagicMock(), [], [], MagicMock())
    for batch in batches:  # events arrive between lookups, as actions are committed
        for seat, kind, cid in batch:
            live.events.append(Event(len(live.events), seat, kind, "x", cid, WHEN))
        for seat, cid in asks:
            assert live.event_of(seat, cid) is scan(live.events, seat, cid)


def test_a_duplicate_id_finds_the_first_event() -> None:
    live = Live(MagicMock(), [], [], MagicMock())
    first = Event(0, 1, "action", "x", "same", WHEN)
    live.events += [first, Event(1, 1, "action", "y", "same", WHEN)]
    assert live.event_of(1, "same") is first
    assert live.event_of(0, "same") is None
