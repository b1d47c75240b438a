"""Any client at one table: for each game, a whole game at one server table between a browser seat (Chromium,
clicking the table), a terminal seat (the Textual app of `tabletop play --server`, headless under its pilot in a
thread with its own event loop, typing option numbers into its entry line) and a network bot (`run_bot` in a
thread), to the end."""

from __future__ import annotations

import asyncio
import random
import threading
import traceback
from typing import Any

import pytest
from playwright.sync_api import Browser

import tabletop
from tabletop.agents import make_agent
from tabletop.cli.remote import RemoteApp, RemoteGame
from tabletop.client import Client, Seat
from tabletop.client.bot import BotResult, run_bot

from .conftest import LAPTOP, Served
from .table import NO_COMPONENT, Clicks, move_by_clicks, wait_turn_or_end
from .test_siliconvania_browser import sv_move
from .test_silos_browser import NO_COMPONENT as SILOS_NO_COMPONENT

GAMES: dict[str, tuple[str, dict[str, Any], str]] = {
    # game: (the table's CSS class, the smallest options, the bot's agent)
    "silos": ("silos", {"emblem_target": 4}, "ismcts:iters=8"),
    "silencio": ("silencio", {}, "random"),
    "siliconvania": ("sv", {}, "random"),
}


class Terminal:
    """The terminal seat: RemoteApp under its pilot in a thread with its own asyncio loop."""

    def __init__(self, seat: Seat, rng: random.Random) -> None:
        self.game = RemoteGame(seat)
        self.app = RemoteApp(self.game)
        self.rng = rng
        self.typed = 0
        self.error: str | None = None
        self.saw_over = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._play())
        except BaseException:
            self.error = traceback.format_exc()

    async def _play(self) -> None:
        app, game = self.app, self.game
        async with app.run_test(size=(100, 30)) as pilot:
            waited = 0.0
            while not game.is_over:
                if game.to_move == game.seat and app.shown:
                    n = 1 + self.rng.randrange(len(app.shown))
                    seq = game.msg.get("seq")
                    app.query_one("#entry").focus()
                    await pilot.press(*str(n))
                    await pilot.press("enter")
                    self.typed += 1
                    waited = 0.0
                    while game.msg.get("seq") == seq and waited < 60 and not game.is_over:
                        await pilot.pause(0.05)
                        waited += 0.05
                    waited = 0.0
                else:
                    await pilot.pause(0.05)
                    waited += 0.05
                    assert waited < 600, f"the terminal seat waited 600 s at seq {game.msg.get('seq')}"
            await pilot.pause(0.3)
            self.saw_over = game.msg.get("status") == "over"
            await pilot.press("q")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_browser_a_terminal_and_a_network_bot_play_a_whole_game_at_one_table(
        server: Served, browser: Browser, name: str) -> None:
    css, options, spec = GAMES[name]
    with Client(server.url) as c:
        made = c.create(name, players=3, seats=[{"kind": "invite"}] * 3, options=options)
        links = [i["url"] for i in made.invites]
        # the browser takes seat 0 from its invite link, as a person would
        ctx = browser.new_context(viewport=LAPTOP)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(links[0])
        page.wait_for_selector("text=Take my seat")
        page.fill(".join input", "Ann")
        page.click("text=Take my seat")
        page.wait_for_selector(f".{css}[data-seq]")
        # the terminal takes seat 1, the bot seat 2
        term = Terminal(c.claim_invite(links[1], name="term"), random.Random(11))
        agent = make_agent(spec, name, seed=3)
        bot: dict[str, Any] = {}

        def run() -> None:
            try:
                with Client(server.url) as c2:
                    s = c2.claim_invite(links[2], name="bot")
                    s.mark_bot()
                    bot["result"] = run_bot(s, agent, say=lambda line: None, idle_timeout=600)
            except BaseException:
                bot["error"] = traceback.format_exc()

        bot_thread = threading.Thread(target=run, daemon=True)
        term.thread.start()
        bot_thread.start()
        rng = random.Random(5)
        clicks = Clicks()
        while wait_turn_or_end(page, timeout=600_000) == "turn":
            assert term.error is None and "error" not in bot, term.error or bot["error"]
            if name == "siliconvania":
                sv_move(page, rng, clicks)
            else:
                move_by_clicks(page, rng, clicks, SILOS_NO_COMPONENT if name == "silos" else NO_COMPONENT)
            assert clicks.moves < 600, "the game did not end"
        term.thread.join(timeout=300)
        bot_thread.join(timeout=300)
        assert not term.thread.is_alive() and not bot_thread.is_alive(), "a client did not finish"
        assert term.error is None, term.error
        assert "error" not in bot, bot["error"]

        info = c.info(made.game_id)
        assert info["status"] == "over"
        assert [s["bot"] for s in info["seats"]] == [False, False, True]
        # the record has every seat's moves: replayed, each seat made decisions
        record = c.record(made.game_id)
        state = tabletop.new_game(record["game"], record["players"], seed=record["seed"], options=record["options"])
        movers: dict[int, int] = {}
        for a in record["actions"]:
            movers[state.to_move] = movers.get(state.to_move, 0) + 1
            state.apply(a)
        assert state.is_over
        assert set(movers) == {0, 1, 2}, movers
        assert movers[0] >= clicks.moves and movers[1] >= term.typed and clicks.moves > 0 and term.typed > 0

        # each client saw the final result
        result: BotResult = bot["result"]
        assert result.final["status"] == "over" and result.sent > 0
        assert all(r.startswith("stale") for r in result.refused), result.refused
        assert term.saw_over and term.app.return_value is not None and term.app.return_value.extra["over"] is True
        shown = page.inner_text(".actions .result")
        assert shown.strip(), "the browser shows no result"
        truth = state.view(0)
        if name == "siliconvania":
            for f in truth["final"]:
                assert str(f["total"]) in shown
        elif name == "silos":
            for p in truth["winners"]:  # by name: the page asks the names again of seats taken after it loaded
                assert info["seats"][p]["name"].split(" ")[0] in shown, shown
        assert errors == []
        ctx.close()
