"""Final scoring (rulebook "Game End Scoring" and "City Objective Cards") on hand-built cities.

Cities are written as {position: cell}; positions are "a1".."d4" for the grid and "top1".."top4" /
"lefta".."leftd" for perimeter slots. Cells: B(type, ...) building, K(type, ...) castle, T(blood, coffins) train.
"""

from __future__ import annotations

import pytest

from tabletop.games.siliconvania.scoring import (
    BLANK,
    BLOOD_BANK,
    BUILDING,
    CASTLE,
    DOCTOR,
    ENGINEER,
    GROUNDSKEEPER,
    MALL,
    MAUSOLEUM,
    METRO,
    NEIGHBORHOOD,
    NOBLE,
    PARK,
    RESIDENT,
    SALES_REP,
    TECHIE,
    TRAIN,
    Cell,
    blood_cluster,
    objective_values,
    score_city,
)

LAB = 6
POS = {f"{'abcd'[i // 4]}{i % 4 + 1}": i for i in range(16)}
POS.update({f"top{c + 1}": 16 + c for c in range(4)})
POS.update({f"left{'abcd'[r]}": 20 + r for r in range(4)})


def B(t: int, blood: int = 0, coffins: int = 0, animal: int = -1, inn: int = 0, surv: int = 0) -> Cell:
    return (BUILDING, t, blood, coffins, animal, inn, surv)


def K(t: int, blood: int = 0, coffins: int = 0, animal: int = -1, inn: int = 0, surv: int = 0) -> Cell:
    return (CASTLE, t, blood, coffins, animal, inn, surv)


def T(blood: int, coffins: int) -> Cell:
    return (TRAIN, -1, blood, coffins, -1, 0, 0)


def city(layout: dict[str, Cell]) -> list[Cell | None]:
    cells: list[Cell | None] = [None] * 24
    for k, v in layout.items():
        cells[POS[k]] = v
    return cells


def housed(spec: dict[str, int]) -> list[int]:
    h = [0] * 24
    for k, v in spec.items():
        h[POS[k]] = v
    return h


def score(layout: dict[str, Cell], **kw: object) -> dict:
    args = dict(vampires=0, cats=0, hounds=0, contracts=0, objectives=[], scorpion=False, collar=False, tiaras=0)
    args.update(kw)
    return score_city(city(layout), **args)  # type: ignore[arg-type]


