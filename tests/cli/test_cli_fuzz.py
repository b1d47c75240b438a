"""A fuzz test of the command line (audit 21's done-criterion): every subcommand with bad arguments, bad paths,
corrupt files and a closed stdin. Never a traceback; every refused argument or file is one line on stderr and exit
status 2; the end of input at a prompt is a clean exit 0. Runs in-process through `main(argv)`, plus a few runs of
the real `tabletop` entry point in a subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop
from conformance.harness import random_playout
from tabletop.cli.main import main

REFUSED, DONE = 2, 0


def _files(root: Path) -> dict[str, Path]:
    """Corrupt and valid record files, a folder, a missing file and a path under a file."""
    root.mkdir(parents=True, exist_ok=True)
    good = tabletop.new_game("silencio", 3, 8)
    for _ in range(4):
        good.apply(good.legal_actions()[0])
    record = good.record()
    over = random_playout(tabletop.new_game("silencio", 2, 1), 1)
    contents: dict[str, bytes] = {
        "half": json.dumps(record).encode(),
        "over": json.dumps(over.record()).encode(),
        "empty": b"",
        "not-json": b"tabletop record?",
        "non-utf-8": b"\xff\xfe\x00{" + bytes(range(128, 256)),
        "deep": b"[" * 50_000 + b"]" * 50_000,
        "long-number": json.dumps(dict(record, seed=0)).replace('"seed": 0', '"seed": ' + "9" * 5000).encode(),
        "list": b"[1, 2, 3]",
        "wrong-types": json.dumps(dict(record, players="3", actions="give r4")).encode(),
        "unknown-game": json.dumps(dict(record, game="chess")).encode(),
        "other-version": json.dumps(dict(record, version="0-older")).encode(),
        "bad-action": json.dumps(dict(record, actions=["xyzzy"])).encode(),
        "bad-options": json.dumps(dict(record, options={"first_player": 1.5})).encode(),
        "huge-name": json.dumps(dict(record, game="g" * 1_000_000)).encode(),
    }
    out = {name: root / f"{name}.json" for name in contents}
    for name, data in contents.items():
        out[name].write_bytes(data)
    (root / "a-file").write_text("x")
    out["folder"] = root
    out["missing"] = root / "missing.json"
    out["under-a-file"] = root / "a-file" / "x.json"
    out["missing-folder"] = root / "no" / "such" / "x.json"
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _files(tmp_path_factory.mktemp("fuzz"))


def run(argv: list[str], typed: str = "") -> tuple[int, str, str]:
    """`main(argv)` in-process with `typed` as the whole of stdin (then the end of input)."""
    out, err, old = io.StringIO(), io.StringIO(), (sys.stdin, sys.stdout, sys.stderr)
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(typed), out, err
    try:
        code = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def check(code: int, out: str, err: str, expected: int | None) -> None:
    both = out + err
    assert "Traceback" not in both and "internal error" not in both, both[-2000:]
    assert code in (DONE, REFUSED), (code, err)
    if expected is not None:
        assert code == expected, (code, err[-500:])
    if code == REFUSED:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tabletop: error: "), err
        assert len(lines[0]) <= 500


CORRUPT = ["empty", "not-json", "non-utf-8", "deep", "long-number", "list", "wrong-types", "unknown-game",
           "other-version", "bad-action", "bad-options", "huge-name", "folder", "missing", "under-a-file"]
BAD_OUT = ["folder", "under-a-file", "missing-folder"]
AI = "random,random,random"
ARENA = ["arena", "silencio", "--agents", "random", "--players", "2", "--games", "1", "--no-progress"]


def refused_cases(f: dict[str, Path]) -> list[list[str]]:
    cases: list[list[str]] = [
        [], ["nosuch"], ["games", "--bogus"], ["--bogus"],
        ["play"], ["play", "chess"], ["play", "silencio", "--players", "0"], ["play", "silencio", "--players", "-1"],
        ["play", "silencio", "--players", "9"], ["play", "silencio", "--players", "two"],
        ["play", "silencio", "--seats", ""], ["play", "silencio", "--seats", ","],
        ["play", "silencio", "--seats", "wizard"], ["play", "silencio", "--seats", "random", "--players", "3"],
        ["play", "silencio", "--seats", "human,ismcts:x=1"],
        ["play", "silencio", "--seats", AI, "--option", "colour=blue"],
        ["play", "silencio", "--seats", AI, "--option", "variant"],
        ["play", "silencio", "--seats", AI, "--option", "="],
        ["play", "silencio", "--seats", AI, "--option", "first_player=9"],
        ["play", "silos", "--seats", "random,random", "--option", "alternate_tiles=1,1"],
        ["play", "silencio", "--seats", AI, "--seed", "-1"], ["play", "silencio", "--seats", AI, "--seed", "1.5"],
        ["play", "silencio", "--seats", AI, "--resume", str(f["over"])],
        ["play", "silencio", "--seats", AI, "--resume", str(f["half"]), "--seed", "3"],
        ["play", "silos", "--seats", AI, "--resume", str(f["half"])],
        ["replay"], ["replay", str(f["half"]), "--seat", "7"], ["replay", str(f["half"]), "--seat", "x"],
        ["bench", "silencio", "--games", "0"], ["bench", "silencio", "--games", "-3"],
        ["bench", "silencio", "--players", "1", "--games", "1"], ["bench", "chess"],
        ["bench", "silencio", "--games", "1", "--seed", "-1"], ["bench", "silencio", "--option", "x=y"],
        [*ARENA[:2], "--agents", ""], [*ARENA[:2], "--agents", "wizard"], [*ARENA[:2], "--agents", "human"],
        [*ARENA[:2], "--agents", "ismcts:iters=abc"], [*ARENA[:2], "--agents", "random:x=1"],
        [*ARENA, "--games", "0"], [*ARENA, "--players", "0"], [*ARENA, "--players", "9"], [*ARENA, "--workers", "0"],
        [*ARENA, "--plot", str(f["folder"] / "p.nope")], [*ARENA, "--plot", str(f["folder"] / "p")],
        ["arena", "chess", "--agents", "random"],
    ]
    for name in CORRUPT:
        cases.append(["replay", str(f[name])])
        cases.append(["replay", str(f[name]), "--end", "--seat", "0"])
        cases.append(["play", "silencio", "--seats", AI, "--resume", str(f[name])])
    for name in BAD_OUT:
        cases.append(["play", "silencio", "--seats", AI, "--save", str(f[name])])
        cases.append([*ARENA, "--out", str(f[name])])
        cases.append([*ARENA, "--plot", str(f[name])])
    return cases


def test_every_refused_argument_or_file_is_one_line_and_status_2(files):
    cases = refused_cases(files)
    assert len(cases) >= 100
    for argv in cases:
        check(*run(argv), expected=REFUSED)


@pytest.mark.parametrize(
    ("argv", "typed"),
    [
        (["play", "silencio", "--seats", "human,random", "--seed", "1"], ""),
        (["play", "silos", "--seats", "random,human", "--seed", "1"], ""),
        (["play", "siliconvania", "--seats", "human,random,random", "--seed", "1"], "\n\n"),
        (["play", "silencio", "--seats", "human,random", "--seed", "1"], "q\n"),
        (["play", "silencio", "--seats", "human,random", "--seed", "1"], "1\n99\nxyzzy\n²\n" + "9" * 5000 + "\n"),
        (["games"], ""),
        (["--help"], ""),
        (["play", "--help"], ""),
    ],
    ids=["eof-at-once", "eof-second-seat", "blank-lines-then-eof", "q", "moves-then-eof", "games", "help",
         "play-help"],
)
def test_the_end_of_input_at_any_prompt_exits_0(argv, typed):
    check(*run(argv, typed), expected=DONE)


def test_the_end_of_input_at_any_prompt_saves_where_asked(files, tmp_path):
    saved = tmp_path / "s.json"
    code, out, err = run(["play", "silencio", "--seats", "human,human", "--seed", "4", "--save", str(saved)], "1\n")
    check(code, out, err, expected=DONE)
    assert len(tabletop.load_record(saved)["actions"]) == 1
    resumed = run(["play", "silencio", "--resume", str(saved), "--seats", "human,human"], "")
    check(*resumed, expected=DONE)


def test_interactive_prompts_meet_the_end_of_input_cleanly(files, monkeypatch, tmp_path):
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    monkeypatch.chdir(tmp_path)
    for argv, typed in [
        (["replay", str(files["half"])], ""),
        (["replay", str(files["half"]), "--seat", "2"], "\n\nb\n3\nzz\n²\n" + "9" * 5000 + "\n"),
        (["play", "silencio", "--seats", "human,random", "--seed", "2"], ""),
        (["play", "silencio", "--seats", "human,random", "--seed", "2"], "q\n"),
        (["play", "silencio", "--seats", "random,random", "--seed", "2"], ""),  # only the save prompt
    ]:
        check(*run(argv, typed), expected=DONE)
    assert list(tmp_path.iterdir()) == []


TOKENS = st.sampled_from([
    "--players", "--seats", "--seed", "--option", "--save", "--resume", "--end", "--seat", "--games", "--agents",
    "--out", "--plot", "--workers", "--verbose", "--no-progress", "0", "1", "2", "7", "-1", "", ",", "x", "human",
    "random", "random,random", "human,random", "variant=tavern", "first_player=3.0", "alternate_tiles=[True]",
    "colour=blue", "=", "silencio", "silos", "siliconvania", "chess", "\x00", "é", "[/red]", "%s", "9" * 50,
])
FILE_KEYS = st.sampled_from([*CORRUPT, "half", "over", "missing-folder"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["play", "replay", "bench", "arena", "games"]),
       game=st.sampled_from(["silencio", "silos", "siliconvania", "chess"]),
       tail=st.lists(st.one_of(TOKENS, FILE_KEYS.map(lambda k: f"@{k}")), max_size=6), typed=st.text(max_size=20))
def test_random_command_lines_never_show_a_traceback(files, command, game, tail, typed):
    argv = [command] if command == "games" else [command, game]
    argv += [str(files[t[1:]]) if t.startswith("@") else t for t in tail]
    if command == "replay" and len(argv) > 1:
        argv[1] = str(files["half"]) if game == "silencio" else argv[1]
    # keep every run short: few games, cheap agents, no worker processes
    if command == "bench":
        argv += ["--games", "1"]
    if command == "arena":
        argv = [a for a in argv if a != "--workers"] + ["--games", "1", "--no-progress"]
        if "--agents" not in argv:
            argv += ["--agents", "random"]
    if command == "play" and "--seats" not in argv and "--resume" not in argv:
        argv += ["--seats", "human,random"]
    check(*run(argv, typed), expected=None)


# ---- the real entry point, in a subprocess -------------------------------------------------------------------------
def _entry_point() -> list[str]:
    script = Path(sys.executable).parent / "tabletop"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from tabletop.cli.main import main; sys.exit(main())"]


def test_the_real_entry_point_never_shows_a_traceback(files, tmp_path):
    env = dict(os.environ, COLUMNS="100")
    saved = tmp_path / "closed-stdin.json"
    runs = [
        (["play", "silencio", "--seats", "human,random", "--seed", "5", "--save", str(saved)], DONE),
        (["replay", str(files["non-utf-8"])], REFUSED),
        (["play", "silencio", "--seats", ""], REFUSED),
        (["bench", "silencio", "--games", "zero"], REFUSED),
    ]
    for argv, expected in runs:
        p = subprocess.run([*_entry_point(), *argv], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           env=env, timeout=120, check=False)
        check(p.returncode, p.stdout, p.stderr, expected)
    assert not tabletop.replay(tabletop.load_record(saved)).is_over
