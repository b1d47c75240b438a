"""The command line plays the fourth game like any other: listed by `tabletop games`, played at the terminal by a
person (line mode, drawn by the game's `render` part) against its heuristic, saved and replayed, and an arena."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import tabletop
from tabletop.cli.main import main


def test_tabletop_games_lists_the_fourth_game_with_its_option(nines: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "nines" in out and "Nines" in out and "hand" in out


def test_a_person_plays_the_fourth_game_at_the_terminal_and_the_record_replays(
        nines: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "nines.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\n1\n"))
    code = main(["play", nines, "--seats", "human,heuristic", "--seed", "4", "--option", "hand=3", "--plain",
                 "--save", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "your hand (p0)" in out and "Nines: points" in out  # the game's own render part drew the table
    record = json.loads(path.read_text())
    state = tabletop.replay(record)
    assert record["game"] == nines and state.is_over and len(record["actions"]) == 4
    assert main(["replay", str(path), "--end"]) == 0


def test_tabletop_arena_runs_on_the_fourth_game(nines: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "arena.jsonl"
    assert main(["arena", nines, "--agents", "heuristic,random", "--games", "10", "--out", str(out)]) == 0
    assert "heuristic" in capsys.readouterr().out
    assert len(out.read_text().splitlines()) == 10
