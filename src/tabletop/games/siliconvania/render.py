"""Terminal rendering of a SiliconVania view, drawn from the view only.

Layout, top to bottom: a status line; your city beside your counts and hand, and what happened since your last
decision; the council board (selection pools, specialist row, exchange pool); the shared track with every marker
and the supply; the other cities side by side; the legend; then, just above the menu (the top may have scrolled
away in a terminal), what the decision needs: your hand and bid cards, tiles to place and empty cells, the pools
when choosing one; at the end, the score breakdown instead; the status again.

A city is a 5x5 grid: the corner, the four perimeter slots above columns 1-4, and for each row a-d its left
perimeter slot and four building cells. A cell shows its type and tile id, then its icons (bN blood, cN coffins,
I innovation, S survival), its animal and its antiquity.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletop.core.logwords import render as render_entry
from tabletop.games.siliconvania.components import ANTIQUITY_KINDS, OBJECTIVES, TRACK_KINDS
from tabletop.games.siliconvania.notation import COMPONENTS, FIRST_TRAIN, UPGRADED

ABBR = {"Park": "Park", "Neighborhood": "Nbhd", "Metro": "Metro", "Mall": "Mall", "Mausoleum": "Maus",
        "Blood Bank": "BldBk", "Laboratory": "Lab"}
TYPE_STYLE = {"Park": "green", "Neighborhood": "yellow", "Metro": "blue", "Mall": "magenta",
              "Mausoleum": "bright_black", "Blood Bank": "red", "Laboratory": "cyan"}
TRACK_ABBR = {"": "", "contract": "ctr", "recover": "rec", "train": "trn", "relocate": "relo",
              "castle": "cast", "swap_objective": "swap", "upgrade_castle": "upg"}
TRACK_KEY = ("ctr contract, rec recover a bid card, trn train, relo relocate, cast castle, swap swap objective, "
             "upg upgrade castle")
EFFECT_ABBR = {"vampire": "+V", "innovation": "+I", "survival": "+S", "cat": "+cat", "hound": "+hound",
               "exchange": "exch", "antiquity": "antiq"}
ANTIQUITY_EFFECT = ("+2 blood", "gain I and S now, adds both icons", "covers 2 coffins, counts as an animal you lack",
                    "+3 coffins", "the building turns facedown, 4 VP")  # rulebook, Antiquities
LOG_WIDTH = 50  # the log panel beside your city
CELL_WIDTH = 11  # a city cell's columns


def _icons(blood: int, coffins: int, inn: int, surv: int) -> str:
    parts = []
    if blood:
        parts.append(f"b{blood}")
    if coffins:
        parts.append(f"c{coffins}")
    if inn or surv:
        parts.append(("I" if inn else "") + ("S" if surv else ""))
    return " ".join(parts)


def _bonus(bonus: tuple[int, ...]) -> str:
    return "".join("+" + "VIS"[b] for b in bonus)


def tile_line(t: int) -> Text:
    """One tile on one line: id, type, icons, animal and acquisition bonus."""
    x = COMPONENTS.tiles[t]
    ty = COMPONENTS.types[x.type]
    out = Text(f"t{t} ", style="dim")
    out.append(ABBR[ty], style=TYPE_STYLE[ty])
    extra = " ".join(s for s in (_icons(x.blood, x.coffins, x.innovation, x.survival),
                                 COMPONENTS.animals[x.animal] if x.animal >= 0 else "", _bonus(x.bonus)) if s)
    if extra:
        out.append(" " + extra)
    return out


def _cell(t: int, anti: int, label: str) -> Text:
    if t < 0:
        return Text(label + "\n", style="dim")
    x = COMPONENTS.tiles[t]
    ty = COMPONENTS.types[x.type]
    if anti == 4:  # Tiara: the building is facedown
        return Text(f"blank t{t}\nTiara 4VP", style="dim")
    blood, coffins, inn, surv = x.blood, x.coffins, x.innovation, x.survival
    if anti == 0:
        blood += 2
    elif anti == 1:
        inn = surv = 1
    elif anti == 2:
        coffins = max(0, coffins - 2)
    elif anti == 3:
        coffins += 3
    out = Text(ABBR[ty], style=f"bold {TYPE_STYLE[ty]}")
    out.append(f" t{t}", style="dim")
    icons = _icons(blood, coffins, inn, surv).replace(" ", "")
    mark = f"[{ANTIQUITY_KINDS[anti][0]}]" if anti >= 0 else ""
    animal = ""
    if x.animal >= 0:  # its first three letters, fewer where the cell (CELL_WIDTH) would cut the line
        name = COMPONENTS.animals[x.animal]
        room = CELL_WIDTH - len(icons) - len(mark)
        animal = " " + name[:3] if room >= 4 else name[:max(1, min(3, room))]
    out.append("\n" + icons)
    if animal:
        out.append(animal, style="italic")
    if mark:
        out.append(mark, style="bold yellow")
    return out


def _perim(v: int, label: str) -> Text:
    if v < 0:
        return Text(label + "\n", style="dim")
    if v >= FIRST_TRAIN:
        b, c = COMPONENTS.trains[v - FIRST_TRAIN]
        return Text(f"Train {v - FIRST_TRAIN + 1}\n{_icons(b, c, 0, 0).replace(' ', '')}", style="bold white on grey23")
    x = COMPONENTS.castles[v % UPGRADED]
    ty = COMPONENTS.types[x.type]
    out = Text(f"C:{ABBR[ty]}", style=f"bold {TYPE_STYLE[ty]} on grey23")
    out.append("\n" + _icons(x.blood, x.coffins, x.innovation, x.survival).replace(" ", ""), style="on grey23")
    if x.animal >= 0:
        out.append(" " + COMPONENTS.animals[x.animal][:3], style="italic on grey23")
    if v >= UPGRADED:
        out.append(" Scp", style="bold on grey23")
    return out


def city(seat: dict[str, Any]) -> Table:
    """A city as a compact 5x5 grid with its perimeter tiles in the top row and left column."""
    t = Table(box=box.SQUARE, show_header=False, show_lines=True, padding=(0, 0), pad_edge=False)
    for _ in range(5):
        t.add_column(justify="center", width=CELL_WIDTH, no_wrap=True)
    per = seat["perimeter"]
    t.add_row(Text(""), *[_perim(per[c], f"top{c + 1}") for c in range(4)])
    for r in range(4):
        cells = [_cell(seat["grid"][r * 4 + c], seat["antiquities"][r * 4 + c], f"{'abcd'[r]}{c + 1}")
                 for c in range(4)]
        t.add_row(_perim(per[4 + r], f"left{'abcd'[r]}"), *cells)
    return t


def _seat_summary(i: int, s: dict[str, Any], you: bool) -> Text:
    """A seat's public counts in short lines (so it fits beside a city)."""
    out = Text(f"Seat {i}" + (" (you)" if you else ""), style="bold cyan" if you else "bold")
    out.append(f"  V{s['vampires']}" + (f" cat{s['cats']}" if s["cats"] else "")
               + (f" hound{s['hounds']}" if s["hounds"] else ""))
    out.append(f"\ncontracts {s['contracts']}  track I{s['innovation']} S{s['survival']}")
    bid = s.get("bid")
    if bid:
        value = s.get("bid_value")
        as_0 = " (as 0)" if s.get("bid_as_0") else ""
        out.append(f"\nbid {bid[0]}{as_0}" + (f" (counts {value})" if value is not None and value != bid[0] else "")
                   + f" with s{bid[1]} {COMPONENTS.specialists[bid[1]].name}")
    elif s["has_bid"]:
        out.append("\nbid placed (hidden)")
    if "bid_cards" in s:  # your own (ruling V-22: the others' stay hidden)
        out.append(f"\nbid cards {' '.join(map(str, free_bid_cards(s))) or '-'}")
    else:
        played = " ".join("rec" if c < 0 else str(c) for c in s["bid_history"]) or "-"
        out.append(f"\nbid cards {s['bid_cards_count']} (played {played})")
    out.append(f"\nhand {s['hand_size']}  discard {s['discard_size']}")
    objs = ", ".join(COMPONENTS.specialists[r].name for r in s["objectives"]) or "none yet"
    out.append(f"\nobjectives: {objs}")
    if s["pending_tiles"]:
        out.append("\nto place: " + ", ".join(f"t{t}" for t in s["pending_tiles"]))
    return out


