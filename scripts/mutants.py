"""Mutation testing for the rules and scoring modules of one game, against that game's tests.

Each mutant changes one site of one module (a comparison, a boolean operator, an arithmetic operator, an integer
or boolean constant, a `not`); the game's tests (tests/games/GAME and its golden records) then run against a copy
of the source tree that holds the mutant. A mutant that makes a test fail (or hang past the time limit) is killed;
one that passes every test survived: either a hole in the tests or an equivalent change. Survivors are written to
a JSON file with the changed line, for a test to kill each or a line saying why it is equivalent.

    scripts/mutants silos --mutants 100 --seed 1 --workers 2 --out mutants-silos.json
    scripts/mutants siliconvania --module scoring.py     # one module of the game only

See docs/mutation.md for the scores and the survivors found equivalent.

Not run in CI: 100 mutants of one game take a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = {  # per game: the modules that hold its rules and scoring (not its notation, data, view or agents)
    "silencio": ["rules.py", "effects.py"],
    "silos": ["state.py", "turn.py", "events.py", "powers.py", "expansions.py"],
    "siliconvania": ["rules.py", "steps.py", "decisions.py", "tasks.py", "scoring.py"],
}
SWAP_CMP: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
SWAP_BIN: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult}


@dataclass
class Mutant:
    module: str
    line: int
    kind: str
    before: str
    after: str
    index: int  # which site of the module, in ast.walk order
    status: str = ""
    seconds: float = 0.0


def _sites(tree: ast.AST) -> list[tuple[int, ast.AST, str]]:
    """Every mutable site as (walk index, node, kind)."""
    out: list[tuple[int, ast.AST, str]] = []
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }
    for k, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Compare) and type(node.ops[0]) in SWAP_CMP:
            out.append((k, node, "compare"))
        elif isinstance(node, ast.BoolOp):
            out.append((k, node, "boolop"))
        elif isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            out.append((k, node, "arith"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((k, node, "not"))
        elif (
            isinstance(node, ast.Constant)
            and id(node) not in docstrings
            and (isinstance(node.value, bool) or (isinstance(node.value, int) and abs(node.value) < 1000))
        ):
            out.append((k, node, "constant"))
    return out


def _mutate(source: str, index: int) -> tuple[str, str, str, int, str]:
    """The source with site `index` mutated: (new source, kind, old text, line, new text)."""
    tree = ast.parse(source)
    for k, node, kind in _sites(tree):
        if k != index:
            continue
        before = ast.unparse(node)
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            node.ops[0] = SWAP_CMP[type(node.ops[0])]()
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.BinOp):
            node.op = SWAP_BIN[type(node.op)]()
        elif isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                node.value = not v
            elif isinstance(v, int):
                node.value = v + 1 if v != 1 else 0
        if isinstance(node, ast.UnaryOp):  # `not x` -> `x`
            return ast.unparse(_replace_not(tree, node)), kind, before, line, ast.unparse(node.operand)
        return ast.unparse(tree), kind, before, line, ast.unparse(node)
    raise IndexError(index)


def _replace_not(tree: ast.AST, target: ast.UnaryOp) -> ast.AST:
    class Strip(ast.NodeTransformer):
        def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
            self.generic_visit(node)
            return node.operand if node is target else node

    new: ast.AST = Strip().visit(tree)
    return new


def plan(game: str, count: int, seed: int, modules: list[str] | None = None) -> list[Mutant]:
    """`count` mutants drawn at random (seeded) over the game's rules and scoring modules (or `modules` alone)."""
    pool: list[Mutant] = []
    for name in modules or MODULES[game]:
        path = ROOT / "src" / "tabletop" / "games" / game / name
        source = path.read_text(encoding="utf-8")
        for k, node, kind in _sites(ast.parse(source)):
            pool.append(Mutant(name, getattr(node, "lineno", 0), kind, "", "", k))
    rng = random.Random(seed)
    chosen = rng.sample(pool, min(count, len(pool)))
    chosen.sort(key=lambda m: (m.module, m.line, m.index))
    for m in chosen:
        source = (ROOT / "src" / "tabletop" / "games" / game / m.module).read_text(encoding="utf-8")
        _, m.kind, m.before, m.line, m.after = _mutate(source, m.index)
    return chosen


