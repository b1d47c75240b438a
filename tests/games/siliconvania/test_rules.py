"""Rule tests for the flow of SiliconVania: setup, bidding, resolution, track bonuses, antiquities, hidden info."""

from __future__ import annotations

import json

import pytest

import tabletop
from tabletop.core import Rng
from tabletop.games.siliconvania import notation as N
from tabletop.games.siliconvania import scoring as SC
from tabletop.games.siliconvania import tasks as T
from tabletop.games.siliconvania.rules import SiliconVaniaState as S


def play_random(s: S, seed: int = 1) -> S:
    rng = Rng(seed)
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


# ---- setup ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "pools", "per_pool"), [(2, 4, 1), (3, 4, 2), (4, 5, 2), (5, 6, 2)])
def test_setup_and_refresh_by_player_count(players, pools, per_pool):
    s = tabletop.new_game("siliconvania", players, 3)
    v = s.view(0)
    assert len(v["pools"]) == pools and all(len(p) == per_pool for p in v["pools"])
    assert len(v["exchange_pool"]) == 4 and len(v["row"]) == players
    assert len(v["seats"][0]["hand"]) == 6 and v["seats"][0]["vampires"] == 2
    assert v["seats"][0]["bid_cards"] == [1, 2, 3, 4, 5, 6, 7]
    assert v["specialist_deck"] == 14 * players - 6 * players - players


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_game_end_every_city_has_16_tiles_and_5_objectives(players):
    s = play_random(tabletop.new_game("siliconvania", players, 11), 11)  # type: ignore[arg-type]
    for p in range(players):
        assert sum(1 for t in s.grid[p] if t >= 0) == 16
        assert len(s.objs[p]) == 5
    assert s.spec_deck == [] and s.round == 8


def test_five_player_tile_shortage_reshuffles_discarded_tiles():
    """Ruling V-1: 5 players need 100 tiles from 88; the leftover pools are reshuffled in round 8."""
    s = play_random(tabletop.new_game("siliconvania", 5, 2), 2)  # type: ignore[arg-type]
    assert all(all(t >= 0 for t in s.grid[p]) for p in range(5))


def test_refresh_draws_from_the_discarded_tiles_then_never_invents_a_tile():
    """Ruling V-1: an empty stack is refilled from the discards; with neither left (no real game gets there) the
    selection pools stay short rather than holding a tile that does not exist."""
    s = S.for_test(2, 0, tasks=[(T.K_ROUND, 0, 0, 0)], tile_deck=[], tile_disc=[9, 4])
    assert sorted(t for pool in s.pools for t in pool) == [4, 9] and s.tile_disc == [] and s.tile_deck == []
    s = S.for_test(2, 0, tasks=[(T.K_ROUND, 0, 0, 0)], tile_deck=[5], tile_disc=[])
    assert s.pools == [[5], [], [], []]


# ---- bid selection and order -----------------------------------------------------------------------------------
def test_bid_selection_is_secret_until_reveal():
    s = tabletop.new_game("siliconvania", 3, 5)
    s.apply(s.legal_actions()[0])
    assert s.view(0)["seats"][0]["bid"] is not None
    for seat in (1, 2, None):
        assert s.view(seat)["seats"][0]["bid"] is None
        assert s.view(seat)["seats"][0]["has_bid"] is True
    assert s.to_move == 1


def _bid_state(players: int, bids: list[tuple[int, int]], vamp: list[int] | None = None) -> S:
    hands = [[r] + [60 - i * 5 - k for k in range(5)] for i, (_, r) in enumerate(bids)]
    s = S.for_test(players, 0, tasks=[(T.K_REVEAL, 0, 0, 0)], hand=hands, bid_card=[b for b, _ in bids],
                   bid_spec=[r for _, r in bids], vamp=vamp or [2] * players)
    return s


