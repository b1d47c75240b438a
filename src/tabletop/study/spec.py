"""The study file (TOML): what a study plays, how its games are drawn, and when it stops. See docs/studies.md.

    [study]
    name = "silos-4p"                  # a label for the report
    game = "silos"
    seed = 1                           # fixes every deal, agent seed and random draw of the design
    description = "..."                # optional, shown at the top of the report

    [design]
    kind = "full"                      # "full": every cell in turn; "random": every factor drawn per block
    rotate_seats = true                # a lineup of different agents is rotated over the seats on one deal
    batch = 64                         # games per part file (an interruption loses at most one batch)
    max_steps = 10000                  # optional: a game still going after this many decisions is cut (stopped
                                       # unfinished, listed by the report, left out of every figure)

    [factors]
    players = [4]                      # player counts
    agents = ["heuristic"]             # lineups: a spec for every seat, or a list of specs (the last fills)
    [factors.options]                  # game options: a list of levels each (a list option: a list of lists)
    crop_circles = [0, 6]

    [stop]
    games = 8000                       # the budget: never more games than this (whole blocks)
    figure = "seat_win_halfwidth"      # optional: stop early once this figure is at most `target`
    target = 0.01
    min_games = 400                    # optional: not before this many games (default: one batch)
"""

from __future__ import annotations

import itertools
import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.agents import make_agent
from tabletop.core import TabletopError, game_info, new_game
from tabletop.core import games as registered_games
from tabletop.core.errors import shorten
from tabletop.study.features import game_features

DEFAULT_MAX_STEPS = 10_000
"""A game still going after this many decisions is cut: far beyond any game's length (a heuristic game of SILOS
with 4 players asks about 230, of SiliconVania with 5 about 280), so only a rule or an agent that loops reaches it."""


class StudyError(TabletopError):
    """A study file, or a dataset directory, that cannot be used; the message says what is legal."""


FIGURES = {
    "seat_win_halfwidth": "largest 95% half-width over the win rates by player count and seat position",
    "perfect_halfwidth": "largest 95% half-width over the perfect-game rates of the design's cells (cooperative)",
}
"""The figures a stopping rule can name for any game, and what each one is; a game's features part adds its own
(`figures_of`)."""


def figures_of(game: str) -> dict[str, str]:
    """The stopping figures of `game`: those of every game, then its own (its features part's `FIGURES` with a
    `stop`), each with what it is."""
    own = {name: f"{f.stop_doc} ({game_info(game).title})" for name, f in game_features(game).stops.items()}
    return {**FIGURES, **own}

KINDS = ("full", "random")
_SECTIONS: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "study": {"name": (str, True), "game": (str, True), "seed": (int, False), "description": (str, False)},
    "design": {"kind": (str, False), "rotate_seats": (bool, False), "batch": (int, False), "max_steps": (int, False)},
    "factors": {"players": (list, False), "agents": (list, True), "options": (dict, False)},
    "stop": {"games": (int, True), "figure": (str, False), "target": ((int, float), False), "min_games": (int, False)},
}


