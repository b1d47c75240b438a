"""The frame machine's hot path (`_step`, `_legal`, `_apply_choice` in `silos/state.py`) calls the functions of the
frequent kinds of frames directly: each direct call must be the function the kind's table entry names, and a kind
it does not name goes through the table."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tabletop.games.silos
from tabletop.games.silos import events, expansions, frames, powers, turn

TABLE = {**turn.FRAMES, **events.FRAMES, **powers.FRAMES, **expansions.FRAMES}
MODULES = {"turn": turn, "events": events, "powers": powers, "expansions": expansions}
SOURCE = Path(tabletop.games.silos.__file__).with_name("state.py")


def _kinds(test: ast.expr) -> list[int]:
    """The frame kinds an `if k == K_X` / `if k in (K_X, K_Y)` test names."""
    assert isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "k"
    right = test.comparators[0]
    names = right.elts if isinstance(right, ast.Tuple) else [right]
    assert all(isinstance(n, ast.Name) for n in names)
    return [getattr(frames, n.id) for n in names if isinstance(n, ast.Name)]


def _called(body: list[ast.stmt]) -> object:
    """The function the branch calls (`module.function(...)`, returned or not)."""
    stmt = body[0]
    call = stmt.value if isinstance(stmt, ast.Return | ast.Expr) else None
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    assert isinstance(call.func.value, ast.Name)
    return getattr(MODULES[call.func.value.id], call.func.attr)


def _branches(fn: ast.FunctionDef) -> list[tuple[list[int], object]]:
    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.If):
            out.append((_kinds(node.test), _called(node.body)))
    return out


@pytest.mark.parametrize(("name", "column"), [("_step", 0), ("_legal", 1), ("_apply_choice", 2)])
def test_each_direct_call_is_the_tables_function_for_its_kind(name, column):
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    branches = _branches(fn)
    assert branches, f"{name} calls no function directly"
    seen = set()
    for kinds, called in branches:
        for k in kinds:
            assert k not in seen, f"{name}: kind {frames.FRAME_NAMES[k]} has two branches"
            seen.add(k)
            assert called is TABLE[k][column], f"{name}: kind {frames.FRAME_NAMES[k]} calls {called}"
    fallback = fn.body[-1]
    assert "_STEP[k]" in ast.unparse(fallback) or "_LEGAL[k]" in ast.unparse(fallback) or \
        "_APPLY[k]" in ast.unparse(fallback), f"{name} must end with the table's call for the other kinds"


def test_the_direct_calls_are_taken_in_the_compiled_build_only():
    """The game takes its direct calls where the core's probe (`tabletop.core.rng.COMPILED`) finds the compiled
    build, the build `tabletop.native` says runs."""
    from tabletop import native
    from tabletop.core import rng

    game = importlib.import_module("tabletop.games.silos.state")
    assert game.COMPILED is rng.COMPILED is native.running_compiled()