def test_building_tile_bid_order_highest_card_first():
    s = _bid_state(3, [(4, 10), (5, 2), (1, 30)])
    assert s.order == [1, 0, 2]


def test_building_tile_bid_order_tie_broken_by_higher_specialist_rank():
    s = _bid_state(2, [(4, 12), (4, 33)])  # rulebook example: Dmitri's rank 33 wins the tie
    assert s.order == [1, 0]


def test_specialist_order_by_rank_highest_first():
    s = _bid_state(3, [(7, 10), (1, 66), (4, 30)])
    assert s.order[0] == 0  # tiles: bid 7
    order = sorted(range(3), key=lambda q: -s.bid_spec[q])
    assert order == [1, 2, 0]


@pytest.mark.parametrize(
    ("card", "vampires", "value", "left"), [(6, 1, 6, 0), (6, 0, 0, 0), (7, 2, 7, 0), (7, 1, 0, 1)]
)
def test_silent_bid_cards_6_and_7_cost_vampires_or_count_as_zero(card, vampires, value, left):
    s = _bid_state(2, [(card, 10), (1, 5)], vamp=[vampires, 2])
    assert s.bid_value[0] == value and s.vamp[0] == left


@pytest.mark.parametrize(("vampires", "as_zero"), [(0, set()), (1, {6}), (2, {6, 7}), (5, {6, 7})])
def test_cards_6_and_7_may_count_as_0_to_keep_the_vampires_whenever_the_player_can_pay(vampires, as_zero):
    """Ruling V-9: "Cards 6 and 7 require you to discard Vampires from your supply or treat your Bid as 0": a player
    who can pay chooses (`bid 6=0 sN` keeps the vampires); one who cannot is not asked."""
    s = S.for_test(2, 0, tasks=[(T.K_BID, 0, 0, 0), (T.K_BID, 1, 0, 0), (T.K_REVEAL, 0, 0, 0)], vamp=[vampires, 2],
                   hand=[[10, 11], [20, 21]])
    legal = [str(a) for a in s.legal_actions()]
    assert {int(a.split()[1][0]) for a in legal if "=0" in a} == as_zero
    assert len(legal) == 2 * (7 + len(as_zero))
    if not as_zero:
        return
    s.apply(f"bid {max(as_zero)}=0 s10")
    assert s.view(1)["seats"][0]["bid"] is None and "=0" not in json.dumps(s.view(1))  # secret until the reveal
    s.apply("bid 1 s20")
    assert s.bid_value[0] == 0 and s.vamp[0] == vampires and s.bid_hand[0] == 0b1111111 & ~(1 << max(as_zero) - 1)
    assert s.order == [1, 0] and any("kept the vampires" in e["text"] for e in s.log(1))


def test_silent_bid_card_3_may_recover_itself():
    s = S.for_test(2, 0, tasks=[(T.K_RECOVER, 0, 0, 0)], bid_disc=[0b0000100, 0], bid_hand=[0b1111011, 127])
    assert s.bid_hand[0] == 127  # single option: auto-applied


def test_no_bid_card_left_bids_zero():
    s = S.for_test(2, 0, tasks=[(T.K_BID, 0, 0, 0)], bid_hand=[0, 127])
    assert {str(a).split()[1] for a in s.legal_actions()} == {"0"}


# ---- track bonuses ----------------------------------------------------------------------------------------------
def _step(track: int, start: int, **fields) -> S:
    pos = {"inn": [start, 0]} if track == N.INNOVATION else {"surv": [start, N.TRACK_END]}
    return S.for_test(2, 0, tasks=[(T.K_STEP, 0, track, 1)], **pos, **fields)


def test_track_bonus_recover_a_silent_bid_card():
    s = _step(N.INNOVATION, 0, bid_hand=[0b1111100, 127], bid_disc=[0b11, 0])
    assert sorted(str(a) for a in s.legal_actions()) == ["recover 1", "recover 2"]
    s.apply("recover 2")
    assert s.bid_hand[0] & 0b10