def free_bid_cards(s: dict[str, Any]) -> list[int]:
    """Your bid cards without the one lying face down as your bid (it is shown once, as the bid)."""
    bid = s.get("bid")
    cards = list(s.get("bid_cards") or [])
    if bid and bid[0] in cards:
        cards.remove(bid[0])
    return cards


def free_hand(s: dict[str, Any]) -> list[int]:
    """Your specialists without the one bid face down with your bid card."""
    bid = s.get("bid")
    hand = list(s.get("hand") or [])
    if bid and bid[1] in hand:
        hand.remove(bid[1])
    return hand


def _spec(r: int) -> Text:
    s = COMPONENTS.specialists[r]
    out = Text(f"s{r:<2} ", style="bold")
    out.append(f"{s.name:<14}")
    out.append(" ".join(EFFECT_ABBR[e] for e in s.effect), style="green")
    return out


def _you(view: dict[str, Any], me: int) -> RenderableType:
    s = view["seats"][me]
    info = Text("Your city and hand\n", style="bold reverse cyan")
    info.append_text(_seat_summary(me, s, True))
    info.append("\nYour hand (rank, name, bid effect):\n", style="bold")
    for r in free_hand(s):
        info.append_text(_spec(r))
        info.append("\n")
    if s.get("bid_discards"):
        info.append(f"used bid cards: {' '.join(map(str, s['bid_discards']))}\n", style="dim")
    if s["discard"]:
        info.append("specialist discard: " + " ".join(f"s{r}" for r in s["discard"]) + "\n", style="dim")
    if s["pending_tiles"]:
        info.append("Tiles to place:\n", style="bold")
        for t in s["pending_tiles"]:
            info.append_text(tile_line(t))
            info.append("\n")
    info.rstrip()
    grid = Table.grid(padding=(0, 1))
    grid.add_column()
    grid.add_column(max_width=36)
    grid.add_row(city(s), info)
    return grid


