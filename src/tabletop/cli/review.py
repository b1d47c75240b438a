"""`tabletop review RECORD --seat N`: a seat's decisions in a finished game, valued by the search from its view.

RECORD is a saved record (`tabletop play --save`, the server's download) or an arena's `--out` file (JSON lines,
one game each: `--game K` picks the K-th, from 1). A progress bar while the search works, then a table of the
decisions (the move played, the best move found, both values, the loss; mistakes marked, with the reason for the
better move) and the seat's estimated result over the game as a text graph; `--plot FILE.png` draws it, the
mistakes marked; `--json FILE` keeps the whole review. See `tabletop.agents.review`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from tabletop.agents.review import SECONDS, Review, review
from tabletop.cli.common import Refused, check_output_path, write_keeping_work
from tabletop.core import InvalidRecord, game_info, load_record, replay, validate_record
from tabletop.core.errors import shorten
from tabletop.core.seatnames import seat_names

BARS = " ▁▂▃▄▅▆▇█"


def add_parser(sub: Any) -> None:
    """`tabletop review`."""
    p = sub.add_parser("review", help="review a seat's decisions in a finished game (a record or an arena game)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", help="a record file, or an arena --out file (JSON lines)")
    p.add_argument("--seat", type=int, required=True, help="the seat to review (0 is the first)")
    p.add_argument("--game", type=int, default=None, help="in an arena --out file: the game to review (1 = first)")
    p.add_argument("--seconds", type=float, default=SECONDS, help=f"search time per decision (default {SECONDS})")
    p.add_argument("--iters", type=int, default=None, help="search iterations per decision (with --seconds 0: "
                   "reproducible)")
    p.add_argument("--seed", type=int, default=0, help="the search's seed")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the estimated result over the game")
    p.add_argument("--json", default=None, metavar="FILE", help="write the whole review as JSON")
    p.add_argument("--all", action="store_true", help="list every decision, not only those with a choice")
    p.set_defaults(func=run)


def read_game(path: str, game: int | None) -> dict[str, Any]:
    """The record in `path`: a record file, or the `game`-th line of an arena --out file."""
    file = Path(path)
    if not file.is_file():
        raise Refused(f"{shorten(path)}: no such file")
    text = file.read_text(encoding="utf-8", errors="replace")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "actions" in whole:  # one record
        if game is not None:
            raise Refused(f"--game is for an arena --out file; {shorten(path)} is one record")
        return load_record(path)
    try:
        games = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as e:
        raise InvalidRecord(f"{shorten(path)} is neither a record nor an arena's JSON lines: {e.msg} "
                            f"(line {e.lineno})") from None
    if isinstance(whole, dict) and "record" in whole:  # an arena file of one game
        games = [whole]
    if not games or not all(isinstance(g, dict) and isinstance(g.get("record"), dict) for g in games):
        raise InvalidRecord(f"{shorten(path)} is neither a record nor an arena's JSON lines (each with a record)")
    if game is None:
        if len(games) > 1:
            raise Refused(f"{shorten(path)} holds {len(games)} games: pick one with --game 1..{len(games)}")
        game = 1
    if not 1 <= game <= len(games):
        raise Refused(f"--game {game}: {shorten(path)} holds games 1..{len(games)}")
    record: dict[str, Any] = games[game - 1]["record"]
    validate_record(record)
    return record


def run(args: argparse.Namespace) -> int:
    """Review, print, and write what was asked."""
    seconds = None if args.seconds == 0 else args.seconds
    if seconds is not None and seconds < 0:
        raise Refused(f"--seconds must be positive (or 0 with --iters), not {args.seconds}")
    if args.iters is not None and args.iters < 1:
        raise Refused(f"--iters must be at least 1, not {args.iters}")
    if seconds is None and args.iters is None:
        raise Refused("--seconds 0 needs --iters: a budget per decision")
    plot = check_output_path(args.plot, "--plot") if args.plot else None
    out = check_output_path(args.json, "--json") if args.json else None
    record = read_game(args.record, args.game)
    console = Console()
    with Progress(TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                  TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task("review", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(record, args.seat, seconds, args.iters, args.seed, progress)
    console.print(render(result, record, args.all))
    if plot is not None:
        write_keeping_work(lambda p: draw(result, p), plot, f"tabletop-review-{record['game']}", plot.suffix,
                           console.print)
        console.print(f"wrote {plot}")
    if out is not None:
        write_keeping_work(lambda p: p.write_text(json.dumps(result.to_json(), indent=1) + "\n"), out,
                           f"tabletop-review-{record['game']}", ".json", console.print)
        console.print(f"wrote {out}")
    return 0


def _value(r: Review, value: float, score: float | None) -> str:
    if r.measure == "win chance":
        return f"{value:.0%}"
    return f"{value:.2f}" if score is None else f"{value:.2f} ({r.score_label} {score:+.1f})"


def render(r: Review, record: dict[str, Any], every: bool = False) -> Group:
    """The decisions as a table, then the curve as a text graph."""
    seats = seat_names(replay(record, upto=0).view(None), record["players"], None, r.seat)
    title = Text.assemble("Review of ", seats.name(r.seat, you_mark=False),
                          f"'s decisions ({r.measure} as the search saw it from that seat's view then)")
    t = Table(title=title, title_justify="left", box=None, padding=(0, 1))
    for col in ("step", "played", "value", "best found", "value", "loss", ""):
        t.add_column(col, justify="right" if col in ("step", "value", "loss") else "left")
    for d in r.decisions:
        if d.options < 2 and not every:
            continue
        mark = Text("mistake: " + d.reason if d.reason else "mistake", style="bold red") if d.mistake else Text("")
        same = d.best == d.played
        t.add_row(str(d.step + 1), d.played, _value(r, d.played_value, d.played_score),
                  "=" if same else d.best, "" if same else _value(r, d.best_value, d.best_score),
                  f"{d.loss:.2f}" if d.loss >= 0.005 else "", mark)
    choices = sum(1 for d in r.decisions if d.options > 1)
    foot = Text(f"\n{choices} decisions with a choice, {len(r.mistakes)} marked as mistakes "
                f"(a loss of at least 0.10, the largest fifth at most).\n", style="dim")
    foot.append_text(curve_text(r))
    return Group(t, foot)


def curve_text(r: Review, width: int = 72) -> Text:
    """The estimated result over the seat's decisions, one bar a decision (squeezed to `width`), mistakes in red."""
    points = [d for d in r.decisions if d.options > 1] or r.decisions
    if not points:
        return Text("no decision to draw")
    step = max(1, -(-len(points) // width))
    out = Text(f"{r.measure}, decision by decision (0 low, █ high): ")
    for i in range(0, len(points), step):
        chunk = points[i:i + step]
        v = sum(d.estimate for d in chunk) / len(chunk)
        out.append(BARS[min(len(BARS) - 1, max(0, round(v * (len(BARS) - 1))))],
                   style="bold red" if any(d.mistake for d in chunk) else "cyan")
    return out


def draw(r: Review, path: Path) -> Path:
    """The curve as an image, mistakes marked."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 3.2), dpi=110)
    ax = fig.add_subplot()
    xs = [d.step + 1 for d in r.decisions]
    ax.plot(xs, [d.estimate for d in r.decisions], color="#2a7ab0", lw=1.6, label="estimated result (best move)")
    ax.plot(xs, [d.played_value for d in r.decisions], color="#999999", lw=0.8, label="move played")
    bad = r.mistakes
    ax.scatter([d.step + 1 for d in bad], [d.played_value for d in bad], color="#c0392b", zorder=3, label="mistake")
    ax.set_ylim(0, 1)
    ax.set_xlabel("action of the game")
    ax.set_ylabel(r.measure)
    ax.set_title(f"{game_info(r.game).title}: the review of seat {r.seat + 1} ({r.seat})")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    return path
