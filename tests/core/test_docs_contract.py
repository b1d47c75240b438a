"""The documented contract exists where the code points to it: the version policy, the trust model, the
principle that a decision with no real choice is not asked, and what records of unfinished games reveal."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _doc(module: str, *names: str) -> str:
    """The docstring of `module` (a path under src/tabletop), or of the class or function `names` in it, read from
    the source: the compiled build (tabletop.native) keeps no docstring of a compiled method."""
    node: ast.AST = ast.parse((ROOT / "src" / "tabletop" / module).read_text(encoding="utf-8"))
    for name in names:
        node = next(n for n in ast.iter_child_nodes(node)
                    if isinstance(n, ast.ClassDef | ast.FunctionDef) and n.name == name)
    assert isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
    return " ".join((ast.get_docstring(node) or "").split())


def _read(name: str) -> str:
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())


def test_the_version_policy_is_written_down_and_linked_from_the_readme():
    versions = _read("docs/versions.md")
    assert "docs/versions.md" in _read("README.md")
    for phrase in ("A rules change bumps the game's version", "names both versions", "--resume",
                   "arena --out", "never continued, nor silently replayed"):
        assert phrase in versions, phrase


def test_a_decision_with_no_real_choice_is_not_asked_is_stated_once():
    docs = [_read("README.md"), _read("docs/versions.md"), _read("docs/architecture.md")]
    statements = sum(len(re.findall(r"\*\*A decision with no real choice is not asked\.\*\*", d)) for d in docs)
    assert statements == 1


def test_the_trust_model_is_said_in_the_docs_and_the_handle_docstring():
    for text in (_read("README.md"), _read("docs/architecture.md"), _doc("core/seat.py")):
        assert "trusted" in text and "another process" in text
    assert "trusted" in _doc("core/seat.py", "SeatHandle")


def test_records_of_unfinished_games_never_leave_the_server_is_the_contract():
    arch = _read("docs/architecture.md")
    assert "records of unfinished games never leave it" in arch
    assert "unfinished" in _doc("core/state.py", "State", "record")
