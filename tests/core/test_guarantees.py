"""Guarantees of the core contract restored by the audit (issue 8): versions, the seat handle's privacy,
no aliasing, exact actions, and clear errors (a ValueError saying what is allowed, never a TypeError or KeyError)."""

from __future__ import annotations

import json
import random

import pytest

import tabletop
from conformance.harness import random_playout
from tabletop.core import Action, SeatHandle, State, TabletopError
from tabletop.core.errors import shorten
from tabletop.core.state import _holds


# ---- version policy (docs/versions.md) -------------------------------------------------------------------------
@pytest.mark.parametrize("game", tabletop.games())
def test_a_record_of_another_rules_version_is_refused_naming_both_versions(game, tmp_path):
    info = tabletop.game_info(game)
    record = random_playout(tabletop.new_game(game, None, 2), 2).record()
    record["version"] = "0-older"
    for refuse in (lambda: tabletop.replay(record),
                   lambda: tabletop.load_record(tabletop.save_record(record, tmp_path / "r.json"))):
        with pytest.raises(tabletop.InvalidRecord) as e:
            refuse()
        assert "'0-older'" in str(e.value) and f"version {info.version!r}" in str(e.value)


# ---- audit 13 and 14: the seat handle ------------------------------------------------------------------------------
def test_a_handle_refuses_every_action_off_turn_and_names_whose_turn_it_is():
    state = tabletop.new_game("silencio", 3, 1)
    mover = state.to_move
    other = SeatHandle(state, (mover + 1) % 3)
    for text in [str(a) for a in state.legal_actions()] + ["xyzzy"]:
        with pytest.raises(tabletop.IllegalAction) as e:
            other.parse_action(text)
        msg = str(e.value)
        assert f"seat {mover}'s turn" in msg
        assert "legal:" not in msg and not any(str(a) in msg for a in state.legal_actions())
    own = SeatHandle(state, mover)
    assert own.parse_action(str(state.legal_actions()[0])) is state.legal_actions()[0]
    random_playout(state, 1)
    with pytest.raises(tabletop.IllegalAction, match="over"):
        own.parse_action("pass")


def _one_hop(handle: SeatHandle) -> list[tuple[str, object]]:
    """Every object one attribute hop from a handle, and the `__self__` and closure cells of each."""
    out: list[tuple[str, object]] = []
    for name in dir(handle):
        try:
            value = getattr(handle, name)
        except Exception:
            continue
        out.append((name, value))
        owner = getattr(value, "__self__", None)
        if owner is not None:
            out.append((f"{name}.__self__", owner))
        func = getattr(value, "__func__", value)
        for i, cell in enumerate(getattr(func, "__closure__", None) or ()):
            out.append((f"{name}.__closure__[{i}]", cell.cell_contents))
    return out


@pytest.mark.parametrize("game", tabletop.games())
def test_no_attribute_of_a_handle_nor_its_self_or_closure_is_the_state(game):
    state = tabletop.new_game(game, None, 4)
    handle = SeatHandle(state, 0)
    hops = _one_hop(handle)
    assert {"_table", "view", "parse_action", "legal_actions", "sample", "log"} <= {n for n, _ in hops}
    for name, value in hops:
        assert not isinstance(value, State), f"handle.{name} is the state"
    assert state.__class__.__name__ not in repr(handle)


# ---- audit 17: nothing returned aliases the state -----------------------------------------------------------------
def test_the_record_and_game_info_return_copies_not_the_live_options():
    state = tabletop.new_game("silos", 2, 1, {"alternate_tiles": [2, 5]})
    record = state.record()
    record["options"]["alternate_tiles"].append(6)
    record["options"]["emblem_target"] = 99
    assert state.options["alternate_tiles"] == [2, 5] and state.record()["options"]["alternate_tiles"] == [2, 5]
    assert state.record()["options"]["emblem_target"] != 99
    described = tabletop.game_info("silos").describe()
    for o in described["options"]:
        if isinstance(o["default"], list):
            o["default"].append(0)
    assert tabletop.new_game("silos", 2, 1).options["alternate_tiles"] == []


