"""Running a tournament on local processes, with a progress bar; Ctrl-C keeps the games finished so far."""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tabletop.agents import make_agent, play_game
from tabletop.arena.backends import Backend, LocalBackend
from tabletop.arena.schedule import Match, lineup, schedule
from tabletop.arena.stats import GameOutcome, Summary, summarize
from tabletop.core import game_info, new_game
from tabletop.core import games as registered_games


def play_match(match: Match) -> GameOutcome:
    """Play one scheduled game (in whichever process) and return its outcome."""
    if match.module and match.game not in registered_games():
        importlib.import_module(match.module)
    state = new_game(match.game, match.players, match.seed, match.options)
    agents = [make_agent(spec, match.game, s) for spec, s in zip(match.specs, match.agent_seeds, strict=True)]
    result = play_game(state, agents)
    return GameOutcome(
        match.index,
        match.seed,
        list(match.specs),
        [float(x) for x in state.scores()],
        list(state.winners()),
        result.decisions,
        result.seconds,
        state.record(),
    )


@dataclass
class ArenaResult:
    """The outcomes played (in game order), their summary, and whether the run was interrupted."""

    game: str
    lineup: list[str]
    outcomes: list[GameOutcome]
    summary: Summary
    interrupted: bool
    planned: int
    out_error: str | None = None
    """Why writing `out` stopped part-way (the disk filled up, the file vanished), else None: the outcomes are
    all still here, for the caller to keep elsewhere."""


def run_arena(
    game: str,
    specs: Sequence[str],
    games: int,
    players: int | None = None,
    workers: int = 1,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    out: str | Path | None = None,
    progress: bool = False,
    console: Console | None = None,
    on_outcome: Callable[[GameOutcome], None] | None = None,
    backend: Backend | None = None,
) -> ArenaResult:
    """Play `games` games between the agent `specs` with rotated seats; see `tabletop.arena.schedule`.

    Every spec is checked before any game starts. `out` gets one JSON line per finished game (with its record,
    replayable with `tabletop.replay`). A KeyboardInterrupt stops the run and keeps the games finished so far.
    `backend` (see `tabletop.arena.backends`) runs the games, and stays open for the caller; without one, `workers`
    local processes do.
    """
    info = game_info(game)
    seats = lineup(game, specs, players)
    if games < 1:
        raise ValueError(f"an arena plays at least one game, not {games}")
    for spec in dict.fromkeys(seats):
        make_agent(spec, game, 0)  # InvalidAgentSpec before anything runs
    new_game(game, len(seats), 0, options)  # InvalidOptions likewise
    matches = schedule(game, seats, games, seed, options)
    outcomes: list[GameOutcome] = []
    interrupted = False
    out_error: str | None = None
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(Path(out).open("w", encoding="utf-8")) if out is not None else None
        bar = _progress(console) if progress else None
        if backend is None:  # the pool is forked before the progress bar starts its refresh thread
            backend = LocalBackend(workers)
            stack.callback(backend.close)
        if bar is not None:
            stack.enter_context(bar)
            task = bar.add_task(f"{info.title} {len(seats)}p", total=games)
        stream = backend.imap_unordered(play_match, matches)
        try:
            for o in stream:
                outcomes.append(o)
                if sink is not None:
                    try:
                        sink.write(json.dumps(o.to_json()) + "\n")
                        sink.flush()
                    except OSError as e:  # keep playing: the outcomes stay in memory for the caller
                        out_error = e.strerror or str(e)
                        with contextlib.suppress(OSError):
                            sink.close()  # closed now, so the exit stack does not fail on it again
                        sink = None
                if on_outcome is not None:
                    on_outcome(o)
                if bar is not None:
                    bar.advance(task)
        except KeyboardInterrupt:
            interrupted = True
    outcomes.sort(key=lambda o: o.index)
    return ArenaResult(game, seats, outcomes, summarize(outcomes, seats, info.cooperative), interrupted, games,
                       out_error)


def write_outcomes(outcomes: Sequence[GameOutcome], path: str | Path) -> Path:
    """Every outcome as one JSON line (the `--out` format), in game order; returns the path."""
    p = Path(path)
    with p.open("w", encoding="utf-8") as f:
        for o in sorted(outcomes, key=lambda o: o.index):
            f.write(json.dumps(o.to_json()) + "\n")
    return p


def _progress(console: Console | None) -> Progress:
    return Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
    )
