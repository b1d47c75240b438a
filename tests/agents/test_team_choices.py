"""Issue 28, `partners=choices`: the team agent's partner models read from each teammate choice among the moves it
had (`ChoiceBelief`): the rebuilt hand and the heuristic's choice in it, the models' likelihoods, the search's
importance resampling, the spec, and no cheating."""

from __future__ import annotations

from typing import Any

import pytest

import tabletop
from tabletop.agents import make_agent, play_game
from tabletop.agents.team import TeamAgent
from tabletop.core import SeatHandle
from tabletop.games.silencio.heuristic import HeuristicAgent
from tabletop.games.silencio.notation import START, parse_card
from tabletop.games.silencio.team import ANY_PRIOR, MODELS, Choice, ChoiceBelief, PartnerBelief

from .test_ismcts import midgame


def _log(*texts: str) -> list[dict[str, object]]:
    return [{"seat": int(t[1]), "text": t} for t in texts]


def _posterior(terms: list[float]) -> dict[str, float]:
    z = sum(terms)
    return {m: t / z for m, t in zip(MODELS, terms, strict=True)}


def _game(mates: list[Any], seed: int, players: int = 3, stop: int | None = None) -> tuple[Any, ChoiceBelief, int]:
    """Plays with seat 0 the heuristic and `mates` beside it; seat 0's `ChoiceBelief` read at each of its turns.
    Returns the state at the belief's last reading (seat 0's first decision with `stop` choices in force, if
    given; else its last), the belief and
    how many teammate choices were compared with the heuristic's rebuilt choice (all equal, or AssertionError)."""
    state = tabletop.new_game("silencio", players, seed)
    agents: list[Any] = [HeuristicAgent(), *mates]
    belief = ChoiceBelief(0, players, state.max_value)
    truth: dict[tuple[int, int], tuple[list[int], bool]] = {}  # (seat, card) -> (hand then, chosen by the heuristic)
    seen = compared = 0
    last = state
    while not state.is_over:
        p = state.to_move
        if p == 0:
            last = state.clone()
            belief.update(state.log(0))
            belief.check(state.view(0))
            active = {id(ch) for chs in belief.active_choices() for ch in chs}
            for ch in belief.choices[seen:]:
                hand_true, heuristic = truth.pop((ch.seat, ch.card), ([], False))
                if not heuristic or id(ch) not in active:
                    continue  # a play the rules made alone (one legal action), a teammate not the heuristic, or a
                    # card handed over face down since (the choice is no longer read)
                hand = ch.hand_then(state.hands[ch.seat])
                assert hand == set(hand_true), (seed, ch.seat, ch.card)
                assert ch.heuristic_card(hand, state.max_value) == ch.card, (seed, ch.seat, ch.card)
                compared += 1
            seen = len(belief.choices)
            if stop is not None and sum(map(len, belief.active_choices())) >= stop:
                return state, belief, compared
        action = agents[p].act(SeatHandle(state, p))
        if p != 0 and state.phase == START and action.verb == "play":
            truth[(p, int(action.args[0]))] = (list(state.hands[p]), isinstance(agents[p], HeuristicAgent))
        state.apply(action)
    return last, belief, compared


def test_the_rebuilt_hand_and_the_heuristics_choice_in_it_are_what_a_heuristic_teammate_had_and_did():
    compared = 0
    for seed in range(6):
        compared += _game([HeuristicAgent(), HeuristicAgent()], seed)[2]
    for seed in range(3):
        compared += _game([HeuristicAgent(), HeuristicAgent(), HeuristicAgent()], seed, players=4)[2]
    assert compared > 80


FLAT = {m: 1 / len(MODELS) for m in MODELS}


