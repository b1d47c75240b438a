"""SILOS: the state as a seat sees it (the whole table: nothing is hidden), the log in words, the decision in words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from tabletop.core import View
from tabletop.games.silos.components import COMMON_CARDS, COMPONENTS, FACTION_CARDS, HUMAN_TYPES
from tabletop.games.silos.frames import (
    FRAME_NAMES,
    K_CARD,
    K_CARD_IN_PLAY,
    K_MIND_CONTROL,
    K_MOVEMENT,
    K_ONE_POWER,
    K_PLACE_HUMANS,
    K_POSITIONING,
    K_REPOSITION,
    K_RETURN_HUMANS,
    K_SHERIFFS_OFFICE,
    K_SKILL_TILES,
    K_TOWN_HALL_SKILL,
    L_ABDUCTION,
    L_ACTION,
    L_DRAW,
    L_EMBLEM,
    L_EXERT,
    L_MIND_CONTROL,
    L_NO_CARD,
    L_RERANK,
    L_RESHUFFLE,
    L_REVEAL,
    L_SKILL,
    L_TURN,
)
from tabletop.games.silos.notation import COLORS, KINDS, N_LOCATIONS, N_TYPES, NEIGHBOURS, SKILL_ORDER

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState


# module constants are Final: compiled code reads them without a lookup in the module's dict
_STREETS: Final = tuple((a, b) for a in range(N_LOCATIONS) for b in NEIGHBOURS[a] if a < b)
_NAMES: Final = COMPONENTS.names
_STREETS_AT: Final = [list(NEIGHBOURS[i]) for i in range(N_LOCATIONS)]  # each location's (a cache's, never handed out)
_TYPE_RANGE: Final = tuple(enumerate(HUMAN_TYPES))
_CARD_RANGE: Final = tuple(enumerate(COMMON_CARDS))
T0: Final = HUMAN_TYPES[0]  # N_TYPES names, in their index order
T1: Final = HUMAN_TYPES[1]
T2: Final = HUMAN_TYPES[2]
T3: Final = HUMAN_TYPES[3]
C0: Final = COMMON_CARDS[0]
C1: Final = COMMON_CARDS[1]
C2: Final = COMMON_CARDS[2]
C3: Final = COMMON_CARDS[3]
F0: Final = FACTION_CARDS[0]
F1: Final = FACTION_CARDS[1]
F2: Final = FACTION_CARDS[2]


class ViewCache:
    """A state's view, built once (`_build`) and copied for every caller (`_fresh`): the server asks a view of every
    seat and spectator on every event, and in SILOS they differ only in `seat`. Never handed out: each caller gets
    new dicts and lists copied from these. Valid while the state's log head, its length and `to_move` are the ones
    it was built at (every action adds a log entry; a concession can end the game without one); the winners, which
    a concession changes too, are asked of the state on every view."""

    __slots__ = (
        "bag", "card_in_play", "cell", "common_deck", "common_discards", "figures", "focus", "hand", "head",
        "influence", "lgn", "locations", "log", "ranks", "seats", "seats_cards", "seats_held", "seats_humans",
        "streets", "supply", "to_move",
    )

    # No constructor arguments: `_build` sets every field, and a state that keeps a cache pickles and deep-copies
    # (a copy rebuilds an object of a class without calling it with arguments).
    cell: object
    lgn: int
    to_move: int | None
    head: dict[str, Any]
    log: tuple[dict[str, Any], ...]
    locations: list[dict[str, Any]]
    figures: list[list[tuple[str, dict[str, Any]]]]
    influence: list[dict[str, float]]
    focus: list[dict[str, int]]
    streets: list[list[int]]
    seats: list[dict[str, Any]]
    seats_humans: list[dict[str, int]]
    seats_cards: list[dict[str, bool]]
    seats_held: list[dict[str, int]]
    bag: dict[str, int]
    hand: dict[str, int]
    supply: dict[str, int]
    common_deck: dict[str, int]
    common_discards: dict[str, int]
    card_in_play: dict[str, int]
    ranks: list[str]


def table_view(s: SilosState, seat: int | None) -> View:
    """Everything a seat sees: the whole table (nothing in SILOS is hidden), the decision in words, the log's tail.

    Built once per state (`_build`, hot: the server builds a view for every seat on every event) and copied for each
    caller (`_fresh`): every value is new, so a caller may edit what it is given."""
    c = s._vc
    if c is None or c.cell is not s.lg or c.lgn != s.lgn or c.to_move != s.to_move:
        c = s._vc = _build(s)
    return _fresh(s, c, seat)


def _fresh(s: SilosState, c: ViewCache, seat: int | None) -> View:
    """A new copy of the view `c` keeps, for `seat`: every dict and list in it new."""
    figures, influence, focus, streets = c.figures, c.influence, c.focus, c.streets
    locs = []
    for i, tpl in enumerate(c.locations):
        loc = tpl.copy()
        figs = {}
        for colour, fig in figures[i]:
            figs[colour] = fig.copy()
        loc["figures"] = figs
        loc["influence"] = influence[i].copy()
        loc["focus"] = focus[i].copy()
        loc["streets"] = streets[i].copy()
        locs.append(loc)
    humans, cards, held = c.seats_humans, c.seats_cards, c.seats_held
    players = []
    for p, tpl in enumerate(c.seats):
        pv = tpl.copy()
        pv["humans"] = humans[p].copy()
        pv["faction_cards"] = cards[p].copy()
        pv["held_common"] = held[p].copy()
        players.append(pv)
    v = c.head.copy()
    v["seat"] = seat
    v["log"] = [e.copy() for e in c.log]
    v["ranks"] = c.ranks.copy()
    v["locations"] = locs
    v["streets"] = [[a, b] for a, b in _STREETS]
    v["bag"] = c.bag.copy()
    v["hand"] = c.hand.copy()
    v["supply"] = c.supply.copy()
    v["common_deck"] = c.common_deck.copy()
    v["common_discards"] = c.common_discards.copy()
    v["card_in_play"] = c.card_in_play.copy()
    v["seats"] = players
    v["winners"] = s.winners()
    v["flow"] = {"stack": [list(f) for f in s.stack], "start": s.start, "mind_controls": s.mc_count}
    return v


def _build(s: SilosState) -> ViewCache:
    """The view of `s` (for no seat in particular), in the parts `_fresh` copies."""
    n, nf = s.players, s.nf
    plain, dist, leader, crop, focus, rank = s.plain, s.dist, s.leader, s.crop, s.focus, s.rank
    abd_cow, abd_human, skill, alt, crop_tile = s.abd_cow, s.abd_human, s.skill, s.alt, s.crop_tile
    skills_on = s.skills_on
    locs: list[dict[str, Any]] = []
    figures: list[list[tuple[str, dict[str, Any]]]] = []
    influence: list[dict[str, float]] = []
    focus_groups: list[dict[str, int]] = []
    for i in range(N_LOCATIONS):
        figs: list[tuple[str, dict[str, Any]]] = []
        infl = {}
        for f in range(nf):
            j = f * N_LOCATIONS + i
            p, d, led = plain[j], dist[j], leader[f] == i
            v = 2 * p + 4 * d
            if p or d or led:
                figs.append((COLORS[f], {"figures": p, "leader": led, "distinguished": d}))
                if led:
                    v += 3
            if crop[i] == f:
                v += 2
            if v:
                infl[COLORS[f]] = v / 2
        top = s._top(i)  # the leader at i: the most influence, ties to the higher Town Hall rank
        k = i * N_TYPES
        fg = {}
        for t, name in _TYPE_RANGE:
            if focus[k + t]:
                fg[name] = focus[k + t]
        figures.append(figs)
        influence.append(infl)
        focus_groups.append(fg)
        locs.append({
            "id": i,
            "name": _NAMES[i],
            "alternate": bool(alt >> i & 1),
            "crop_circles_tile": crop_tile == i,
            "figures": None,
            "influence": None,
            "focus": None,
            "cow": bool(abd_cow[i]) if i else None,
            "human": (HUMAN_TYPES[abd_human[i]] if abd_human[i] >= 0 else None) if i else None,
            "leads": COLORS[top] if top >= 0 else None,
            "streets": None,
            "crop_circle": COLORS[crop[i]] if crop[i] >= 0 else None,
            "skill_tile": (COLORS[skill[i]] if skill[i] >= 0 else "board") if skills_on else None,
        })
    hum, held, fcards, cows, emblems, crop_left = s.hum, s.held, s.fcards, s.cows, s.emblems, s.crop_left
    positioning = bool(s.stack) and s.stack[0][0] == K_POSITIONING
    players: list[dict[str, Any]] = []
    seats_humans: list[dict[str, int]] = []
    seats_cards: list[dict[str, bool]] = []
    seats_held: list[dict[str, int]] = []
    for p in range(n):
        k, c = p * N_TYPES, p * 4
        if positioning:
            on = sum(plain[p * N_LOCATIONS:(p + 1) * N_LOCATIONS]) + sum(dist[p * N_LOCATIONS:(p + 1) * N_LOCATIONS])
            unplaced = max(0, COMPONENTS.figures - on - (leader[p] >= 0))
        else:
            unplaced = 0
        kept = {}
        for t, name in _CARD_RANGE:
            if held[c + t]:
                kept[name] = held[c + t]
        seats_humans.append({T0: hum[k], T1: hum[k + 1], T2: hum[k + 2], T3: hum[k + 3]})
        seats_cards.append({F0: not fcards[p * 3], F1: not fcards[p * 3 + 1], F2: not fcards[p * 3 + 2]})
        seats_held.append(kept)
        players.append({
            "color": COLORS[p],
            "humans": None,
            "cows": cows[p],
            "emblems": emblems[p],
            "faction_cards": None,
            "held_common": None,
            "crop_tokens_left": crop_left[p],
            "figures_to_place": unplaced,
        })
    stack = s.stack
    in_play = [0] * 4
    for fr in stack:
        if fr[0] == K_CARD_IN_PLAY or fr[0] == K_TOWN_HALL_SKILL:
            in_play[fr[2]] += 1
    bag, hand, deck, discard = s.bag, s.hand, s.deck, s.discard
    top_frame = stack[-1] if stack else None
    in_hand = {}
    for t, name in _TYPE_RANGE:
        if hand[t]:
            in_hand[name] = hand[t]
    playing = {}
    for t, name in _CARD_RANGE:
        if in_play[t]:
            playing[name] = in_play[t]
    head: dict[str, Any] = {
        "game": "silos",
        "seat": None,
        "players": n,
        "non_player_faction": COLORS[s.npf] if s.npf >= 0 else None,
        "to_move": s.to_move,
        "active": s.active,
        "phase": FRAME_NAMES[top_frame[0]] if top_frame else "game over",
        "decision": decision(s) if top_frame else "game over",
        "log": None,
        "log_pos": s.lgn,
        "ranks": None,
        "ufo": s.ufo,
        "locations": None,
        "streets": None,
        "bag": None,
        "hand": None,
        "supply": None,
        "common_deck": None,
        "common_discards": None,
        "card_in_play": None,
        "last_revealed": COMMON_CARDS[s.revealed] if s.revealed >= 0 else None,
        "seats": None,
        "emblem_target": s.target,
        "winners": None,
        # the flow's public machinery (nothing in SILOS is hidden): with the rest of the view it is the whole state
        # but the future's chance, so a seat played from afar rebuilds it (the `sampler` part)
        "flow": None,
    }
    vc = ViewCache()
    vc.cell, vc.lgn, vc.to_move = s.lg, s.lgn, s.to_move
    vc.head, vc.log = head, s._view_tail()
    vc.locations, vc.figures, vc.influence, vc.focus, vc.streets = locs, figures, influence, focus_groups, _STREETS_AT
    vc.seats, vc.seats_humans, vc.seats_cards, vc.seats_held = players, seats_humans, seats_cards, seats_held
    vc.bag = {T0: bag[0], T1: bag[1], T2: bag[2], T3: bag[3]}
    vc.hand = in_hand
    vc.supply = {"cows": s.cow_pile, "caps": s.caps, "emblems": s.emblem_supply}
    vc.common_deck = {C0: deck[0], C1: deck[1], C2: deck[2], C3: deck[3]}
    vc.common_discards = {C0: discard[0], C1: discard[1], C2: discard[2], C3: discard[3]}
    vc.card_in_play = playing
    vc.ranks = [COLORS[f] for f in rank]
    return vc


def log_entry(s: SilosState, e: tuple[Any, ...]) -> tuple[int | None, str]:
    """Who acted in a log entry (None: the table, e.g. an abduction) and its words."""
    code = e[0]
    seat = e[1] if code in (L_ACTION, L_REVEAL, L_EMBLEM, L_DRAW, L_SKILL, L_EXERT, L_NO_CARD) else None
    if seat is not None and not 0 <= seat < s.players:
        seat = None  # the non-player faction is not a seat
    return seat, log_text(s, e)

CARD_WORDS: Final = {"all-powers": "All Powers", "one-power": "One Power", "marked-specimen": "Marked Specimen",
              "ufo-advance": "UFO Advance"}
_CARD_PLAYS: Final = {"common": "activated the top common card", "sighting ufo": "played UFO Sighting to move the UFO",
               "sighting reposition": "played UFO Sighting to reposition figures",
               "confluence": "played Human Confluence", "powers": "played Your Powers",
               "none": "had no card to activate"}


def log_text(s: SilosState, e: tuple[Any, ...]) -> str:
    """The words of a log entry: a sentence naming its actor by seat token (`{p1}`, `tabletop.core.logwords`)."""
    def who(f: int, none: str = "the bag") -> str:
        if f < 0:
            return none
        if f == s.npf or f >= s.players:
            return f"the {COLORS[f]} faction (no player)"
        return f"{{p{f}}}"

    def loc(i: int) -> str:
        return f"{i} {COMPONENTS.names[i]}{'*' if s.alt >> i & 1 else ''}"

    def hs(ts: tuple[int, ...]) -> str:
        return " + ".join(HUMAN_TYPES[t] for t in ts) or "nothing"

    code = e[0]
    if code == L_TURN:
        return f"{{p{e[1]}'s}} turn"
    if code == L_ACTION:
        return f"{who(e[1])} {action_sentence(s, e[2].text)}"
    if code == L_REVEAL:
        return f"{who(e[1], 'Someone')} revealed {CARD_WORDS.get(COMMON_CARDS[e[2]], COMMON_CARDS[e[2]])}"
    if code == L_ABDUCTION:
        human = "no human" if e[3] < 0 else f"the {HUMAN_TYPES[e[3]]} went to {who(e[4])}"
        return f"UFO abduction at {loc(e[1])}: the cow went to {who(e[2], 'nobody')}, {human}"
    if code == L_MIND_CONTROL:
        if e[2] < 0:
            return f"Mind control at {loc(e[1])}: nobody there, all humans went to the bag"
        first = who(e[2]) + (" discarded" if e[2] == s.npf else " took")
        return f"Mind control at {loc(e[1])}: {first} {hs(e[3])}; {hs(e[5])} went to {who(e[4])}"
    if code == L_EMBLEM:
        cows = f" using {e[2]} cow{'s' if e[2] > 1 else ''}" if e[2] else ""
        return f"{who(e[1])} exchanged a complete set{cows} for an emblem"
    if code == L_DRAW:
        return f"{who(e[1])} drew {hs(e[2])}"
    if code == L_RERANK:
        return "The Town Hall ranks are now " + " > ".join(who(f) for f in e[1])
    if code == L_RESHUFFLE:
        return "The common deck ran out: its discards were reshuffled"
    if code == L_SKILL:
        return f"{who(e[1])} claimed skill tile {e[2]}"
    if code == L_NO_CARD:
        return f"{who(e[1])} had no card left to activate"
    if code == L_EXERT:
        what = "Crop Circles power" if s.crop_tile == e[2] else "power"
        return f"{who(e[1])} exerted the {what} of {loc(e[2])}"
    return "The game is over"


def action_sentence(s: SilosState, text: str) -> str:
    """An action's text (the notation) as the rest of a sentence after its actor: `moved the leader from 3 Shopping
    Mall to 4 News Station`; a faction named in it becomes its seat's token."""
    words = text.split()

    def loc(w: str) -> str:
        return f"{int(w)} {COMPONENTS.names[int(w)]}" if w.isdigit() and int(w) < N_LOCATIONS else w

    def faction(w: str, owner: bool = False) -> str:
        if w in COLORS:
            f = COLORS.index(w)
            if f < s.players and f != s.npf:
                return f"{{p{f}'s}}" if owner else f"{{p{f}}}"
            return f"the {w} faction's" if owner else f"the {w} faction"
        return w

    def street(w: str) -> str:
        a, _, b = w.partition("-")
        return f"from {loc(a)} to {loc(b)}" if b else loc(w)

    v, rest = words[0], words[1:]
    if v == "place" and len(rest) == 2 and rest[0] in KINDS:
        return f"placed {'the' if rest[0] == 'leader' else 'a'} {rest[0]} at {loc(rest[1])}"
    if v == "place" and len(rest) == 2:
        return f"placed a {rest[0]} in the focus group of {loc(rest[1])}"
    if v == "move" and len(rest) == 2:
        return f"moved {'the' if rest[0] == 'leader' else 'a'} {rest[0]} {street(rest[1])}"
    if v == "stop":
        return "stopped"
    if v == "skip":
        return "skipped it"
    if v == "done":
        return "was done"
    if v == "card":
        key = " ".join(rest)
        if key in _CARD_PLAYS:
            return _CARD_PLAYS[key]
        if rest[0] == "held":
            return f"played the kept {CARD_WORDS.get(rest[1], rest[1])} card"
        return f"played {key}"
    if v == "exert" and rest:
        return f"chose to exert {loc(rest[0])}"
    if v == "take":
        return f"took {' and '.join(rest)} (mind control)"
    if v == "reposition" and len(rest) == 2:
        return f"repositioned a {rest[0]} {street(rest[1])}"
    if v == "crop" and len(rest) == 2:
        return (f"placed a crop circle token at {loc(rest[1])}" if rest[0] == "place"
                else f"moved a crop circle token {street(rest[1])}")
    if v == "skill" and rest and rest[0] == "0":
        return "kept the revealed card (Town Hall skill tile)" if rest[1:] == ["keep"] else \
            "rejected the revealed card (Town Hall skill tile)"
    if v in ("power", "skill") and rest and rest[0].isdigit():
        where = COMPONENTS.names[int(rest[0])]
        tail = " ".join(street(w) if "-" in w else faction(w, k + 2 < len(rest) and rest[k + 2] in KINDS)
                        for k, w in enumerate(rest[1:]))
        return f"used the {where} {'power' if v == 'power' else 'skill tile'}: {tail}"
    return f"chose {text}"


def decision(s: SilosState) -> str:
    """What the seat to move is deciding, in words."""
    fr = s.stack[-1]
    k = fr[0]
    if k == K_POSITIONING:
        return f"initial positioning: place a figure ({s._unplaced(s.to_move or 0)} left)"
    if k == K_MOVEMENT:
        return f"move a figure along a street ({fr[2]} movement{'s' if fr[2] > 1 else ''} left) or stop"
    if k == K_SKILL_TILES:
        return f"skill tile {SKILL_ORDER[fr[2]]}: use it or skip"
    if k == K_CARD:
        return "activate one card: the top common card or an unused faction card"
    if k == K_TOWN_HALL_SKILL:
        return f"skill tile 0: keep the revealed {COMMON_CARDS[fr[2]]} or reject it and reveal another"
    if k == K_ONE_POWER:
        return "One Power: exert one location where you have the most influence"
    if k == K_PLACE_HUMANS:
        return "place the drawn humans, one at a time, in matching focus groups"
    if k == K_MIND_CONTROL:
        return f"mind control at {fr[2]} {COMPONENTS.names[fr[2]]}: take two of the three humans"
    if k == K_RETURN_HUMANS:
        return f"News Station*: return {fr[2]} more of your humans to the bag"
    if k == K_REPOSITION:
        return "reposition your figures one at a time (to any location), then done"
    if k == K_SHERIFFS_OFFICE and fr[2] >= 0:
        return "Sheriff's Office: move more figures of that colour from that location, or stop"
    return FRAME_NAMES[k] + ": choose"

