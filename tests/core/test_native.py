"""The compiled engine and its pure-Python twin (src/tabletop/native.py, issue 27): the same games, action by action,
whichever build a process runs; the build that runs is the one reported; a stale build is never half used."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tabletop
from tabletop import native
from tabletop.core import Rng

GAMES_PER_CASE = 3
EXPECT = os.environ.get("TABLETOP_EXPECT_BUILD", "")
"""Set by .ci/run: "compiled" for the whole suite, "pure" for its run of the pure twin."""


def _digests(cases: list[tuple[str, int, dict[str, object]]], games: int) -> list[str]:
    """Per case, a digest of `games` seeded random games: each decision's legal actions and choice, every seat's
    view and log every 7 decisions and at the end, the scores, the winners, a record replayed and a sample."""
    out = []
    for game, players, options in cases:
        h = hashlib.sha256()
        for seed in range(games):
            s = tabletop.new_game(game, players, seed, options)
            rng = Rng(seed + 1)
            step = 0
            while not s.is_over:
                legal = s.legal_actions()
                act = legal[rng.below(len(legal))]
                h.update(("|".join(a.text for a in legal) + ">" + act.text).encode())
                if step % 7 == 0:
                    for seat in [*range(players), None]:
                        h.update(json.dumps([s.view(seat), s.log(seat)], sort_keys=True, default=str).encode())
                s.apply(act)
                step += 1
            views = [s.view(seat) for seat in [*range(players), None]]
            again = tabletop.replay(s.record())
            h.update(json.dumps([views, s.scores(), s.winners(), again.history == s.history,
                                 s.sample(0, seed).view(0)], sort_keys=True, default=str).encode())
        out.append(f"{game}-{players}p-{sorted(options.items())}: {h.hexdigest()}")
    return out


def _search_digests() -> list[str]:
    """Per game, ISMCTS and guided ISMCTS run a fixed number of iterations from a fixed position: every legal
    action's (value, visits) at the root, to the last bit of the float."""
    from tabletop.agents import guided, ismcts
    from tabletop.core import SeatHandle

    out = []
    for game, players in (("silos", 3), ("siliconvania", 3), ("silencio", 3)):
        s = tabletop.new_game(game, players, 11)
        rng = Rng(5)
        for _ in range(9):
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        seat = SeatHandle(s, s.to_move)
        for name, search in (("ismcts", ismcts.Search(seat, ismcts.make_rollout("random", game, 1), 7)),
                             ("guided", guided.GuidedSearch(seat, 7))):
            search.run(60)
            stats = [(a.text, search.action_value(a)) for a in s.legal_actions()]
            out.append(f"{game} {name}: {[(t, v.hex(), n) for t, (v, n) in stats]}")
    return out


def test_the_pure_twin_searches_iteration_for_iteration_as_the_build_that_runs_here():
    here = _search_digests()
    twin = _run_pure(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
        from test_native import _search_digests
        print("\\n".join(_search_digests()))
    """).splitlines()
    assert len(here) == 6 and twin == here


def _cases() -> list[tuple[str, int, dict[str, object]]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from conformance.harness import all_cases

    return [c for c in all_cases() if c[0] in ("silos", "silencio", "siliconvania")]


def _run_pure(code: str) -> str:
    env = {**os.environ, native.PURE_ENV: "1"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=600, cwd=Path(__file__).resolve().parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_pure_twin_plays_every_game_action_for_action_as_the_build_that_runs_here():
    cases = _cases()
    assert {c[0] for c in cases} == {"silos", "silencio", "siliconvania"} and len(cases) >= 12
    here = _digests(cases, GAMES_PER_CASE)
    twin = _run_pure(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
        from tabletop import native
        from test_native import _cases, _digests
        assert not native.running_compiled(), native.describe()
        print("\\n".join(_digests(_cases(), {GAMES_PER_CASE})))
    """).splitlines()
    assert twin == here


def test_the_build_that_runs_is_the_one_reported_and_the_one_ci_asked_for():
    build = native.activate()
    assert build.compiled == native.running_compiled(), build.describe()
    loaded = [m for m in sys.modules if m.startswith(("tabletop.core.", "tabletop.games."))]
    names = {native.module_name(p) for p in native.sources()}
    for name in loaded:
        module = sys.modules[name]
        if name in names and getattr(module, "__file__", None):
            assert module.__file__.endswith(".py") != build.compiled, (name, module.__file__)
    if EXPECT:
        assert EXPECT in ("compiled", "pure"), EXPECT
        assert build.compiled == (EXPECT == "compiled"), build.describe()


