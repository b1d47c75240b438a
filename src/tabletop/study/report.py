"""The report of a study: an HTML page and its PNG plots, every figure with its 95% interval.

Rates (win rates, perfect-game rates, shares of a cards-left count) have Wilson intervals; a seat's win counts its
share of the win (1/k for k winners, so the rates of a game's seats add up to one and the fair rate is 1/players).
Table-wide factors are shown by their effect from regressions (statsmodels): logistic for wins and perfect games,
as average marginal effects in percentage points, linear for game length, score spread and cards left, each
against the factor's first level with the other factors held fixed. Every test the report makes is listed with its
p-value and its Holm-adjusted p-value (Holm's step-down correction over all the report's tests, which holds the
family-wise error rate at 5%); a finding is stated in words at the top only if its adjusted p-value is below 0.05
and its effect is at least the stated minimum: 2 percentage points for a rate, 5% of the overall mean for a length,
a spread or cards left.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.arena.stats import Z95, wilson
from tabletop.core import game_info
from tabletop.study.features import SeatFigure, TeamFigures, game_features
from tabletop.study.runner import read_rows, stored_spec
from tabletop.study.spec import StudyError, StudySpec, level_label
from tabletop.study.style import FONTS, PAGE_INCHES

if TYPE_CHECKING:
    from tabletop.study.components import ComponentStudy

MIN_RATE_EFFECT = 0.02
"""The smallest effect on a rate stated as a finding: 2 percentage points."""
MIN_RELATIVE_EFFECT = 0.05
"""The smallest effect on a length, a spread or cards left stated as a finding: 5% of the overall mean."""
ALPHA = 0.05
CORRECTION = "Holm"
CAVEAT = ("Agents are not people: an effect the agents show (or do not show) is a question to put to playtesters, "
          "not an answer.")


@dataclass
class Hypothesis:
    """One hypothesis test of the report: its words, effect (with its 95% interval), p-value and minimum effect."""

    words: str  # "the start player's win rate in 4-player games"
    effect: float  # rate points (0.021) or units of the measure
    lo: float
    hi: float
    p: float
    minimum: float
    unit: str  # "pp" for rate points, else the measure's unit
    detail: str = ""  # e.g. "27.1% against a fair 25.0%"
    p_adj: float = math.nan
    check: dict[str, Any] | None = None
    """How the raw difference behind the effect is recomputed from the rows (written to findings.json): `kind`
    "fair" (the mean of `outcome` over the `frame`'s rows matching `where`, minus `fair`: equal to the effect),
    "levels" (its mean at `factor` = `level` minus at `reference`, or with `holds`, over the rows whose `|`-joined
    column holds the kind or not; `equal` when the effect is that raw difference) or "paired" (a component study's
    mean paired difference)."""

    @property
    def kept(self) -> bool:
        """Whether the test survives the correction and is at least the minimum effect."""
        return bool(self.p_adj < ALPHA and abs(self.effect) >= self.minimum)

    def effect_text(self, more: str = "") -> str:
        """"+3.4 points (95% CI +2.4 to +4.4)", with `more` inside the parentheses after the interval."""
        more = f"; {more}" if more else ""
        if self.unit == "pp":
            return f"{100 * self.effect:+.1f} points (95% CI {100 * self.lo:+.1f} to {100 * self.hi:+.1f}{more})"
        return f"{self.effect:+.2f} {self.unit} (95% CI {self.lo:+.2f} to {self.hi:+.2f}{more})"


def correct(tests: list[Hypothesis]) -> None:
    """Set every test's Holm-adjusted p-value (statsmodels' multipletests)."""
    if not tests:
        return
    from statsmodels.stats.multitest import multipletests

    _, adj, _, _ = multipletests([min(1.0, max(0.0, t.p)) for t in tests], alpha=ALPHA, method="holm")
    for t, a in zip(tests, adj, strict=True):
        t.p_adj = float(a)


def _z_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def rate_vs(wins: float, n: int, p0: float) -> tuple[float, float]:
    """The z statistic and two-sided p-value of a rate `wins/n` against `p0` (normal approximation)."""
    if n == 0 or p0 <= 0 or p0 >= 1:
        return 0.0, 1.0
    z = (wins / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return z, _z_p(z)


def two_rates(w1: float, n1: int, w2: float, n2: int) -> tuple[float, float, float, float]:
    """Difference of two rates (first minus second), its 95% interval and two-sided p-value (pooled z test)."""
    if n1 == 0 or n2 == 0:
        return 0.0, -1.0, 1.0, 1.0
    p1, p2 = w1 / n1, w2 / n2
    pooled = (w1 + w2) / (n1 + n2)
    se0 = math.sqrt(max(pooled * (1 - pooled), 1e-12) * (1 / n1 + 1 / n2))
    se = math.sqrt(max(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2, 1e-12))
    d = p1 - p2
    return d, d - Z95 * se, d + Z95 * se, _z_p(d / se0)


# ---- frames ------------------------------------------------------------------------------------------------------
def frames(spec: StudySpec, rows: list[dict[str, Any]]) -> tuple[Any, Any]:
    """The games frame (one row per game) and the seats frame (one row per seat of a game), as pandas frames."""
    import pandas as pd

    factors = [f"opt_{k}" for k in sorted(spec.options)]
    team = game_features(spec.game).team
    games, seats = [], []
    for r in rows:
        g = {"gid": r["block"] * 1000 + r["game"], "block": r["block"], "seed": r["seed"],
             "players": r["players"], "agents": r["agents"],
             "length": r["length"], "decisions": float(sum(r["decisions"])),
             "spread": max(r["scores"]) - min(r["scores"]), "perfect": float(bool(r["winners"])),
             "action_kinds": "|".join(r.get("action_kinds") or []),  # "" in a dataset written before the column
             **{f: r.get(f, "") for f in factors}}
        if team is not None:  # the team's measure: its seat feature summed over the seats
            g[team.measure] = float(sum(r[f"seat_{team.measure}"]))
        games.append(g)
        for p in range(r["players"]):
            s = {**g, "share": r["shares"][p], "won": float(r["shares"][p] > 0), "score": r["scores"][p],
                 "seat_decisions": r["decisions"][p],
                 "spec": r["specs"][p]}
            for k, v in r.items():
                if k.startswith("seat_"):
                    s[k[5:]] = v[p]
            seats.append(s)
    gdf, sdf = pd.DataFrame(games), pd.DataFrame(seats)
    for k in sorted(spec.options):  # levels in the study file's order: the first is the reference
        levels = list(dict.fromkeys(level_label(v) for v in spec.options[k]))
        for df in (gdf, sdf):
            df[f"opt_{k}"] = pd.Categorical(df[f"opt_{k}"], categories=levels)
    return gdf, sdf


# ---- plots -------------------------------------------------------------------------------------------------------
def _figure(width: float = 7.0, height: float = 4.0, ncols: int = 1, nrows: int = 1) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(min(width, PAGE_INCHES), height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def _panels(n: int, width: float, height: float, maxcols: int = 3) -> tuple[Any, list[Any]]:
    """A figure of `n` panels of about `width` x `height` inches, wrapped after `maxcols`, unused panels hidden."""
    ncols = min(n, maxcols)
    nrows = math.ceil(n / ncols)
    fig, axes = _figure(width * ncols + 0.6, height * nrows, ncols=ncols, nrows=nrows)
    flat = [ax for row in axes for ax in row]
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def fmt_p(p: float) -> str:
    """A p-value as a report prints it: "< 0.001" below a thousandth, else three decimals."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def option_words(game: str, name: str) -> str:
    """An option's name as the lobby shows it (its doc), up to a colon or a parenthesis: "Crop Circles module"."""
    doc = next((o.doc for o in game_info(game).options if o.name == name), "") or name
    return re.split(r"[:(]", doc)[0].strip() or name


