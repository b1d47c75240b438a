"""Final scoring of one city, with the housing of meeples chosen to maximise the player's score (ruling V-10).

A city is 24 positions: 0..15 the 4x4 grid (row-major, rows a-d, columns 1-4), 16..19 the perimeter slots
above columns 1-4, 20..23 the slots left of rows a-d. Each position holds a `Cell` or None:
(kind, type, blood, coffins, animal, innovation, survival) with kind BUILDING, CASTLE, TRAIN or BLANK (a Tiara'd
building). Perimeter slots touch only the one grid cell beside them (ruling V-3).
"""

from __future__ import annotations

from typing import Any, Final

# A scoring position: (kind, type, blood, coffins, animal, innovation, survival). Typed as a tuple of any length, not
# of seven: compiled, a fixed-length tuple read from a list is checked and unboxed whole at every index.
Cell = tuple[int, ...]
BUILDING: Final = 0
CASTLE: Final = 1
TRAIN: Final = 2
BLANK: Final = 3
PARK: Final = 0
NEIGHBORHOOD: Final = 1
METRO: Final = 2
MALL: Final = 3
MAUSOLEUM: Final = 4
BLOOD_BANK: Final = 5
GROUNDSKEEPER: Final = 0
DOCTOR: Final = 1
TECHIE: Final = 2
RESIDENT: Final = 3
ENGINEER: Final = 4
SALES_REP: Final = 5
NOBLE: Final = 6
SCORPION: Final = 6  # animal ids after the six tile animals
CAT: Final = 7
HOUND: Final = 8
ANIMAL_VP: Final = (0, 1, 3, 6, 9, 12, 16, 20, 25)
# "Score 0-12 VP for each City Objective Specialist card"; not Final (compiled code would not see it changed):
# tests/games/siliconvania/test_audit8.py replays version 1, which had no cap, with it raised
OBJECTIVE_CAP = 12


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for i in range(16):
        r, c = divmod(i, 4)
        n = [j for j, ok in ((i - 4, r > 0), (i + 4, r < 3), (i - 1, c > 0), (i + 1, c < 3)) if ok]
        if r == 0:
            n.append(16 + c)
        if c == 0:
            n.append(20 + r)
        out.append(tuple(n))
    out += [(c,) for c in range(4)] + [(r * 4,) for r in range(4)]
    return tuple(out)


