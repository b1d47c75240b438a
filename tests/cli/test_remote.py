"""`tabletop play --server`: the full-screen app at a server's table (cli/remote.py), driven by the Textual pilot
against a real `tabletop serve` process: a whole game against the server's AI, undo while the other seat has not
acted, chat (sent, and arriving from another seat), the server's hints and the local search when the server refuses
one (429, 503), a reconnection after the server process is killed and started again on the same database, the REST
fallback when the socket cannot be opened, a terminal seat beside a network bot, and the line mode (`--plain`) driven
through piped stdin in a subprocess to the end of a game."""

from __future__ import annotations

import asyncio
import functools
import io
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import ProgressBar, Static

from server.proc import SERVE, Server, free_port
from tabletop.agents import make_agent
from tabletop.cli.remote import RemoteApp, RemoteGame, ServerHintScreen
from tabletop.client import ApiError, Client, Seat
from tabletop.client.bot import BotResult, run_bot


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("remote-serve")
    s = Server(f"sqlite:///{tmp / 'remote.sqlite3'}", tmp / "serve.log", ai_workers=1,
               env={**OPEN, **ONE_QUICK_HINT}).start()
    yield s
    s.stop()


OPEN = {"TABLETOP_GAMES_PER_HOUR": "0", "TABLETOP_OPEN_GAMES": "0", "TABLETOP_AI_SEATS_PER_ADDRESS": "0",
        "TABLETOP_AI_ONLY_GAMES": "0", "TABLETOP_CHAT_RATE": "0"}
"""These tests create many games from one address: the creation limits off."""
ONE_QUICK_HINT = {"TABLETOP_HINT_SECONDS": "0.3", "TABLETOP_HINT_BURST": "1", "TABLETOP_HINT_RATE": "0.001"}
"""The module's server: a hint searched in 0.3 s, one per seat, then 429 for the next ~1,000 s."""


