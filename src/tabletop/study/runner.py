"""Running a study: the plan of blocks, one game per task on a backend, batches appended as Parquet part files.

The plan is an endless sequence of blocks, each fixed by the study seed and its number alone: its cell (a full
design takes the cells in turn, a random one draws every factor's level), its deal seed, and its games (one per seat
rotation when the lineup mixes agents and `rotate_seats` is on, else one). A run plays the blocks not yet in the
dataset, in order, a batch at a time; each batch becomes one part file, written whole (under a temporary name, then
renamed), so an interruption loses at most the batch in flight. Running again resumes; a larger budget or a tighter
target extends the same dataset (the study file's identity must not change: `StudySpec.identity`).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from tabletop.agents import make_agent, play_game
from tabletop.arena.backends import Backend, LocalBackend
from tabletop.arena.schedule import derive_seed
from tabletop.arena.stats import places, wilson, win_shares
from tabletop.core import Rng, game_info, new_game
from tabletop.core import games as registered_games
from tabletop.study.features import game_features
from tabletop.study.spec import FIGURES, Cell, StudyError, StudySpec, level_label, parse_study

SPEC_FILE = "_study.toml"
"""The copy of the study file in a dataset directory: its name starts with `_`, which pyarrow.dataset, pandas and
DuckDB skip, so the directory reads as a dataset as it is."""
OLD_SPEC_FILE = "study.toml"
"""Where a dataset written before kept its study file (moved to SPEC_FILE when the study is run or reported)."""


def _migrate(p: Path) -> None:
    old, new = p / OLD_SPEC_FILE, p / SPEC_FILE
    if old.exists() and not new.exists():
        os.replace(old, new)


@dataclass(frozen=True)
class GameTask:
    """One game of a study: everything a worker needs to play it and label its row."""

    block: int
    game_in_block: int
    game: str
    players: int
    seed: int  # the deal (the same for every game of a block)
    specs: tuple[str, ...]  # per seat, after rotation
    agent_seeds: tuple[int, ...]
    options: dict[str, Any]
    agents: str  # the lineup's label
    factors: dict[str, str]  # varied option -> level label
    module: str = ""
    max_steps: int | None = None  # the study's step limit (None: none)


def block_cell(spec: StudySpec, cells: Sequence[Cell], block: int) -> Cell:
    """The cell of block `block`: in turn for a full design, each factor drawn for a random one."""
    if spec.kind == "full":
        return cells[block % len(cells)]
    rng = Rng(derive_seed(spec.seed, block, 2))
    n = spec.players[rng.below(len(spec.players))]
    lineup = spec.agents[rng.below(len(spec.agents))]
    options = {k: spec.options[k][rng.below(len(spec.options[k]))] for k in sorted(spec.options)}
    return Cell(n, tuple(list(lineup) + [lineup[-1]] * (n - len(lineup))), options)


def block_tasks(spec: StudySpec, cells: Sequence[Cell], block: int) -> list[GameTask]:
    """The games of block `block`."""
    cell = block_cell(spec, cells, block)
    k = cell.players
    rotations = k if spec.rotate_seats and len(set(cell.lineup)) > 1 else 1
    deal = derive_seed(spec.seed, block)
    module = game_info(spec.game).state_class.__module__
    factors = {name: level_label(v) for name, v in cell.options.items()}
    out = []
    for g in range(rotations):
        specs = tuple(cell.lineup[(s + g) % k] for s in range(k))
        seeds = tuple(derive_seed(spec.seed, block, g, s, 1) for s in range(k))
        out.append(GameTask(block, g, spec.game, k, deal, specs, seeds, dict(cell.options), cell.agents, factors,
                            module, spec.max_steps))
    return out


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one game (in whichever process or cluster node) and return its dataset row."""
    if task.module and task.game not in registered_games():
        importlib.import_module(task.module)
    state = new_game(task.game, task.players, task.seed, task.options)
    agents = [make_agent(s, task.game, seed) for s, seed in zip(task.specs, task.agent_seeds, strict=True)]
    kinds: set[str] = set()
    result = play_game(state, agents, on_action=lambda _s, _seat, action: kinds.add(action.verb.split(" ")[0]),
                       max_steps=task.max_steps)
    scores = [float(x) for x in state.scores()]
    cooperative = game_info(task.game).cooperative
    if result.cut:  # stopped unfinished at the step limit: no winner, no places; every figure leaves it out
        winners: list[int] = []
        shares = [0.0] * task.players
        placed: list[int] = []
    else:
        winners = list(state.winners())
        shares = [1.0 if p in winners else 0.0 for p in range(task.players)] if cooperative else \
            win_shares(task.players, winners)
        placed = places(scores, winners)
    row: dict[str, Any] = {
        "block": task.block, "game": task.game_in_block, "seed": task.seed, "players": task.players,
        "agents": task.agents, "options": json.dumps(task.options, sort_keys=True),
        **{f"opt_{k}": v for k, v in task.factors.items()},
        "specs": list(task.specs), "agent_seeds": list(task.agent_seeds),
        "scores": scores, "places": placed, "winners": winners, "shares": shares, "cut": result.cut,
        "length": len(state.record()["actions"]), "decisions": list(result.decisions),
        "seconds": [round(s, 6) for s in result.seconds],
        "action_kinds": sorted(kinds),
    }
    for name, values in game_features(task.game).seat_features(state).items():
        row[f"seat_{name}"] = list(values)
    return row


