"""The report's effects against known truth: numpy-simulated datasets with known effects (complete separation, rare
outcomes, correlated seats of one game); the 95% interval must cover the truth in at least 90 of 100 seeded
datasets per case, and hold the raw difference of the data."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.arena.stats import wilson
from tabletop.study.effects import FIRTH, LOGIT, binary_effects, firth_logit, linear_effects, newcombe

DATASETS = 100


def cells(rng: np.random.Generator, rates: dict[tuple[str, str], float], n: int) -> pd.DataFrame:
    """`n` games per cell of two factors, each with a 0/1 outcome drawn at the cell's rate."""
    rows = []
    for (a, b), p in rates.items():
        for y in rng.random(n) < p:
            rows.append({"a": a, "b": b, "y": float(y)})
    df = pd.DataFrame(rows)
    df["a"] = pd.Categorical(df["a"], categories=list(dict.fromkeys(k[0] for k in rates)))
    df["b"] = pd.Categorical(df["b"], categories=list(dict.fromkeys(k[1] for k in rates)))
    return df


def truths(rates: dict[tuple[str, str], float]) -> dict[str, float]:
    """Each factor's true effect averaged over the (balanced) data: the mean over the other factor's levels of the
    difference between the level and the reference."""
    a_levels = list(dict.fromkeys(k[0] for k in rates))
    b_levels = list(dict.fromkeys(k[1] for k in rates))
    out = {f"a={a}": float(np.mean([rates[a, b] - rates[a_levels[0], b] for b in b_levels])) for a in a_levels[1:]}
    out |= {f"b={b}": float(np.mean([rates[a, b] - rates[a, b_levels[0]] for a in a_levels])) for b in b_levels[1:]}
    return out


def coverage(rates: dict[tuple[str, str], float], n: int, seed: int) -> tuple[dict[str, int], set[str], int]:
    """Per effect, in how many of the datasets its interval covers the truth; the methods used; how many times the
    raw difference fell outside the interval."""
    truth = truths(rates)
    covered = dict.fromkeys(truth, 0)
    methods: set[str] = set()
    raw_outside = 0
    for i in range(DATASETS):
        df = cells(np.random.default_rng([seed, i]), rates, n)
        fit = binary_effects(df, "y", ["a", "b"])
        methods.add(fit.method)
        for e in fit.effects:
            key = f"{e.factor}={e.level}"
            covered[key] += e.lo <= truth[key] <= e.hi
            raw_outside += not e.lo - 1e-12 <= e.raw <= e.hi + 1e-12
    return covered, methods, raw_outside


@pytest.mark.parametrize(
    ("case", "rates", "n", "expect"),
    [
        # the Silencio case: perfect games at 2 players, never at 4 (complete separation), Dark Shrines cost
        ("complete separation", {("2", "none"): 0.20, ("2", "all"): 0.10, ("4", "none"): 0.0, ("4", "all"): 0.0},
         500, {FIRTH}),
        # about 1 event expected in a cell of the first level: some datasets see none there (then Firth)
        ("rare outcomes", {("x", "off"): 0.004, ("x", "on"): 0.004, ("y", "off"): 0.02, ("y", "on"): 0.02}, 300,
         {LOGIT, FIRTH}),
        ("no separation", {("x", "off"): 0.30, ("x", "on"): 0.20, ("y", "off"): 0.45, ("y", "on"): 0.33}, 300,
         {LOGIT}),
    ],
)
def test_the_interval_covers_the_known_effect_in_90_of_100_datasets(
        case: str, rates: dict[tuple[str, str], float], n: int, expect: set[str]) -> None:
    covered, methods, raw_outside = coverage(rates, n, seed=13 if case == "rare outcomes" else len(case))
    assert all(c >= 90 for c in covered.values()), (case, covered)
    assert methods == expect, methods
    assert raw_outside == 0


def test_the_separated_case_reports_the_real_drop_not_nothing() -> None:
    rates = {("2", "none"): 0.136, ("2", "all"): 0.136, ("4", "none"): 0.0, ("4", "all"): 0.0}
    fit = binary_effects(cells(np.random.default_rng(7), rates, 500), "y", ["a", "b"])
    players = next(e for e in fit.effects if e.factor == "a")
    assert fit.method == FIRTH
    assert -0.17 < players.lo < players.estimate < players.hi < -0.10 and players.p < 1e-6
    assert abs(players.estimate - players.raw) < 0.005


