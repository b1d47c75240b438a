"""Hints: the one API every client uses (the server, the line mode, the full-screen app).

`hints(seat, seconds, iters, seed, top, progress=...)`: a seat handle and a budget in, the seat's ranked
candidate actions out (`Candidate`: action, search samples behind it, value in [0, 1], a one-line reason). The
search is the one of the game's `hard` level (`tabletop.agents.levels`): its agent kind's hint search, registered
here with `register_hint_search` (`guided` in SILOS and SiliconVania, with the reasons of the game's `ai` part;
`team` in Silencio, with the expected result in cards; the baseline `ismcts` for a game without a `hard` level of
its own). Only the seat's view and log are used: the search samples what the seat cannot see.

`table` (Silencio): per seat, who sits there (an AI level or agent spec, "human"; None: unknown). The team
search then reads each teammate by the model of its kind (the partner models of `tabletop.games.silencio.team`),
so its expected result is for the table as it is, and each reason says what it assumed ("assumes Player 2 medium AI,
Player 3 a person"). Without it the teammates are read from their play alone.

`hint:time=0.5` is an agent that always plays the top hint: how good following the hints is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from tabletop.agents.base import HINT_SECONDS, Agent, Candidate
from tabletop.agents.search import Progress, Search, search_hints
from tabletop.agents.spec import Params, parse_spec, register_kind
from tabletop.core import Action, Rng, SeatHandle

__all__ = ["HintAgent", "hint_search_for", "hints", "register_hint_search", "register_table_search",
           "table_search_for"]

HintSearch = Callable[[SeatHandle, int], Search]
"""Makes the (not yet run) hint search of a seat from a seed."""

_SEARCHES: dict[str, HintSearch] = {}
TableSearch = Callable[[SeatHandle, int, list[str | None]], Search]
"""Makes the hint search of a seat from a seed and the table's seat kinds (`hints`' `table`)."""
_TABLE_SEARCHES: dict[str, TableSearch] = {}


def register_table_search(kind: str, make: TableSearch) -> None:
    """The hint search of the agent kind `kind` that takes the table's seat kinds into account."""
    _TABLE_SEARCHES[kind] = make


def register_hint_search(kind: str, make: HintSearch) -> None:
    """The hint search of the agent kind `kind` (used where a game's `hard` level is that kind)."""
    _SEARCHES[kind] = make


def hint_search_for(game: str) -> HintSearch:
    """The hint search of `game`: that of its `hard` level's agent kind, else the baseline's."""
    from tabletop.agents.levels import level_spec

    if not _SEARCHES:
        _register()
    kind, _ = parse_spec(level_spec("hard", game))
    return _SEARCHES.get(kind, _SEARCHES["ismcts"])


def hints(
    seat: SeatHandle,
    seconds: float | None = HINT_SECONDS,
    iters: int | None = None,
    seed: int = 0,
    top: int = 5,
    progress: Progress | None = None,
    search: HintSearch | None = None,
    table: list[str | None] | None = None,
) -> list[Candidate]:
    """Up to `top` candidate actions for `seat`, best first, from its view (and log) only.

    The budget: `seconds` caps the search (default 2 s, so a hint never keeps a player waiting); pass
    `seconds=None` and `iters` for a search reproducible from `seed`; with both, whichever ends first. With
    `progress`, the search runs in chunks and `progress(share)` is told the share of the budget spent after each
    (returning False stops it early: the hints found so far are given). `search` overrides the game's hint search.
    `table` (per seat: an AI level or spec, "human", None) is who sits at the table, for a game whose hint search
    reads it (Silencio's; the module docstring). An empty list when the seat owes no decision.
    """
    make = search or hint_search_for(seat.info.name)
    with_table = table_search_for(seat.info.name) if search is None and table is not None else None
    if with_table is not None and table is not None:
        make = functools.partial(_at_table, with_table, list(table))
    return search_hints(make, seat, seconds, iters, seed, top, progress)


def _at_table(make: TableSearch, kinds: list[str | None], seat: SeatHandle, seed: int) -> Search:
    return make(seat, seed, kinds)


def table_search_for(game: str) -> TableSearch | None:
    """The hint search of `game`'s `hard` level that reads the table's seat kinds (None: its search reads none)."""
    from tabletop.agents.levels import level_spec

    if not _SEARCHES:
        _register()
    kind, _ = parse_spec(level_spec("hard", game))
    return _TABLE_SEARCHES.get(kind)


def _register() -> None:
    """The built-in configurations' hint searches (imported at the first hint, not with this module)."""
    from tabletop.agents import guided, ismcts, team

    register_hint_search("ismcts", ismcts.hint_search)
    register_hint_search("guided", guided.hint_search)
    register_hint_search("team", team.hint_search)
    register_table_search("team", team.table_hint_search)


class HintAgent:
    """Plays the top hint (`hints`) for its seat, searched for `seconds`: how good following the hints is."""

    name = "hint"

    def __init__(self, seed: int = 0, seconds: float = HINT_SECONDS) -> None:
        self._rng = Rng(seed)
        self.seconds = seconds

    def act(self, seat: SeatHandle) -> Action:
        """The first action `hints` lists."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        if len(legal) == 1:
            return legal[0]
        return hints(seat, seconds=self.seconds, seed=seed, top=1)[0].action


def _hint_factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    p = Params("hint", params, ("time",), game)
    seconds = p.number("time")
    return HintAgent(seed, HINT_SECONDS if seconds is None else seconds)


register_kind("hint", _hint_factory)
