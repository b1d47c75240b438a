"""`tabletop study SPEC --out DIR`: run a balance study into a Parquet dataset; `tabletop study report DIR`."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from rich.console import Console

from tabletop.arena.backends import BACKENDS, make_backend
from tabletop.cli.common import Refused, fail
from tabletop.core import TabletopError


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `study` command."""
    p = subparsers.add_parser(
        "study",
        help="run a balance study from a study file, or write its report",
        description=(
            "Run the study file SPEC (TOML, see docs/studies.md) into the dataset directory --out, one Parquet part"
            " file per batch, until its stopping rule holds. Run it again to resume after an interruption, or with"
            " a larger --games or a smaller --target to extend it. `tabletop study report DIR` writes the report"
            " (an HTML page and its PNG plots)."
        ),
    )
    p.add_argument("spec", help="the study file (TOML), or `report` followed by a dataset directory")
    p.add_argument("dataset", nargs="?", default=None, help="(after `report`) the dataset directory")
    p.add_argument("--out", default=None, help="the dataset directory (default: the study file's name + .study)")
    p.add_argument("--games", type=int, default=None, help="the game budget (default: the file's [stop] games)")
    p.add_argument("--target", type=float, default=None, help="the stopping figure's target (default: the file's)")
    p.add_argument("--workers", type=int, default=None,
                   help="local processes (default 1), or Ray CPUs (default: the cluster's)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where games run (default local)")
    p.add_argument("--address", default=None, help="the Ray cluster: auto, or ray://host:port (default: start one)")
    p.add_argument("--report", default=None, metavar="DIR",
                   help="(report) where the HTML and PNGs go (default: DIR/report)")
    p.add_argument("--components", action="append", default=[], metavar="CDIR",
                   help="(report) add the component-value study in CDIR (scripts/study_components.py --out) as a "
                   "section; repeat for more")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the study (0 done, 130 interrupted, 2 refused) or write its report."""
    if args.spec == "report":
        return run_report(args)
    if args.dataset is not None:
        return fail(f"unexpected argument {args.dataset!r} (a study takes one study file; see --help)")
    from tabletop.study import load_study, run_study

    console = Console()
    err = Console(stderr=True)
    try:
        spec = load_study(args.spec)
        out = Path(args.out) if args.out else Path(Path(args.spec).stem + ".study")
        if args.workers is not None and args.workers < 1:
            raise Refused(f"--workers must be at least 1, not {args.workers}")
        if args.backend == "local" and args.address is not None:
            raise Refused("--address is for --backend ray")
        backend = make_backend(args.backend, args.workers, args.address)
        try:
            result = run_study(spec, out, backend, budget=args.games, target=args.target,
                               progress=not args.no_progress, console=err)
        finally:
            backend.close()
    except (TabletopError, ValueError) as e:
        return fail(e)
    shown = "" if result.figure is None or math.isinf(result.figure) else \
        f"; {spec.figure} = {100 * result.figure:.2f} points"
    why = {"target": "target reached", "budget": "budget reached", "interrupted": "interrupted"}[result.reason]
    rate = result.played / result.seconds if result.seconds > 0 else 0.0
    console.print(f"{why}: {result.games} games in {out} ({result.played} this run, {rate:.2f} games/s on "
                  f"{result.backend}){shown}", highlight=False)
    console.print(f"report: tabletop study report {out}", highlight=False)
    if result.reason == "interrupted":
        err.print("the batch in flight was dropped; run the same command again to resume")
        return 130
    return 0


def run_report(args: argparse.Namespace) -> int:
    """Write the report of a dataset directory."""
    if args.dataset is None:
        return fail("study report needs the dataset directory: tabletop study report DIR")
    from tabletop.study.report import write_report

    try:
        html = write_report(args.dataset, args.report, args.components)
    except (TabletopError, ValueError) as e:
        return fail(e)
    Console().print(f"report written to {html}", highlight=False)
    return 0
