"""Rule tests added by the clause-by-clause audit: each is named after the rulebook clause (or ruling) it pins.

Positions are built with `SiliconVaniaState.for_test(players, seed, tasks=[...], **fields)`: `tasks` is the whole
pending flow (kind, seat, a, b), run until its first real decision.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.core import Rng
from tabletop.games.siliconvania import notation as N
from tabletop.games.siliconvania import scoring as SC
from tabletop.games.siliconvania import tasks as T
from tabletop.games.siliconvania.rules import SiliconVaniaState as S

EMPTY = [-1] * 16


def _tile(**want: object) -> int:
    return next(i for i, t in enumerate(N.COMPONENTS.tiles) if all(getattr(t, k) == v for k, v in want.items()))


def _tiles(n: int, **want: object) -> list[int]:
    return [i for i, t in enumerate(N.COMPONENTS.tiles) if all(getattr(t, k) == v for k, v in want.items())][:n]


# ---- Silent Bid Card Abilities -------------------------------------------------------------------------------
@pytest.mark.parametrize(("card", "gain"), [(1, 1), (2, 1), (4, 0), (5, 0)])
def test_silent_bid_cards_1_and_2_gain_a_vampire_before_choosing_a_pool(card, gain):
    pools = [[_tile(bonus=())], [_tile(bonus=())]]
    s = S.for_test(3, 0, tasks=[(T.K_TILE_TURN, 0, 0, 0)], bid_card=[card, -1, -1], pools=[*pools, []],
                   vamp=[2, 2, 2])
    assert s.to_move == 0 and s.legal_actions()[0].verb == "pool"
    assert s.vamp[0] == 2 + gain  # gained before the pool choice


# ---- Building Tile Resolution -------------------------------------------------------------------------------
def test_two_players_the_winner_takes_two_pools_the_other_the_remaining_two():
    s = tabletop.new_game("siliconvania", 2, 7)
    pools = [p.copy() for p in s.pools]
    s.apply(next(a for a in s.legal_actions() if a.args[0] == 7))  # seat 0 bids 7 (has 2 vampires: pays)
    s.apply(next(a for a in s.legal_actions() if a.args[0] == 1))  # seat 1 bids 1
    assert s.order == [0, 1]
    assert sorted(str(a) for a in s.legal_actions()) == ["pool 1", "pool 2", "pool 3", "pool 4"]
    s.apply("pool 3")
    assert sorted(str(a) for a in s.legal_actions()) == ["pool 1", "pool 2", "pool 4"]
    s.apply("pool 1")
    mine = pools[2] + pools[0]
    assert sorted(s.pending[0]) == sorted(mine)
    rest = pools[1] + pools[3]
    while s.to_move == 0:  # place seat 0's two tiles (any track bonuses are decided first)
        s.apply(s.legal_actions()[0])
    assert sorted(s.pending[1]) == sorted(rest) or sorted(t for t in s.grid[1] if t >= 0) == sorted(rest)
    assert all(not p for p in s.pools)  # no leftover tiles with 2 players


def test_three_plus_players_one_pool_each_and_the_leftover_pool_is_discarded_at_round_end():
    s = tabletop.new_game("siliconvania", 3, 4)
    assert len(s.pools) == 4
    rng = Rng(3)
    while s.round == 1:
        if s.legal_actions()[0].verb == "pool":
            assert all(len(p) in (0, 2) for p in s.pools)  # a pool is taken whole
            before = sum(len(p) for p in s.pools)
            p = s.to_move
            s.apply(s.legal_actions()[0])
            assert sum(len(q) for q in s.pools) == before - 2 and len(s.pending[p]) == 2
            continue
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    assert len(s.tile_disc) == 2  # the one pool nobody took


@pytest.mark.parametrize(("bonus", "field", "delta"), [((0,), "vamp", 1), ((0, 0), "vamp", 2),
                                                        ((1,), "inn", 1), ((2,), "surv", -1)])
def test_tile_bonus_gained_immediately_when_acquired(bonus, field, delta):
    t = _tile(bonus=bonus)
    s = S.for_test(3, 0, tasks=[(T.K_GAIN, 0, 0, 0), (T.K_PLACE_ALL, 0, 0, 0)], pending=[[t], [], []],
                   inn=[5, 0, 0], surv=[9, 12, 12])  # spaces 6 and 8: upgrade (no castle) / castle
    before = {"vamp": 2, "inn": 5, "surv": 9}[field]
    if s.legal_actions()[0].verb == "castle":
        s.apply(s.legal_actions()[0])
    assert getattr(s, field)[0] - before == delta
    assert s.legal_actions()[0].verb == "place"  # placement comes after the bonus


def test_tiles_are_placed_only_in_empty_cells_of_the_4x4_grid():
    t = _tile(bonus=())
    grid = [[*range(40, 55), -1], EMPTY, EMPTY]
    s = S.for_test(3, 0, tasks=[(T.K_PLACE, 0, 0, 0), (T.K_PLACE, 0, 0, 0)], pending=[[t, 60], [], []],
                   grid=grid)
    assert {str(a) for a in s.legal_actions()} == {"place t60 d4", f"place t{t} d4"}


# ---- Specialist Card Resolution -----------------------------------------------------------------------------
def test_specialist_resolution_bid_effect_then_take_then_private_discard():
    rank = next(r for r, sp in N.COMPONENTS.specialists.items() if sp.effect == ("vampire",) and sp.mark == 0)
    s = S.for_test(2, 0, tasks=[(T.K_SPECIALIST_TURN, 0, 0, 0)], bid_spec=[rank, -1], row=[1, 2], round=2,
                   vamp=[2, 2], hand=[[10, 11, 12, 13, 14], [20, 21, 22, 23, 24, 25]], in_flight=[1, 0])
    assert s.vamp[0] == 3 and s.legal_actions()[0].verb == "take"
    s.apply("take s2")
    assert 2 in s.hand[0] and s.disc[0] == [rank] and s.in_flight[0] == 0
    assert "discard" not in s.view(1)["seats"][0] and s.view(1)["seats"][0]["discard_size"] == 1


@pytest.mark.parametrize(("round_", "objective"), [(1, False), (3, False), (4, True), (8, True)])
def test_city_objective_added_only_in_rounds_4_to_8(round_, objective):
    s = S.for_test(2, 0, tasks=[(T.K_SPECIALIST_TURN, 0, 0, 0)], bid_spec=[66, -1], row=[1, 2], round=round_,
                   hand=[[10, 11, 12, 13, 14], [20, 21, 22, 23, 24, 25]], in_flight=[1, 0])
    s.apply("take s1")
    assert (s.to_move == 0 and s.legal_actions()[0].verb == "objective") is objective
    if objective:
        s.apply("objective s1")  # the card just taken may be chosen
        assert s.objs[0] == [1]


# ---- Special rules ------------------------------------------------------------------------------------------
def test_exchange_cannot_give_away_a_building_with_an_antiquity():
    """Ruling V-12."""
    s = S.for_test(2, 0, tasks=[(T.K_EXCHANGE, 0, 0, 0)], grid=[[1, 2] + [-1] * 14, EMPTY],
                   anti=[[0] + [-1] * 15, [-1] * 16], xpool=[5, 6, 7, 8])
    cells = {str(a).split()[1] for a in s.legal_actions() if a.args[0] != "skip"}
    assert cells == {"a2"} and "exchange skip" in {str(a) for a in s.legal_actions()}


def test_upgraded_castle_keeps_its_printed_icons_and_adds_the_scorpion():
    """Ruling V-16."""
    park = next(c for c in range(7) if N.COMPONENTS.castles[c].coffins > 0)  # any castle: none shows an animal (V-21)
    plain = S.for_test(2, 0, perim=[[park] + [-1] * 7, [-1] * 8])
    before = plain.breakdown(0)["animals_count"]
    s = S.for_test(2, 0, tasks=[(T.K_UPGRADE, 0, 0, 0)], perim=[[park] + [-1] * 7, [-1] * 8])
    assert s.perim[0][0] == park + N.UPGRADED  # single option: auto-applied
    assert s.cells(0)[16] == plain.cells(0)[16]
    assert s.breakdown(0)["animals_count"] == before + 1


def test_tiara_blank_building_has_no_type_blood_coffins_animal_or_icons():
    """Ruling V-17: the facedown tile is blank; only its 4 VP count."""
    t = _tile(blood=2)
    tiara = next(i for i, k in enumerate(N.COMPONENTS.antiquities) if k == N.TIARA)
    s = S.for_test(2, 0, grid=[[t] + [-1] * 15, EMPTY], anti=[[tiara] + [-1] * 15, [-1] * 16], vamp=[3, 2])
    b = s.breakdown(0)
    assert s.cells(0)[0] == (SC.BLANK, -1, 0, 0, -1, 0, 0)
    assert (b["blood"], b["housed"], b["tiaras"], b["animals_count"]) == (0, 0, 4, 0)


def test_housed_cats_and_hounds_do_not_count_as_housed_vampires_for_the_sales_rep():
    mall = (SC.BUILDING, SC.MALL, 0, 2, -1, 0, 0)
    nbh = (SC.BUILDING, SC.NEIGHBORHOOD, 0, 2, -1, 0, 0)
    cells: list[SC.Cell | None] = [mall, nbh] + [None] * 22
    kw = dict(contracts=0, objectives=[SC.SALES_REP], scorpion=False, collar=False, tiaras=0)
    with_pets = SC.score_city(cells, vampires=2, cats=1, hounds=1, **kw)  # type: ignore[arg-type]
    assert with_pets["objective_values"][SC.SALES_REP] == 0 and with_pets["animals_count"] == 2
    three = SC.score_city(cells, vampires=3, cats=1, hounds=0, **kw)  # type: ignore[arg-type]
    assert three["objective_values"][SC.SALES_REP] == 3 and three["housed"] == 3  # 3 VP beat the cat's 1


# ---- Housing (ruling V-10): the search is exact ---------------------------------------------------------------
def _brute(cells: list[SC.Cell | None], vampires: int, cats: int, hounds: int, objectives: list[int]) -> int:
    caps = [0 if c is None else c[3] for c in cells]
    spots = [j for j in range(24) for _ in range(caps[j])]
    copies = [min(3, objectives.count(o)) for o in range(7)]
    static = SC.static_values(cells)
    base = {c[4] for c in cells if c is not None and c[0] <= SC.CASTLE and c[4] >= 0}
    best = 0
    for k in range(min(len(spots), vampires) + 1):
        for chosen in itertools.combinations(range(len(spots)), k):
            housed = [0] * 24
            for x in chosen:
                housed[spots[x]] += 1
            room = len(spots) - k
            pets = min(room, int(cats > 0) + int(hounds > 0))
            gk, sr = SC.housed_values(cells, housed)
            vals = static[:]
            vals[SC.GROUNDSKEEPER], vals[SC.SALES_REP] = gk, sr
            total = k + SC.animal_vp(len(base) + pets) + sum(vals[o] * copies[o] for o in range(7))
            best = max(best, total)
    return best


_CELL = st.one_of(
    st.none(),
    st.tuples(st.just(SC.BUILDING), st.sampled_from([SC.PARK, SC.MALL, SC.NEIGHBORHOOD]), st.just(0),
              st.integers(0, 2), st.just(-1), st.just(0), st.just(0)),
)


@settings(max_examples=40, deadline=None)
@given(grid=st.lists(_CELL, min_size=8, max_size=8), vampires=st.integers(0, 5), pets=st.integers(0, 2),
       objectives=st.lists(st.sampled_from([SC.GROUNDSKEEPER, SC.SALES_REP]), max_size=3))
def test_housing_is_optimal_against_brute_force(grid, vampires, pets, objectives):
    cells: list[SC.Cell | None] = list(grid) + [None] * 16  # rows a and b only: small enough to enumerate
    got = SC.score_city(cells, vampires=vampires, cats=pets & 1, hounds=pets >> 1, contracts=0,
                        objectives=objectives, scorpion=False, collar=False, tiaras=0)
    want = _brute(cells, vampires, pets & 1, pets >> 1, objectives)
    assert got["total"] - got["diversity"] - got["blood"] == want


# ---- Hidden information and the public log --------------------------------------------------------------------
def test_revealed_bids_stay_known_in_discard_piles_when_sampling():
    s = tabletop.new_game("siliconvania", 3, 2)
    rng = Rng(5)
    while s.round < 3:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    for seed in range(5):
        t = s.sample(0, seed)
        for q in (1, 2):
            assert set(s.view(0)["seats"][q]["revealed_discards"]) <= set(t.disc[q])
            assert t.view(0) == s.view(0)


def test_the_view_has_a_public_log_with_revealed_bids_and_taken_tiles():
    s = tabletop.new_game("siliconvania", 3, 2)
    while s.round == 1 and s.legal_actions()[0].verb == "bid":
        s.apply(s.legal_actions()[0])
    log = s.view(1)["log"]
    reveals = [e for e in log if " revealed bid " in e["text"]]
    assert [e["seat"] for e in reveals] == [0, 1, 2]
    hidden = tabletop.new_game("siliconvania", 3, 2)
    bid = hidden.legal_actions()[0]
    hidden.apply(bid)
    for seat in (None, 1, 2):  # a bid is secret until the reveal: the others saw only that one was placed
        assert [e["text"] for e in hidden.log(seat)][-1] == "Player 1 placed a bid face down"
    assert f"s{bid.args[1]}" in hidden.log(0)[-1]["text"]


def test_housing_search_matches_exhaustive_search_on_park_heavy_whole_cities():
    """Ruling V-10 with V-23, audit 22: whole 4x4 cities full of Parks and single coffins, few vampires, so that the
    search must choose which parks and rows to serve (and the cap of 12 VP per card matters)."""
    rng = Rng(2026)
    kinds = [SC.PARK] * 5 + [SC.MALL, SC.NEIGHBORHOOD]
    for _ in range(1500):
        cells: list[SC.Cell | None] = [None] * 24
        spots = 0
        for i in range(16):
            if rng.below(6) == 0:
                continue
            coffins = 1 if spots < 9 and rng.below(3) == 0 else 0
            spots += coffins
            cells[i] = (SC.BUILDING, kinds[rng.below(len(kinds))], 0, coffins, -1, 0, 0)
        if rng.below(2):
            cells[20 + rng.below(4)] = (SC.CASTLE, SC.MALL, 0, 0, -1, 0, 0)
        for slot in range(16, 24):  # trains with a coffin beside a row or column
            if cells[slot] is None and rng.below(5) == 0:
                cells[slot] = (SC.TRAIN, -1, 0, 1, -1, 0, 0)
        vampires = 1 + rng.below(5)
        objectives = [[SC.GROUNDSKEEPER], [SC.SALES_REP, SC.GROUNDSKEEPER], [SC.GROUNDSKEEPER] * 2 + [SC.SALES_REP]][
            rng.below(3)]
        got = SC.score_city(cells, vampires=vampires, cats=0, hounds=0, contracts=0, objectives=objectives,
                            scorpion=False, collar=False, tiaras=0)
        assert sum(m.count("V") for m in got["housing"]) == got["housed"]
        assert got["total"] - got["diversity"] - got["blood"] == _brute(cells, vampires, 0, 0, objectives), cells