def level_words(game: str, name: str, label: str) -> str:
    """An option level in the lobby's words: "off" where the doc says "0 = off", "all" for a list of every choice,
    else the dataset's label ("none", "6", "tavern")."""
    option = next((o for o in game_info(game).options if o.name == name), None)
    if option is None:
        return label
    named = dict(re.findall(r"(\w+) = (\w+)", option.doc))
    if label in named:
        return str(named[label])
    if option.multi and label == ",".join(str(c) for c in option.choices):
        return "all"
    return label


def _err(rates: list[float], cis: list[tuple[float, float]]) -> list[list[float]]:
    """Error bars in percent below and above each rate (never negative: Wilson bounds of 0 or 1 round)."""
    return [[max(0.0, 100 * (r - lo)) for r, (lo, _) in zip(rates, cis, strict=True)],
            [max(0.0, 100 * (hi - r)) for r, (_, hi) in zip(rates, cis, strict=True)]]


def _rate_bars(ax: Any, labels: list[str], wins: list[float], ns: list[int], fair: float | None = None,
               colour: str = "tab:blue") -> None:
    rates = [w / n if n else 0.0 for w, n in zip(wins, ns, strict=True)]
    cis = [wilson(w, n) for w, n in zip(wins, ns, strict=True)]
    err = _err(rates, cis)
    ax.bar(labels, [100 * r for r in rates], yerr=err, capsize=4, color=colour, alpha=0.8)
    if fair is not None:
        ax.axhline(100 * fair, color="grey", linestyle="--", linewidth=1, label=f"fair {100 * fair:.1f}%")
        ax.legend(loc="lower right")
    ax.set_ylabel("win rate (%), 95% CI")


def _group(df: Any, key: str | list[str], value: str) -> list[tuple[Any, float, int]]:
    out = []
    for k, sub in df.groupby(key, sort=True, observed=True):
        out.append((k, float(sub[value].sum()), len(sub)))
    return out