def level_label(value: Any) -> str:
    """An option level in words, as the dataset and the report show it: `none` for an empty list, `0,3` for a
    list, `on`/`off` for a switch, else the value."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value) if value else "none"
    return str(value)


@dataclass(frozen=True)
class Cell:
    """One combination of factor levels: a player count, a lineup and a value for every varied option."""

    players: int
    lineup: tuple[str, ...]  # the spec of each seat before rotation
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def agents(self) -> str:
        """The lineup in one label: `heuristic` when every seat has it, else the specs joined by ` / `."""
        return self.lineup[0] if len(set(self.lineup)) == 1 else " / ".join(self.lineup)


@dataclass(frozen=True)
class StudySpec:
    """A parsed, checked study file."""

    name: str
    game: str
    seed: int
    description: str
    kind: str
    rotate_seats: bool
    batch: int
    players: tuple[int, ...]
    agents: tuple[tuple[str, ...], ...]  # lineups as given (the last spec fills the remaining seats)
    options: dict[str, list[Any]]  # option name -> levels
    budget: int
    figure: str | None
    target: float | None
    min_games: int
    source: str = ""
    max_steps: int = DEFAULT_MAX_STEPS


    def identity(self) -> dict[str, Any]:
        """What fixes the games a study plays: two files with equal identities extend the same dataset."""
        out = {"game": self.game, "seed": self.seed, "kind": self.kind, "rotate_seats": self.rotate_seats,
               "batch": self.batch,
               "players": list(self.players), "agents": [list(a) for a in self.agents],
               "options": {k: list(v) for k, v in sorted(self.options.items())}}
        if self.max_steps != DEFAULT_MAX_STEPS:  # a study file from before the setting is the same study
            out["max_steps"] = self.max_steps
        return out

    def cells(self) -> list[Cell]:
        """Every combination of the factors' levels, in a fixed order (player count, lineup, options)."""
        names = sorted(self.options)
        out = []
        for n, lineup, *levels in itertools.product(self.players, self.agents,
                                                    *(self.options[k] for k in names)):
            seats = list(lineup) + [lineup[-1]] * (n - len(lineup))
            out.append(Cell(n, tuple(seats), dict(zip(names, levels, strict=True))))
        return out

    @property
    def varied(self) -> list[str]:
        """The table-wide factors with more than one level (`players`, `agents`, option names)."""
        out = ["players"] if len(self.players) > 1 else []
        out += ["agents"] if len(self.agents) > 1 else []
        return out + [k for k in sorted(self.options) if len(self.options[k]) > 1]


def _check_keys(data: dict[str, Any], where: str, legal: Sequence[str]) -> None:
    for k in data:
        if k not in legal:
            raise StudyError(f"{where}: unknown key {k!r}; the keys are: {', '.join(legal)}")


