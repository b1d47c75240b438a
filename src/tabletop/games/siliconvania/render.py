"""Terminal rendering of a SiliconVania view: council board, cities as 4x4 grids with perimeter, hand, scores."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletop.games.siliconvania.components import ANTIQUITY_KINDS, TRACK_KINDS, load

C = load()
ABBR = {"Park": "Prk", "Neighborhood": "Nbh", "Metro": "Met", "Mall": "Mal", "Mausoleum": "Mau",
        "Blood Bank": "Bld", "Laboratory": "Lab"}
OBJ_SHORT = {s.rank: s.name for s in C.specialists.values()}


def _tile(t: int) -> str:
    if t < 0:
        return "·"
    x = C.tiles[t]
    icons = "b" * x.blood + "c" * x.coffins + ("I" if x.innovation else "") + ("S" if x.survival else "")
    animal = C.animals[x.animal][:3] if x.animal >= 0 else ""
    return f"t{t} {ABBR[C.types[x.type]]}\n{icons} {animal}".rstrip()


def _perim(v: int) -> str:
    if v < 0:
        return ""
    if v >= 20:
        b, c = C.trains[v - 20]
        return f"Train {v - 19}\n{'b' * b}{'c' * c}"
    up = v >= 7
    return f"Castle {ABBR[C.types[v % 7]]}" + ("\n+Scorpion" if up else "")


def _spec(r: int) -> str:
    s = C.specialists[r]
    return f"s{r} {s.name} [{', '.join(s.effect)}]"


def _city(seat: dict[str, Any], title: str) -> Table:
    t = Table(title=title, show_lines=True, show_header=False)
    for _ in range(5):
        t.add_column(justify="center", min_width=9)
    per = seat["perimeter"]
    t.add_row("", *[_perim(per[c]) for c in range(4)])
    for r in range(4):
        cells = []
        for c in range(4):
            i = r * 4 + c
            txt = _tile(seat["grid"][i])
            if seat["antiquities"][i] >= 0:
                txt += f"\n[{ANTIQUITY_KINDS[seat['antiquities'][i]]}]"
            cells.append(f"{'abcd'[r]}{c + 1}: {txt}" if seat["grid"][i] >= 0 else f"{'abcd'[r]}{c + 1}")
        t.add_row(_perim(per[4 + r]), *cells)
    return t


def _seat_line(i: int, s: dict[str, Any]) -> str:
    bid = s.get("bid")
    bid_txt = f"bid {bid[0]} s{bid[1]}" if bid else ("bid placed" if s["has_bid"] else "no bid yet")
    objs = ", ".join(OBJ_SHORT[r] for r in s["objectives"]) or "none"
    return (f"Seat {i}: vampires {s['vampires']} cats {s['cats']} hounds {s['hounds']} contracts "
            f"{s['contracts']} | track I{s['innovation']} S{s['survival']} | bid cards {s['bid_cards']} | "
            f"hand {s['hand_size']} discard {s['discard_size']} | {bid_txt} | objectives: {objs}")


def render(view: dict[str, Any]) -> RenderableType:
    """Draw the table from one seat's view (or a spectator's)."""
    parts: list[RenderableType] = []
    me = view["seat"]
    head = f"SiliconVania — round {view['round']}/8 — "
    head += "game over" if view["to_move"] is None else f"seat {view['to_move']} to {view['decision']}"
    parts.append(Text(head, style="bold"))
    board = Table(title="Council board", show_header=True)
    board.add_column("Selection pools")
    board.add_column("Specialist row")
    board.add_column("Exchange pool")
    pools = "\n".join(f"{k + 1}: " + " + ".join(_tile(t).replace("\n", " ") for t in p)
                      for k, p in enumerate(view["pools"])) or "-"
    row = "\n".join(_spec(r) for r in view["row"]) or "-"
    xp = "\n".join(_tile(t).replace("\n", " ") for t in view["exchange_pool"])
    board.add_row(pools, row, xp)
    parts.append(board)
    spaces = " ".join(f"{i}:{TRACK_KINDS[k] or '-'}" for i, k in enumerate(C.track))
    parts.append(Text(f"Track (Innovation 0→{len(C.track) - 1}, Survival {len(C.track) - 1}→0): {spaces}"))
    markers = ", ".join(f"seat {i}: I{s['innovation']}/S{s['survival']}" for i, s in enumerate(view["seats"]))
    parts.append(Text(f"Markers: {markers}   Supply: {view['supply']}"))
    for i, s in enumerate(view["seats"]):
        parts.append(Text(_seat_line(i, s)))
        parts.append(_city(s, f"City of seat {i}" + (" (you)" if i == me else "")))
    if me is not None:
        s = view["seats"][me]
        parts.append(Text("Your hand: " + "; ".join(_spec(r) for r in s["hand"]), style="cyan"))
        parts.append(Text(f"Your silent bid cards: {s['bid_cards']}  discarded: {s['bid_discards']}  "
                          f"your specialist discard: {s['discard']}", style="cyan"))
        if s["pending_tiles"]:
            parts.append(Text("Tiles to place: " + ", ".join(f"t{t}" for t in s["pending_tiles"])))
    if "final" in view:
        t = Table(title="Final scoring")
        cols = ["seat", "diversity", "housed", "animals", "blood", "contracts", "objectives", "tiaras", "total"]
        for c in cols:
            t.add_column(c)
        for i, b in enumerate(view["final"]):
            t.add_row(str(i), *[str(b[c]) for c in cols[1:]])
        parts.append(t)
        parts.append(Text(f"Winners: {view['winners']}", style="bold green"))
    return Group(*parts)
