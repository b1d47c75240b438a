"""The full-screen app (Textual), driven by its pilot: whole games through the app, undo, help, replay, sizes."""

from __future__ import annotations

import asyncio
import functools
import io
import random
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import OptionList, Static

import tabletop
from tabletop.agents import make_agent
from tabletop.cli.tui import COMMANDS, PlayApp, ReplayApp, TextScreen
from tabletop.core import Action, SeatHandle


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot test in its own event loop (no asyncio plugin needed)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


SIZES = {"silencio": (80, 24), "silos": (80, 24), "siliconvania": (100, 30)}


def app_for(game: str, players: int = 3, seed: int = 4) -> PlayApp:
    state = tabletop.new_game(game, players, seed)
    specs = ["human"] + ["random"] * (players - 1)
    agents = [None] + [make_agent("random", game, seed * 31 + i) for i in range(1, players)]
    return PlayApp(state, specs, agents)


async def until_human(app: PlayApp, pilot, limit: float = 30.0) -> None:
    """Wait until the game waits for the human seat (or is over): the AI answers from its worker thread."""
    waited = 0.0
    while app.state.to_move is not None and app.state.to_move not in app.humans:
        await pilot.pause(0.01)
        waited += 0.01
        assert waited < limit, "the AI seat never answered"
    await pilot.pause()


def text_of(app: PlayApp | ReplayApp, selector: str, width: int = 200) -> str:
    """The plain text a Static widget shows (its rich content drawn at `width` columns)."""
    content = app.query_one(selector, Static).content
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


@pytest.mark.parametrize("game", list(SIZES))
@sync
async def test_a_whole_game_is_played_through_the_app_to_its_result(game):
    app = app_for(game)
    async with app.run_test(size=SIZES[game]) as pilot:
        moves = 0
        while not app.state.is_over:
            await until_human(app, pilot)
            if app.state.is_over:
                break
            assert app.shown == sorted(app.shown, key=lambda a: app.mod.menu_key(app.state.view(0), a.text))
            # alternate: Enter on the highlighted option, and typing its number
            if moves % 2:
                await pilot.press("enter")
            else:
                for ch in "1":
                    await pilot.press(ch)
                await pilot.press("enter")
            moves += 1
        await pilot.pause()
        status = text_of(app, "#status")
        assert "Game over: " + app.mod.end_reason(app.state.view(0)) in status
        board = text_of(app, "#board")
        assert "q leaves" in board  # the result, then the final table
        await pilot.press("q")
    assert app.return_value is not None and app.return_value.left is False and moves > 0


def _text(content: Any) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


class Waiting:
    """An AI seat that thinks until it is let go (so a test can act while it thinks)."""

    name = "waiting"

    def __init__(self) -> None:
        self.go = threading.Event()

    def act(self, seat: SeatHandle) -> Action:
        self.go.wait(10)
        return seat.legal_actions()[0]


@sync
async def test_undo_takes_back_your_action_while_no_one_else_has_acted_and_the_late_answer_is_dropped():
    state = tabletop.new_game("silos", 2, 3)
    slow = Waiting()
    app = PlayApp(state, ["human", "waiting"], [None, slow])
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        before = app.state.history
        await pilot.press("enter")
        assert app.thinking == 1 and "AI is thinking" in text_of(app, "#status")
        assert "waiting" in text_of(app, "#status")
        await pilot.press("u")
        assert app.state.history == before and app.state.to_move == 0
        slow.go.set()
        await pilot.pause(0.2)
        assert app.state.history == before  # the stale answer belonged to a position taken back
        # after another seat has acted, nothing can be taken back
        await pilot.press("enter")
        await until_human(app, pilot)
        n = len(app.state.history)
        await pilot.press("u")
        assert len(app.state.history) == n


@sync
async def test_help_explains_the_highlighted_action_with_the_games_help_texts():
    from tabletop.core.help import explain, game_help

    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        highlighted = app.shown[app.query_one("#options", OptionList).highlighted or 0].text
        await pilot.press("h")
        assert isinstance(app.screen, TextScreen)
        page = str(app.screen.body)
        assert highlighted in page and explain(game_help("silencio"), highlighted) in page
        assert game_help("silencio")["rules"][0]["text"] in page
        await pilot.press("escape")
        await pilot.press("l")
        assert isinstance(app.screen, TextScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)


@sync
async def test_hints_search_from_the_seats_view_and_show_values():
    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        await pilot.press("question_mark")
        for _ in range(600):
            await pilot.pause(0.01)
            shown = str(app.screen.query_one(Static).content) + _text(app.screen.query_one(Static).content)
            if "favourite" in shown:
                break
        assert "favourite" in shown and "value" in shown
        # the team search's hints, as the server and the line mode give them (the baseline ISMCTS gave no reasons)
        assert "cards left on average" in shown
        await pilot.press("escape")