# ---- the dataset -------------------------------------------------------------------------------------------------
def _schema(rows: Sequence[dict[str, Any]]) -> Any:
    import pyarrow as pa

    fixed = {
        "block": pa.int64(), "game": pa.int32(), "seed": pa.int64(), "players": pa.int32(), "agents": pa.string(),
        "options": pa.string(), "specs": pa.list_(pa.string()), "agent_seeds": pa.list_(pa.int64()),
        "scores": pa.list_(pa.float64()), "places": pa.list_(pa.int32()), "winners": pa.list_(pa.int32()),
        "shares": pa.list_(pa.float64()), "length": pa.int32(), "decisions": pa.list_(pa.int32()),
        "seconds": pa.list_(pa.float64()), "action_kinds": pa.list_(pa.string()), "cut": pa.bool_(),
    }
    fields = [pa.field(k, t) for k, t in fixed.items()]
    first = rows[0]
    for k in first:
        if k in fixed:
            continue
        if k.startswith("opt_"):
            fields.append(pa.field(k, pa.string()))
        else:  # a per-seat feature
            kinds = {type(x) for r in rows for x in r[k]}
            t = pa.string() if str in kinds else pa.float64() if float in kinds else \
                pa.bool_() if kinds == {bool} else pa.int64()
            fields.append(pa.field(k, pa.list_(t)))
    return pa.schema(fields)


def part_files(out: Path) -> list[Path]:
    """The dataset's part files, in the order they were written."""
    return sorted(out.glob("part-*.parquet"))


