"""Per-seat features of a finished game of SILOS, for balance studies (`tabletop study`).

`position`: the seat's place in turn order, 1 for the start player. `rank`: its Town Hall rank among the players
(1 = best) once the initial positioning is over (the re-ranking by influence at the Town Hall), the rank it starts
its first turn with; in the two-player game the non-player faction (locked at rank 1) is left out. `rank_end`: its
rank when the game ends (the Town Hall power re-ranks during play). `emblems`: emblems at the end.

What the studies read here besides `seat_features` (the interface: `tabletop.study.features`, and "The parts of a
game" in docs/architecture.md): `START_PLAYER` (position 1 starts), `FIGURES` (the win rate by Town Hall rank, with
rank 1 by option level, and its stopping figure `rank_win_halfwidth`).
"""

from __future__ import annotations

from typing import Any

from tabletop.core import new_game
from tabletop.games.silos.frames import K_POSITIONING
from tabletop.games.silos.state import SilosState

START_PLAYER = True
"""Position 1 is the start player."""

FIGURES = (
    {
        "kind": "rate", "column": "rank", "name": "rank", "title": "Win rate by Town Hall rank",
        "axis": "Town Hall rank after positioning (1 = best)", "colour": "tab:orange",
        "words": "Town Hall rank {value}", "by_option": 1,
        "caption": "Each seat's share of the wins by its Town Hall rank once the initial positioning is over (the "
                   "rank it starts play with), with 95% Wilson intervals; the dashed line is the fair rate.",
        "stop": "rank_win_halfwidth",
        "stop_doc": "largest 95% half-width over the win rates by player count and starting rank",
    },
)
"""The report's SILOS figures: the win rate by Town Hall rank after positioning."""

_LOCATIONS = ("Town Hall", "Sheriff's Office", "University", "Shopping Mall", "News Station", "Church", "Bus Station")
COMPONENTS = {name: rf"^place \w+ {i}$|^move \w+ \d+-{i}$" for i, name in enumerate(_LOCATIONS)}
"""The components of the component-value study (`tabletop.study.components`): per location, a regular expression
matching the actions that put a piece there (placing one, or moving one in); an agent forbidden the location is
never offered them."""


def _player_ranks(s: SilosState) -> list[int]:
    order = [f for f in s.rank if f != s.npf]
    return [order.index(p) + 1 for p in range(s.players)]


def seat_features(state: Any) -> dict[str, list[Any]]:
    """The feature columns of a finished game, one value per seat."""
    s: SilosState = state
    n = s.players
    record = s.record()
    replay: SilosState = new_game("silos", n, record["seed"], record["options"])  # type: ignore[assignment]
    for text in record["actions"]:
        if not any(fr[0] == K_POSITIONING for fr in replay.stack):
            break
        replay.apply(text)
    return {
        "position": [(p - s.start) % n + 1 for p in range(n)],
        "rank": _player_ranks(replay),
        "rank_end": _player_ranks(s),
        "emblems": list(s.emblems),
    }

ACTION_KINDS = ("card", "card_none", "church_card", "church_focus", "church_player", "crop_move", "crop_place",
                "distinguish", "done", "downgrade", "exchange", "exert", "graduate", "held", "keep", "mall_draw",
                "mall_four", "move", "news_draw", "news_three", "place", "position", "reject", "repos", "return",
                "sheriff", "skill_church", "skill_draw", "skill_return", "skill_sheriff", "skill_uni", "skip",
                "stop", "take")
"""Every action kind of the game (the first word of each verb of its notation's action table), for the report's
"decisions never reached"."""

ACTION_KIND_NOTES = {
    "card_none": "no card to activate (S-15): the rules apply it themselves when it is the only option (S-16), so it "
                 "is never a player's decision and no study sees it taken",
    "crop_move": "the Crop Circles module's tile (the crop_circles option)",
    "crop_place": "the Crop Circles module's tile (the crop_circles option)",
    "skill_church": "the Permanent Skill Tiles module (the skill_tiles option)",
    "skill_draw": "the Permanent Skill Tiles module (the skill_tiles option)",
    "skill_return": "the Permanent Skill Tiles module (the skill_tiles option)",
    "skill_sheriff": "the Permanent Skill Tiles module (the skill_tiles option)",
    "skill_uni": "the Permanent Skill Tiles module (the skill_tiles option)",
}
"""Where each kind a study may never see comes from: a decision the rules make themselves, or a module's option."""
