"""Terminal drawing of a SILOS table, from a view only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

STYLE = {"blue": "bold blue", "yellow": "bold yellow", "purple": "bold magenta", "green": "bold green"}
SHORT = {"politician": "Pol", "government": "Gov", "influencer": "Inf", "professional": "Pro"}


def _figures(figs: dict[str, Any]) -> Text:
    out = Text()
    for color, f in figs.items():
        if out:
            out.append(" ")
        mark = color[0].upper() + ":" + ("L" if f["leader"] else "")
        mark += "D" * f["distinguished"] + "o" * f["figures"]
        out.append(mark, style=STYLE.get(color, "bold"))
    return out


def _humans(d: dict[str, int]) -> str:
    return " ".join(f"{SHORT[t]}{'×' + str(n) if n > 1 else ''}" for t, n in d.items() if n) or "-"


def render(view: dict[str, Any]) -> RenderableType:
    """The board (locations; figures by faction `B:LDo` = blue leader, distinguished, figure), players, deck."""
    board = Table(title="SILOS", expand=False)
    for col in ("#", "location", "figures", "influence", "focus group", "abduction", "extra"):
        board.add_column(col)
    for loc in view["locations"]:
        name = loc["name"] + ("*" if loc["alternate"] else "")
        if loc["crop_circles_tile"]:
            name += " (crop tile)"
        abd = ""
        if loc["id"]:
            abd = ("cow " if loc["cow"] else "") + (SHORT[loc["human"]] if loc["human"] else "")
            if view["ufo"] == loc["id"]:
                abd = "UFO " + abd
        infl = " ".join(f"{c[0].upper()}{v:g}" for c, v in loc["influence"].items())
        extra = []
        if loc["crop_circle"]:
            extra.append(f"circle:{loc['crop_circle']}")
        if loc["skill_tile"] is not None:
            extra.append(f"skill:{loc['skill_tile']}")
        board.add_row(str(loc["id"]), Text(name), _figures(loc["figures"]), infl, _humans(loc["focus"]), abd,
                      " ".join(extra))
    seats = Table(expand=False)
    for col in ("seat", "humans", "cows", "emblems", "faction cards", "held"):
        seats.add_column(col)
    for i, p in enumerate(view["seats"]):
        mark = ">" if view["to_move"] == i else ("*" if view["active"] == i else " ")
        cards = " ".join(n for n, up in p["faction_cards"].items() if up) or "-"
        held = " ".join(f"{n}×{k}" for n, k in p["held_common"].items()) or "-"
        seats.add_row(Text(f"{mark}{i} {p['color']}", style=STYLE.get(p["color"], "")), _humans(p["humans"]),
                      str(p["cows"]), str(p["emblems"]), cards, held)
    deck = " ".join(f"{n}:{k}" for n, k in view["common_deck"].items())
    lines = [
        Text(f"Town Hall ranks: {' > '.join(view['ranks'])}   UFO at {view['ufo']}   target {view['emblem_target']}"),
        Text(f"Common deck ({sum(view['common_deck'].values())} left): {deck}"),
        Text(f"Supply: cows {view['supply']['cows']}, caps {view['supply']['caps']}, emblems "
             f"{view['supply']['emblems']}; bag {sum(view['bag'].values())} ({_humans(view['bag'])})"),
    ]
    if view["hand"]:
        lines.append(Text(f"Humans to place: {_humans(view['hand'])}"))
    if view["last_revealed"]:
        lines.append(Text(f"Last revealed common card: {view['last_revealed']}"))
    status = (f"Winners: {', '.join(view['seats'][w]['color'] for w in view['winners'])}" if view["to_move"] is None
              else f"Phase: {view['phase']} — seat {view['to_move']} to decide")
    lines.append(Text(status, style="bold"))
    return Group(board, seats, *lines)