# ---- audit 18: only an Action or its text ---------------------------------------------------------------------------
class _EqualToAnything:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _SneakyText(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def test_apply_accepts_only_an_action_from_legal_actions_or_a_string():
    state = tabletop.new_game("silencio", 3, 1)
    before = state.snapshot()
    for bad in (_EqualToAnything(), 3, None, ["give r4"], b"give r4"):
        with pytest.raises(tabletop.IllegalAction, match="an Action from legal_actions"):
            state.apply(bad)  # type: ignore[arg-type]
    with pytest.raises(tabletop.IllegalAction, match="not legal"):
        state.apply(_SneakyText("xyzzy"))
    with pytest.raises(tabletop.IllegalAction, match="not legal"):
        state.apply(Action("give", ("z9",), "give z9"))
    assert state.snapshot() == before
    first = state.legal_actions()[0]
    state.apply(Action(first.verb, first.args, first.text))  # interned: the same object, accepted
    assert state.history == [first.text]


# ---- audit 20: clear errors ------------------------------------------------------------------------------------------
def _deep(n: int) -> list[object]:
    root: list[object] = []
    node = root
    for _ in range(n):
        child: list[object] = []
        node.append(child)
        node = child
    return root


BAD_CALLS = {
    "options not a dict": lambda: tabletop.new_game("silencio", 3, 1, [("variant", "tavern")]),  # type: ignore[arg-type]
    "options a string": lambda: tabletop.new_game("silencio", 3, 1, "variant=tavern"),  # type: ignore[arg-type]
    "option name not a string": lambda: tabletop.new_game("silencio", 3, 1, {1: "x", "variant": "none"}),
    "unhashable option value": lambda: tabletop.new_game("silencio", 3, 1, {"variant": {}}),
    "float for an integer choice": lambda: tabletop.new_game("silencio", 3, 1, {"first_player": 1.0}),
    "bool for an integer choice": lambda: tabletop.new_game("silencio", 3, 1, {"first_player": True}),
    "bool in a subset of integers": lambda: tabletop.new_game("silos", 2, 1, {"alternate_tiles": [True]}),
    "unhashable in a subset": lambda: tabletop.new_game("silos", 2, 1, {"alternate_tiles": [{}]}),
    "deeply nested option value": lambda: tabletop.new_game("silos", 2, 1, {"alternate_tiles": _deep(100_000)}),
    "game name unhashable": lambda: tabletop.new_game(["silencio"]),  # type: ignore[arg-type]
    "players a float": lambda: tabletop.new_game("silencio", 3.0),  # type: ignore[arg-type]
    "seed a string": lambda: tabletop.new_game("silencio", 3, "7"),  # type: ignore[arg-type]
    "seed of 5000 digits": lambda: tabletop.new_game("silencio", 3, 10**4999),
    "record seed of 5000 digits": lambda: tabletop.replay(dict(tabletop.new_game("silencio", 2, 1).record(),
                                                                seed=10**4999)),
    "sample seed a float": lambda: tabletop.new_game("silencio", 3, 1).sample(0, 1.5),  # type: ignore[arg-type]
    "sample seed a string": lambda: tabletop.new_game("silencio", 3, 1).sample(0, "1"),  # type: ignore[arg-type]
    "sample seed None": lambda: tabletop.new_game("silencio", 3, 1).sample(0, None),  # type: ignore[arg-type]
    "replay upto a string": lambda: tabletop.replay(tabletop.new_game("silencio", 3, 1).record(), upto="2"),
    "replay upto negative": lambda: tabletop.replay(tabletop.new_game("silencio", 3, 1).record(), upto=-1),
    "replay upto a float": lambda: tabletop.replay(tabletop.new_game("silencio", 3, 1).record(), upto=1.0),
    "record not a dict": lambda: tabletop.replay([1, 2]),  # type: ignore[arg-type]
    "record options not a dict": lambda: tabletop.replay(dict(tabletop.new_game("silencio", 2, 1).record(),
                                                              options=[])),
    "record option of a wrong type": lambda: tabletop.replay(dict(tabletop.new_game("silencio", 2, 1).record(),
                                                                  options={"first_player": 1.0})),
    "view seat a float": lambda: tabletop.new_game("silencio", 3, 1).view(1.0),  # type: ignore[arg-type]
    "log start a string": lambda: State.log(tabletop.new_game("silos", 3, 1), 0, "0"),  # type: ignore[arg-type]
    "handle for a seat that does not exist": lambda: SeatHandle(tabletop.new_game("silencio", 3, 1), 3),
}


@pytest.mark.parametrize("call", list(BAD_CALLS.values()), ids=list(BAD_CALLS))
def test_a_bad_argument_is_a_clear_value_error_never_a_type_or_key_error(call):
    with pytest.raises(ValueError) as e:
        call()
    assert not isinstance(e.value, KeyError | TypeError)
    msg = str(e.value)
    assert 10 < len(msg) < 400, msg
    assert any(w in msg for w in ("must", "allowed", "not", "takes", "known")), msg


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{not utf-8", "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"game": "silencio", "version": "1", "players": 3, "options": {}, "seed": ' + b"7" * 5000
         + b', "actions": []}', "not a record"),
        (b'{"game": "' + b"x" * 2_000_000 + b'", "version": "1", "players": 3, "options": {}, "seed": 1, '
         b'"actions": []}', "unknown game"),
    ],
    ids=["non-utf-8", "deep-nesting", "5000-digit-number", "megabyte-name"],
)
def test_a_corrupt_record_file_is_refused_with_a_reason(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(tabletop.InvalidRecord, match=message) as e:
        tabletop.load_record(path)
    assert len(str(e.value)) < 400


def test_an_illegal_action_message_does_not_echo_megabytes_of_input():
    state = tabletop.new_game("silencio", 3, 1)
    huge = "give " + "r" * 3_000_000
    with pytest.raises(tabletop.IllegalAction) as e:
        state.apply(huge)
    assert len(str(e.value)) < 2_000 and "..." in str(e.value)
    random_playout(state, 1)
    with pytest.raises(tabletop.IllegalAction, match="over") as e:
        state.apply(huge)
    assert len(str(e.value)) < 200


def test_shorten_is_bounded_and_never_raises():
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    for value in ("x" * 10**6, 10**5000, _deep(10_000), Broken(), {"k": list(range(10**5))}):
        assert len(shorten(value)) <= 80
    assert json.loads(json.dumps(shorten("ok"))) == "'ok'"


def test_errors_are_value_errors():
    assert issubclass(TabletopError, ValueError)


@pytest.mark.parametrize("path", [None, 5, 3.5, b"record.json", ["r.json"], {"game": "silos"}],
                         ids=["None", "int", "float", "bytes", "list", "dict"])
def test_load_record_of_something_that_is_not_a_path_is_an_invalid_record(path):
    """The contract: bad input is a TabletopError with a reason, never a TypeError from inside."""
    with pytest.raises(tabletop.InvalidRecord, match="takes a file path") as e:
        tabletop.load_record(path)
    assert not isinstance(e.value, TypeError)
    assert type(path).__name__ in str(e.value)


def test_apply_looks_an_action_up_by_identity_in_both_builds() -> None:
    """`_holds` (apply's membership test: a pointer scan in the compiled build, `in` in the pure one) agrees with an
    identity scan for every legal action and for actions of other positions, in every game."""
    rng = random.Random(7)
    for game, players in (("silencio", 3), ("silos", 4), ("siliconvania", 4)):
        state = tabletop.new_game(game, players, 11)
        seen: list[Action] = []
        for _ in range(60):
            if state.is_over:
                break
            legal = state.legal_actions()
            for a in legal + seen[-40:]:
                assert _holds(legal, a) == any(x is a for x in legal)
            seen += legal
            state.apply(legal[rng.randrange(len(legal))])
        assert seen
