"""The `tabletop` command: games, play, replay, bench, arena, study, serve, loadtest, review, bot."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from rich.console import Console
from rich.table import Table

import tabletop
from tabletop.cli.common import error_line, fail
from tabletop.core import Option, TabletopError, game_info
from tabletop.core.errors import shorten


def value_words(option: Option, value: object) -> str:
    """An option value in words: off/on, none for an empty list, p2 for a seat, off for a module's 0."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ", ".join(value_words(option, v) for v in value) if value else "none"
    if isinstance(value, int) and "player" in option.name:
        return f"p{value}"
    if value == 0 and "0 = off" in option.doc:
        return "off"
    return str(value)


def cmd_games(args: argparse.Namespace) -> int:
    """List the registered games with their summaries, then their options with values in words."""
    console = Console()
    games = Table(title="Games")
    for col in ("name", "title", "players", "kind", "rules version", "summary"):
        games.add_column(col, overflow="fold", no_wrap=col in ("name", "players"))
    options = Table(title="Options (--option NAME=VALUE)")
    for col in ("game", "option", "default", "allowed values", "meaning"):
        options.add_column(col, overflow="fold")
    for name in tabletop.games():
        info = game_info(name)
        kind = "cooperative" if info.cooperative else "competitive"
        games.add_row(name, info.title, f"{info.min_players}-{info.max_players}", kind, info.version, info.summary)
        for o in info.options:
            words = [value_words(o, c) for c in o.choices]
            allowed = ", ".join(w if w == str(c) else f"{c} ({w})" for c, w in zip(o.choices, words, strict=True))
            allowed += " (a list: 3,5)" if o.multi else ""
            options.add_row(name, o.name, value_words(o, o.default), allowed, o.doc)
    console.print(games)
    console.print(options)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit status 2); the usage is one `--help` away."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, error_line(f"{message} (see: {self.prog} --help)") + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tabletop", description="Play and study SILOS, SiliconVania and Silencio.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list the games and their options")
    p.set_defaults(func=cmd_games)

    from tabletop.cli import bench, play

    play.add_parsers(sub)
    bench.add_parser(sub)
    importlib.import_module("tabletop.cli.serve").add_parser(sub)
    importlib.import_module("tabletop.cli.loadtest").add_parser(sub)
    try:
        arena = importlib.import_module("tabletop.cli.arena")
    except ModuleNotFoundError:
        arena = None
    if arena is not None:
        arena.add_parser(sub)
    importlib.import_module("tabletop.cli.study").add_parser(sub)
    importlib.import_module("tabletop.cli.review").add_parser(sub)
    importlib.import_module("tabletop.cli.bot").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tabletop` command: its exit status. Never a traceback (set TABLETOP_DEBUG=1 for one).

    0: done (also a game left with `q` or at the end of input); 2: a refused argument, file or request, said on
    one line; 130: interrupted with Ctrl-C; 1: an internal error (a bug), said on one line.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, or an argument argparse refused (already said on one line)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else fail(e.code))
    try:
        code: int = args.func(args)
    except TabletopError as e:
        return fail(e)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except OSError as e:
        where = f" ({shorten(str(e.filename))})" if e.filename else ""
        return fail(f"{e.strerror or e}{where}")
    except Exception as e:
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        print(f"tabletop: internal error: {type(e).__name__}: {shorten(str(e), 200)} "
              "(a bug: please report it; TABLETOP_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
