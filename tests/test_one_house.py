"""Outside its folder a game is not named in code: the registry's list of built-ins is the one place in src/ (and
the browser's per-game table modules in web/src/games/, found by name). A layer that needs to know something of a
game asks the game (`GameInfo`, `tabletop.core.parts`); docs, tests and shipped data may name games freely.

Checked over the AST of every module of src/tabletop outside src/tabletop/games/: no string constant is a game's
name, or a game's module path (`tabletop.games.silos...`), except `_BUILTIN` in core/registry.py. Over the
TypeScript of web/src outside web/src/games/: no quoted game name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "tabletop"
GAMES = ("silencio", "siliconvania", "silos")
ALLOWED = {("core/registry.py", "_BUILTIN")}


def _named(value: str) -> bool:
    return value.lower() in GAMES or any(value.startswith(f"tabletop.games.{g}") for g in GAMES)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def python_mentions() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("games/"):
            continue
        tree = ast.parse(path.read_text(), rel)
        docs = _docstrings(tree)
        allowed_nodes: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and (rel, t.id) in ALLOWED for t in node.targets
            ):
                allowed_nodes |= {id(n) for n in ast.walk(node.value)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                    and id(node) not in allowed_nodes and _named(node.value)):
                found.append(f"{rel}:{node.lineno}: {node.value!r}")
    return found


def typescript_mentions() -> list[str]:
    found = []
    quoted = re.compile(r"""["'`]({})["'`]""".format("|".join(GAMES)))
    for path in sorted((ROOT / "web" / "src").rglob("*.ts")):
        rel = path.relative_to(ROOT / "web" / "src").as_posix()
        if rel.startswith("games/") or rel.endswith(".test.ts"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if quoted.search(line.split("//")[0]):
                found.append(f"web/src/{rel}:{n}: {line.strip()}")
    return found


def test_no_module_outside_the_game_folders_names_a_game() -> None:
    found = python_mentions()
    assert not found, "a game named outside its folder (ask its GameInfo or its parts):\n" + "\n".join(found)


def test_the_browser_client_outside_its_game_modules_names_no_game() -> None:
    found = typescript_mentions()
    assert not found, "a game named in web/src outside web/src/games/:\n" + "\n".join(found)


def test_the_checks_see_a_game_named_in_code() -> None:
    tree = ast.parse('def f(game):\n    """Silos docs."""\n    return game == "silos"\n')
    consts = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    docs = _docstrings(tree)
    assert [n.value for n in consts if id(n) not in docs and _named(n.value)] == ["silos"]
    assert _named("tabletop.games.silencio.heuristic") and not _named("silencio-team.md")
