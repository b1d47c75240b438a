"""The layers of docs/architecture.md, checked over the import graph of src/tabletop.

Every module is parsed with `ast`; an edge is every `import` / `from ... import` of a tabletop module anywhere in it
(inside functions and `if TYPE_CHECKING:` too), every `importlib.import_module("tabletop....")` with a literal name
(a lookup by module name), and the packages such an import runs on the way (importing `tabletop.rl.aec` runs
`tabletop/rl/__init__.py`). A name built at run time (`f"tabletop.games.{game}.heuristic"`: the registry finding a
game, the parts of a game folder looked up by name) is no edge: that is how a layer uses games it does not know.
Checked:

- no import runs up the layer order (LAYERS, the order of docs/architecture.md's table);
- a game folder imports no other game; no agent imports a game's module, by statement or by a literal name (an
  agent finds what it needs in the game's parts, `tabletop.core.parts`); the command line reaches the server only
  from cli/serve.py; the load test (a client of the server) imports no server code;
- the only import cycles are between modules of one game folder.

What is not fixed yet is in ALLOWED, each with the reason and the issue that removes it: an edge not listed there
fails, and so does a listed edge that no longer exists (so the list only shrinks).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).parents[1] / "src"

# (layer, module prefixes), lowest first; a module belongs to the layer of its longest matching prefix
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("tabletop", "tabletop.core")),  # tabletop/__init__.py re-exports the core
    ("spaces", ("tabletop.spaces",)),  # the encoders' and action spaces' framework, below the games' encoding parts
    ("games", ("tabletop.games",)),
    ("agents", ("tabletop.agents",)),
    ("arena", ("tabletop.arena",)),
    ("study", ("tabletop.study",)),
    ("server", ("tabletop.server",)),
    ("rl-envs", ("tabletop.rl",)),  # the package (its lazy `env`, `single_agent`), aec, gym, bench
    ("client", ("tabletop.client",)),  # the Python client of the server's public API: it imports no server code
    ("loadtest", ("tabletop.loadtest",)),  # a client of the server: it never imports the server (checked below)
    ("cli", ("tabletop.cli",)),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}

# Violations that remain, (importer, imported): each names why and the issue that removes it. Never add to this.
ALLOWED: dict[tuple[str, str], str] = {}


def module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def all_modules() -> dict[str, Path]:
    return {module_name(p)[0]: p for p in sorted((SRC / "tabletop").rglob("*.py"))}


MODULES = all_modules()
# the C extensions (setup.py): modules without a .py (each .pyi is its interface), one per C file
COMPILED = {module_name(p.with_suffix(".py"))[0] for p in (SRC / "tabletop").rglob("_*.c")}


def known(name: str) -> bool:
    return name in MODULES or name in COMPILED


def targets(module: str, path: Path) -> Iterator[tuple[str, str]]:
    """(module, kind) for each tabletop module `module` imports, as written (before the packages they run on the
    way); kind is "import" (a statement) or "by name" (`import_module` with a literal name)."""
    package = module.split(".") if module_name(path)[1] else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((a.name, "import") for a in node.names if a.name.split(".")[0] == "tabletop")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source.split(".")[0] != "tabletop":
                continue
            yield source, "import"
            for a in node.names:  # `from tabletop.rl import aec`: the submodule aec
                if known(f"{source}.{a.name}"):
                    yield f"{source}.{a.name}", "import"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
        ):
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("tabletop"):
                yield arg.value, "by name"


Graph = dict[str, dict[str, str]]


def graph() -> Graph:
    """module -> {imported module: kind}: the tabletop modules importing it runs, each target and the packages
    above it (but not the importer's own packages, which are running already)."""
    edges: Graph = {}
    for module, path in MODULES.items():
        own = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 2)}
        out: dict[str, str] = {}
        for target, kind in targets(module, path):
            assert known(target), f"{module} imports {target}, which is not a module of src/tabletop"
            parts = target.split(".")
            for run in {".".join(parts[:i]) for i in range(1, len(parts) + 1)} - own - {module}:
                if out.get(run) != "import":
                    out[run] = kind
        edges[module] = out
    return edges


def layer(module: str) -> str:
    best, name = -1, ""
    for layer_name, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, name = len(prefix), layer_name
    assert name, module
    return name


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def violations(edges: Graph) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for a, targets_of_a in edges.items():
        for b in targets_of_a:
            la, lb = layer(a), layer(b)
            if RANK[lb] > RANK[la]:
                out[(a, b)] = f"{la} imports {lb}, a layer above it"
            elif la == lb == "games" and game_of(a) and game_of(b) and game_of(a) != game_of(b):
                out[(a, b)] = "a game imports another game"
            elif la == "agents" and game_of(b):
                out[(a, b)] = "an agent imports a game's module (agents find a game's parts: tabletop.core.parts)"
            elif la == "cli" and lb == "server" and a != "tabletop.cli.serve":
                out[(a, b)] = "the command line reaches the server only from cli/serve.py"
            elif la == "client" and lb == "server":
                out[(a, b)] = "the client speaks HTTP and WebSocket to the server, it imports no server code"
            elif la == "loadtest" and lb == "server":
                out[(a, b)] = "the load test is a client of the server: it speaks HTTP, it imports no server code"
    return out