@sync
async def test_a_typed_text_that_is_no_action_is_refused_and_changes_nothing():
    app = app_for("silos")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        before = app.state.history
        app.query_one("#entry").focus()
        for ch in "xyzzy":
            await pilot.press(ch)
        await pilot.press("enter")
        await pilot.pause()
        assert app.state.history == before


@sync
async def test_below_the_minimum_size_the_app_asks_for_a_larger_window_or_plain():
    app = app_for("siliconvania")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        msg = text_of(app, "#too-small")
        assert "needs at least 100x30" in msg and "--plain" in msg
        assert not app.query_one("#main").display


@sync
async def test_the_history_panel_stands_beside_the_table_from_120x40():
    app = app_for("silos")
    async with app.run_test(size=(120, 40)) as pilot:
        await until_human(app, pilot)
        assert app.query_one("#history").display
    app = app_for("silos")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        assert not app.query_one("#history").display


@sync
async def test_replay_steps_from_any_seats_view_and_opens_every_hand_after_the_end():
    state = tabletop.new_game("silencio", 3, 2)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = state.record()
    app = ReplayApp(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")
        assert app.step == 1
        await pilot.press("s")
        assert app.seat == 0
        hand = " ".join(tabletop.replay(record, upto=1).view(0)["hand"])
        assert hand.split()[0] in text_of(app, "#hand")
        await pilot.press("end")
        for _ in range(3):  # p1, p2, then every hand open
            await pilot.press("s")
        assert app.seat == "open"
        notice = text_of(app, "#notice")
        for p in range(3):
            for c in state.view(p)["hand"]:
                assert c in notice
        await pilot.press("left")
        assert app.seat is None  # hands close again before the end
        await pilot.press("q")


def test_the_app_and_the_plain_prompt_take_the_same_command_words():
    for word in ("?", "h", "help", "rules", "l", "history", "u", "undo", "q"):
        assert word in COMMANDS


# ---- the entry line has every key (issue 22) --------------------------------------------------------------------


async def _type(pilot, text: str) -> None:
    for ch in text:
        await pilot.press("space" if ch == " " else ch)


@sync
async def test_an_action_typed_letter_by_letter_arrives_whole_at_the_start_of_a_decision():
    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        target = app.shown[-1]  # a passing card: `give g9` and the like
        assert target.text.startswith("give ")
        before = len(app.state.history)
        await _type(pilot, target.text)
        assert app.query_one("#entry").value == target.text  # no key lost, none taken as a command
        await pilot.press("enter")
        await pilot.pause()
        assert app.state.history[before] == target.text


@sync
async def test_two_digits_choose_the_option_of_that_number():
    app = app_for("siliconvania")
    async with app.run_test(size=(100, 30)) as pilot:
        await until_human(app, pilot)
        assert len(app.shown) >= 30  # a bid: card x specialist
        before, want = len(app.state.history), app.shown[29].text
        await _type(pilot, "30")
        assert app.query_one("#entry").value == "30"
        await pilot.press("enter")
        await pilot.pause()
        assert app.state.history[before] == want


@sync
async def test_a_command_key_runs_only_on_an_empty_line_and_when_no_action_starts_with_it():
    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        assert not app.starts_an_action("l")
        await pilot.press("l")
        assert isinstance(app.screen, TextScreen)  # the history
        await pilot.press("escape")
        await _type(pilot, "g")
        await pilot.press("l")  # not empty: typed
        assert not isinstance(app.screen, TextScreen) and app.query_one("#entry").value == "gl"
        assert app.starts_an_action("g")  # `give ...`: a `g` on an empty line is typed, it would be no command


@sync
async def test_arrows_move_the_highlight_and_enter_chooses_it_from_the_entry_line():
    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        assert app.focused is app.query_one("#entry")
        before = len(app.state.history)
        await pilot.press("down", "down", "up", "down")
        assert app.query_one("#options", OptionList).highlighted == 2
        chosen = app.shown[2].text
        await pilot.press("enter")
        await pilot.pause()
        assert app.state.history[before] == chosen


@sync
async def test_after_a_resize_the_app_lays_itself_out_for_the_new_size():
    app = app_for("silos")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        assert not app.query_one("#history").display
        await pilot.resize_terminal(130, 42)
        await pilot.pause()
        assert app.query_one("#history").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.query_one("#history").display


@sync
async def test_since_your_last_decision_names_what_the_others_did_at_the_smallest_size():
    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        assert not app.query_one("#since").display  # nothing to tell before the first decision
        while True:
            await pilot.press("enter")
            await until_human(app, pilot)
            if app.state.is_over:
                return
            seat = app.state.to_move
            new = [e for e in app.state.log(seat, app.read[seat]) if e["seat"] != seat]
            if new:
                break
        assert app.query_one("#since").display
        shown = text_of(app, "#since")
        assert "Since your last decision" in shown
        assert new[-1]["text"].split(" ", 1)[-1][:20] in shown


# ---- the end of a game and nothing cut at the minimum sizes (issue 22) --------------------------------------------


def drawn(app: PlayApp | ReplayApp, selector: str, scroll: str | None = None) -> list[str]:
    """The lines a Static widget draws at its real width, only those on screen (the height of its own region, or
    of the scrolling container `scroll` that holds it, unscrolled)."""
    widget = app.query_one(selector, Static)
    box = app.query_one(scroll) if scroll else widget
    console = Console(width=widget.content_region.width, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    lines = console.export_text().rstrip("\n").split("\n")
    return lines[:box.content_region.height]


def words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def assert_the_result_is_drawn(app: PlayApp | ReplayApp, view: dict[str, Any]) -> None:
    """Every seat's total and the winners (Silencio: every seat's cards left and the verdict) are on screen,
    without scrolling."""
    shown = drawn(app, "#board", "#table")
    flat = words(shown)
    names = [app.seats.plain(i) for i in range(view["players"])]

    def row(name: str) -> str:
        found = [ln for ln in shown if ln.split() and " ".join(ln.split()[:len(name.split())]) == name]
        assert found, f"no row for {name} in {shown}"
        return found[0]

    if app.game == "silos":
        assert "Winner" in flat and all(names[w] in flat for w in view["winners"])
        for i, seat in enumerate(view["seats"]):
            assert f"{seat['emblems']}/{view['emblem_target']}" in row(names[i])
    elif app.game == "siliconvania":
        won = ", ".join(names[w] for w in view["winners"])
        assert ("Winners: " if len(view["winners"]) > 1 else "Winner: ") + won in flat
        for i, b in enumerate(view["final"]):
            assert f"{names[i]} {b['total']}" in flat
        assert "Total " + " ".join(str(b["total"]) for b in view["final"]) in flat
    else:
        r = view["result"]
        assert r["text"] in flat and f"{r['cards_left']} card(s) left" in flat  # the verdict
        for i in range(view["players"]):
            left = len(r["hands"][i]) + len(view["fronts"][i])
            after = [t for t in row(names[i]).split()[len(names[i].split()):] if t != "(you)"]
            assert after[0] == str(left)


async def play_to_the_end(app: PlayApp, pilot) -> None:
    while not app.state.is_over:
        await until_human(app, pilot)
        if not app.state.is_over:
            await pilot.press("enter")
    await pilot.pause()


END_CASES = [("silos", 4), ("silos", 2), ("silencio", 3), ("silencio", 4), ("siliconvania", 3),
             ("siliconvania", 5)]


def near_the_end(game: str, players: int, seed: int) -> PlayApp:
    """The app of `app_for`, opened at the human seat's last decision of a random game played out by the engine
    (the whole game through the app is `test_a_whole_game_is_played_through_the_app_to_its_result`'s): what is
    left is played through the app."""
    rng = random.Random(seed)
    state = tabletop.new_game(game, players, seed)
    actions: list[str] = []
    last = 0
    while not state.is_over:
        if state.to_move == 0:
            last = len(actions)
        legal = state.legal_actions()
        actions.append(legal[rng.randrange(len(legal))])
        state.apply(actions[-1])
    state = tabletop.new_game(game, players, seed)
    for a in actions[:last]:
        state.apply(a)
    specs = ["human"] + ["random"] * (players - 1)
    agents = [None] + [make_agent("random", game, seed * 31 + i) for i in range(1, players)]
    return PlayApp(state, specs, agents)


@pytest.mark.parametrize(("game", "players"), END_CASES)
@sync
async def test_the_end_shows_every_seats_total_and_the_winners_at_the_minimum_size(game, players):
    app = near_the_end(game, players, seed=5)
    async with app.run_test(size=SIZES[game]) as pilot:
        await play_to_the_end(app, pilot)
        view = app.state.view(0)
        assert_the_result_is_drawn(app, view)
        assert "Game over: " + app.mod.end_reason(view) in words(drawn(app, "#status"))
        assert not app.query_one("#since").display and not app.query_one("#options").display
        if game == "silencio":  # the effects of the game in progress are gone from the finished table
            assert "next card" not in text_of(app, "#board") and " said " not in text_of(app, "#board")
        await pilot.press("pagedown")  # the result scrolls from the keyboard (the final table under it)
        await pilot.pause()
        table = app.query_one("#table")
        assert table.max_scroll_y == 0 or table.scroll_y > 0
        record = app.state.record()
    replay = ReplayApp(record)
    async with replay.run_test(size=SIZES[game]) as pilot:
        await pilot.press("end")
        await pilot.pause()
        for seat in (None, 0):
            assert replay.seat == seat
            assert_the_result_is_drawn(replay, replay.final.view(seat))
            await pilot.press("s")
            await pilot.pause()
        await pilot.press("left")  # back from the end: the table and the notice again
        await pilot.pause()
        assert replay.step == replay.total - 1 and replay.query_one("#notice").display


@pytest.mark.parametrize(("game", "players"), [("silos", 4), ("silencio", 4), ("siliconvania", 5),
                                               ("siliconvania", 3)])
@sync
async def test_the_decision_the_hand_and_the_table_are_not_cut_at_the_minimum_size(game, players):
    from tabletop.games.siliconvania.notation import COMPONENTS as SV

    app = app_for(game, players, seed=21)
    w, h = SIZES[game]
    async with app.run_test(size=(w, h)) as pilot:
        decisions = 0
        while decisions < 40:
            await until_human(app, pilot)
            if app.state.is_over:
                break
            decisions += 1
            view = app.state.view(0)
            status = words(drawn(app, "#status"))
            assert f"your decision: {view['decision']}" in status, status  # wrapped, never cut
            if view["seat"] is not None and game == "siliconvania":
                hand = words(drawn(app, "#hand"))
                for r in view["seats"][0]["hand"]:
                    assert f"s{r} {SV.specialists[r].name}" in hand, hand
            board = drawn(app, "#board", "#table")
            assert not any("…" in ln for ln in board), board
            if game != "siliconvania":  # (its table may scroll at 100x30: the council board beside the city)
                console = Console(width=app.query_one("#board").content_region.width, file=io.StringIO())
                assert len(console.render_lines(app.query_one("#board", Static).content, pad=False)) == len(board)
            entry = app.query_one("#entry")
            assert entry.region.bottom <= h - 1 and entry.region.height == 1  # above the footer
            assert app.query_one("#options").region.height >= 2
            await pilot.press(str(1 + decisions % len(app.shown)) if len(app.shown) < 10 else "1")
            await pilot.press("enter")
        assert decisions >= 10


@sync
async def test_an_undo_from_the_end_brings_back_the_table_and_the_decision():
    import random

    played = tabletop.new_game("silos", 2, 2)  # its last action reveals nothing: it can be taken back
    rng = random.Random(2)
    while not played.is_over:
        played.apply(rng.choice(played.legal_actions()))
    state = tabletop.new_game("silos", 2, 2)
    for text in played.history[:-1]:
        state.apply(SeatHandle(state, state.to_move).parse_action(text))
    app = PlayApp(state, ["human"] * 2, [None] * 2)  # both seats here: the last action is a human's
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        last = next(a for a in app.shown if a.text == played.history[-1])
        app._choose(last)
        await pilot.pause()
        assert app.state.is_over and app.ended and not app.query_one("#entry").display
        assert "Winner" in text_of(app, "#board")
        await pilot.press("u")
        await pilot.pause()
        assert not app.state.is_over and not app.ended
        assert app.query_one("#entry").display and app.query_one("#options").display
        assert app.query_one("#hand").display == bool(text_of(app, "#hand").strip())
        assert "your decision" in text_of(app, "#status") and "Winner" not in text_of(app, "#board")
        assert last in app.shown and app.focused is app.query_one("#entry")


async def type_line(pilot: Any, text: str) -> None:
    for ch in text:
        await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")
    await pilot.pause()


@sync
async def test_concede_typed_twice_ends_a_two_player_game_and_the_other_side_wins():
    app = app_for("silos", players=2, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        assert COMMANDS["concede"] == "concede"
        await type_line(pilot, "concede")  # the first says what it does and waits for a second
        assert not app.state.is_over and app.state.conceded == []
        await type_line(pilot, "concede")
        assert app.state.is_over and app.state.conceded == [0]
        assert app.state.winners() == [1]
        assert app.state.history[-1] == "concede p0"


@sync
async def test_conceding_at_three_players_places_you_last_and_the_ai_plays_your_seat_to_the_end():
    app = app_for("silos", players=3, seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        await type_line(pilot, "concede")
        await type_line(pilot, "concede")
        assert app.state.conceded == [0] and 0 not in app.humans
        waited = 0.0
        while not app.state.is_over:  # no seat is the player's now: the AIs play to the end
            await pilot.pause(0.05)
            waited += 0.05
            assert waited < 60, "the game did not go on without the player"
        assert app.state.places()[0] == 3  # placed last whatever the score


@sync
async def test_a_cooperative_game_refuses_conceding_and_says_why():
    app = app_for("silencio")
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human(app, pilot)
        before = list(app.state.history)
        await type_line(pilot, "concede")
        await type_line(pilot, "concede")
        assert app.state.history == before and not app.state.is_over
