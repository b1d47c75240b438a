"""The `tabletop` command: games, play (AI and scripted human seats), save and replay, bench."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

import tabletop
from tabletop.agents import make_agent
from tabletop.cli import play as play_cli
from tabletop.cli.main import main
from tabletop.cli.options import parse_options
from tabletop.core import SeatHandle


def test_games_lists_every_game_with_its_options(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in tabletop.games():
        assert name in out
    assert "variant" in out and "tavern" in out


def test_play_ai_seats_saves_a_record_that_replays(tmp_path, capsys):
    path = tmp_path / "game.json"
    code = main(["play", "silencio", "--players", "3", "--seats", "heuristic,random,random", "--seed", "5",
                 "--option", "variant=tavern", "--save", str(path)])
    assert code == 0
    record = json.loads(path.read_text())
    assert record["game"] == "silencio" and record["options"]["variant"] == "tavern" and record["seed"] == 5
    state = tabletop.replay(record)
    assert state.is_over
    assert main(["replay", str(path), "--end"]) == 0
    assert "final scores" in capsys.readouterr().out


def test_play_refuses_unknown_options_and_seat_mismatch(capsys):
    assert main(["play", "silencio", "--seats", "random,random", "--option", "colour=blue"]) == 2
    assert "unknown option 'colour'" in capsys.readouterr().err
    assert main(["play", "silencio", "--players", "3", "--seats", "random,random"]) == 2
    assert main(["play", "silencio", "--seats", "random,wizard"]) == 2
    assert "unknown agent kind" in capsys.readouterr().err


def test_parse_options_uses_each_options_values():
    assert parse_options("silencio", ["variant=tavern", "first_player=2"]) == {"variant": "tavern", "first_player": 2}
    with pytest.raises(tabletop.InvalidOptions, match="allowed"):
        parse_options("silencio", ["variant=easy"])


def test_human_seat_takes_a_number_or_text_and_explains_refusals(monkeypatch):
    answers = iter(["xyzzy", "2"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers))
    console = Console(record=True, width=120)
    human = play_cli.HumanAgent(console, "silencio")
    state = tabletop.new_game("silencio", 3, 1)
    seat = SeatHandle(state, state.to_move)
    action = human.act(seat)
    assert action == state.legal_actions()[1]
    text = console.export_text()
    assert "is not legal now" in text and "Your hand" in text
    # the human sees only its own hand: another seat's cards never appear in the rendered table
    mine = set(state.view(state.to_move)["hand"])
    hidden = {c for p in range(3) if p != state.to_move for c in state.snapshot()["hands"][p]}
    from tabletop.games.silencio.notation import card_text
    for c in hidden:
        if card_text(c) not in mine and card_text(c) not in state.view(state.to_move)["oracle"]:
            assert f" {card_text(c)} " not in text.split("Your hand")[1].splitlines()[0] + " "


def test_bench_reports_games_decisions_and_clones(capsys):
    assert main(["bench", "silencio", "--players", "2", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "µs/decision" in out and "silencio 2p" in out


def test_play_resume_continues_a_saved_unfinished_game(tmp_path, capsys):
    state = tabletop.new_game("silencio", 3, 8)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    path = tabletop.save_record(state.record(), tmp_path / "half.json")
    out = tmp_path / "full.json"
    assert main(["play", "silencio", "--resume", str(path), "--seats", "random,random,random", "--save", str(out)]) == 0
    full = json.loads(out.read_text())
    assert full["actions"][:6] == state.history and len(full["actions"]) > 6
    assert tabletop.replay(full).is_over
    assert main(["play", "silos", "--resume", str(path), "--seats", "random,random,random"]) == 2
    assert "not of silos" in capsys.readouterr().err
    assert main(["play", "silencio", "--resume", str(out), "--seats", "random,random,random"]) == 2
    assert "already over" in capsys.readouterr().err


# ---- the plain prompt takes the app's words as commands: help, rules, history, undo ------------------------------
def test_plain_prompt_help_rules_and_history_are_commands_not_refusals(monkeypatch):
    from tabletop.core.help import explain, game_help

    answers = iter(["help", "help 1", "rules", "history", "1"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers))
    console = Console(record=True, width=200)
    state = tabletop.new_game("silos", 2, 1)
    human = play_cli.HumanAgent(console, "silos", undoable=state.undoable)
    seat = SeatHandle(state, state.to_move)
    first = play_cli.menu_order(state.legal_actions())[0]
    assert human.act(seat) == first
    text = console.export_text()
    assert "not legal now" not in text
    h = game_help("silos")
    assert h["rules"][0]["text"][:60] in text and explain(h, first.text) in text and "history" in text


def test_plain_undo_takes_back_your_last_action_only_while_the_core_allows_it(monkeypatch):
    state = tabletop.new_game("silos", 2, 3)
    state.track_undo()
    while not (state.history and state.to_move is not None and state.undoable(state.to_move) > 0):
        state.apply(state.legal_actions()[0])
    mine = list(state.history)
    answers = iter(["undo", "q"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers))
    console = Console(record=True, width=200)
    human = play_cli.HumanAgent(console, "silos", undoable=state.undoable)
    box = [state]
    with pytest.raises(play_cli.LeaveGame):
        play_cli.play_plain(box, [human, human], lambda *a: None)
    assert box[0].history == mine[:-1]
    # right after another seat acted, nothing is taken back and the state is unchanged
    other = tabletop.new_game("silos", 2, 3)
    other.track_undo()
    other.apply(other.legal_actions()[0])
    answers2 = iter(["undo", "q"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers2))
    human2 = play_cli.HumanAgent(console, "silos", undoable=other.undoable, undo_refusal=other.undo_refusal)
    box2 = [other]
    with pytest.raises(play_cli.LeaveGame):
        play_cli.play_plain(box2, [human2, human2], lambda *a: None)
    said = " ".join(console.export_text().split())
    assert len(box2[0].history) == 1 and "nothing to take back: Player" in said and "has acted since" in said


def test_plain_concede_asks_to_confirm_then_concedes_and_the_ai_plays_the_seat_on(monkeypatch):
    # three players: a "no" keeps the game as it is; "yes" concedes, the AI (medium) plays the seat to the end
    state = tabletop.new_game("silos", 3, 4)
    answers = iter(["concede", "no", "concede", "yes"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers))
    console = Console(record=True, width=200)
    human = play_cli.HumanAgent(console, "silos", concede_refusal=state.concede_refusal)
    others = [make_agent("random", "silos", i) for i in (1, 2)]
    box = [state]
    end = play_cli.play_plain(box, [human, *others], lambda *a: None)
    assert end.is_over and end.conceded == [0] and end.places()[0] == 3
    assert end.history.count("concede p0") == 1
    # a cooperative game refuses it and says why; nothing changes
    coop = tabletop.new_game("silencio", 2, 1)
    answers2 = iter(["concede", "q"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers2))
    human2 = play_cli.HumanAgent(console, "silencio", concede_refusal=coop.concede_refusal)
    with pytest.raises(play_cli.LeaveGame):
        play_cli.play_plain([coop], [human2, human2], lambda *a: None)
    said = " ".join(console.export_text().split())
    assert "no conceding: Silencio is cooperative" in said and coop.history == []


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("human,random", ["human", "random"]),
        ("human,ismcts:iters=20,rollout=heuristic,random", ["human", "ismcts:iters=20,rollout=heuristic", "random"]),
        ("human;ismcts:iters=5;guided:iters=9,pw=1.5", ["human", "ismcts:iters=5", "guided:iters=9,pw=1.5"]),
    ],
)
def test_play_seats_take_specs_with_parameters_as_the_arena_does(text, specs):
    from tabletop.cli.arena import split_specs
    from tabletop.cli.play import check_seats

    assert check_seats(text) == specs == split_specs(text)


def test_a_seats_list_with_an_empty_seat_is_refused_saying_so():
    from tabletop.cli.common import Refused
    from tabletop.cli.play import check_seats

    with pytest.raises(Refused, match="empty seat"):
        check_seats("human,,random")
    with pytest.raises(Refused, match="empty seat"):
        check_seats("human;;random")


def test_games_fits_80_columns_without_splitting_a_word(capsys, monkeypatch):
    """`tabletop games` at 80 columns: no line is wider, and every word of every summary and option text is whole
    on one line (rich wraps between words)."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    words = {w.strip(".,;:()") for w in out.split()}
    for name in tabletop.games():
        info = tabletop.game_info(name)
        for text in [info.summary, *(o.doc for o in info.options)]:
            assert all(w.strip(".,;:()") in words for w in text.split()), text
    assert "0 (P1)" in out and "0 (p0)" not in out  # Silencio's first player, seats counted from 1
    assert len(lines) < 47


def test_a_menu_names_the_seat_an_action_names_in_the_notation():
    """`give r5 to p1` keeps its text (the notation) and has who p1 is beside it, seats from 1 as labelled."""
    from rich.console import Console

    from tabletop.cli.play import menu
    from tabletop.core import Action
    from tabletop.core.seatnames import seat_note

    legal = [Action("choose", ("0",), "choose p0"), Action("choose", ("2",), "choose p2"),
             Action("oracle", ("r5", "1"), "oracle r5 to p1"), Action("skip", (), "skip")]
    console = Console(width=100, record=True, color_system=None)
    console.print(menu(legal, 3, 0))
    lines = [" ".join(line.split()) for line in console.export_text().splitlines()]
    assert lines == ["1 choose p0 (P1 (you))", "2 choose p2 (P3)", "3 oracle r5 to p1 (P2)", "4 skip"]
    assert seat_note("choose p0", 3, 0) == "P1 (you)" and seat_note("play r5", 3, 0) == ""