def test_track_bonus_gain_a_train_placed_on_perimeter():
    s = _step(N.INNOVATION, 1)
    s.apply("train 1 leftb")
    assert s.perim[0][5] == N.FIRST_TRAIN and 0 not in s.train_sup


def test_track_bonus_gain_any_castle_and_its_immediate_bonus():
    s = _step(N.INNOVATION, 3)
    assert len(s.legal_actions()) == 7 * 8
    vamp = s.vamp[0]
    s.apply("castle park top1")  # the Park castle gives a vampire
    assert s.perim[0][0] == 0 and s.vamp[0] == vamp + 1


def test_perimeter_only_one_tile_per_row_and_column():
    s = _step(N.INNOVATION, 3, perim=[[0, -1, -1, -1, 20, -1, -1, -1], [-1] * 8])
    slots = {str(a).split()[2] for a in s.legal_actions()}
    assert slots == {"top2", "top3", "top4", "leftb", "leftc", "leftd"}


def test_perimeter_train_only_on_a_free_slot_not_on_castle_0_or_a_train():
    # the Park castle (id 0) on top1 and a train on lefta: a new train goes on any of the six other slots
    s = _step(N.INNOVATION, 1, perim=[[0, -1, -1, -1, N.FIRST_TRAIN, -1, -1, -1], [-1] * 8])
    slots = {str(a).split()[2] for a in s.legal_actions()}
    assert slots == {"top2", "top3", "top4", "leftb", "leftc", "leftd"}


def test_track_bonus_relocate_swap_two_buildings():
    grid = [[5, 6] + [-1] * 14, [-1] * 16]
    s = _step(N.INNOVATION, 2, grid=grid)
    s.apply("relocate swap a1 a2")
    assert s.grid[0][:2] == [6, 5]


def test_track_bonus_relocate_move_up_to_two_tiles_including_perimeter():
    grid = [[5, 6] + [-1] * 14, [-1] * 16]
    s = _step(N.INNOVATION, 2, grid=grid, perim=[[3] + [-1] * 7, [-1] * 8])
    s.apply("relocate move a1 d4")
    s.apply("relocate move top1 leftc")
    assert s.grid[0][15] == 5 and s.grid[0][0] == -1 and s.perim[0][6] == 3 and s.perim[0][0] == -1


def test_track_bonus_swap_a_city_objective_with_hand_or_discard():
    s = _step(N.INNOVATION, 4, objs=[[10], []], hand=[[20, 21], [1]], disc=[[30], []])
    assert {str(a) for a in s.legal_actions()} == {"swap skip", "swap s10 s20", "swap s10 s21", "swap s10 s30"}
    s.apply("swap s10 s30")
    assert s.objs[0] == [30] and s.disc[0] == [10]
    assert s.log(1)[-1]["text"] == "Player 1 swapped objective s10 for s30 Sales Rep; s10 goes to the discard pile"


def test_track_bonus_upgrade_castle_gives_the_scorpion():
    s = _step(N.INNOVATION, 5, perim=[[3] + [-1] * 7, [-1] * 8], grid=[[7] + [-1] * 15, [-1] * 16])
    assert s.perim[0][0] == 3 + N.UPGRADED  # only castle: auto
    assert s.breakdown(0)["animals_count"] >= 1


def test_track_end_gives_a_contract_and_further_moves_are_ignored():
    s = S.for_test(2, 0, tasks=[(T.K_STEP, 0, N.INNOVATION, 3)], inn=[N.TRACK_END - 1, 0], surv=[0, N.TRACK_END],
                   met=[1, 0])
    assert s.inn[0] == N.TRACK_END and s.contracts[0] == 1


def test_contract_when_the_two_markers_meet_or_pass_once():
    s = S.for_test(2, 0, tasks=[(T.K_STEP, 0, N.SURVIVAL, 1), (T.K_STEP, 0, N.SURVIVAL, 1)], inn=[6, 0], surv=[7, 12])
    assert s.met[0] == 1 and s.contracts[0] == 1


