"""The conformance harness: every registered game, every configuration, hundreds of seeded random playouts.

Checks termination, legal/apply consistency, determinism, record->replay exactness, clone independence,
JSON-ready views, `parse_action(str(a)) == a`, conservation of components, refused actions leaving the
state unchanged, and that `view(p)` is the same for states that differ only in what p cannot see.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.core import Rng, SeatHandle

from .harness import all_cases, canonical_json, case_id, random_playout, seeds_for

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_playouts_keep_every_invariant(case):
    game, players, options = case
    for seed in range(seeds_for(game)):
        state = tabletop.new_game(game, players, seed, options)
        counts = state.component_counts()
        rng = Rng(seed + 1000)
        steps = 0
        while not state.is_over:
            legal = state.legal_actions()
            assert legal, "a live game must offer an action"
            assert 0 <= state.to_move < players
            texts = [str(a) for a in legal]
            assert len(set(texts)) == len(texts), f"duplicate action texts: {texts}"
            for a in legal:
                assert state.parse_action(str(a)) == a
            if steps % 7 == 0:
                for seat in [None, *range(players)]:
                    canonical_json(state.view(seat))
            state.apply(legal[rng.below(len(legal))])
            assert state.component_counts() == counts, "components must be conserved"
            steps += 1
            assert steps < 50_000
        assert state.legal_actions() == []
        assert state.to_move is None
        assert len(state.scores()) == players
        assert all(0 <= w < players for w in state.winners())
        canonical_json(state.view(None))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_seed_same_game_and_record_replays_exactly(case):
    game, players, options = case
    for seed in range(3):
        a = random_playout(tabletop.new_game(game, players, seed, options), seed)
        record = json.loads(json.dumps(a.record()))
        b = tabletop.replay(record)
        assert b.snapshot() == a.snapshot()
        for seat in [None, *range(players)]:
            assert b.view(seat) == a.view(seat)
        c = random_playout(tabletop.new_game(game, players, seed, options), seed)
        assert c.snapshot() == a.snapshot()
        # mid-game replay too
        half = len(record["actions"]) // 2
        mid = tabletop.replay(record, upto=half)
        assert mid.history == record["actions"][:half]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_clone_is_independent(case):
    game, players, options = case
    for seed in range(3):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed)
        while not state.is_over:
            if rng.below(5) == 0:
                before = state.snapshot()
                copy = state.clone()
                assert copy.snapshot() == before
                random_playout(copy, seed + 7)
                assert state.snapshot() == before, "playing a clone changed the original"
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_refused_actions_change_nothing(case):
    game, players, options = case
    state = tabletop.new_game(game, players, 3, options)
    rng = Rng(3)
    while not state.is_over:
        before = state.snapshot()
        with pytest.raises(tabletop.IllegalAction, match="legal"):
            state.apply("xyzzy 42")
        with pytest.raises(ValueError):
            state.parse_action("")
        assert state.snapshot() == before
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    with pytest.raises(tabletop.IllegalAction, match="over"):
        state.apply("pass")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_views_hide_what_a_seat_cannot_see(case):
    """Two samples for seat p differ only in what p cannot see, so view(p) must be identical in both."""
    game, players, options = case
    for seed in range(4):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 99)
        while not state.is_over:
            if rng.below(6) == 0:
                for p in range(players):
                    s1, s2 = state.sample(p, rng.next64()), state.sample(p, rng.next64())
                    v = state.view(p)
                    assert s1.view(p) == v, "a sample must be consistent with the seat's view"
                    assert s2.view(p) == v
                    # a spectator sees less than any seat, so it cannot tell the samples apart either
                    assert s1.view(None) == s2.view(None) == state.view(None)
                    assert s1.component_counts() == state.component_counts()
                    assert s1.to_move == state.to_move
                    if state.to_move == p:
                        assert [str(a) for a in s1.legal_actions()] == [str(a) for a in state.legal_actions()]
                    random_playout(s1, seed)  # a sample is a playable game
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_each_seat_log_is_a_cursor_over_its_whole_history(case):
    """Audit 12: `log(seat, k)` gives the entries after the first k; a seat's log only grows, never rewrites an
    entry; `view(seat)["log_pos"]` is its length; the view's tail is the end of the log; samples keep the log."""
    game, players, options = case
    for seed in range(3):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 7)
        seen: dict[int | None, list] = {p: [] for p in [None, *range(players)]}
        while True:
            for p in seen:
                pos = state.view(p)["log_pos"]
                old = seen[p]
                assert pos >= len(old), "a seat's log never shrinks"
                new = state.log(p, len(old))
                assert len(old) + len(new) == pos
                full = state.log(p)
                assert full[: len(old)] == old, "an entry, once in a seat's log, never changes"
                assert full[len(old):] == new
                for e in new:
                    assert ({"seat", "text"} <= set(e) <= {"seat", "text", "template"}
                            and isinstance(e["text"], str) and e["text"])
                    assert e["seat"] is None or 0 <= e["seat"] < players
                canonical_json(new)
                tail = state.view(p).get("log", [])
                assert full[len(full) - len(tail):] == tail, "the view's log is the end of the seat's log"
                seen[p] = full
                if p is not None and rng.below(8) == 0:
                    assert state.sample(p, rng.next64()).log(p) == full, "a sample keeps what the seat saw"
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        with pytest.raises(ValueError, match="non-negative"):
            state.log(0, -1)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_sample_depends_only_on_what_the_seat_can_tell(case):
    """Audit 19: two states a seat cannot tell apart (two samples for it) give that seat the same sample."""
    game, players, options = case
    for seed in range(3):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 51)
        while not state.is_over:
            if rng.below(5) == 0:
                p = rng.below(players)
                s1, s2 = state.sample(p, rng.next64()), state.sample(p, rng.next64())
                k = rng.next64()
                assert s1.sample(p, k).snapshot() == s2.sample(p, k).snapshot() == state.sample(p, k).snapshot()
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


