"""What a game tells the balance studies about itself: its `features` part (`tabletop.core.parts.part(game,
"features")`, the module `features.py` of its folder), read and checked here into `GameFeatures`.

The part is plain data beside one function (a game imports only the core, so it declares dicts, tuples and
strings; this module turns them into the dataclasses below and refuses a malformed declaration by name):

- `seat_features(state) -> dict[str, list]` (required): per-seat columns of a finished game, one value per seat,
  stored as `seat_<name>`; `position` (the seat's place in turn order, 1 first) is expected. A game without the part
  gets `position` = seat + 1.
- `START_PLAYER: bool` (default True): whether position 1 is a start player. With False (the game has no start
  player: position is the seat number) the report's position axis says "seat" and there is no start-player test,
  start-player model or start player by option level.
- `FIGURES: tuple[dict, ...]` (default none): the game's own figures of a competitive game's report, in the
  report's order after the win rate by position, each a `SeatFigure` (keys as its fields). Kinds:
  `rate`, the win rate per player count by the value of a per-seat column (each value tested against the fair
  1/players; `by_option` names the value whose win rate is also drawn at each level of each varied option);
  `kinds`, the win rate of the seats whose `|`-joined column holds each kind (each kind's effect tested by a logistic
  regression adjusted for the player count); `binned`, the win rate by a numeric column rounded and clipped to
  `low`..`high` (no test). A figure with `stop` is also a stopping figure of the study file (`[stop] figure`),
  described by `stop_doc`: the largest 95% half-width over its rates (per player count and value for `rate`, per
  kind for `kinds`).
- `ACTION_KINDS: tuple[str, ...]` (default none): every action verb of the game; the report's coverage section lists
  those no game of the study took ("decisions never reached"), from the dataset's `action_kinds` column.
- `ACTION_KIND_NOTES: dict[str, str]` (default none): for a kind a study may never see, the rule it comes from and
  what must happen first (the option that enables it, the decision before it), shown beside it in that list.
- `COMPONENTS: dict[str, str]` (default none): the components of the component-value study
  (`tabletop.study.components`), each a name and a regular expression over action texts.
- `TEAM: dict` (cooperative games, default none): the team section of the report, a `TeamFigures` (keys as its
  fields): the perfect-game (team win) rate and the distribution of a per-game measure (the seat feature `measure`
  summed over the seats), split by two options.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any

from tabletop.core import TabletopError, game_info
from tabletop.core.parts import part


class FeaturesError(TabletopError):
    """A game's `features` part declares something the studies cannot use."""


KINDS = ("rate", "kinds", "binned")


@dataclass(frozen=True)
class SeatFigure:
    """One figure of the report over a per-seat column (a game's `FIGURES` entry)."""

    kind: str  # "rate", "kinds" or "binned"
    column: str  # the seat feature (without `seat_`)
    name: str  # the PNG's file name (without .png)
    title: str  # the figure's heading
    axis: str  # the x axis label
    caption: str
    colour: str = "tab:blue"
    words: str = ""  # rate: "Town Hall rank {value}"; kinds: "keeping {a} {value} objective" ({a}: a or an)
    model: str = "{value}"  # kinds: one kind's model in a could-not-fit note ("{value} objective")
    by_option: Any = None  # rate: the value whose win rate is drawn by option level (None: not drawn)
    low: int = 1  # binned: the lowest bin
    high: int = 7  # binned: the highest bin
    stop: str = ""  # the name of the stopping figure over it ("" for none)
    stop_doc: str = ""  # what that figure is, for the study file's errors and the docs

    def who(self, value: Any) -> str:
        """The seats of one value, in words ("Town Hall rank 1", "keeping a Doctor objective")."""
        a = "an" if str(value)[:1] in "AEIOU" else "a"
        return self.words.format(value=value, a=a)


