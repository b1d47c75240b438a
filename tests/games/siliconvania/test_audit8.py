"""Issue 8 (audit corrections) for SiliconVania, rules version 2: each test is named after the rule or guarantee it
restores. The audit's regression records are in `records/` (the original, version 1, and a copy marked version 2).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path

import pytest

import tabletop
from tabletop.core import InvalidRecord, Rng
from tabletop.games.siliconvania import notation as N
from tabletop.games.siliconvania import scoring as SC
from tabletop.games.siliconvania import view as V
from tabletop.games.siliconvania.components import DATA, ComponentError, parse
from tabletop.games.siliconvania.rules import SiliconVaniaState as S

RECORDS = Path(__file__).with_name("records")

# What version 1 (no cap on a City Objective card) made of the two audit games, kept as documented constants:
# p3 seed 82: seat 1's Doctor valued 16 and seat 2's Techie 14, [77, 80, 75], seat 1 wins;
# p2 seed 1: seat 1's Doctor valued 18, [86, 71], seat 0 wins.
OLD = {"p3-seed82": ([77.0, 80.0, 75.0], [1], 16), "p2-seed1": ([86.0, 71.0], [0], 18)}
# Version 2: every card scores at most 12 VP.
NEW = {"p3-seed82": ([77.0, 76.0, 73.0], [0], 12), "p2-seed1": ([86.0, 65.0], [0], 12)}


def _record(name: str, version: str) -> dict:
    return json.loads((RECORDS / f"siliconvania-objective-cap-{name}.v{version}.json").read_text())


@pytest.mark.parametrize("name", sorted(OLD))
def test_version_1_audit_records_are_refused_naming_both_versions(name):
    with pytest.raises(InvalidRecord) as e:
        tabletop.replay(_record(name, "1"))
    assert "1" in str(e.value) and "2" in str(e.value)


def _v1_deck_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Version 2 also moved rank 33 into the two-player deck (marks swapped with rank 26, audit 2), which changes
    every deck of 2-4 players, so the audit games replay only on the version-1 deck: patch those two marks back."""
    spec = N.COMPONENTS.specialists
    monkeypatch.setitem(spec, 26, dataclasses.replace(spec[26], mark=0))
    monkeypatch.setitem(spec, 33, dataclasses.replace(spec[33], mark=5))


@pytest.mark.parametrize("name", sorted(OLD))
def test_city_objective_card_scores_at_most_12_vp_in_the_audit_games(name, monkeypatch):
    """"City Objectives: Score 0-12 VP for each City Objective Specialist card"; "A maximum of three copies of the
    same City Objective can score up to 12 VP"."""
    _v1_deck_marks(monkeypatch)
    rec = _record(name, "2")
    s = tabletop.replay(rec)
    scores, winners, doctor = NEW[name]
    assert (s.scores(), s.winners()) == (scores, winners)
    assert s.breakdown(1)["objective_values"][SC.DOCTOR] == doctor
    assert all(v <= 12 for p in range(s.players) for v in s.breakdown(p)["objective_values"])
    monkeypatch.setattr(SC, "OBJECTIVE_CAP", 99)  # version 1 had no cap: the old result, as recorded
    old = tabletop.replay(rec)
    scores, winners, doctor = OLD[name]
    assert (old.scores(), old.winners()) == (scores, winners)
    assert old.breakdown(1)["objective_values"][SC.DOCTOR] == doctor


# ---- component data (audit 2) ---------------------------------------------------------------------------------
def test_rank_33_is_in_the_two_player_deck_for_the_rulebook_tie_break_example():
    """"This is a two-player game… Dmitri's Specialist of Rank 33 breaks the tie": rank 33 is unmarked."""
    assert N.COMPONENTS.specialists[33].mark == 0
    assert 33 in {r for t in (S.setup(2, seed, {}) for seed in range(40)) for r in (*t.hand[0], *t.hand[1])}


def test_no_castle_shows_an_animal_the_rulebook_does_not_name():
    """Ruling V-21: animals come from building tiles, housed cats and hounds, upgraded castles (the Scorpion) and the
    Collar; the Park castle has no Owl."""
    assert all(c.animal < 0 for c in N.COMPONENTS.castles)
    park = S.for_test(2, 0, perim=[[0] + [-1] * 7, [-1] * 8])
    assert park.breakdown(0)["animals_count"] == 0