def _log(view: dict[str, Any], me: int | None) -> RenderableType | None:
    log = view.get("log", [])
    if not log:
        return None
    start = 0
    if me is not None:
        for k in range(len(log) - 1, -1, -1):
            if log[k]["seat"] == me and " revealed bid " not in log[k]["text"]:
                start = k + 1
                break
    recent = log[start:][-14:] or log[-6:]
    texts = [render_entry(e, None, me) for e in recent]
    lines = Text()
    for e, text in zip(recent, texts, strict=True):
        lines.append(text + "\n", style="dim" if e["seat"] is None else "")
    lines.rstrip()
    title = "Since your last decision" if me is not None else "Recent events"
    return Panel(lines, title=title, title_align="left", expand=False,
                 width=min(LOG_WIDTH, 4 + max(len(t) for t in texts)))


def pools_text(view: dict[str, Any], label: str = "{}: ") -> Text:
    """The selection pools, a line each (`label` formatted with the pool's number), "taken" for an empty one."""
    out = Text()
    for k, p in enumerate(view["pools"]):
        out.append(label.format(k + 1), style="bold")
        if not p:
            out.append("taken", style="dim")
        for j, t in enumerate(p):
            if j:
                out.append(" + ")
            out.append_text(tile_line(t))
        out.append("\n")
    return out


