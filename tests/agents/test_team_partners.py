"""Issue 28: the team agent's belief over how each teammate decides (partner models), its soft deal weights, the
heuristic's rollout, no cheating with the new belief, and the mixed teams of the evaluation script."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.agents import InvalidAgentSpec, make_agent, play_game
from tabletop.agents.hints import hints as hints_for
from tabletop.agents.team import TeamAgent, TeamSearch
from tabletop.core import SeatHandle
from tabletop.games.silencio import SilencioState
from tabletop.games.silencio.heuristic import HeuristicAgent
from tabletop.games.silencio.notation import START, parse_card
from tabletop.games.silencio.team import (
    ANY_PRIOR,
    KNOWN_PRIOR,
    PartnerBelief,
    fast_rollout,
    heuristic_rollout,
    model_prior,
)

from .test_ismcts import midgame
from .test_team import REASON


def _log(*texts: str) -> list[dict[str, object]]:
    return [{"seat": int(t[1]), "text": t} for t in texts]


def _cards(*texts: str) -> frozenset[int]:
    return frozenset(parse_card(t) for t in texts)


# ---- priors and the public evidence -------------------------------------------------------------------------


def test_a_known_kind_puts_most_of_the_prior_on_its_model_and_an_unknown_one_spreads_it():
    assert model_prior("heuristic")["heuristic"] == KNOWN_PRIOR
    assert model_prior("medium") == model_prior("heuristic")
    assert model_prior("team:time=0.25")["convention"] == KNOWN_PRIOR
    assert model_prior("human")["reasonable"] == KNOWN_PRIOR
    assert model_prior("easy")["random"] == KNOWN_PRIOR
    assert model_prior(None) == ANY_PRIOR == model_prior("somebody")
    for kind in ("heuristic", "human", None):
        assert sum(model_prior(kind).values()) == pytest.approx(1.0)
        assert min(model_prior(kind).values()) > 0  # no model is ever ruled out by the prior


def test_big_jumps_move_a_teammate_towards_random_and_small_ones_towards_the_careful_models():
    careful = PartnerBelief(seat=0, players=3, max_value=10)
    careful.update(_log("p1 played r2 (dark effect)", "p1 played b2 (dark effect)", "p1 played r3 (dark effect)",
                        "p1 played y3 (light)"))
    wild = PartnerBelief(seat=0, players=3, max_value=10)
    wild.update(_log("p1 played r7 (light)", "p1 played b9 (light)", "p1 played y6 (light)"))
    assert careful.gaps[1] == [0, 0, 0, 1] and wild.gaps[1] == [5, 7, 4]
    c, w = careful.posterior()[1], wild.posterior()[1]
    assert w["random"] > 0.9 > ANY_PRIOR["random"]
    assert c["random"] < ANY_PRIOR["random"] and c["convention"] > ANY_PRIOR["convention"]
    assert careful.posterior()[2] == pytest.approx(ANY_PRIOR)  # p2 did nothing: its prior
    assert all(sum(p.values()) == pytest.approx(1.0) for p in careful.posterior() + wild.posterior())


# ---- soft deal weights ----------------------------------------------------------------------------------------


def _skipping_state() -> tuple[SilencioState, PartnerBelief]:
    """p1 played r7 onto r3 from its hand: under the convention it held none of r4, r5, r6."""
    belief = PartnerBelief(seat=0, players=3, max_value=10, kinds=[None, "team", None])
    belief.update(_log("p0 played r3 (light)", "p1 played r7 (light)"))
    state = SilencioState.position(3, hands=[["b5"], ["r5", "g4"], ["y7", "r6"]], rows={"red": [2, 3, 7]},
                                   to_move=0)
    return state, belief


def test_a_play_is_a_soft_constraint_and_a_pass_stays_a_hard_one():
    belief = PartnerBelief(seat=0, players=3, max_value=10)
    belief.update(_log("p0 played r3 (light)", "p1 played r7 (light)", "p2 passed"))
    hard = belief.hard_forbidden()
    assert not hard[1], "the convention's play constraint is not a rule"
    assert parse_card("r8") in hard[2] and parse_card("b2") in hard[2]
    assert belief.active_soft()[1] == [_cards("r4", "r5", "r6")]
    assert belief.forbidden()[1] == _cards("r4", "r5", "r6")  # the hard belief (partners=convention) as before


def test_a_hand_holding_a_skipped_card_weighs_less_the_more_the_teammate_is_taken_to_follow_the_convention():
    state, belief = _skipping_state()
    soft, post = belief.active_soft(), belief.posterior()
    holding = belief.soft_weight(state, soft, post)  # p1 holds r5, a card its r7 skipped
    state.hands[1] = [parse_card("b6"), parse_card("g4")]
    clean = belief.soft_weight(state, soft, post)
    assert clean == 1.0 and 0.0 < holding < 0.5  # a jump of 3 values already made p1 look a little random
    random_mate = PartnerBelief(seat=0, players=3, max_value=10, kinds=[None, "random", None])
    random_mate.update(_log("p0 played r3 (light)", "p1 played r7 (light)"))
    state.hands[1] = [parse_card("r5"), parse_card("g4")]
    assert random_mate.soft_weight(state, random_mate.active_soft(), random_mate.posterior()) > 0.8
    known = [frozenset(), _cards("r5"), frozenset()]  # a card the seat knows p1 got since: it says nothing
    assert belief.soft_weight(state, soft, post, known) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([None, "team", "heuristic", "random", "human"]),
       st.integers(0, 30))
def test_soft_weights_are_likelihoods_and_the_random_model_never_lets_them_vanish(seed, kind, steps):
    state = midgame("silencio", 3, seed % 50, steps)
    p = state.to_move
    if p is None:
        return
    belief = PartnerBelief(p, 3, state.max_value, kinds=[kind] * 3)
    belief.update(state.log(p))
    belief.check(state.view(p))
    soft, post = belief.active_soft(), belief.posterior()
    for k in range(5):
        w = belief.soft_weight(state.sample(p, seed + k), soft, post)
        assert 0.0 < w <= 1.0


def test_the_search_draws_hands_holding_skipped_cards_less_often_the_more_the_teammate_follows_the_convention():
    def holding_share(kind: str) -> float:
        state = midgame("silencio", 3, 3, 0)
        p = state.to_move
        assert p is not None
        handle = SeatHandle(state, p)
        belief = PartnerBelief(p, 3, state.max_value, kinds=[kind] * 3)
        q = (p + 1) % 3
        belief.update(handle.log())
        # a play by the next seat that skipped every red card from 2 to 9 (as if read from the log)
        belief.soft.append((q, 10**6, frozenset(parse_card(f"r{v}") for v in range(2, 10))))
        search = TeamSearch(handle, fast_rollout(), seed=4, belief=belief)
        draws = [search.determinize() for _ in range(60)]
        assert search.fallbacks == 0 and search.repaired == 0
        return sum(any(c in belief.soft[-1][2] for c in s.hands[q]) for s in draws) / len(draws)

    assert holding_share("team") < holding_share("random") - 0.3


# ---- the heuristic's rollout ----------------------------------------------------------------------------------


def test_the_heuristic_rollout_chooses_as_the_heuristic_agent_on_the_true_state():
    policy = heuristic_rollout()
    agent = HeuristicAgent()
    compared = 0
    for seed in range(6):
        state = tabletop.new_game("silencio", 3, seed)
        while not state.is_over:
            p = state.to_move
            assert p is not None
            action = agent.act(SeatHandle(state, p))
            if state.phase == START and len(state.legal_actions()) > 1:
                assert policy(state) == action, (seed, state.history[-3:])
                compared += 1
            state.apply(action)
    assert compared > 100


# ---- the agent: spec, table kinds, no cheating ----------------------------------------------------------------


def test_partner_models_are_a_switch_and_the_default_stays_the_convention():
    agent = make_agent("team:iters=5,partners=models", "silencio", 1)
    assert isinstance(agent, TeamAgent) and agent.partners == "models" and agent.kinds is None
    old = make_agent("team:iters=5", "silencio", 1)
    assert isinstance(old, TeamAgent) and old.partners == "convention"
    told = make_agent("team:iters=5,partners=models,assume=human", "silencio", 1)
    assert isinstance(told, TeamAgent) and told.kinds == ["human"] * 4
    with pytest.raises(InvalidAgentSpec, match="models, choices or convention"):
        make_agent("team:partners=all", "silencio")
    with pytest.raises(InvalidAgentSpec, match="heuristic"):
        make_agent("team:assume=alien", "silencio")
    with pytest.raises(InvalidAgentSpec, match="partners"):
        TeamAgent("silencio", partners="sometimes")


@pytest.mark.parametrize("kinds", [None, [None, "heuristic", "random", "human"]])
@pytest.mark.parametrize("steps", [10, 40])
def test_the_partner_belief_and_the_move_read_only_the_seats_view(kinds, steps):
    state = midgame("silencio", 4, 13, steps)
    p = state.to_move
    a, b = state.sample(p, 31), state.sample(p, 32)
    assert a.hands != b.hands and a.view(p) == b.view(p) and a.log(p) == b.log(p)
    agent_a = TeamAgent("silencio", seed=5, iters=30, partners="models", kinds=kinds)
    agent_b = TeamAgent("silencio", seed=5, iters=30, partners="models", kinds=kinds)
    assert agent_a.act(SeatHandle(a, p)) == agent_b.act(SeatHandle(b, p))
    ba, bb = agent_a._belief, agent_b._belief
    assert isinstance(ba, PartnerBelief) and isinstance(bb, PartnerBelief)
    assert ba.posterior() == bb.posterior() and ba.active_soft() == bb.active_soft()
    assert ba.hard_forbidden() == bb.hard_forbidden()
    sa, sb = agent_a.last_search, agent_b.last_search
    if sa is not None and sb is not None:
        assert [(str(c.action), c.visits) for c in sa.candidates()] == [(str(c.action), c.visits)
                                                                       for c in sb.candidates()]


def test_an_agent_beside_random_teammates_plays_whole_games_without_falling_back():
    for seed in (1, 2):
        state = tabletop.new_game("silencio", 3, seed)
        agents: list[Any] = [TeamAgent("silencio", seed=seed, iters=20, partners="models"),
                             make_agent("random", "silencio", 1),
                             make_agent("random", "silencio", 2)]
        searches: list[Any] = []
        play_game(state, agents, lambda _s, seat, _a: searches.append(getattr(agents[seat], "last_search", None)))  # noqa: B023
        assert state.is_over and sum(s.fallbacks for s in searches if s is not None) == 0
        belief = agents[0]._belief
        assert isinstance(belief, PartnerBelief)
        # random teammates skip many values: the belief moved towards the random model for one at least
        assert max(belief.posterior()[q]["random"] for q in (1, 2)) > 0.5 > ANY_PRIOR["random"]


# ---- the evaluation script's mixed teams ----------------------------------------------------------------------


def _script(name: str) -> Any:
    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_mixed_teams_seats_rotate_from_deal_to_deal():
    module = _script("silencio_teams")
    assert module.seat_specs("team", 3, 5) == ["team"] * 3
    assert module.seat_specs("a+b+c", 3, 0) == ["a", "b", "c"]
    assert module.seat_specs("a+b+c", 3, 1) == ["c", "a", "b"]
    assert {module.seat_specs("a+b+c", 3, k).index("a") for k in range(3)} == {0, 1, 2}
    with pytest.raises(InvalidAgentSpec, match="2 specs for 3 players"):
        module.seat_specs("a+b", 3, 0)


def test_the_human_proxy_errs_at_its_rate_and_is_the_heuristic_otherwise():
    module = _script("silencio_teams")
    state = tabletop.new_game("silencio", 3, 4)
    never, always = make_agent("proxy:err=0", "silencio", 1), make_agent("proxy:err=1", "silencio", 1)
    heuristic = HeuristicAgent()
    differs = 0
    while not state.is_over:
        seat = SeatHandle(state, state.to_move)
        action = heuristic.act(seat)
        assert never.act(seat) == action
        differs += always.act(seat) != action
        state.apply(action)
    assert differs > 5
    with pytest.raises(InvalidAgentSpec, match="between 0 and 1"):
        make_agent("proxy:err=1.5", "silencio")
    assert module.ProxyAgent(1, 0.2).err == 0.2


def test_the_teams_script_plays_mixed_teams_paired_on_the_same_deals(tmp_path, capsys):
    module = _script("silencio_teams")
    out = tmp_path / "mixed.jsonl"
    teams = ["heuristic+heuristic", "team:iters=10+proxy:err=0.3"]
    assert module.main(["--teams", *teams, "--players", "2", "--deals", "4", "--no-progress", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted({r["team"] for r in rows}) == sorted(teams) and len(rows) == 8
    mixed = [r for r in rows if r["team"] == teams[1]]
    assert all(r["searched"] <= r["decisions"] for r in mixed) and sum(r["iterations"] for r in mixed) > 0
    assert "Δ cards vs first" in capsys.readouterr().out
    assert module.main(["--teams", "a+b+c", "--players", "2", "--no-progress"]) == 2


# ---- hints that know the table --------------------------------------------------------------------------------


def test_a_table_hint_reads_each_teammate_by_its_kind_and_says_what_it_assumed():
    state = midgame("silencio", 3, 5, 12)
    p = state.to_move
    assert p is not None
    table: list[str | None] = ["human", "human", "human"]
    table[(p + 1) % 3], table[(p + 2) % 3] = "medium", "human"
    found = hints_for(SeatHandle(state, p), seconds=None, iters=120, seed=2, table=table)
    assumed = f"assumes Player {(p + 1) % 3 + 1} medium AI, Player {(p + 2) % 3 + 1} a person"
    assert found and all(c.reason.endswith(assumed) for c in found)
    assert all(REASON.match(c.reason) for c in found if c.visits)
    plain = hints_for(SeatHandle(state, p), seconds=None, iters=120, seed=2)
    assert plain and all("assumes" not in c.reason for c in plain)  # without a table: the hints as before
    unknown = hints_for(SeatHandle(state, p), seconds=None, iters=20, seed=2, table=[None, None, None])
    assert all("read from its play" in c.reason for c in unknown)


def test_a_table_hint_reads_only_the_seats_view():
    state = midgame("silencio", 3, 8, 25)
    p = state.to_move
    a, b = state.sample(p, 1), state.sample(p, 2)
    assert a.hands != b.hands
    table: list[str | None] = ["easy", "human", "hard"]
    assert (hints_for(SeatHandle(a, p), seconds=None, iters=60, seed=3, table=table)
            == hints_for(SeatHandle(b, p), seconds=None, iters=60, seed=3, table=table))


def test_the_table_changes_what_the_hint_expects():
    # the same position and seed: teammates taken to play at random leave more cards, on average, than copies
    state = midgame("silencio", 3, 5, 12)
    p = state.to_move
    assert p is not None

    def expected(kind: str) -> float:
        found = hints_for(SeatHandle(state, p), seconds=None, iters=300, seed=2, table=[kind] * 3)
        match = REASON.match(found[0].reason)
        assert match is not None
        return float(match.group(1))

    assert expected("easy") > expected("hard")


def test_the_hint_calibration_script_compares_todays_hint_and_the_table_hint(tmp_path, capsys):
    module = _script("silencio_hint_calibration")
    out = tmp_path / "cal.jsonl"
    args = ["--positions", "2", "--iters", "12", "--no-progress", "--out", str(out)]
    assert module.main(args) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2
    for r in rows:
        assert r["today"] and r["table"]
        assert set(r["outcomes"]) == {a for name in ("today", "table") for a, _, _ in r[name]}
        assert all(0 <= x <= 60 for x in r["outcomes"].values())
    shown = capsys.readouterr().out
    assert "today" in shown and "table" in shown and "2 positions" in shown
    assert module.main(args) == 0 and len(out.read_text().splitlines()) == 2  # resumed: nothing measured again
    assert module.main(["--players", "5", "--no-progress"]) == 2