def survivors_of(game: str, path: Path) -> list[Mutant]:
    """The mutants of an earlier --out file, checked against today's source (the same sites must still mutate the
    same text: the line numbers may not have moved); ValueError if the file does not fit."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        mutants = [Mutant(**row) for row in rows]
    except (OSError, ValueError, TypeError) as e:
        raise ValueError(f"{path}: not an --out file of scripts/mutants ({e})") from None
    for m in mutants:
        if m.module not in MODULES[game]:
            raise ValueError(f"{path}: mutant of {m.module}, which is not a module of {game}")
        source = (ROOT / "src" / "tabletop" / "games" / game / m.module).read_text(encoding="utf-8")
        try:
            _, kind, before, line, after = _mutate(source, m.index)
        except IndexError:
            kind, before, line, after = "", "", 0, ""
        if (kind, before, line, after) != (m.kind, m.before, m.line, m.after):
            raise ValueError(f"{path}: {m.module}:{m.line} {m.before!r} -> {m.after!r} is no longer that site"
                             " (the source changed since): run all mutants again")
    return mutants


def _run(game: str, mutant: Mutant | None, timeout: float) -> tuple[str, float]:
    """Run the game's tests against a copy of src/ holding the mutant: 'killed', 'survived' or 'timeout'."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
        for name in MODULES[game]:  # unparsed even when unmutated, so that the baseline proves unparsing harmless
            path = src / "tabletop" / "games" / game / name
            text = path.read_text(encoding="utf-8")
            if mutant is not None and mutant.module == name:
                path.write_text(_mutate(text, mutant.index)[0], encoding="utf-8")
            else:
                path.write_text(ast.unparse(ast.parse(text)), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(src), PYTHONDONTWRITEBYTECODE="1")
        cmd = [
            sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
            f"tests/games/{game}", "tests/golden", "tests/privacy", "-k", game,
        ]
        start = time.monotonic()
        try:
            done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start
        status = {0: "survived", 1: "killed"}.get(done.returncode, f"error {done.returncode}")
        if mutant is None and status != "survived":
            sys.exit(f"the unmutated tests do not pass:\n{done.stdout.decode(errors='replace')[-2000:]}")
        if status.startswith("error") and b"Error" in done.stdout:
            status = "killed"  # a mutant that breaks import or collection is caught too
        return status, time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(MODULES))
    ap.add_argument("--mutants", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=None, help="JSON file for every mutant and its fate")
    ap.add_argument(
        "--module", action="append", default=None, metavar="FILE",
        help="mutate only this module of the game (repeatable; default: all of them)",
    )
    ap.add_argument(
        "--survivors-of", default=None, metavar="JSON",
        help="rerun only the survivors listed in an earlier --out file (same game and source), e.g. after new tests",
    )
    args = ap.parse_args(argv)
    if args.mutants < 1 or args.workers < 1:
        ap.error("--mutants and --workers must be at least 1")
    modules: list[str] = args.module or MODULES[args.game]
    unknown = sorted(set(modules) - set(MODULES[args.game]))
    if unknown:
        ap.error(f"{args.game} has no mutated module {', '.join(unknown)} (one of {', '.join(MODULES[args.game])})")
    earlier: list[Mutant] = []
    if args.survivors_of:
        try:
            earlier = survivors_of(args.game, Path(args.survivors_of))
        except ValueError as e:
            ap.error(str(e))
    _, base = _run(args.game, None, timeout=600)
    timeout = max(30.0, 5 * base)
    if args.survivors_of:
        mutants = [m for m in earlier if m.status == "survived"]
        for m in mutants:
            m.status, m.seconds = "", 0.0
        print(f"{args.game}: rerunning the {len(mutants)} survivors of {len(earlier)} mutants in {args.survivors_of};"
              f" tests take {base:.1f} s unmutated")
    else:
        mutants = plan(args.game, args.mutants, args.seed, modules)
        print(f"{args.game}: {len(mutants)} mutants of {', '.join(modules)}; tests take {base:.1f} s unmutated")

    def one(m: Mutant) -> Mutant:
        m.status, m.seconds = _run(args.game, m, timeout)
        mark = "." if m.status != "survived" else "S"
        print(mark, end="", flush=True)
        return m

    with ThreadPoolExecutor(args.workers) as pool:
        results = list(pool.map(one, mutants))
    print()
    survived = [m for m in results if m.status == "survived"]
    killed = len(results) - len(survived)
    slow = sum(m.status == "timeout" for m in results)  # counted as killed: a hang is caught, but say how many
    print(f"{args.game}: killed {killed}/{len(results)} ({100 * killed / len(results):.0f}%), survived {len(survived)}"
          f" ({slow} of the killed by the {timeout:.0f} s time limit)")
    for m in survived:
        print(f"  survived {m.module}:{m.line} [{m.kind}] {m.before!r} -> {m.after!r}")
    if earlier:  # the others were killed by the earlier run; tests only grew since, so they still are
        total = len(earlier) - len(survived)
        print(f"{args.game}: with the earlier run's kills, killed {total}/{len(earlier)}"
              f" ({100 * total / len(earlier):.0f}%), survived {len(survived)}")
        rerun = {(m.module, m.index): m for m in results}
        results = [rerun.get((m.module, m.index), m) for m in earlier]
    if args.out:
        Path(args.out).write_text(json.dumps([asdict(m) for m in results], indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
