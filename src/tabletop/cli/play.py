"""`tabletop play` and `tabletop replay`: games in the terminal, drawn with rich from one seat's view."""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

import tabletop
from tabletop.agents import Agent, make_agent, play_game
from tabletop.cli.options import parse_options
from tabletop.core import Action, IllegalAction, SeatHandle, State, View, game_info, load_record, save_record


def renderer(game: str) -> Callable[[View], RenderableType]:
    """The game's `render(view)`, or a plain JSON dump for a game without one."""
    try:
        module = importlib.import_module(f"tabletop.games.{game}.render")
    except ModuleNotFoundError:
        return lambda view: Text(json.dumps(view, indent=1))
    fn: Callable[[View], RenderableType] = module.render
    return fn


class HumanAgent:
    """A person at the terminal: sees the seat's view, picks from a numbered menu or types the action text."""

    name = "human"

    def __init__(self, console: Console, game: str, hint_iters: int = 400) -> None:
        self.console = console
        self.render = renderer(game)
        self.hint_iters = hint_iters

    def act(self, seat: SeatHandle) -> Action:
        """Ask until a legal action is chosen; `?` asks the search agent for hints, `q` quits."""
        legal = seat.legal_actions()
        self.console.rule(f"p{seat.seat}, your decision")
        self.console.print(self.render(seat.view()))
        self._menu(legal)
        while True:
            answer = Prompt.ask(f"p{seat.seat} \\[number, action text, ? hints, q quits]", console=self.console)
            answer = answer.strip()
            if answer in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if answer == "?":
                self._hints(seat)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            try:
                return seat.parse_action(answer)
            except IllegalAction as e:
                self.console.print(f"[red]{e}[/]")

    def _menu(self, legal: list[Action]) -> None:
        table = Table(show_header=False, box=None, padding=(0, 2))
        columns = 3 if len(legal) > 12 else 1
        for _ in range(columns):
            table.add_column(justify="right", style="bold cyan")
            table.add_column()
        rows = (len(legal) + columns - 1) // columns
        for r in range(rows):
            cells: list[str] = []
            for c in range(columns):
                i = c * rows + r
                cells += [f"{i + 1}", legal[i].text] if i < len(legal) else ["", ""]
            table.add_row(*cells)
        self.console.print(table)

    def _hints(self, seat: SeatHandle) -> None:
        try:
            from tabletop.agents.ismcts import hints
        except ImportError:
            self.console.print("[yellow]hints need the ISMCTS agent, which is not installed[/]")
            return
        with self.console.status("thinking from your seat's view..."):
            ranked = hints(seat, iters=self.hint_iters)
        table = Table(title="ISMCTS hints (from your view only)")
        for col in ("action", "visits", "value"):
            table.add_column(col)
        for action, visits, value in ranked[:5]:
            table.add_row(action.text, str(visits), f"{value:.3f}")
        self.console.print(table)


def default_seats(game: str, players: int) -> list[str]:
    """A human in seat 0, heuristic agents elsewhere (random where a game has no heuristic yet)."""
    try:
        importlib.import_module(f"tabletop.games.{game}.heuristic")
        ai = "heuristic"
    except ModuleNotFoundError:
        ai = "random"
    return ["human"] + [ai] * (players - 1)


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game in the terminal."""
    console = Console()
    info = game_info(args.game)
    options = parse_options(args.game, args.option or [])
    players = args.players or (len(args.seats.split(",")) if args.seats else info.default_players)
    state = tabletop.new_game(args.game, players, args.seed, options)
    specs = args.seats.split(",") if args.seats else default_seats(args.game, players)
    if len(specs) != players:
        raise tabletop.InvalidOptions(f"--seats names {len(specs)} seats for a {players}-player game")
    agents: list[Agent] = []
    for i, spec in enumerate(specs):
        if spec.strip() == "human":
            agents.append(HumanAgent(console, args.game))
        else:
            agents.append(make_agent(spec, args.game, (args.seed or 0) * 31 + i))
    humans = [i for i, spec in enumerate(specs) if spec.strip() == "human"]
    watch = humans[0] if humans else None

    def on_action(before: State, seat: int, action: Action) -> None:
        if seat not in humans and args.verbose:
            console.print(Text(f"p{seat} ({specs[seat]}) has decided", style="dim"))

    console.print(f"[bold]{info.title}[/] — {players} players: " + ", ".join(f"p{i} {s}" for i, s in enumerate(specs)))
    try:
        play_game(state, agents, on_action)
    except KeyboardInterrupt:
        console.print("\n[yellow]game left unfinished[/]")
        _offer_save(console, state, args.save)
        return 130
    console.rule("game over")
    console.print(renderer(args.game)(state.view(watch)))
    scores = state.scores()
    winners = state.winners()
    console.print("scores: " + ", ".join(f"p{i} {s:g}" for i, s in enumerate(scores)))
    console.print("winners: " + (", ".join(f"p{w}" for w in winners) or "none"))
    _offer_save(console, state, args.save)
    return 0


def _offer_save(console: Console, state: State, path: str | None) -> None:
    if path is None and console.is_interactive:
        path = Prompt.ask("save the record to (empty: don't save)", default="", console=console) or None
    if path:
        saved = save_record(state.record(), path)
        console.print(f"record saved to {saved}; replay it with: tabletop replay {saved}")


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a saved record."""
    console = Console()
    record = load_record(args.file)
    seat = args.seat
    render = renderer(record["game"])
    actions = record["actions"]
    step = 0 if console.is_interactive and not args.end else len(actions)
    while True:
        state = tabletop.replay(record, upto=step)
        console.rule(f"{record['game']} — after {step}/{len(actions)} actions")
        console.print(render(state.view(seat)))
        if step:
            console.print(f"last action: [bold]{actions[step - 1]}[/]")
        if not console.is_interactive or args.end:
            break
        answer = Prompt.ask("\\[enter] next, b back, a number jumps, q quits", default="", console=console).strip()
        if answer == "q":
            break
        if answer == "b":
            step = max(0, step - 1)
        elif answer.isdigit():
            step = min(len(actions), int(answer))
        else:
            step = min(len(actions), step + 1)
    state = tabletop.replay(record)
    if state.is_over:
        console.print("final scores: " + ", ".join(f"p{i} {s:g}" for i, s in enumerate(state.scores())))
    return 0


def add_parsers(sub: Any) -> None:
    """Register `play` and `replay`."""
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game", help="game name (see `tabletop games`)")
    p.add_argument("--players", type=int, help="number of seats (default: from --seats, else the game's default)")
    p.add_argument("--seats", help="agent spec per seat, e.g. human,random,heuristic,ismcts:iters=2000")
    p.add_argument("--seed", type=int, help="seed for every chance draw (default: random)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option; repeatable")
    p.add_argument("--save", metavar="FILE", help="save the record of the game to FILE")
    p.add_argument("--verbose", action="store_true", help="note each decision of the AI seats")
    p.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="step through a saved record")
    r.add_argument("file", type=Path)
    r.add_argument("--seat", type=int, default=None, help="show that seat's view (default: spectator)")
    r.add_argument("--end", action="store_true", help="show only the final position")
    r.set_defaults(func=cmd_replay)
