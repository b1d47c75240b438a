"""Silencio in the terminal: the table drawn with rich from one seat's view (never from the state)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

STYLE = {"r": "bold red", "b": "bold blue", "y": "bold yellow", "g": "bold green"}
ROW_STYLE = {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green"}


def card(text: str) -> Text:
    """A card such as `r5`, coloured."""
    return Text(f"{text:>3}", style=STYLE.get(text[:1], ""))


def cards(texts: list[str]) -> Text:
    out = Text()
    for i, t in enumerate(texts):
        if i:
            out.append(" ")
        out.append_text(card(t))
    return out if texts else Text("—", style="dim")


def render(view: dict[str, Any]) -> RenderableType:
    """The whole table as seen by `view['seat']`."""
    seat = view["seat"]
    rows = Table(show_header=False, box=None, padding=(0, 1))
    rows.add_column("row", style="bold")
    rows.add_column("shrine")
    rows.add_column("cards")
    for colour, values in view["rows"].items():
        lit = view["shrines"][colour] == "light"
        shrine = Text("☼ light" if lit else "● dark", style="bold" if lit else "dim")
        played = Text(" ".join(str(v) for v in values) or "·", style=ROW_STYLE[colour])
        top = values[-1] if values else 1
        rows.add_row(Text(colour, style=ROW_STYLE[colour]), shrine, Text.assemble(played, f"   (next > {top})"))
    large = view["shrines"]["large"] == "light"
    centre = Group(
        Text.assemble("Large shrine: ", Text("☼ light" if large else "● dark", style="magenta" if large else "dim")),
        rows,
        Text.assemble("Oracle: ", cards(view["oracle"]), f"    Deck: {view['deck']} cards"
                      + (f"    Box: {' '.join(view['box'])}" if view["box"] else "")),
    )

    players = Table(title="Players", title_justify="left", box=None, padding=(0, 1))
    players.add_column("seat")
    players.add_column("cards in hand")
    players.add_column("face up in front")
    players.add_column("you know they hold")
    for p in range(view["players"]):
        name = f"p{p}" + (" (you)" if p == seat else "") + (" ★" if p == view["first_player"] else "")
        style = "reverse" if p == view["to_move"] else ""
        known = view["known"].get(str(p), [])
        players.add_row(Text(name, style=style), str(view["hand_sizes"][p]), cards(view["fronts"][p]),
                        cards(known) if known else Text(""))

    notes = []
    fx = view["effects"]
    if fx["skip_next_dark"]:
        notes.append("red light: the next card's dark effect is skipped")
    if fx["skip_next_light"]:
        notes.append("red dark: the next card's light effect is skipped")
    if fx["green_only"]:
        notes.append("green dark: the next card must be green")
    if fx["random_play"] is not None:
        notes.append(f"yellow dark: p{fx['random_play']} plays a random card next turn")
    if view["tavern"]:
        t = view["tavern"]
        closed = f"tavern: closed ({t['dark_effects']}/{t['opens_at']} dark effects)"
        notes.append("tavern: OPEN" if t["open"] else closed)
    for p, phrase in view["said"][-3:]:
        notes.append(f'p{p} said: "{phrase}"')

    parts: list[RenderableType] = [centre, players]
    if notes:
        parts.append(Text("\n".join(notes), style="italic"))
    if view["log"]:
        parts.append(Text("Recent: " + " · ".join(view["log"][-6:]), style="dim"))
    if seat is not None:
        parts.append(Text.assemble("Your hand: ", cards(view["hand"])))
    if view["result"]:
        r = view["result"]
        parts.append(Text(f"Game over — {r['cards_left']} card(s) left: {r['text']}", style="bold"))
    else:
        parts.append(Text(view["decision"], style="bold"))
    return Panel(Group(*parts), title=f"Silencio — {view['players']} players", border_style="magenta")