def test_a_heuristic_teammate_is_read_as_careful_and_a_random_one_as_random():
    careful_share, random_share, heuristic_lead = [], [], 0
    for seed in range(1, 9):
        state, belief, _ = _game([HeuristicAgent(), make_agent("random", "silencio", seed)], seed)
        belief.priors = [dict(FLAT) for _ in range(3)]  # the evidence alone
        choices = belief.active_choices()
        assert choices[1] and choices[2], seed
        _, terms = belief.deal_weight(state, choices)  # the true deal
        careful, wild = _posterior(terms[1]), _posterior(terms[2])
        careful_share.append(1 - careful["random"])
        random_share.append(wild["random"])
        heuristic_lead += careful["heuristic"] + careful["reasonable"] > careful["convention"]
    assert min(careful_share) > 0.85  # the heuristic never looks random
    assert heuristic_lead >= 6  # and mostly more like the heuristic than the convention (both careful)
    assert sum(r > 0.5 for r in random_share) >= 6 and sum(random_share) / len(random_share) > 0.6


def test_a_convention_teammate_is_read_as_careful():
    shares = []
    for seed in (1, 3, 5):
        state, belief, _ = _game([make_agent("team:iters=100", "silencio", 7),
                                  make_agent("team:iters=100", "silencio", 8)], seed)
        belief.priors = [dict(FLAT) for _ in range(3)]
        _, terms = belief.deal_weight(state, belief.active_choices())
        shares += [_posterior(terms[q])["random"] for q in (1, 2)]
    assert max(shares) < 0.25 and sum(shares) / len(shares) < 0.1


def test_a_choice_rebuilds_its_hand_undoing_the_changes_since_in_order_and_weighs_every_model():
    belief = ChoiceBelief(seat=0, players=3, max_value=10)
    belief.update(_log("p0 played r2 (dark effect)", "p1 played r4 (light)", "p1 took r4 from its row",
                       "p1 played r4 (light)", "p1 placed b9 face up in front of p1's seat"))
    belief.check({"rows": {"red": [2, 4], "blue": [], "yellow": [], "green": []}, "hand_sizes": [3, 2, 3],
                  "box": [], "oracle": ["g9", "g10", "y9"], "deck": 20, "known": {}})
    first, second = belief.choices
    assert first.seat == 1 and first.card == parse_card("r4")
    now = [parse_card("r3"), parse_card("y5")]  # a sampled hand of p1 now
    # the first r4 was in the hand then, came back, went again; b9 went in front: both were in the first hand
    assert first.hand_then(now) == {parse_card(t) for t in ("r3", "y5", "r4", "b9")}
    assert second.hand_then(now) == {parse_card(t) for t in ("r3", "y5", "r4", "b9")}
    like = first.likelihoods(first.hand_then(now), 10)
    assert like is not None
    conv, heur, reasonable, rand = like
    # r4 skipped p1's own r3: the convention would not have played it, the heuristic neither (a card held is dear)
    assert conv < 0.1 and heur < 0.1 and reasonable < 0.1
    assert rand == pytest.approx(1 / 4)  # r3, r4, y5 or b9 (no pass: it had cards of its own)
    clean = [parse_card("b2"), parse_card("y5")]
    like = first.likelihoods(first.hand_then(clean), 10)
    assert like is not None and like[0] > 0.2 and like[3] == pytest.approx(1 / 4)
    assert first.likelihoods({parse_card("y5")}, 10) is None  # a hand without the card played says nothing


def test_a_dark_effect_skipped_by_red_light_is_read_and_the_heuristic_then_plays_the_follow_on():
    belief = ChoiceBelief(seat=0, players=3, max_value=10)
    belief.update(_log("p0 played b2 (dark effect)", "p1 used red light: the next card's dark effect is skipped",
                       "p1 played b3 (dark effect skipped: red)"))
    belief.check({"rows": {"red": [], "blue": [2, 3], "yellow": [], "green": []}, "hand_sizes": [3, 3, 3],
                  "box": [], "oracle": [], "deck": 20, "known": {}})
    (ch,) = belief.choices
    hand = {parse_card("b3"), parse_card("r5")}
    assert ch.skip_dark and ch.heuristic_card(hand, 10) == parse_card("b3")  # its blue dark costs nothing now
    plain = ChoiceBelief(seat=0, players=3, max_value=10)
    plain.update(_log("p0 played b2 (dark effect)", "p1 played b3 (dark effect)"))
    plain.check({"rows": {"red": [], "blue": [2, 3], "yellow": [], "green": []}, "hand_sizes": [3, 3, 3],
                 "box": [], "oracle": [], "deck": 20, "known": {}})
    (without,) = plain.choices
    assert isinstance(without, Choice) and not without.skip_dark
    assert without.heuristic_card(hand, 10) == parse_card("r5")  # a blue dark (0.8) dearer than r3, r4 unknown
    like = without.likelihoods(hand, 10)
    assert like is not None and like[1] < 0.1 < ch.likelihoods(hand, 10)[1]  # type: ignore[index]


