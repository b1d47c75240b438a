"""`tabletop loadtest`: bots over WebSocket play whole games against a real server process (see
`tabletop.loadtest`, a client of the server). Needs the `loadtest` extra."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.markup import escape

from tabletop.cli.common import error_line
from tabletop.core import games as registered_games

EXTRA = "pip install 'tabletop[loadtest]'"
"""What installs the load test's dependencies (its bots' httpx and websockets, and the server it starts)."""


def needs_extra(problem: object) -> int:
    """Say which extra to install (on stderr): exit status 2."""
    Console(stderr=True).print(f"[bold red]error:[/] {escape(f'the load test needs its extra: {EXTRA} ({problem})')}",
                               highlight=False)
    return 2


def cmd_loadtest(args: argparse.Namespace) -> int:
    """Run the load test and print its figures (and write them as JSON with --json)."""
    try:
        from tabletop import loadtest
    except ModuleNotFoundError as e:
        return needs_extra(e)
    games = tuple(g.strip() for g in args.games.split(",")) if args.games else None
    known = registered_games()
    unknown = [g for g in games or () if g not in known]
    if (unknown or args.games_at_once < 1 or args.players < 2 or args.max_seconds <= 0 or args.seconds < 0
            or args.ramp < 0 or args.servers < 1 or (args.servers > 1 and args.db == "sqlite")):
        print(error_line(f"bad arguments: games must be among {', '.join(known)}; --games-at-once >= 1, "
                         "--players >= 2, --max-seconds > 0, --seconds >= 0, --ramp >= 0, --servers >= 1 (more "
                         "than one on PostgreSQL only: --db postgresql or a URL)"))
        return 2
    steps = [int(x) for x in args.steps.split(",")] if args.steps else None
    try:
        report = loadtest.run(args.mode, args.db, games, args.games_at_once, args.players, (0.2, 0.8),
                              args.max_seconds, steps, args.step_seconds, args.seed, args.seconds, args.ramp,
                              args.servers)
    except loadtest.ServerFailed as e:  # its last lines of output say why (its extra missing, a bad --db URL, ...)
        print(error_line(e))
        return 2
    except loadtest.NotServed as e:  # e.g. --players 5 for games of at most 4
        print(error_line(e))
        return 2
    except loadtest.ClusterFailed as e:
        print(error_line(f"the throwaway PostgreSQL cluster: {e}"))
        return 2
    print(loadtest.format_report(report))
    if args.plot and "paced" in report:
        loadtest.plot_timeline(report, args.plot)
        print(f"timeline plot: {args.plot}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    bad = any(report.get(k, {}).get(f, 0) for k in ("paced",) for f in ("errors", "lost_events", "duplicated_events"))
    bad = bad or any(s["errors"] or s["lost_events"] or s["duplicated_events"]
                     for s in report.get("saturation", {}).get("steps", []))
    return 1 if bad else 0


def add_parser(sub: Any) -> None:
    """Register `tabletop loadtest`."""
    p = sub.add_parser("loadtest", help="bots play whole games over WebSocket against a real server process")
    p.add_argument("--mode", choices=("paced", "saturation", "both"), default="both",
                   help="paced: games at once with 0.2-0.8 s think time; saturation: no think time, rising load")
    p.add_argument("--db", default="sqlite",
                   help="sqlite (a fresh file), postgresql (a throwaway cluster) or the URL of an empty database")
    p.add_argument("--games-at-once", type=int, default=200, help="paced mode: concurrent games (default 200)")
    p.add_argument("--games", default=None,
                   help="the games to play, in turn, comma-separated (default: every game the server plays with "
                        "--players players)")
    p.add_argument("--players", type=int, default=2, help="players per game, all bots (default 2)")
    p.add_argument("--seconds", type=float, default=120,
                   help="paced mode: each table plays games back to back for this long, the last one to its end "
                        "(default 120; 0: one game per table)")
    p.add_argument("--ramp", type=float, default=20,
                   help="paced mode: the tables sit down one after another over this many seconds (default 20)")
    p.add_argument("--plot", default=None, help="paced mode: draw the run's timeline (latency, games in play, "
                                                "server CPU) to this PNG")
    p.add_argument("--max-seconds", type=float, default=900, help="paced mode: give up on games after this long")
    p.add_argument("--steps", default=None,
                   help="saturation: games at once per step (default 1,2,3,4,6,8,12,16,24,32,48,64)")
    p.add_argument("--step-seconds", type=float, default=20, help="saturation: seconds per step (default 20)")
    p.add_argument("--seed", type=int, default=1, help="the bots' random choices")
    p.add_argument("--servers", type=int, default=1,
                   help="server processes on the one database (more than one: PostgreSQL only); a game's seats "
                        "are spread over them, the server CPU is their sum")
    p.add_argument("--json", default=None, help="also write the full report to this file")
    p.set_defaults(func=cmd_loadtest)