class _Report:
    def __init__(self, spec: StudySpec, games: Any, seats: Any, out: Path) -> None:
        self.spec, self.games, self.seats, self.out = spec, games, seats, out
        self.tests: list[Hypothesis] = []
        self.notes: list[str] = []  # the models' fallbacks and warnings, shown on the page (never printed)
        self.component_tests: list[dict[str, Any]] = []  # the component sections' effects, for findings.json
        self.sections: list[str] = []  # HTML blocks
        self.info = game_info(spec.game)
        self.features = game_features(spec.game)
        self.cut: list[dict[str, Any]] = []  # the games cut at the step limit (not in `games` nor `seats`)

    def save(self, fig: Any, name: str, title: str, caption: str) -> None:
        path = self.out / f"{name}.png"
        fig.savefig(path, dpi=110)
        self.sections.append(f"<h2>{html.escape(title)}</h2><img src=\"{path.name}\" alt=\"{html.escape(title)}\">"
                             f"<p class=\"cap\">{html.escape(caption)}</p>")

    # -- per-seat figures (competitive games) --
    def seat_position(self) -> None:
        counts = sorted(self.seats["players"].unique())
        fig, axes = _panels(len(counts), 3.2, 3.4)
        for ax, k in zip(axes, counts, strict=True):
            sub = self.seats[self.seats["players"] == k]
            groups = _group(sub, "position", "share")
            _rate_bars(ax, [str(int(g[0])) for g in groups], [g[1] for g in groups], [g[2] for g in groups], 1 / k)
            ax.set_title(f"{k} players")
            ax.set_xlabel("seat position (1 = first player)" if self.features.start_player else "seat")
            for pos, w, n in groups:
                _, p = rate_vs(w, n, 1 / k)
                lo, hi = wilson(w, n)
                who = "the start player" if pos == 1 and self.features.start_player else f"seat position {pos}"
                self.tests.append(Hypothesis(f"the win rate of {who} in {k}-player games", w / n - 1 / k, lo - 1 / k,
                                       hi - 1 / k, p, MIN_RATE_EFFECT, "pp",
                                       f"{100 * w / n:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%) against a fair "
                                       f"{100 / k:.1f}%, {n} games",
                                       check=_fair({"players": int(k), "position": int(pos)}, 1 / k)))
        self.save(fig, "seat_position", "Win rate by seat position",
                  "Each seat's share of the wins (a shared win split evenly) by its position in turn order, with "
                  "95% Wilson intervals; the dashed line is the fair rate, 1/players.")

    def seat_rate(self, f: SeatFigure) -> None:
        """A game's `rate` figure: the win rate per player count by the value of a seat column, each value tested
        against the fair rate."""
        counts = sorted(self.seats["players"].unique())
        fig, axes = _panels(len(counts), 3.2, 3.4)
        for ax, k in zip(axes, counts, strict=True):
            sub = self.seats[self.seats["players"] == k]
            groups = _group(sub, f.column, "share")
            _rate_bars(ax, [str(int(g[0])) for g in groups], [g[1] for g in groups], [g[2] for g in groups], 1 / k,
                       f.colour)
            ax.set_title(f"{k} players")
            ax.set_xlabel(f.axis)
            for value, w, n in groups:
                _, p = rate_vs(w, n, 1 / k)
                lo, hi = wilson(w, n)
                self.tests.append(Hypothesis(f"the win rate of {f.who(value)} in {k}-player games",
                                       w / n - 1 / k, lo - 1 / k, hi - 1 / k, p, MIN_RATE_EFFECT, "pp",
                                       f"{100 * w / n:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%) against a fair "
                                       f"{100 / k:.1f}%, {n} games",
                                       check=_fair({"players": int(k), f.column: _plain(value)}, 1 / k)))
        self.save(fig, f.name, f.title, f.caption)

    def by_level(self) -> None:
        """Win rate of the start player (and of the seats the game's `rate` figures name by `by_option`, e.g. a
        SILOS Town Hall rank 1) at each level of each varied option. The start player's levels are tested once, by
        the effects model ("start player wins"); the other seats' here, each level against the first, by the raw
        difference with Newcombe's interval (one such seat per game: the games are independent)."""
        from tabletop.study.effects import newcombe, two_rate_p

        varied = [k for k in sorted(self.spec.options) if len(self.spec.options[k]) > 1]
        if not varied:
            return
        which = [("position", 1, "the start player")] if self.features.start_player else []
        which += [(f.column, f.by_option, f.who(f.by_option)) for f in self.features.of_kind("rate")
                  if f.by_option is not None]
        if not which:
            return
        fig, axes = _panels(len(which) * len(varied), 3.4, 3.4, maxcols=max(2, len(varied)))
        i = 0
        for col, value, who in which:
            for name in varied:
                ax = axes[i]
                i += 1
                sub = self.seats[self.seats[col] == value]
                groups = _group(sub, f"opt_{name}", "share")
                fair = float((1 / sub["players"]).mean()) if len(sub) else None
                words = option_words(self.spec.game, name)
                _rate_bars(ax, [level_words(self.spec.game, name, str(g[0])) for g in groups],
                           [g[1] for g in groups], [g[2] for g in groups], fair, "tab:green")
                ax.set_title(who[0].upper() + who[1:])
                ax.set_xlabel(words)
                if col == "position":
                    continue
                base = groups[0]
                for lvl, w, n in groups[1:]:
                    d, lo, hi = newcombe(w, n, base[1], base[2])
                    self.tests.append(Hypothesis(
                        f"the win rate of {who} ({words}: {level_words(self.spec.game, name, str(lvl))} rather than "
                        f"{level_words(self.spec.game, name, str(base[0]))})", d, lo, hi,
                        two_rate_p(w, n, base[1], base[2]), MIN_RATE_EFFECT, "pp",
                        f"{100 * w / n:.1f}% against {100 * base[1] / base[2]:.1f}%, {n} and {base[2]} games; "
                        "raw difference, Newcombe's interval",
                        check={"kind": "levels", "frame": "seats", "outcome": "share", "where": {col: _plain(value)},
                               "factor": f"opt_{name}", "level": str(lvl), "reference": str(base[0]),
                               "equal": True}))
        self.save(fig, "by_option", "Seat advantages by option",
                  "The win rate of " + " and of ".join(w[2] for w in which)
                  + " at each level of each varied option, with 95% Wilson intervals; the dashed line is the fair "
                  "rate. The start player's levels are tested in the effects below (one test per effect).")

    def _kept(self, f: SeatFigure) -> list[tuple[str, Any]]:
        kinds = sorted({k for v in self.seats[f.column].fillna("") for k in v.split("|") if k})
        return [(k, self.seats[f.column].fillna("").str.split("|").apply(lambda xs, k=k: k in xs)) for k in kinds]

    def kinds(self, f: SeatFigure) -> None:
        """A game's `kinds` figure: per player count, the win rate of the seats whose `|`-joined column holds each
        kind against that count's fair rate; each kind's effect tested by a logistic model adjusted for the player
        count, errors clustered by game."""
        kept = self._kept(f)
        counts = sorted(self.seats["players"].unique())
        fig, axes = _panels(len(counts), 4.6, 3.6, maxcols=2)
        for ax, n_players in zip(axes, counts, strict=True):
            here = self.seats["players"] == n_players
            labels, wins, ns = [], [], []
            for k, mask in kept:
                yes = self.seats[mask & here]
                if not len(yes):
                    continue
                labels.append(k)
                wins.append(float(yes["share"].sum()))
                ns.append(len(yes))
            _rate_bars(ax, labels, wins, ns, 1 / n_players, f.colour)
            ax.set_title(f"{n_players} players")
            ax.set_xlabel(f.axis)
            ax.tick_params(axis="x", rotation=30)
            for label in ax.get_xticklabels():  # anchored at their right end: long kinds do not run into each other
                label.set_horizontalalignment("right")
                label.set_rotation_mode("anchor")
        self._kind_tests(f, kept)
        self.save(fig, f.name, f.title, f.caption + " One panel per player count, each against its own fair rate.")

    def binned(self, f: SeatFigure) -> None:
        """A game's `binned` figure: the win rate by a numeric seat column, rounded and clipped to its bins."""
        fair = float((1 / self.seats["players"]).mean())
        fig, axes = _figure(6, 3.6)
        bins = self.seats[f.column].round().clip(f.low, f.high).astype(int)
        groups = _group(self.seats.assign(_bin=bins), "_bin", "share")
        _rate_bars(axes[0][0], [str(g[0]) for g in groups], [g[1] for g in groups], [g[2] for g in groups], fair,
                   f.colour)
        axes[0][0].set_xlabel(f.axis)
        self.save(fig, f.name, f.title, f.caption)

    def _kind_tests(self, f: SeatFigure, kept: list[tuple[str, Any]]) -> None:
        """Each kind's effect on winning, adjusted for the player count: one logistic model per kind (not one with
        every kind: a seat holds about as many kinds whatever they are, e.g. SiliconVania's objectives kept, so the
        kinds would stand in for each other and each effect would read against the kinds not held). The effect is
        the average predicted-probability difference, its errors clustered by game."""
        import pandas as pd

        from tabletop.study.effects import LOGIT, RAW, binary_effects

        terms = ["kept"] + (["players"] if self.seats["players"].nunique() > 1 else [])
        for k, mask in kept:
            if not 0 < int(mask.sum()) < len(mask):
                continue
            data = self.seats.assign(kept=pd.Categorical(mask.map({True: "yes", False: "no"}),
                                                         categories=["no", "yes"]))
            fit = binary_effects(data, "won", terms, cluster="gid")
            self._notes(f.who(k), fit.method, fit.warnings, LOGIT)
            e = next(x for x in fit.effects if x.factor == "kept")
            yes, no = self.seats[mask], self.seats[~mask]
            self.tests.append(Hypothesis(
                f"the win rate of a seat {f.who(k)} (rather than not)", e.estimate, e.lo, e.hi, e.p, MIN_RATE_EFFECT,
                "pp",
                f"win rate {100 * yes['won'].mean():.1f}% when kept, {100 * no['won'].mean():.1f}% when not "
                f"(raw difference {100 * e.raw:+.1f} points); {_method_short(fit.method)}"
                + (", adjusted for the player count" if len(terms) > 1 else ""),
                check={"kind": "levels", "frame": "seats", "outcome": "won", "where": {}, "holds": f.column,
                       "value": k, "equal": fit.method == RAW}))

    def _notes(self, title: str, method: str, caught: list[str], usual: str) -> None:
        if method != usual:
            self.notes.append(f"{title}: {method}.")
        for w in dict.fromkeys(caught):
            self.notes.append(f"{title}: statsmodels said {w[:200]}")

    # -- cooperative --
    def team(self, t: TeamFigures) -> None:
        """A cooperative game's team section (its `TEAM`): the perfect-game rate per player count and cell of its
        two split options, a table by factor, and the distribution of the team's measure."""
        g = self.games
        m_col = t.measure
        a_col, b_col = (f"opt_{o}" for o in t.split)
        counts = sorted(g["players"].unique())
        firsts = list(g[a_col].cat.categories) if a_col in g else ["none"]
        seconds = list(g[b_col].cat.categories) if b_col in g else ["none"]
        fig, axes = _panels(len(counts), 3.2, 3.6)
        width = 0.8 / max(1, len(firsts) * len(seconds))
        for ax, k in zip(axes, counts, strict=True):
            sub = g[g["players"] == k]
            i = 0
            for v in firsts:
                for s in seconds:
                    cell = sub
                    if a_col in g:
                        cell = cell[cell[a_col] == v]
                    if b_col in g:
                        cell = cell[cell[b_col] == s]
                    w, n = float(cell["perfect"].sum()), len(cell)
                    lo, hi = wilson(w, n)
                    r = w / n if n else 0.0
                    ax.bar(i * width, 100 * r, width, yerr=_err([r], [(lo, hi)]), capsize=2,
                           label=f"{v} / {s}")
                    i += 1
            ax.set_xticks([])
            ax.set_title(f"{k} players")
            ax.set_ylabel("perfect games (%), 95% CI")
        axes[-1].legend(title=" / ".join(t.split_words), loc="upper right")
        table = []
        for key in ["players"] + [c for c in (a_col, b_col) if c in g]:
            for lvl, sub in g.groupby(key, sort=True, observed=True):
                w, n = float(sub["perfect"].sum()), len(sub)
                lo, hi = wilson(w, n)
                m = float(sub[m_col].mean())
                half = Z95 * float(sub[m_col].std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
                table.append(f"<tr><td>{html.escape(key.removeprefix('opt_'))} = {html.escape(str(lvl))}</td>"
                             f"<td>{n}</td><td>{_pct(w / n)} ({_pct(lo)}-{_pct(hi)})</td>"
                             f"<td>{m:.2f} ({m - half:.2f}-{m + half:.2f})</td></tr>")
        words = html.escape(t.measure_words)
        self.sections.append(f"<h2>Perfect games and {words} by factor</h2><table><tr><th>games with</th>"
                             f"<th>games</th><th>perfect (95% CI)</th><th>mean {words} (95% CI)</th></tr>"
                             + "".join(table) + "</table><p class=\"cap\">Each factor's levels over all the games "
                             "at that level (the other factors mixed as the design mixes them); Wilson intervals for "
                             "rates, normal intervals for means.</p>")
        self.save(fig, "perfect", t.perfect_title, t.perfect_caption)
        fig, axes = _figure(3.6 * len(firsts) + 1, 2.8 * len(counts), ncols=len(firsts), nrows=len(counts))
        top = int(min(12, g[m_col].max())) if len(g) else 0
        for r_i, k in enumerate(counts):
            for c_i, v in enumerate(firsts):
                ax = axes[r_i][c_i]
                for s in seconds:
                    cell = g[(g["players"] == k)]
                    if a_col in g:
                        cell = cell[cell[a_col] == v]
                    if b_col in g:
                        cell = cell[cell[b_col] == s]
                    n = len(cell)
                    xs = list(range(top + 1))
                    counts_at = [float((cell[m_col].clip(upper=top) == x).sum()) for x in xs]
                    rates = [c / n if n else 0.0 for c in counts_at]
                    cis = [wilson(c, n) for c in counts_at]
                    ax.errorbar(xs, [100 * r for r in rates], yerr=_err(rates, cis),
                                marker="o", markersize=3, capsize=2, linewidth=1, label=f"{t.split_words[1]} {s}")
                ax.set_title(f"{k} players, {t.split_words[0]} {v}")
                ax.set_xlabel(f"{t.measure_words} ({top} = {top} or more)")
                ax.set_ylabel("games (%), 95% CI")
        axes[0][-1].legend()
        self.save(fig, m_col, t.measure_title, t.measure_caption)

    # -- regressions of table-wide factors --
    def effects(self) -> None:
        """Each table-wide factor's effect, level by level against its first, the other factors held as they are
        in the data: predicted-probability differences for the 0/1 outcomes (tabletop.study.effects), mean
        differences for the others, errors clustered by game."""
        from tabletop.study.effects import LOGIT, OLS, RAW, binary_effects, linear_effects

        varied = [f"opt_{k}" for k in sorted(self.spec.options) if len(self.spec.options[k]) > 1]
        with_players = (["players"] if len(self.spec.players) > 1 else []) + varied
        # title, data, outcome, kind, unit, terms, and the data's frame and filter (for findings.json's check)
        models: list[tuple[str, Any, str, str, str, list[str], str, dict[str, Any]]] = []
        team = self.features.team
        if self.info.cooperative:
            models.append(("perfect games", self.games, "perfect", "logit", "pp", with_players, "games", {}))
            if team is not None:
                models.append((team.measure_words, self.games, team.measure, "ols", team.unit, with_players, "games",
                               {}))
        else:
            first = self.seats[self.seats["position"] == 1]
            if varied and self.features.start_player:
                models.append(("the start player's win rate", first, "won", "logit", "pp", varied, "seats",
                               {"position": 1}))
        models += [("game length", self.games, "length", "ols", "actions", with_players, "games", {})]
        if not self.info.cooperative:
            models.append(("score spread", self.games, "spread", "ols", "points", with_players, "games", {}))
        rows: list[tuple[str, str, float, float, float, str]] = []  # model, level, effect, lo, hi, unit
        for title, data, y, kind, unit, terms, frame, where in models:
            if not terms or data[y].nunique() < 2:
                continue
            if kind == "logit":
                fit = binary_effects(data, y, terms, cluster="gid")
                minimum = MIN_RATE_EFFECT
            else:
                fit = linear_effects(data, y, terms, cluster="gid")
                minimum = MIN_RELATIVE_EFFECT * abs(float(data[y].mean()))
            self._notes(f"The {title} model", fit.method, fit.warnings, LOGIT if kind == "logit" else OLS)
            for e in fit.effects:
                name = "player count" if e.factor == "players" else option_words(self.spec.game,
                                                                                   e.factor.removeprefix("opt_"))
                if e.factor == "players":
                    level, ref = f"{e.level} players", e.reference
                else:
                    opt = e.factor.removeprefix("opt_")
                    level, ref = (level_words(self.spec.game, opt, v) for v in (e.level, e.reference))
                    level = "on" if level.lower() == name.lower() else level  # "Tavern on", not "Tavern tavern"
                label = f"{level} rather than {ref}" if e.factor == "players" else f"{name}: {level} rather than {ref}"
                rows.append((title, label, e.estimate, e.lo, e.hi, unit))
                others = ["player count" if t == "players" else option_words(self.spec.game, t.removeprefix("opt_"))
                          for t in terms if t != e.factor]
                raw = f"{100 * e.raw:+.1f} points" if unit == "pp" else f"{e.raw:+.2f} {unit}"
                self.tests.append(Hypothesis(
                    f"{title} ({label})", e.estimate, e.lo, e.hi, e.p, minimum, unit,
                    f"raw difference {raw}; {_method_short(fit.method)}"
                    + (f", adjusted for {', '.join(others)}" if others else ""),
                    check={"kind": "levels", "frame": frame, "outcome": y, "where": where, "factor": e.factor,
                           "level": str(e.level), "reference": str(e.reference), "equal": fit.method == RAW}))
        if not rows:
            return
        titles = list(dict.fromkeys(r[0] for r in rows))
        sizes = [sum(r[0] == t for r in rows) for t in titles]
        from matplotlib.figure import Figure

        fig = Figure(figsize=(PAGE_INCHES, 0.42 * sum(sizes) + 1.0 * len(titles) + 0.4), layout="constrained")
        axes = fig.subplots(len(titles), 1, squeeze=False, gridspec_kw={"height_ratios": [s + 1.2 for s in sizes]})
        for (ax,), t in zip(axes, titles, strict=True):
            mine = [r for r in rows if r[0] == t]
            scale = 100 if mine[0][5] == "pp" else 1
            ys = list(range(len(mine)))[::-1]
            ax.errorbar([scale * r[2] for r in mine], ys,
                        xerr=[[scale * (r[2] - r[3]) for r in mine], [scale * (r[4] - r[2]) for r in mine]],
                        fmt="o", capsize=3)
            ax.axvline(0, color="grey", linewidth=1)
            ax.set_yticks(ys, [r[1] for r in mine])
            ax.set_ylim(-0.6, len(mine) - 0.4)
            ax.set_title(t, loc="left")
            unit = mine[0][5]
            ax.set_xlabel("effect (percentage points), 95% CI" if unit == "pp" else f"effect ({unit}), 95% CI")
        self.save(fig, "effects", "Effects of the table-wide factors",
                  "Each level against its factor's first, the other factors as they are in the data: for a rate, "
                  "the change in the rate (the average predicted-probability difference of a logistic model, or of "
                  "Firth's penalised one where an outcome is never or always seen at a level), in percentage "
                  "points; for a length or a spread, the change in the mean (linear model); 95% intervals from "
                  "standard errors clustered by game.")


def _plain(value: Any) -> Any:
    """A frame's value as plain JSON: an integral number as an int, another number as a float, else a string."""
    if isinstance(value, bool | str):
        return value
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return int(f) if f.is_integer() else f


def _fair(where: dict[str, Any], fair: float) -> dict[str, Any]:
    return {"kind": "fair", "frame": "seats", "outcome": "share", "where": where, "fair": fair}


def _method_short(method: str) -> str:
    from tabletop.study.effects import FIRTH, LOGIT, OLS, RAW

    return {LOGIT: "logistic regression (predicted-probability difference)",
            FIRTH: "Firth's penalised logistic regression (the data separate)",
            RAW: "raw difference, Newcombe's interval", OLS: "linear regression"}.get(method, method) \
        + ", errors clustered by game"


def _p_words(p: float) -> str:
    """"< 0.001" or "= 0.012"."""
    text = fmt_p(p)
    return text if text.startswith("<") else f"= {text}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def write_report(dataset: str | Path, out: str | Path | None = None,
                 components: Sequence[str | Path] = ()) -> Path:
    """Write the report of a dataset directory (default: DATASET/report/index.html, its PNGs beside it), with a
    component-value section for each component-value study directory in `components` (of the same game)."""
    from tabletop.study.components import ComponentError, load_components

    spec = stored_spec(dataset)
    every = read_rows(dataset)
    if not every:
        raise StudyError(f"{dataset} holds no games yet: run the study first")
    rows = [r for r in every if not r["cut"]]  # a game cut at the step limit has no result: listed, not counted
    cut = [r for r in every if r["cut"]]
    if not rows:
        raise StudyError(f"{dataset}: every one of its {len(cut)} games was cut at the step limit of "
                         f"{spec.max_steps} decisions ([design] max_steps): nothing to report but that")
    try:
        studies = [load_components(c) for c in components]
    except ComponentError as e:
        raise StudyError(str(e)) from None
    for c, st in zip(components, studies, strict=True):
        if st.game != spec.game:
            raise StudyError(f"{c} is a component-value study of {game_info(st.game).title}, not of "
                             f"{game_info(spec.game).title}: give one of the report's game")
    target = Path(out) if out is not None else Path(dataset) / "report"
    target.mkdir(parents=True, exist_ok=True)
    import matplotlib

    games, seats = frames(spec, rows)
    rep = _Report(spec, games, seats, target)
    rep.cut = cut
    with matplotlib.rc_context(FONTS):
        _draw(rep)
    for c, st in zip(components, studies, strict=True):
        _components(rep, st, os.path.relpath(Path(c), target))
    correct(rep.tests)
    page = target / "index.html"
    page.write_text(_page(rep, len(rows)), encoding="utf-8")
    (target / "findings.json").write_text(json.dumps(_findings(rep, os.path.relpath(Path(dataset), target),
                                                               len(rows)), indent=1) + "\n", encoding="utf-8")
    return page


