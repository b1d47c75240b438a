"""The flow's hot path (`_task_options`, `_task_decide`, `_task_auto` in `siliconvania/rules.py`) calls the functions
of each kind of task directly: each direct call must be the function the kind's table entry names, and a kind it does
not name goes through the table."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tabletop.games.siliconvania
from tabletop.games.siliconvania import decisions, rules, steps, tasks

MODULES = {"decisions": decisions, "steps": steps}
SOURCE = Path(tabletop.games.siliconvania.__file__).with_name("rules.py")
TABLES = {
    "_task_options": ({k: f[0] for k, f in decisions.DECISION_FUNCTIONS.items()}, "_OPTIONS[kind]"),
    "_task_decide": ({k: f[1] for k, f in decisions.DECISION_FUNCTIONS.items()}, "_DECIDE[kind]"),
    "_task_auto": (dict(rules._AUTOMATIC_FUNCTIONS), "_AUTO[kind]"),
}


def _kind(test: ast.expr) -> int:
    """The task kind an `if kind == K_X` test names."""
    assert isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "kind"
    right = test.comparators[0]
    assert isinstance(right, ast.Name)
    return int(getattr(tasks, right.id))


def _called(body: list[ast.stmt]) -> object:
    """The function the branch calls (`module.function(...)`, returned or not)."""
    stmt = body[0]
    call = stmt.value if isinstance(stmt, ast.Return | ast.Expr) else None
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    assert isinstance(call.func.value, ast.Name)
    return getattr(MODULES[call.func.value.id], call.func.attr)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_direct_call_is_the_tables_function_for_its_kind(name):
    table, fallback = TABLES[name]
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    seen = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.If):
            kind, called = _kind(node.test), _called(node.body)
            assert kind not in seen, f"{name}: kind {kind} has two branches"
            seen.add(kind)
            assert called is table[kind], f"{name}: kind {kind} calls {called}, its table {table[kind]}"
    assert seen, f"{name} calls no function directly"
    assert seen <= set(table)
    assert fallback in ast.unparse(fn.body[-1]) or fallback in ast.unparse(fn), f"{name} must fall back to {fallback}"


def test_the_direct_calls_are_taken_in_the_compiled_build_only():
    """The game takes its direct calls where the core's probe (`tabletop.core.rng.COMPILED`) finds the compiled
    build, the build `tabletop.native` says runs."""
    from tabletop import native
    from tabletop.core import rng

    game = importlib.import_module("tabletop.games.siliconvania.rules")
    assert game.COMPILED is rng.COMPILED is native.running_compiled()