# ---- City objective cards, one copy each ------------------------------------------------------------------
OBJECTIVE_CASES = [
    # Groundskeeper: 2 per Park (building or castle) adjacent to a tile with a housed vampire
    ("groundskeeper_park_next_to_housed_vampire", GROUNDSKEEPER,
     {"a1": B(PARK), "a2": B(NEIGHBORHOOD, coffins=2), "c3": B(PARK), "top2": K(PARK)}, {"a2": 1}, 4),
    ("groundskeeper_vampire_on_the_park_itself_does_not_count", GROUNDSKEEPER,
     {"a1": B(PARK, coffins=1), "b2": B(MALL, coffins=1)}, {"a1": 1, "b2": 1}, 0),
    ("groundskeeper_train_with_vampire_counts", GROUNDSKEEPER, {"a1": B(PARK), "lefta": T(1, 2)}, {"lefta": 1}, 2),
    # Doctor: 2 per survival-icon tile adjacent to another survival-icon tile (castles count)
    ("doctor_chain_of_three", DOCTOR,
     {"a1": B(PARK, surv=1), "a2": B(MALL, surv=1), "a3": B(METRO, surv=1), "d4": B(LAB, surv=1)}, {}, 6),
    ("doctor_castle_counts", DOCTOR, {"a1": B(PARK, surv=1), "top1": K(MALL, surv=1)}, {}, 4),
    ("doctor_diagonal_does_not_count", DOCTOR, {"a1": B(PARK, surv=1), "b2": B(MALL, surv=1)}, {}, 0),
    # Techie: 2 per innovation-icon tile NOT adjacent to another innovation tile
    ("techie_isolated_tiles_score", TECHIE,
     {"a1": B(LAB, inn=1), "a2": B(LAB, inn=1), "c3": B(METRO, inn=1), "d1": B(MALL, inn=1)}, {}, 4),
    ("techie_train_is_not_an_innovation_tile", TECHIE, {"a1": B(LAB, inn=1), "lefta": T(1, 1)}, {}, 2),
    # Resident: 3 per Neighborhood building adjacent to at least 3 other building/castle tiles of different types
    ("resident_three_different_neighbours", RESIDENT,
     {"b2": B(NEIGHBORHOOD), "a2": B(PARK), "b1": B(MALL), "b3": B(METRO), "c2": B(METRO)}, {}, 3),
    ("resident_two_types_is_not_enough", RESIDENT,
     {"b2": B(NEIGHBORHOOD), "a2": B(PARK), "b1": B(PARK), "b3": B(METRO)}, {}, 0),
    ("resident_castle_on_the_perimeter_counts_as_neighbour", RESIDENT,
     {"a1": B(NEIGHBORHOOD), "a2": B(PARK), "b1": B(MALL), "top1": K(METRO)}, {}, 3),
    ("resident_train_has_no_type", RESIDENT,
     {"a1": B(NEIGHBORHOOD), "a2": B(PARK), "b1": B(MALL), "top1": T(1, 1)}, {}, 0),
    ("resident_neighborhood_castle_does_not_qualify", RESIDENT, {"top1": K(NEIGHBORHOOD), "a1": B(PARK)}, {}, 0),
    # Engineer: 3 per column with at least 4 different types, one of them Metro (castle above counts)
    ("engineer_column_with_metro_and_four_types", ENGINEER,
     {"a1": B(METRO), "b1": B(PARK), "c1": B(MALL), "d1": B(LAB), "a2": B(PARK), "b2": B(MALL),
      "c2": B(LAB), "d2": B(NEIGHBORHOOD)}, {}, 3),
    ("engineer_castle_above_column_adds_its_type", ENGINEER,
     {"a3": B(PARK), "b3": B(MALL), "c3": B(PARK), "d3": B(LAB), "top3": K(METRO)}, {}, 3),
    ("engineer_train_adds_no_type", ENGINEER,
     {"a3": B(METRO), "b3": B(MALL), "c3": B(LAB), "d3": B(LAB), "top3": T(1, 1)}, {}, 0),
    # Sales Rep: 3 per row with at least 3 housed vampires and a Mall
    ("sales_rep_row_with_mall_and_three_vampires", SALES_REP,
     {"a1": B(MALL, coffins=1), "a2": B(NEIGHBORHOOD, coffins=3), "b1": B(NEIGHBORHOOD, coffins=3)},
     {"a1": 1, "a2": 2, "b1": 3}, 3),
    ("sales_rep_train_left_of_row_counts", SALES_REP,
     {"c1": B(MALL), "c2": B(NEIGHBORHOOD, coffins=1), "leftc": T(1, 2)}, {"c2": 1, "leftc": 2}, 3),
    ("sales_rep_train_above_column_is_in_no_row", SALES_REP,
     {"a1": B(MALL, coffins=1), "top2": T(1, 2)}, {"a1": 1, "top2": 2}, 0),
    # Noble: 3 per Mausoleum adjacent to a Blood Bank (castles count)
    ("noble_mausoleums_next_to_blood_bank", NOBLE,
     {"b2": B(BLOOD_BANK), "a2": B(MAUSOLEUM), "b3": B(MAUSOLEUM), "d4": B(MAUSOLEUM)}, {}, 6),
    ("noble_blood_bank_castle", NOBLE, {"a4": B(MAUSOLEUM), "top4": K(BLOOD_BANK)}, {}, 3),
]


@pytest.mark.parametrize(("name", "objective", "layout", "vampires", "vp"), OBJECTIVE_CASES,
                         ids=[c[0] for c in OBJECTIVE_CASES])
def test_city_objective_cards(name, objective, layout, vampires, vp):
    assert objective_values(city(layout), housed(vampires))[objective] == vp


def test_city_objectives_at_most_three_copies_score_and_all_score_the_same():
    layout = {"b2": B(BLOOD_BANK), "a2": B(MAUSOLEUM)}
    assert score(layout, objectives=[NOBLE] * 3)["objectives"] == 9
    assert score(layout, objectives=[NOBLE] * 5)["objectives"] == 9