def _finding_text(t: Hypothesis) -> str:
    """A kept test as the page's findings state it: what, the effect with its interval and adjusted p-value, and the
    rates behind it where the test has them ("28.4% against a fair 25.0%, 8000 games"); how it was computed is in
    the table of every test."""
    rates = t.detail.split(";")[0] if t.detail and not t.detail.startswith("raw difference") else ""
    return (f"{t.words[0].upper() + t.words[1:]}: {t.effect_text(f'{CORRECTION}-adjusted p {_p_words(t.p_adj)}')}"
            + (f": {rates}" if rates else "") + ".")


def _findings(rep: _Report, dataset: str, n: int) -> dict[str, Any]:
    """findings.json: every test of the report (its effect, interval, p-values, whether it is a finding, the sentence
    stating it, and how its raw difference is recomputed from the rows), and every component effect."""
    tests = [{"words": t.words, "effect": float(t.effect), "lo": float(t.lo), "hi": float(t.hi), "unit": t.unit,
              "p": float(t.p), "p_adjusted": float(t.p_adj),
              "finding": bool(t.kept), "sentence": _finding_text(t) if t.kept else None,
              "detail": t.detail, "check": t.check} for t in rep.tests]
    return {"game": rep.spec.game, "study": rep.spec.name, "dataset": dataset, "games": n,
            "correction": CORRECTION, "alpha": ALPHA, "tests": tests, "components": rep.component_tests,
            "caveat": CAVEAT}


