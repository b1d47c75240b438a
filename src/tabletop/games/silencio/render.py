"""Silencio in the terminal: the table drawn with rich from one seat's view (never from the state)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletop.core.logwords import render as render_entry

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
        played = _row_cards(values, view.get("halves", {}).get(colour, []), ROW_STYLE[colour])
        top = values[-1] if values else 1
        if view["result"]:
            nxt = ""
        elif top >= view["max_value"]:
            nxt = "   (complete)"
        elif top + 1 == view["max_value"] and colour == "green":
            nxt = f"   (next > {top}; the top green card has no dark effect)"
        else:
            nxt = f"   (next > {top}; a {top + 1} would be dark)"
        rows.add_row(Text(colour, style=ROW_STYLE[colour]), shrine, Text.assemble(played, (nxt, "dim")))
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
        name = f"P{p + 1}" + (" (you)" if p == seat else "") + (" ★" if p == view["first_player"] else "")
        name += " ◀ to move" if p == view["to_move"] else ""
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
        notes.append(f"yellow dark: P{fx['random_play'] + 1} plays a random card next turn")
    if view["tavern"]:
        t = view["tavern"]
        closed = f"tavern: closed ({t['dark_effects']}/{t['opens_at']} dark effects)"
        notes.append("tavern: OPEN" if t["open"] else closed)
    for p, phrase in view["said"][-3:]:
        notes.append(f'P{p + 1} said: "{phrase}"')

    parts: list[RenderableType] = [centre, players]
    if notes:
        parts.append(Text("\n".join(notes), style="italic"))
    if not view["result"]:
        parts.append(_effects())
    log = _log(view["log"], seat, view.get("log_pos", len(view["log"])))
    if log is not None:
        parts.append(log)
    if seat is not None:
        parts.append(Text.assemble(("Your hand: ", "bold"), cards(view["hand"])))
    if view["result"]:
        r = view["result"]
        left = [Text.assemble(f"P{p + 1} kept ", cards(h)) for p, h in enumerate(r.get("hands", [])) if h]
        parts.extend(left)
        parts.append(Text(f"Game over — {r['cards_left']} card(s) left: {r['text']}", style="bold"))
    elif view["to_move"] == seat:
        parts.append(Text(f"Your decision — {view['decision']}", style="bold reverse"))
    else:
        parts.append(Text(f"Waiting for P{view['to_move'] + 1}: {view['decision']}", style="bold"))
    return Panel(Group(*parts), title=f"Silencio — {view['players']} players", border_style="magenta")


EFFECTS = (
    ("red", "skip the next card's dark effect", "skip the next card's light effect"),
    ("blue", "take a row's last card into hand", "give an oracle card to a player"),
    ("yellow", "put a hand card face up in front of you", "the next player plays a random card"),
    ("green", "a chosen player swaps a card or renews the oracle", "the next card must be green"),
)


HALF_MARK = {"light": "☼", "dark": "●"}


def _row_cards(values: list[int], halves: list[str], style: str) -> Text:
    """A row's values, each marked with the half it lies on (☼ light, ● dark): `2● 5☼`."""
    if not values:
        return Text("·", style=style)
    out = Text()
    for i, v in enumerate(values):
        if i:
            out.append(" ")
        half = halves[i] if i < len(halves) else ""
        out.append(str(v), style=style + (" bold" if half == "dark" else ""))
        out.append(HALF_MARK.get(half, ""), style="dim" if half == "light" else style)
    return out


def _effects() -> RenderableType:
    """The effects of each colour: a card one above its row's last card is dark, any higher card light."""
    t = Table(box=None, padding=(0, 1), title="Effects (next card +1: dark, higher: light)", title_justify="left",
              title_style="dim", show_header=True, header_style="dim")
    t.add_column("")
    t.add_column("light (optional; also from a shrine)", style="dim")
    t.add_column("dark (mandatory)", style="dim")
    for colour, light, dark in EFFECTS:
        t.add_row(Text(colour, style=ROW_STYLE[colour]), light, dark)
    return t


LOG_LINES = 12


def _log(log: list[dict[str, Any]], seat: int | None, log_pos: int) -> RenderableType | None:
    """The events since `seat` last acted (its own lines dimmed), or the last few for a spectator.

    `log` is the view's tail of the seat's log (entries `{"seat", "text"}`); `log_pos` is the whole log's length.
    """
    if not log:
        return None
    if seat is None:
        recent, title = log[-8:], "Recent events"
    else:
        mine = [k for k, e in enumerate(log) if e["seat"] == seat]
        start = mine[-1] + 1 if mine else 0
        recent = log[start:] or log[-3:]
        # nobody has acted since your last action (you are mid-turn): the last few events for context
        title = "Since your last decision" if log[start:] else "Recent events"
    earlier = log_pos - min(len(recent), LOG_LINES)
    out = Text(title + (f" ({earlier} earlier in the log)" if earlier > 0 else "") + ":", style="underline")
    for e in recent[-LOG_LINES:]:
        out.append("\n  " + render_entry(e, None, seat), style="dim" if seat is not None and e["seat"] == seat else "")
    return out
