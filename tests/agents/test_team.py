"""The Silencio team agent: its spec, no cheating, the belief over teammates' hands, the convention, determinism,
its hints."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

import tabletop
from tabletop.agents import InvalidAgentSpec, make_agent, play_game
from tabletop.agents.hints import hints as hints_for
from tabletop.agents.team import TeamAgent, TeamSearch, hints
from tabletop.core import SeatHandle
from tabletop.games.silencio import SilencioState
from tabletop.games.silencio.notation import parse_card
from tabletop.games.silencio.team import Belief, convention_filter, fast_rollout, random_play_cost

from .test_ismcts import midgame

# ---- spec strings ---------------------------------------------------------------------------------------------


def test_team_spec_parameters_reach_the_agent():
    spec = "team:iters=50,time=0.5,c=1.2,w=0.5,belief=off,convention=on,reuse=off,tries=5,widen=8,others=tree"
    agent = make_agent(spec, "silencio", 3)
    assert isinstance(agent, TeamAgent)
    assert (agent.iters, agent.seconds, agent.c, agent.w) == (50, 0.5, 1.2, 0.5)
    assert (agent.use_belief, agent.convention, agent.reuse, agent.tries) == (False, True, False, 5)
    assert (agent.widen, agent.own_tree) == (8, False)
    assert agent.yellow and not make_agent("team:yellow=off", "silencio").yellow
    default = make_agent("team", "silencio")
    assert isinstance(default, TeamAgent) and default.seconds == 1.0 and default.iters is None
    assert default.use_belief and default.convention and default.reuse and default.own_tree and default.yellow


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("team:depth=3", "silencio", "allowed: iters, time"),
        ("team:iters=0", "silencio", "positive integer"),
        ("team:iters=ten", "silencio", "positive integer"),
        ("team:time=-1", "silencio", "positive number"),
        ("team:c=nan", "silencio", "number"),
        ("team:belief=maybe", "silencio", "on or off"),
        ("team:rollout=smart", "silencio", "fast, heuristic or random"),
        ("team:others=all", "silencio", "policy or tree"),
        ("team:widen=-2", "silencio", "integer"),
        ("team:yellow=sometimes", "silencio", "on or off"),
        ("team:cp=0.5", "silencio", "give policy=NAME"),
        ("team:policy=silen-3p,cp=-1", "silencio", "cp.*number ≥ 0"),
        ("team:policy=nosuch", "silencio", "nosuch"),
        ("team:policy=vania-2p", "silencio", "plays siliconvania, not silencio"),
        ("team", "silos", "Silencio only"),
    ],
)
def test_a_bad_team_spec_is_refused_with_what_is_legal(spec, game, message):
    with pytest.raises(InvalidAgentSpec, match=message):
        make_agent(spec, game)


# ---- no cheating ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [8, 40])
def test_same_action_from_states_that_differ_only_in_what_the_seat_cannot_see(players, steps):
    state = midgame("silencio", players, 11, steps)
    p = state.to_move
    a, b = state.sample(p, 101), state.sample(p, 202)
    assert a.view(p) == b.view(p) and a.log(p) == b.log(p)
    agent_a, agent_b = TeamAgent("silencio", seed=5, iters=25), TeamAgent("silencio", seed=5, iters=25)
    assert agent_a.act(SeatHandle(a, p)) == agent_b.act(SeatHandle(b, p))
    sa, sb = agent_a.last_search, agent_b.last_search
    if sa is not None and sb is not None:
        visits = [[(str(c.action), c.visits) for c in s.candidates()] for s in (sa, sb)]
        assert visits[0] == visits[1]
    assert agent_a._belief is not None and agent_b._belief is not None
    assert agent_a._belief.forbidden() == agent_b._belief.forbidden()
    assert hints(SeatHandle(a, p), None, 40, 3) == hints(SeatHandle(b, p), None, 40, 3)


@pytest.mark.parametrize("others", ["policy", "tree"])
def test_the_default_and_the_previous_search_read_only_the_seats_view(others):
    state = midgame("silencio", 3, 12, 20)
    p = state.to_move
    a, b = state.sample(p, 7), state.sample(p, 8)
    assert a.hands != b.hands  # what the seat cannot see differs
    spec = f"team:iters=40,others={others}"
    agent_a, agent_b = make_agent(spec, "silencio", 9), make_agent(spec, "silencio", 9)
    assert agent_a.act(SeatHandle(a, p)) == agent_b.act(SeatHandle(b, p))


def test_the_agents_class_defaults_are_the_specs_defaults():
    direct, spec = TeamAgent("silencio", seed=1), make_agent("team", "silencio", 1)
    assert isinstance(spec, TeamAgent)
    for field in ("own_tree", "yellow", "use_belief", "convention", "reuse", "tries", "widen", "c", "seconds"):
        assert getattr(direct, field) == getattr(spec, field), field
    assert direct.own_tree and direct.yellow


# ---- the belief -----------------------------------------------------------------------------------------------


def _log(*texts: str) -> list[dict[str, object]]:
    return [{"seat": int(t[1]), "text": t} for t in texts]


def test_a_pass_rules_out_every_card_the_teammate_could_have_played():
    belief = Belief(seat=0, players=3, max_value=10)
    belief.update(_log("p0 played r4 (light)", "p1 passed"))
    forbidden = belief.forbidden()
    assert parse_card("r5") in forbidden[1] and parse_card("b2") in forbidden[1]
    assert parse_card("r3") not in forbidden[1] and parse_card("r4") not in forbidden[1]
    assert not forbidden[0] and not forbidden[2]


def test_a_pass_under_green_dark_rules_out_only_green_cards():
    belief = Belief(seat=0, players=3, max_value=10)
    belief.update(_log("p0 played g2 (dark effect)", "p1 passed"))
    forbidden = belief.forbidden()[1]
    assert parse_card("g3") in forbidden and parse_card("r5") not in forbidden


def test_a_play_by_the_convention_rules_out_the_cards_it_skipped_of_its_colour():
    belief = Belief(seat=2, players=3, max_value=10)
    belief.update(_log("p0 played r3 (light)", "p1 played r7 (light)"))
    assert belief.forbidden()[1] == frozenset(parse_card(t) for t in ("r4", "r5", "r6"))
    assert belief.forbidden()[0] == {parse_card("r2")}  # r3 on the shrine (1) skipped r2: p0 held no r2
    belief_no_convention = Belief(seat=2, players=3, max_value=10, plays=False)
    belief_no_convention.update(_log("p0 played r3 (light)", "p1 played r7 (light)"))
    assert belief_no_convention.forbidden() == [frozenset()] * 3


def test_a_random_play_and_a_card_from_in_front_say_nothing_about_the_hand():
    belief = Belief(seat=0, players=3, max_value=10)
    belief.update(_log("p1 drew r7 at random: played", "p1 played r7 (light)", "p2 placed b9 face up in front of them",
                       "p1 played b9 (light)"))
    assert belief.forbidden() == [frozenset()] * 3


def test_a_card_handed_over_face_down_later_lifts_the_constraint():
    belief = Belief(seat=0, players=3, max_value=10)
    belief.update(_log("p1 passed", "p2 gave a card to p1"))
    assert not belief.forbidden()[1]
    belief.update(_log("p1 passed", "p2 gave a card to p1", "p1 passed"))
    assert belief.forbidden()[1]


ROWS = [[], [], [4], [9]]  # the rows of the position below before its log begins


def test_a_belief_whose_log_does_not_explain_the_rows_rules_nothing_out():
    state, seat = _after_a_teammate_passes()
    belief = Belief(seat, 3, 10)  # reads the log as if the rows had started empty
    belief.update(state.log(seat))
    belief.check(state.view(seat))
    assert not belief.trusted and belief.forbidden() == [frozenset()] * 3


def _after_a_teammate_passes() -> tuple[SilencioState, int]:
    """p1 holds only unplayable cards and passes; it is then p2's turn and p2 reads the pass."""
    state = SilencioState.position(
        3, hands=[["r2", "b5"], ["y3", "g8"], ["r9", "b9"]], rows={"yellow": [4], "green": [9]},
        oracle=["r10", "b10", "y10"], to_move=0, shrines=[False] * 5, seed=3)
    state.apply("play r2")  # follows the shrine: red dark, no choice; no shrine is light, so the turn ends
    assert state.to_move == 2 and ("pass", 1) in state.events
    return state, 2


