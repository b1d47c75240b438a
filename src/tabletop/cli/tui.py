"""The full-screen terminal app (Textual) for `tabletop play` and `tabletop replay`.

It draws a seat's view only (`view(seat)`, `log(seat)`), through the game's `games/<game>/tui.py` renderers, and
speaks the same words as the plain mode: `?` hints, `h`/F1 help, `l` history, `u` undo, `q` quit. AI seats decide
in a worker thread while an indicator names the agent; a stale answer (after an undo) is dropped.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Input, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

import tabletop
from tabletop.agents import Agent, make_agent
from tabletop.cli.common import refusal
from tabletop.core import Action, IllegalAction, SeatHandle, State, View
from tabletop.core.help import GameHelp, NoHelp, explain, game_help
from tabletop.core.logwords import render as render_entry
from tabletop.core.parts import part
from tabletop.core.seatnames import Seats, seat_names, seat_note

HINT_SECONDS = 2.0
HISTORY_SIZE = (120, 40)  # from this size on, the move history stands beside the table
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def game_module(game: str) -> ModuleType | None:
    """The game's `tui` renderers, or None for a game without them (it is then played in plain mode)."""
    return part(game, "tui")


def min_size(game: str) -> tuple[int, int]:
    mod = game_module(game)
    return (int(mod.MIN_SIZE[0]), int(mod.MIN_SIZE[1])) if mod is not None else (80, 24)


def help_of(game: str) -> GameHelp | None:
    try:
        return game_help(game)
    except NoHelp:
        return None


def rules_text(game: str, action: str | None = None) -> Text:
    """The game's rules help (games/<game>/help.toml), after the explanation of `action` when there is one."""
    h = help_of(game)
    out = Text()
    if action is not None:
        out.append(f"{action}\n", style="bold reverse")
        what = explain(h, action) if h is not None else None
        out.append((what or "No explanation for this action.") + "\n\n")
    if h is None:
        return out.append("This game has no help text.")
    out.append(h["title"] + "\n", style="bold underline")
    for r in h["rules"]:
        out.append(f"\n{r['title']}\n", style="bold")
        out.append(r["text"] + "\n")
    if h["terms"]:
        out.append("\nOn the table\n", style="bold")
        for k, v in h["terms"].items():
            out.append(f"{k}: ", style="bold")
            out.append(v + "\n")
    return out


def rows_of(content: Any, width: int) -> int:
    """How many lines `content` (a Static's) takes when drawn `width` columns wide."""
    console = Console(width=max(1, width), file=io.StringIO())
    return len(console.render_lines(content, console.options, pad=False)) if content else 0


def log_lines(entries: list[dict[str, Any]], seats: Seats) -> Text:
    """Log entries rendered for the seat whose view is shown (`logwords.render`: "You ..." for it, the seats' names
    otherwise), each name in its seat's colour; the table's own entries in dim."""
    out = Text()
    names = [seats.plain(i) for i in range(len(seats.names))]
    for e in entries:
        if out:
            out.append("\n")
        who = e.get("seat")
        line = Text(render_entry(e, names, seats.you), style="dim" if who is None else "")
        for i, name in enumerate(names):
            line.highlight_words([name], style=seats.styles[i])
        line.highlight_regex(r"\b(You|you|your|Your)\b", style="bold")
        out.append_text(line)
    return out


class TextScreen(ModalScreen[None]):
    """A scrolling page over the table (help, history, other cities); Escape, q or its own key closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,h,l,o,f1", "dismiss", "close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 95%; height: 95%; border: round $accent; background: $surface; }
    """

    def __init__(self, title: str, body: RenderableType, end: bool = False) -> None:
        super().__init__()
        self.title_text, self.body, self.end = title, body, end

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(Static(self.body))
        scroll.border_title = self.title_text + "  (Esc closes)"
        yield scroll

    def on_mount(self) -> None:
        if self.end:
            self.query_one(VerticalScroll).scroll_end(animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)


