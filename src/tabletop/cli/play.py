"""`tabletop play` and `tabletop replay`: games in the terminal, drawn with rich from one seat's view."""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
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
        shown = menu_order(legal)
        self.console.print(menu(legal))
        while True:
            answer = Prompt.ask(f"p{seat.seat} \\[number, action text, ? hints, q quits]", console=self.console)
            answer = answer.strip()
            if answer in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if answer == "?":
                self._hints(seat, shown)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(shown):
                return shown[int(answer) - 1]
            try:
                return seat.parse_action(answer)
            except IllegalAction:
                self.console.print(refusal(answer, shown))

    def _hints(self, seat: SeatHandle, shown: list[Action]) -> None:
        try:
            from tabletop.agents.ismcts import hints
        except ImportError:
            self.console.print("[yellow]hints need the ISMCTS agent, which is not installed[/]")
            return
        with self.console.status("thinking from your seat's view..."):
            ranked = hints(seat, iters=self.hint_iters)
        self.console.print(hint_table(ranked, shown))


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


def menu(legal: list[Action]) -> RenderableType:
    """The numbered menu: one action a line when short, else one line per shared beginning (`bid 3: 15 s22 ...`)."""
    table = Table(show_header=False, box=None, padding=(0, 2))
    if not _grouped(legal):
        table.add_column(justify="right", style="bold cyan")
        table.add_column()
        for i, a in enumerate(legal):
            table.add_row(str(i + 1), a.text)
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


def refusal(answer: str, shown: list[Action]) -> Text:
    """What to say when a typed text is no legal action: closest legal texts, never the whole (long) list."""
    out = Text(f"'{answer}' is not legal now (not one of the actions above).", style="red")
    number = {a.text: i + 1 for i, a in enumerate(shown)}
    close = difflib.get_close_matches(answer.lower(), list(number), n=3, cutoff=0.5)
    if close:
        out.append(" Did you mean " + " or ".join(f"{number[c]} ({c})" for c in close) + "?", style="yellow")
    out.append(" Type a number from the menu or an action's text as shown.", style="red")
    return out


def hint_table(ranked: list[tuple[Action, int, float]], shown: list[Action]) -> RenderableType:
    """The search's top actions with their menu number, how often it tried each and its estimated value."""
    table = Table(box=None, padding=(0, 2))
    table.add_column("#", justify="right", style="bold cyan")
    table.add_column("action")
    table.add_column("tries", justify="right")
    table.add_column("value", justify="right")
    for action, visits, value in ranked:
        number = str(shown.index(action) + 1) if action in shown else ""
        table.add_row(number, action.text, str(visits), f"{value:.2f}")
    if not ranked:
        table.add_row("", "no hint: nothing to choose", "", "")
    return Group(Text("Hints: the search's favourite actions, from your view only", style="bold"), table,
                 Text("value: your estimated result, 0 (worst) to 1 (best: a win, or the team's best score)",
                      style="dim"))


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
    if args.resume is not None:
        state = _resume(args)
        players = state.players
    else:
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
    if info.cooperative:
        result = "the team wins" if winners else "the team did not win"
        console.print(f"[bold]team score {scores[0]:g}: {result}[/]")
    else:
        console.print("scores: " + ", ".join(f"p{i} {s:g}" for i, s in enumerate(scores)))
        console.print("[bold]winners: " + (", ".join(f"p{w}" for w in winners) or "none") + "[/]")
    _offer_save(console, state, args.save)
    return 0


def _resume(args: argparse.Namespace) -> State:
    """The game of a saved record, replayed to where it stopped, for `play --resume FILE`."""
    record = load_record(args.resume)
    if record["game"] != args.game:
        raise tabletop.InvalidRecord(f"{args.resume} is a record of {record['game']}, not of {args.game}")
    if args.option or args.seed is not None or (args.players and args.players != record["players"]):
        raise tabletop.InvalidOptions("--resume takes players, seed and options from the record; drop them")
    state = tabletop.replay(record)
    if state.is_over:
        raise tabletop.InvalidRecord(f"the game in {args.resume} is already over; replay it with tabletop replay")
    return state


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
            actor = tabletop.replay(record, upto=step - 1).to_move
            console.print(f"last action: p{actor} [bold]{actions[step - 1]}[/]")
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
    p.add_argument("--resume", metavar="FILE", help="continue the unfinished game saved in FILE")
    p.add_argument("--verbose", action="store_true", help="note each decision of the AI seats")
    p.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="step through a saved record")
    r.add_argument("file", type=Path)
    r.add_argument("--seat", type=int, default=None, help="show that seat's view (default: spectator)")
    r.add_argument("--end", action="store_true", help="show only the final position")
    r.set_defaults(func=cmd_replay)