def test_a_sampled_hand_the_teammates_pass_rules_out_gets_weight_zero():
    state, seat = _after_a_teammate_passes()
    belief = Belief(seat, 3, 10, rows=ROWS)
    belief.update(state.log(seat))
    belief.check(state.view(seat))
    assert belief.trusted
    assert belief.weight(state) == 1.0, "the true hands are consistent with what p1 did"
    weights = []
    for k in range(200):
        sample = state.sample(seat, k)
        w = belief.weight(sample)
        weights.append(w)
        playable = [c for c in sample.hands[1] if sample._playable(c)]
        assert (w == 0.0) == bool(playable), "weight 0 exactly when p1's sampled hand could have played"
    assert 0.0 in weights and 1.0 in weights


def test_the_search_draws_only_hands_consistent_with_the_teammates_actions():
    state, seat = _after_a_teammate_passes()
    handle = SeatHandle(state, seat)
    belief = Belief(seat, 3, 10, rows=ROWS)
    belief.update(handle.log())
    search = TeamSearch(handle, fast_rollout(), seed=4, belief=belief)
    for _ in range(50):
        sample = search.determinize()
        assert not [c for c in sample.hands[1] if sample._playable(c)]
    assert search.rejected > 0 and search.repaired > 0 and search.fallbacks == 0


