"""One way of naming seats in every game, panel and message: a name and a colour per seat.

A seat is `P<N>`, numbered from 1 as people count (seat 0 is `P1`; the notation's `p0` is unchanged), followed by
its faction colour where the game has one (SILOS);
`(you)` marks the seat whose view is shown and the agent kind names an AI seat. The colour is the faction's colour
where there is one, else one of a palette chosen apart from the games' card and tile colours.

It lives in the core (and draws with rich, a dependency of tabletop itself) because both the games' terminal panels
(`games/<g>/tui.py`) and the terminal app (`cli/`) use it, and a game imports only the core.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

from tabletop.core.state import View

PALETTE = ("bold cyan", "bold magenta", "bold bright_white", "bold dark_orange", "bold orchid")
FACTION_STYLE = {"blue": "bold blue", "yellow": "bold yellow", "purple": "bold magenta", "green": "bold green"}


@dataclass(frozen=True)
class Seats:
    """The name, colour and agent of each seat, and which seat is `you` (None: a spectator)."""

    names: tuple[str, ...]
    styles: tuple[str, ...]
    agents: tuple[str, ...]
    you: int | None = None

    def name(self, seat: int | None, you_mark: bool = True) -> Text:
        """`P1 blue` in the seat's colour, `(you)` after your own seat; the table's entries (None) say `table`."""
        if seat is None or not 0 <= seat < len(self.names):
            return Text("table", style="dim")
        out = Text(self.names[seat], style=self.styles[seat])
        if you_mark and seat == self.you:
            out.append(" (you)", style="bold")
        return out

    def plain(self, seat: int) -> str:
        """The seat's name without colour, for messages on one line."""
        return self.names[seat]

    def with_agent(self, seat: int) -> Text:
        """`p1 blue · heuristic`: the name, then who plays the seat."""
        out = self.name(seat)
        if self.agents[seat] and (seat != self.you or self.agents[seat] != "human"):
            out.append(f" · {self.agents[seat]}", style="dim")
        return out

    def seen_by(self, you: int | None) -> Seats:
        return Seats(self.names, self.styles, self.agents, you)


def seat_names(view: View, players: int, agents: list[str] | None = None, you: int | None = None) -> Seats:
    """The seats of a game from any of its views (a faction colour is public)."""
    names, styles = [], []
    seats = view.get("seats")
    for i in range(players):
        colour = None
        if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict):
            colour = seats[i].get("color")
        if isinstance(colour, str):
            names.append(f"P{i + 1} {colour}")
            styles.append(FACTION_STYLE.get(colour, "bold"))
        else:
            names.append(f"P{i + 1}")
            styles.append(PALETTE[i % len(PALETTE)])
    kinds = list(agents) if agents is not None else [""] * players
    return Seats(tuple(names), tuple(styles), tuple(kinds), you)


_SEAT_WORD = re.compile(r"\bp(\d+)\b")


def seat_note(text: str, players: int, you: int | None = None) -> str:
    """Beside an action text that names seats in the notation (`choose p0`, `give r5 to p2`): who they are in the
    words of the labels, seats from 1 (`P1 (you)`, `P3`); empty when the text names no seat."""
    seats = [int(m.group(1)) for m in _SEAT_WORD.finditer(text)]
    words = [f"P{q + 1}" + (" (you)" if q == you else "") for q in seats if 0 <= q < players]
    return ", ".join(words)