# ---- other scoring conditions ----------------------------------------------------------------------------
def test_tile_diversity_needs_all_seven_types_castle_counts():
    six = {"a1": B(0), "a2": B(1), "a3": B(2), "a4": B(3), "b1": B(4), "b2": B(5)}
    assert score(six)["diversity"] == 0
    assert score({**six, "top1": K(LAB)})["diversity"] == 5
    assert score({**six, "top1": T(1, 1)})["diversity"] == 0


@pytest.mark.parametrize(("n", "vp"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 9), (5, 12), (6, 16), (7, 20), (8, 25)])
def test_animals_table(n, vp):
    layout = {f"{'abcd'[i // 4]}{i % 4 + 1}": B(PARK, animal=i) for i in range(min(n, 6))}
    extra = {"scorpion": n >= 7, "hounds": 1 if n >= 8 else 0}
    if n >= 8:
        layout["d4"] = B(NEIGHBORHOOD, coffins=1)
    assert score(layout, **extra)["animals"] == vp


def test_cats_and_hounds_count_only_when_housed():
    assert score({"a1": B(PARK, animal=0)}, cats=1)["animals"] == 1
    assert score({"a1": B(PARK, animal=0, coffins=1)}, cats=1)["animals"] == 3


def test_housing_prefers_the_hound_over_a_vampire_when_it_scores_more():
    r = score({"a1": B(PARK, animal=0, coffins=1)}, vampires=1, hounds=1)
    assert (r["housed"], r["animals"]) == (0, 3)


def test_housing_puts_vampires_where_the_groundskeeper_scores():
    layout = {"a1": B(PARK), "a2": B(NEIGHBORHOOD, coffins=1), "d4": B(NEIGHBORHOOD, coffins=3)}
    r = score(layout, vampires=1, objectives=[GROUNDSKEEPER])
    assert r["objectives"] == 2 and r["housing"][POS["a2"]] == ["V"]


def test_housing_satisfies_sales_rep_rows():
    layout = {"a1": B(MALL, coffins=3), "d1": B(NEIGHBORHOOD, coffins=3)}
    assert score(layout, vampires=3, objectives=[SALES_REP])["objectives"] == 3


def test_blood_single_best_cluster_including_perimeter_and_train():
    layout = {"a1": B(BLOOD_BANK, blood=3), "lefta": T(2, 1), "top1": K(BLOOD_BANK, blood=2),
              "a2": B(MALL), "c3": B(BLOOD_BANK, blood=3), "c4": B(BLOOD_BANK, blood=3)}
    assert blood_cluster(city(layout)) == 7


def test_perimeter_slots_do_not_touch_each_other_or_diagonals():
    layout = {"top1": K(BLOOD_BANK, blood=2), "lefta": T(2, 1)}
    assert blood_cluster(city(layout)) == 2


@pytest.mark.parametrize(("n", "vp"), [(0, 0), (1, 2), (2, 4), (3, 11), (4, 13)])
def test_council_contracts_two_each_plus_five_for_three(n, vp):
    assert score({}, contracts=n)["contracts"] == vp


def test_antiquity_tiara_scores_four_and_blank_tile_counts_for_nothing():
    r = score({"a1": (BLANK, -1, 0, 0, -1, 0, 0)}, tiaras=1)
    assert r["tiaras"] == 4 and r["total"] == 4


def test_antiquity_collar_counts_as_a_missing_animal():
    assert score({"a1": B(PARK, animal=0)}, collar=True)["animals_count"] == 2


def test_scoring_example_from_the_rulebook_totals_99():
    P, N, Z, BB, M, L = PARK, NEIGHBORHOOD, MAUSOLEUM, BLOOD_BANK, METRO, MALL
    layout = {
        "a1": B(P, animal=0, surv=1), "a2": B(N, blood=1, coffins=3), "a3": B(P, animal=1), "a4": B(LAB),
        "b1": B(Z, blood=1, surv=1), "b2": B(BB, blood=3, surv=1), "b3": B(Z, blood=1, coffins=2),
        "b4": B(P, animal=2),
        "c1": B(P, animal=3, surv=1), "c2": B(Z, blood=1, coffins=2), "c3": B(N, blood=2), "c4": B(M),
        "d1": B(L, surv=1), "d2": B(P, animal=4), "d3": B(N, coffins=3), "d4": B(BB, blood=2),
        "top1": K(N), "leftb": T(2, 2),
    }
    r = score(layout, vampires=11, hounds=1, contracts=2, scorpion=True,
              objectives=[NOBLE, NOBLE, GROUNDSKEEPER, GROUNDSKEEPER, DOCTOR])
    got = [r["diversity"], r["animals"], r["housed"], r["blood"], r["contracts"], r["objectives"]]
    assert got == [5, 20, 11, 11, 4, 48]
    assert r["objective_values"][NOBLE] == 9 and r["objective_values"][GROUNDSKEEPER] == 10
    assert r["objective_values"][DOCTOR] == 10
    assert r["total"] == 99


