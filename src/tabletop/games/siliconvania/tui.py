"""SiliconVania in the full-screen terminal app: your city and the council board in 100x30, others one key away."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletop.core.seatnames import Seats
from tabletop.games.siliconvania.components import OBJECTIVES
from tabletop.games.siliconvania.notation import COMPONENTS as C
from tabletop.games.siliconvania.render import (
    EFFECT_ABBR,
    _spec,
    city,
    free_bid_cards,
    free_hand,
    pools_text,
    tile_line,
)

MIN_SIZE = (100, 30)


def _seat_line(i: int, s: dict[str, Any], seats: Seats, to_move: int | None) -> Text:
    out = Text("▶ " if i == to_move else "  ").append_text(seats.name(i))
    out.append(f" I{s['innovation']} S{s['survival']} V{s['vampires']} ctr{s['contracts']}")
    bid = s.get("bid")
    if bid:
        out.append(f" bid {bid[0]} s{bid[1]}", style="bold")
    elif s["has_bid"]:
        out.append(" bid ▪", style="bold")
    return out


def _board(view: dict[str, Any], seats: Seats) -> Text:
    out = pools_text(view, "Pool {} ")
    out.append("Row ", style="bold")
    for j, r in enumerate(view["row"]):
        if j:
            out.append("\n    ")
        out.append_text(_spec(r))
    out.append("\nExchange ", style="bold")
    out.append(" ".join(f"t{t}" for t in view["exchange_pool"]) or "-")
    out.append(f"\nTrack (0-{len(C.track) - 1}): I moves right, S left", style="dim")
    for i, s in enumerate(view["seats"]):
        out.append("\n")
        out.append_text(_seat_line(i, s, seats, view["to_move"]))
    return out


def table(view: dict[str, Any], seats: Seats) -> RenderableType:
    me = view["seat"]
    head = Text(f"Round {view['round']}/8", style="bold")
    if view["order"]:
        head.append("  order " + " > ".join(seats.plain(q) for q in view["order"]), style="dim")
    head.append(f"  tiles {view['tile_deck']} specialists {view['specialist_deck']}", style="dim")
    if me is None:
        return Group(head, _board(view, seats), Text("o: the cities", style="dim"))
    s = view["seats"][me]
    right = _board(view, seats)
    mine = Text("Your bid cards ", style="bold")
    mine.append(" ".join(map(str, free_bid_cards(s))) or "none")
    if s.get("bid") and s.get("bid_value") is None:
        mine.append(f"\nYour bid (face down) {s['bid'][0]} with s{s['bid'][1]} {C.specialists[s['bid'][1]].name}")
    objectives = ", ".join(C.specialists[r].name for r in s["objectives"]) or "none yet"
    mine.append(f"\nObjectives {objectives}")
    if s["pending_tiles"]:
        mine.append("\nTo place ", style="bold")
        for j, t in enumerate(s["pending_tiles"]):
            if j:
                mine.append(" · ")
            mine.append_text(tile_line(t))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=61)
    grid.add_column()
    grid.add_row(city(s), Group(right, mine))
    return Group(head, grid)


def hand(view: dict[str, Any]) -> Text:
    me = view["seat"]
    if me is None:
        return Text("")
    out = Text("Hand ", style="bold")
    for k, r in enumerate(free_hand(view["seats"][me])):
        if k:
            out.append(" · ")
        sp = C.specialists[r]
        out.append(f"s{r} {sp.name} ")
        out.append(" ".join(EFFECT_ABBR[e] for e in sp.effect), style="green")
    return out


def others(view: dict[str, Any], seats: Seats) -> RenderableType:
    """The other cities, each under its seat's line."""
    me = view["seat"]
    parts = []
    for i, s in enumerate(view["seats"]):
        if i == me:
            continue
        parts.append(Group(_seat_line(i, s, seats, view["to_move"]), city(s)))
    return Columns(parts, padding=(0, 2))


def menu_key(view: dict[str, Any], text: str) -> tuple[int, ...]:
    return (0,)


def end_reason(view: dict[str, Any]) -> str:
    return "the eighth round was played: final scoring"


SCORE_ROWS = (("tile diversity (7 types)", "diversity"), ("housed vampires", "housed"), ("animals", "animals"),
              ("blood cluster", "blood"), ("council contracts", "contracts"), ("city objectives", "objectives"),
              ("tiara", "tiaras"))


def scores(view: dict[str, Any], seats: Seats) -> RenderableType:
    """The winners and every seat's total first, then the final scoring's breakdown, a column per seat."""
    final = view["final"]
    won = [seats.plain(w) for w in view["winners"]]
    head = Text(("Winners: " if len(won) > 1 else "Winner: ") + (", ".join(won) or "none"), style="bold green")
    head.append("   totals ", style="bold")
    head.append(" · ".join(f"{seats.plain(i)} {b['total']}" for i, b in enumerate(final)))
    best = max((b["total"] for b in final), default=0)
    if sum(1 for b in final if b["total"] == best) > 1:  # the rule's tie-break decided it
        head.append(f"   (tied on {best}: the most housed vampires wins)", style="dim")
    t = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    t.add_column("Final scoring", no_wrap=True)
    for i in range(len(final)):
        t.add_column(seats.name(i), justify="right", no_wrap=True)
    for label, key in SCORE_ROWS:
        t.add_row(label, *[str(b[key]) for b in final])
    for o, name in enumerate(OBJECTIVES):
        cells = []
        for b in final:
            k = b["objective_copies"][o]
            cells.append(f"{min(k, 3)}x{b['objective_values'][o]}" + (f" (+{k - 3} at 0)" if k > 3 else "")
                         if k else "")
        if any(cells):
            t.add_row(Text(f"  {name}", style="dim"), *cells)
    t.add_row(Text("animals counted", style="dim"), *[str(b["animals_count"]) for b in final])
    t.add_row(Text("Total", style="bold"), *[Text(str(b["total"]), style="bold") for b in final])
    return Group(head, t)


def open_hands(views: list[dict[str, Any]], seats: Seats) -> RenderableType:
    out = Text()
    for v in views:
        if out:
            out.append("\n")
        out.append_text(seats.name(v["seat"], you_mark=False))
        out.append(" ")
        out.append_text(hand(v))
    return out
