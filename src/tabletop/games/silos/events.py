"""SILOS events: UFO abduction, mind control (with the placing of humans that sets it off), the marked specimen,
and the power events (All Powers, Your Powers, One Power) that exert the location powers of `powers.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.core import Action
from tabletop.games.silos.frames import (
    K_ALL_POWERS,
    K_CROP_CIRCLES,
    K_MARKED_SPECIMEN,
    K_MIND_CONTROL,
    K_ONE_POWER,
    K_PLACE_HUMANS,
    K_POWER_EVENT,
    K_YOUR_POWERS,
    L_ABDUCTION,
    L_EXERT,
    L_MIND_CONTROL,
    L_SKILL,
    Frame,
    FrameFunctions,
    no_decision_apply,
    no_decision_legal,
)
from tabletop.games.silos.notation import ACCEPTS, EXERT, N_LOCATIONS, N_TYPES, PLACE, TAKE
from tabletop.games.silos.powers import exert_location_power

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState


# ---- UFO abduction ----------------------------------------------------------------------------------------------
def advance_ufo(s: SilosState) -> None:
    """UFO advance: the UFO moves to the next abduction space (1-6, then 1 again) and abducts there."""
    s.ufo = s.ufo % 6 + 1
    abduct(s, s.ufo)

def abduct(s: SilosState, loc: int) -> None:
    """UFO abduction event at loc: most influence takes the cow, second-most the human."""
    r = s.ranking(loc)
    first = r[0] if r else -1
    second = r[1] if len(r) > 1 else -1
    n = s.players
    cow_to = -1
    if 0 <= first < n and s.abd_cow[loc]:
        s.abd_cow[loc] = 0
        s.cows[first] += 1
        cow_to = first
    h = s.abd_human[loc]
    if h >= 0:
        s.abd_human[loc] = -1
        s._give_human(second, h)
    s._note((L_ABDUCTION, loc, cow_to, h, second if 0 <= second < n else -1))
    # "they must IMMEDIATELY exchange the set": the winners' sets go back to the bag and the pile first; only
    # then "the cow abduction space is now replenished ... Then, a new human is randomly drawn from the bag"
    s._check_sets(first)
    s._check_sets(second)
    if not s.abd_cow[loc] and s.cow_pile > 0:
        s.abd_cow[loc] = 1
        s.cow_pile -= 1
    s.abd_human[loc] = s._draw_human()


# ---- power events ------------------------------------------------------------------------------------------
def step_all_powers(s: SilosState, fr: Frame) -> int:
    loc = fr[2]
    if loc == N_LOCATIONS:
        s.stack.pop()
        return -1
    s.stack[-1] = (fr[0], fr[1], loc + 1, 0)
    top = s._top(loc)  # S-25: who leads is read as each location is reached (Your Powers too)
    if not 0 <= top < s.players:
        return -1
    if fr[0] == K_ALL_POWERS:
        if s._has_figures(loc):  # S-11: "if a location has no alien figures in it, the Power Event is not exerted"
            s.stack.append((K_POWER_EVENT, top, loc, 0))
    elif top == fr[1]:
        s.stack.append((K_POWER_EVENT, top, loc, 0))
    return -1


def one_power_locations(s: SilosState, p: int, used: int) -> list[int]:
    return [i for i in range(N_LOCATIONS) if not used >> i & 1 and s._top(i) == p]


def step_one_power(s: SilosState, fr: Frame) -> int:
    k, used = fr[2], fr[3]
    n = s.players
    while k < n:
        p = (fr[1] + k) % n
        opts = one_power_locations(s, p, used)
        if len(opts) > 1:
            s.stack[-1] = (K_ONE_POWER, fr[1], k, used)
            return p
        if opts:
            s.stack[-1] = (K_ONE_POWER, fr[1], k + 1, used | 1 << opts[0])
            s.stack.append((K_POWER_EVENT, p, opts[0], 0))
            return -1
        k += 1
    s.stack.pop()
    return -1


def legal_one_power(s: SilosState, fr: Frame) -> list[Action]:
    p = (fr[1] + fr[2]) % s.players
    return [EXERT[i] for i in one_power_locations(s, p, fr[3])]


def apply_one_power(s: SilosState, fr: Frame, a: Action) -> None:
    p = (fr[1] + fr[2]) % s.players
    loc = int(a.args[0])
    s.stack[-1] = (K_ONE_POWER, fr[1], fr[2] + 1, fr[3] | 1 << loc)
    s.stack.append((K_POWER_EVENT, p, loc, 0))


def step_power_event(s: SilosState, fr: Frame) -> int:
    f, loc = fr[1], fr[2]
    st = s.stack
    st.pop()
    s._note((L_EXERT, f, loc))
    if s.skills_on and s.leader[f] == loc and s.skill[loc] != f:
        s.skill[loc] = f  # ruling S-12: exerting (even choosing not to use a MAY power) claims the tile
        s._note((L_SKILL, f, loc))
    if s.crop_tile == loc:
        st.append((K_CROP_CIRCLES, f, 0, 0))
        return -1
    exert_location_power(s, f, loc)
    return -1


# ---- humans: placement, mind control, marked specimen -------------------------------------------------------------
def place_human(s: SilosState, p: int, t: int, loc: int) -> None:
    j = loc * N_TYPES
    s.focus[j + t] += 1
    f = s.focus
    if f[j] + f[j + 1] + f[j + 2] + f[j + 3] == 3:
        s.stack.append((K_MIND_CONTROL, p, loc, 0))


def step_place_humans(s: SilosState, fr: Frame) -> int:
    h = s.hand
    if h[0] + h[1] + h[2] + h[3] == 0:
        s.stack.pop()
        return -1
    return fr[1]


def legal_place_humans(s: SilosState, fr: Frame) -> list[Action]:
    out: list[Action] = []
    h = s.hand
    for t in range(N_TYPES):
        if h[t]:
            row = PLACE[t]
            out.extend([row[i] for i in ACCEPTS[t]])
    return out


def apply_place_humans(s: SilosState, fr: Frame, a: Action) -> None:
    t, loc = int(a.args[0]), int(a.args[1])
    s.hand[t] -= 1
    place_human(s, fr[1], t, loc)


def mind_control_pairs(s: SilosState, loc: int) -> list[tuple[int, int]]:
    c = s.focus[loc * N_TYPES:(loc + 1) * N_TYPES]
    out = []
    for x in range(N_TYPES):
        for y in range(x, N_TYPES):
            if (c[x] >= 2) if x == y else (c[x] and c[y]):
                out.append((x, y))
    return out


def neutral_faction_pair(s: SilosState, loc: int) -> tuple[int, int]:
    """The non-player faction's two humans: one of each type when there are two types (ruling S-10)."""
    c = s.focus[loc * N_TYPES:(loc + 1) * N_TYPES]
    types = [t for t in range(N_TYPES) if c[t]]
    if len(types) == 1:
        return (types[0], types[0])
    return (types[0], types[1])


