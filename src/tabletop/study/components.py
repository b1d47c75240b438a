"""Component value by intervention: how much a seat's result moves when it is forbidden one component.

A game declares its components in its features part (`COMPONENTS`: name -> a regular expression over action texts,
e.g. SILOS's locations, Silencio's shrines). The study plays deals; on each deal one seat is the focal seat (rotated
with the deal number) and the deal is played once as it is (the baseline) and once per component with the focal
seat's agent forbidden that component: its seat handle never offers the actions the component's expression matches
(all of them when every legal action matches, which is counted as a fallback). Every other seat, and every seed, is
the same in the baseline and the forbidden game, so the design is paired: the effect of forbidding a component is the
mean over deals of (result forbidden - result baseline), with a 95% interval from the paired differences' standard
error (deals are independent; the seats of one game are one observation, so nothing is counted twice).

The result is the focal seat's win share (competitive games) or the team's perfect game (cooperative), and the focal
seat's score. Each row of the design records its deal, focal seat, the component forbidden ("" for the baseline), how
many decisions the prohibition changed (`bites`) and how many it could not (`fallbacks`).
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.agents import Agent, make_agent, play_game
from tabletop.arena.schedule import derive_seed
from tabletop.arena.stats import win_shares
from tabletop.core import Action, SeatHandle, State, TabletopError, game_info, new_game
from tabletop.study.features import game_features

Z95 = 1.959963984540054


class ComponentError(TabletopError):
    """A component study that cannot run: the message names what is legal."""


def components_of(game: str) -> dict[str, str]:
    """The game's components (name -> regular expression over action texts) from its features part."""
    module = game_features(game).module
    got = getattr(module, "COMPONENTS", None) if module is not None else None
    if not isinstance(got, dict) or not got:
        raise ComponentError(f"{game_info(game).title} declares no COMPONENTS in its features part")
    for name, pattern in got.items():
        try:
            re.compile(pattern)
        except re.error as e:
            raise ComponentError(f"{game_info(game).title}'s component {name!r}: bad expression: {e}") from None
    return dict(got)


class ForbiddenSeat(SeatHandle):
    """A seat handle that never offers the actions a pattern matches (all of them if every legal action does)."""

    __slots__ = ("bites", "fallbacks", "pattern")

    def __init__(self, state: State, seat: int, pattern: str) -> None:
        super().__init__(state, seat)
        self.pattern = re.compile(pattern)
        self.bites = 0
        self.fallbacks = 0

    def forbidden(self, action: Action) -> bool:
        return self.pattern.search(action.text) is not None

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        keep = [a for a in legal if not self.forbidden(a)]
        if not keep:
            self.fallbacks += 1
            return legal
        if len(keep) < len(legal):
            self.bites += 1
        return keep


class ForbiddingAgent:
    """Plays `inner` on a `ForbiddenSeat`: the inner agent only ever sees the allowed actions."""

    def __init__(self, inner: Agent, handle: ForbiddenSeat) -> None:
        self.inner = inner
        self.handle = handle
        self.name = f"{inner.name} (forbidden {handle.pattern.pattern})"

    def act(self, seat: SeatHandle) -> Action:
        action = self.inner.act(self.handle)
        if self.handle.forbidden(action) and any(not self.handle.forbidden(a) for a in seat.legal_actions()):
            raise ComponentError(f"agent {self.inner.name} chose the forbidden {action.text!r}: it must pick from "
                                 "seat.legal_actions()")
        return action


@dataclass(frozen=True)
class ComponentTask:
    """One game of the design: a deal, its focal seat, and the component forbidden ("" for the baseline)."""

    game: str
    players: int
    block: int
    deal: int
    focal: int
    component: str
    pattern: str
    agent: str
    agent_seeds: tuple[int, ...]


def design(game: str, players: int, deals: int, seed: int = 0, agent: str = "heuristic",
           components: dict[str, str] | None = None) -> list[ComponentTask]:
    """Every game of the study: per deal the baseline and one game per component, the focal seat rotated."""
    comps = components if components is not None else components_of(game)
    out = []
    for b in range(deals):
        deal = derive_seed(seed, b)
        seeds = tuple(derive_seed(seed, b, s, 1) for s in range(players))
        for name, pattern in [("", ""), *comps.items()]:
            out.append(ComponentTask(game, players, b, deal, b % players, name, pattern, agent, seeds))
    return out


def play_component_task(task: ComponentTask) -> dict[str, Any]:
    """Play one game of the design and return its row."""
    state = new_game(task.game, task.players, task.deal)
    agents: list[Agent] = [make_agent(task.agent, task.game, s) for s in task.agent_seeds]
    handle = None
    if task.component:
        handle = ForbiddenSeat(state, task.focal, task.pattern)
        agents[task.focal] = ForbiddingAgent(agents[task.focal], handle)
    play_game(state, agents)
    winners = list(state.winners())
    if game_info(task.game).cooperative:
        result = float(bool(winners))
    else:
        result = win_shares(task.players, winners)[task.focal]
    return {"block": task.block, "deal": task.deal, "focal": task.focal, "component": task.component,
            "result": result, "score": float(state.scores()[task.focal]),
            "bites": handle.bites if handle else 0, "fallbacks": handle.fallbacks if handle else 0}