# ---- the agent: spec, search, no cheating -----------------------------------------------------------------------


def test_partners_choices_is_a_spec_value_and_takes_assume():
    agent = make_agent("team:iters=5,partners=choices,assume=heuristic", "silencio", 1)
    assert isinstance(agent, TeamAgent) and agent.partners == "choices" and agent.kinds == ["heuristic"] * 4
    state = midgame("silencio", 3, 2, 20)
    p = state.to_move
    assert p is not None
    agent.act(SeatHandle(state, p))
    assert isinstance(agent._belief, ChoiceBelief)
    assert make_agent("team:iters=5,partners=models", "silencio", 1)._belief is None
    models = make_agent("team:iters=5,partners=models", "silencio", 1)
    models.act(SeatHandle(state, p))
    assert type(models._belief) is PartnerBelief


@pytest.mark.parametrize("kinds", [None, [None, "heuristic", "random", "human"]])
@pytest.mark.parametrize("steps", [10, 40])
def test_the_choice_belief_and_the_move_read_only_the_seats_view(kinds, steps):
    state = midgame("silencio", 4, 13, steps)
    p = state.to_move
    a, b = state.sample(p, 31), state.sample(p, 32)
    assert a.hands != b.hands and a.view(p) == b.view(p) and a.log(p) == b.log(p)
    agent_a = TeamAgent("silencio", seed=5, iters=40, partners="choices", kinds=kinds)
    agent_b = TeamAgent("silencio", seed=5, iters=40, partners="choices", kinds=kinds)
    assert agent_a.act(SeatHandle(a, p)) == agent_b.act(SeatHandle(b, p))
    ba, bb = agent_a._belief, agent_b._belief
    assert isinstance(ba, ChoiceBelief) and isinstance(bb, ChoiceBelief)

    def read(belief: ChoiceBelief) -> list[Any]:
        return [[(c.seat, c.i, c.card, c.undo, c.base, c.tops, c.fronts) for c in cs] for cs in belief.active_choices()]

    assert read(ba) == read(bb) and ba.hard_forbidden() == bb.hard_forbidden()
    sa, sb = agent_a.last_search, agent_b.last_search
    if sa is not None and sb is not None:
        assert [(str(c.action), c.visits) for c in sa.candidates()] == [(str(c.action), c.visits)
                                                                       for c in sb.candidates()]
        assert sa.model_mass == sb.model_mass


def test_beside_random_teammates_the_search_reads_them_as_random_and_plays_whole_games():
    shares = []
    for seed in (1, 2, 3):
        state = tabletop.new_game("silencio", 3, seed)
        agents: list[Any] = [TeamAgent("silencio", seed=seed, iters=30, partners="choices"),
                             make_agent("random", "silencio", 1), make_agent("random", "silencio", 2)]
        masses: list[list[list[float]]] = []

        def seen(_s: Any, seat: int, _a: Any, agents: list[Any] = agents,
                 masses: list[list[list[float]]] = masses) -> None:
            search = getattr(agents[seat], "last_search", None)
            if seat == 0 and search is not None and search.model_mass and sum(search.model_mass[1]) > 0:
                masses.append(search.model_mass)

        play_game(state, agents, seen)
        assert state.is_over and masses
        shares += [masses[-1][q][MODELS.index("random")] / sum(masses[-1][q]) for q in (1, 2)]
    # the prior on random is 0.1 (nothing known of the seats): their choices moved it up, for most a lot
    assert sum(shares) / len(shares) > 2 * ANY_PRIOR["random"] and sum(x > 0.3 for x in shares) >= 3, shares