def test_with_tabletop_pure_set_every_engine_module_loads_from_its_source():
    out = _run_pure("""
        import importlib
        from tabletop import native
        names = [native.module_name(p) for p in native.sources()]
        files = [importlib.import_module(n).__file__ for n in names]
        print(native.describe())
        print(sum(f.endswith(".py") for f in files), len(files))
    """).splitlines()
    assert out[0] == "engine build: pure Python: TABLETOP_PURE is set"
    done, total = map(int, out[1].split())
    assert done == total >= 40


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "tabletop"
    for rel in ("core/__init__.py", "core/state.py", "core/tui.py", "games/__init__.py", "games/g/__init__.py",
                "games/g/rules.py", "games/g/render.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")
    return root


def _compile(root: Path) -> None:
    for p in native.sources(root):
        native.extension_of(p).write_bytes(b"")
    stamp = root / native.STAMP.name
    stamp.write_text("".join(native.module_name(p, root) + "\n" for p in native.sources(root)))
    later = max(p.stat().st_mtime for p in native.sources(root)) + 10
    os.utime(stamp, (later, later))


def test_a_build_is_used_whole_or_not_at_all(tmp_path: Path):
    root = _tree(tmp_path)
    assert [native.module_name(p, root) for p in native.sources(root)] == ["tabletop.core.state",
                                                                          "tabletop.games.g.rules"]
    assert native.check(root, {}).reason == "not compiled (scripts/compile builds it)"
    _compile(root)
    assert native.check(root, {}).compiled
    assert not native.check(root, {native.PURE_ENV: "1"}).compiled
    assert native.check(root, {native.PURE_ENV: "0"}).compiled
    rules = root / "games/g/rules.py"
    newer = (root / native.STAMP.name).stat().st_mtime + 5
    os.utime(rules, (newer, newer))  # an edit, or a checkout, after the build
    stale = native.check(root, {})
    assert not stale.compiled and stale.reason.startswith("games/g/rules.py changed since it was compiled")
    _compile(root)
    native.extension_of(root / "core/state.py").unlink()
    assert "is missing" in native.check(root, {}).reason
    _compile(root)
    (root / "games/g/tasks.py").write_text("y = 2\n")  # a new module the build does not have
    assert not native.check(root, {}).compiled


def test_a_module_an_earlier_build_compiled_is_loaded_from_its_source(tmp_path: Path):
    root = _tree(tmp_path)
    _compile(root)
    assert native.leftovers(root) == []
    tui = root / "core/tui.py"
    native.extension_of(tui).write_bytes(b"")  # compiled by an older build, which compiled the terminal's drawing
    assert native.leftovers(root) == [tui]
    assert native.check(root, {}).compiled  # the build itself is whole; the leftover is only never loaded
    spec = native._PureFinder({"tabletop.core.tui": tui}).find_spec("tabletop.core.tui")
    assert spec is not None and spec.origin == str(tui)


@pytest.mark.parametrize("name", ["tui.py", "render.py", "registry.py", "options.py", "record.py", "seat.py"])
def test_the_terminal_drawing_and_the_doors_for_callers_arguments_stay_python(name):
    assert name in native.NOT_COMPILED
    assert not any(p.name == name for p in native.sources())


def test_the_build_match_plays_the_compiled_build_against_a_pure_child_to_the_end():
    """scripts/build_match.py (the issue's `hard` against today's `hard`): a game where the pure twin's seat is a child
    process keeping its own copy of the game; on the compiled build it plays to the end, on the pure one it refuses."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "build_match.py"
    run = subprocess.run([sys.executable, str(script), "--game", "silos", "--games", "2", "--seconds", "0.005",
                          "--jobs", "1", "--json", "/dev/stdout"], capture_output=True, text=True, timeout=300)
    if native.running_compiled():
        assert run.returncode == 0, run.stderr[-2000:]
        got = json.loads(run.stdout[run.stdout.rindex('{"game"'):])
        assert got["games"] == 2 and got["compiled_share"] in (0.0, 0.25, 0.5, 0.75, 1.0)
        assert got["decisions_per_game"] > 20
    else:
        assert run.returncode != 0 and "must run the compiled build" in run.stderr
