"""`tabletop play` and `tabletop replay`: games in the terminal, drawn with rich from one seat's view."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

import tabletop
from tabletop.agents import Agent, InvalidAgentSpec, kinds, make_agent, parse_spec
from tabletop.agents.spec import split_specs
from tabletop.cli.common import Refused, check_new_output, refusal, write_keeping_work
from tabletop.cli.options import parse_options
from tabletop.core import (
    Action,
    IllegalAction,
    LogEntry,
    SeatHandle,
    State,
    View,
    game_info,
    load_record,
    save_record,
)
from tabletop.core.errors import shorten
from tabletop.core.logwords import render as render_entry
from tabletop.core.parts import part
from tabletop.core.seatnames import seat_note


def renderer(game: str) -> Callable[[View], RenderableType]:
    """The game's `render(view)`, or a plain JSON dump for a game without one."""
    module = part(game, "render")
    if module is None:
        return lambda view: Text(json.dumps(view, indent=1))
    fn: Callable[[View], RenderableType] = module.render
    return fn


class LeaveGame(Exception):
    """A person at the terminal leaves the game (`q`, or the end of input): it is left unfinished, not failed."""


class UndoRequest(Exception):
    """A person asks to take back their last action (`undo`); the game loop replaces the state."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class ConcedeRequest(Exception):
    """A person concedes (`concede`, confirmed): the game loop concedes for the seat (core's `State.concede`, or the
    server's at a server table)."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


COMMAND_HELP = (
    "Commands (the same keys in the full-screen app): a number or an action's text chooses it; ? hints from the "
    "search; help or h: this list, help N: what action N does; rules: the game's rules; history or l: everything "
    "you saw happen; undo or u: take back your last action while no one else has acted and nothing hidden was "
    "revealed; concede: give up a competitive game (asked to confirm); q: leave (saving if asked)."
)


def _is_action(answer: str, shown: list[Action]) -> bool:
    return any(a.text == answer for a in shown)


def ask(console: Console, question: str, default: str | None = None) -> str | None:
    """The stripped answer typed at a prompt; None at the end of input (Ctrl-D, a closed stdin), which means `q`."""
    try:
        if default is None:
            answer = Prompt.ask(question, console=console)
        else:
            answer = Prompt.ask(question, default=default, console=console)
    except EOFError:
        console.print()
        return None
    return str(answer).strip()


def _number(answer: str) -> int | None:
    """A typed menu or step number (plain ASCII digits, of a sane length), else None."""
    return int(answer) if answer.isascii() and answer.isdigit() and len(answer) <= 9 else None


class HumanAgent:
    """A person at the terminal: sees the seat's view, picks from a numbered menu or types the action text."""

    name = "human"

    def __init__(self, console: Console, game: str, hint_iters: int | None = None,
                 undoable: Callable[[int], int] | None = None, hint_seconds: float = 2.0,
                 undo_refusal: Callable[[int], str] | None = None,
                 concede_refusal: Callable[[int], str] | None = None) -> None:
        self.console = console
        self.game = game
        self.render = renderer(game)
        self.hint_iters = hint_iters  # None: the search runs for `hint_seconds`
        self.hint_seconds = hint_seconds
        self.undoable = undoable  # how many of a seat's actions it may take back (None: no undo here)
        self.undo_refusal = undo_refusal  # why a seat may take nothing back, in words
        self.concede_refusal = concede_refusal  # why a seat may not concede ("" if it may; None: not offered)

    def act(self, seat: SeatHandle) -> Action:
        """Ask until a legal action is chosen; `?` hints, `help`/`rules`, `history`, `undo`, `q` quits."""
        legal = seat.legal_actions()
        self.console.rule(f"P{seat.seat + 1}, your decision")
        self.console.print(self.render(seat.view()))
        shown = menu_order(legal)
        self.console.print(menu(legal, seat.players, seat.seat))
        while True:
            answer = ask(self.console, f"P{seat.seat + 1} \\[number, action text, ? hints, h help, l history, u undo, "
                                       "q quits]")
            if answer is None or answer in ("q", "quit", "exit"):
                raise LeaveGame
            if self.typed(answer):
                continue
            if answer in ("?", "hint", "hints"):
                self._hints(seat, shown)
                continue
            word, _, rest = answer.partition(" ")
            if word in ("h", "help", "rules") and not _is_action(answer, shown):
                self._help(rest.strip(), shown, rules=word == "rules")
                continue
            if answer in ("l", "history", "log"):
                self.console.print(Text("\n".join(_log_lines(seat.log(), seat.seat)) or "nothing has happened yet"),
                                   highlight=False)
                continue
            if answer == "concede" and not _is_action(answer, shown):
                why = (self.concede_refusal(seat.seat) if self.concede_refusal is not None
                       else "conceding is not offered here")
                if why:
                    self.console.print(f"[yellow]no conceding: {escape(why)}[/]")
                    continue
                sure = ask(self.console, "Concede? With two players the game ends and the other side wins; with "
                                         "more you are placed last and the AI plays your seat. Type yes to concede")
                if sure is not None and sure.lower() in ("y", "yes"):
                    raise ConcedeRequest(seat.seat)
                continue
            if answer in ("u", "undo") and not _is_action(answer, shown):
                can = self.undoable(seat.seat) if self.undoable is not None else 0
                if can < 1:
                    why = (self.undo_refusal(seat.seat) if self.undo_refusal is not None
                           else "this is not a game on this machine")
                    self.console.print(f"[yellow]nothing to take back: {escape(why)}[/]")
                    continue
                raise UndoRequest(seat.seat)
            number = _number(answer)
            if number is not None and 1 <= number <= len(shown):
                return shown[number - 1]
            try:
                return seat.parse_action(answer)
            except IllegalAction:
                self.console.print(refusal(answer, shown))

    def typed(self, answer: str) -> bool:
        """A hook for a line read before the commands and actions (the remote line mode's `say TEXT`, chat at a
        server's table): True if it was taken."""
        return False

    def _help(self, about: str, shown: list[Action], rules: bool) -> None:
        """`help`: the commands, then what an action does (`help 3`, `help play r5`); `rules`: the game's rules."""
        from tabletop.core.help import NoHelp, explain, game_help

        try:
            h = game_help(self.game)
        except NoHelp:
            self.console.print("this game has no help text")
            return
        if rules or about == "rules":
            for r in h["rules"]:
                self.console.print(Text(r["title"], style="bold"))
                self.console.print(r["text"], highlight=False, markup=False)
            return
        if about:
            n = _number(about)
            text = shown[n - 1].text if n is not None and 1 <= n <= len(shown) else about
            self.console.print(Text.assemble((text, "bold"), ": ",
                                             explain(h, text) or "no explanation for that text"))
            return
        self.console.print(COMMAND_HELP, highlight=False, markup=False)
        for n, a in enumerate(shown, 1):
            self.console.print(Text.assemble((f"{n:>3} {a.text}", "bold"), ": ", explain(h, a.text) or ""))

    def _hints(self, seat: SeatHandle, shown: list[Action]) -> None:
        from tabletop.agents.hints import hints

        with self.console.status("thinking from your seat's view..."):
            found = hints(seat, seconds=self.hint_seconds, iters=self.hint_iters)
        self.console.print(hint_table([(c.action, c.visits, c.value) for c in found], shown,
                                      [c.reason for c in found]))


MENU_GROUP_MIN = 9  # shorter menus are listed one action a line
GRID_WIDTH = 90  # widest grid menu (columns), so it fits a 100-column terminal


def _menu_groups(legal: list[Action]) -> list[tuple[str, list[tuple[Action, str]]]]:
    """Actions grouped by their text without its last word (`bid 3 s22` -> `bid 3`: `s22`), first-seen order."""
    groups: dict[str, list[tuple[Action, str]]] = {}
    for a in legal:
        head, _, tail = a.text.rpartition(" ")
        groups.setdefault(head, []).append((a, tail))
    return list(groups.items())


def _grouped(legal: list[Action]) -> bool:
    return len(legal) >= MENU_GROUP_MIN and len(_menu_groups(legal)) < len(legal)


def menu_order(legal: list[Action]) -> list[Action]:
    """The actions in the order the menu numbers them (number k is element k-1)."""
    if not _grouped(legal):
        return list(legal)
    return [a for _, items in _menu_groups(legal) for a, _ in items]


def menu(legal: list[Action], players: int = 0, you: int | None = None) -> RenderableType:
    """The numbered menu: one action a line when short, else one line per shared beginning (`bid 3: 15 s22 ...`);
    an action naming a seat in the notation (`choose p0`) has who that is beside it (`(P1 (you))`)."""
    table = Table(show_header=False, box=None, padding=(0, 2))
    if not _grouped(legal):
        table.add_column(justify="right", style="bold cyan")
        table.add_column()
        for i, a in enumerate(legal):
            note = seat_note(a.text, players, you)
            table.add_row(str(i + 1), Text.assemble(a.text, (f"  ({note})" if note else "", "dim")))
        return table
    groups = _menu_groups(legal)
    tails = [t for _, t in groups[0][1]]
    width = max(len(h) for h, _ in groups) + sum(max(len(t), len(str(len(legal)))) + 2 for t in tails)
    if len(groups) > 1 and width <= GRID_WIDTH and all([t for _, t in items] == tails for _, items in groups):
        # every beginning takes the same endings (bid value x specialist): a grid, endings as columns
        table.show_header = True
        table.padding = (0, 1)
        table.add_column("", style="bold", no_wrap=True)
        for t in tails:
            table.add_column(t, justify="right", style="bold cyan")
        for g, (head, _) in enumerate(groups):
            table.add_row(head, *[str(g * len(tails) + j + 1) for j in range(len(tails))])
        return table
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    k = 0
    for head, items in groups:
        line = Text()
        for _, tail in items:
            k += 1
            if line:
                line.append("   ")
            line.append(f"{k})", style="bold cyan")
            line.append(f" {tail}")
        table.add_row(head, line)
    return table


def hint_table(ranked: list[tuple[Action, int, float]], shown: list[Action],
               reasons: list[str] | None = None) -> RenderableType:
    """The search's top actions with their menu number, how often it tried each, its estimated value and, where the
    search gives one, a one-line reason."""
    table = Table(box=None, padding=(0, 2))
    table.add_column("#", justify="right", style="bold cyan")
    table.add_column("action")
    table.add_column("tries", justify="right")
    table.add_column("value", justify="right")
    why = reasons is not None and any(reasons)
    if why:
        table.add_column("why", style="dim")
    for i, (action, visits, value) in enumerate(ranked):
        number = str(shown.index(action) + 1) if action in shown else ""
        row = [number, action.text, str(visits), f"{value:.2f}"]
        if why:
            assert reasons is not None
            row.append(reasons[i] if i < len(reasons) else "")
        table.add_row(*row)
    if not ranked:
        table.add_row("", "no hint: nothing to choose", "", "")
    return Group(Text("Hints: the search's favourite actions, from your view only", style="bold"), table,
                 Text("value: your estimated result, 0 (worst) to 1 (best: a win, or the team's best score); "
                      "tries: the search samples behind it", style="dim"))


def default_seats(game: str, players: int) -> list[str]:
    """A human in seat 0, heuristic agents elsewhere (random where a game has no heuristic yet)."""
    ai = "heuristic" if part(game, "heuristic") is not None else "random"
    return ["human"] + [ai] * (players - 1)


def check_seats(text: str | None) -> list[str] | None:
    """The agent spec of each seat from `--seats`, each checked before the game starts (None: not given)."""
    if text is None:
        return None
    specs = split_specs(text)  # `;` or `,` between seats; a comma inside `kind:a=1,b=2` continues its parameters
    if not any(specs):
        raise Refused("--seats names no seat; give one agent spec per seat, e.g. human,heuristic,random")
    if not all(specs):
        raise Refused(f"--seats {shorten(text)} has an empty seat; give one agent spec per seat")
    for spec in specs:
        kind, _ = parse_spec(spec)
        if kind != "human" and kind not in kinds():
            known = ", ".join(["human", *kinds()])
            raise InvalidAgentSpec(f"unknown agent kind {shorten(kind)} in --seats; known kinds: {known}")
    return specs


def command_name() -> str:
    """How to run `tabletop` where the person is: `./scripts/play` from a checkout (it sets TABLETOP_COMMAND)."""
    return os.environ.get("TABLETOP_COMMAND") or "tabletop"


def full_screen(args: argparse.Namespace, game: str) -> bool:
    """The full-screen app unless --plain, output or input is not a terminal, or the game has no app renderers."""
    if getattr(args, "plain", False) or not (sys.stdout.isatty() and sys.stdin.isatty()):
        return False
    from tabletop.cli.tui import game_module

    return game_module(game) is not None


def play_plain(box: list[State], agents: list[Agent], on_action: Callable[[State, int, Action], None]) -> State:
    """Play `box[0]` to the end in line mode; an `undo` at a human seat replaces `box[0]` by the core's undo (so
    whoever catches a LeaveGame finds the game as it stands)."""
    state = box[0]
    while state.to_move is not None:
        seat = state.to_move
        try:
            action = agents[seat].act(SeatHandle(state, seat))
        except UndoRequest as u:
            state = box[0] = state.undo(u.seat, 1)
            for agent in agents:
                if isinstance(agent, HumanAgent):
                    agent.undoable = state.undoable
                    agent.concede_refusal = state.concede_refusal
            continue
        except ConcedeRequest as c:
            state.concede(c.seat)
            if not state.is_over:  # the seat is played on, by the AI
                agents = [*agents]
                agents[c.seat] = make_agent("medium", state.game, c.seat)
            continue
        on_action(state, seat, action)
        state.apply(action)
    return state


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game in the terminal: 0 when it ends or a person leaves it (`q`, end of input), 130 on Ctrl-C.
    (`tabletop play --server` goes to cli/remote.py instead: the command's dispatch in cli/main.py.)"""
    if args.game is None:
        raise Refused("name the game to play (see `tabletop games`), or give --server URL --join LINK")
    console = Console()
    info = game_info(args.game)
    save = check_new_output(args.save, "--save", args.force, args.resume) if args.save is not None else None
    given = check_seats(args.seats)
    if args.resume is not None:
        state = _resume(args)
        players = state.players
    else:
        options = parse_options(args.game, args.option or [])
        players = args.players if args.players is not None else (len(given) if given else info.default_players)
        state = tabletop.new_game(args.game, players, args.seed, options)
    specs = given if given is not None else default_seats(args.game, players)
    if len(specs) != players:
        raise tabletop.InvalidOptions(f"--seats names {len(specs)} seats for a {players}-player game")
    humans = [i for i, spec in enumerate(specs) if parse_spec(spec)[0] == "human"]
    ai: list[Agent | None] = [None if i in humans else make_agent(spec, args.game, (args.seed or 0) * 31 + i)
                              for i, spec in enumerate(specs)]
    watch = humans[0] if humans else None
    if full_screen(args, args.game):
        from tabletop.cli.tui import PlayApp

        outcome = PlayApp(state, specs, ai).run()
        if outcome is not None and outcome.state is not None:
            state = outcome.state
        if not state.is_over:
            console.print("[yellow]game left unfinished[/]")
            _offer_save(console, state, save, specs)
            return 0
        _final_lines(console, state, info.cooperative)
        _offer_save(console, state, save, specs)
        return 0
    state.track_undo()
    agents: list[Agent] = [a if a is not None else HumanAgent(console, args.game, undoable=state.undoable,
                                                                         undo_refusal=state.undo_refusal,
                                                                         concede_refusal=state.concede_refusal)
                           for a in ai]

    def on_action(before: State, seat: int, action: Action) -> None:
        if seat not in humans and args.verbose:
            console.print(Text(f"P{seat + 1} ({specs[seat]}) has decided", style="dim"))

    console.print(f"[bold]{info.title}[/] — {players} players: "
                  + ", ".join(f"P{i + 1} {s}" for i, s in enumerate(specs)), highlight=False)
    box = [state]
    try:
        state = play_plain(box, agents, on_action)
    except (LeaveGame, KeyboardInterrupt) as e:
        state = box[0]
        console.print("\n[yellow]game left unfinished[/]")
        _offer_save(console, state, save, specs)
        return 130 if isinstance(e, KeyboardInterrupt) else 0
    console.rule("game over")
    console.print(renderer(args.game)(state.view(watch)))
    _final_lines(console, state, info.cooperative)
    _offer_save(console, state, save, specs)
    return 0


def _final_lines(console: Console, state: State, cooperative: bool) -> None:
    scores = state.scores()
    winners = state.winners()
    if cooperative:
        result = "the team wins" if winners else "the team did not win"
        console.print(f"[bold]team score {scores[0]:g}: {result}[/]")
    else:
        console.print("scores: " + ", ".join(f"P{i + 1} {s:g}" for i, s in enumerate(scores)))
        console.print("[bold]winners: " + (", ".join(f"P{w + 1}" for w in winners) or "none") + "[/]")


def _resume(args: argparse.Namespace) -> State:
    """The game of a saved record, replayed to where it stopped, for `play --resume FILE`.

    A record of another rules version is refused with a message naming both versions (docs/versions.md).
    """
    record = load_record(args.resume)
    if record["game"] != args.game:
        raise tabletop.InvalidRecord(f"{shorten(args.resume)} is a record of {record['game']}, not of {args.game}")
    if args.option or args.seed is not None or (args.players is not None and args.players != record["players"]):
        raise tabletop.InvalidOptions("--resume takes players, seed and options from the record; drop them")
    state = tabletop.replay(record)
    if state.is_over:
        raise tabletop.InvalidRecord(
            f"the game in {shorten(args.resume)} is already over; replay it with tabletop replay"
        )
    return state


SECRET_WARNING = (
    "this record of an unfinished game holds the seed and every secret action: whoever reads it sees every hand "
    "and every future draw. Keep it to resume here (tabletop play GAME --resume FILE); do not share it before the "
    "game is over."
)


def _save(console: Console, state: State, path: Path, specs: list[str] | None = None) -> None:
    """Write the record, keeping it in a fallback file if `path` fails now; say where, and what it reveals."""
    stem = f"tabletop-{state.game}-record"
    saved = write_keeping_work(lambda p: save_record(state.record(), p), path, stem, ".json",
                               lambda msg: console.print(f"[yellow]{escape(msg)}[/]"))
    if saved is None:
        return
    if state.is_over:
        console.print(f"record saved to {saved}; replay it with: {command_name()} replay {saved}", highlight=False)
    else:
        console.print(f"unfinished game saved to {saved}; resume it with: {resume_command(state.game, saved, specs)}",
                      highlight=False)
        console.print(f"[yellow]note: {SECRET_WARNING}[/]")


def resume_command(game: str, path: Path | str, specs: list[str] | None) -> str:
    """The command that continues a saved unfinished game with the same seats."""
    seats = f" --seats {','.join(specs)}" if specs else ""
    return f"{command_name()} play {game} --resume {path}{seats}"


def _offer_save(console: Console, state: State, path: Path | None, specs: list[str] | None = None) -> None:
    """Save to `path` if given; else, at an interactive terminal, ask for a path (end of input: not saved)."""
    while path is None and console.is_interactive:
        answer = ask(console, "save the record to (empty: don't save)", default="")
        if not answer:
            console.print("not saved" + ("" if state.is_over else
                                         f" (to continue a game later, save it, then: "
                                         f"{resume_command(state.game, 'FILE', specs)})"), highlight=False)
            return
        try:
            path = check_new_output(answer, "save")
        except Refused as e:
            console.print(f"[red]{escape(str(e))}[/]")
    if path is not None:
        _save(console, state, path, specs)


def _log_lines(entries: list[LogEntry], reader: int | None = None) -> list[str]:
    """Log entries as lines for `reader` (None: a spectator), each naming its actor ("You ...", "Player 2 ...":
    `logwords.render`).

    These come from the seat's own log (`state.log(seat, ...)`), never from the record's action texts, which hold
    every secret (audit 15)."""
    return [render_entry(e, None, reader) for e in entries]


def _replay_record(path: Path, game: int | None) -> dict[str, Any]:
    """A saved record, or with `--game N` the N-th game (from 1) of an `arena --out` file (JSON lines)."""
    if game is None:
        try:
            return load_record(path)
        except tabletop.InvalidRecord:
            if _arena_lines(path) is not None:
                raise Refused(f"{shorten(str(path))} holds the games of an arena; choose one with --game N") from None
            raise
    lines = _arena_lines(path)
    if lines is None:
        raise Refused(f"--game {game}: {shorten(str(path))} is not an arena --out file (JSON lines of games)")
    if not 1 <= game <= len(lines):
        raise Refused(f"--game {game}: {shorten(str(path))} holds games 1-{len(lines)}")
    from tabletop.core.record import validate_record

    return validate_record(lines[game - 1].get("record"))


def _arena_lines(path: Path) -> list[dict[str, Any]] | None:
    """The games of an `arena --out` file, or None if it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (ValueError, RecursionError):
            return None
        if not isinstance(item, dict) or "record" not in item:
            return None
        out.append(item)
    return out or None


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a saved record, showing only what the chosen seat (default: a spectator) saw."""
    console = Console()
    record = _replay_record(args.file, args.game)
    seat = args.seat
    if seat is not None and not 0 <= seat < record["players"]:
        raise Refused(f"--seat {seat}: this record has seats 0-{record['players'] - 1} (omit --seat for a spectator)")
    who = "a spectator" if seat is None else f"P{seat + 1}"
    render = renderer(record["game"])
    actions = record["actions"]
    final = tabletop.replay(record)  # refuses a bad record before anything is shown
    if full_screen(args, record["game"]):
        from tabletop.cli.tui import ReplayApp

        ReplayApp(record, seat, len(actions) if args.end else 0).run()
        return 0
    step = 0 if console.is_interactive and not args.end else len(actions)
    while True:
        state = tabletop.replay(record, upto=step)
        console.rule(f"{record['game']} — after {step}/{len(actions)} actions, as {who} saw it")
        view = state.view(seat)
        console.print(render(view))
        if step:
            before = tabletop.replay(record, upto=step - 1).view(seat)["log_pos"]
            new = _log_lines(state.log(seat, before), seat)
            console.print(f"last action, as {who} saw it: " + ("; ".join(new) if new else "nothing visible"),
                          highlight=False, markup=False)
        if not console.is_interactive or args.end:
            break
        answer = ask(console, "\\[enter] next, b back, a number jumps, q quits", default="")
        if answer is None or answer == "q":
            break
        if answer == "b":
            step = max(0, step - 1)
        elif _number(answer) is not None:
            step = min(len(actions), _number(answer) or 0)
        else:
            step = min(len(actions), step + 1)
    if final.is_over:
        console.print("final scores: " + ", ".join(f"P{i + 1} {s:g}" for i, s in enumerate(final.scores())))
    return 0


def add_parsers(sub: Any) -> None:
    """Register `play` and `replay`."""
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game", nargs="?", help="game name (see `tabletop games`); none with --server")
    p.add_argument("--players", type=int, help="number of seats (default: from --seats, else the game's default)")
    p.add_argument("--seats", help="agent spec per seat, e.g. human,random,ismcts:iters=2000,rollout=heuristic "
                   "(';' also separates seats); a shipped trained policy is policy:NAME, e.g. policy:silos-3p "
                   "(docs/rl.md, 'Shipped policies')")
    p.add_argument("--seed", type=int, help="seed for every chance draw (default: random)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option; repeatable")
    p.add_argument("--save", metavar="FILE", help="save the record of the game to FILE")
    p.add_argument("--force", action="store_true",
                   help="overwrite the --save file if it exists (a terminal asks; otherwise it is refused)")
    p.add_argument("--resume", metavar="FILE", help="continue the unfinished game saved in FILE")
    p.add_argument("--verbose", action="store_true", help="note each decision of the AI seats")
    p.add_argument("--plain", action="store_true", help="line mode (the default when output is not a terminal)")
    p.add_argument("--server", metavar="URL", help="play a seat of a game on this server (cli/remote.py): with "
                   "--join LINK, or --game-id ID --token TOKEN")
    p.add_argument("--join", metavar="INVITE", help="with --server: the invite link of your seat")
    p.add_argument("--game-id", metavar="ID", help="with --server and --token: the game of a seat you hold")
    p.add_argument("--token", metavar="TOKEN", help="with --server and --game-id: your seat's token")
    p.add_argument("--name", help="with --join: your name at the table")
    p.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="step through a saved record")
    r.add_argument("file", type=Path)
    r.add_argument("--seat", type=int, default=None, help="show that seat's view (default: spectator)")
    r.add_argument("--end", action="store_true", help="show only the final position")
    r.add_argument("--game", type=int, default=None, metavar="N",
                   help="the N-th game (from 1) of an `arena --out` file")
    r.add_argument("--plain", action="store_true", help="line mode (the default when output is not a terminal)")
    r.set_defaults(func=cmd_replay)
