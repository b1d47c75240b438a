"""A socket message carries integers past 64 bits exactly (SiliconVania's public flow holds bit sets): orjson
refuses them, and the socket then falls back to json instead of failing (the browser's table stayed on
'reconnecting…' from that position on)."""

from __future__ import annotations

import random
from typing import Any

from .conftest import Factory, auth, random_move, state_of, two_humans


def _big(x: Any) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return abs(x) >= 2**63
    if isinstance(x, dict):
        return any(_big(v) for v in x.values())
    if isinstance(x, list):
        return any(_big(v) for v in x)
    return False


def test_a_siliconvania_view_with_a_bit_set_past_64_bits_reaches_the_socket(make_client: Factory) -> None:
    client = make_client()
    rng = random.Random(5)
    for _attempt in range(20):
        gid, tokens = two_humans(client, "siliconvania")
        for n in range(400):
            states = [state_of(client, gid, t) for t in tokens]
            if states[0]["status"] != "playing" or _big(states[0]["view"]):
                break
            for s, t in zip(states, tokens, strict=True):
                if s["legal"] and s.get("owes_decision", True):
                    client.post(f"/api/games/{gid}/actions", headers=auth(t),
                                json={"action": random_move(rng, s), "seq": s["seq"], "client_action_id": f"b{n}"})
                    break
        if _big(states[0]["view"]):
            break
    else:
        raise AssertionError("no position with an integer past 64 bits in 20 games")
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
        msg = ws.receive_json()
    assert msg["type"] == "state" and msg["view"] == states[0]["view"] and _big(msg["view"])