# ---- Audit 22: each final-scoring rule pinned at its boundaries (hand-computed) -------------------------------
ALL_SURVIVAL = {f"{'abcd'[i // 4]}{i % 4 + 1}": B(i % 7, surv=1) for i in range(16)}


@pytest.mark.parametrize(
    ("objective", "layout", "vampires", "uncapped"),
    [
        # 16 survival tiles all adjacent to each other: 16 x 2 = 32
        (DOCTOR, ALL_SURVIVAL, {}, 32),
        # 8 isolated innovation tiles on a checkerboard: 8 x 2 = 16
        (TECHIE, {f"{'abcd'[r]}{c + 1}": B(LAB, inn=1) for r in range(4) for c in range(4) if (r + c) % 2 == 0}, {},
         16),
        # 5 Mausoleums each beside a Blood Bank: 5 x 3 = 15
        (NOBLE, {"a1": B(MAUSOLEUM), "a2": B(BLOOD_BANK), "a3": B(MAUSOLEUM), "b2": B(MAUSOLEUM),
                 "c1": B(MAUSOLEUM), "c2": B(BLOOD_BANK), "c3": B(MAUSOLEUM)}, {}, 15),
        # 7 Parks each beside a tile with a housed vampire: 7 x 2 = 14
        (GROUNDSKEEPER, {"a1": B(PARK), "a2": B(NEIGHBORHOOD, coffins=1), "a3": B(PARK), "b2": B(PARK),
                         "c1": B(PARK), "c2": B(NEIGHBORHOOD, coffins=1), "c3": B(PARK), "d2": B(PARK),
                         "top2": K(PARK)}, {"a2": 1, "c2": 1}, 14),
        # 5 Neighborhoods each with 3 neighbour types: 5 x 3 = 15
        (RESIDENT, {"a1": B(NEIGHBORHOOD), "a2": B(PARK), "b1": B(MALL), "top1": K(METRO),
                    "a3": B(NEIGHBORHOOD), "a4": B(MALL), "b3": B(METRO),
                    "c1": B(NEIGHBORHOOD), "d1": B(METRO), "c2": B(LAB),
                    "c4": B(NEIGHBORHOOD), "b4": B(PARK), "d4": B(LAB), "c3": B(BLOOD_BANK),
                    "d2": B(NEIGHBORHOOD), "d3": B(MAUSOLEUM)}, {}, 15),
    ],
    ids=["doctor", "techie", "noble", "groundskeeper", "resident"],
)
def test_each_city_objective_card_scores_at_most_12_vp(objective, layout, vampires, uncapped):
    """Ruling V-23: "Score 0-12 VP for each City Objective Specialist card" (the count alone would be `uncapped`)."""
    assert uncapped > 12
    assert objective_values(city(layout), housed(vampires))[objective] == 12
    r = score(layout, vampires=sum(vampires.values()), objectives=[objective] * 3)
    assert r["objective_values"][objective] == 12 and r["objectives"] == 36


def test_engineer_and_sales_rep_reach_exactly_12_with_all_four_columns_or_rows():
    layout = {f"{'abcd'[r]}{c + 1}": B([METRO, PARK, MALL, LAB][(r + c) % 4], coffins=3) for r in range(4)
              for c in range(4)}
    assert objective_values(city(layout), [0] * 24)[ENGINEER] == 12
    assert objective_values(city(layout), housed({f"{r}1": 3 for r in "abcd"}))[SALES_REP] == 12