def run_components(tasks: Sequence[ComponentTask], workers: int = 1, progress: bool = False) -> list[dict[str, Any]]:
    """Play the design's games (in `workers` processes) and return their rows in the design's order."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    rows: list[dict[str, Any]] = []
    with Progress(TextColumn("component value"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  disable=not progress) as bar:
        job = bar.add_task("games", total=len(tasks))
        if workers <= 1:
            for t in tasks:
                rows.append(play_component_task(t))
                bar.advance(job)
        else:
            with ProcessPoolExecutor(workers) as pool:
                for row in pool.map(play_component_task, tasks, chunksize=8):
                    rows.append(row)
                    bar.advance(job)
    return rows


@dataclass(frozen=True)
class Effect:
    """The paired effect of forbidding one component on one measure: mean difference and its 95% interval."""

    component: str
    measure: str
    diff: float
    lo: float
    hi: float
    deals: int
    bites: float  # mean decisions per game at which the prohibition removed at least one legal action
    fallbacks: int  # decisions where every legal action was forbidden (all offered)
    changed: int  # deals on which the measure differed between the forbidden and the baseline game


def paired(diffs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of paired differences and its 95% normal interval (a zero-width one when every difference is 0)."""
    n = len(diffs)
    if n < 2:
        raise ComponentError("a paired effect needs at least 2 deals")
    m = sum(diffs) / n
    sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1))
    h = Z95 * sd / math.sqrt(n)
    return m, m - h, m + h


def effects(rows: Sequence[dict[str, Any]]) -> list[Effect]:
    """Per component and measure ("result", "score"), the paired effect of forbidding it."""
    base = {r["block"]: r for r in rows if not r["component"]}
    names = list(dict.fromkeys(r["component"] for r in rows if r["component"]))
    out = []
    for name in names:
        mine = [r for r in rows if r["component"] == name and r["block"] in base]
        for measure in ("result", "score"):
            diffs = [r[measure] - base[r["block"]][measure] for r in mine]
            d, lo, hi = paired(diffs)
            out.append(Effect(name, measure, d, lo, hi, len(mine), sum(r["bites"] for r in mine) / len(mine),
                              sum(r["fallbacks"] for r in mine), sum(1 for x in diffs if x != 0)))
    return out


def measure_words(game: str) -> dict[str, str]:
    """What the measures are, in words, for the game."""
    if game_info(game).cooperative:
        return {"result": "perfect games (points)", "score": "score (cards)"}
    return {"result": "win rate (points)", "score": "score"}


def component_figure(game: str, players: int, found: Sequence[Effect], path: Path) -> list[str]:
    """Draw the effects as a heatmap (component x measure, each cell its effect and 95% interval) at `path`; return
    one sentence per component stating its effect on the result with its interval."""
    import matplotlib
    from matplotlib.figure import Figure

    from tabletop.study.style import FONTS, PAGE_INCHES

    words = measure_words(game)
    names = list(dict.fromkeys(e.component for e in found))
    measures = list(words)
    cell = {(e.component, e.measure): e for e in found}
    scale = {m: 100.0 if m == "result" else 1.0 for m in measures}
    with matplotlib.rc_context(FONTS):
        fig = Figure(figsize=(min(PAGE_INCHES, 8.0), 0.6 * len(names) + 1.8), layout="constrained")
        axes = fig.subplots(1, len(measures))
        for ax, m in zip(axes, measures, strict=True):
            vals = [[scale[m] * cell[n, m].diff] for n in names]
            top = max([abs(v[0]) for v in vals] + [abs(scale[m] * cell[n, m].lo) for n in names]
                      + [abs(scale[m] * cell[n, m].hi) for n in names] + [1e-9])
            ax.imshow(vals, cmap="RdBu", vmin=-top, vmax=top, aspect="auto")
            for i, n in enumerate(names):
                e = cell[n, m]
                ax.text(0, i, f"{scale[m] * e.diff:+.1f}  ({scale[m] * e.lo:+.1f} to {scale[m] * e.hi:+.1f})",
                        ha="center", va="center", fontsize=10)
            ax.set_xticks([0], [words[m]])
            ax.set_yticks(range(len(names)), names if m == measures[0] else [""] * len(names))
        fig.suptitle(f"{game_info(game).title}, {players} players: the change when one seat may not take a "
                     "component (95% CI)")
        fig.savefig(path, dpi=110)
    out = []
    for n in names:
        e = cell[n, "result"]
        if e.changed == 0:  # the paired interval has zero width: say how rarely a change could have gone unseen
            out.append(f"{_who(game, n)} {_outcome(game)} exactly as often as with it: the result changed on none "
                       f"of {e.deals} deals (so on at most {100 * 3 / e.deals:.1f}% of deals, 95% bound), although "
                       f"the ban removed options at {e.bites:.1f} decisions a game.")
            continue
        out.append(f"{_change(game, e)}; the result changed on {e.changed} of {e.deals} deals, and the ban removed "
                   f"options at {e.bites:.1f} decisions a game.")
    return out


