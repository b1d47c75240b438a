"""The registry loads its games once, under a lock: threads asking for the first time at once all find them."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_threads_asking_the_registry_first_at_once_all_find_every_game() -> None:
    # a fresh interpreter, so that nothing has loaded the games yet
    code = textwrap.dedent(
        """
        import threading
        from tabletop.core import registry

        found = []
        start = threading.Barrier(8)

        def ask():
            start.wait()
            found.append(sorted(registry.games()))

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(found)
        assert all(f == found[0] for f in found) and {"silencio", "silos", "siliconvania"} <= set(found[0]), found
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