@dataclass(frozen=True)
class TeamFigures:
    """The cooperative report's team section (a game's `TEAM`)."""

    measure: str  # the seat feature summed over the seats: the team's per-game measure (games frame column)
    measure_words: str  # "cards left"
    unit: str  # the measure's unit in the regressions ("cards")
    split: tuple[str, str]  # the two options the figures are split by: bars per (first, second), panels per first
    split_words: tuple[str, str]  # the options in words ("variant", "dark shrines")
    perfect_title: str
    perfect_caption: str
    measure_title: str
    measure_caption: str


@dataclass(frozen=True)
class GameFeatures:
    """What the studies know of a game from its features part."""

    module: ModuleType | None
    start_player: bool = True
    figures: tuple[SeatFigure, ...] = ()
    team: TeamFigures | None = None
    stops: dict[str, SeatFigure] = field(default_factory=dict)  # stopping figure name -> its figure
    action_kinds: tuple[str, ...] = ()  # every action verb the game has (ACTION_KINDS), for "never reached"
    action_notes: dict[str, str] = field(default_factory=dict)  # ACTION_KIND_NOTES: where a kind comes from

    def seat_features(self, state: Any) -> dict[str, list[Any]]:
        """The per-seat columns of a finished game (`position` = seat + 1 without a features part)."""
        if self.module is None:
            return {"position": [p + 1 for p in range(state.players)]}
        out: dict[str, list[Any]] = self.module.seat_features(state)
        return out

    def of_kind(self, kind: str) -> list[SeatFigure]:
        return [f for f in self.figures if f.kind == kind]


_CACHE: dict[str, GameFeatures] = {}


def game_features(game: str) -> GameFeatures:
    """The game's features part, read and checked (once per process)."""
    if game in _CACHE:
        return _CACHE[game]
    module = part(game, "features")
    title = game_info(game).title
    if module is None:
        got = GameFeatures(None)
    else:
        got = _read(module, title)
    _CACHE[game] = got
    return got


def _build(cls: type, data: Any, title: str, what: str) -> Any:
    if not isinstance(data, dict):
        raise FeaturesError(f"{title}'s features: {what} must be a dict, not {type(data).__name__}")
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise FeaturesError(f"{title}'s features: {what} has no key {unknown[0]!r}; its keys: "
                            f"{', '.join(sorted(names))}")
    try:
        return cls(**data)
    except TypeError as e:
        raise FeaturesError(f"{title}'s features: {what}: {e}") from None


def _read(module: ModuleType, title: str) -> GameFeatures:
    start = getattr(module, "START_PLAYER", True)
    if not isinstance(start, bool):
        raise FeaturesError(f"{title}'s features: START_PLAYER must be True or False")
    figures = tuple(_build(SeatFigure, d, title, f"FIGURES[{i}]")
                    for i, d in enumerate(getattr(module, "FIGURES", ())))
    for f in figures:
        if f.kind not in KINDS:
            raise FeaturesError(f"{title}'s features: figure {f.name!r} has kind {f.kind!r}; the kinds: "
                                f"{', '.join(KINDS)}")
        if f.stop and f.kind == "binned":
            raise FeaturesError(f"{title}'s features: figure {f.name!r}: a binned figure is no stopping figure")
    team_data = getattr(module, "TEAM", None)
    team = None
    if team_data is not None:
        team = _build(TeamFigures, team_data, title, "TEAM")
        team = TeamFigures(**{**team.__dict__, "split": tuple(team.split), "split_words": tuple(team.split_words)})
    stops = {f.stop: f for f in figures if f.stop}
    kinds = getattr(module, "ACTION_KINDS", ())
    if not isinstance(kinds, tuple) or not all(isinstance(k, str) for k in kinds):
        raise FeaturesError(f"{title}'s features: ACTION_KINDS must be a tuple of action verbs (strings)")
    notes = getattr(module, "ACTION_KIND_NOTES", {})
    if not isinstance(notes, dict) or not all(isinstance(k, str) and isinstance(v, str) and k in kinds
                                              for k, v in notes.items()):
        raise FeaturesError(f"{title}'s features: ACTION_KIND_NOTES must be a dict of declared action kinds to "
                            "words (strings)")
    return GameFeatures(module, start, figures, team, stops, kinds, dict(notes))