def _draw(rep: _Report) -> None:
    if rep.info.cooperative:
        if rep.features.team is not None:
            rep.team(rep.features.team)
    else:
        rep.seat_position()
        draw = {"rate": rep.seat_rate, "kinds": rep.kinds, "binned": rep.binned}
        for f in rep.features.figures:
            draw[f.kind](f)
        rep.by_level()
    rep.effects()
    _length_figure(rep)
    _distributions(rep)
    _coverage(rep)


def _components(rep: _Report, study: ComponentStudy, where: str) -> None:
    """A component-value section: the heatmap of a component-value study (by intervention), its summary, one
    sentence per component with its interval, how it was made and the caveat."""
    from tabletop.study.components import component_figure, component_findings, effects, method_words, summary

    found = effects(study.rows)
    name = f"components-{study.players}p"
    sentences = component_figure(study.game, study.players, found, rep.out / f"{name}.png")
    rep.component_tests += component_findings(study, found, where)
    title = f"Component value, {study.players} players (by intervention)"
    rep.sections.append(
        f"<h2>{html.escape(title)}</h2><p><b>{html.escape(summary(study.game, found))}</b></p>"
        f"<img src=\"{name}.png\" alt=\"{html.escape(title)}\"><p class=\"cap\">{html.escape(method_words(study))} "
        "Each cell is the change in the forbidden seat's result (left) and score (right), with its 95% interval; "
        "red cells: the seat does worse without the component (it is worth something to the agent), blue: better "
        "(the agent over-values it). This is a separate experiment from the games above, not in the tests' "
        "correction.</p><ul>" + "".join(f"<li>{html.escape(w)}</li>" for w in sentences) + "</ul>"
        f"<p class=\"cap\">Agents are not people: this is how far the {html.escape(study.agent)} agent's result "
        "depends on each component, not how far a person's would; a stronger agent may value them differently.</p>")