def read_rows(out: str | Path, columns: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Every row of a dataset directory, in block and game order: the games cut at the step limit too (`cut`
    true; a part file written before the column holds none, and its rows read `cut` false)."""
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = []
    for p in part_files(Path(out)):
        table = pq.read_table(p)
        names = [c for c in columns if c in table.column_names] if columns is not None else None
        got = table.select(names).to_pylist() if names is not None else table.to_pylist()
        if "cut" not in table.column_names and (columns is None or "cut" in columns):
            for row in got:
                row["cut"] = False
        rows.extend(got)
    rows.sort(key=lambda r: (r["block"], r["game"]))
    return rows


def write_part(out: Path, rows: Sequence[dict[str, Any]]) -> Path:
    """Write one batch as a part file, whole or not at all (a temporary name, then an atomic rename)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = sorted(rows, key=lambda r: (r["block"], r["game"]))
    name = f"part-{rows[0]['block']:09d}-{rows[-1]['block']:09d}.parquet"
    tmp = out / f".{name}.tmp"
    pq.write_table(pa.Table.from_pylist(list(rows), schema=_schema(rows)), tmp)
    final = out / name
    os.replace(tmp, final)
    return final


def open_dataset(spec: StudySpec, out: str | Path) -> Path:
    """Make `out` the dataset of `spec`: a new directory gets a copy of the study file; an existing one must hold
    the same study (the same identity: game, seed, design, factors), else a StudyError says what differs."""
    p = Path(out)
    stored = p / SPEC_FILE
    if p.exists() and not p.is_dir():
        raise StudyError(f"{out} is a file, not a dataset directory")
    if p.is_dir():
        _migrate(p)
    if stored.exists():
        old = parse_study(stored.read_text(encoding="utf-8"), str(stored))
        a, b = old.identity(), spec.identity()
        diff = [k for k in {**a, **b} if a.get(k) != b.get(k)]
        if diff:
            raise StudyError(f"{out} holds another study (its {', '.join(diff)} differ from this file's); give "
                             "another --out, or change only [stop] (budget, figure, target) to extend it")
    elif p.exists() and any(p.iterdir()):
        raise StudyError(f"{out} is not empty and holds no {SPEC_FILE}: not a study dataset; give another --out")
    p.mkdir(parents=True, exist_ok=True)
    for tmp in p.glob(".part-*.tmp"):  # a batch interrupted while being written
        tmp.unlink()
    stored.write_text(spec.source, encoding="utf-8")
    return p


def stored_spec(out: str | Path) -> StudySpec:
    """The study a dataset directory holds."""
    if Path(out).is_dir():
        _migrate(Path(out))
    stored = Path(out) / SPEC_FILE
    if not stored.exists():
        raise StudyError(f"{out} holds no {SPEC_FILE}: not a study dataset (run `tabletop study FILE --out DIR`)")
    return parse_study(stored.read_text(encoding="utf-8"), str(stored))


# ---- stopping figures --------------------------------------------------------------------------------------------
def _halfwidth(cells: dict[Any, list[float]]) -> float:
    if not cells:
        return math.inf
    worst = 0.0
    for wins, n in cells.values():
        lo, hi = wilson(wins, n)
        worst = max(worst, (hi - lo) / 2)
    return worst


def figure_value(spec: StudySpec, rows: Iterable[dict[str, Any]], figure: str | None = None) -> float:
    """The value of a named stopping figure (`spec.FIGURES`) over the rows so far, the games cut at the step limit
    left out (inf before any game)."""
    name = figure or spec.figure
    cells: dict[Any, list[float]] = {}

    def add(key: Any, win: float) -> None:
        c = cells.setdefault(key, [0.0, 0.0])
        c[0] += win
        c[1] += 1

    own = game_features(spec.game).stops.get(name or "")
    if name not in FIGURES and own is None:
        raise StudyError(f"unknown figure {name!r}")
    column = f"seat_{own.column}" if own is not None else "seat_position"
    for r in rows:
        if r.get("cut"):  # a game cut at the step limit has no result
            continue
        n = r["players"]
        if name == "perfect_halfwidth":
            key = (n, r["agents"], *(r.get(f"opt_{k}") for k in sorted(spec.options)))
            add(key, float(bool(r["winners"])))
        elif own is not None and own.kind == "kinds":
            for p in range(n):
                for kind in set(filter(None, r[column][p].split("|"))):
                    add(kind, r["shares"][p])
        else:  # the win rates by player count and the value of a seat column (seat_win_halfwidth: position)
            for p in range(n):
                add((n, r[column][p]), r["shares"][p])
    return _halfwidth(cells)


# ---- the run -----------------------------------------------------------------------------------------------------
@dataclass
class StudyRun:
    """What a run did: games in the dataset before and after, why it stopped, the stopping figure's value."""

    out: Path
    games_before: int
    games: int
    reason: str  # "budget", "target", "interrupted"
    figure: float | None
    seconds: float
    backend: str
    startup_seconds: float = 0.0
    parts: list[Path] = field(default_factory=list)

    @property
    def played(self) -> int:
        """Games played by this run."""
        return self.games - self.games_before


_LIGHT = ("block", "game", "players", "agents", "shares", "winners", "seat_position", "cut")
"""The columns the stopping rule reads (with the varied options and the game's own stopping figures' columns)."""


def _light(spec: StudySpec) -> tuple[str, ...]:
    own = tuple(f"seat_{f.column}" for f in game_features(spec.game).stops.values())
    return (*_LIGHT, *own)


def run_study(
    spec: StudySpec,
    out: str | Path,
    backend: Backend | None = None,
    budget: int | None = None,
    target: float | None = None,
    progress: bool = False,
    console: Console | None = None,
) -> StudyRun:
    """Play `spec` into the dataset directory `out` until its stopping rule holds; resumable and extendable.

    `budget` and `target` override the file's `[stop]` games and target. A KeyboardInterrupt stops after
    dropping the batch in flight (reason "interrupted"); the batches written stay.
    """
    path = open_dataset(spec, out)
    budget = spec.budget if budget is None else budget
    target = spec.target if target is None else target
    if budget < 1:
        raise StudyError(f"the budget must be at least one game, not {budget}")
    cells = spec.cells()
    keep = _light(spec)
    light = read_rows(path, [*keep, *(f"opt_{k}" for k in spec.options)])
    done = {r["block"] for r in light}
    before = len(light)
    own = backend is None
    backend = backend or LocalBackend(1)
    t0 = time.perf_counter()
    reason = "budget"
    value = figure_value(spec, light) if spec.figure else None
    parts: list[Path] = []
    bar = _progress(console) if progress else None
    try:
        if bar is not None:
            bar.start()
            task = bar.add_task(_describe(spec, value, target), total=budget, completed=min(before, budget))
        nxt = 0
        while True:
            if spec.figure is not None and value is not None and target is not None and \
                    len(light) >= spec.min_games and value <= target:
                reason = "target"
                break
            if len(light) >= budget:
                break
            batch: list[GameTask] = []
            while len(light) + len(batch) < budget and len(batch) < spec.batch:
                if nxt not in done:
                    batch.extend(block_tasks(spec, cells, nxt))
                nxt += 1
            rows: list[dict[str, Any]] = []
            try:
                for row in backend.imap_unordered(play_task, batch):
                    rows.append(row)
                    if bar is not None:
                        bar.advance(task)
            except KeyboardInterrupt:
                reason = "interrupted"
                break
            parts.append(write_part(path, rows))
            done.update(r["block"] for r in rows)
            light.extend({k: r.get(k) for k in r if k in keep or k.startswith("opt_")} for r in rows)
            if spec.figure is not None:
                value = figure_value(spec, light)
                if bar is not None:
                    bar.update(task, description=_describe(spec, value, target))
    finally:
        if bar is not None:
            bar.stop()
        if own:
            backend.close()
    return StudyRun(path, before, len(light), reason, value, time.perf_counter() - t0, backend.name,
                    backend.startup_seconds, parts)


def _describe(spec: StudySpec, value: float | None, target: float | None) -> str:
    if spec.figure is None or value is None:
        return spec.name
    shown = "-" if math.isinf(value) else f"{100 * value:.2f}"
    return f"{spec.name}: {spec.figure} {shown} pp (target {100 * (target or 0):.2f})"


def _progress(console: Console | None) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=console or Console(stderr=True),
    )
