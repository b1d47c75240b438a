"""`tabletop arena GAME --agents SPEC,SPEC,... --games N`: a tournament between agents, printed as a table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from tabletop.agents import make_agent
from tabletop.agents.spec import split_specs as agent_specs
from tabletop.arena import lineup, render_result, run_arena
from tabletop.arena.backends import BACKENDS, make_backend
from tabletop.cli.common import (
    Refused,
    check_new_output,
    check_output_path,
    fail,
    fallback_path,
    write_keeping_work,
)
from tabletop.cli.options import parse_options
from tabletop.cli.play import command_name
from tabletop.core import TabletopError
from tabletop.core.errors import shorten


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `arena` command."""
    p = subparsers.add_parser(
        "arena",
        help="play many games between agents and compare them",
        description=(
            "Play N games between agent specs (random, heuristic, ismcts:iters=2000, ismcts:time=1.0,rollout=heuristic)"
            " with seats rotated so every agent plays every seat equally, and print per-agent figures. With fewer"
            " specs than --players, the last spec fills the remaining seats. Ctrl-C stops and keeps the games"
            " finished so far."
        ),
    )
    p.add_argument("game", help="the game to play")
    p.add_argument("--agents", required=True, help="comma-separated agent specs, one per seat (';' also separates)")
    p.add_argument("--games", type=int, default=20, help="number of games (default 20; use a multiple of --players)")
    p.add_argument("--players", type=int, default=None, help="seats per game (default: the number of specs)")
    p.add_argument("--workers", type=int, default=None,
                   help="local processes (default 1), or Ray tasks in flight (default: the cluster's CPUs)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where games run: local or ray (default local)")
    p.add_argument("--address", default=None, help="the Ray cluster: auto, or ray://host:port (default: start one)")
    p.add_argument("--seed", type=int, default=0, help="arena seed: fixes every deal and agent seed (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--out", default=None, help="write every game (with its replayable record) as JSON lines here")
    p.add_argument("--force", action="store_true",
                   help="overwrite the --out file if it exists (a terminal asks; otherwise it is refused)")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="also draw win shares and score distributions")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def split_specs(text: str) -> list[str]:
    """Agent specs from `--agents` (`tabletop.agents.spec.split_specs`, the same syntax as `play --seats`), empty
    parts dropped."""
    return [spec for spec in agent_specs(text) if spec]


def check_plot_path(path: str) -> Path:
    """A --plot path whose folder is writable and whose suffix names an image format matplotlib writes."""
    p = check_output_path(path, "--plot")
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    suffix = p.suffix.lower().lstrip(".")
    if suffix not in formats:
        raise Refused(f"--plot {shorten(path)}: unknown image format {suffix or '(no suffix)'!r}; "
                      f"use one of: {', '.join('.' + f for f in sorted(formats))}")
    return p


def run(args: argparse.Namespace) -> int:
    """Run the tournament and print its table; 0 when done, 130 when interrupted, 2 on a refused request.

    Output paths are checked before the first game; if one fails at the end anyway, the work goes to a fallback file.
    """
    console = Console()
    err = Console(stderr=True)
    try:
        out = check_new_output(args.out, "--out", args.force) if args.out is not None else None
        plot = check_plot_path(args.plot) if args.plot is not None else None
        if args.workers is not None and args.workers < 1:
            raise Refused(f"--workers must be at least 1, not {args.workers}")
        if args.backend == "local" and args.address is not None:
            raise Refused("--address is for --backend ray")
        specs = split_specs(args.agents)
        options = parse_options(args.game, args.option or [])
        backend = None
        if args.backend != "local":  # the request is checked before a cluster starts
            for spec in dict.fromkeys(lineup(args.game, specs, args.players)):
                make_agent(spec, args.game, 0)
            backend = make_backend(args.backend, args.workers, args.address)
        try:
            result = run_arena(
                args.game,
                specs,
                args.games,
                players=args.players,
                workers=args.workers or 1,
                seed=args.seed,
                options=options,
                out=out,
                progress=not args.no_progress,
                console=err,
                backend=backend,
            )
        finally:
            if backend is not None:
                backend.close()
    except (TabletopError, ValueError) as e:
        return fail(e)
    console.print(render_result(result))
    if out is not None and result.out_error is None:
        console.print(f"{len(result.outcomes)} game records written to {out}; replay one with: "
                      f"{command_name()} replay {out} --game N", highlight=False)
    elif out is not None:
        err.print(f"writing {out} stopped: {result.out_error}", highlight=False, markup=False)
        from tabletop.arena.runner import write_outcomes

        spare = fallback_path(f"tabletop-arena-{args.game}", ".jsonl")
        kept = write_keeping_work(lambda p: write_outcomes(result.outcomes, p), spare, spare.stem + "-2", ".jsonl",
                                  lambda msg: err.print(msg, highlight=False, markup=False))
        if kept is not None:
            console.print(f"{len(result.outcomes)} game records written to {kept} instead", highlight=False)
    if plot is not None and result.outcomes:
        from tabletop.arena.plot import plot_result

        stem = f"tabletop-arena-{args.game}"
        written = write_keeping_work(lambda p: plot_result(result, p), plot, stem, ".png",
                                     lambda msg: err.print(msg, highlight=False, markup=False))
        if written is not None:
            console.print(f"plot written to {written}", highlight=False)
    if result.interrupted:
        err.print(f"interrupted: kept the {len(result.outcomes)} games finished")
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run `arena` alone (for testing without the full CLI)."""
    parser = argparse.ArgumentParser(prog="tabletop")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["arena", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))