def test_blood_cluster_counts_tiles_with_a_single_blood():
    """"a single cluster of orthogonally adjacent Building and/or Perimeter tiles that all feature one or more Blood
    icons": tiles with exactly one blood start and extend a cluster."""
    assert blood_cluster(city({"a1": B(MALL, blood=1)})) == 1
    assert blood_cluster(city({"a1": B(MALL, blood=1), "a2": B(MALL, blood=1), "a3": B(MALL, blood=1)})) == 3
    assert blood_cluster(city({"a1": B(MALL, blood=2), "a2": B(MALL, blood=1), "b2": B(MALL, blood=1)})) == 4
    assert blood_cluster(city({"lefta": T(1, 0), "a1": B(MALL, blood=1), "top1": K(BLOOD_BANK, blood=1)})) == 3
    # a tile without blood breaks the cluster; the best single cluster scores
    layout = {"a1": B(MALL, blood=2), "a2": B(MALL), "a3": B(MALL, blood=1), "a4": B(MALL, blood=2)}
    assert blood_cluster(city(layout)) == 3
    assert score(layout)["blood"] == 3
    assert blood_cluster(city({})) == 0


def test_tile_diversity_is_exactly_5_for_seven_types_and_a_blank_tile_has_no_type():
    seven = {"a1": B(0), "a2": B(1), "a3": B(2), "a4": B(3), "b1": B(4), "b2": B(5), "b3": B(LAB)}
    assert score(seven)["diversity"] == 5
    assert score({**seven, "b3": (BLANK, -1, 0, 0, -1, 0, 0)})["diversity"] == 0
    assert score({**seven, "b4": B(0), "c1": B(1)})["diversity"] == 5  # more tiles of a type add nothing


def test_housed_vampires_one_vp_each_one_meeple_a_coffin():
    layout = {"a1": B(NEIGHBORHOOD, coffins=3), "lefta": T(0, 2)}
    assert score(layout, vampires=4)["housed"] == 4
    assert score(layout, vampires=5)["housed"] == 5
    assert score(layout, vampires=7)["housed"] == 5  # unhoused vampires score nothing
    r = score(layout, vampires=5, cats=1, hounds=1)  # 5 coffins: an animal is worth more than a vampire here
    assert r["housed"] + r["animals_count"] == 5 and r["total"] == r["housed"] + r["animals"]
    assert score(layout, vampires=3, cats=1, hounds=1)["animals_count"] == 2  # room for all: all housed


def test_animals_count_each_kind_once_castles_and_scorpion_collar_included():
    layout = {"a1": B(PARK, animal=0), "a2": B(PARK, animal=0), "top1": K(PARK, animal=1)}
    assert score(layout)["animals_count"] == 2  # two Bats are one animal; an animal on a castle counts
    assert score(layout, scorpion=True)["animals_count"] == 3
    assert score(layout, scorpion=True, collar=True)["animals"] == 9  # 4 animals
    assert score({"a1": B(PARK, animal=0, coffins=2)}, cats=2, hounds=3)["animals_count"] == 3  # one cat, one hound
    nine = {f"a{i + 1}": B(PARK, animal=i) for i in range(4)} | {f"b{i + 1}": B(PARK, animal=4 + i) for i in range(2)}
    nine["c1"] = B(MALL, coffins=2)
    assert score(nine, scorpion=True, cats=1, hounds=1, collar=True)["animals"] == 25  # 8+ animals: 25


@pytest.mark.parametrize(("n", "vp"), [(1, 4), (2, 8)])
def test_tiaras_score_4_each_and_count_in_the_total(n, vp):
    r = score({"a1": B(MALL, coffins=1)}, tiaras=n, vampires=1, contracts=1)
    assert r["tiaras"] == vp and r["total"] == vp + 1 + 2


def test_total_is_the_sum_of_every_category():
    layout = {"a1": B(0, animal=0, surv=1), "a2": B(1, blood=1, coffins=2, surv=1), "a3": B(2, blood=2),
              "a4": B(3), "b1": B(4), "b2": B(5, blood=1), "b3": B(LAB, inn=1)}
    r = score(layout, vampires=2, contracts=3, tiaras=1, objectives=[DOCTOR, DOCTOR, TECHIE], scorpion=True)
    assert (r["diversity"], r["housed"], r["animals"], r["blood"], r["contracts"], r["objectives"], r["tiaras"]) == (
        5, 2, 3, 4, 11, 2 * 4 + 2, 4)
    assert r["total"] == 5 + 2 + 3 + 4 + 11 + 10 + 4