def _length_figure(rep: _Report) -> None:
    """Mean actions per game in each cell, each cell named by its levels in the lobby's words."""
    import textwrap

    g = rep.games
    keys = ["players"] + [f"opt_{k}" for k in sorted(rep.spec.options) if len(rep.spec.options[k]) > 1]
    groups = list(g.groupby(keys, sort=True, observed=True))
    fig, axes = _figure(max(6.0, 0.5 * len(groups) + 2.5), 4.2)
    ax = axes[0][0]
    labels, means, errs = [], [], []
    for k, sub in groups:
        kk = k if isinstance(k, tuple) else (k,)
        labels.append(" / ".join(f"{v}p" if key == "players" else
                                 level_words(rep.spec.game, key.removeprefix("opt_"), str(v))
                                 for key, v in zip(keys, kk, strict=True)))
        m = float(sub["length"].mean())
        se = float(sub["length"].std(ddof=1)) / math.sqrt(len(sub)) if len(sub) > 1 else 0.0
        means.append(m)
        errs.append(Z95 * se)
    ax.bar(labels, means, yerr=errs, capsize=3, color="tab:gray")
    ax.set_ylabel("actions a game\n(mean, 95% CI)")
    words = " / ".join("players" if k == "players" else option_words(rep.spec.game, k.removeprefix("opt_"))
                       for k in keys)
    ax.set_xlabel(textwrap.fill(words, 60))
    ax.tick_params(axis="x", rotation=60)
    for label in ax.get_xticklabels():
        label.set_horizontalalignment("right")
        label.set_rotation_mode("anchor")
    rep.save(fig, "length", "Game length", "Mean actions per game in each cell (its levels in the order of the axis "
             "title), with 95% normal intervals.")


