"""Which build of the engine runs: compiled by mypyc, or its pure-Python twin (issue 27, docs/performance.md).

The engine's modules (`tabletop.core` and every game folder's rules, views, samplers and AI, not its terminal or
text rendering: `COMPILED_DIRS`, `NOT_COMPILED`) are plain typed Python. `scripts/compile` compiles them with mypyc
into extension modules beside their sources (`state.py` and `state.cpython-311-x86_64-linux-gnu.so`), which Python
prefers when both are there. The two builds are the same code: the tests run on the compiled one, and the pure one
is checked against it action by action (tests/core/test_native.py).

Which one a process runs is decided once, when `tabletop` is first imported (`activate`):
- `TABLETOP_PURE=1` in the environment: pure, whatever is compiled;
- otherwise compiled when the stamp `native.stamp` a build writes last (dated when it started) exists and no
  compiled module's source is newer than it (an edited or checked-out `.py` makes the whole build stale, never half
  of it: compiled modules call one another natively, so they are used all together or not at all);
- otherwise pure.
While pure, a finder at the head of `sys.meta_path` loads each compiled module from its `.py`; so does it, in
either build, for a module an earlier build compiled and this one does not (`leftovers`). `tabletop bench`
prints which build runs (`describe()`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent
"""The `tabletop` package's folder."""
STAMP = ROOT / "native.stamp"
"""Written last by a build: the modules it compiled, one per line; dated when the build started."""
COMPILED_DIRS = ("core", "games/*", "agents")
"""The folders (under `ROOT`) whose modules are compiled: the core, the games, and the agents' searches."""
NOT_COMPILED = frozenset({"__init__.py", "tui.py", "render.py", "registry.py", "options.py", "record.py", "seat.py",
                          "base.py", "hints.py", "levels.py", "play.py", "policy.py", "review.py", "spec.py"})
"""The modules of those folders left as Python: packages' `__init__`; what draws a game in the terminal; the doors
through which a caller's arguments come in (`new_game`, options, records), which refuse a wrong type with a clear
error where compiled code would raise a bare TypeError at the call; and the seat handle, which is also made over
a game that is a State only by its methods (the terminal's game at a server table, `cli/remote.py`); of the agents,
all but the searches (ISMCTS, guided, the team's, the random agent): their specs, levels, hints, reviews, the game
loop and the trained policy (numpy). None of them is on a hot path: compiled code checks the type of what it is
given, and these take what duck typing allows."""
PURE_ENV = "TABLETOP_PURE"


def _modules(root: Path) -> list[Path]:
    """Every module of the compiled folders, in a fixed order."""
    return [p for pattern in COMPILED_DIRS for folder in sorted(root.glob(pattern))
            if (folder / "__init__.py").is_file() for p in sorted(folder.glob("*.py"))]


def sources(root: Path = ROOT) -> list[Path]:
    """The sources the compiled build is made of, in a fixed order."""
    return [p for p in _modules(root) if p.name not in NOT_COMPILED]


def leftovers(root: Path = ROOT) -> list[Path]:
    """Sources of the compiled folders that the build does not compile but that have a compiled module beside them,
    left by an earlier build that did (a checkout of another commit): never to be loaded."""
    return [p for p in _modules(root) if p.name in NOT_COMPILED and extension_of(p).exists()]


def module_name(path: Path, root: Path = ROOT) -> str:
    """`tabletop.games.silos.state` for `<root>/games/silos/state.py`."""
    return ".".join(("tabletop", *path.relative_to(root).with_suffix("").parts))


def extension_of(path: Path) -> Path:
    """The compiled module that stands for the source `path`."""
    return path.with_name(path.stem + importlib.machinery.EXTENSION_SUFFIXES[0])


@dataclass(frozen=True)
class Build:
    """What `activate` decided."""

    compiled: bool
    reason: str
    """Why, in a few words: "every engine module compiled by mypyc", "TABLETOP_PURE is set", ..."""

    def describe(self) -> str:
        return ("compiled (mypyc)" if self.compiled else "pure Python") + f": {self.reason}"


def check(root: Path = ROOT, environ: Mapping[str, str] | None = None) -> Build:
    """Which build `activate` would choose for the package at `root`."""
    env = os.environ if environ is None else environ
    if env.get(PURE_ENV, "").strip().lower() not in ("", "0", "no", "false"):
        return Build(False, f"{PURE_ENV} is set")
    try:
        stamp_time = (root / STAMP.name).stat().st_mtime
        listed = (root / STAMP.name).read_text(encoding="utf-8").split()
    except OSError:
        return Build(False, "not compiled (scripts/compile builds it)")
    paths = sources(root)
    if sorted(listed) != sorted(module_name(p, root) for p in paths):
        return Build(False, "the compiled build is not of these modules (scripts/compile rebuilds it)")
    for path in paths:
        try:
            if path.stat().st_mtime > stamp_time:
                return Build(False, f"{path.relative_to(root).as_posix()} changed since it was compiled "
                                    "(scripts/compile rebuilds it)")
            extension_of(path).stat()
        except OSError:
            return Build(False, f"{extension_of(path).name} is missing (scripts/compile rebuilds it)")
    return Build(True, "every engine module compiled by mypyc")


class _PureFinder(importlib.abc.MetaPathFinder):
    """Loads the engine's modules from their sources while compiled modules lie beside them."""

    def __init__(self, names: dict[str, Path]) -> None:
        self.names = names

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = self.names.get(name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(name, source)


BUILD: Build | None = None


def activate() -> Build:
    """Decide the build of this process once (see the module's doc); called by `import tabletop`."""
    global BUILD
    if BUILD is not None:
        return BUILD
    BUILD = check()
    stale = leftovers() + ([] if BUILD.compiled else [p for p in sources() if extension_of(p).exists()])
    if stale:
        sys.meta_path.insert(0, _PureFinder({module_name(p): p for p in stale}))
    return BUILD


def running_compiled() -> bool:
    """Whether the engine's modules this process has loaded are the compiled ones (what `activate` chose)."""
    from tabletop.core import state

    return not (state.__file__ or "").endswith(".py")


def describe() -> str:
    """A line for `tabletop bench`: "engine build: compiled (mypyc): every engine module compiled by mypyc"."""
    return f"engine build: {activate().describe()}"
