"""The view is built once per state and copied for each caller (`silos.view.table_view`): every copy equals a view
built afresh, each is new (editing one changes no other view nor the state), and the cache never outlives the
position it was built at (an action, a concession, a clone)."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.games.silos.state import SilosState
from tabletop.games.silos.view import _build, _fresh

OPTION_SETS = [
    {},
    {"alternate_tiles": [0, 1, 2, 3, 4, 5, 6]},
    {"crop_circles": 6, "skill_tiles": True},
    {"emblem_target": 4, "alternate_tiles": [3, 5]},
]


def _afresh(s: SilosState, seat: int | None) -> dict:
    """The view of `s` built from nothing (no cache read nor written)."""
    return _fresh(s, _build(s), seat)


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


def _containers(obj: object, out: list[object]) -> list[object]:
    if isinstance(obj, dict):
        out.append(obj)
        for v in obj.values():
            _containers(v, out)
    elif isinstance(obj, list):
        out.append(obj)
        for v in obj:
            _containers(v, out)
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), opts=st.sampled_from(OPTION_SETS),
       picks=st.lists(st.integers(0, 10**6), min_size=20, max_size=400), every=st.integers(1, 7))
def test_a_cached_view_equals_one_built_afresh_and_no_two_views_share_a_list_or_dict(seed, players, opts, picks,
                                                                                      every):
    s = tabletop.new_game("silos", players, seed, opts)
    for step, pick in enumerate(picks):
        if step % every == 0:
            seats: list[int | None] = [*range(players), None]
            views = [s.view(p) for p in seats]
            again = [s.view(p) for p in seats]  # from the cache
            assert views == again == [_afresh(s, p) for p in seats]
            assert all(v["seat"] == p for v, p in zip(views, seats, strict=True))
            mine = [id(c) for v in views + again for c in _containers(v, [])]
            assert len(mine) == len(set(mine)), "two views, or two places in one, share a list or dict"
            kept = copy.deepcopy(again)
            for v in views:
                _scribble(v)
            assert [s.view(p) for p in seats] == kept
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[pick % len(legal)])
    assert s.view(0) == _afresh(s, 0)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), steps=st.integers(0, 120), who=st.integers(0, 3))
def test_a_view_taken_before_a_clone_an_action_or_a_concession_is_not_served_after_it(seed, players, steps, who):
    s = tabletop.new_game("silos", players, seed)
    for k in range(steps):
        if s.is_over:
            break
        s.apply(s.legal_actions()[k * 7919 % len(s.legal_actions())])
    before = s.view(None)
    twin = s.clone()
    assert twin.view(None) == before == _afresh(twin, None)
    if not s.is_over:
        s.apply(s.legal_actions()[0])
        assert s.view(None) == _afresh(s, None) != before
        assert twin.view(None) == before  # the clone keeps its own position
    seat = who % players
    if twin.concede_refusal(seat) == "":
        twin.view(seat)
        twin.concede(seat)
        assert twin.view(seat)["winners"] == twin.winners()
        assert twin.view(seat)["to_move"] == twin.to_move
        assert {k: v for k, v in twin.view(seat).items() if k not in ("conceded", "log", "log_pos")} == \
            {k: v for k, v in _afresh(twin, seat).items() if k not in ("conceded", "log", "log_pos")}


def _copies(s: SilosState) -> list[SilosState] | None:
    """A pickled and a deep copy of `s`, or None where a state does not copy so at all (compiled, `Rng` needs its
    seed to be built: an unpickled native class is built without arguments)."""
    import pickle

    try:
        return [pickle.loads(pickle.dumps(s)), copy.deepcopy(s)]
    except TypeError:
        return None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), steps=st.integers(0, 150))
def test_a_state_that_keeps_its_view_pickles_and_deep_copies_as_one_that_does_not(seed, players, steps):
    s = tabletop.new_game("silos", players, seed)
    for k in range(steps):
        if s.is_over:
            break
        s.apply(s.legal_actions()[k * 7919 % len(s.legal_actions())])
    unviewed = s.clone()  # a clone starts without the cache
    seats: list[int | None] = [*range(players), None]
    views = [s.view(p) for p in seats]
    twins = _copies(s)
    assert (twins is None) == (_copies(unviewed) is None), "keeping its view changed whether a state copies"
    for twin in twins or []:
        assert twin.snapshot() == s.snapshot()
        assert [twin.view(p) for p in seats] == views == [_afresh(twin, p) for p in seats]
        if not twin.is_over:
            twin.apply(twin.legal_actions()[0])
            assert twin.view(None) == _afresh(twin, None) != views[-1]
