"""Nines: a two-player trick game with hidden hands, the fourth game, which lives only under tests/.

It proves that a game of another distribution plugs into the whole platform through `tabletop.games` and the parts
of its folder, with no edit of tabletop (tests/fourth/test_*.py; the fixture installs this folder as a throw-away
distribution). Nine cards 1..9; each player is dealt `hand` cards (option, 3 or 4), hidden from the other; the rest
stay face down. Each trick the leader plays a card, then the other; the higher card takes the trick and leads the
next; the last trick, which leaves no choice, plays itself. A point per trick; most points wins, a tie shares.
Notation: `play N` (N the card).
"""

from __future__ import annotations

from tabletop.core import GameInfo, Option

from .rules import NinesState

INFO = GameInfo(
    name="nines",
    title="Nines",
    min_players=2,
    max_players=2,
    cooperative=False,
    version="1",
    options=(Option("hand", 3, (3, 4), "cards dealt to each player"),),
    state_class=NinesState,
    summary="Two players, hidden hands of 1..9, the higher card takes the trick.",
    score_label="tricks",
    step_limit=20,
    package=__name__,
)


def register_game() -> GameInfo:
    """The entry point of the `tabletop.games` group: the GameInfo to register."""
    return INFO
