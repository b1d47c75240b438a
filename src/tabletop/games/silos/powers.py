"""SILOS location powers, each base side next to its alternate side (marked * as on the tiles):
0 Town Hall, 1 Sheriff's Office, 2 University, 3 Shopping Mall, 4 News Station, 5 Church, 6 Bus Station.

A power is exerted by a power event (`events.py`); each power but the Town Hall's is a frame on the turn stack
with its three functions: `step_X` (resolve it, or name the seat that decides), `legal_X`, `apply_X`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tabletop.core import Action
from tabletop.games.silos.frames import (
    K_BUS_STATION_ALTERNATE,
    K_CHURCH,
    K_CHURCH_ALTERNATE,
    K_NEWS_STATION,
    K_NEWS_STATION_ALTERNATE,
    K_REPOSITION,
    K_RETURN_HUMANS,
    K_SHERIFFS_OFFICE,
    K_SHERIFFS_OFFICE_ALTERNATE,
    K_SHOPPING_MALL,
    K_SHOPPING_MALL_ALTERNATE,
    K_UNIVERSITY,
    K_UNIVERSITY_ALTERNATE,
    L_RERANK,
    Frame,
    FrameFunctions,
)
from tabletop.games.silos.notation import (
    CHURCH_CARD,
    CHURCH_FOCUS,
    CHURCH_PLAYER,
    DISTINGUISH,
    DONE,
    DOWNGRADE,
    EXCHANGES,
    GRADUATE,
    MALL_DRAW,
    MALL_FOUR,
    N_LOCATIONS,
    N_TYPES,
    NEWS_DRAW,
    NEWS_THREE,
    REPOSITION_LIMIT,
    REPOSITIONS_FROM,
    RETURN,
    SHERIFF,
    SKIP,
    STOP,
)

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState


# 0 Town Hall: re-rank by influence (ruling S-8); 0*: the same, then move your figures to the Shopping Mall.
def town_hall_rerank(s: SilosState) -> None:
    """Town Hall power: order by influence there; equal influence (also none) keeps relative order (S-8)."""
    inf = [s._inf(f, 0) for f in range(s.nf)]
    old = s.rank
    if s.npf >= 0:
        rest = sorted(s.rank[1:], key=lambda f: -inf[f])
        s.rank = [s.npf, *rest]
    else:
        s.rank = sorted(s.rank, key=lambda f: -inf[f])
    if s.rank != old:
        s._note((L_RERANK, tuple(s.rank)))


def town_hall(s: SilosState, f: int) -> None:
    """0 Town Hall: re-rank the factions by influence there."""
    town_hall_rerank(s)


def town_hall_alternate(s: SilosState, f: int) -> None:
    """0* Town Hall: re-rank, then the exerting faction moves all its figures from the Town Hall to the Mall."""
    town_hall_rerank(s)
    for k in s._kinds_at(f, 0):
        while k in s._kinds_at(f, 0):
            s._move_fig(f, k, 0, 3)


# The frame of each location's power (the Town Hall's is resolved at once), base side and alternate side.
BASE_POWER_FRAMES: Final = (
    -1, K_SHERIFFS_OFFICE, K_UNIVERSITY, K_SHOPPING_MALL, K_NEWS_STATION, K_CHURCH, K_REPOSITION,
)
ALTERNATE_POWER_FRAMES: Final = (
    -1, K_SHERIFFS_OFFICE_ALTERNATE, K_UNIVERSITY_ALTERNATE, K_SHOPPING_MALL_ALTERNATE, K_NEWS_STATION_ALTERNATE,
    K_CHURCH_ALTERNATE, K_BUS_STATION_ALTERNATE,
)


def exert_location_power(s: SilosState, f: int, loc: int) -> None:
    """Faction f exerts the power of loc: the side in play (base or alternate) of its location tile."""
    alt = s.alt >> loc & 1
    if loc == 0:
        (town_hall_alternate if alt else town_hall)(s, f)
        return
    kind = ALTERNATE_POWER_FRAMES[loc] if alt else BASE_POWER_FRAMES[loc]
    s.stack.append((kind, f, -1 if kind in (K_SHERIFFS_OFFICE, K_SHOPPING_MALL) else 0, 0))


# 1 Sheriff's Office: one colour from one location, figures one at a time.
def sheriff_moves(s: SilosState, verb: str, only: int) -> list[Action]:
    out: list[Action] = []
    for g in range(s.nf):
        for a in range(N_LOCATIONS):
            if a != 1 and (only < 0 or only == g * N_LOCATIONS + a):
                row = SHERIFF[g]
                out.extend([row[k][a] for k in s._kinds_at(g, a)])
    return out


def step_sheriffs_office(s: SilosState, fr: Frame) -> int:
    if not sheriff_moves(s, "sheriff", fr[2]):  # S-24: nothing to move (any more) is no decision
        s.stack.pop()
        return -1
    return fr[1]


def legal_sheriffs_office(s: SilosState, fr: Frame) -> list[Action]:
    return [*sheriff_moves(s, "sheriff", fr[2]), SKIP if fr[2] < 0 else STOP]


def apply_sheriffs_office(s: SilosState, fr: Frame, a: Action) -> None:
    if a.verb in ("skip", "stop"):
        s.stack.pop()
        return
    g, k, loc = int(a.args[0]), int(a.args[1]), int(a.args[2])
    s._move_fig(g, k, loc, 1)
    s.stack[-1] = (K_SHERIFFS_OFFICE, fr[1], g * N_LOCATIONS + loc, fr[3] + 1)


# 1* Sheriff's Office: up to three figures of any players from any locations.
def step_sheriffs_office_alternate(s: SilosState, fr: Frame) -> int:
    if fr[3] == 3 or not sheriff_moves(s, "sheriff", -1):
        s.stack.pop()
        return -1
    return fr[1]


def legal_sheriffs_office_alternate(s: SilosState, fr: Frame) -> list[Action]:
    return [*sheriff_moves(s, "sheriff", -1), SKIP if fr[3] == 0 else STOP]


def apply_sheriffs_office_alternate(s: SilosState, fr: Frame, a: Action) -> None:
    if a.verb in ("skip", "stop"):
        s.stack.pop()
        return
    s._move_fig(int(a.args[0]), int(a.args[1]), int(a.args[2]), 1)
    s.stack[-1] = (K_SHERIFFS_OFFICE_ALTERNATE, fr[1], 0, fr[3] + 1)


# 2 University: move all your figures from the University to the Town Hall and distinguish one there.
def step_university(s: SilosState, fr: Frame) -> int:
    f = fr[1]
    if s._kinds_at(f, 2) or (s.caps and s.plain[f * N_LOCATIONS]):
        return f
    s.stack.pop()  # S-24: no figure to move and none to distinguish: `graduate` would change nothing
    return -1


def legal_university(s: SilosState, fr: Frame) -> list[Action]:
    return [GRADUATE, SKIP]


def apply_university(s: SilosState, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "skip":
        return
    f = fr[1]
    for k in s._kinds_at(f, 2):
        while k in s._kinds_at(f, 2):
            s._move_fig(f, k, 2, 0)
    if s.caps and s.plain[f * N_LOCATIONS]:  # ruling S-6: with no plain figure or no cap, the move still happens
        s.plain[f * N_LOCATIONS] -= 1
        s.dist[f * N_LOCATIONS] += 1
        s.caps -= 1


# 2* University: distinguish one of your figures in the News Station.
def step_university_alternate(s: SilosState, fr: Frame) -> int:
    if s.caps and s.plain[fr[1] * N_LOCATIONS + 4]:
        return fr[1]
    s.stack.pop()
    return -1


def legal_university_alternate(s: SilosState, fr: Frame) -> list[Action]:
    return [DISTINGUISH, SKIP]


def apply_university_alternate(s: SilosState, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "distinguish":
        j = fr[1] * N_LOCATIONS + 4
        s.plain[j] -= 1
        s.dist[j] += 1
        s.caps -= 1


# 3 Shopping Mall: draw and place humans one at a time; stop at will, must stop after a mind control event.
def step_shopping_mall(s: SilosState, fr: Frame) -> int:
    if (fr[2] >= 0 and s.mc_count != fr[2]) or not sum(s.bag):
        s.stack.pop()
        return -1
    return fr[1]


def legal_shopping_mall(s: SilosState, fr: Frame) -> list[Action]:
    return [MALL_DRAW, SKIP if fr[2] < 0 else STOP]


def apply_shopping_mall(s: SilosState, fr: Frame, a: Action) -> None:
    if a.verb != "mall_draw":
        s.stack.pop()
        return
    s.stack[-1] = (K_SHOPPING_MALL, fr[1], s.mc_count, 0)
    s._fill_hand(fr[1], 1)


# 3* Shopping Mall: draw four humans, place them as for Human Confluence.
def step_shopping_mall_alternate(s: SilosState, fr: Frame) -> int:
    if not sum(s.bag):
        s.stack.pop()
        return -1
    return fr[1]


def legal_shopping_mall_alternate(s: SilosState, fr: Frame) -> list[Action]:
    return [MALL_FOUR, SKIP]


def apply_shopping_mall_alternate(s: SilosState, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "mall_four":
        s._fill_hand(fr[1], 4)


# 4 News Station: exchange any three humans/cows for an emblem, or draw one human.
def news_station_exchanges(s: SilosState, p: int) -> list[Action]:
    if not s.emblem_supply:
        return []
    h = s.hum
    b = p * N_TYPES
    have = (h[b], h[b + 1], h[b + 2], h[b + 3], s.cows[p])
    if sum(have) < 3:
        return []
    return [a for need, a in EXCHANGES if need[0] <= have[0] and need[1] <= have[1] and need[2] <= have[2]
            and need[3] <= have[3] and need[4] <= have[4]]


def step_news_station(s: SilosState, fr: Frame) -> int:
    if sum(s.bag) or news_station_exchanges(s, fr[1]):
        return fr[1]
    s.stack.pop()
    return -1


def legal_news_station(s: SilosState, fr: Frame) -> list[Action]:
    out = news_station_exchanges(s, fr[1])
    if sum(s.bag):
        out.append(NEWS_DRAW)
    out.append(SKIP)
    return out


def apply_news_station(s: SilosState, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "news_draw":
        s._draw_to_player(p, 1)
        s._check_sets(p)
    elif a.verb == "exchange":
        for x in a.args:
            t = int(x)
            if t == 4:
                s.cows[p] -= 1
                s.cow_pile += 1
            else:
                s.hum[p * N_TYPES + t] -= 1
                s.bag[t] += 1
        s.emblems[p] += 1
        s.emblem_supply -= 1
        s._check_sets(p)


# 4* News Station: draw three humans then return any three of yours, or draw one.
def step_news_station_alternate(s: SilosState, fr: Frame) -> int:
    if sum(s.bag):
        return fr[1]
    s.stack.pop()
    return -1


def legal_news_station_alternate(s: SilosState, fr: Frame) -> list[Action]:
    return [NEWS_THREE, NEWS_DRAW, SKIP]


def apply_news_station_alternate(s: SilosState, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "news_draw":
        s._draw_to_player(p, 1)
        s._check_sets(p)
    elif a.verb == "news_three":
        before = sum(s.bag)
        s._draw_to_player(p, 3)  # ruling S-13: the set check waits until the three are returned
        s.stack.append((K_RETURN_HUMANS, p, before - sum(s.bag), 0))  # ruling S-21: return as many as were drawn


def step_return_humans(s: SilosState, fr: Frame) -> int:
    p, k = fr[1], fr[2]
    held = [t for t in range(N_TYPES) if s.hum[p * N_TYPES + t]]
    if k and len(held) == 1:  # S-16: all of one type, so which to return is no choice
        t = held[0]
        s.hum[p * N_TYPES + t] -= k
        s.bag[t] += k
        k = 0
    if k == 0:
        s.stack.pop()
        s._check_sets(p)
        return -1
    return p


def legal_return_humans(s: SilosState, fr: Frame) -> list[Action]:
    p = fr[1]
    return [RETURN[t] for t in range(N_TYPES) if s.hum[p * N_TYPES + t]]


def apply_return_humans(s: SilosState, fr: Frame, a: Action) -> None:
    t = int(a.args[0])
    s.hum[fr[1] * N_TYPES + t] -= 1
    s.bag[t] += 1
    s.stack[-1] = (K_RETURN_HUMANS, fr[1], fr[2] - 1, 0)


# 5 Church: take one human from another player or from any focus group.
def step_church(s: SilosState, fr: Frame) -> int:
    if len(legal_church(s, fr)) > 1:
        return fr[1]
    s.stack.pop()  # S-24: no human to take anywhere
    return -1


def legal_church(s: SilosState, fr: Frame) -> list[Action]:
    p = fr[1]
    out: list[Action] = []
    for g in range(s.players):
        if g != p:
            out.extend([CHURCH_PLAYER[t][g] for t in range(N_TYPES) if s.hum[g * N_TYPES + t]])
    for i in range(N_LOCATIONS):
        out.extend([CHURCH_FOCUS[t][i] for t in range(N_TYPES) if s.focus[i * N_TYPES + t]])
    out.append(SKIP)
    return out


def apply_church(s: SilosState, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "skip":
        return
    t, src = int(a.args[0]), int(a.args[1])
    if a.verb == "church_player":
        s.hum[src * N_TYPES + t] -= 1
    else:
        s.focus[src * N_TYPES + t] -= 1
    s.hum[p * N_TYPES + t] += 1
    s._check_sets(p)


# 5* Church: draw a common card and keep it as a faction card.
def step_church_alternate(s: SilosState, fr: Frame) -> int:
    if s._common_available():
        return fr[1]
    s.stack.pop()
    return -1


def legal_church_alternate(s: SilosState, fr: Frame) -> list[Action]:
    return [CHURCH_CARD, SKIP]


def apply_church_alternate(s: SilosState, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "church_card":
        t = s._draw_common(fr[1])
        s.held[fr[1] * 4 + t] += 1


# 6 Bus Station (and UFO Sighting): reposition any of your figures, one at a time, then done.
def step_reposition(s: SilosState, fr: Frame) -> int:
    if fr[2] >= REPOSITION_LIMIT:
        s.stack.pop()
        return -1
    return fr[1]


def legal_reposition(s: SilosState, fr: Frame) -> list[Action]:
    p = fr[1]
    out = [DONE]
    plain, dist = s.plain, s.dist
    lead = s.leader[p]
    base = p * N_LOCATIONS
    rf, rl, rd = REPOSITIONS_FROM
    for a in range(N_LOCATIONS):
        if plain[base + a]:
            out.extend(rf[a])
        if lead == a:
            out.extend(rl[a])
        if dist[base + a]:
            out.extend(rd[a])
    return out


def apply_reposition(s: SilosState, fr: Frame, a: Action) -> None:
    if a.verb == "done":
        s.stack.pop()
        return
    s._move_fig(fr[1], int(a.args[0]), int(a.args[1]), int(a.args[2]))
    s.stack[-1] = (K_REPOSITION, fr[1], fr[2] + 1, 0)


# 6* Bus Station: downgrade a distinguished figure there, then draw three humans.
def step_bus_station_alternate(s: SilosState, fr: Frame) -> int:
    if s.dist[fr[1] * N_LOCATIONS + 6]:
        return fr[1]
    s.stack.pop()
    return -1


def legal_bus_station_alternate(s: SilosState, fr: Frame) -> list[Action]:
    return [DOWNGRADE, SKIP]


def apply_bus_station_alternate(s: SilosState, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "downgrade":
        j = p * N_LOCATIONS + 6
        s.dist[j] -= 1
        s.plain[j] += 1
        s.caps += 1
        s._draw_to_player(p, 3)
        s._check_sets(p)


FRAMES: dict[int, FrameFunctions] = {
    K_SHERIFFS_OFFICE: (step_sheriffs_office, legal_sheriffs_office, apply_sheriffs_office),
    K_SHERIFFS_OFFICE_ALTERNATE: (
        step_sheriffs_office_alternate, legal_sheriffs_office_alternate, apply_sheriffs_office_alternate,
    ),
    K_UNIVERSITY: (step_university, legal_university, apply_university),
    K_UNIVERSITY_ALTERNATE: (step_university_alternate, legal_university_alternate, apply_university_alternate),
    K_SHOPPING_MALL: (step_shopping_mall, legal_shopping_mall, apply_shopping_mall),
    K_SHOPPING_MALL_ALTERNATE: (
        step_shopping_mall_alternate, legal_shopping_mall_alternate, apply_shopping_mall_alternate,
    ),
    K_NEWS_STATION: (step_news_station, legal_news_station, apply_news_station),
    K_NEWS_STATION_ALTERNATE: (step_news_station_alternate, legal_news_station_alternate, apply_news_station_alternate),
    K_RETURN_HUMANS: (step_return_humans, legal_return_humans, apply_return_humans),
    K_CHURCH: (step_church, legal_church, apply_church),
    K_CHURCH_ALTERNATE: (step_church_alternate, legal_church_alternate, apply_church_alternate),
    K_REPOSITION: (step_reposition, legal_reposition, apply_reposition),
    K_BUS_STATION_ALTERNATE: (step_bus_station_alternate, legal_bus_station_alternate, apply_bus_station_alternate),
}
