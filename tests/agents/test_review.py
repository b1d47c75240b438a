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


def test_two_records_that_differ_only_in_what_the_seat_could_not_see_give_the_same_review_until_it_is_shown() -> None:
    """SiliconVania's secret bids: record B is record A with seat 0's first bid changed to another that seat 1 cannot
    tell apart, the same actions after it until the bids are shown, then played on. With the same seeds, seat 1's
    review is the same, value for value, at every decision before the step where B's difference reaches its view."""
    game = "siliconvania"
    a = _game(game, 2, 3, ["random", "random"]).record()
    state = tabletop.replay(a, upto=0)
    alt = None
    for k, text in enumerate(a["actions"]):
        if state.to_move == 0:
            seen = state.clone()
            seen.apply(text)
            for other in state.legal_actions():
                if other.text == text:
                    continue
                b_state = state.clone()
                b_state.apply(other)
                if b_state.view(1) == seen.view(1) and b_state.log(1) == seen.log(1):
                    alt = (k, other.text)
                    break
        if alt is not None:
            break
        state.apply(text)
    assert alt is not None, "no secret decision of seat 0 in the game"
    k, other = alt
    # B: A up to k, the other bid, A's actions while seat 1 cannot tell the two apart, then played on at random
    sa, sb = tabletop.replay(a, upto=k + 1), tabletop.replay(a, upto=k)
    sb.apply(other)
    shown = None
    for step in range(k + 1, len(a["actions"])):
        if sb.view(1) != sa.view(1) or sb.log(1) != sa.log(1):
            shown = step
            break
        sa.apply(a["actions"][step])
        sb.apply(a["actions"][step])
    assert shown is not None and shown > k + 1
    agents = [make_agent("random", game, 50 + i) for i in range(2)]
    while not sb.is_over:
        sb.apply(agents[sb.to_move].act(SeatHandle(sb, sb.to_move)))  # type: ignore[index]
    b = sb.record()
    assert b["actions"][:k] == a["actions"][:k] and b["actions"][k] != a["actions"][k]
    ra, rb = review(a, 1, seconds=None, iters=20, seed=5), review(b, 1, seconds=None, iters=20, seed=5)
    keys = ("step", "played", "played_value", "best", "best_value", "loss")
    before = [[{x: getattr(d, x) for x in keys} for d in r.decisions if d.step < shown] for r in (ra, rb)]
    assert before[0] == before[1]
    assert any(k < d.step < shown for d in ra.decisions), "seat 1 decided nothing while the difference was hidden"
    assert [d.step for d in ra.decisions if d.step >= shown] != [] and ra.to_json() != rb.to_json()
