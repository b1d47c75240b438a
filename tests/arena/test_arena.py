"""The arena: seat rotation, places and fair win shares, Wilson intervals, openskill ratings, reproducibility,
JSON-lines records, Ctrl-C keeping finished games, and the `arena` command."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import tabletop
from tabletop.arena import (
    GameOutcome,
    derive_seed,
    lineup,
    places,
    run_arena,
    schedule,
    summarize,
    wilson,
    win_shares,
)
from tabletop.cli.arena import main as arena_main
from tabletop.cli.arena import split_specs
from tabletop.core import InvalidOptions

# ---- statistics on hand-made tournaments -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "n", "lo", "hi"),
    [
        (5, 10, 0.2366, 0.7634),  # textbook: p = 0.5, n = 10
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (70, 100, 0.6041, 0.7810),
        (0, 0, 0.0, 1.0),
    ],
)
def test_wilson_interval_matches_known_values(wins, n, lo, hi):
    got = wilson(wins, n)
    assert got == pytest.approx((lo, hi), abs=5e-4)


def test_wilson_interval_accepts_shared_wins_and_narrows_with_more_games():
    small, large = wilson(2.5, 10), wilson(25, 100)
    assert small[0] < 0.25 < small[1]
    assert large[1] - large[0] < small[1] - small[0]


@pytest.mark.parametrize(
    ("scores", "winners", "expected"),
    [
        ([3, 5, 5, 1], [1, 2], [3, 1, 1, 4]),  # tied winners share first place
        ([5, 5, 2], [1], [2, 1, 3]),  # a tie-break decided the winner
        ([-4, -4, -4], [], [1, 1, 1]),  # cooperative loss: everyone shares the place
        ([7, 2], [0], [1, 2]),
    ],
)
def test_places_put_winners_first_then_scores(scores, winners, expected):
    assert places(scores, winners) == expected


def test_a_shared_win_is_split_fairly():
    assert win_shares(4, [1, 3]) == [0.0, 0.5, 0.0, 0.5]
    assert win_shares(3, []) == [0.0, 0.0, 0.0]


def _outcome(i: int, specs: list[str], scores: list[float], winners: list[int]) -> GameOutcome:
    return GameOutcome(i, 0, specs, scores, winners, [2] * len(specs), [0.5] * len(specs))


def test_summary_of_a_hand_made_tournament():
    games = [
        _outcome(0, ["A", "B"], [10, 4], [0]),
        _outcome(1, ["B", "A"], [3, 9], [1]),
        _outcome(2, ["A", "B"], [8, 8], [0, 1]),  # a shared win
        _outcome(3, ["B", "A"], [7, 6], [0]),
    ]
    s = summarize(games, ["A", "B"], cooperative=False)
    a, b = (next(x for x in s.agents if x.spec == k) for k in "AB")
    assert (a.games, a.wins, b.wins) == (4, 2.5, 1.5)
    assert a.win_rate == 0.625
    assert a.win_ci == wilson(2.5, 4)
    assert a.mean_score == pytest.approx(33 / 4)
    assert a.mean_place == pytest.approx((1 + 1 + 1 + 2) / 4)
    assert b.mean_place == pytest.approx((2 + 2 + 1 + 1) / 4)
    assert a.mean_decision_seconds == pytest.approx(0.25)
    assert s.games == 4 and not s.cooperative


def test_ratings_move_towards_the_winner_and_grow_more_certain():
    games = [
        _outcome(
            i, ["A", "B"] if i % 2 == 0 else ["B", "A"], [1, 0] if i % 2 == 0 else [0, 1], [0] if i % 2 == 0 else [1]
        )
        for i in range(10)
    ]
    s = summarize(games, ["A", "B"], cooperative=False)
    a, b = (next(x for x in s.agents if x.spec == k) for k in "AB")
    assert a.mu > 25 > b.mu
    assert a.sigma < 25 / 3 and b.sigma < 25 / 3
    assert a.ordinal > b.ordinal


def test_ratings_do_not_depend_on_the_order_games_finished_in():
    games = [_outcome(i, ["A", "B", "C"][i % 3 :] + ["A", "B", "C"][: i % 3], [i % 3, 1, 2], [2]) for i in range(9)]
    s1 = summarize(games, ["A", "B", "C"], cooperative=False)
    s2 = summarize(list(reversed(games)), ["A", "B", "C"], cooperative=False)
    assert [(x.spec, x.mu, x.sigma) for x in s1.agents] == [(x.spec, x.mu, x.sigma) for x in s2.agents]


def test_an_agent_holding_several_seats_is_rated_once_per_game():
    games = [_outcome(i, ["A", "R", "R", "R"], [5, 1, 2, 3], [0]) for i in range(6)]
    s = summarize(games, ["A", "R", "R", "R"], cooperative=False)
    a, r = (next(x for x in s.agents if x.spec == k) for k in "AR")
    assert r.games == 18 and a.games == 6
    assert a.win_rate == 1.0 and r.win_rate == 0.0
    assert a.mu > 25 > r.mu


def test_cooperative_summary_reports_team_score_and_perfect_games():
    games = [
        _outcome(0, ["T", "T", "T"], [-3, -3, -3], []),
        _outcome(1, ["T", "T", "T"], [0, 0, 0], [0, 1, 2]),
        _outcome(2, ["T", "T", "T"], [-6, -6, -6], []),
    ]
    s = summarize(games, ["T", "T", "T"], cooperative=True)
    assert s.team_score == -3.0
    assert (s.perfect, s.perfect_rate) == (1, pytest.approx(1 / 3))
    (t,) = s.agents
    assert t.wins == 3 and t.games == 9  # a team win is a whole win for every seat


# ---- schedule: lineup, rotation, seeds ---------------------------------------------------------------------------


@pytest.mark.usefixtures("toy_games")
def test_lineup_fills_the_remaining_seats_with_the_last_spec():
    assert lineup("toyduel", ["ismcts", "random"], 4) == ["ismcts", "random", "random", "random"]
    assert lineup("toyduel", ["a", "b", "c"]) == ["a", "b", "c"]
    with pytest.raises(InvalidOptions, match="at most one spec per seat"):
        lineup("toyduel", ["a", "b", "c"], 2)
    with pytest.raises(InvalidOptions, match="2-4 players"):
        lineup("toyduel", ["a"], 5)


@pytest.mark.usefixtures("toy_games")
@pytest.mark.parametrize("k", [2, 3, 4])
def test_every_agent_plays_every_seat_equally_on_the_same_deals(k):
    seats = [f"agent{i}" for i in range(k)]
    matches = schedule("toyduel", seats, 3 * k, seed=5)
    counts = Counter((spec, seat) for m in matches for seat, spec in enumerate(m.specs))
    assert set(counts.values()) == {3}
    assert len(counts) == k * k
    for block in range(3):
        deals = {m.seed for m in matches[block * k : (block + 1) * k]}
        assert len(deals) == 1, "a block of k games replays one deal with the seats rotated"
    assert len({m.seed for m in matches}) == 3
    assert all(sorted(m.specs) == seats for m in matches)


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed(1, 2, 3) == derive_seed(1, 2, 3)
    assert len({derive_seed(s, g) for s in range(5) for g in range(50)}) == 250
    assert all(0 <= derive_seed(7, g) < 2**63 for g in range(20))


# ---- running -------------------------------------------------------------------------------------------------


def _key(result):
    return [(o.index, o.seed, o.specs, o.scores, o.winners, o.decisions, o.record) for o in result.outcomes]


@pytest.mark.usefixtures("toy_games")
def test_arena_results_are_reproducible_from_the_seed_on_any_number_of_workers():
    args = dict(specs=["ismcts:iters=20", "random"], games=6, players=3)
    one = run_arena("toyduel", seed=11, workers=1, **args)
    two = run_arena("toyduel", seed=11, workers=2, **args)
    other = run_arena("toyduel", seed=12, workers=1, **args)
    assert _key(one) == _key(two)
    assert _key(one) != _key(other)
    assert [(a.spec, a.wins, a.mu) for a in one.summary.agents] == [(a.spec, a.wins, a.mu) for a in two.summary.agents]
    assert not one.interrupted and len(one.outcomes) == 6


@pytest.mark.usefixtures("toy_games")
def test_every_game_is_written_as_a_json_line_with_a_replayable_record(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run_arena("toyduel", ["random", "random"], games=4, seed=2, out=out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 4
    for line in lines:
        o = GameOutcome.from_json(line)
        state = tabletop.replay(line["record"])
        assert state.is_over
        assert state.scores() == o.scores and state.winners() == o.winners
    assert sorted(o.index for o in result.outcomes) == [0, 1, 2, 3]


@pytest.mark.usefixtures("toy_games")
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_games_finished_so_far(workers, tmp_path):
    seen = []

    def interrupt_at_third(o):
        seen.append(o.index)
        if len(seen) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "partial.jsonl"
    result = run_arena(
        "toyduel", ["random"], games=40, players=2, seed=1, workers=workers, out=out, on_outcome=interrupt_at_third
    )
    assert result.interrupted
    assert len(result.outcomes) == 3 and result.summary.games == 3
    assert len(out.read_text().splitlines()) == 3


@pytest.mark.usefixtures("toy_games")
def test_a_bad_spec_is_refused_before_any_game_runs():
    with pytest.raises(tabletop.TabletopError, match="unknown agent kind"):
        run_arena("toyduel", ["random", "wizard"], games=2)


@pytest.mark.usefixtures("toy_games")
def test_cooperative_arena_reports_the_team():
    result = run_arena("toycoop", ["random"], games=3, players=3, seed=4)
    s = result.summary
    assert s.cooperative and s.games == 3
    assert s.team_score == pytest.approx(sum(o.scores[0] for o in result.outcomes) / 3)


# ---- the command -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("random,heuristic", ["random", "heuristic"]),
        ("ismcts:iters=20,rollout=random,random", ["ismcts:iters=20,rollout=random", "random"]),
        (
            "ismcts:time=1.0,rollout=heuristic, heuristic,random",
            ["ismcts:time=1.0,rollout=heuristic", "heuristic", "random"],
        ),
        ("ismcts:iters=5;ismcts:iters=9", ["ismcts:iters=5", "ismcts:iters=9"]),
    ],
)
def test_agent_list_splits_into_specs(text, specs):
    assert split_specs(text) == specs


@pytest.mark.usefixtures("toy_games")
def test_arena_command_prints_the_table_and_writes_records(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code = arena_main(
        [
            "toyduel",
            "--agents",
            "ismcts:iters=10,random",
            "--games",
            "4",
            "--seed",
            "3",
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "ismcts" in text and "random" in text and "4 of 4 games" in text
    assert len(out.read_text().splitlines()) == 4


@pytest.mark.usefixtures("toy_games")
def test_arena_command_refuses_a_bad_request_with_a_message(capsys):
    assert arena_main(["toyduel", "--agents", "random,wizard", "--games", "2", "--no-progress"]) == 2
    assert "unknown agent kind" in capsys.readouterr().err
    assert arena_main(["toyduel", "--agents", "random", "--players", "9", "--no-progress"]) == 2


# ---- the registered games --------------------------------------------------------------------------------------

REAL_GAMES = [g for g in ("silencio", "silos", "siliconvania") if g in tabletop.games()]


@pytest.mark.parametrize("game", REAL_GAMES)
def test_arena_runs_on_every_registered_game(game):
    info = tabletop.game_info(game)
    result = run_arena(game, ["ismcts:iters=3", "random"], games=2, players=info.min_players, seed=1)
    assert len(result.outcomes) == 2 and not result.interrupted
    for o in result.outcomes:
        assert tabletop.replay(o.record).scores() == o.scores
    assert {a.spec for a in result.summary.agents} == {"ismcts:iters=3", "random"}
    assert result.summary.cooperative == info.cooperative