def parse_study(text: str, where: str = "study file") -> StudySpec:
    """Parse and check a study file's text; a StudyError names the key at fault and what is legal."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{where}: not valid TOML: {e}") from None
    _check_keys(data, where, list(_SECTIONS))
    for section, keys in _SECTIONS.items():
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise StudyError(f"{where}: [{section}] must be a table")
        _check_keys(table, f"{where} [{section}]", list(keys))
        for key, (kind, required) in keys.items():
            if key not in table:
                if required:
                    raise StudyError(f"{where}: [{section}] needs {key!r}")
                continue
            value = table[key]
            if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
                names = " or ".join(t.__name__ for t in (kind if isinstance(kind, tuple) else (kind,)))
                raise StudyError(f"{where}: [{section}] {key} must be a {names}, not {shorten(repr(value))}")
    study, design, factors, stop = (data.get(s, {}) for s in _SECTIONS)
    game = study["game"]
    if game not in registered_games():
        raise StudyError(f"{where}: unknown game {game!r}; the games are: {', '.join(registered_games())}")
    info = game_info(game)
    kind = design.get("kind", "full")
    if kind not in KINDS:
        raise StudyError(f"{where}: [design] kind must be one of {', '.join(KINDS)}, not {kind!r}")
    batch = design.get("batch", 64)
    if batch < 1:
        raise StudyError(f"{where}: [design] batch must be at least 1, not {batch}")
    max_steps = design.get("max_steps", DEFAULT_MAX_STEPS)
    if max_steps < 1:
        raise StudyError(f"{where}: [design] max_steps must be at least 1 (decisions a game), not {max_steps}")
    players = factors.get("players", [info.default_players])
    for n in players:
        if not isinstance(n, int) or isinstance(n, bool) or not info.min_players <= n <= info.max_players:
            raise StudyError(f"{where}: [factors] players: {info.title} takes {info.min_players}-"
                             f"{info.max_players} players, not {n!r}")
    if not players or len(set(players)) != len(players):
        raise StudyError(f"{where}: [factors] players must list distinct player counts")
    lineups: list[tuple[str, ...]] = []
    for a in factors["agents"]:
        specs = [a] if isinstance(a, str) else a
        if not isinstance(specs, list) or not specs or not all(isinstance(s, str) and s.strip() for s in specs):
            raise StudyError(f"{where}: [factors] agents: a lineup is a spec or a list of specs, not {a!r}")
        if len(specs) > min(players):
            raise StudyError(f"{where}: [factors] agents: {len(specs)} specs for {min(players)} seats")
        for s in specs:
            try:
                make_agent(s, game, 0)
            except TabletopError as e:
                raise StudyError(f"{where}: [factors] agents: {e}") from None
        lineups.append(tuple(s.strip() for s in specs))
    if not lineups:
        raise StudyError(f"{where}: [factors] agents needs at least one lineup")
    known = {o.name: o for o in info.options}
    options: dict[str, list[Any]] = {}
    for name, levels in factors.get("options", {}).items():
        if name not in known:
            legal = ", ".join(known) or "(none: this game has no options)"
            raise StudyError(f"{where}: [factors.options] {info.title} has no option {name!r}; its options: {legal}")
        if not isinstance(levels, list) or not levels:
            raise StudyError(f"{where}: [factors.options] {name} must be a list of levels, e.g. {name} = "
                             f"[{json.dumps(known[name].default)}]")
        options[name] = levels
    figure = stop.get("figure")
    stops = figures_of(game)
    if figure is not None and figure not in stops:
        raise StudyError(f"{where}: [stop] unknown figure {figure!r}; the figures are: {', '.join(stops)}")
    if figure is not None and "target" not in stop:
        raise StudyError(f"{where}: [stop] figure {figure} needs a target (e.g. target = 0.01 for 1 point)")
    if "target" in stop and figure is None:
        raise StudyError(f"{where}: [stop] a target needs the figure it bounds: figure = one of {', '.join(stops)}")
    target = float(stop["target"]) if "target" in stop else None
    if target is not None and not 0 < target < 1:
        raise StudyError(f"{where}: [stop] target is a half-width between 0 and 1 (0.01 = 1 point), not {target}")
    if figure == "perfect_halfwidth" and not info.cooperative:
        raise StudyError(f"{where}: [stop] perfect_halfwidth is for a cooperative game; {info.title} is not")
    if figure is not None and figure != "perfect_halfwidth" and info.cooperative:
        raise StudyError(f"{where}: [stop] {figure}: {info.title} is cooperative (every seat wins or none does); "
                         "use perfect_halfwidth")
    if stop["games"] < 1:
        raise StudyError(f"{where}: [stop] games must be at least 1, not {stop['games']}")
    spec = StudySpec(
        name=study["name"], game=game, seed=study.get("seed", 0), description=study.get("description", ""),
        kind=kind, rotate_seats=design.get("rotate_seats", True), batch=batch, players=tuple(players),
        agents=tuple(lineups), options=options, budget=stop["games"], figure=figure, target=target,
        min_games=stop.get("min_games", batch), source=text, max_steps=max_steps,
    )
    _check_cells(spec, where)
    return spec


def _check_cells(spec: StudySpec, where: str) -> None:
    """Every level alone (and every cell of a full design up to 500 cells) must make a game."""
    cells = spec.cells()
    if spec.kind == "random" or len(cells) > 500:
        cells = [Cell(n, ("random",) * n, {k: v}) for n in spec.players for k, vs in spec.options.items() for v in vs]
    for c in cells:
        try:
            new_game(spec.game, c.players, 0, c.options)
        except TabletopError as e:
            raise StudyError(f"{where}: [factors.options] {e}") from None


def load_study(path: str | Path) -> StudySpec:
    """Read and check a study file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyError(f"no study file {shorten(str(path))}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise StudyError(f"cannot read the study file {shorten(str(path))}: {e}") from None
    return parse_study(text, shorten(str(path)))
