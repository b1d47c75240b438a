"""Silencio in the full-screen terminal app: the whole table in 80x24, from one seat's view only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletop.core.seatnames import Seats
from tabletop.games.silencio.render import ROW_STYLE, _row_cards, cards

MIN_SIZE = (80, 24)


def _shrine(state: str, style: str = "bold") -> Text:
    return Text("☼ light", style=style) if state == "light" else Text("● dark", style="dim")


def table(view: dict[str, Any], seats: Seats) -> RenderableType:
    """Shrines, rows, oracle and deck; then each player's hand size, the cards in front and what you know."""
    top = Text.assemble(("Large shrine ", "bold"), _shrine(view["shrines"]["large"], "bold magenta"),
                        ("   Oracle ", "bold"), cards(view["oracle"]), f"   Deck {view['deck']}")
    if view["box"]:
        top.append(f"   Box {' '.join(view['box'])}", style="dim")
    if view["tavern"]:
        t = view["tavern"]
        top.append("   tavern " + ("OPEN" if t["open"] else f"{t['dark_effects']}/{t['opens_at']}"), style="italic")
    rows = Table(show_header=False, box=None, padding=(0, 1), pad_edge=False)
    rows.add_column(width=6)
    rows.add_column(width=7)
    rows.add_column(no_wrap=True)
    for colour, values in view["rows"].items():
        last = values[-1] if values else 1
        played = _row_cards(values, view.get("halves", {}).get(colour, []), ROW_STYLE[colour])
        if last >= view["max_value"]:
            nxt = "  complete"
        elif view["result"]:
            nxt = ""
        else:
            nxt = f"  next: {last + 1} dark, higher light"
        rows.add_row(Text(colour, style=ROW_STYLE[colour]), _shrine(view["shrines"][colour]),
                     Text.assemble(played, (nxt, "dim")))
    players = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    players.add_column("player", no_wrap=True)
    players.add_column("hand", justify="right")
    players.add_column("face up in front", no_wrap=True)
    players.add_column("you know they hold", no_wrap=True)
    for p in range(view["players"]):
        name = Text("▶ " if p == view["to_move"] else "  ").append_text(seats.with_agent(p))
        if p == view["first_player"]:
            name.append(" ★", style="bold yellow")
        known = view["known"].get(str(p), [])
        players.add_row(name, str(view["hand_sizes"][p]), cards(view["fronts"][p]), cards(known) if known else "")
    parts: list[RenderableType] = [top, rows, players]
    notes = _notes(view, seats) if view["result"] is None else Text("")  # effects belong to the game in progress
    if notes.plain:
        parts.append(notes)
    return Group(*parts)


def _notes(view: dict[str, Any], seats: Seats) -> Text:
    fx = view["effects"]
    notes = []
    if fx["skip_next_dark"]:
        notes.append("red light: next card sets off no dark effect")
    if fx["skip_next_light"]:
        notes.append("red dark: next card sets off no light effect")
    if fx["green_only"]:
        notes.append("green dark: next card must be green")
    if fx["random_play"] is not None:
        notes.append(f"yellow dark: {seats.plain(fx['random_play'])} plays a random card")
    for p, phrase in view["said"][-1:]:
        notes.append(f'{seats.plain(p)} said "{phrase}"')
    return Text(" · ".join(notes), style="italic")


def hand(view: dict[str, Any]) -> Text:
    if view["seat"] is None:
        return Text("")
    return Text.assemble(("Your hand ", "bold"), cards(view["hand"]), ("   ★ starts each round", "dim"))


def menu_key(view: dict[str, Any], text: str) -> tuple[int, ...]:
    """Cards in the order of your hand, then the rows' order (red, blue, yellow, green)."""
    words = text.split()
    hand_cards = view.get("hand") or []
    for w in words:
        if w in hand_cards:
            return (0, hand_cards.index(w))
    order = list(view["rows"])
    for w in words:
        if w in order:
            return (1, order.index(w))
    return (2, 0)


def end_reason(view: dict[str, Any]) -> str:
    r = view["result"]
    if r is None:
        return ""
    if r["cards_left"] == 0:
        return "the team laid its last card"
    return "nobody could lay a card, even with a shrine"


TIER = {"perfect": "perfect: the team wins", "almost": "almost", "keep_trying": "keep trying"}


def verdict(view: dict[str, Any]) -> Text:
    """The rulebook's verdict on the team's result, by the cards left (`result.tier`, `result.text`)."""
    r = view["result"]
    out = Text(f"Team result: {r['cards_left']} card(s) left, {TIER.get(r['tier'], r['tier'])}", style="bold")
    return out.append("\n" + r["text"], style="italic")


def scores(view: dict[str, Any], seats: Seats) -> RenderableType:
    """The verdict first, then every player's cards left (kept in hand, face up in front)."""
    r = view["result"]
    t = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    t.add_column("player", no_wrap=True)
    t.add_column("cards left", justify="right")
    t.add_column("kept in hand")
    t.add_column("face up in front")
    kept = r.get("hands", [])
    for p in range(view["players"]):
        hand = kept[p] if p < len(kept) else []
        front = view["fronts"][p]
        t.add_row(seats.name(p), str(len(hand) + len(front)), cards(hand), cards(front))
    return Group(verdict(view), t)


def open_hands(views: list[dict[str, Any]], seats: Seats) -> RenderableType:
    """Every hand laid open (replay after the end)."""
    lines = Text()
    for v in views:
        if lines:
            lines.append("\n")
        lines.append_text(seats.name(v["seat"], you_mark=False))
        lines.append(" ")
        lines.append_text(cards(v["hand"]))
    return lines
