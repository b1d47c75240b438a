"""The arena's picture: win share per agent with its 95% interval, and each agent's score distribution."""

from __future__ import annotations

from pathlib import Path

from tabletop.arena.runner import ArenaResult
from tabletop.core import game_info


def plot_result(result: ArenaResult, path: str | Path) -> Path:
    """Write a PNG (or any format matplotlib knows by the suffix) of the result; returns the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    info = game_info(result.game)
    s = result.summary
    agents = sorted(s.agents, key=lambda a: -a.ordinal)
    names = [a.spec for a in agents]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    title = f"{info.title}, {len(result.lineup)} players, {s.games} games"
    fig.suptitle(title + (" (interrupted)" if result.interrupted else ""))

    if s.cooperative:
        lo, hi = s.perfect_ci
        left.bar(["team"], [s.perfect_rate], yerr=[[max(0.0, s.perfect_rate - lo)], [max(0.0, hi - s.perfect_rate)]],
                 capsize=6,
                 color="#6a5acd")
        left.set_ylabel("perfect-game rate (95% CI)")
    else:
        rates = [a.win_rate for a in agents]
        errs = [[max(0.0, r - a.win_ci[0]) for r, a in zip(rates, agents, strict=True)],
                [max(0.0, a.win_ci[1] - r) for r, a in zip(rates, agents, strict=True)]]
        left.bar(names, rates, yerr=errs, capsize=6, color="#4682b4")
        left.axhline(1 / len(result.lineup), ls="--", color="grey", label="an equal share")
        left.legend(loc="upper right")
        left.set_ylabel("win share per seat-game (95% CI)")
    left.set_ylim(0, 1)
    left.tick_params(axis="x", labelrotation=15)

    per_agent: dict[str, list[float]] = {n: [] for n in names}
    for o in result.outcomes:
        for spec, score in zip(o.specs, o.scores, strict=True):
            per_agent[spec].append(score)
    data = [per_agent[n] or [0.0] for n in names]
    right.boxplot(data, showmeans=True)
    right.set_xticks(range(1, len(names) + 1), names, rotation=15)
    right.set_ylabel(info.score_label)
    right.set_title("final scores (box: quartiles, triangle: mean)", fontsize=9)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