def test_doctor_and_techie_count_park_tiles_and_need_an_icon_on_both():
    """Type 0 (Park) tiles are tiles like any other for the icon objectives."""
    assert objective_values(city({"a1": B(PARK, surv=1), "a2": B(PARK, surv=1)}), [0] * 24)[DOCTOR] == 4
    assert objective_values(city({"a1": B(PARK, surv=1), "a2": B(PARK)}), [0] * 24)[DOCTOR] == 0
    assert objective_values(city({"a1": B(PARK, inn=1), "a3": B(PARK, inn=1)}), [0] * 24)[TECHIE] == 4
    assert objective_values(city({"a1": B(PARK, inn=1), "a2": B(PARK, inn=1)}), [0] * 24)[TECHIE] == 0
    assert objective_values(city({"a1": B(PARK, inn=1), "a2": B(PARK)}), [0] * 24)[TECHIE] == 2


def test_objective_thresholds_exactly_at_the_boundary():
    # Resident: exactly 3 different neighbour types qualifies, with Park among them
    assert objective_values(city({"b2": B(NEIGHBORHOOD), "a2": B(PARK), "b1": B(MALL), "b3": B(METRO)}),
                            [0] * 24)[RESIDENT] == 3
    # Engineer: exactly 4 types with Metro; 4 types without Metro; 3 types with Metro
    col = {"a1": B(METRO), "b1": B(PARK), "c1": B(MALL), "d1": B(LAB)}
    assert objective_values(city(col), [0] * 24)[ENGINEER] == 3
    assert objective_values(city({**col, "a1": B(NEIGHBORHOOD)}), [0] * 24)[ENGINEER] == 0
    assert objective_values(city({**col, "d1": B(PARK)}), [0] * 24)[ENGINEER] == 0
    # Sales Rep: exactly 3 housed vampires in the row with a Mall; 2 are not enough
    row = {"a1": B(MALL, coffins=1), "a2": B(NEIGHBORHOOD, coffins=2)}
    assert objective_values(city(row), housed({"a1": 1, "a2": 2}))[SALES_REP] == 3
    assert objective_values(city(row), housed({"a2": 2}))[SALES_REP] == 0
    # Groundskeeper: one housed vampire next door is enough
    assert objective_values(city({"a1": B(PARK), "a2": B(MALL, coffins=1)}), housed({"a2": 1}))[GROUNDSKEEPER] == 2
    # Noble: a Mausoleum castle counts, a Mausoleum with no Blood Bank beside it does not
    assert objective_values(city({"top1": K(MAUSOLEUM), "a1": B(BLOOD_BANK), "c3": B(MAUSOLEUM)}),
                            [0] * 24)[NOBLE] == 3