NEIGHBOURS: Final = _neighbours()
ROWS: Final = tuple((r * 4, r * 4 + 1, r * 4 + 2, r * 4 + 3, 20 + r) for r in range(4))
COLUMNS: Final = tuple((c, 4 + c, 8 + c, 12 + c, 16 + c) for c in range(4))
ROW_OF: Final = tuple([i // 4 for i in range(16)] + [-1] * 4 + [0, 1, 2, 3])
ALL: Final[tuple[int, ...]] = tuple(range(24))


def _bits(mask: int) -> int:
    """How many bits are set: the size of a set of small ids kept as a mask (compiled, native int operations where a
    set of ids allocates and hashes)."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _typed(cell: Cell | None) -> bool:
    """A tile or castle: a position with a type (not empty, a train or a Tiara's blank)."""
    return cell is not None and cell[0] <= CASTLE


def _types(typ: list[int], positions: tuple[int, ...]) -> int:
    """The types at these positions (`typ`: each position's type or -1), as a mask."""
    kinds = 0
    for j in positions:
        if typ[j] >= 0:
            kinds |= 1 << typ[j]
    return kinds


def _has_mall(cells: list[Cell | None], row: tuple[int, ...]) -> bool:
    for j in row:
        c = cells[j]
        if _typed(c) and c[1] == MALL:  # type: ignore[index]
            return True
    return False


def animal_vp(n: int) -> int:
    """VP for n different animals: 1/3/6/9/12/16/20/25 for 1..8+."""
    return ANIMAL_VP[min(n, 8)]


def blood_cluster(cells: list[Cell | None]) -> int:
    """Blood of the best single cluster of orthogonally adjacent tiles that all feature blood."""
    seen = [False] * 24
    best = 0
    for i in range(24):
        ci = cells[i]
        if seen[i] or ci is None or ci[2] <= 0:
            continue
        seen[i] = True
        stack = [i]
        total = 0
        while stack:
            j = stack.pop()
            total += cells[j][2]  # type: ignore[index]
            for k in NEIGHBOURS[j]:
                ck = cells[k]
                if not seen[k] and ck is not None and ck[2] > 0:
                    seen[k] = True
                    stack.append(k)
        best = max(best, total)
    return best


def static_values(cells: list[Cell | None]) -> list[int]:
    """VP of ONE copy of each objective that does not depend on housing (Groundskeeper, Sales Rep: 0)."""
    doc = tech = res = eng = noble = 0
    typ = [-1] * 24
    surv = [False] * 24
    inn = [False] * 24
    for i in range(24):
        c = cells[i]
        if _typed(c):
            t = c[1]  # type: ignore[index]
            typ[i] = t
            if t >= 0:
                surv[i] = c[6] > 0  # type: ignore[index]
                inn[i] = c[5] > 0  # type: ignore[index]
    for i in range(24):
        t = typ[i]
        if t < 0:
            continue
        nb = NEIGHBOURS[i]
        if surv[i]:
            for j in nb:
                if surv[j]:
                    doc += 2
                    break
        if inn[i]:
            for j in nb:
                if inn[j]:
                    break
            else:
                tech += 2
        if t == NEIGHBORHOOD and i < 16 and cells[i][0] == BUILDING and _bits(_types(typ, nb)) >= 3:  # type: ignore[index]
            res += 3
        if t == MAUSOLEUM:
            for j in nb:
                if typ[j] == BLOOD_BANK:
                    noble += 3
                    break
    for col in COLUMNS:
        kinds = _types(typ, col)
        if _bits(kinds) >= 4 and kinds >> METRO & 1:
            eng += 3
    cap = OBJECTIVE_CAP
    return [0, min(cap, doc), min(cap, tech), min(cap, res), min(cap, eng), 0, min(cap, noble)]


def housed_values(cells: list[Cell | None], housed: list[int]) -> tuple[int, int]:
    """VP of one Groundskeeper and one Sales Rep, given housed vampires per position."""
    gk = sales = 0
    for i in range(24):
        ci = cells[i]
        if ci is not None and ci[0] <= CASTLE and ci[1] == PARK:
            for j in NEIGHBOURS[i]:
                if housed[j] > 0:  # a blank (Tiara) building has no coffins, so never houses
                    gk += 2
                    break
    for row in ROWS:  # loops, not sum() and any() over generators: compiled, each generator is an object
        n = 0
        for j in row:
            n += housed[j]
        if n >= 3 and _has_mall(cells, row):
            sales += 3
    return min(OBJECTIVE_CAP, gk), min(OBJECTIVE_CAP, sales)


def objective_values(cells: list[Cell | None], housed: list[int]) -> list[int]:
    """VP of ONE copy of each of the seven objectives, given housed vampires per position."""
    out = static_values(cells)
    out[GROUNDSKEEPER], out[SALES_REP] = housed_values(cells, housed)
    return out


def _fill(caps: list[int], housed: list[int], n: int, positions: tuple[int, ...]) -> int:
    for j in positions:
        if n <= 0:
            break
        room = caps[j] - housed[j]
        if room > 0:
            put = min(room, n)
            housed[j] += put
            n -= put
    return n


def _place(cells: list[Cell | None], caps: list[int], h: int, copies: list[int]) -> list[int]:
    """Where to put h vampires (h <= total coffins) to make the Groundskeeper and Sales Rep score most."""
    gk, sr = copies[GROUNDSKEEPER], copies[SALES_REP]
    best = [0] * 24
    _fill(caps, best, h, ALL)
    if not gk and not sr:
        return best
    rows_ok: list[int] = []  # the rows that can qualify for the Sales Rep
    if sr:
        for r in range(4):
            room = 0
            for j in ROWS[r]:
                room += caps[j]
            if room >= 3 and _has_mall(cells, ROWS[r]):
                rows_ok.append(r)
    parks: list[int] = []  # only parks that can be served
    if gk:
        for i in range(24):
            c = cells[i]
            if _typed(c) and c[1] == PARK:  # type: ignore[index]
                for j in NEIGHBOURS[i]:
                    if caps[j] > 0:
                        parks.append(i)
                        break
    cands = [tuple(j for j in NEIGHBOURS[p] if caps[j] > 0) for p in parks]
    if not rows_ok and not parks:
        return best
    # the upper bound (every servable park, every row that can qualify) is often affordable: try it first
    housed = [0] * 24
    for c in cands:
        for j in c:
            housed[j] = 1
    for r in rows_ok:
        need = 3 - sum(housed[j] for j in ROWS[r])
        if need > 0:
            _fill(caps, housed, need, ROWS[r])
    used = sum(housed)
    if used <= h:
        _fill(caps, housed, h - used, ALL)
        return housed
    best_val = -1
    for mask in range(1 << len(rows_ok)):
        rset = [rows_ok[b] for b in range(len(rows_ok)) if mask >> b & 1]
        if 3 * len(rset) > h:
            continue
        chosen: list[int] = []
        found: list[tuple[int, list[int]]] = []
        floor = [best_val - min(OBJECTIVE_CAP, 3 * len(rset)) * sr]  # a leaf must score more than this to matter

        def dfs(k: int, covered: int, rset: list[int] = rset, chosen: list[int] = chosen,
                found: list[tuple[int, list[int]]] = found, floor: list[int] = floor) -> None:
            if min(OBJECTIVE_CAP, 2 * (covered + len(parks) - k)) * gk <= floor[0]:
                return  # cannot beat the best found so far
            if k == len(parks):
                cost = sum(1 for j in chosen if ROW_OF[j] not in rset)
                for r in rset:
                    cost += max(3, sum(1 for j in chosen if ROW_OF[j] == r))
                if cost <= h:
                    found.append((covered, chosen.copy()))
                    floor[0] = min(OBJECTIVE_CAP, 2 * covered) * gk
                return
            p = parks[k]
            if any(j in chosen for j in NEIGHBOURS[p]):
                dfs(k + 1, covered + 1)
                return
            for j in cands[k]:
                chosen.append(j)
                dfs(k + 1, covered + 1)
                chosen.pop()
            dfs(k + 1, covered)

        dfs(0, 0)
        for covered, sel in found[-1:]:
            val = min(OBJECTIVE_CAP, 2 * covered) * gk + min(OBJECTIVE_CAP, 3 * len(rset)) * sr
            if val <= best_val:
                continue
            housed = [0] * 24
            n = h
            for j in sel:
                housed[j] = 1
                n -= 1
            for r in rset:
                need = max(0, 3 - sum(housed[j] for j in ROWS[r]))
                rest = _fill(caps, housed, need, ROWS[r])
                n -= need - rest
            _fill(caps, housed, n, ALL)
            best_val, best = val, housed
    return best


def score_city(cells: list[Cell | None], *, vampires: int, cats: int, hounds: int, contracts: int,
               objectives: list[int], scorpion: bool, collar: bool, tiaras: int) -> dict[str, Any]:
    """The score breakdown of a city, with the meeple housing that maximises it (then housed vampires)."""
    caps = [0 if c is None else c[3] for c in cells]
    total_coffins = sum(caps)
    copies = [0] * 7
    for o in objectives:
        copies[o] += 1
    scoring = [min(3, n) for n in copies]
    animals = 0  # the animals of the city's tiles and castles (and the Scorpion), as a mask
    types = 0  # their types, as a mask
    for c in cells:
        if c is not None and _typed(c):  # (None tested here too: it narrows the type)
            if c[4] >= 0:
                animals |= 1 << c[4]
            if c[1] >= 0:
                types |= 1 << c[1]
    if scorpion:
        animals |= 1 << SCORPION
    base_animals = _bits(animals)
    values = static_values(cells)
    static_vp = 0
    for o in range(7):
        static_vp += values[o] * scoring[o]
    housing_matters = scoring[GROUNDSKEEPER] > 0 or scoring[SALES_REP] > 0
    has_cat, has_hound = int(cats > 0), int(hounds > 0)
    if vampires + has_cat + has_hound <= total_coffins:
        choices: tuple[tuple[int, int], ...] = ((has_cat, has_hound),)  # room for all: house everyone
    else:
        choices = tuple((c, d) for c in range(has_cat + 1) for d in range(has_hound + 1) if c + d <= total_coffins)
    best: tuple[int, int] | None = None
    best_housed: list[int] = []
    out: dict[str, Any] = {}
    for use_cat, use_hound in choices:
        h = min(vampires, total_coffins - use_cat - use_hound)
        housed = _place(cells, caps, h, scoring)
        n_animals = base_animals + use_cat + use_hound
        if collar and n_animals < 9:
            n_animals += 1
        if housing_matters:
            values[GROUNDSKEEPER], values[SALES_REP] = housed_values(cells, housed)
        obj_vp = static_vp + values[GROUNDSKEEPER] * scoring[GROUNDSKEEPER] + values[SALES_REP] * scoring[SALES_REP]
        key = (h + animal_vp(n_animals) + obj_vp, h)
        if best is not None and key <= best:
            continue
        best = key
        best_housed = housed
        meeples: list[list[str]] = [["V"] * housed[j] for j in range(24)]
        free = [caps[j] - housed[j] for j in range(24)]
        for flag, name in ((use_cat, "C"), (use_hound, "H")):
            if flag:
                j = 0
                while free[j] <= 0:
                    j += 1
                free[j] -= 1
                meeples[j].append(name)
        out = {"animals_count": n_animals, "animals": animal_vp(n_animals), "housed": h,
               "objective_values": values.copy(), "objective_copies": copies, "objectives": obj_vp,
               "housing": meeples}
    if not housing_matters:  # shown for information: what one copy would score with this housing
        ov = out["objective_values"]
        ov[GROUNDSKEEPER], ov[SALES_REP] = housed_values(cells, best_housed)  # the vampires housed
    out["diversity"] = 5 if _bits(types) >= 7 else 0
    out["blood"] = blood_cluster(cells)
    out["contracts"] = 2 * contracts + (5 if contracts >= 3 else 0)
    out["tiaras"] = 4 * tiaras
    out["total"] = (out["diversity"] + out["housed"] + out["animals"] + out["blood"] + out["contracts"]
                    + out["objectives"] + out["tiaras"])
    return out