def _who(game: str, component: str) -> str:
    return (f"A team whose one seat may not take the {component}" if game_info(game).cooperative
            else f"A seat that may not take the {component}")


def _outcome(game: str) -> str:
    return "makes a perfect game" if game_info(game).cooperative else "wins"


def _change(game: str, e: Effect) -> str:
    """"A seat that may not take the Church wins 19.9 points less often (95% CI -24.9 to -14.9 points)", with "not a
    clear effect" when the interval holds 0."""
    way = "less" if e.diff < 0 else "more"
    words = (f"{_who(game, e.component)} {_outcome(game)} {abs(100 * e.diff):.1f} points {way} often (95% CI "
             f"{100 * e.lo:+.1f} to {100 * e.hi:+.1f} points)")
    return words + (": not a clear effect, its interval holds 0" if e.lo <= 0 <= e.hi else "")


@dataclass(frozen=True)
class ComponentStudy:
    """A component-value study as written to its directory: what was played (components.json) and every row."""

    game: str
    players: int
    deals: int
    seed: int
    agent: str
    rows: list[dict[str, Any]]


def save_components(out: Path, study: ComponentStudy) -> None:
    """Write `study` to `out`: components.json (what was played) and rows.json.gz (every game's row)."""
    out.mkdir(parents=True, exist_ok=True)
    meta = {"game": study.game, "players": study.players, "deals": study.deals, "seed": study.seed,
            "agent": study.agent, "games": len(study.rows)}
    (out / "components.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    (out / "rows.json.gz").write_bytes(gzip.compress(json.dumps(study.rows).encode(), mtime=0))


def load_components(folder: str | Path) -> ComponentStudy:
    """Read a component-value study directory (scripts/study_components.py --out), refusing one that is not."""
    d = Path(folder)
    meta_path, rows_path = d / "components.json", d / "rows.json.gz"
    if not meta_path.is_file() or not rows_path.is_file():
        raise ComponentError(f"{d} is not a component-value study: it needs components.json and rows.json.gz "
                             "(written by scripts/study_components.py --out DIR)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        rows = json.loads(gzip.decompress(rows_path.read_bytes()))
        return ComponentStudy(str(meta["game"]), int(meta["players"]), int(meta["deals"]), int(meta["seed"]),
                              str(meta["agent"]), list(rows))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ComponentError(f"{d}: unreadable component-value study ({e})") from None


def component_findings(study: ComponentStudy, found: Sequence[Effect], where: str = ".") -> list[dict[str, Any]]:
    """Each effect of a component study as findings.json holds it: the component, the measure, the effect and its
    interval, and how it is recomputed from the rows (`where`: the study directory, relative to the file)."""
    return [{"component": e.component, "measure": e.measure, "effect": e.diff, "lo": e.lo, "hi": e.hi,
             "deals": e.deals, "changed": e.changed, "players": study.players, "agent": study.agent,
             "check": {"kind": "paired", "study": where, "component": e.component, "measure": e.measure,
                       "equal": True}} for e in found]


def method_words(study: ComponentStudy) -> str:
    """How the study was made, in one paragraph."""
    return (f"By intervention: {study.deals} deals (seed {study.seed}), {study.players} players, every seat "
            f"`{study.agent}`; each deal played once as it is and once per component with one seat (rotated over "
            f"the deals) not allowed to take it, so {len(study.rows)} games. Effect = mean over deals of (forbidden - "
            "baseline), 95% interval from the paired differences (one deal is one observation); the intervals are "
            "not corrected for the number of components.")


def summary(game: str, found: Sequence[Effect]) -> str:
    """The sentence a designer reads first: the component whose loss costs the seat most, and the one whose loss
    helps it most (the agent over-values it), each with its interval."""
    res = [e for e in found if e.measure == "result"]
    worst = min(res, key=lambda e: e.diff)
    words = f"Worth most to the agent: the {worst.component}. {_change(game, worst)}"
    if worst.hi >= 0:
        words += ", so no component is shown to matter at this size"
    words += "."
    best = max(res, key=lambda e: e.diff)
    if best.lo > 0:
        words += f" Over-valued by the agent: the {best.component}. {_change(game, best)}."
    return words
