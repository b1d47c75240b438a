"""Silencio: what each seat sees. The view of the table, the decision and the log's events in words.

Hidden information is gated here and in the log (`SilencioState._log`): a seat sees its own hand, the cards it knows
the place of (`known`, a bit per seat plus PUBLIC), and the rest only as counts; samples of what it cannot see are
`SilencioState._sample`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.core import Seat, View
from tabletop.games.silencio.components import COMPONENTS
from tabletop.games.silencio.notation import (
    COLOURS,
    EFFECT,
    END,
    LARGE,
    LOG_TAIL,
    OVER,
    PASSING,
    PENDING_TEXT,
    PHASE_NAMES,
    PLAY_HOW,
    PUBLIC,
    SHRINE_NAMES,
    card_text,
)

if TYPE_CHECKING:
    from tabletop.games.silencio.rules import SilencioState


def knows(s: SilencioState, seat: Seat | None, c: int) -> bool:
    """Whether `seat` (None: a spectator) knows where card c is."""
    return bool(s.known[c] & (PUBLIC if seat is None else 1 << seat))

def table_view(s: SilencioState, seat: Seat | None) -> View:
    """All that `seat` may see (None: a spectator)."""
    over = s.phase == OVER
    v: View = {
        "game": "silencio",
        "players": s.players,
        "seat": seat,
        "to_move": s.to_move,
        "turn": None if over or s.phase == PASSING else s.turn,
        "first_player": s.first,
        "phase": PHASE_NAMES[s.phase],
        "decision": decision_text(s),
        "max_value": s.max_value,
        "rows": {COLOURS[i]: list(r) for i, r in enumerate(s.rows)},
        "halves": {COLOURS[i]: ["dark" if d else "light" for d in h] for i, h in enumerate(s.halves)},
        "shrines": {SHRINE_NAMES[i]: ("light" if lit else "dark") for i, lit in enumerate(s.shrines)},
        "oracle": [card_text(c) for c in s.oracle],
        "deck": len(s.deck),
        "box": sorted(card_text(c) for c in s.box),
        "hand_sizes": [len(h) for h in s.hands],
        "hand": None if seat is None else [card_text(c) for c in sorted(s.hands[seat])],
        "known": {
            str(q): [card_text(c) for c in sorted(s.hands[q]) if knows(s, seat, c)]
            for q in range(s.players) if q != seat
        },
        "fronts": [[card_text(c) for c in f] for f in s.fronts],
        "effects": {
            "skip_next_dark": s.skip_dark,
            "skip_next_light": s.skip_light,
            "green_only": s.green_only,
            "random_play": None if s.random_play < 0 else s.random_play,
        },
        "tavern": None if not s.tavern else {
            "open": s.tavern_open,
            "dark_effects": s.tavern_count,
            "opens_at": COMPONENTS.tavern_opens_after,
        },
        "said": [[p, t] for p, t in s.said],
        "log": s._log(seat, max(0, s._nev - LOG_TAIL)),
        "log_pos": s._nev,
        "cards_left": s.cards_left(),
        "result": None,
    }
    if over:
        tier = s.result_tier()
        v["result"] = {
            "tier": tier, "cards_left": s.cards_left(), "text": COMPONENTS.tiers[tier],
            # the game is over: the hands are laid open to count them (ruling C-19)
            "hands": [[card_text(c) for c in sorted(h)] for h in s.hands],
        }
    return v

def decision_text(s: SilencioState) -> str:
    """What the seat to move is deciding, in words (seats from 1, as people count them)."""
    if s.phase == OVER or s.to_move is None:
        return "the game is over"
    if s.phase == PASSING:
        return f"Player {s.to_move + 1} passes a card to the left"
    if s.phase == EFFECT:
        return f"Player {s.to_move + 1}: {PENDING_TEXT[s.pending]}"
    if s.phase == END:
        return f"Player {s.to_move + 1} may take a light shrine, or end the turn"
    return f"Player {s.to_move + 1} plays a card" + (" (green only)" if s.green_only else "")

def event_texts(e: tuple[Any, ...]) -> tuple[str, str]:
    """An event's text for those who did not see its card and for those who did (the same but for gifts); seats
    are written as tokens (`{p2}`: `tabletop.core.logwords`)."""
    kind, p = e[0], e[1]
    if kind == "give" or kind == "giveto":
        q, c = e[2], e[3]
        public = f"{{p{p}}} gave a card to {{p{q}}}"
        return public, (f"{{p{p}}} gave {card_text(c)} to {{p{q}}}" if c >= 0 else public)
    text = event_text(e)
    return text, text

def event_text(e: tuple[Any, ...]) -> str:
    """An event's words (for gifts: as those who did not see the card read it)."""
    kind, p = e[0], e[1]
    if kind == "play":
        return f"{{p{p}}} played {card_text(e[2])}{PLAY_HOW[e[3]]}"
    if kind == "pass":
        return f"{{p{p}}} passed"
    if kind == "random":
        return f"{{p{p}}} drew {card_text(e[2])} at random: " + ("played" if e[3] else "cannot be played, back to hand")
    if kind == "shrine":
        name = "large shrine" if e[2] == LARGE else f"{COLOURS[e[2]]} shrine"
        return f"{{p{p}}} took the {name} ({COLOURS[e[3]]} light)"
    if kind == "take":
        return f"{{p{p}}} took {card_text(e[2])} from its row"
    if kind == "place":
        return f"{{p{p}}} placed {card_text(e[2])} face up in front of {{p{p}'s}} seat"
    if kind == "choose":
        if e[2] == p:
            return f"{{p{p}}} chose to use the green light themselves"
        return f"{{p{p}}} chose {{p{e[2]}}} for the green light"
    if kind == "swap":
        return f"{{p{p}}} took {card_text(e[2])} from the oracle and put {card_text(e[3])} there"
    if kind == "renew":
        return f"{{p{p}}} renewed the oracle"
    if kind == "oracle":
        return f"{{p{p}}} gave oracle card {card_text(e[3])} to {{p{e[2]}}}"
    if kind == "red":
        return f"{{p{p}}} used red light: the next card's dark effect is skipped"
    if kind == "say":
        return f"{{p{p}}} said at the tavern: \"{e[2]}\""
    return f"{{p{p}}} skipped the light effect"
