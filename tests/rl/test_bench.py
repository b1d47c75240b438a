"""The throughput benchmark (scripts/rl_bench.py): ratios are per repetition, figures are medians."""

from __future__ import annotations

from tabletop.rl.bench import bench, table


def test_the_benchmark_keeps_one_ratio_per_repetition_and_reports_medians() -> None:
    ticks = []
    rows = bench([("silos", 2)], seconds=0.02, repeat=3, progress=lambda: ticks.append(1))
    assert len(ticks) == 3 and len(rows) == 1
    row = rows[0]
    assert len(row.ratios) == 3 and min(row.ratios) <= row.ratio <= max(row.ratios)
    assert row.engine_us > 0 and row.aec_us > 0 and row.wrapped_us > 0
    text = table(rows)
    assert "| silos | 2 |" in text and f"{row.ratio:.1f}×" in text