def _distributions(rep: _Report) -> None:
    """Game length and each seat's decisions per game as distributions per player count, with the median and the
    5-95% range of each in words."""
    import numpy as np

    counts = sorted(rep.games["players"].unique())
    fig, axes = _panels(2, 4.6, 3.4, maxcols=2)
    words = []
    for ax, (frame, col, label) in zip(axes, [(rep.games, "length", "actions per game"),
                                               (rep.seats, "seat_decisions", "decisions per seat per game")],
                                       strict=True):
        for k in counts:
            values = frame.loc[frame["players"] == k, col].to_numpy(dtype=float)
            if not len(values):
                continue
            lo, med, hi = np.percentile(values, [5, 50, 95])
            bins = np.arange(math.floor(values.min()), math.ceil(values.max()) + 2) if values.max() - values.min() \
                < 60 else 40
            ax.hist(values, bins=bins, histtype="step", density=True, linewidth=1.5, label=f"{k} players")
            words.append(f"{label} at {k} players: median {med:.0f} (5-95%: {lo:.0f}-{hi:.0f})")
        ax.set_xlabel(label)
        ax.set_ylabel("share of games")
        ax.legend()
    rep.save(fig, "distributions", "Game length and decisions, distributions",
             "The distribution of the actions in a game and of each seat's decisions in a game, per player count. "
             + "; ".join(words) + ".")


def _coverage(rep: _Report) -> None:
    """Rule-coverage signals from the dataset: games far longer than their cell's median (a rule that loops, or
    agents that do not make progress: each listed with its block and deal seed to replay), and seats that made no
    decision in a whole game."""
    g = rep.games
    keys = ["players"] + [f"opt_{k}" for k in sorted(rep.spec.options) if len(rep.spec.options[k]) > 1]
    median = g.groupby(keys, observed=True)["length"].transform("median")
    long = g[g["length"] > 3 * median].sort_values("length", ascending=False)
    idle = rep.seats[rep.seats["seat_decisions"] == 0]
    items = [f"{len(long)} of {len(g)} games are more than three times as long as their cell's median"
             + (": the longest, " + ", ".join(f"block {int(r.block)} (seed {int(r.seed)}, {int(r.length)} actions)"
                                              for r in long.head(5).itertuples()) if len(long) else ""),
             f"{len(idle)} seats of {len(rep.seats)} made no decision in their game"
             + (f" (in {idle['gid'].nunique()} games)" if len(idle) else ""),
             _cut_line(rep),
             _never_reached(rep)]
    rep.sections.append("<h2>Rule-coverage signals</h2><ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items)
                        + "</ul>")