def _scribble(obj: object) -> None:
    """Change every list and dict reachable from `obj` in place."""
    if isinstance(obj, dict):
        for v in list(obj.values()):
            _scribble(v)
        obj["scribbled"] = True
    elif isinstance(obj, list):
        for v in obj:
            _scribble(v)
        obj.append("scribbled")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_nothing_returned_aliases_the_state(case):
    """Audit 17: editing what view, log, record, scores, winners or legal_actions returned changes no state."""
    game, players, options = case
    for seed in range(2):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 3)
        while True:
            twin = state.clone()
            before = canonical_json(state.snapshot())
            scores, winners = state.scores(), state.winners()
            for p in [None, *range(players)]:
                _scribble(state.view(p))
                _scribble(state.log(p))
            _scribble(state.record())
            _scribble(state.legal_actions())
            _scribble(scores)
            _scribble(winners)
            assert canonical_json(state.snapshot()) == before
            assert state.scores() == twin.scores() and state.winners() == twin.winners()
            assert [state.view(p) for p in range(players)] == [twin.view(p) for p in range(players)]
            assert state.record() == twin.record()
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_handle_answers_only_for_its_own_seat(case):
    """Audit 13: a seat handle whose seat owes no decision offers no action and accepts no text, and its refusal
    lists nothing (the mover's legal actions can be its hidden hand); on its turn it parses exactly what the state
    does, and in a simultaneous step before its turn exactly its own `legal_actions_for`."""
    game, players, options = case
    state = tabletop.new_game(game, players, 5, options)
    handles = [SeatHandle(state, p) for p in range(players)]
    rng = Rng(5)
    while not state.is_over:
        legal = state.legal_actions()
        texts = [str(a) for a in legal]
        for h in handles:
            if h.seat == state.to_move:
                assert h.legal_actions() == legal
                assert all(h.parse_action(t) is a for t, a in zip(texts, legal, strict=True))
                continue
            if h.seat in state.deciding():  # a simultaneous step: its own decision, ahead of its turn
                own = state.legal_actions_for(h.seat)
                assert own and h.legal_actions() == own
                assert all(h.parse_action(a.text) is a for a in own)
                continue
            assert h.legal_actions() == []
            for text in [*texts[:5], "xyzzy"]:
                with pytest.raises(tabletop.IllegalAction) as e:
                    h.parse_action(text)
                message = str(e.value)
                assert f"seat {state.to_move}'s turn" in message
                assert not any(t in message for t in texts), "an off-turn refusal must not list the mover's actions"
        state.apply(legal[rng.below(len(legal))])
    for h in handles:
        with pytest.raises(tabletop.IllegalAction, match="over"):
            h.parse_action("pass")


class _LooksLikeEveryAction:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__

    def __str__(self) -> str:
        return "anything"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_apply_accepts_only_an_action_or_its_text(case):
    """Audit 18: an object that merely compares equal to a legal action is refused, and the state is unchanged."""
    game, players, options = case
    state = tabletop.new_game(game, players, 6, options)
    rng = Rng(6)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        if steps % 5 == 0:
            before = state.snapshot()
            for bad in (_LooksLikeEveryAction(), 0, None, (legal[0].verb, *legal[0].args)):
                with pytest.raises(tabletop.IllegalAction, match="Action"):
                    state.apply(bad)
            assert state.snapshot() == before
        pick = legal[rng.below(len(legal))]
        state.apply(pick if steps % 2 else str(pick))
        steps += 1


@pytest.mark.parametrize("game", tabletop.games())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), picks=st.lists(st.integers(0, 10**6), max_size=400))
def test_property_any_action_sequence_conserves_and_replays(game, seed, picks):
    info = tabletop.game_info(game)
    players = info.min_players + seed % (info.max_players - info.min_players + 1)
    state = tabletop.new_game(game, players, seed)
    counts = state.component_counts()
    for pick in picks:
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[pick % len(legal)])
        assert state.component_counts() == counts
    assert tabletop.replay(state.record()).snapshot() == state.snapshot()
    assert json.loads(canonical_json(state.view(state.to_move or 0)))


def test_unknown_game_and_bad_options_are_refused_with_what_is_allowed():
    with pytest.raises(tabletop.UnknownGame, match="known games"):
        tabletop.new_game("chess")
    for game in tabletop.games():
        info = tabletop.game_info(game)
        with pytest.raises(tabletop.InvalidOptions, match="options"):
            tabletop.new_game(game, info.min_players, 1, {"no_such_option": 1})
        with pytest.raises(tabletop.InvalidOptions, match="players"):
            tabletop.new_game(game, info.max_players + 1, 1)
        for opt in info.options:
            with pytest.raises(tabletop.InvalidOptions, match="allowed"):
                tabletop.new_game(game, info.min_players, 1, {opt.name: "not-a-value"})


def test_records_of_another_version_are_refused():
    for game in tabletop.games():
        record = random_playout(tabletop.new_game(game, None, 1), 1).record()
        record["version"] = "0-other"
        with pytest.raises(tabletop.InvalidRecord, match="version"):
            tabletop.replay(record)
        bad = dict(record, version=tabletop.game_info(game).version, actions=["xyzzy"])
        with pytest.raises(tabletop.InvalidRecord, match="action 0"):
            tabletop.replay(bad)
