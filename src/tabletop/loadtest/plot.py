"""The timeline plot of a people-paced load test (`tabletop loadtest --plot FILE`)."""

from __future__ import annotations

from typing import Any


def plot_timeline(report: dict[str, Any], path: str) -> None:
    """The people-paced run over time: round-trip p50/p99/max per second, games in play and the server's CPU."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["paced"]["timeline"]
    t = [r["second"] for r in rows]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True, height_ratios=[2, 1])
    for key, style, label in (("max_ms", ":", "max"), ("p99_ms", "-", "p99"), ("p50_ms", "--", "p50"),
                              ("bots_loop_late_ms", "-", "bots' loop late (max)")):
        ax.plot(t, [max(r[key], 0.1) for r in rows], style, label=label,
                **({"color": "black", "lw": 0.6} if key.startswith("bots") else {}))
    ax.axhline(50, color="grey", lw=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("round trip, ms")
    ax.legend(loc="upper right")
    p = report["paced"]
    ax.set_title(f"people-paced load test, {report['db']}: {p['games']} tables, {p['actions_per_s']} actions/s, "
                 f"p99 {p['p99_ms']} ms")
    ax2.plot(t, [r["games_in_play"] for r in rows], label="games in play")
    ax2.set_ylabel("games in play")
    ax3 = ax2.twinx()
    ax3.plot(t, [100 * r["server_cpu"] for r in rows], color="tab:red", lw=0.8, label="server CPU %")
    ax3.set_ylabel("server CPU %")
    ax2.set_xlabel("seconds")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