def _board(view: dict[str, Any]) -> tuple[RenderableType, RenderableType]:
    """The council board's pools, specialist row and exchange pool; and the track with the supply."""
    board = Table(title="Council board", box=box.SIMPLE_HEAD, title_style="bold", pad_edge=False)
    board.add_column("Selection pools")
    board.add_column("Specialist row")
    board.add_column("Exchange pool")
    pools = pools_text(view)
    pools.rstrip()
    row = Text()
    for r in view["row"]:
        row.append_text(_spec(r))
        row.append("\n")
    row.rstrip()
    xp = Text()
    for t in view["exchange_pool"]:
        xp.append_text(tile_line(t))
        xp.append("\n")
    xp.rstrip()
    board.add_row(pools or Text("-"), row or Text("-"), xp)
    track = Table(box=box.MINIMAL, show_header=True, pad_edge=False, padding=(0, 1),
                  title="Track: Innovation markers move right (I), Survival markers left (S)", title_style="")
    for i, k in enumerate(COMPONENTS.track):
        track.add_column(f"{i}\n{TRACK_ABBR[TRACK_KINDS[k]]}", justify="center")
    marks: list[list[str]] = [[] for _ in COMPONENTS.track]
    for q, s in enumerate(view["seats"]):
        marks[s["innovation"]].append(f"I{q}")
        marks[s["survival"]].append(f"S{q}")
    track.add_row(*[" ".join(m) for m in marks])
    key = Text(TRACK_KEY, style="dim")
    sup = view["supply"]
    anti: dict[str, int] = {}
    for a in sup["antiquities"]:
        anti[ANTIQUITY_KINDS[a]] = anti.get(ANTIQUITY_KINDS[a], 0) + 1
    castles = " ".join(ABBR[COMPONENTS.types[c]] for c in sup["castles"])
    supply = Text(
        f"Supply: {sup['vampires']} vampires, {sup['cats']} cats, {sup['hounds']} hounds, "
        f"{sup['contracts']} contracts; castles: {castles or 'none'}; "
        f"trains: {' '.join(str(t + 1) for t in sup['trains']) or 'none'}; antiquities: "
        + (", ".join(f"{k}x{n}" if n > 1 else k for k, n in anti.items()) or "none")
        + f"\nTile stack {view['tile_deck']}, specialist deck {view['specialist_deck']}."
        + (f" Bid order this round: {' > '.join(f'seat {q}' for q in view['order'])}." if view["order"] else ""),
        style="dim")
    return board, Group(track, key, supply)


def _final(view: dict[str, Any], me: int | None) -> RenderableType:
    t = Table(title="Final scoring", box=box.SIMPLE_HEAVY, title_style="bold")
    t.add_column("")
    n = len(view["final"])
    for i in range(n):
        t.add_column(f"seat {i}" + (" (you)" if i == me else ""), justify="right")
    rows = [("Tile diversity (7 types)", "diversity"), ("Housed vampires", "housed"), ("Animals", "animals"),
            ("Blood cluster", "blood"), ("Council contracts", "contracts"), ("City objectives", "objectives"),
            ("Tiara", "tiaras")]
    for label, key in rows:
        t.add_row(label, *[str(b[key]) for b in view["final"]])
    for o, name in enumerate(OBJECTIVES):
        cells = []
        for b in view["final"]:
            k = b["objective_copies"][o]
            cells.append(f"{min(k, 3)}x{b['objective_values'][o]}" + (f" (+{k - 3} at 0)" if k > 3 else "")
                         if k else "")
        if any(cells):
            t.add_row(Text(f"  {name}", style="dim"), *cells)
    t.add_row(Text("Animals counted", style="dim"), *[str(b["animals_count"]) for b in view["final"]])
    t.add_row(Text("Total", style="bold"), *[Text(str(b["total"]), style="bold") for b in view["final"]])
    win = ", ".join(f"seat {w}" for w in view["winners"])
    return Group(t, Text(f"Winner{'s' if len(view['winners']) > 1 else ''}: {win} "
                         "(ties: most housed vampires, then shared)", style="bold green"))