def step_mind_control(s: SilosState, fr: Frame) -> int:
    loc = fr[2]
    r = s.ranking(loc)
    if not r:
        j = loc * N_TYPES
        for t in range(N_TYPES):
            s.bag[t] += s.focus[j + t]
            s.focus[j + t] = 0
        s._note((L_MIND_CONTROL, loc, -1, (), -1, ()))
        s.mc_count += 1
        s.stack.pop()
        return -1
    first = r[0]
    if first == s.npf:
        resolve_mind_control(s, loc, neutral_faction_pair(s, loc))
        return -1
    pairs = mind_control_pairs(s, loc)
    if len(pairs) == 1:
        resolve_mind_control(s, loc, pairs[0])
        return -1
    return first


def legal_mind_control(s: SilosState, fr: Frame) -> list[Action]:
    return [TAKE[x][y] for x, y in mind_control_pairs(s, fr[2])]


def apply_mind_control(s: SilosState, fr: Frame, a: Action) -> None:
    resolve_mind_control(s, fr[2], (int(a.args[0]), int(a.args[1])))


def resolve_mind_control(s: SilosState, loc: int, pair: tuple[int, int]) -> None:
    r = s.ranking(loc)
    first = r[0]
    second = r[1] if len(r) > 1 else -1
    j = loc * N_TYPES
    for t in pair:
        s.focus[j + t] -= 1
        s._give_human(first, t)
    rest = []
    for t in range(N_TYPES):
        while s.focus[j + t]:
            s.focus[j + t] -= 1
            s._give_human(second, t)
            rest.append(t)
    s._note((L_MIND_CONTROL, loc, first, pair, second, tuple(rest)))
    s.mc_count += 1
    s.stack.pop()
    s._check_sets(first)
    s._check_sets(second)


def step_marked_specimen(s: SilosState, fr: Frame) -> int:
    n = s.players
    k = fr[2]
    if k == n:
        s.stack.pop()
        return -1
    p = (fr[1] + k) % n
    s.stack[-1] = (K_MARKED_SPECIMEN, fr[1], k + 1, 0)
    s._fill_hand(p, 1)
    return -1


FRAMES: dict[int, FrameFunctions] = {
    K_ALL_POWERS: (step_all_powers, no_decision_legal, no_decision_apply),
    K_YOUR_POWERS: (step_all_powers, no_decision_legal, no_decision_apply),
    K_ONE_POWER: (step_one_power, legal_one_power, apply_one_power),
    K_POWER_EVENT: (step_power_event, no_decision_legal, no_decision_apply),
    K_PLACE_HUMANS: (step_place_humans, legal_place_humans, apply_place_humans),
    K_MIND_CONTROL: (step_mind_control, legal_mind_control, apply_mind_control),
    K_MARKED_SPECIMEN: (step_marked_specimen, no_decision_legal, no_decision_apply),
}
