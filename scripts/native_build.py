"""Compile the engine with mypyc, in place beside its sources (run by scripts/compile; see src/tabletop/native.py).

    .venv/bin/python scripts/native_build.py [--jobs N] [--force] [--quiet] [--verbose] [--check]

Does nothing when the compiled build is current (`tabletop.native.check`). Otherwise removes the stamp first (so no
process takes a half-written build for a whole one), compiles every module of `tabletop.native.sources()` (one
extension per module, `--jobs` at a time; mypyc rewrites only the C files whose code changed, and only those are
compiled again), and writes the stamp last, dated when the build started, so that a source edited while it ran
makes it stale at once. The C files and objects are kept in `.venv/native-build`.
One build at a time: another one started meanwhile leaves it to the first (a lock in that folder).
Exit status: 0 built, current or left to a running build; 1 the build failed (the pure build keeps running);
2 mypyc or a C compiler is missing.
"""

from __future__ import annotations

import argparse
import fcntl
import logging
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _load_native():  # type: ignore[no-untyped-def]
    """`tabletop.native` on its own, without importing the package (which would import the engine)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tabletop_native_rules", REPO / "src" / "tabletop" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


native = _load_native()

BUILD_DIR = REPO / ".venv" / "native-build"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="extensions compiled at once")
    parser.add_argument("--force", action="store_true", help="build even if the compiled build is current")
    parser.add_argument("--quiet", action="store_true", help="print only failures")
    parser.add_argument("--verbose", action="store_true", help="print mypyc's and the compiler's commands")
    parser.add_argument("--check", action="store_true", help="build nothing: exit 0 if current, 1 if not")
    args = parser.parse_args(argv)
    say = (lambda *_: None) if args.quiet else (lambda *a: print(*a, flush=True))
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    current = native.check(environ=env).compiled
    if args.check:
        return 0 if current else 1
    for old in native.leftovers():  # compiled by an earlier build, not by this one (never loaded): removed
        for lib in [*old.parent.glob(f"{old.stem}.*.so"), *old.parent.glob(f"{old.stem}__mypyc.*.so")]:
            lib.unlink(missing_ok=True)
    if current and not args.force:
        return 0  # nothing to say
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    lock = open(BUILD_DIR / "lock", "w")  # noqa: SIM115 (held until the process ends)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        say("another build of the compiled engine is running; this one leaves it to it")
        return 0
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not installed (it comes with mypy: pip install mypy); the pure-Python engine runs",
              file=sys.stderr)
        return 2
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        print(f"no C compiler ({compiler}); the pure-Python engine runs", file=sys.stderr)
        return 2
    from setuptools import Distribution

    native.STAMP.unlink(missing_ok=True)

    started = time.time()  # before mypyc reads any source
    paths = native.sources()
    t0 = time.monotonic()
    say(f"compiling the engine with mypyc ({len(paths)} modules, {args.jobs} at a time) ...")
    os.chdir(REPO)
    try:
        extensions = mypycify([p.relative_to(REPO).as_posix() for p in paths], opt_level="3", separate=True,
                              target_dir=str(BUILD_DIR / "c"))
        dist = Distribution({"name": "tabletop-native", "ext_modules": extensions, "package_dir": {"": "src"},
                             "script_name": "native_build.py"})
        dist.parse_config_files([])  # setup.cfg is not read: its options are not this build's
        build_ext = dist.get_command_obj("build_ext")
        build_ext.inplace = True  # type: ignore[attr-defined]
        build_ext.build_temp = str(BUILD_DIR / "temp")  # type: ignore[attr-defined]
        build_ext.build_lib = str(BUILD_DIR / "lib")  # type: ignore[attr-defined]
        build_ext.parallel = max(1, args.jobs)  # type: ignore[attr-defined]
        if args.verbose:
            logging.basicConfig(level=logging.INFO, format="%(message)s")  # setuptools logs each command
        dist.run_command("build_ext")
    except (SystemExit, Exception) as e:  # mypyc reports type errors by SystemExit; a compiler error raises
        print(f"compiling the engine failed ({e}); the pure-Python engine runs", file=sys.stderr)
        return 1
    native.STAMP.write_text("".join(native.module_name(p) + "\n" for p in paths), encoding="utf-8")
    os.utime(native.STAMP, (started, started))  # the build's start: a source edited while it ran is newer
    say(f"compiled the engine in {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
