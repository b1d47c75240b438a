"""The command line never shows a traceback and never loses work (audit 21), shows a seat only what that seat saw
(audit 15), says what a saved unfinished game reveals (audit 16), and refuses records of another rules version."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import tabletop
from tabletop.cli import play as play_cli
from tabletop.cli.main import main

AI3 = ["--seats", "random,random,random"]


def _error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected a one-line error, got: {err!r}"
    assert lines[0].startswith("tabletop: error: ")
    return lines[0]


def _half_game(path: Path, game: str = "silencio", players: int = 3, seed: int = 8, moves: int = 6) -> Path:
    state = tabletop.new_game(game, players, seed)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return tabletop.save_record(state.record(), path)


# ---- paths are checked before the work -----------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["missing folder", "a folder", "under a file"])
def test_play_save_to_an_impossible_path_is_refused_before_the_game(tmp_path, capsys, where):
    (tmp_path / "file").write_text("x")
    path = {"missing folder": tmp_path / "nope" / "g.json", "a folder": tmp_path,
            "under a file": tmp_path / "file" / "g.json"}[where]
    assert main(["play", "silencio", *AI3, "--seed", "1", "--save", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "--save" in _error_line(err)
    assert "players:" not in out, "the game must not start"


def test_arena_out_and_plot_paths_and_image_format_are_checked_before_the_tournament(tmp_path, capsys):
    base = ["arena", "silencio", "--agents", "random", "--players", "2", "--games", "2", "--no-progress"]
    for extra, word in [(["--out", str(tmp_path / "no" / "x.jsonl")], "--out"), (["--out", str(tmp_path)], "--out"),
                        (["--plot", str(tmp_path / "no" / "p.png")], "--plot"),
                        (["--plot", str(tmp_path / "p.bogus")], "unknown image format")]:
        assert main([*base, *extra]) == 2
        out, err = capsys.readouterr()
        assert word in _error_line(err) and "games" not in out


def test_bench_refuses_zero_games_and_impossible_player_counts(capsys):
    for argv in (["bench", "silencio", "--games", "0"], ["bench", "silencio", "--players", "9", "--games", "1"]):
        assert main(argv) == 2
        _error_line(capsys.readouterr().err)


def test_play_refuses_zero_players_and_empty_seats_and_lists_human_among_agent_kinds(capsys):
    assert main(["play", "silencio", "--players", "0", *AI3[:0]]) == 2
    assert "not 0" in _error_line(capsys.readouterr().err)
    for seats in ("", ",", "random,,random"):
        assert main(["play", "silencio", "--seats", seats]) == 2
        assert "--seats" in _error_line(capsys.readouterr().err)
    assert main(["play", "silencio", "--seats", "human,wizard"]) == 2
    assert "known kinds: human, " in _error_line(capsys.readouterr().err)


def test_replay_refuses_a_seat_the_record_does_not_have(tmp_path, capsys):
    path = _half_game(tmp_path / "g.json")
    for seat in ("7", "3", "-1"):
        assert main(["replay", str(path), "--seat", seat]) == 2
        assert "seats 0-2" in _error_line(capsys.readouterr().err)


# ---- a failure at the end keeps the work ---------------------------------------------------------------------------
def test_a_save_that_fails_at_the_end_keeps_the_record_in_a_fallback_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "g.json"
    real = play_cli.save_record

    def flaky(record, path):
        if Path(path) == target:
            raise PermissionError(13, "Permission denied", str(path))
        return real(record, path)

    monkeypatch.setattr(play_cli, "save_record", flaky)
    assert main(["play", "silencio", *AI3, "--seed", "2", "--save", str(target)]) == 0
    out = capsys.readouterr().out
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("tabletop-silencio-record-")]
    assert len(kept) == 1 and kept[0].name in out.replace("\n", "")
    assert tabletop.replay(json.loads(kept[0].read_text())).is_over


def test_an_arena_plot_that_fails_at_the_end_is_kept_in_a_fallback_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from tabletop.arena import plot

    real = plot.plot_result
    target = tmp_path / "p.png"

    def flaky(result, path):
        if Path(path) == target:
            raise OSError(28, "No space left on device")
        return real(result, path)

    monkeypatch.setattr(plot, "plot_result", flaky)
    assert main(["arena", "silencio", "--agents", "random", "--players", "2", "--games", "2", "--no-progress",
                 "--plot", str(target)]) == 0
    out, err = capsys.readouterr()
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("tabletop-arena-silencio")]
    assert len(kept) == 1 and kept[0].read_bytes()[:4] == b"\x89PNG"
    assert "No space left" in err and "plot written to" in out


# ---- end of input is `q`: the game is left unfinished, saved if asked, exit 0 --------------------------------------
@pytest.mark.parametrize("typed", ["", "q\n", "xyzzy\n"], ids=["end-of-input", "q", "nonsense-then-end"])
def test_leaving_a_game_at_a_prompt_exits_0_and_saves_where_asked(tmp_path, capsys, stdin, typed):
    stdin(typed)
    path = tmp_path / "left.json"
    assert main(["play", "silencio", "--seats", "human,random", "--seed", "3", "--save", str(path)]) == 0
    out = capsys.readouterr().out.replace("\n", " ")
    assert "game left unfinished" in out and str(path) in out.replace(" ", "")
    record = json.loads(path.read_text())
    assert not tabletop.replay(record).is_over


def test_end_of_input_at_the_save_prompt_leaves_the_game_unsaved_and_exits_0(tmp_path, capsys, stdin, monkeypatch):
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    monkeypatch.chdir(tmp_path)
    stdin("q\n")  # leaves the game; then the save prompt meets the end of input
    assert main(["play", "silencio", "--seats", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "save the record to" in out and "not saved" in out
    assert list(tmp_path.iterdir()) == []


def test_a_bad_path_at_the_save_prompt_is_explained_and_asked_again(tmp_path, capsys, stdin, monkeypatch):
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    stdin(f"q\n{tmp_path}\n{tmp_path / 'ok.json'}\n")
    assert main(["play", "silencio", "--seats", "human,random", "--seed", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "is a directory; give a file name" in out and (tmp_path / "ok.json").exists()


def test_end_of_input_at_the_replay_prompt_quits_with_0(tmp_path, capsys, stdin, monkeypatch):
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    path = _half_game(tmp_path / "g.json", "silos", 2, 1, 3)
    stdin("")
    assert main(["replay", str(path)]) == 0
    assert "after 0/3 actions" in capsys.readouterr().out


# ---- audit 16: what a saved unfinished game reveals is said where it is written ------------------------------------
def test_saving_an_unfinished_game_says_the_file_reveals_every_hand(tmp_path, capsys, stdin):
    stdin("q\n")
    path = tmp_path / "left.json"
    assert main(["play", "silencio", "--seats", "human,random", "--seed", "3", "--save", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "holds the seed and every secret action" in out and "every hand" in out and "--resume" in out


# ---- audit 15: the terminal shows a seat only what that seat saw ---------------------------------------------------
def test_replay_for_a_seat_shows_only_that_seats_log_never_a_secret_action(tmp_path, capsys, secret_bid_game):
    state = tabletop.new_game(secret_bid_game, 2, 1)
    state.apply("bid 3")
    path = tabletop.save_record(state.record(), tmp_path / "half.json")
    assert main(["replay", str(path), "--end", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "bid 3" not in out and "3" not in out.split("as P2 saw it")[-1]
    assert "last action, as P2 saw it: Player 1 bid (face down)" in out
    assert main(["replay", str(path), "--end", "--seat", "0"]) == 0
    assert "last action, as P1 saw it: You bid 3" in capsys.readouterr().out
    assert main(["replay", str(path), "--end"]) == 0  # a spectator
    out = capsys.readouterr().out
    assert "bid 3" not in out and "as a spectator saw it: Player 1 bid (face down)" in out
    state.apply("bid 1")
    path = tabletop.save_record(state.record(), tmp_path / "full.json")
    assert main(["replay", str(path), "--end", "--seat", "1"]) == 0
    assert "bids revealed: p0 3, p1 1" in capsys.readouterr().out


# ---- version policy (docs/versions.md) -----------------------------------------------------------------------------
def test_resume_and_replay_refuse_a_record_of_another_rules_version_naming_both(tmp_path, capsys):
    record = json.loads(_half_game(tmp_path / "g.json").read_text())
    record["version"] = "0-older"
    path = tabletop.save_record(record, tmp_path / "old.json")
    version = tabletop.game_info("silencio").version
    for argv in (["play", "silencio", "--resume", str(path), *AI3], ["replay", str(path)]):
        assert main(argv) == 2
        line = _error_line(capsys.readouterr().err)
        assert "'0-older'" in line and f"version {version!r}" in line


def test_an_arena_out_file_holds_records_that_are_refused_under_another_version(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert main(["arena", "silencio", "--agents", "random", "--players", "2", "--games", "2", "--no-progress",
                 "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    record = json.loads(lines[0])["record"]
    assert tabletop.replay(record).is_over
    record["version"] = "0-older"
    with pytest.raises(tabletop.InvalidRecord, match=r"'0-older'.*version"):
        tabletop.replay(record)


def test_errors_never_print_rich_markup_or_wrap(tmp_path, capsys):
    assert main(["play", "silencio", *AI3, "--option", "first_player=[/red] " + "x" * 300]) == 2
    line = _error_line(capsys.readouterr().err)
    assert "[/red]" in line and len(line) < 600
    assert os.environ.get("TABLETOP_DEBUG") is None


def test_an_arena_out_file_that_fills_up_keeps_every_record_in_a_fallback_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Path("/dev/full").exists(), "Linux's /dev/full: a device that is always full"
    assert main(["arena", "silencio", "--agents", "random", "--players", "2", "--games", "3", "--no-progress",
                 "--out", "/dev/full"]) == 0
    out, err = capsys.readouterr()
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("tabletop-arena-silencio")]
    assert len(kept) == 1 and "No space left" in err and kept[0].name in out.replace("\n", "")
    lines = kept[0].read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1, 2]
    assert all(tabletop.replay(json.loads(line)["record"]).is_over for line in lines)


def test_a_huge_answer_at_the_prompt_is_not_echoed_back(capsys, stdin):
    stdin("give " + "r" * 1_000_000 + "\n")
    assert main(["play", "silencio", "--seats", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "is not legal now" in out and len(out) < 20_000


def test_save_and_out_never_overwrite_an_existing_file_without_force(tmp_path, capsys):
    """Not at a terminal, an existing --save or --out file is refused before any game, naming --force; the file is
    unchanged; with --force it is written; a resumed game may be saved back to its own file."""
    path = tmp_path / "g.json"
    path.write_text("keep me")
    assert main(["play", "silencio", *AI3, "--seed", "1", "--save", str(path)]) == 2
    err = _error_line(capsys.readouterr().err)
    assert "--save" in err and "exists" in err and "--force" in err and path.read_text() == "keep me"
    out = tmp_path / "a.jsonl"
    out.write_text("keep me too")
    assert main(["arena", "silencio", "--agents", "random,random", "--players", "2", "--games", "1",
                 "--no-progress", "--out", str(out)]) == 2
    err = _error_line(capsys.readouterr().err)
    assert "--out" in err and "--force" in err and out.read_text() == "keep me too"
    assert main(["play", "silencio", *AI3, "--seed", "1", "--save", str(path), "--force"]) == 0
    assert tabletop.load_record(path)["game"] == "silencio"