# ---- antiquities, cats and hounds, exchanges -------------------------------------------------------------------
def _tile(**want) -> int:
    return next(i for i, t in enumerate(N.COMPONENTS.tiles) if all(getattr(t, k) == v for k, v in want.items()))


def _antiquity_state(tile: int) -> S:
    return S.for_test(2, 0, tasks=[(T.K_ANTIQUITY, 0, 0, 0)], grid=[[tile] + [-1] * 15, [-1] * 16])


def test_antiquity_one_per_building_even_the_first_goblet():
    # a1 already holds antiquity 0 (the first Goblet): a second antiquity may go on a2 only
    grid = [[_tile(coffins=3), _tile(coffins=2)] + [-1] * 14, [-1] * 16]
    s = S.for_test(2, 0, tasks=[(T.K_ANTIQUITY, 0, 0, 0)], grid=grid,
                   anti=[[0] + [-1] * 15, [-1] * 16], anti_sup=[1, 2, 3, 4, 5, 6])
    assert N.COMPONENTS.antiquities[0] == N.GOBLET
    assert {str(a).split()[2] for a in s.legal_actions()} == {"a2"}


def test_antiquity_goblet_adds_two_blood():
    t = _tile(blood=1)
    s = _antiquity_state(t)
    s.apply("antiquity goblet a1")
    assert s.cells(0)[0][2] == 3


def test_antiquity_scepter_steps_both_tracks_and_adds_both_icons():
    t = _tile(innovation=0, survival=0)
    s = _antiquity_state(t)
    s.apply("antiquity scepter a1")
    assert (s.inn[0], s.surv[0]) == (1, N.TRACK_END - 1)
    assert {"seat": 0, "text": "Player 1 put a Scepter on a1", "template": "{p0} put a Scepter on a1"} in s.log(1)
    assert s.cells(0)[0][5:] == (1, 1)


def test_antiquity_collar_covers_two_coffins_and_needs_them():
    small, big = _tile(coffins=1), _tile(coffins=3)
    assert "antiquity collar a1" not in {str(a) for a in _antiquity_state(small).legal_actions()}
    s = _antiquity_state(big)
    s.apply("antiquity collar a1")
    assert s.cells(0)[0][3] == 1


def test_antiquity_collar_fits_a_building_with_exactly_two_coffins():
    """Ruling V-11: "must cover 2 Coffins": two are enough, and the Collar covers both."""
    s = _antiquity_state(_tile(coffins=2))
    s.apply("antiquity collar a1")
    assert s.cells(0)[0][3] == 0


def test_antiquity_bangle_adds_three_coffins():
    s = _antiquity_state(_tile(coffins=0))
    s.apply("antiquity bangle a1")
    assert s.cells(0)[0][3] == 3


def test_antiquity_tiara_flips_the_building_blank_worth_four():
    s = _antiquity_state(_tile(blood=3))
    s.apply("antiquity tiara a1")
    assert s.cells(0)[0][0] == SC.BLANK and s.breakdown(0)["tiaras"] == 4


def test_exchange_with_the_pool_gains_the_new_tiles_bonus():
    metro = _tile(name="Metro Station")
    s = S.for_test(2, 0, tasks=[(T.K_EXCHANGE, 0, 0, 0)], grid=[[1] + [-1] * 15, [-1] * 16],
                   xpool=[metro, 2, 3, 4])
    vamp = s.vamp[0]
    s.apply(f"exchange a1 t{metro}")
    assert s.vamp[0] == vamp + 2 and 1 in s.xpool
    s.apply(f"place t{metro} b2")
    assert s.grid[0][5] == metro


