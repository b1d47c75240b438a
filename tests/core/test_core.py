"""The core contract itself: actions, options, Rng, records, the seat handle, the registry."""

from __future__ import annotations

import json
import pickle
from collections import UserList

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tabletop
from tabletop.core import Action, ActionTable, Option, Rng, SeatHandle
from tabletop.core.options import resolve_options


def test_actions_are_interned_immutable_and_round_trip_through_text():
    table = ActionTable(lambda verb, args: f"{verb} {' '.join(map(str, args))}".strip())
    a = table("move", 3, 4)
    assert table("move", 3, 4) is a
    assert Action("move", (3, 4), "move 3 4") is a  # interned: equality is identity
    assert Action("move", (3, 4), "other text") != a
    assert str(a) == "move 3 4"
    with pytest.raises(AttributeError):
        a.text = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(a)) is a


def test_rng_is_deterministic_and_copies_independently():
    r = Rng(42)
    first = [r.below(100) for _ in range(5)]
    r2 = Rng(42)
    assert [r2.below(100) for _ in range(5)] == first
    c = r2.copy()
    assert c.next64() == r2.next64()
    items = list(range(20))
    Rng(1).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
    with pytest.raises(ValueError):
        r.below(0)


@given(st.integers(min_value=0, max_value=(1 << 64) - 1), st.lists(st.integers(), max_size=60))
def test_the_shuffle_is_fisher_yates_drawn_by_next64_and_leaves_the_generator_where_those_draws_do(
        seed: int, items: list[int]) -> None:
    """Rng.shuffle writes next64 out for speed: the same permutation and the same state after it as the textbook
    loop over next64 (every record's deal depends on it)."""
    want = list(items)
    ref = Rng(seed)
    for i in range(len(want) - 1, 0, -1):
        j = ref.next64() % (i + 1)
        want[i], want[j] = want[j], want[i]
    end = ref.state
    got, r = list(items), Rng(seed)
    r.shuffle(got)
    assert got == want and r.state == end and r.next64() == ref.next64()
    other, r = UserList(items), Rng(seed)  # a sequence that is not a list: the same swaps
    r.shuffle(other)
    assert list(other) == want and r.state == end


@given(st.integers(min_value=0, max_value=(1 << 64) - 1),
       st.one_of(st.integers(min_value=1, max_value=300), st.integers(min_value=1, max_value=1 << 64)))
def test_a_bounded_draw_is_next64_modulo_the_bound_in_either_build(seed: int, n: int) -> None:
    """Compiled, `below` and `shuffle` draw with machine integers (core/rng.py): the same numbers as the unsigned
    arithmetic of `next64`, which stays the reference."""
    ref, r = Rng(seed), Rng(seed)
    assert r.below(n) == ref.next64() % n and r.state == ref.state


def test_the_machine_integer_draws_run_exactly_when_the_engine_is_compiled() -> None:
    from tabletop import native
    from tabletop.core import rng

    assert native.running_compiled() == rng.COMPILED


@pytest.mark.parametrize(
    ("option", "value", "ok"),
    [
        (Option("v", "none", ("none", "tavern")), "tavern", "tavern"),
        (Option("v", "none", ("none", "tavern")), "easy", None),
        (Option("n", 5, (5, 4)), 4, 4),
        (Option("n", 5, (5, 4)), True, None),
        (Option("b", False, (False, True)), 1, None),
        (Option("s", [], (1, 2, 3), multi=True), [3, 1], [1, 3]),
        (Option("s", [], (1, 2, 3), multi=True), "3,1", [1, 3]),
        (Option("s", [], (1, 2, 3), multi=True), [1, 1], None),
        (Option("s", [], (1, 2, 3), multi=True), [7], None),
    ],
)
def test_option_validation_normalises_or_says_what_is_allowed(option, value, ok):
    if ok is None:
        with pytest.raises(tabletop.InvalidOptions, match="allowed"):
            option.validate(value, 2)
    else:
        assert option.validate(value, 2) == ok


def test_resolve_options_fills_defaults_and_refuses_unknown_names():
    declared = (Option("v", "none", ("none", "tavern")),)
    assert resolve_options(declared, None, 3) == {"v": "none"}
    with pytest.raises(tabletop.InvalidOptions, match="this game's options: v"):
        resolve_options(declared, {"w": 1}, 3)


def test_new_game_checks_players_and_seed():
    with pytest.raises(tabletop.InvalidOptions, match="2-4 players"):
        tabletop.new_game("silencio", 5)
    with pytest.raises(tabletop.InvalidOptions, match="seed"):
        tabletop.new_game("silencio", 3, seed=-1)
    a, b = tabletop.new_game("silencio", 3), tabletop.new_game("silencio", 3)
    assert a.seed != b.seed  # no seed: drawn at random


def test_view_and_sample_refuse_bad_seats():
    s = tabletop.new_game("silencio", 3, 1)
    for bad in (3, -1, "0", True):
        with pytest.raises(ValueError, match="seat must be"):
            s.view(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat must be"):
        s.sample(None, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no record"):
        s.sample(0, 1).record()


def test_seat_handle_exposes_no_state(tmp_path):
    s = tabletop.new_game("silencio", 3, 1)
    h = SeatHandle(s, 0)
    public = [n for n in dir(h) if not n.startswith("__")]
    for name in public:
        assert not isinstance(getattr(h, name), tabletop.State), name
    assert h.view() == s.view(0)
    other = SeatHandle(s, (s.to_move + 1) % 3)
    assert other.legal_actions() == []  # not its decision
    with pytest.raises(TypeError):
        pickle.dumps(h)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"game": "silencio"}', "no 'version' field"),
        ('{"game": "chess", "version": "1", "players": 2, "options": {}, "seed": 1, "actions": []}', "unknown game"),
        ('{"game": "silencio", "version": "1", "players": "3", "options": {}, "seed": 1, "actions": []}', "int"),
        ('{"game": "silencio", "version": "3", "players": 9, "options": {}, "seed": 1, "actions": []}', "setup"),
        ('{"game": "silencio", "version": "1", "players": 3, "options": {}, "seed": 1, "actions": [1]}', "texts"),
    ],
)
def test_malformed_records_are_refused_with_a_reason(tmp_path, content, message):
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(tabletop.InvalidRecord, match=message):
        tabletop.replay(tabletop.load_record(path))


def test_record_file_round_trip(tmp_path):
    s = tabletop.new_game("silencio", 2, 9)
    for _ in range(5):
        s.apply(s.legal_actions()[0])
    path = tabletop.save_record(s.record(), tmp_path / "g.json")
    assert json.loads(path.read_text())["actions"] == s.history
    assert tabletop.replay(tabletop.load_record(path)).snapshot() == s.snapshot()


def test_games_is_callable_after_game_packages_are_imported():
    import tabletop.games.silencio

    assert "silencio" in tabletop.games()