def test_bid_card_costs_and_abilities_come_from_the_component_data():
    """"Cards 1 and 2 allow you to gain a Vampire… Card 3 allows you to recover… Cards 6 and 7 require you to discard
    Vampires": read from components.toml, the one source."""
    cards = N.COMPONENTS.bid_cards
    assert [(b.number, b.ability, b.cost) for b in cards] == [
        (1, "vampire", 0), (2, "vampire", 0), (3, "recover", 0), (4, "", 0), (5, "", 0), (6, "", 1), (7, "", 2)]
    costs, abilities = (0, *(b.cost for b in cards)), ("", *(b.ability for b in cards))
    assert costs == N.BID_COST
    assert abilities == N.BID_ABILITY
    with DATA.open("rb") as f:
        raw = tomllib.load(f)
    raw["bid_card"][3]["ability"] = "teleport"
    with pytest.raises(ComponentError, match="bid card 4: ability 'teleport'"):
        parse(raw)


# ---- audit 12: the per-seat log ---------------------------------------------------------------------------------
def test_each_seat_log_keeps_the_whole_game_and_its_own_secrets_only():
    s = tabletop.new_game("siliconvania", 3, 4)
    rng = Rng(1)
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    logs = {p: s.log(p) for p in (None, 0, 1, 2)}
    assert all(len(x) == s.view(p)["log_pos"] > 150 for p, x in logs.items())
    assert logs[None][0] == {"seat": None, "text": "Round 1 begins"}
    assert s.view(0)["log"] == logs[0][-V.LOG_TAIL:]
    for p in (0, 1, 2):
        mine = [e["text"] for e in logs[p] if e["seat"] == p and " placed bid " in e["text"]]
        others = [e["template"] for e in logs[p] if e["seat"] != p and "face down" in e["text"]]
        assert len(mine) == 8 and all(t.endswith(", face down") for t in mine)
        assert others and set(others) <= {f"{{p{q}}} placed a bid face down" for q in range(3) if q != p}
    t = s.sample(0, 5)
    assert t.log(0) == logs[0] and t.log(1) == t.log(None) == logs[None]  # a sample holds no other seat's secret


# ---- audit 17: nothing returned aliases the state -----------------------------------------------------------------
def test_editing_the_final_result_of_a_view_changes_no_state():
    s = tabletop.new_game("siliconvania", 2, 3)
    rng = Rng(3)
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    twin = s.clone()
    scores = s.scores()
    v = s.view(0)
    v["final"][0]["total"] = 999
    v["final"][1]["objective_values"][0] = 999
    s.breakdown(0)["total"] = 999
    s.breakdown(1)["housing"].append("x")
    assert s.scores() == twin.scores() == scores
    assert s.view(1)["final"] == twin.view(1)["final"] and s.view(1)["final"][1]["objective_values"][0] != 999


# ---- the winner ------------------------------------------------------------------------------------------------
def _tile_with(**want: int) -> int:
    return next(i for i, t in enumerate(N.COMPONENTS.tiles) if all(getattr(t, k) == v for k, v in want.items()))


def test_ties_go_to_the_most_housed_vampires_then_are_shared():
    """"In the event of a tie, the tied player with the most Housed Vampires wins. If a tie still persists, the tied
    players share the victory." """
    coffin = _tile_with(blood=0, coffins=1, animal=-1)
    blood = _tile_with(blood=1, coffins=0, animal=-1)
    grid = [[coffin] + [-1] * 15, [blood] + [-1] * 15, [-1] * 16]
    s = S.for_test(3, 0, tasks=[], grid=grid, vamp=[1, 1, 1], objs=[[], [], []])
    assert s.is_over and s.scores() == [1.0, 1.0, 0.0]
    assert s.winners() == [0]  # seat 0 housed its vampire, seat 1 scored blood
    shared = S.for_test(3, 0, tasks=[], grid=[[coffin] + [-1] * 15, [coffin] + [-1] * 15, [-1] * 16],
                        vamp=[1, 1, 0], objs=[[], [], []])
    assert shared.winners() == [0, 1]
    assert S.for_test(2, 0, tasks=[], objs=[[], []]).winners() == [0, 1]
