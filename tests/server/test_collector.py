"""The server keeps Python's garbage collector from stalling its event loop: the start-up heap frozen out of the
collector's scans, the young generation collected every `gc_young_threshold` allocations, once per process."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def test_the_server_freezes_its_start_up_heap_and_raises_the_young_threshold_once() -> None:
    out = _run(
        "import gc\n"
        "from tabletop.server.app import quiet_collector\n"
        "default = gc.get_threshold()\n"
        "quiet_collector(50_000)\n"
        "frozen, first = gc.get_freeze_count(), gc.get_threshold()\n"
        "quiet_collector(1_000)\n"
        "print(default[0] != 50_000, frozen > 10_000, first[0], first[1:] == default[1:], gc.get_threshold()[0])\n")
    assert out == "True True 50000 True 50000"  # the second call changes nothing: once per process


def test_a_threshold_of_zero_keeps_pythons_defaults() -> None:
    out = _run(
        "import gc\n"
        "from tabletop.server.app import quiet_collector\n"
        "default = gc.get_threshold()\n"
        "quiet_collector(0)\n"
        "print(gc.get_freeze_count(), gc.get_threshold() == default)\n")
    assert out == "0 True"