# ---- the convention, reuse, determinism -----------------------------------------------------------------------


def test_the_convention_keeps_only_the_lowest_playable_card_of_a_colour_in_hand():
    state = SilencioState.position(3, hands=[["r3", "r6", "b5"], ["y3"], ["g9"]], rows={"red": [2]}, to_move=0)
    allowed = {a.text for a in convention_filter(state, state.legal_actions())}
    assert "play r3" in allowed and "play b5" in allowed and "play r6" not in allowed


def test_a_team_game_keeps_the_convention_and_reuses_its_tree():
    state = tabletop.new_game("silencio", 3, 21)
    agents = [TeamAgent("silencio", seed=s, iters=30) for s in range(3)]
    broken: list[str] = []

    def check(before, seat, action):
        if action.verb == "play" and before.phase == 1:
            c = int(action.args[0])
            lower = [d for d in before.hands[seat] if d >> 4 == c >> 4 and d < c and before._playable(d)]
            if c in before.hands[seat] and lower:
                broken.append(action.text)

    play_game(state, agents, check)
    assert state.is_over and not broken
    assert sum(a.reused for a in agents) > 0


def test_an_iteration_budget_and_a_seed_give_the_same_game():
    def run() -> tuple[list[str], int]:
        state = tabletop.new_game("silencio", 3, 5)
        play_game(state, [make_agent("team:iters=20", "silencio", s) for s in range(3)])
        return state.history, state.cards_left()

    assert run() == run()


# ---- the rollout: yellow dark priced by the next seat's hand -------------------------------------------------


def _held(state: SilencioState) -> list[bool]:
    held = [False] * 64
    for group in (state.hands, state.fronts):
        for cards in group:
            for c in cards:
                held[c] = True
    return held


def test_a_yellow_dark_costs_what_the_next_seats_random_card_kills_on_average():
    # p0 plays y3 onto y2: p1 then plays r9 (kills r6, r8 held, not r7 in the deck) or y5 (kills y4) or b2 (nothing)
    state = SilencioState.position(3, hands=[["y3", "r6", "b9"], ["r9", "y5", "b2"], ["r8", "y4"]],
                                   rows={"yellow": [2], "red": [5], "blue": [4]}, to_move=0)
    cost = random_play_cost(state, 0, parse_card("y3"), _held(state))
    assert cost == pytest.approx((2 + 1 + 0) / 3)
    # r6 follows r5 and r4 cannot be laid (it goes back to the hand): neither kills a card
    safe = SilencioState.position(3, hands=[["y3", "r7"], ["r4", "r6"], ["g9"]], rows={"yellow": [2], "red": [5]})
    assert random_play_cost(safe, 0, parse_card("y3"), _held(safe)) == 0.0


def test_the_rollout_avoids_a_yellow_dark_that_would_make_the_next_seat_kill_cards():
    # y3 follows y2: a yellow dark, after which p1 plays r9 or r10 at random and kills 5 or 6 red cards the team
    # holds; b4 skips b3 (one card of p2's). Priced at the fixed 0.6 the yellow dark looks cheaper than b4; priced
    # by p1's hand in the sample it is not.
    hands = [["y3", "b4"], ["r9", "r10"], ["b3", "r4", "r5", "r6", "r7", "r8"]]
    state = SilencioState.position(3, hands=hands, rows={"yellow": [2], "blue": [2]}, to_move=0,
                                   shrines=[False] * 5)
    assert fast_rollout(random_play=True)(state).text == "play b4"
    assert fast_rollout(random_play=False)(state).text == "play y3"


# ---- hints ----------------------------------------------------------------------------------------------------

REASON = re.compile(r"^(\d+\.\d) cards left on average, perfect in (\d+)%")


def test_silencio_hints_come_from_the_team_search_with_the_expected_cards_left():
    state = midgame("silencio", 3, 5, 12)
    seat = SeatHandle(state, state.to_move)
    found = hints_for(seat, seconds=None, iters=300, seed=2)
    assert found
    allowed = set(convention_filter(state, state.legal_actions()))
    assert all(c.action in allowed for c in found)
    assert [c.visits for c in found] == sorted((c.visits for c in found), reverse=True)
    assert sum(c.visits for c in found) <= 300
    for c in found:
        match = REASON.match(c.reason)
        assert match is not None, c.reason
        left, perfect = float(match.group(1)), int(match.group(2))
        assert 0 <= left <= state.cards_left() and 0 <= perfect <= 100  # nothing is held that is not held now
        assert 0.0 <= c.value <= 1.0


