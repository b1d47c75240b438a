"""The `tabletop` command: games, play, replay, bench, arena."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

import tabletop
from tabletop.core import TabletopError, game_info


def cmd_games(args: argparse.Namespace) -> int:
    """List the registered games, then their options."""
    console = Console()
    games = Table(title="Games")
    for col in ("name", "title", "players", "kind", "rules version"):
        games.add_column(col)
    options = Table(title="Options (--option NAME=VALUE)")
    for col in ("game", "option", "default", "allowed values", "meaning"):
        options.add_column(col, overflow="fold")
    for name in tabletop.games():
        info = game_info(name)
        kind = "cooperative" if info.cooperative else "competitive"
        games.add_row(name, info.title, f"{info.min_players}-{info.max_players}", kind, info.version)
        for o in info.options:
            allowed = ", ".join(map(str, o.choices)) + (" (a list: 3,5)" if o.multi else "")
            options.add_row(name, o.name, str(o.default), allowed, o.doc)
    console.print(games)
    console.print(options)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="Play and study SILOS, SiliconVania and Silencio.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list the games and their options")
    p.set_defaults(func=cmd_games)

    from tabletop.cli import bench, play

    play.add_parsers(sub)
    bench.add_parser(sub)
    importlib.import_module("tabletop.cli.serve").add_parser(sub)
    try:
        arena = importlib.import_module("tabletop.cli.arena")
    except ModuleNotFoundError:
        arena = None
    if arena is not None:
        arena.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tabletop` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except TabletopError as e:
        Console(stderr=True).print(f"[bold red]error:[/] {e}")
        return 2
    except KeyboardInterrupt:
        Console(stderr=True).print("\ninterrupted")
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