@pytest.fixture(scope="module")
def no_hints(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server without hint workers (a hint is answered 503) and without AI workers."""
    tmp = tmp_path_factory.mktemp("remote-bare")
    s = Server(f"sqlite:///{tmp / 'bare.sqlite3'}", tmp / "serve.log", env={**OPEN, "TABLETOP_HINT_WORKERS": "0"})
    yield s.start()
    s.stop()


def plain(renderable: Any) -> str:
    """What a rich renderable prints, as plain text."""
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()
    assert isinstance(out, str)
    return out


def recording(app: RemoteApp) -> list[str]:
    """The messages of the app's notifications from now on (the pilot's app shows no toasts)."""
    said: list[str] = []
    notify = app.notify

    def record(message: str, **kwargs: Any) -> Any:
        said.append(str(message))
        return notify(message, **kwargs)

    app.notify = record  # type: ignore[method-assign]
    return said


async def until(pilot: Any, what: Callable[[], bool], why: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not what():
        assert time.monotonic() < deadline, why
        await pilot.pause(0.05)
    await pilot.pause()


def first_legal(seat: Seat) -> bool:
    """The other seat's turn, played by the test over REST (its first legal action) if it owes one; True if it
    acted."""
    state = seat.state()
    if state["status"] == "over" or not state["owes_decision"]:
        return False
    seat.act(state["legal"][0], state["seq"])
    return True


def two_invited(c: Client, game: str = "silos") -> tuple[str, Seat, Seat]:
    made = c.create(game, players=2, seats=[{"kind": "invite"}, {"kind": "invite"}])
    return (made.game_id, c.claim_invite(made.invites[0]["url"], name="term"),
            c.claim_invite(made.invites[1]["url"], name="Bo"))


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


@sync
async def test_chat_from_another_seat_shows_in_the_app(server: Server) -> None:
    with Client(server.url) as c:
        game_id, seat, bo = two_invited(c)
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(100, 30)) as pilot:
            said = recording(app)
            await pilot.pause(0.3)
            bo.chat("hello from Bo")
            await until(pilot, lambda: any("hello from Bo" in str(m.get("text")) for m in game.talk),
                        "Bo's line never reached the app")
            assert [m["text"] for m in game.talk if m.get("kind") == "chat"] == ["hello from Bo"]
            assert any("Bo: hello from Bo" in n for n in said), said  # a notice as it arrives
            beside = plain(app.query_one("#log", Static).content)
            assert "At the table" in beside and "Bo: hello from Bo" in beside, beside  # beside the table
            bo.chat("and a second line")
            await until(pilot, lambda: len(game.talk) == 2, "the second line never came")
            await pilot.press("l")  # the history page: the table's talk under the log
            await pilot.pause(0.3)
            page = "\n".join(plain(w.content) for w in app.screen.query(Static))
            assert "Bo: hello from Bo" in page and "Bo: and a second line" in page, page
            await pilot.press("escape")
            await pilot.press("q")
        assert [m["text"] for m in c.messages(game_id)["messages"] if m["kind"] == "chat"] == [
            "hello from Bo", "and a second line"]


async def hint_screen_text(app: RemoteApp, pilot: Any) -> str:
    """Open the hint screen and wait until it shows its table; its text."""
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(app.screen, ServerHintScreen)
                and not app.screen.query_one(ProgressBar).display, "the hints never came", limit=90)
    text = plain(app.screen.query_one(Static).content)
    await pilot.press("escape")
    await pilot.pause(0.2)
    return text


@sync
async def test_hints_are_the_servers_and_searched_here_only_when_it_answers_429(server: Server) -> None:
    with Client(server.url) as c:
        _, seat, bo = two_invited(c)
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(100, 30)) as pilot:
            first_legal(bo)
            await until_mine(app, pilot)
            text = await hint_screen_text(app, pilot)
            assert "searched by the server for 0.3 s" in text and "searched here" not in text, text
            assert any(a.text in text for a in app.shown), text  # the server's hints, ranked
            # the module's server allows one hint per seat: the next is 429, searched here and said so
            with pytest.raises(ApiError) as refused:
                seat.hints()
            assert refused.value.status == 429
            text = await hint_screen_text(app, pilot)
            assert "the server gave no hint (too many hints" in text and "searched here instead" in text, text
            assert "searched by the server" not in text
            assert any(a.text in text for a in app.shown), text  # the local search's hints are shown
            await pilot.press("q")


@sync
async def test_on_a_server_answering_503_the_hints_are_searched_here_and_said_so(no_hints: Server) -> None:
    with Client(no_hints.url) as c:
        _, seat, bo = two_invited(c)
        with pytest.raises(ApiError) as refused:
            seat.hints() if seat.state()["owes_decision"] else bo.hints()
        assert refused.value.status == 503
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(100, 30)) as pilot:
            first_legal(bo)
            await until_mine(app, pilot)
            text = await hint_screen_text(app, pilot)
            assert "the server gave no hint (hints are turned off on this server)" in text, text
            assert "searched here instead, from your view only" in text and any(a.text in text for a in app.shown)
            await pilot.press("q")


@sync
async def test_a_reconnection_after_the_server_restarts_catches_up_with_nothing_twice_or_missed(
        tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'restart.sqlite3'}", tmp_path / "serve.log", env=OPEN).start()
    try:
        with Client(srv.url) as c:
            game_id, seat, bo = two_invited(c)
            game = RemoteGame(seat)
            app = RemoteApp(game)
            async with app.run_test(size=(100, 30)) as pilot:
                said = recording(app)
                for _ in range(3):  # a few moves each, the other seat's arriving over the socket
                    first_legal(bo)
                    await until_mine(app, pilot)
                    await pilot.press("enter")
                    await pilot.pause(0.2)
                first_legal(bo)
                bo.chat("before the restart")
                await until(pilot, lambda: len(game.talk) == 1 and game.msg["seq"] == c.info(game_id)["seq"],
                            "the table's moves before the restart never arrived")
                seq_before = game.msg["seq"]
                srv.kill()  # no shutdown at all
                await until(pilot, lambda: game.via == "none", "the app never noticed the server was gone")
                assert "the server does not answer" in plain(app.query_one("#status", Static).content)
                srv.start()
                acted = 0  # the table moves on before the app is back on its socket (it backs off)
                with Client(srv.url) as c2:
                    bo2, seat2 = c2.seat(game_id, bo.token), c2.seat(game_id, seat.token)
                    bo2.chat("after the restart")
                    while first_legal(bo2):
                        acted += 1
                    await until(pilot, lambda: game.via == "socket" and len(game.talk) == 2
                                and game.msg["seq"] == c2.info(game_id)["seq"],
                                "the app never caught up after the restart", limit=90)
                    assert game.msg["seq"] > seq_before or acted == 0
                    truth = seat2.log(0)["entries"]
                    assert game.log() == truth, "the seat's log after the catch-up is the server's, entry for entry"
                    assert [m["index"] for m in game.talk] == [0, 1]
                    assert [m["text"] for m in game.talk] == ["before the restart", "after the restart"]
                    assert sum("after the restart" in n for n in said) == 1
                    assert sum("before the restart" in n for n in said) == 1
                    # and the app plays on: its decision offered, sent, accepted by the restarted server
                    await until_mine(app, pilot)
                    if not game.is_over:
                        seq = game.msg["seq"]
                        await pilot.press("enter")
                        await until(pilot, lambda: c2.info(game_id)["seq"] > seq, "the move after the restart")
                    assert game.msg["seq"] == c2.info(game_id)["seq"]
                    assert "socket is down" not in plain(app.query_one("#status", Static).content)
                await pilot.press("q")
    finally:
        srv.stop()


class NoSockets(Client):
    """A client whose socket address answers nothing (as behind a proxy that does not pass WebSockets): REST only."""

    dead = free_port()

    def socket_url(self, game_id: str, token: str | None, since: int = 0, chat_since: int = 0) -> str:
        return f"ws://127.0.0.1:{self.dead}/api/games/{game_id}/ws?since={since}"


@sync
async def test_when_the_socket_cannot_be_opened_the_app_follows_the_table_over_rest(server: Server) -> None:
    with NoSockets(server.url) as c:
        game_id, seat, bo = two_invited(c)
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: game.via == "rest", "the app never fell back to REST")
            assert "following the table over REST" in plain(app.query_one("#status", Static).content)
            bo.chat("can you hear me")
            for _ in range(4):  # the other seat's moves and its chat come by polling
                first_legal(bo)
                await until_mine(app, pilot)
                seq = game.msg["seq"]
                await pilot.press("enter")
                await until(pilot, lambda seq=seq: c.info(game_id)["seq"] > seq, "the app's move was not sent")
            await until(pilot, lambda: game.msg["seq"] == c.info(game_id)["seq"], "the last picture never came")
            assert [m["text"] for m in game.talk] == ["can you hear me"]
            assert game.log() == seat.log(0)["entries"] and game.via == "rest"
            await pilot.press("q")


def test_the_line_mode_plays_a_whole_game_through_piped_stdin(server: Server, tmp_path: Path) -> None:
    with Client(server.url) as c:
        made = c.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "invite"}])
        bo = c.claim_invite(made.invites[1]["url"], name="Bo")
        pick = random.Random(1)  # first options on both sides can go round in circles: random ones end the game
        feed = tmp_path / "stdin.txt"  # a chat line, then one of the first four options at every prompt
        feed.write_text("say hello from the pipe\n" + "".join(f"{pick.randint(1, 4)}\n" for _ in range(6000)))
        out = tmp_path / "stdout.txt"
        with feed.open("rb") as stdin, out.open("wb") as stdout:
            proc = subprocess.Popen([sys.executable, str(SERVE), "play", "--server", server.url, "--join",
                                     made.invites[0]["url"], "--name", "piped", "--plain"],
                                    stdin=stdin, stdout=stdout, stderr=subprocess.STDOUT)
            try:
                deadline = time.monotonic() + 240
                replied = False
                while proc.poll() is None and time.monotonic() < deadline:
                    lines = [m["text"] for m in c.messages(made.game_id)["messages"] if m["kind"] == "chat"]
                    if not replied and "hello from the pipe" in lines:
                        bo.chat("hello from Bo")
                        replied = True
                    state = bo.state()
                    if state["status"] != "over" and state["owes_decision"]:
                        bo.act(pick.choice(state["legal"]), state["seq"])
                    else:
                        time.sleep(0.05)
            finally:
                if proc.poll() is None:
                    proc.kill()
                proc.wait(30)
        text = out.read_text()
        assert proc.returncode == 0, text[-3000:]
        assert c.info(made.game_id)["status"] == "over" and replied
        assert "said at the table" in text and text.count("Bo: hello from Bo") == 1, text[-3000:]
        assert "Game over" in text and text.rstrip().endswith("game over"), text[-2000:]
        decided = text.count("P1, your decision")  # every decision of the piped seat asked at its prompt
        assert decided > 10 and len(c.record(made.game_id)["actions"]) > decided


@sync
async def test_the_tables_move_clock_is_shown_in_the_status_line(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "invite"}], move_seconds=300)
        seat = c.claim_invite(made.invites[0]["url"], name="term")
        bo = c.claim_invite(made.invites[1]["url"], name="Bo")
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(100, 30)) as pilot:
            first_legal(bo)
            await until_mine(app, pilot)

            def shown() -> str:
                return plain(app.query_one("#status", Static).content)

            await until(pilot, lambda: "⏱" in shown(), "the clock never showed")
            left = int(shown().split("⏱")[1].split("s")[0])
            assert 200 < left <= 300, shown()  # the seconds left of this decision's 300
            await pilot.press("q")
        with Client(server.url) as c2:
            untimed = c2.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}])
            quiet = RemoteApp(RemoteGame(c2.claim_invite(untimed.invites[0]["url"], name="t")))
            async with quiet.run_test(size=(100, 30)) as pilot:
                await until_mine(quiet, pilot)
                await pilot.pause(1.2)
                assert "⏱" not in plain(quiet.query_one("#status", Static).content)  # no clock, none shown
                await pilot.press("q")


@sync
async def test_concede_typed_twice_at_a_server_table_ends_the_two_player_game_for_the_other_seat(
        server: Server) -> None:
    with Client(server.url) as c:
        game_id, seat, bo = two_invited(c)
        game = RemoteGame(seat)
        app = RemoteApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            first_legal(bo)  # Bo starts: he moves first
            await until_mine(app, pilot)
            for typed in range(2):  # the first says what conceding does, the second confirms
                for ch in "concede":
                    await pilot.press(ch)
                await pilot.press("enter")
                await pilot.pause(0.3)
                if typed == 0:
                    assert c.info(game_id)["status"] == "playing", "conceded without being confirmed"
            await until(pilot, lambda: game.is_over, "the app never saw the game end")
            await pilot.press("q")
        assert c.info(game_id)["status"] == "over"
        assert c.record(game_id)["actions"][-1] == "concede p0"