def _cut_line(rep: _Report) -> str:
    """The coverage line on the step limit: the games cut there (a rule that loops, or agents that never end a game),
    each with its block and deal seed to replay."""
    limit = rep.spec.max_steps
    total = len(rep.games) + len(rep.cut)
    if not rep.cut:
        return f"no game of the {total} hit the step limit ({limit} decisions a game, [design] max_steps)"
    shown = ", ".join(f"block {r['block']} (seed {r['seed']}, {r['players']} players, {r['length']} actions)"
                      for r in rep.cut[:5])
    return (f"{len(rep.cut)} of {total} games hit the step limit ({limit} decisions a game, [design] max_steps) and "
            f"were cut unfinished: left out of every figure above; {shown}"
            + (f" and {len(rep.cut) - 5} more" if len(rep.cut) > 5 else ""))


def _never_reached(rep: _Report) -> str:
    """The coverage line on decisions: the action kinds the game declares that no game of the study took (the
    dataset's `action_kinds`, the verbs taken in each game), the rarest taken, and any taken but not declared."""
    g = rep.games
    if "action_kinds" not in g or not (g["action_kinds"] != "").any():
        return "decisions never reached: this dataset was written before the action-kinds column; rerun it to see them"
    counts: dict[str, int] = {}
    for kinds in g["action_kinds"]:
        for k in filter(None, str(kinds).split("|")):
            counts[k] = counts.get(k, 0) + 1
    declared = rep.features.action_kinds
    never = [k for k in declared if k not in counts]
    rare = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]))[:5]
    words = (f"decisions never reached: {len(never)} of the {len(declared)} action kinds "
             f"{rep.info.title} declares were never taken in {len(g)} games"
             + (f" ({', '.join(never)})" if never else "")) if declared else \
        f"decisions never reached: {rep.info.title} declares no action kinds (ACTION_KINDS), so only those taken show"
    words += "; the rarest taken: " + ", ".join(f"{k} (in {n} game{'' if n == 1 else 's'})" for k, n in rare)
    notes = rep.features.action_notes
    if any(k in notes for k in never):
        words += "; why: " + "; ".join(f"{k}: {notes[k]}" for k in never if k in notes)
    unexplained = [k for k in never if k not in notes]
    if never and unexplained:
        words += (f"; not explained by {rep.info.title}'s features ({', '.join(unexplained)}): a rule the agents "
                  "never met, or one an option outside this study enables")
    extra = sorted(k for k in counts if declared and k not in declared)
    if extra:
        words += f"; taken but not declared: {', '.join(extra)}"
    return words


def _page(rep: _Report, n: int) -> str:
    spec = rep.spec
    kept = [t for t in rep.tests if t.kept]
    kept.sort(key=lambda t: t.p_adj)
    findings = "".join(f"<li>{html.escape(_finding_text(t))}</li>" for t in kept)
    if not findings:
        findings = "<li>No effect passes both the correction and the minimum effect.</li>"
    test_rows = "".join(
        f"<tr class=\"{'kept' if t.kept else ''}\"><td>{html.escape(t.words)}</td><td>{html.escape(t.effect_text())}"
        f"</td><td>{html.escape(t.detail)}</td><td>{html.escape(fmt_p(t.p))}</td><td>{html.escape(fmt_p(t.p_adj))}</td>"
        f"<td>{'yes' if t.kept else 'no'}</td></tr>" for t in rep.tests)
    notes = ("<h2>Model notes</h2><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in dict.fromkeys(rep.notes))
             + "</ul>") if rep.notes else ""
    cells = len(spec.cells())
    agents = ", ".join(sorted(rep.games["agents"].unique()))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(spec.name)}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #222; }}
img {{ max-width: 100%; border: 1px solid #ddd; }} .cap {{ color: #555; font-size: 0.9rem; }}
table {{ border-collapse: collapse; font-size: 0.85rem; }} td, th {{ border: 1px solid #ccc; padding: 0.2rem 0.4rem; }}
tr.kept {{ background: #eef7ee; }} pre {{ background: #f6f6f6; padding: 0.6rem; overflow-x: auto; }}
</style></head><body>
<h1>{html.escape(spec.name)}</h1>
<p>{html.escape(spec.description)}</p>
<p>{n} games of {html.escape(rep.info.title)} ({html.escape(agents)}), {spec.kind} design over {cells} cell(s),
study seed {spec.seed}.</p>
<h2>Findings</h2>
<p class="cap">Stated only when the effect survives {CORRECTION}'s correction over the {len(rep.tests)} tests of this
report (adjusted p &lt; {ALPHA}) and is at least {100 * MIN_RATE_EFFECT:.0f} percentage points for a rate, or
{100 * MIN_RELATIVE_EFFECT:.0f}% of the overall mean for a length, a spread or cards left.</p>
<ul>{findings}</ul>
<p class="cap">These are the agents' games ({html.escape(agents)}): agents are not people, and an effect they show
(or do not show) is a question to put to playtesters, not an answer.</p>
{''.join(rep.sections)}
{notes}
<h2>Every test</h2>
<table><tr><th>test</th><th>effect</th><th>detail</th><th>p</th><th>{CORRECTION} p</th><th>finding</th></tr>
{test_rows}</table>
<h2>The study file</h2>
<pre>{html.escape(spec.source)}</pre>
</body></html>
"""