def test_a_silencio_hint_names_the_own_cards_a_play_leaves_unplayable():
    # p0 holds r6 and has r3 in front of it: playing r6 onto r1 leaves r3 unplayable; playing r3 leaves nothing
    state = SilencioState.position(3, hands=[["r6", "b5"], ["g4", "y7"], ["b8", "y3"]], fronts=[["r3"], [], []],
                                   to_move=0)
    found = {c.action.text: c.reason for c in hints_for(SeatHandle(state, 0), seconds=None, iters=60, seed=1,
                                                        top=10)}
    assert "leaves your r3 unplayable" in found["play r6"]
    assert "unplayable" not in found["play r3"]


def test_hints_need_a_budget_and_a_seat_with_nothing_to_do_gets_none():
    state = midgame("silencio", 3, 5, 12)
    waiting = next(s for s in range(3) if s != state.to_move)
    assert hints(SeatHandle(state, waiting), None, 10) == []
    with pytest.raises(ValueError, match="budget"):
        hints(SeatHandle(state, state.to_move), None, None)


# ---- the diagnosis script --------------------------------------------------------------------------------------


def _script(name: str) -> Any:
    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_losses_script_puts_every_card_left_down_to_one_cause():
    module = _script("silencio_losses")
    for deal in (1, 2, 3):
        left, causes = module.losses("team:iters=10", 3, deal)
        assert sum(causes.values()) == left
        assert "unknown ()" not in causes


def test_the_teams_script_pools_seeds_and_resumes_from_its_file(tmp_path, capsys):
    module = _script("silencio_teams")
    out = tmp_path / "games.jsonl"
    args = ["--teams", "random", "heuristic", "--players", "2", "--deals", "3", "--no-progress", "--out", str(out)]
    assert module.main([*args, "--seed", "4"]) == 0
    assert module.main([*args, "--seed", "4", "5"]) == 0  # seed 4's deals are in the file: only seed 5's are played
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2 * 2 * 3
    assert len({(r["deal"], r["team"]) for r in rows}) == len(rows)
    last = capsys.readouterr().out.split("same deals for every team")[-1]  # the second run's table
    assert re.search(r"random\s*│\s*6\s*│", last) and re.search(r"heuristic\s*│\s*6\s*│", last)
    assert module.main(["--teams", "nobody", "--no-progress"]) == 2


def test_a_policy_guided_team_expands_the_policys_choice_first_and_lifts_it_by_its_prior():
    """`team:policy=silen-3p`: the shipped network's probabilities of the moves the convention allows guide the root
    (the most probable expanded first, PUCT's prior term `cp * P(a) * sqrt(N) / (1 + n)` in the root's selection); with
    a heavy `cp` the search's choice is the policy's; without `policy` the search has no prior."""
    from tabletop.agents.policy import PolicyAgent, find_shipped, load_policy, policy_agent

    net = policy_agent("silencio", load_policy(find_shipped("silen-3p", "silencio").path), 0)
    assert isinstance(net, PolicyAgent)
    state = next(s for s in (midgame("silencio", 3, k, 4) for k in range(40))
                 if len(TeamSearch(SeatHandle(s, s.to_move), fast_rollout(), 0).root_legal()) > 2)
    seat = SeatHandle(state, state.to_move)
    guided = make_agent("team:policy=silen-3p,iters=300", "silencio", seed=2)
    assert isinstance(guided, TeamAgent) and guided.cp == 0.1 and isinstance(guided.policy, PolicyAgent)
    guided.act(seat)
    search = guided.last_search
    assert search is not None and search.prior is not None
    allowed = search.root_legal()
    assert set(search.prior) == set(allowed) and abs(sum(search.prior.values()) - 1.0) < 1e-9
    assert search.prior == dict(zip(allowed, net.priors(seat, allowed), strict=True))
    favourite = max(allowed, key=lambda a: search.prior[a])
    assert next(iter(search.root.children)) == favourite  # expanded first
    anchored = make_agent("team:policy=silen-3p,cp=1000,iters=300", "silencio", seed=2)
    assert anchored.act(seat) == favourite
    assert anchored.last_search is not None
    visits = {a: n.visits for a, n in anchored.last_search.root.children.items()}
    assert visits[favourite] > 0.75 * sum(visits.values())  # the others hardly tried
    plain = make_agent("team:iters=300", "silencio", seed=2)
    plain.act(seat)
    assert plain.last_search is not None and plain.last_search.prior is None
