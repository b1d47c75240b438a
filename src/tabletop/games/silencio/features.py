"""Per-seat features of a finished game of Silencio, for balance studies (`tabletop study`).

`position`: the seat's place in turn order, 1 for the first player. `cards_left`: the cards the seat still holds at
the end (in hand and lying face up in front of it); the team's total is minus any seat's score.

What the studies read here besides `seat_features` (the interface: `tabletop.study.features`, and "The parts of a
game" in docs/architecture.md): `TEAM`, the cooperative report's section (perfect games and the team's cards left,
split by the Tavern variant and the Dark Shrines).
"""

from __future__ import annotations

from typing import Any

from tabletop.games.silencio.rules import SilencioState

TEAM = {
    "measure": "cards_left", "measure_words": "cards left", "unit": "cards",
    "split": ("variant", "dark_shrines"), "split_words": ("variant", "dark shrines"),
    "perfect_title": "Perfect-game rate by player count and variant",
    "perfect_caption": "The share of games the team ends with no card left, per player count, Tavern variant and "
                       "Dark Shrines, with 95% Wilson intervals.",
    "measure_title": "Cards left at the end",
    "measure_caption": "The distribution of the team's cards left at the end of a game, per player count, variant "
                       "and Dark Shrines, each share with its 95% Wilson interval.",
}
"""The report's team section: perfect games and the team's cards left by player count, variant and Dark Shrines."""

COMPONENTS = {**{f"{c} shrine": rf"^shrine {c}$" for c in ("red", "blue", "yellow", "green")},
              "large shrine": r"^shrine large \w+$"}
"""The components of the component-value study (`tabletop.study.components`): per shrine (the four small ones by
colour, and the large one), a regular expression matching the actions that take it; an agent forbidden the shrine
is never offered them."""


def seat_features(state: Any) -> dict[str, list[Any]]:
    """The feature columns of a finished game, one value per seat."""
    s: SilencioState = state
    n = s.players
    return {
        "position": [(p - s.first) % n + 1 for p in range(n)],
        "cards_left": [len(s.hands[p]) + len(s.fronts[p]) for p in range(n)],
    }

ACTION_KINDS = ("choose", "end", "give", "giveto", "oracle", "pass", "place", "play", "return", "shrine", "skip",
                "swap", "take", "tavern", "use", "renew")
"""Every action kind of the game (the first word of each verb of its notation's action table), for the report's
"decisions never reached"."""

ACTION_KIND_NOTES = {
    "choose": "the green light effect's first step, choosing the player who acts; offered, but the heuristic "
              "declines every light effect except red",
    "place": "the yellow light effect, placing a card face up; offered, but the heuristic declines it",
    "giveto": "the green light effect's action after a player is chosen (giving a card to another player): it "
              "follows choose, so a study without choose never reaches it",
    "renew": "the green light effect's action after a player is chosen (renewing the oracle): it follows choose",
    "return": "the card given back after giveto: it follows giveto",
    "tavern": "a Tavern phrase, offered only with the Tavern variant once the tavern has opened; the heuristic "
              "never speaks",
}
"""Where each kind a heuristic study may never see comes from (checked against the rules: every one is offered to a
random team), so the report can tell a rule the agents decline from one a study never enabled."""