def test_cats_and_hounds_come_from_a_limited_supply():
    s = S.for_test(2, 0, tasks=[(T.K_CAT, 0, 0, 0), (T.K_HOUND, 0, 0, 0), (T.K_CAT, 0, 0, 0)], cat_sup=1)
    assert (s.cats[0], s.hounds[0], s.cat_sup) == (1, 1, 0)
    # the last hound of the supply is gained like any other, and then there is none
    s = S.for_test(2, 0, tasks=[(T.K_HOUND, 0, 0, 0), (T.K_HOUND, 1, 0, 0)], hound_sup=1)
    assert (s.hounds[0], s.hounds[1], s.hound_sup) == (1, 0, 0)


def test_council_contracts_come_from_a_limited_supply_down_to_the_last_tile():
    """Ruling V-7: the last Council Contract of the supply is gained like any other; then there is none to gain."""
    s = S.for_test(2, 0, tasks=[(T.K_CONTRACT, 0, 0, 0), (T.K_CONTRACT, 1, 0, 0)], contract_sup=1)
    assert (s.contracts[0], s.contracts[1], s.contract_sup) == (1, 0, 0)
    assert "Player 1 gained a council contract" in [e["text"] for e in s.log(0) if e["seat"] == 0]


# ---- ties and hidden information -------------------------------------------------------------------------------
def test_ties_broken_by_housed_vampires_then_shared():
    s = play_random(tabletop.new_game("siliconvania", 2, 4), 4)  # type: ignore[arg-type]
    s._final = [{"total": 50, "housed": 3}, {"total": 50, "housed": 4}]
    assert s.winners() == [1]
    s._final = [{"total": 50, "housed": 4}, {"total": 50, "housed": 4}]
    assert s.winners() == [0, 1]


def test_sample_deals_unseen_cards_consistently():
    s = tabletop.new_game("siliconvania", 4, 8)
    s.apply(s.legal_actions()[3])
    a, b = s.sample(1, 1), s.sample(1, 2)
    assert a.view(1) == b.view(1) == s.view(1)
    assert a.hand[1] == s.hand[1]
    assert sorted(a.hand[0] + a.spec_deck + a.hand[2] + a.hand[3]) == sorted(
        s.hand[0] + s.spec_deck + s.hand[2] + s.hand[3])


def test_sample_redraws_a_secret_bid_as_a_bid_that_seat_could_have_made():
    """A sample replaces another seat's secret bid by one of its possible bids: a specialist from its (sampled)
    hand, a bid card, and "as 0" only for a card that has a cost (ruling V-9)."""
    s = tabletop.new_game("siliconvania", 3, 8)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    frees = set()
    for seed in range(12):
        t = s.sample(2, seed)
        for q in (0, 1):
            card, spec, free = t.bid_card[q], t.bid_spec[q], t.bid_free[q]
            assert spec in t.hand[q] and 1 <= card <= 7
            assert free == 0 or N.BID_COST[card] > 0
            frees.add(free)
        assert t.view(2) == s.view(2)
    assert 0 in frees


def test_final_view_shows_housing_and_breakdown():
    s = play_random(tabletop.new_game("siliconvania", 3, 6), 6)  # type: ignore[arg-type]
    v = s.view(None)
    assert len(v["final"]) == 3 and "housing" in v["final"][0]
    assert sum(m.count("V") for m in v["final"][0]["housing"]) == v["final"][0]["housed"]


def test_snapshot_holds_each_seats_whole_private_log_from_the_first_entry():
    """`snapshot()` is the whole true state (for tests and debugging): a seat's private log in it is that seat's log
    from its first entry, in its own wording."""
    s = tabletop.new_game("siliconvania", 3, 5)
    s.apply(s.legal_actions()[0])  # seat 0's secret bid: worded privately for seat 0 only
    snap = s.snapshot()
    assert snap["private_log"][0] == [[e["seat"], e["text"]] for e in s.log(0)]
    assert snap["private_log"][0][0] == [None, "Round 1 begins"] and snap["private_log"][1] == []
