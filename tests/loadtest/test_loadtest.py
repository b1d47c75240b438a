"""The load test itself, small: bots play whole games against a real server process under the default limits, and
the report says what it measured (no errors, nothing lost or duplicated, latencies, memory, the engine's cost)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import tabletop
from tabletop import loadtest


def test_a_small_load_test_plays_games_to_the_end_and_loses_nothing() -> None:
    report = loadtest.run("both", "sqlite", games=("silencio", "siliconvania"), n_games=2, think=(0.0, 0.02),
                          max_seconds=120, steps=[1], step_seconds=1.0)
    paced = report["paced"]
    assert paced["games_finished"] == 2 and paced["games_unfinished"] == 0
    assert paced["errors"] == 0 and paced["lost_events"] == 0 and paced["duplicated_events"] == 0
    assert paced["actions"] > 20 and 0 < paced["p50_ms"] <= paced["p95_ms"] <= paced["p99_ms"] <= paced["max_ms"]
    assert paced["server_rss_peak_mb"] > 10
    (step,) = report["saturation"]["steps"]
    assert step["games_finished"] >= 1 and step["errors"] == 0 and step["lost_events"] == 0
    assert report["engine"]["actions_measured"] >= paced["actions"] and report["engine"]["us_per_action"] > 0
    text = loadtest.format_report(report)
    assert "people-paced" in text and "saturation" in text and "engine alone" in text


def test_percentiles_are_nearest_rank() -> None:
    xs = [float(i) for i in range(1, 101)]
    assert loadtest.percentile(xs, 0.5) == 50 and loadtest.percentile(xs, 0.99) == 99
    assert loadtest.percentile(xs, 1.0) == 100 and loadtest.percentile([], 0.5) == 0


def test_bots_get_distinct_loopback_addresses() -> None:
    a = loadtest.Addresses()
    got = [a.next() for _ in range(600)]
    assert got[0] == "127.0.0.2" and len(set(got)) == 600
    assert all(x.startswith("127.") and 2 <= int(x.rsplit(".", 1)[1]) <= 251 for x in got)


def test_acknowledged_actions_are_compared_seat_by_seat_since_the_record_keeps_the_engines_order() -> None:
    """A bid submitted ahead (event 0 by the seat not to move) is recorded after the bid of the seat to move: the
    record's order is not the event order, but each seat's own actions are its submissions, in order."""
    import tabletop

    state = tabletop.new_game("siliconvania", 2, 3)
    state.track_undo()
    submitted: list[list[str]] = [[], []]
    events: list[str] = []
    rng = random.Random(1)
    while not state.is_over:
        seat = state.deciding()[-1]  # the seat deciding ahead first, whenever there is one
        text = rng.choice(state.legal_actions_for(seat)).text
        state.submit(seat, text)
        submitted[seat].append(text)
        events.append(text)
    record = state.record()
    assert record["actions"] != events, "a bid submitted ahead is recorded later than its event"
    assert loadtest.actions_by_seat(record) == submitted


def test_paced_tables_arrive_over_the_ramp_play_back_to_back_and_the_timeline_adds_up(tmp_path: Path) -> None:
    """Tables sit down one after another and play games back to back until `seconds` have passed; the per-second
    timeline counts every measured round trip once, and its plot is written."""
    report = loadtest.run("paced", "sqlite", games=("silencio",), n_games=2, think=(0.0, 0.01), max_seconds=120,
                          seconds=3.0, ramp=0.5)
    paced = report["paced"]
    assert paced["games"] == 2 and paced["seconds_asked"] == 3.0 and paced["ramp_seconds"] == 0.5
    assert paced["games_finished"] >= 2 and paced["games_unfinished"] == 0 and paced["errors"] == 0
    assert paced["lost_events"] == 0 and paced["duplicated_events"] == 0
    rows = paced["timeline"]
    assert sum(r["round_trips"] for r in rows) == paced["actions"]
    assert max(r["games_in_play"] for r in rows) <= 2 and max(r["p99_ms"] for r in rows) <= paced["max_ms"]
    assert paced["bots_loop_late_max_ms"] >= 0
    out = tmp_path / "timeline.png"
    loadtest.plot_timeline(report, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "tables arriving over 0.5 s" in loadtest.format_report(report)


def test_by_default_it_plays_every_game_the_server_plays_in_turn() -> None:
    report = loadtest.run("paced", "sqlite", n_games=3, think=(0.0, 0.01), max_seconds=120, seconds=0.0)
    assert report["games"] == tabletop.games()  # from GET /api/meta/games: every game takes 2 players
    paced = report["paced"]
    assert paced["games_finished"] == 3 and paced["errors"] == 0 and paced["lost_events"] == 0


def test_two_server_processes_on_one_postgresql_database_serve_the_seats_of_each_game_between_them() -> None:
    """`--servers 2`: each game's two seats talk to different processes, so every event reaches a socket of the
    process that did not apply it through PostgreSQL's LISTEN/NOTIFY; nothing is lost or duplicated."""
    report = loadtest.run("both", "postgresql", games=("silos",), n_games=2, think=(0.0, 0.01), max_seconds=180,
                          steps=[2], step_seconds=2.0, servers=2)
    assert report["servers"] == 2
    paced = report["paced"]
    assert paced["games_finished"] == 2 and paced["errors"] == 0
    assert paced["lost_events"] == 0 and paced["duplicated_events"] == 0 and paced["actions"] > 20
    (step,) = report["saturation"]["steps"]
    assert step["games_finished"] >= 1 and step["errors"] == 0 and step["lost_events"] == 0
    assert "2 server processes" in loadtest.format_report(report)


def test_more_than_one_server_process_on_sqlite_is_refused() -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        loadtest.run("paced", "sqlite", n_games=1, servers=2)


def test_a_bot_acts_on_a_later_picture_of_the_same_seq_the_game_it_waited_for_having_begun() -> None:
    """With two server processes the creator's socket may first show the game waiting for its last seat, then (once
    its process hears of the claim another process took) playing, at the same seq 0: the bot acts on the newer."""
    import asyncio
    import json
    import time

    from tabletop.loadtest import bots

    async def scenario() -> list[dict[str, object]]:
        bot = bots.Bot("http://127.0.0.1:9", "127.0.0.2")
        sent: list[dict[str, object]] = []

        class Socket:
            async def send(self, text: str) -> None:
                msg = json.loads(text)
                sent.append(msg)
                now = time.perf_counter()
                await bot.inbox.put((now, {"type": "ack", "client_action_id": msg["client_action_id"], "seq": 1,
                                           "action": msg["action"], "kind": "action", "duplicate": False}))
                await bot.inbox.put((now, {"type": "state", "seq": 1, "status": "over", "legal": []}))

        bot.ws = Socket()  # type: ignore[assignment]
        for status, legal in (("waiting", []), ("playing", ["pass"])):
            await bot.inbox.put((time.perf_counter(), {"type": "state", "seq": 0, "status": status, "legal": legal}))
        done = await bots.seat_loop(bot, 0, "g", (0.0, 0.0), random.Random(1), bots.Stats(), time.monotonic() + 10)
        await bot.api.close()
        assert done
        return sent

    sent = asyncio.run(scenario())
    assert [m["action"] for m in sent] == ["pass"] and sent[0]["seq"] == 0