def test_housing_search_serves_parks_and_rows_under_the_cap():
    """Ruling V-10 with V-23: with vampires for only some parks, the search covers as many as count (at most 6)."""
    layout = {"a1": B(PARK), "a2": B(NEIGHBORHOOD, coffins=1), "a3": B(PARK), "c1": B(PARK),
              "c2": B(NEIGHBORHOOD, coffins=1), "c3": B(PARK), "b4": B(PARK), "d4": B(PARK), "c4": B(MALL, coffins=1),
              "d1": B(MALL, coffins=4)}
    r = score(layout, vampires=3, objectives=[GROUNDSKEEPER])
    assert r["objective_values"][GROUNDSKEEPER] == 12 and r["housed"] == 3
    r = score(layout, vampires=2, objectives=[GROUNDSKEEPER])
    assert r["objective_values"][GROUNDSKEEPER] == 10  # c4 serves c3, b4, d4; a2 serves a1, a3
    r = score(layout, vampires=4, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 12 and r["housed"] == 4  # six parks beat a Sales Rep row (3 at d1) with four parks
    r = score(layout, vampires=5, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 12 + 3 and r["housed"] == 5  # 3 at d1 (serving c1), c4 and a2: six parks and row d


def _vampires_placed(r: dict) -> int:
    return sum(m.count("V") for m in r["housing"])


def test_sales_rep_counts_a_mall_castle_and_a_row_with_exactly_three_coffins():
    assert objective_values(city({"lefta": K(MALL), "a1": B(NEIGHBORHOOD, coffins=3)}), housed({"a1": 3}))[
        SALES_REP] == 3
    r = score({"a1": B(NEIGHBORHOOD, coffins=3), "b1": B(MALL, coffins=3)}, vampires=3, objectives=[SALES_REP])
    assert r["objectives"] == 3 and r["housing"][POS["b1"]] == ["V"] * 3


def test_housing_search_prefers_a_sales_rep_row_when_vampires_are_short():
    """Three vampires: the Mall row (3 VP) beats serving the one park (2 VP)."""
    layout = {"a1": B(MALL, coffins=4), "d3": B(NEIGHBORHOOD, coffins=1), "d4": B(PARK)}
    r = score(layout, vampires=3, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 3 and r["housed"] == 3 == _vampires_placed(r)


def test_housing_search_counts_the_vampires_serving_parks_inside_a_sales_rep_row():
    """Row c holds the Mall and the cells serving parks d1-d3: three vampires there score both (6 + 3)."""
    layout = {"c1": B(NEIGHBORHOOD, coffins=1), "c2": B(NEIGHBORHOOD, coffins=1), "c3": B(NEIGHBORHOOD, coffins=1),
              "c4": B(MALL), "d1": B(PARK), "d2": B(PARK), "d3": B(PARK), "a1": B(PARK),
              "a2": B(NEIGHBORHOOD, coffins=1)}
    r = score(layout, vampires=3, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 9 and r["housed"] == 3 == _vampires_placed(r)


def test_housing_search_never_places_more_vampires_than_it_has():
    """Four cells of the Mall row could serve four parks, but three vampires serve three (6 + 3)."""
    layout = {f"c{i}": B(NEIGHBORHOOD, coffins=1) for i in range(1, 5)} | {f"d{i}": B(PARK) for i in range(1, 5)}
    layout["leftc"] = K(MALL)
    r = score(layout, vampires=3, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 9 and r["housed"] == 3 == _vampires_placed(r)


def test_only_one_hound_and_one_cat_count_when_coffins_are_short():
    r = score({"a1": B(PARK, animal=0, coffins=2)}, vampires=2, hounds=1)
    assert r["total"] == 4 and (r["housed"], r["animals_count"]) == (1, 2)  # a hound and a vampire: 1 + 3
    r = score({"a1": B(PARK, animal=0, coffins=3)}, vampires=3, hounds=2, cats=2)
    assert r["total"] == 1 + 6 and r["animals_count"] == 3  # one of each, one vampire


def test_a_housed_cat_goes_on_a_coffin():
    r = score({"a1": B(PARK), "b2": B(MALL, coffins=1)}, cats=1)
    assert r["housing"][POS["b2"]] == ["C"] and r["housing"][POS["a1"]] == []


@pytest.mark.parametrize("row", "abcd")
def test_housing_search_counts_a_rows_left_slot_as_part_of_that_row(row):
    """The train left of a row is in that row (and touches only its first cell): three vampires on it fill the Mall
    row (3) and serve the park beside it (2) = 5; serving both parks instead (the train and one cell of another
    row) scores only 4."""
    other = "d" if row == "a" else "a"
    layout = {f"{other}1": B(PARK), f"{other}2": B(NEIGHBORHOOD, coffins=1), f"{row}1": B(PARK), f"{row}2": B(MALL),
              f"left{row}": T(0, 3)}
    r = score(layout, vampires=3, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 5 and r["housed"] == 3 == _vampires_placed(r)
    assert r["housing"][POS[f"left{row}"]] == ["V", "V", "V"]


def test_housing_search_serves_five_parks_rather_than_fill_a_row_for_three_sales_reps():
    """Three vampires, one Groundskeeper and three Sales Reps: two vampires at b2 and a4 serve five parks (10 VP);
    filling the Mall row on the left slot of row d instead would score 3 x 3 = 9. The parks win."""
    layout = {"a2": B(PARK), "b1": B(PARK), "b3": B(PARK), "c2": B(PARK), "b4": B(PARK),
              "b2": B(NEIGHBORHOOD, coffins=1), "a4": B(METRO, coffins=1), "d4": B(MALL), "leftd": T(0, 3)}
    r = score(layout, vampires=3, objectives=[GROUNDSKEEPER, SALES_REP, SALES_REP, SALES_REP])
    assert r["objectives"] == 10 and r["housed"] == 3 == _vampires_placed(r)
    assert r["housing"][POS["b2"]] == r["housing"][POS["a4"]] == ["V"]
    assert r["objective_copies"] == [1, 0, 0, 0, 0, 3, 0]  # one count per objective card type


def test_housing_search_compares_sales_rep_rows_at_their_true_value():
    """Three vampires fill one Mall row. Row a (its left slot touches no park) scores 3 Sales Reps x 3 = 9; row d,
    found later, scores the same 9 plus the park c1 served from d1 (2) = 11. Row d it is."""
    layout = {"a1": B(MALL), "lefta": T(0, 3), "c1": B(PARK), "d1": B(NEIGHBORHOOD, coffins=3), "d4": B(MALL)}
    r = score(layout, vampires=3, objectives=[GROUNDSKEEPER, SALES_REP, SALES_REP, SALES_REP])
    assert r["objectives"] == 11 and r["housed"] == 3 == _vampires_placed(r)
    assert r["housing"][POS["d1"]] == ["V", "V", "V"]


def test_housing_search_counts_a_top_slot_in_no_row():
    """The train above column 3 is in no row: the vampire serving the park a3 from it cannot also count for the
    Mall row a. Three vampires fill row a from its left slot (3); the park would need a fourth."""
    layout = {"a2": B(MALL), "lefta": T(0, 3), "a3": B(PARK), "top3": T(0, 1)}
    r = score(layout, vampires=3, objectives=[SALES_REP, GROUNDSKEEPER])
    assert r["objectives"] == 3 and r["housed"] == 3 == _vampires_placed(r)
    assert r["housing"][POS["lefta"]] == ["V", "V", "V"] and r["housing"][POS["top3"]] == []


def test_groundskeeper_value_shown_for_information_counts_vampires_not_a_cat_or_hound_beside_the_park():
    """Without a Groundskeeper card the breakdown still shows what one copy would score with the housing chosen:
    a cat and a hound housed next to a park are not vampires (0), a vampire there is (2)."""
    layout = {"a1": B(PARK), "a2": B(NEIGHBORHOOD, coffins=2), "d4": B(NEIGHBORHOOD, coffins=1)}
    r = score(layout, vampires=0, cats=1, hounds=1)
    assert r["housing"][POS["a2"]] == ["C", "H"] and r["objective_values"][GROUNDSKEEPER] == 0
    r = score({"a1": B(PARK), "a2": B(NEIGHBORHOOD, coffins=1)}, vampires=1)
    assert r["housing"][POS["a2"]] == ["V"] and r["objective_values"][GROUNDSKEEPER] == 2


def test_with_room_for_every_meeple_all_are_housed_even_a_cat_that_adds_no_vp():
    """Six tile animals, the Scorpion and a hound make 8 (25 VP, the most): the cat adds no VP, but with exactly
    enough coffins for the vampire, the cat and the hound, every one of them is housed and counted."""
    six = {f"a{i + 1}": B(PARK, animal=i) for i in range(4)} | {f"b{i + 1}": B(PARK, animal=4 + i) for i in range(2)}
    six["c1"] = B(MALL, coffins=3)
    r = score(six, vampires=1, scorpion=True, cats=1, hounds=1)
    assert r["animals_count"] == 9 and r["animals"] == 25 and r["housed"] == 1
    assert sorted(r["housing"][POS["c1"]]) == ["C", "H", "V"]


def test_a_cat_and_a_hound_each_take_a_coffin_of_their_own():
    """ "You must house your Cat or Hound in coffins" and "each coffin can only hold one meeple of any type": with
    one coffin in each of two buildings the cat and the hound lie in different buildings, and no building shows more
    meeples than it has coffins."""
    layout = {"a1": B(MALL, coffins=1), "a2": B(MALL, coffins=1)}
    out = score(layout, cats=1, hounds=1)
    housing = out["housing"]
    assert sorted(housing[POS["a1"]] + housing[POS["a2"]]) == ["C", "H"]
    assert all(len(housing[j]) <= (cell[3] if cell else 0) for j, cell in enumerate(city(layout)))
