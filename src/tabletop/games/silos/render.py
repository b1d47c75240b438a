"""Terminal drawing of a SILOS table, from a view only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletop.core.logwords import render as render_entry

STYLE = {"blue": "bold blue", "yellow": "bold yellow", "purple": "bold magenta", "green": "bold green"}
SHORT = {"politician": "Pol", "government": "Gov", "influencer": "Inf", "professional": "Pro"}
LEGEND = ("figures: L leader (1.5), D distinguished (2), o figure (1); influence: > marks who leads there "
          "(ties go to the better Town Hall rank); a focus group at 3/3 triggers mind control")
LOG_LINES = 14


def _figures(figs: dict[str, Any]) -> Text:
    out = Text()
    for color, f in figs.items():
        if out:
            out.append(" ")
        mark = color[0].upper() + ":" + ("L" if f["leader"] else "")
        mark += "D" * f["distinguished"] + "o" * f["figures"]
        out.append(mark, style=STYLE.get(color, "bold"))
    return out


def _influence(loc: dict[str, Any]) -> Text:
    out = Text()
    lead = loc.get("leads")
    for color, v in loc["influence"].items():
        if out:
            out.append(" ")
        mark = (">" if color == lead else "") + f"{color[0].upper()}{v:g}"
        out.append(mark, style=STYLE.get(color, "") + (" underline" if color == lead else ""))
    return out


def _humans(d: dict[str, int]) -> str:
    return " ".join(f"{SHORT[t]}{'×' + str(n) if n > 1 else ''}" for t, n in d.items() if n) or "-"


def _cards(d: dict[str, int]) -> str:
    return " ".join(f"{n}:{k}" for n, k in d.items()) or "-"


def _who(view: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return f"{view['seats'][seat]['color']} (seat {seat})"


def render(view: dict[str, Any]) -> RenderableType:
    """The board (locations, streets, figures by faction, who leads), players, deck, recent events, the decision."""
    me = view.get("seat")
    title = "SILOS" + (f" — you are {_who(view, me)}" if me is not None else "")
    board = Table(title=title, expand=False)
    for col in ("#", "location", "streets", "figures", "influence", "focus", "abduction", "extra"):
        board.add_column(col)
    for loc in view["locations"]:
        name = loc["name"] + ("*" if loc["alternate"] else "")
        if loc["crop_circles_tile"]:
            name += " (crop tile)"
        abd = ""
        if loc["id"]:
            abd = ("cow " if loc["cow"] else "no cow ") + (SHORT[loc["human"]] if loc["human"] else "no human")
            if view["ufo"] == loc["id"]:
                abd = "UFO " + abd
        focus = _humans(loc["focus"])
        n = sum(loc["focus"].values())
        if n:
            focus += f" ({n}/3)"
        extra = []
        if loc["crop_circle"]:
            extra.append(f"circle:{loc['crop_circle']}")
        if loc["skill_tile"] is not None:
            extra.append(f"skill:{loc['skill_tile']}")
        streets = " ".join(str(x) for x in loc.get("streets", []))
        board.add_row(str(loc["id"]), Text(name), streets, _figures(loc["figures"]), _influence(loc), focus, abd,
                      " ".join(extra))
    seats = Table(expand=False)
    modules = any(p["crop_tokens_left"] for p in view["seats"]) or any(
        loc["crop_circle"] for loc in view["locations"])
    skills_on = any(loc["skill_tile"] is not None for loc in view["locations"])
    cols = ["seat", "humans", "cows", "emblems", "faction cards", "held"]
    if modules:
        cols.append("crop tokens")
    if skills_on:
        cols.append("skill tiles")
    for col in cols:
        seats.add_column(col)
    for i, p in enumerate(view["seats"]):
        mark = ">" if view["to_move"] == i else ("*" if view["active"] == i else " ")
        cards = " ".join(n for n, up in p["faction_cards"].items() if up) or "-"
        held = " ".join(f"{n}×{k}" for n, k in p["held_common"].items()) or "-"
        label = f"{mark}{i} {p['color']}" + (" (you)" if me == i else "")
        if p.get("figures_to_place"):
            label += f" [{p['figures_to_place']} to place]"
        row: list[Text | str] = [Text(label, style=STYLE.get(p["color"], "")), _humans(p["humans"]),
                                 str(p["cows"]), f"{p['emblems']}/{view['emblem_target']}", cards, held]
        if modules:
            row.append(str(p["crop_tokens_left"]))
        if skills_on:
            row.append(" ".join(str(loc["id"]) for loc in view["locations"] if loc["skill_tile"] == p["color"])
                       or "-")
        seats.add_row(*row)
    npf = view.get("non_player_faction")
    lines: list[RenderableType] = [
        Text(LEGEND, style="dim"),
        Text(f"Town Hall ranks: {' > '.join(view['ranks'])}"
             + (f" ({npf} is the non-player faction, locked at rank 1)" if npf else "")
             + f"   UFO at {view['ufo']}, next {view['ufo'] % 6 + 1}"),
        Text(f"Common deck ({sum(view['common_deck'].values())} left): {_cards(view['common_deck'])}   "
             f"discards: {_cards({n: k for n, k in view['common_discards'].items() if k})}"),
        Text(f"Supply: cows {view['supply']['cows']}, caps {view['supply']['caps']}, emblems "
             f"{view['supply']['emblems']}; bag {sum(view['bag'].values())} ({_humans(view['bag'])})"),
    ]
    if view.get("card_in_play"):
        lines.append(Text(f"Card in play: {_cards(view['card_in_play'])}"))
    if view["hand"]:
        lines.append(Text(f"Humans to place: {_humans(view['hand'])}", style="bold"))
    lines.extend(_log(view, me))
    if view["to_move"] is None:
        lines.append(_result(view, me))
        status = Text(f"Game over. Winners: {', '.join(view['seats'][w]['color'] for w in view['winners'])}",
                      style="bold")
    elif view["to_move"] == me:
        status = Text(f"Decision for you: {view.get('decision', view['phase'])}", style="bold reverse")
    else:
        status = Text(f"Decision for {_who(view, view['to_move'])}: {view.get('decision', view['phase'])}",
                      style="bold")
    lines.append(status)
    return Group(board, seats, *lines)


def _log(view: dict[str, Any], me: int | None) -> list[Text]:
    """The events since your last decision (yours dimmed), or the last few, from the view's log tail.

    Entries are `{"seat", "text"}` (rendered for the reader: "You ..."); your last entry is your last decision or
    what came of it. When the tail does not reach back to it, says how many earlier entries `log(seat)` holds.
    """
    log = view.get("log") or []
    if not log:
        return []
    pos = view.get("log_pos", len(log))
    if me is None:
        recent, title = log[-LOG_LINES:], "Recent events (oldest first):"
    else:
        own = [k for k, e in enumerate(log) if _is_decision_of(view, e, me)]
        if own and own[-1] + 1 < len(log):
            recent, title = log[own[-1] + 1:], "Recent events since your last decision (oldest first):"
        elif own:
            recent, title = log[-4:], "Recent events: your last actions"
        else:
            recent, title = log, "Recent events since your last decision (oldest first):"
    out = [Text(title, style="underline")]
    earlier = pos - len(recent[-LOG_LINES:])
    if earlier > 0:
        out.append(Text(f"  ... {earlier} earlier (the full history: log)", style="dim"))
    for e in recent[-LOG_LINES:]:
        text = render_entry(e, None, me)
        own_line = me is not None and _is_decision_of(view, e, me)
        out.append(Text("  " + text, style="dim" if text.endswith(" turn") or own_line else ""))
    return out


def _is_decision_of(view: dict[str, Any], entry: dict[str, Any], seat: int) -> bool:
    return bool(entry["seat"] == seat)


def _result(view: dict[str, Any], me: int | None) -> Table:
    """Final standings: emblems decide, then humans + cows (the rulebook's tie-break)."""
    t = Table(title="Result", title_justify="left", expand=False)
    for col in ("seat", "emblems", "humans + cows (tie-break)", ""):
        t.add_column(col)
    for i, p in enumerate(view["seats"]):
        held = sum(p["humans"].values()) + p["cows"]
        t.add_row(Text(f"{i} {p['color']}" + (" (you)" if me == i else ""), style=STYLE.get(p["color"], "")),
                  str(p["emblems"]), str(held), "winner" if i in view["winners"] else "")
    return t