class HintScreen(ModalScreen[None]):
    """The hints every client shows (`tabletop.agents.hints`: the search of the game's `hard` level), from the
    seat's view, searched in a worker thread with a progress bar, then the values and reasons."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "close")]
    DEFAULT_CSS = """
    HintScreen { align: center middle; }
    HintScreen > Vertical { width: 90%; height: auto; max-height: 90%; border: round $accent;
                            background: $surface; padding: 0 1; }
    """

    def __init__(self, seat: SeatHandle, shown: list[Action], seats: Seats) -> None:
        super().__init__()
        self.seat, self.shown, self.seats = seat, shown, seats
        self.stopped = False
        self.note = ""
        """A line under the heading saying where the hints come from (the remote app: the server, or why not)."""

    def compose(self) -> ComposeResult:
        box = Vertical(Static(Text("searching from your seat's view only...")), ProgressBar(total=100,
                                                                                           show_eta=False))
        box.border_title = "Hints (Esc closes)"
        yield box

    def on_mount(self) -> None:
        self.run_worker(self._search, thread=True, exclusive=True)

    def _search(self) -> None:
        from tabletop.agents.hints import hints

        bar = self.query_one(ProgressBar)

        def progress(share: float) -> bool:
            if not self.stopped:
                self.app.call_from_thread(bar.update, progress=int(100 * share))
            return not self.stopped

        found = hints(self.seat, seconds=HINT_SECONDS, seed=0, progress=progress)
        ranked = [(c.action, c.visits, c.value, c.reason) for c in found]
        if not self.stopped:
            self.app.call_from_thread(self._show, ranked)

    def _show(self, ranked: list[tuple[Action, int, float, str]]) -> None:
        t = Table(box=None, padding=(0, 2))
        why = any(r for *_, r in ranked)
        for col in ("#", "action", "tries", "value") + (("why",) if why else ()):
            t.add_column(col, justify="left" if col in ("action", "why") else "right")
        for action, visits, value, because in ranked:
            number = str(self.shown.index(action) + 1) if action in self.shown else ""
            t.add_row(number, action.text, str(visits), f"{value:.2f}", *((because,) if why else ()))
        self.query_one(Static).update(Group(
            Text("The search's favourite actions, from your view only", style="bold"),
            *([Text(self.note, style="yellow")] if self.note else []), t,
            Text("value: your estimated result, 0 (worst) to 1 (best: a win, or the team's best score); "
                 "tries: the search samples behind it", style="dim")))
        self.query_one(ProgressBar).display = False

    async def action_dismiss(self, result: None = None) -> None:
        self.stopped = True
        self.dismiss(None)


@dataclass
class Outcome:
    """How the app ended: `left` (q before the end), the final state, and the seat whose view was shown."""

    left: bool = True
    state: State | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class TableApp(App[Outcome]):
    """What play and replay share: the table, the hand line, a decision area, history, help and size checks."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 2; background: $primary-background; }
    #body { height: auto; max-height: 75%; }
    #table { width: 1fr; height: auto; }
    #history { width: 44; border-left: solid $secondary; padding: 0 1; display: none; }
    #hand { height: auto; max-height: 2; }
    #options { height: 1fr; min-height: 5; border: none; padding: 0; }
    #entry { height: 1; border: none; padding: 0 1; dock: bottom; }
    #notice { height: auto; max-height: 8; }
    #since { height: auto; max-height: 7; display: none; }
    #too-small { display: none; content-align: center middle; height: 1fr; }
    """

    def __init__(self, game: str, players: int) -> None:
        super().__init__()
        self.game = game
        self.mod = game_module(game)
        self.need = min_size(game)
        self.players = players
        self.seats = Seats(tuple(f"P{i + 1}" for i in range(players)), ("bold",) * players, ("",) * players)
        self.frame = 0
        self.ended = False

    DECISION: ClassVar[tuple[str, ...]] = ("#notice",)
    """The widgets under the hand line, hidden at the end of a game."""

    # ---- layout ----
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical(id="main"):
            with Horizontal(id="body"):
                yield VerticalScroll(Static(id="board"), id="table")
                yield VerticalScroll(Static(id="log"), id="history")
            yield Static(id="hand")
            yield from self.compose_decision()
        yield Static(id="too-small")
        yield Footer()

    def compose_decision(self) -> ComposeResult:
        yield Static(id="notice")

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)  # the new size: `self.size` may still be the old one while the event is handled

    def fit(self, size: Size | None = None) -> None:
        w, h = size if size is not None else self.size
        small = w < self.need[0] or h < self.need[1]
        self.query_one("#main").display = not small
        msg = self.query_one("#too-small", Static)
        msg.display = small
        msg.update(Text(f"This window is {w}x{h}; {self.game} needs at least {self.need[0]}x{self.need[1]}.\n"
                        "Make the window larger, or play in line mode with --plain.", justify="center"))
        hist = self.query_one("#history")
        hist.display = w >= HISTORY_SIZE[0] and h >= HISTORY_SIZE[1]
        body = self.query_one("#body")
        side = w - self.need[0]
        if side >= 30:  # beside the table
            body.styles.layout = "horizontal"
            hist.styles.width = min(side, 50)
            hist.styles.height = "auto"
        else:  # under it (SiliconVania's table takes 100 columns)
            body.styles.layout = "vertical"
            hist.styles.width = "100%"
            hist.styles.height = 9

    def show_table(self, view: View, log: list[dict[str, Any]]) -> None:
        assert self.mod is not None
        self.query_one("#board", Static).update(self.mod.table(view, self.seats))
        hand = self.mod.hand(view)
        self.query_one("#hand", Static).update(hand)
        self.query_one("#hand").display = bool(hand.plain) and not self.ended  # no empty row
        self.query_one("#log", Static).update(log_lines(log[-60:], self.seats))
        self.query_one("#history", VerticalScroll).scroll_end(animate=False)

    def show_end(self, result: RenderableType, view: View, after: RenderableType | None = None) -> None:
        """The end of a game: the result first (why it ended, every seat's score, the winners), then the final
        table, in the table's scrolling area, which takes the whole height; the decision area goes."""
        assert self.mod is not None
        parts: list[RenderableType] = [result, Text("")]
        if after is not None:
            parts += [after, Text("")]
        parts += [Text("The final table", style="bold underline"), self.mod.table(view, self.seats)]
        hand = self.mod.hand(view)
        if hand.plain:
            parts.append(hand)
        self.query_one("#board", Static).update(Group(*parts))
        for sel in ("#hand", *self.DECISION):
            self.query_one(sel).display = False
        body = self.query_one("#body")
        body.styles.max_height = "100%"
        body.styles.height = "1fr"
        table = self.query_one("#table", VerticalScroll)
        table.styles.height = "1fr"
        table.scroll_home(animate=False)
        self.ended = True

    def leave_end(self) -> None:
        """Back to the table and its decision area (a replay stepped back from the end)."""
        if not self.ended:
            return
        for sel in self.DECISION:
            self.query_one(sel).display = True
        body = self.query_one("#body")
        body.styles.max_height = "75%"
        body.styles.height = "auto"
        self.query_one("#table").styles.height = "auto"
        self.ended = False

    def end_result(self, view: View, why: bool = True) -> RenderableType:
        """Why the game ended (unless the status bar says it), then the game's own result (every seat's score
        and the winners)."""
        assert self.mod is not None
        scores: RenderableType = self.mod.scores(view, self.seats)
        if not why:
            return scores
        return Group(Text("Game over: " + self.mod.end_reason(view), style="bold reverse"), scores)

    def status(self, text: Text) -> None:
        self.query_one("#status", Static).update(text)

    def show_page(self, title: str, body: RenderableType, end: bool = False) -> None:
        self.push_screen(TextScreen(title, body, end))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`o` only where the game has other cities to show."""
        return action != "others" or hasattr(self.mod, "others")


class EntryLine(Input):
    """The decision's entry line, which has the focus at every decision: every printable key types into it.

    The arrow and page keys move the highlight in the list of options and Enter on an empty line chooses the
    highlighted one; a command key (`?`, `h`, `l`, `u`, `o`, `q`) runs its command only on an empty line and when no
    legal action's text starts with it (so `give g9`, `3 0` and a pasted `play y2` arrive whole)."""

    def __init__(self, app: PlayApp, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.play = app

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """The command keys are not shown as consumed, so the footer keeps listing them (they still type text on a
        line that is not empty, or when an action starts with them)."""
        if character is not None and character in KEY_COMMANDS:
            return False
        return bool(super().check_consume_key(key, character))

    async def _on_key(self, event: events.Key) -> None:
        options = self.play.query_one("#options", OptionList)
        moves: dict[str, Callable[[], None]] = {
            "up": options.action_cursor_up, "down": options.action_cursor_down,
            "pageup": options.action_page_up, "pagedown": options.action_page_down}
        if event.key in moves and options.display:
            moves[event.key]()
            event.stop()
            event.prevent_default()
            return
        if event.key == "enter" and not self.value.strip() and options.display and options.highlighted is not None:
            event.stop()
            event.prevent_default()
            options.action_select()
            return
        ch = event.character
        if ch and not self.value and ch in KEY_COMMANDS and not self.play.starts_an_action(ch):
            event.stop()
            event.prevent_default()
            getattr(self.play, f"action_{KEY_COMMANDS[ch]}")()
            return
        await super()._on_key(event)


class PlayApp(TableApp):
    """A game on this machine: human seats choose here, AI seats think in a worker thread."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "hints", "hints"),
        Binding("h,f1", "help", "help"),
        Binding("l", "history", "history"),
        Binding("u", "undo", "undo"),
        Binding("o", "others", "other cities"),
        Binding("q", "leave", "quit"),
    ]

    def __init__(self, state: State, specs: list[str], agents: list[Agent | None]) -> None:
        super().__init__(state.game, state.players)
        self.state = state
        state.track_undo()
        self.specs = specs
        self.agents = agents
        self.humans = [i for i, a in enumerate(agents) if a is None]
        self.you: int | None = self.humans[0] if self.humans else None
        self.generation = 0
        self.read: dict[int, int] = {}  # per human seat, its log's length just after its last decision
        self.thinking: int | None = None
        self._concede_asked = 0.0  # when `concede` was typed first (a second within 10 s confirms)
        self.shown: list[Action] = []
        self.seats = seat_names(state.view(None), state.players, specs, self.you)

    DECISION: ClassVar[tuple[str, ...]] = ("#since", "#options", "#entry")

    def compose_decision(self) -> ComposeResult:
        yield Static(id="since")
        options = OptionList(id="options")
        options.can_focus = False  # the entry line keeps the focus; a click still chooses
        yield options
        yield EntryLine(self, placeholder="number, action text (→ completes), or ? h l u q", id="entry")

    def starts_an_action(self, ch: str) -> bool:
        """Whether the text of a legal action offered now starts with `ch` (then `ch` is typed, not a command)."""
        ch = ch.lower()
        return any(a.text.lower().startswith(ch) for a in self.shown)

    def on_mount(self) -> None:
        self.fit()
        self.set_interval(0.1, self._spin)
        self.advance()

    def _spin(self) -> None:
        if self.thinking is not None:
            self.frame += 1
            self._status()

    # ---- the game loop ----
    def advance(self) -> None:
        """Show the table, then ask the human to move, start an AI's thinking, or show the end."""
        s = self.state
        to = s.to_move
        if to is not None and to in self.humans:
            self.you = to
        self.seats = self.seats.seen_by(self.you)
        if to is not None:
            self.leave_end()  # an undo from the end
        self.show_table(s.view(self.you), s.log(self.you))
        options = self.query_one("#options", OptionList)
        entry = self.query_one("#entry", Input)
        if to is None:
            self.thinking = None
            options.clear_options()
            self.shown = []
            self._end()
        elif to in self.humans:
            self.thinking = None
            self._offer(SeatHandle(s, to))
            entry.focus()
        else:
            self.thinking = to
            self.shown = []
            options.clear_options()
            entry.suggester = None
            self._think(to)
        self._status()
        self._since(to if to in self.humans else None)

    def _since(self, seat: int | None) -> None:
        """"Since your last decision": what the other seats and the table did since this seat's last decision (its
        own log from there on, the seat's own lines left out), the newest that fit: below 30 rows one paragraph of
        two lines at most, from 30 rows a list of up to six."""
        since = self.query_one("#since", Static)
        new = [] if seat is None or seat not in self.read else [
            e for e in self.state.log(seat, self.read[seat]) if e.get("seat") != seat]
        if not new:
            since.display = False
            self.query_one("#options", OptionList).styles.min_height = 5
            return
        w, h = self.size
        options = self.query_one("#options", OptionList)
        board = self.query_one("#board", Static).content
        hand = self.query_one("#hand", Static).content
        status = self.query_one("#status", Static).content
        used = min(2, rows_of(status, w)) + rows_of(board, w) + min(2, rows_of(hand, w)) + 2  # + entry, footer
        if h < 30 or h - used < 7 + 5:  # one flowing paragraph of at most two lines, the newest entries that fit
            room = 2 * w - 4
            parts: list[Text] = []
            used = len("Since your last decision: ")
            for e in reversed(new):
                line = log_lines([e], self.seats)
                if parts and used + len(line.plain) + 3 > room:
                    break
                parts.insert(0, line)
                used += len(line.plain) + 3
            text = Text("Since your last decision: ", style="bold")
            if len(parts) < len(new):
                text.append("… ", style="dim")
            text.append_text(Text(" · ").join(parts))
            since.styles.max_height = 2
            options.styles.min_height = 3  # the table, the hand and the entry line keep their rows at 80x24
            since.update(text)
        else:
            shown = new[-6:]
            head = Text("Since your last decision", style="bold")
            if len(new) > len(shown):
                head.append(f" (the last {len(shown)} of {len(new)}; l: the whole history)", style="dim")
            since.styles.max_height = 7
            options.styles.min_height = 5
            since.update(Group(head, log_lines(shown, self.seats)))
        since.display = True

    def _offer(self, seat: SeatHandle) -> None:
        view = seat.view()
        legal = seat.legal_actions()
        if self.mod is not None:
            legal = sorted(legal, key=lambda a: self.mod.menu_key(view, a.text))  # type: ignore[union-attr]
        self.shown = legal
        options = self.query_one("#options", OptionList)
        options.clear_options()
        width = len(str(len(legal)))
        notes = [seat_note(a.text, self.state.players, self.you) for a in legal]  # `choose p0`: who p0 is
        options.add_options([Option(Text.assemble((f"{i + 1:>{width}} ", "bold cyan"), a.text,
                                                  (f"  ({note})" if note else "", "dim")))
                             for i, (a, note) in enumerate(zip(legal, notes, strict=True))])
        options.highlighted = 0
        self.query_one("#entry", Input).suggester = SuggestFromList([a.text for a in legal], case_sensitive=False)

    def _think(self, seat: int) -> None:
        agent = self.agents[seat]
        assert agent is not None
        gen = self.generation
        handle = SeatHandle(self.state, seat)

        def work() -> None:
            action = agent.act(handle)
            self.call_from_thread(self._decided, gen, seat, action)

        self.run_worker(work, thread=True, group="ai")

    def _decided(self, gen: int, seat: int, action: Action) -> None:
        if gen != self.generation or self.state.to_move != seat:
            return  # taken back meanwhile (undo): this answer belongs to another position
        self.state.apply(action)
        self.advance()

    def _status(self) -> None:
        s = self.state
        out = Text(f" {s.info.title} ", style="bold reverse")
        out.append(" ")
        if s.to_move is None:
            out.append("Game over: " + (self.mod.end_reason(s.view(self.you)) if self.mod else ""), style="bold")
        elif self.thinking is not None:
            out.append(SPINNER[self.frame % len(SPINNER)] + " AI is thinking: ", style="bold yellow")
            out.append_text(self.seats.with_agent(self.thinking))
        else:
            out.append_text(self.seats.name(s.to_move))
            out.append(", your decision: " + str(s.view(s.to_move).get("decision", "")), style="bold")
        self.status(out)

    def _end(self) -> None:
        """The result first, then the final table; the arrow and page keys scroll them."""
        view = self.state.view(self.you)
        self.show_end(Group(self.end_result(view, why=False),
                            Text("q leaves · l history · h rules · ↑↓ PgUp PgDn scroll", style="dim")), view)
        self.query_one("#table", VerticalScroll).focus()

    # ---- choosing ----
    @on(OptionList.OptionSelected, "#options")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.shown):
            self._choose(self.shown[event.option_index])

    @on(Input.Submitted, "#entry")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.typed_line(text):
            return
        command = COMMANDS.get(text.lower())
        if command is not None:
            self.query_one("#options").focus()
            getattr(self, f"action_{command}")()
            return
        if not text or not self.shown or self.state.to_move is None:
            return
        if text.isascii() and text.isdigit() and len(text) <= 9:
            n = int(text)
            if 1 <= n <= len(self.shown):
                self._choose(self.shown[n - 1])
                return
            self.notify(f"{n} is no option here: 1 to {len(self.shown)}", severity="error")
            return
        try:
            action = SeatHandle(self.state, self.state.to_move).parse_action(text)
        except IllegalAction:
            self.notify(refusal(text, self.shown).plain, severity="error", timeout=8)
            return
        self._choose(action)

    def typed_line(self, text: str) -> bool:
        """A hook for a line the app reads itself before commands and actions (the remote app's `say TEXT`, chat at
        a server's table): True if it was taken."""
        return False

    def _choose(self, action: Action) -> None:
        to = self.state.to_move
        if to is None or to not in self.humans or action not in self.shown:
            return
        self.state.apply(action)
        self.read[to] = len(self.state.log(to))
        self.query_one("#entry", Input).value = ""
        self.advance()

    def on_key(self, event: events.Key) -> None:
        """A printable key that reached the app (the entry line had no focus: a click elsewhere) goes to the entry
        line, and is read there as if typed in it."""
        entry = self.query_one("#entry", EntryLine)
        ch = event.character
        if (self.focused is not entry and ch and ch.isprintable() and entry.display and self.shown
                and self.screen is self.screen_stack[0]):
            entry.focus()
            event.stop()
            event.prevent_default()
            if not entry.value and ch in KEY_COMMANDS and not self.starts_an_action(ch):
                getattr(self, f"action_{KEY_COMMANDS[ch]}")()
            else:
                entry.insert_text_at_cursor(ch)

    # ---- commands (the same words as the plain mode) ----
    def _highlighted(self) -> str | None:
        i = self.query_one("#options", OptionList).highlighted
        return self.shown[i].text if i is not None and 0 <= i < len(self.shown) else None

    def action_help(self) -> None:
        self.show_page(f"{self.state.info.title}: rules", rules_text(self.game, self._highlighted()))

    def action_history(self) -> None:
        self.show_page("History, as you saw it", log_lines(self.state.log(self.you), self.seats), end=True)

    def action_hints(self) -> None:
        to = self.state.to_move
        if to is None or to not in self.humans:
            self.notify("hints are for your own decision", severity="warning")
            return
        self.push_screen(HintScreen(SeatHandle(self.state, to), self.shown, self.seats))

    def action_undo(self) -> None:
        seat = self.you
        if seat is None:
            return
        if self.state.undoable(seat) < 1:
            self.notify(f"nothing to take back: {self.state.undo_refusal(seat)}", severity="warning")
            return
        self.generation += 1
        self.state = self.state.undo(seat, 1)
        self.notify("your last action was taken back")
        self.advance()

    def concede_words(self) -> str:
        """What conceding does at this table, in a player's words (asked before it is confirmed)."""
        if self.state.players == 2 or len(self.state.conceded) == self.state.players - 2:
            return "the game ends at once and the other side wins"
        return "you are placed last whatever your score, and the AI (medium) plays your seat to the end"

    def action_concede(self) -> None:
        """`concede`, typed twice within 10 s (the first says what it does): the seat concedes (core's
        `State.concede`); with more seats left in the game, the AI plays it on."""
        seat = self.you
        if seat is None:
            return
        why = self.state.concede_refusal(seat)
        if why:
            self.notify(f"no conceding: {why}", severity="warning", markup=False)
            return
        now = time.monotonic()
        if now - self._concede_asked > 10:
            self._concede_asked = now
            self.notify(f"Concede? {self.concede_words()}. Type concede again to confirm.", severity="warning",
                        timeout=10, markup=False)
            return
        self._concede_asked = 0.0
        self.concede(seat)

    def concede(self, seat: int) -> None:
        """Concede for `seat` here: the AI takes the seat over when the game goes on."""
        self.generation += 1
        self.state.concede(seat)
        if not self.state.is_over and seat in self.humans:
            self.humans.remove(seat)
            self.agents[seat] = make_agent("medium", self.state.game, seat)
        self.notify("you conceded" + ("" if self.state.is_over else ": the AI (medium) plays your seat to the end"))
        self.advance()

    def action_others(self) -> None:
        others = getattr(self.mod, "others", None)
        if others is not None:
            self.show_page("The other cities", others(self.state.view(self.you), self.seats))

    def action_leave(self) -> None:
        self.generation += 1
        self.exit(Outcome(left=not self.state.is_over, state=self.state))


KEY_COMMANDS = {"?": "hints", "h": "help", "l": "history", "u": "undo", "o": "others", "q": "leave"}
"""The one-key commands of the entry line (each also a binding of the app, shown in its footer)."""
COMMANDS = {"?": "hints", "hint": "hints", "hints": "hints", "h": "help", "help": "help", "rules": "help",
            "l": "history", "history": "history", "log": "history", "u": "undo", "undo": "undo", "q": "leave",
            "quit": "leave", "exit": "leave", "o": "others", "others": "others", "concede": "concede"}


class ReplayApp(TableApp):
    """A saved record stepped through from any seat's view, or, after the end, with every hand laid open."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right,space", "step(1)", "next"),  # the footer names the first key: `n next b back` fit in 80
        Binding("b,left", "step(-1)", "back"),
        Binding("home", "jump(0)", "start", show=False),
        Binding("end", "jump(-1)", "end", show=False),
        Binding("s", "seat", "seat"),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
        Binding("h,f1", "help", "help"),
        Binding("l", "history", "history"),
        Binding("o", "others", "other cities"),
        Binding("q,escape", "leave", "quit"),
    ]

    def __init__(self, record: dict[str, Any], seat: int | None = None, step: int = 0) -> None:
        super().__init__(record["game"], record["players"])
        self.record = record
        self.total = len(record["actions"])
        self.step = max(0, min(step, self.total))
        self.final = tabletop.replay(record)
        self.seat: int | str | None = seat  # an int, None (a spectator) or "open" (every hand, after the end)
        self.seats = seat_names(self.final.view(None), record["players"], None, seat)
        self._cache: dict[int, State] = {}

    def on_mount(self) -> None:
        for sel in ("#table", "#history"):  # the arrow, Home and End keys step through the record
            self.query_one(sel).can_focus = False
        self.fit()
        self.redraw()

    def state_at(self, step: int) -> State:
        if step not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[step] = tabletop.replay(self.record, upto=step)
        return self._cache[step]

    def redraw(self) -> None:
        assert self.mod is not None
        state = self.state_at(self.step)
        open_ = self.seat == "open"
        seat = None if open_ or self.seat is None else int(self.seat)
        self.seats = self.seats.seen_by(seat)
        view = state.view(seat)
        if not state.is_over:
            self.leave_end()
        self.show_table(view, state.log(seat))
        who = "every hand laid open" if open_ else ("a spectator" if seat is None else self.seats.plain(seat))
        self.status(Text.assemble((f" {state.info.title} replay ", "bold reverse"),
                                  f" after {self.step}/{self.total} actions, as {who} saw it"))
        last: RenderableType | None = None
        if self.step:
            before = self.state_at(self.step - 1).view(seat)["log_pos"]
            new = state.log(seat, before)
            last = Text.assemble(("last action: ", "bold"),
                                 log_lines(new, self.seats) if new else Text("nothing visible"))
        hands = self.mod.open_hands([state.view(i) for i in range(state.players)], self.seats) if open_ else None
        notice = self.query_one("#notice", Static)
        if state.is_over:  # the result first, then the last action and the final table
            self.show_end(Group(self.end_result(view), Text("← back · s another seat's view (then every hand) · "
                                                            "↑↓ PgUp PgDn scroll", style="dim")), view, last)
            notice.display = hands is not None
            notice.update(hands or "")
            return
        notice.update(Group(*[p for p in (last, hands) if p is not None]))

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(self.total, self.step + delta))
        if self.seat == "open" and self.step < self.total:
            self.seat = None
        self.redraw()

    def action_jump(self, where: int) -> None:
        self.step = self.total if where < 0 else where
        self.action_step(0)

    def action_scroll(self, rows: int) -> None:
        table = self.query_one("#table", VerticalScroll)
        table.scroll_relative(y=rows if abs(rows) == 1 else rows * max(1, table.size.height - 1) // 10,
                              animate=False)

    def action_seat(self) -> None:
        """Cycle: spectator, p0, p1, ..., then every hand open (only at the end of a finished game)."""
        order: list[int | str | None] = [None, *range(self.players)]
        if self.step == self.total and self.final.is_over:
            order.append("open")
        i = order.index(self.seat) if self.seat in order else 0
        self.seat = order[(i + 1) % len(order)]
        self.redraw()

    def action_help(self) -> None:
        self.show_page(f"{self.final.info.title}: rules", rules_text(self.game))

    def action_history(self) -> None:
        seat = self.seat if isinstance(self.seat, int) else None
        self.show_page("History, as this seat saw it", log_lines(self.state_at(self.step).log(seat), self.seats),
                       end=True)

    def action_others(self) -> None:
        others = getattr(self.mod, "others", None)
        if others is not None:
            seat = self.seat if isinstance(self.seat, int) else None
            self.show_page("The other cities", others(self.state_at(self.step).view(seat), self.seats))

    def action_leave(self) -> None:
        self.exit(Outcome(left=False, state=self.final))
