"""Effects of table-wide factors as differences a designer can read, with intervals that hold.

A factor's effect is the change in the outcome's rate (or its mean) when every row of the data is set to one level
rather than the reference level, the other factors left as they are, averaged over the data: for a logistic model
the average predicted-probability difference, for a linear one the level's coefficient. Standard errors are
clustered by game (the seats of one game share one winner: they are not independent) and carried to the
difference by the delta method.

When the logistic model separates (an outcome that never or always happens at some level: the maximum-likelihood
estimate does not exist) or does not converge, the effects come from Firth's penalised likelihood instead (a finite
estimate that exists under separation); if that fails too, from the raw difference of rates between the two levels
with Newcombe's hybrid score interval. Every effect says which method it came from, and the warnings statsmodels
raised are captured (never printed) and returned for the report to show.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletop.arena.stats import Z95, wilson

Array = npt.NDArray[np.float64]

LOGIT = "logistic regression, average predicted-probability difference, standard errors clustered by game"
FIRTH = ("Firth's penalised logistic regression (the model separates: an outcome never or always seen at a level), "
         "average predicted-probability difference, standard errors clustered by game")
RAW = "raw difference of rates with Newcombe's interval (neither logistic fit held; not adjusted for other factors)"
OLS = "linear regression, standard errors clustered by game"


@dataclass(frozen=True)
class Effect:
    """One level of a factor against its reference level: the difference, its 95% interval, p-value, method."""

    factor: str
    level: str
    reference: str
    estimate: float
    lo: float
    hi: float
    p: float
    method: str
    raw: float  # the raw difference of the outcome's mean between the two levels (for the check against the data)


@dataclass
class Fit:
    """The effects of one model, the method it fell back to (if any) and the warnings it raised."""

    effects: list[Effect]
    method: str
    warnings: list[str] = field(default_factory=list)


def _norm_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2)) if math.isfinite(z) else 0.0


def newcombe(x1: float, n1: int, x2: float, n2: int) -> tuple[float, float, float]:
    """The difference of two rates x1/n1 - x2/n2 and its 95% interval by Newcombe's hybrid score method (from the
    two Wilson intervals), which holds at rates of 0 or 1 where the Wald interval collapses."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def two_rate_p(x1: float, n1: int, x2: float, n2: int) -> float:
    """Two-sided p-value of equal rates (pooled score z test; 1.0 when both rates are 0 or both 1)."""
    pooled = (x1 + x2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0
    return _norm_p((x1 / n1 - x2 / n2) / math.sqrt(var))


@dataclass(frozen=True)
class Design:
    """A dummy-coded design matrix: an intercept, then one column per non-reference level of each factor."""

    x: Array
    factors: list[tuple[str, list[str], list[int]]]  # name, levels (reference first), column of each non-reference

    def set_level(self, factor: int, level: int) -> Array:
        """The design with every row set to `level` (0 = the reference) of factor number `factor`."""
        x = self.x.copy()
        _, _, cols = self.factors[factor]
        x[:, cols] = 0.0
        if level > 0:
            x[:, cols[level - 1]] = 1.0
        return x


def design(data: Any, terms: Sequence[str]) -> Design:
    """The design of `terms` (columns of the pandas frame `data`; a categorical's categories in order, the first
    the reference; another column's sorted values)."""
    cols: list[Array] = [np.ones(len(data))]
    factors = []
    for t in terms:
        col = data[t]
        levels = [str(v) for v in (col.cat.categories if hasattr(col, "cat") else sorted(col.unique()))]
        values = col.astype(str).to_numpy()
        present = [lv for lv in levels if (values == lv).any()]
        idx = []
        for lv in present[1:]:
            idx.append(len(cols))
            cols.append((values == lv).astype(float))
        factors.append((t, present, idx))
    return Design(np.column_stack(cols), factors)


def _sigmoid(z: Array) -> Array:
    out: Array = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
    return out


def firth_logit(x: Array, y: Array, maxiter: int = 200, tol: float = 1e-9) -> tuple[Array, Array, bool]:
    """Firth's penalised-likelihood logistic regression (Jeffreys prior): coefficients, the per-row modified score
    contributions at the solution (for a clustered sandwich), and whether it converged. Newton steps on the modified
    score X'(y - p + h(1/2 - p)), h the hat matrix's diagonal, halved until the penalised likelihood rises."""
    n, k = x.shape
    beta = np.zeros(k)

    def penalised(b: Array) -> float:
        p = _sigmoid(x @ b)
        w = p * (1 - p)
        sign, logdet = np.linalg.slogdet(x.T @ (x * w[:, None]))
        if sign <= 0:
            return -math.inf
        eps = 1e-300
        return float(np.sum(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + 0.5 * logdet)

    current = penalised(beta)
    converged = False
    for _ in range(maxiter):
        p = _sigmoid(x @ beta)
        w = p * (1 - p)
        info = x.T @ (x * w[:, None])
        try:
            inv = np.linalg.inv(info)
        except np.linalg.LinAlgError:
            return beta, np.zeros((n, k)), False
        h = np.einsum("ij,jk,ik->i", x * np.sqrt(w)[:, None], inv, x * np.sqrt(w)[:, None])
        score = x.T @ (y - p + h * (0.5 - p))
        step = inv @ score
        t = 1.0
        while t > 1e-6:
            cand = beta + t * step
            value = penalised(cand)
            if value >= current - 1e-12:
                break
            t /= 2
        beta, current = beta + t * step, penalised(beta + t * step)
        if float(np.max(np.abs(t * step))) < tol:
            converged = True
            break
    p = _sigmoid(x @ beta)
    w = p * (1 - p)
    inv = np.linalg.pinv(x.T @ (x * w[:, None]))
    h = np.einsum("ij,jk,ik->i", x * np.sqrt(w)[:, None], inv, x * np.sqrt(w)[:, None])
    contributions: Array = x * (y - p + h * (0.5 - p))[:, None]
    return beta, contributions, converged


def cluster_sandwich(bread: Array, contributions: Array, groups: npt.NDArray[Any]) -> Array:
    """The cluster-robust covariance bread · (Σ_c s_c s_c') · bread with the small-sample factor statsmodels uses
    (G/(G-1) · (N-1)/(N-K))."""
    _, inverse = np.unique(groups, return_inverse=True)
    g = int(inverse.max()) + 1
    sums = np.zeros((g, contributions.shape[1]))
    np.add.at(sums, inverse, contributions)
    meat = sums.T @ sums
    n, k = contributions.shape
    factor = (g / (g - 1)) * ((n - 1) / (n - k)) if g > 1 and n > k else 1.0
    out: Array = factor * bread @ meat @ bread
    return out


def _separates(dm: Design, y: Array) -> bool:
    """Whether some level of a factor (or the reference cell) sees the outcome always or never: quasi-complete
    separation, where the logistic maximum-likelihood estimate does not exist."""
    for _, _levels, cols in dm.factors:
        ref = np.ones(len(y), dtype=bool)
        for c in cols:
            mask = dm.x[:, c] == 1.0
            ref &= ~mask
            s = y[mask].sum()
            if s == 0 or s == mask.sum():
                return True
        if ref.any() and (y[ref].sum() == 0 or y[ref].sum() == ref.sum()):
            return True
    return False


def _ame(dm: Design, beta: Array, cov: Array, y: Array, method: str, binary: bool) -> list[Effect]:
    out = []
    for f, (name, levels, cols) in enumerate(dm.factors):
        x0 = dm.set_level(f, 0)
        ref_rows = np.ones(len(y), dtype=bool)
        for c in cols:
            ref_rows &= dm.x[:, c] != 1.0
        for j in range(1, len(levels)):
            x1 = dm.set_level(f, j)
            rows = dm.x[:, cols[j - 1]] == 1.0
            raw = float(y[rows].mean() - y[ref_rows].mean())
            if binary:
                p1, p0 = _sigmoid(x1 @ beta), _sigmoid(x0 @ beta)
                d = float(np.mean(p1 - p0))
                grad = ((p1 * (1 - p1))[:, None] * x1 - (p0 * (1 - p0))[:, None] * x0).mean(axis=0)
            else:
                d = float(beta[cols[j - 1]])
                grad = np.zeros(len(beta))
                grad[cols[j - 1]] = 1.0
            se = math.sqrt(max(float(grad @ cov @ grad), 0.0))
            p = _norm_p(d / se) if se > 0 else (1.0 if d == 0 else 0.0)
            out.append(Effect(name, levels[j], levels[0], d, d - Z95 * se, d + Z95 * se, p, method, raw))
    return out


def _raw_effects(dm: Design, y: Array) -> list[Effect]:
    out = []
    for name, levels, cols in dm.factors:
        ref = np.ones(len(y), dtype=bool)
        for c in cols:
            ref &= dm.x[:, c] != 1.0
        x0, n0 = float(y[ref].sum()), int(ref.sum())
        for j in range(1, len(levels)):
            rows = dm.x[:, cols[j - 1]] == 1.0
            x1, n1 = float(y[rows].sum()), int(rows.sum())
            d, lo, hi = newcombe(x1, n1, x0, n0)
            out.append(Effect(name, levels[j], levels[0], d, lo, hi, two_rate_p(x1, n1, x0, n0), RAW, d))
    return out


def _groups(data: Any, cluster: str | None) -> npt.NDArray[Any]:
    return np.asarray(data[cluster]) if cluster is not None else np.arange(len(data))


def binary_effects(data: Any, outcome: str, terms: Sequence[str], cluster: str | None = None) -> Fit:
    """The effects of `terms` on the 0/1 `outcome` of the frame `data`, rows clustered by its column `cluster`
    (None: every row its own cluster)."""
    import statsmodels.api as sm

    dm = design(data, terms)
    y = np.asarray(data[outcome], dtype=float)
    groups = _groups(data, cluster)
    caught: list[str] = []
    if not _separates(dm, y):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            try:
                res = sm.Logit(y, dm.x).fit(disp=0, maxiter=200, cov_type="cluster", cov_kwds={"groups": groups})
                ok = bool(res.mle_retvals.get("converged", False)) and bool(np.all(np.isfinite(res.bse)))
                ok = ok and float(np.max(np.abs(res.params))) < 15
            except Exception as e:  # perfect separation, a singular matrix: fall back, said
                caught.append(f"{type(e).__name__}: {e}")
                ok = False
        caught += [f"{w.category.__name__}: {w.message}" for w in ws]
        if ok and not caught:
            return Fit(_ame(dm, np.asarray(res.params), np.asarray(res.cov_params()), y, LOGIT, True), LOGIT,
                       caught)
    beta, contributions, converged = firth_logit(dm.x, y)
    if converged:
        p = _sigmoid(dm.x @ beta)
        bread: Array = np.linalg.pinv(dm.x.T @ (dm.x * (p * (1 - p))[:, None])).astype(np.float64)
        cov = cluster_sandwich(bread, contributions, groups)
        return Fit(_ame(dm, beta, cov, y, FIRTH, True), FIRTH, caught)
    caught.append("Firth's penalised fit did not converge")
    return Fit(_raw_effects(dm, y), RAW, caught)


def linear_effects(data: Any, outcome: str, terms: Sequence[str], cluster: str | None = None) -> Fit:
    """The effects of `terms` on the numeric `outcome` (a linear model's coefficients, standard errors clustered
    by `cluster`, or heteroscedasticity-robust HC1 when every row is its own game)."""
    import statsmodels.api as sm

    dm = design(data, terms)
    y = np.asarray(data[outcome], dtype=float)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        res = sm.OLS(y, dm.x).fit(cov_type="cluster", cov_kwds={"groups": _groups(data, cluster)})
    caught = [f"{w.category.__name__}: {w.message}" for w in ws]
    return Fit(_ame(dm, np.asarray(res.params), np.asarray(res.cov_params()), y, OLS, False), OLS, caught)
