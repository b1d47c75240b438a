"""scripts/setup installs what its use needs (play: tabletop[native], server: tabletop[server,native], dev:
tabletop[dev], and for dev the compiled engine built) and records
it in its stamp, so that a use needing more installs the rest and one needing less installs nothing (issue 20,
point 14). Run here in a copy of the scripts whose .venv/bin/python only logs what it is asked to do."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python $*" >> "$(dirname "$0")/../../calls.log"
if [ -f "$(dirname "$0")/../../pip-fails" ]; then echo "ERROR: no matching distribution" >&2; exit 1; fi
if [ "$*" = "scripts/native_build.py --check" ] && [ -f "$(dirname "$0")/../../stale" ]; then exit 1; fi
"""
FAKE_BUILD_WEB = """#!/usr/bin/env bash
echo "build-web" >> "$(dirname "$0")/../calls.log"
"""
FAKE_TABLETOP = """#!/usr/bin/env bash
echo "tabletop $*"
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    c_sources = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "src/tabletop").rglob("*.[ch]"))]
    for name in ("pyproject.toml", "setup.py", *c_sources, "scripts/setup", "scripts/play",
                 "scripts/pycache.sh", "scripts/native-later.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    for name, text in ((".venv/bin/python", FAKE_PYTHON), (".venv/bin/tabletop", FAKE_TABLETOP),
                       ("scripts/build-web", FAKE_BUILD_WEB)):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
        (tmp_path / name).chmod(0o755)
    return tmp_path


def run(repo: Path, *argv: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run a script of the copy; its output and the calls it made (the log is emptied)."""
    env = {**os.environ, "PYTHON": sys.executable}
    out = subprocess.run([str(repo / "scripts" / argv[0]), *argv[1:]], capture_output=True, text=True, env=env,
                         timeout=60)
    log = repo / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return out, calls


def pip_installs(calls: list[str]) -> list[str]:
    return [c.split()[-1] for c in calls if c.startswith("python -m pip install")]


def test_each_use_installs_what_it_needs_once(repo: Path) -> None:
    out, calls = run(repo, "setup", "server")
    assert out.returncode == 0, out.stderr
    assert pip_installs(calls) == [".[server,native]"] and "build-web" in calls
    assert "installing tabletop[server,native] into .venv" in out.stdout
    assert "installed tabletop[server,native] in" in out.stdout
    assert not any("native_build.py" in c for c in calls)  # serving builds the compiled engine later
    assert (repo / ".venv/.installed").read_text().split()[1] == "server"

    for use in ("play", "server"):  # covered: nothing installed, nothing said
        out, calls = run(repo, "setup", use)
        assert out.returncode == 0 and out.stdout == "" and pip_installs(calls) == [], (use, out.stdout, calls)
    assert "build-web" not in run(repo, "setup", "play")[1]  # terminal play needs no browser client

    out, calls = run(repo, "setup", "dev")  # the tests after serving: the rest, and the compiled engine
    assert pip_installs(calls) == [".[dev]"] and "installing tabletop[dev]" in out.stdout
    assert "python scripts/native_build.py" in calls
    for use in ("play", "server", "dev"):
        assert pip_installs(run(repo, "setup", use)[1]) == [], use
    assert pip_installs(run(repo, "setup")[1]) == []  # no use named: dev


def test_a_change_of_the_install_files_installs_again(repo: Path) -> None:
    run(repo, "setup", "dev")
    with (repo / "pyproject.toml").open("a") as f:
        f.write("\n# changed\n")
    out, calls = run(repo, "setup", "play")
    assert pip_installs(calls) == [".[native]"] and "installing tabletop[native] into .venv" in out.stdout
    assert pip_installs(run(repo, "setup", "server")[1]) == [".[server,native]"]  # the stamp says play now