def seat_games(rng: np.random.Generator, games: int, seats: int, b: float, q: float) -> pd.DataFrame:
    """Games of `seats` seats with one winner each, drawn with odds exp(b) for a seat that holds the feature
    (held with probability q, independently)."""
    kept = rng.random((games, seats)) < q
    w = np.exp(b * kept)
    cum = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
    winner = (rng.random((games, 1)) > cum).sum(axis=1)
    won = np.zeros((games, seats))
    won[np.arange(games), winner] = 1.0
    return pd.DataFrame({"game": np.repeat(np.arange(games), seats), "kept": kept.ravel().astype(int),
                         "won": won.ravel()})


def seat_truth(seats: int, b: float, q: float) -> float:
    """P(win | held) - P(win | not held), exactly: over the number of the other seats holding it."""
    def rate(own: float) -> float:
        return sum(math.comb(seats - 1, m) * q ** m * (1 - q) ** (seats - 1 - m)
                   * own / (own + m * math.exp(b) + (seats - 1 - m)) for m in range(seats))
    return rate(math.exp(b)) - rate(1.0)


def test_correlated_seats_of_one_game_are_covered_with_errors_clustered_by_game() -> None:
    truth = seat_truth(4, 0.8, 0.5)
    covered = 0
    for i in range(DATASETS):
        df = seat_games(np.random.default_rng([11, i]), 400, 4, 0.8, 0.5)
        df["kept"] = pd.Categorical(df["kept"], categories=[0, 1])
        fit = binary_effects(df, "won", ["kept"], cluster="game")
        e = fit.effects[0]
        assert fit.method == LOGIT and e.lo <= e.raw <= e.hi
        covered += e.lo <= truth <= e.hi
    assert covered >= 90, covered


def test_a_linear_effect_is_the_mean_difference_with_its_interval() -> None:
    covered = 0
    for i in range(DATASETS):
        rng = np.random.default_rng([5, i])
        a = rng.integers(0, 2, 600)
        df = pd.DataFrame({"a": pd.Categorical(a, categories=[0, 1]), "y": 100 + 7.5 * a + rng.normal(0, 20, 600)})
        e = linear_effects(df, "y", ["a"]).effects[0]
        covered += e.lo <= 7.5 <= e.hi
        assert abs(e.estimate - e.raw) < 1e-9
    assert covered >= 90


def test_firth_matches_the_maximum_likelihood_fit_when_the_data_do_not_separate() -> None:
    import statsmodels.api as sm

    rng = np.random.default_rng(3)
    x = np.column_stack([np.ones(5000), rng.integers(0, 2, 5000)])
    y = (rng.random(5000) < np.where(x[:, 1] == 1, 0.4, 0.25)).astype(float)
    beta, _, converged = firth_logit(x, y)
    mle = sm.Logit(y, x).fit(disp=0).params
    assert converged and np.allclose(beta, mle, atol=0.01)


def test_firth_gives_a_finite_estimate_under_complete_separation() -> None:
    x = np.column_stack([np.ones(40), np.repeat([0.0, 1.0], 20)])
    y = np.concatenate([np.zeros(20), np.repeat([0.0, 1.0], 10)])
    beta, _, converged = firth_logit(x, y)
    assert converged and np.all(np.isfinite(beta))
    # Firth's estimate for 0 of 20 is the logit of 0.5/21 (a half added to each cell of the 2x2 table)
    assert beta[0] == pytest.approx(math.log(0.5 / 20.5), abs=1e-6)


def test_no_warning_reaches_the_terminal_and_the_warnings_are_returned(recwarn: pytest.WarningsRecorder) -> None:
    rates = {(a, b): p for (a, b), p in zip(product("xy", ["off", "on"]), [0.5, 0.5, 0.0, 0.0], strict=True)}
    fit = binary_effects(cells(np.random.default_rng(1), rates, 50), "y", ["a", "b"])
    assert fit.method == FIRTH and not recwarn.list


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 60), st.integers(1, 60), st.integers(0, 60), st.integers(1, 60))
def test_newcombes_interval_holds_the_difference_and_stays_within_minus_one_and_one(
        x1: int, n1: int, x2: int, n2: int) -> None:
    x1, x2 = min(x1, n1), min(x2, n2)
    d, lo, hi = newcombe(x1, n1, x2, n2)
    assert -1 - 1e-9 <= lo <= d <= hi <= 1 + 1e-9
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    assert lo >= l1 - u2 - 1e-9 and hi <= u1 - l2 + 1e-9
