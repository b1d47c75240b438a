"""`tabletop play --server`: the full-screen app at a server's table (cli/remote.py), driven by the Textual pilot
against a real `tabletop serve` process: a whole game against the server's AI, undo while the other seat has not
acted, chat, a terminal seat beside a network bot."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

from server.proc import Server
from tabletop.agents import make_agent
from tabletop.cli.remote import RemoteApp, RemoteGame
from tabletop.client import Client
from tabletop.client.bot import BotResult, run_bot


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("remote-serve")
    env = {"TABLETOP_GAMES_PER_HOUR": "0", "TABLETOP_OPEN_GAMES": "0", "TABLETOP_AI_SEATS_PER_ADDRESS": "0",
           "TABLETOP_AI_ONLY_GAMES": "0"}
    s = Server(f"sqlite:///{tmp / 'remote.sqlite3'}", tmp / "serve.log", ai_workers=1, env=env).start()
    yield s
    s.stop()


async def until_mine(app: RemoteApp, pilot: Any, limit: float = 180.0) -> None:
    """Until the server's picture asks this seat to decide (or the game is over) and the app offers it."""
    waited = 0.0
    while not app.remote.is_over and not (app.remote.to_move == app.remote.seat and app.shown):
        await pilot.pause(0.05)
        waited += 0.05
        msg = app.remote.msg
        assert waited < limit, (f"the table never came back to this seat: seq {msg.get('seq')}, {msg.get('status')}, "
                                f"owes {msg.get('owes_decision')}, to {app.remote.to_move}, {len(app.shown)} offered")
    await pilot.pause()


@sync
async def test_a_whole_game_at_a_server_table_against_its_ai(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}])
        seat = c.claim_invite(made.invites[0]["url"], name="term")
        game = RemoteGame(seat)
        app = RemoteApp(game)
        moves = 0
        async with app.run_test(size=(80, 24)) as pilot:
            while not game.is_over:
                await until_mine(app, pilot)
                if game.is_over:
                    break
                await pilot.press("enter")  # the highlighted option
                moves += 1
            await pilot.pause(0.2)
            await pilot.press("q")
        assert app.return_value is not None and app.return_value.extra["over"] is True
        assert c.info(made.game_id)["status"] == "over" and moves > 10
        record = c.record(made.game_id)
        assert len(record["actions"]) > moves


@sync
async def test_undo_and_chat_at_the_table(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "invite"}])
        seat = c.claim_invite(made.invites[0]["url"], name="term")
        other = c.claim_invite(made.invites[1]["url"], name="other")
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            if game.to_move != game.seat:  # the other seat starts: it moves first
                state = other.state()
                other.act(state["legal"][0], state["seq"])
            await until_mine(app, pilot)
            seq = game.msg["seq"]
            await pilot.press("enter")
            await pilot.pause(0.3)
            assert game.msg["seq"] > seq and game.undoable(game.seat) == 1
            await pilot.press("u")
            await pilot.pause(0.5)
            assert game.undoable(game.seat) == 0 and game.to_move == game.seat, "the action was taken back"
            for ch in "say good luck":
                await pilot.press(ch if ch != " " else "space")
            await pilot.press("enter")
            await pilot.pause(0.3)
            await pilot.press("q")
        said = c.messages(made.game_id)
        assert any("good luck" in str(m.get("text", "")) for m in said["messages"]), said


@sync
async def test_a_terminal_seat_a_network_bot_and_the_servers_ai_play_a_whole_game(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silencio", players=3, seats=[{"kind": "invite"}, {"kind": "invite"},
                                                      {"kind": "ai", "ai": "easy"}])
        seat = c.claim_invite(made.invites[0]["url"], name="term")
        agent = make_agent("random", "silencio", seed=1)
        done: dict[str, BotResult] = {}

        def bot() -> None:
            with Client(server.url) as c2:
                s = c2.claim_invite(made.invites[1]["url"], name="bot")
                s.mark_bot()
                done["r"] = run_bot(s, agent, say=lambda line: None, idle_timeout=120)

        t = threading.Thread(target=bot, daemon=True)
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            t.start()
            while not game.is_over:
                await until_mine(app, pilot)
                if not game.is_over:
                    await pilot.press("enter")
            await pilot.pause(0.2)
            await pilot.press("q")
        t.join(timeout=60)
        assert done["r"].final["status"] == "over"
        info = c.info(made.game_id)
        assert info["status"] == "over" and [s["bot"] for s in info["seats"]] == [False, True, False]