def cycles(edges: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_runs_up_a_layer_except_the_listed_ones() -> None:
    found = violations(graph())
    new = {edge: why for edge, why in found.items() if edge not in ALLOWED}
    assert not new, "imports against the layers of docs/architecture.md:\n" + "\n".join(
        f"  {a} -> {b}: {why}" for (a, b), why in sorted(new.items())
    )
    gone = sorted(set(ALLOWED) - set(found))
    assert not gone, f"fixed: remove from ALLOWED {gone}"


def test_the_only_import_cycles_are_inside_one_game_folder() -> None:
    edges = graph()
    for a, b in ALLOWED:  # a listed violation may close a cycle; the rest of the graph may not
        edges[a].pop(b, None)
    bad = [c for c in cycles(edges) if len({game_of(m) for m in c}) != 1 or game_of(c[0]) is None]
    assert not bad, "import cycles outside a game folder:\n" + "\n".join("  " + " -> ".join(c) for c in bad)


def test_the_checks_see_upward_imports_and_cycles() -> None:
    """The checker itself: an edge up a layer, a game importing another, an import cycle across folders."""
    edges: Graph = {
        "tabletop.core.state": {"tabletop.agents": "by name"},
        "tabletop.games.silos.view": {"tabletop.games.silencio.notation": "import"},
        "tabletop.agents.ismcts": {"tabletop.games.silos.state": "import", "tabletop.games.silos.heuristic": "by name"},
        "tabletop.cli.play": {"tabletop.server.app": "import", "tabletop.study": "import"},
        "tabletop.loadtest.run": {"tabletop.server.limits": "by name", "tabletop.core": "import"},
        "tabletop.arena.runner": {"tabletop.arena.stats": "import", "tabletop.core": "import"},
        "tabletop.arena.stats": {"tabletop.arena.runner": "import"},
        "tabletop.games.silos.rules": {"tabletop.games.silos.turn": "import"},
        "tabletop.games.silos.turn": {"tabletop.games.silos.rules": "import"},
    }
    assert set(violations(edges)) == {
        ("tabletop.core.state", "tabletop.agents"),
        ("tabletop.games.silos.view", "tabletop.games.silencio.notation"),
        ("tabletop.agents.ismcts", "tabletop.games.silos.state"),
        ("tabletop.agents.ismcts", "tabletop.games.silos.heuristic"),
        ("tabletop.cli.play", "tabletop.server.app"),
        ("tabletop.loadtest.run", "tabletop.server.limits"),
    }
    assert cycles(edges) == [
        ["tabletop.arena.runner", "tabletop.arena.stats"],
        ["tabletop.games.silos.rules", "tabletop.games.silos.turn"],
    ]
    assert layer("tabletop.spaces.observations") == "spaces" and layer("tabletop.rl.gym") == "rl-envs"
    assert layer("tabletop.games.silos.encoding") == "games" and layer("tabletop.rl.encode") == "rl-envs"
    assert layer("tabletop") == "core" and layer("tabletop.games") == "games"
    assert layer("tabletop.loadtest.bots") == "loadtest" and layer("tabletop.cli.loadtest") == "cli"
    assert all(layer(m) != "core" or m in ("tabletop", "tabletop.native") or m.startswith("tabletop.core")
               for m in MODULES)  # tabletop.native: which build of the core and games runs (docs/architecture.md)


def test_the_graph_sees_imports_inside_functions_and_by_name() -> None:
    edges = graph()
    assert edges["tabletop.rl"]["tabletop.rl.aec"] == "import"  # inside __getattr__
    assert edges["tabletop.cli.main"]["tabletop.cli.serve"] == "by name"  # import_module("...")
    assert edges["tabletop.cli.tui"]["tabletop.core"] == "import"  # the package run on the way to core.help
    assert not any(game_of(m) for m in edges["tabletop.agents.team"])  # the team agent reads the game's part
    assert "tabletop.spaces" in edges["tabletop.agents.policy"]
    assert not any(m == "tabletop.rl" or m.startswith("tabletop.rl.") for m in edges["tabletop.agents.policy"])
    assert {"tabletop.games.silos._fastenc", "tabletop.spaces._fastmask"} <= COMPILED
