"""SILOS in the full-screen terminal app: the seven locations, the UFO and every faction in 80x24, from a view."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tabletop.core.seatnames import FACTION_STYLE, Seats
from tabletop.games.silos.render import SHORT, _humans

MIN_SIZE = (80, 24)


def _figures(loc: dict[str, Any]) -> Text:
    """Per faction: L leader, D distinguished, then the plain figures' count, and the influence (`B:L2=3.5`)."""
    out = Text()
    lead = loc.get("leads")
    for colour, f in loc["figures"].items():
        n = f["figures"]
        if not (n or f["leader"] or f["distinguished"]):
            continue
        if out:
            out.append(" ")
        mark = colour[0].upper() + ":" + ("L" if f["leader"] else "") + "D" * f["distinguished"] + (str(n) if n else "")
        mark += f"={loc['influence'].get(colour, 0):g}"
        out.append(mark, style=FACTION_STYLE.get(colour, "bold") + (" reverse" if colour == lead else ""))
    return out


SHORT_NAMES = {"Town Hall": "Town Hall", "Sheriff's Office": "Sheriff", "University": "Univ.",
               "Shopping Mall": "Mall", "News Station": "News", "Church": "Church", "Bus Station": "Bus St."}
"""The locations' names where the full ones would not leave the board room (4 factions at 80 columns)."""


class _Widest:
    """The first of its renderables that fits in the width it is drawn at (else the last)."""

    def __init__(self, *choices: RenderableType) -> None:
        self.choices = choices

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = options.update(max_width=10_000)  # measured unclamped: its natural width
        for c in self.choices:
            if Measurement.get(console, wide, c).maximum <= options.max_width:
                yield c
                return
        yield self.choices[-1]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.choices[-1])


class _Board:
    """The board of locations, drawn so that no cell is cut: with the full names where they fit in the width it
    is drawn at, else the short names (and the streets without their arrow), then one column between columns,
    then without the streets (4 factions crowded at 80 columns)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view

    def build(self, short: bool, narrow: bool = False, streets: bool = True) -> Table:
        view = self.view
        board = Table(box=None, padding=(0, 1, 0, 0) if narrow else (0, 1), pad_edge=False, header_style="dim")
        board.add_column("#", justify="right", min_width=1, no_wrap=True)
        board.add_column("location", no_wrap=True)
        if streets:
            board.add_column("streets", no_wrap=True)
        board.add_column("figures=influence", no_wrap=True)
        board.add_column("focus", no_wrap=True)
        board.add_column("abduction", no_wrap=True)
        for loc in view["locations"]:
            name = (SHORT_NAMES.get(loc["name"], loc["name"]) if short else loc["name"]) + (
                "*" if loc["alternate"] else "")
            extra = []
            if loc["crop_circle"]:
                extra.append(f"○{loc['crop_circle'][0].upper()}")
            if loc["skill_tile"] is not None:
                extra.append("skill")
            focus = _humans(loc["focus"])
            n = sum(loc["focus"].values())
            focus = f"{n}/3 {focus}" if n else ""
            abd = Text()
            if loc["id"]:
                if view["ufo"] == loc["id"]:
                    abd.append("UFO ", style="bold reverse green")
                abd.append(("cow " if loc["cow"] else "") + (SHORT[loc["human"]] if loc["human"] else ""))
            near = sorted({b for a, b in view.get("streets", []) if a == loc["id"]}
                          | {a for a, b in view.get("streets", []) if b == loc["id"]})
            way = [Text(("" if short else "→") + ",".join(map(str, near)), style="dim")] if streets else []
            board.add_row(str(loc["id"]), Text(name + (" " + " ".join(extra) if extra else "")), *way,
                          _figures(loc), focus, abd)
        return board

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield _Widest(self.build(short=False), self.build(short=True), self.build(short=True, narrow=True),
                      self.build(short=True, narrow=True, streets=False))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.build(short=True, narrow=True, streets=False))


def table(view: dict[str, Any], seats: Seats) -> RenderableType:
    board = _Board(view)
    line = Text(f"Town Hall ranks {' > '.join(view['ranks'])} · UFO next at {view['ufo'] % 6 + 1} · common deck "
                f"{sum(view['common_deck'].values())}", style="dim")
    info = _Widest(line + Text(" · reversed: who leads there", style="dim"), line)
    players = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    for col in ("player", "humans", "cows", "emblems", "faction cards left"):
        players.add_column(col, no_wrap=True)
    for i, p in enumerate(view["seats"]):
        name = Text("▶ " if view["to_move"] == i else "  ").append_text(seats.with_agent(i))
        if p.get("figures_to_place"):
            name.append(f" +{p['figures_to_place']}", style="dim")
        fc = " ".join(n[:5] for n, up in p["faction_cards"].items() if up) or "-"
        if p["held_common"]:
            fc += " held " + " ".join(p["held_common"])
        players.add_row(name, _humans(p["humans"]), str(p["cows"]), f"{p['emblems']}/{view['emblem_target']}", fc)
    return Group(board, info, players)


def hand(view: dict[str, Any]) -> Text:
    out = Text()
    if view.get("card_in_play"):
        out.append("Card in play ", style="bold")
        out.append(" ".join(view["card_in_play"]) + "   ")
    if view.get("hand"):
        out.append("Humans to place ", style="bold")
        out.append(_humans(view["hand"]))
    return out


def menu_key(view: dict[str, Any], text: str) -> tuple[int, ...]:
    """Locations as numbered on the board (the first number in the action)."""
    m = re.search(r"\d+", text)
    return (int(m.group()),) if m else (99,)


def end_reason(view: dict[str, Any]) -> str:
    reached = [s["color"] for s in view["seats"] if s["emblems"] >= view["emblem_target"]]
    if reached:
        return f"{', '.join(reached)} reached {view['emblem_target']} emblems"
    return "the game is over"


def scores(view: dict[str, Any], seats: Seats) -> RenderableType:
    """The winners first, then every faction's emblems and tie-break (humans held + cows)."""
    won = [seats.plain(i) for i in view["winners"]]
    head = Text(("Winners: " if len(won) > 1 else "Winner: ") + (", ".join(won) or "none"), style="bold green")
    head.append("   most emblems; tie: more humans + cows", style="dim")
    t = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    for col in ("player", "emblems", "humans", "cows", "humans + cows", ""):
        t.add_column(col, no_wrap=True, justify="left" if col in ("player", "humans", "") else "right")
    for i, p in enumerate(view["seats"]):
        held = sum(p["humans"].values()) + p["cows"]
        t.add_row(seats.name(i), f"{p['emblems']}/{view['emblem_target']}", _humans(p["humans"]), str(p["cows"]),
                  str(held), Text("winner", style="bold green") if i in view["winners"] else "")
    return Group(head, t)


def open_hands(views: list[dict[str, Any]], seats: Seats) -> RenderableType:
    return Text("SILOS has no hidden hands: every faction's holdings are on the table above.", style="dim")
