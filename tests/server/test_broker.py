"""The in-process broker tells every subscriber of a game, once per loop, whether the event was published from a
worker thread or from the loop itself (a move applied in the loop: no wake-up through the loop's self-pipe)."""

from __future__ import annotations

import asyncio
import threading

from tabletop.server.pubsub import InProcessBroker


def test_a_notice_reaches_every_subscriber_from_the_loop_and_from_a_thread() -> None:
    broker = InProcessBroker()

    async def go() -> None:
        woken: list[tuple[str, int]] = []
        a = broker.subscribe("g", lambda seq: woken.append(("a", seq)))
        b = broker.subscribe("g", lambda seq: woken.append(("b", seq)))
        queued = broker.subscribe("g")
        other = broker.subscribe("h", lambda seq: woken.append(("h", seq)))
        broker.publish("g", 1)  # from the loop's own thread
        assert woken == []  # delivered on the loop's next turn, not inside publish
        await asyncio.sleep(0)
        assert sorted(woken) == [("a", 1), ("b", 1)]
        assert await asyncio.wait_for(queued.next(), 5) == 1
        t = threading.Thread(target=broker.publish, args=("g", 2))
        t.start()
        t.join()
        assert await asyncio.wait_for(queued.next(), 5) == 2
        assert sorted(woken) == [("a", 1), ("a", 2), ("b", 1), ("b", 2)]
        for sub in (a, b, queued, other):
            sub.close()

    asyncio.run(go())
