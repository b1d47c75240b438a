"""The `tabletop` command: games, play, replay, bench, arena, study, serve, loadtest, review, bot."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

import tabletop
from tabletop.cli.common import error_line, fail
from tabletop.core import Option, TabletopError, game_info
from tabletop.core.errors import shorten


def value_words(option: Option, value: object) -> str:
    """An option value in words: off/on, none for an empty list, P3 for seat 2, off for a module's 0."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ", ".join(value_words(option, v) for v in value) if value else "none"
    if isinstance(value, int) and "player" in option.name:
        return f"P{value + 1}"  # a seat, numbered from 1 as the terminal labels it
    if value == 0 and "0 = off" in option.doc:
        return "off"
    return str(value)


def cmd_games(args: argparse.Namespace) -> int:
    """List the registered games with their summaries, then their options with values in words: a heading and
    indented paragraphs per game, which the terminal wraps between words at any width (80 columns fit)."""
    console = Console()
    for name in tabletop.games():
        info = game_info(name)
        kind = "cooperative" if info.cooperative else "competitive"
        console.print(Text.assemble((name, "bold"), f" — {info.title}, {info.min_players}-{info.max_players} "
                                    f"players, {kind}, rules version {info.version}"))
        console.print(Padding(Text(info.summary), (0, 0, 0, 2)))
        if info.options:
            console.print(Padding(Text("Options (--option NAME=VALUE):", style="dim"), (0, 0, 0, 2)))
        for o in info.options:
            words = [value_words(o, c) for c in o.choices]
            allowed = ", ".join(w if w == str(c) else f"{c} ({w})" for c, w in zip(o.choices, words, strict=True))
            allowed += " (a list: 3,5)" if o.multi else ""
            line = Text.assemble((o.name, "bold cyan"), f": {o.doc}. ",
                                 (f"Default {value_words(o, o.default)}; values: {allowed}.", "dim"))
            console.print(Padding(line, (0, 0, 0, 2)))
        console.print()
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
    sub.choices["play"].set_defaults(func=_play)
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


def _play(args: argparse.Namespace) -> int:
    """`tabletop play`: a local game (cli/play.py), or with --server a seat at a server's table (cli/remote.py, which
    builds on play's pieces: the choice is made here so that play does not import it back)."""
    if args.server is not None:
        from tabletop.cli.remote import cmd_remote

        return cmd_remote(args)
    from tabletop.cli.play import cmd_play

    return cmd_play(args)


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