def test_a_stamp_of_the_old_setup_counts_as_dev(repo: Path) -> None:
    run(repo, "setup", "dev")
    stamp = repo / ".venv/.installed"
    stamp.write_text(stamp.read_text().split()[0] + "\n")  # the hash alone, as scripts/setup wrote before
    assert pip_installs(run(repo, "setup", "dev")[1]) == []


def test_a_failed_install_says_so_and_leaves_no_stamp(repo: Path) -> None:
    (repo / "pip-fails").touch()
    out, _ = run(repo, "setup", "server")
    assert out.returncode != 0
    assert "installing tabletop[server,native] failed" in out.stderr and "no matching distribution" in out.stderr
    assert not (repo / ".venv/.installed").exists()


def test_play_after_setup_says_nothing_of_a_first_run(repo: Path) -> None:
    for first in ("server", "dev"):
        run(repo, "setup", first)
        out, calls = run(repo, "play", "games")
        assert out.returncode == 0, out.stderr
        assert out.stdout == "tabletop games\n" and out.stderr == "" and pip_installs(calls) == [], (first, out)


def test_play_builds_a_stale_compiled_engine_in_the_background_and_waits_for_none_of_it(repo: Path) -> None:
    run(repo, "setup", "play")
    (repo / "stale").touch()
    env = {**os.environ, "PYTHON": sys.executable, "TABLETOP_NATIVE_DELAY": "0"}
    out = subprocess.run([str(repo / "scripts/play"), "games"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0 and out.stdout == "tabletop games\n" and out.stderr == "", out
    log = repo / "calls.log"
    for _ in range(100):  # the build starts after the program, in the background
        if "python scripts/native_build.py" in log.read_text().splitlines():
            break
        time.sleep(0.05)
    assert log.read_text().splitlines()[-2:] == ["python scripts/native_build.py --check",
                                                 "python scripts/native_build.py"]
    (repo / "stale").unlink()
    log.unlink()
    assert run(repo, "play", "games")[1] == ["python scripts/native_build.py --check"]  # current: nothing started


def test_a_first_play_sets_up_saying_so(repo: Path) -> None:
    out, calls = run(repo, "play", "games")
    assert pip_installs(calls) == [".[native]"]
    assert out.stdout.splitlines()[0] == ("installing tabletop[native] into .venv (pip's output: .venv/install.log)"
                                          " ...")


def test_the_dev_extra_holds_every_other_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    dev = set(extras["dev"])
    for name, requirements in extras.items():
        assert set(requirements) <= dev, (name, set(requirements) - dev)


def test_where_the_byte_code_cache_is_forbidden_the_scripts_keep_one_in_the_venv(tmp_path: Path) -> None:
    """scripts/pycache.sh (sourced by scripts/test, serve and play): with PYTHONDONTWRITEBYTECODE set, Python's cache
    is kept under .venv/pycache, so a module is compiled once and read after; without it nothing changes."""
    show = '. scripts/pycache.sh; echo "${PYTHONDONTWRITEBYTECODE-unset}|${PYTHONPYCACHEPREFIX-unset}"'
    forbidden = subprocess.run(["bash", "-c", show], cwd=ROOT, capture_output=True, text=True, check=True,
                               env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}).stdout.strip()
    assert forbidden == f"unset|{ROOT}/.venv/pycache"
    plain = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    allowed = subprocess.run(["bash", "-c", show], cwd=ROOT, capture_output=True, text=True, check=True,
                             env=plain).stdout.strip()
    assert allowed == "unset|unset"
    # what the prefix does: the first import writes the module's byte code there, never beside the source
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mod.py").write_text("X = 1\n")
    prefix = tmp_path / "pycache"
    subprocess.run([sys.executable, "-c", "import mod"], cwd=tmp_path / "src", check=True,
                   env={**plain, "PYTHONPYCACHEPREFIX": str(prefix)})
    assert list(prefix.rglob("mod.*.pyc")) and not (tmp_path / "src" / "__pycache__").exists()