def _recap(view: dict[str, Any], me: int) -> RenderableType:
    """What this decision needs, repeated beside the menu (the table above may have scrolled away)."""
    s = view["seats"][me]
    out = Text()
    out.append("Your hand: ", style="bold")
    for k, r in enumerate(free_hand(s)):
        if k:
            out.append(" · ")
        sp = COMPONENTS.specialists[r]
        out.append(f"s{r} {sp.name} ", style="bold")
        out.append(" ".join(EFFECT_ABBR[e] for e in sp.effect), style="green")
    out.append(f"\nYour bid cards: {' '.join(map(str, free_bid_cards(s))) or 'none'}"
               f"   vampires {s['vampires']}   track I{s['innovation']} S{s['survival']}")
    if s["pending_tiles"]:
        out.append("\nTiles to place: ", style="bold")
        for k, t in enumerate(s["pending_tiles"]):
            if k:
                out.append(" · ")
            out.append_text(tile_line(t))
        empty = [f"{'abcd'[i // 4]}{i % 4 + 1}" for i, t in enumerate(s["grid"]) if t < 0]
        out.append(f"\nEmpty cells: {' '.join(empty) or 'none'}")
    decision = view["decision"] if view["to_move"] == me else ""
    if "train" in decision:
        out.append("\nTrains in the supply: ", style="bold")
        out.append(" · ".join(f"train {t + 1} {_icons(COMPONENTS.trains[t][0], COMPONENTS.trains[t][1], 0, 0)}"
                              for t in view["supply"]["trains"]))
    if "castle" in decision and "upgrade" not in decision:
        out.append("\nCastles in the supply: ", style="bold")
        for k, c in enumerate(view["supply"]["castles"]):
            x = COMPONENTS.castles[c]
            out.append(" · " if k else "")
            out.append(COMPONENTS.types[x.type].lower(), style=TYPE_STYLE[COMPONENTS.types[x.type]])
            out.append(" " + " ".join(v for v in (_icons(x.blood, x.coffins, x.innovation, x.survival),
                                                  COMPONENTS.animals[x.animal] if x.animal >= 0 else "") if v))
    if "antiquity" in decision:
        kinds = sorted(set(view["supply"]["antiquities"]))
        out.append("\nAntiquities in the supply: ", style="bold")
        out.append(" · ".join(f"{ANTIQUITY_KINDS[a]} ({ANTIQUITY_EFFECT[a]})" for a in kinds))
    if "exchange" in decision:
        out.append("\nExchange pool: ", style="bold")
        for k, t in enumerate(view["exchange_pool"]):
            out.append(" · " if k else "")
            out.append_text(tile_line(t))
    if "specialist" in decision:
        out.append("\nSpecialist row: ", style="bold")
        for k, r in enumerate(view["row"]):
            out.append(" · " if k else "")
            spec = COMPONENTS.specialists[r]
            out.append(f"s{r} {spec.name} " + " ".join(EFFECT_ABBR[e] for e in spec.effect))
    if "objective" in decision:
        out.append("\nYour objectives: " + (", ".join(f"s{r} {COMPONENTS.specialists[r].name}" for r in s["objectives"])
                                             or "none yet"))
    if view["order"] and decision:
        out.append("\nOrder this round: " + " > ".join("you" if q == me else f"seat {q}" for q in view["order"]))
    if "pool" in decision:
        for k, pool in enumerate(view["pools"]):
            if pool:
                out.append(f"\nPool {k + 1}: ", style="bold")
                for j, t in enumerate(pool):
                    if j:
                        out.append(" + ")
                    out.append_text(tile_line(t))
    return out


def _status(view: dict[str, Any], me: int | None) -> Text:
    head = f"SiliconVania — round {view['round']}/8 — "
    if view["to_move"] is None:
        return Text(head + "game over", style="bold")
    if view["to_move"] == me:
        return Text(head + f"your decision: {view['decision']}", style="bold reverse")
    return Text(head + f"seat {view['to_move']} to {view['decision']}", style="bold")


def _other(i: int, seat: dict[str, Any]) -> RenderableType:
    if all(t < 0 for t in seat["grid"]) and all(v < 0 for v in seat["perimeter"]):
        return Group(_seat_summary(i, seat, False), Text("city: no tiles yet", style="dim"))
    return Group(_seat_summary(i, seat, False), city(seat))


def render(view: dict[str, Any]) -> RenderableType:
    """Draw the table from one seat's view (or a spectator's)."""
    me = view["seat"]
    status = _status(view, me)
    parts: list[RenderableType] = [status]
    log = _log(view, me)
    if me is not None:
        parts.append(_you(view, me) if log is None else Columns([_you(view, me), log]))
    elif log is not None:
        parts.append(log)
    board, track = _board(view)
    parts += [board, track]
    others = [i for i in range(len(view["seats"])) if i != me]
    parts.append(Columns([_other(i, view["seats"][i]) for i in others], padding=(0, 3)))
    parts.append(Text("Cells: type, tile id / bN blood, cN coffins, I innovation, S survival, animal, "
                      "[G]oblet [S]cepter [C]ollar [B]angle. "
                      "Perimeter (grey): C: castle, Train; top1-4 above columns, lefta-d left of rows; Scp scorpion.",
                      style="dim"))
    if "final" in view:
        parts.append(_final(view, me))
    elif me is not None:
        parts.append(_recap(view, me))
    parts.append(status)
    return Group(*parts)
