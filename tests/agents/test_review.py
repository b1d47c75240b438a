"""The review of a seat's finished game (`tabletop.agents.review`, `tabletop review`): every decision valued from
what the seat knew then, the move played always searched, the largest losses marked as mistakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tabletop
from tabletop.agents import make_agent
from tabletop.agents.review import ReviewRefused, positions, review, review_positions
from tabletop.cli.main import main
from tabletop.core import SeatHandle, save_record
from tabletop.games.silencio import SilencioState

FULL = list(range(2, 9))


def _game(game: str, players: int, seed: int, specs: list[str]) -> tabletop.State:
    state = tabletop.new_game(game, players, seed)
    agents = [make_agent(spec, game, seed + i) for i, spec in enumerate(specs)]
    while not state.is_over:
        p = state.to_move
        assert p is not None
        state.apply(agents[p].act(SeatHandle(state, p)))
    return state


def test_a_known_blunder_is_marked_as_a_mistake_with_the_better_move_and_its_reason() -> None:
    # Silencio, 2 players, every shrine dark: p0 holds r6 and r7 on a red row at 5, p1 holds nothing. r6 then r7 is
    # a perfect game; r7 first leaves r6 unplayable for good (and the team convention would never play it).
    s = SilencioState.position(2, [["r6", "r7"], []], rows={"red": [2, 3, 4, 5], "blue": FULL, "yellow": FULL,
                                                            "green": FULL}, deck=(), options={"dark_shrines": "all"})
    assert [a.text for a in s.legal_actions()] == ["play r6", "play r7"]
    bad = review_positions("silencio", 0, [(0, s, "play r7")], None, 200, cooperative=True)
    d = bad.decisions[0]
    assert d.mistake and d.best == "play r6" and d.loss > 0.5 and d.played_score == -1.0 and d.best_score == 0.0
    assert "cards left" in d.reason and "-0.0" not in d.reason
    good = review_positions("silencio", 0, [(0, s, "play r6")], None, 200, cooperative=True)
    assert not good.decisions[0].mistake and good.decisions[0].best == "play r6" and good.decisions[0].loss == 0


@pytest.mark.parametrize(("game", "players"), [("silos", 2), ("silencio", 3), ("siliconvania", 2)])
def test_a_review_reads_only_what_the_seat_could_know_then(game: str, players: int) -> None:
    """Each position replaced by a sample of it for the seat (other hands and the future redrawn): the same
    review, value for value, so nothing the seat could not see reached it."""
    record = _game(game, players, 3, ["heuristic"] * players).record()
    steps = list(positions(record, 1))[:12]
    real = review_positions(game, 1, steps, None, 25, seed=4)
    sampled = [(step, state.sample(1, 99 + step), text) for step, state, text in steps]
    assert any(s.snapshot() != t.snapshot() for (_, s, _), (_, t, _) in zip(steps, sampled, strict=True))
    assert review_positions(game, 1, sampled, None, 25, seed=4).to_json() == real.to_json()


def test_a_review_covers_every_decision_of_the_seat_and_refuses_a_game_not_over() -> None:
    state = _game("silos", 2, 7, ["heuristic", "random"])
    record = state.record()
    r = review(record, 1, seconds=None, iters=8)
    mine = [i for i, _ in enumerate(record["actions"]) if i in {d.step for d in r.decisions}]
    assert len(r.decisions) == len(mine) == sum(1 for _ in positions(record, 1)) > 20
    assert all(0 <= d.played_value <= 1 and d.best_value >= d.played_value - 1e-12 for d in r.decisions)
    assert r.measure == "win chance" and r.curve[0][0] == r.decisions[0].step
    assert review(record, 1, seconds=None, iters=8).to_json() == r.to_json()  # reproducible from its seed
    live = dict(record, actions=record["actions"][:30])
    with pytest.raises(ReviewRefused, match="not over"):
        review(live, 0, seconds=None, iters=5)
    with pytest.raises(ReviewRefused, match="seat must be one of 0-1"):
        review(record, 2, seconds=None, iters=5)


def test_tabletop_review_prints_the_table_and_writes_the_graph_and_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _game("silencio", 3, 5, ["heuristic", "random", "heuristic"])
    path = tmp_path / "game.json"
    save_record(state.record(), path)
    assert main(["review", str(path), "--seat", "1", "--seconds", "0", "--iters", "20",
                 "--plot", str(tmp_path / "r.png"), "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Review of" in out and "team result" in out and "decision by decision" in out
    assert (tmp_path / "r.png").stat().st_size > 5000
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["seat"] == 1 and data["decisions"] and data["measure"] == "team result"
    arena = tmp_path / "arena.jsonl"
    arena.write_text("".join(json.dumps({"index": i, "specs": [], "record": state.record()}) + "\n" for i in range(2)))
    assert main(["review", str(arena), "--seat", "0", "--seconds", "0", "--iters", "5"]) == 2
    assert "--game 1..2" in capsys.readouterr().err
    assert main(["review", str(arena), "--seat", "0", "--game", "2", "--seconds", "0", "--iters", "5"]) == 0
    assert main(["review", str(path), "--seat", "0", "--seconds", "0"]) == 2
    assert "needs --iters" in capsys.readouterr().err
