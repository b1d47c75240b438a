"""The reconstructed component data agrees with every fact the rulebook gives, and a bad file is refused."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from tabletop.games.siliconvania.components import DATA, ComponentError, load, parse


def _raw() -> dict:
    with DATA.open("rb") as f:
        return tomllib.load(f)


def test_components_counts_match_the_rulebook_component_list():
    c = load()
    assert len(c.tiles) == 88 and len(c.castles) == 7 and len(c.trains) == 6 and len(c.antiquities) == 7
    assert len(c.specialists) == 70 and sorted(c.specialists) == list(range(1, 71))
    assert (c.vampires, c.cats, c.hounds, c.contracts) == (60, 5, 5, 15)


def test_seven_types_six_named_by_objectives_and_seven_specialist_names_ten_each():
    c = load()
    assert {"Park", "Neighborhood", "Metro", "Mall", "Mausoleum", "Blood Bank"} < set(c.types)
    assert len(set(c.types)) == 7
    assert set(Counter(s.name for s in c.specialists.values()).values()) == {10}


@pytest.mark.parametrize(
    ("players", "specialists", "tiles_needed"), [(2, 28, 36), (3, 42, 68), (4, 56, 84), (5, 70, 100)]
)
def test_setup_player_count_marks_give_exactly_enough_specialists(players, specialists, tiles_needed):
    c = load()
    assert sum(1 for s in c.specialists.values() if s.mark <= players) == specialists == 14 * players
    tiles = sum(1 for t in c.tiles if t.mark <= players)
    assert tiles >= tiles_needed or players == 5  # 5 players: ruling V-1


def test_rulebook_example_noble_rank_66_gives_one_survival_and_metro_station_two_vampires():
    c = load()
    assert c.specialists[66].name == "Noble" and c.specialists[66].effect == ("survival",)
    assert any(t.name == "Metro Station" and t.bonus == (0, 0) for t in c.tiles)


def test_bid_effects_are_stronger_at_low_rank():
    c = load()
    low = sum(len(c.specialists[r].effect) for r in range(1, 21))
    high = sum(len(c.specialists[r].effect) for r in range(51, 71))
    assert low > 2 * high


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["tile"].pop(), "88"),
        (lambda d: d["tile"][3].pop("blood"), "tile 4: missing field 'blood'"),
        (lambda d: d["tile"][0].update(type="Casino"), "tile 1: type 'Casino'"),
        (lambda d: d["tile"][0].update(blood=7), "allowed 0..3"),
        (lambda d: d["specialist"][1].update(rank=1), "rank 1 is used twice"),
        (lambda d: d["specialist"][0].update(mark=6), "mark 6"),
        (lambda d: d["specialist"][0].update(effect=["teleport"]), "effect 'teleport'"),
        (lambda d: d["track"].update(spaces=["castle", "contract"]), "track"),
    ],
)
def test_a_bad_component_file_is_refused_with_a_clear_error(mutate, message):
    d = _raw()
    mutate(d)
    with pytest.raises(ComponentError, match=message):
        parse(d)


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path):
    bad = tmp_path / "components.toml"
    bad.write_text("types = [", encoding="utf-8")
    with pytest.raises(ComponentError, match="not valid TOML"):
        load(bad)


@pytest.mark.parametrize("players", [2, 5])
def test_every_component_of_the_box_stays_accounted_for_through_a_game(players):
    """The components in play (rulebook component list, cut by the player-count marks) are all somewhere at
    setup and after every action: stacks, discards, exchange pool, selection pools, hands, cities, supplies."""
    import tabletop
    from tabletop.core import Rng

    c = load()
    box = {"tiles": sum(1 for t in c.tiles if t.mark <= players), "specialists": 14 * players, "castles": 7,
           "trains": 6, "antiquities": 7, "vampires": 60, "cats": 5, "hounds": 5, "contracts": 15,
           "bid_cards": 7 * players}
    s = tabletop.new_game("siliconvania", players, 3)
    rng = Rng(3)
    assert s.component_counts() == box
    while not s.is_over:
        actions = s.legal_actions()
        s.apply(actions[rng.below(len(actions))])
        assert s.component_counts() == box


def test_a_castle_on_the_perimeter_stays_accounted_for_the_park_castle_too():
    from tabletop.games.siliconvania.rules import SiliconVaniaState

    s = SiliconVaniaState.for_test(2, 0, perim=[[0] + [-1] * 7, [-1] * 8], castle_sup=[1, 2, 3, 4, 5, 6])
    assert load().castles[0].type == 0  # castle 0 is the Park castle
    assert s.component_counts()["castles"] == 7
