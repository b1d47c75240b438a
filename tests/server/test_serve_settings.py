"""A server setting that is not a valid value stops `tabletop serve` with a message naming the variable and what it
takes (exit status 2), not an "internal error" (issue 20: bad input gets a clear error, never a traceback)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .proc import SERVE, free_port


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("TABLETOP_MAX_BODY_BYTES", "abc", "valid integer"),
    ("TABLETOP_GAMES_PER_HOUR", "-1", "greater than or equal to 0"),
])
def test_a_bad_setting_is_named_and_the_server_does_not_start(variable: str, value: str, says: str,
                                                              tmp_path: object) -> None:
    r = subprocess.run([sys.executable, str(SERVE), "serve", "--port", str(free_port()), "--db",
                        f"sqlite:///{tmp_path}/db.sqlite3"], env={**os.environ, variable: value, "COLUMNS": "200"},
                       capture_output=True, text=True, timeout=60)
    out = r.stdout + r.stderr
    assert r.returncode == 2, out
    assert variable in out and says in out and repr(value) in out, out
    assert "internal error" not in out and "Traceback" not in out and "Open http" not in out


def test_without_its_extra_serve_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The install command is printed as it must be typed (rich markup would eat its `[server]`)."""
    from tabletop.cli.main import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed: importing it fails
    assert main(["serve", "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert "the server needs its extra: pip install 'tabletop[server]'" in err and "uvicorn" in err, err
