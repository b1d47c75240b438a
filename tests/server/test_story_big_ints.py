"""A socket message carries integers past 64 bits exactly (SiliconVania's public flow holds bit sets): orjson
refuses them, and the socket then falls back to json instead of failing (the browser's table stayed on
'reconnecting…' from that position on)."""

from __future__ import annotations

import json
import random
from typing import Any

import orjson

from tabletop.server.api.routes.ws import encode

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


def test_a_socket_message_writes_every_integer_past_64_bits_exactly_wherever_it_sits() -> None:
    """`encode` walks only the parts orjson refuses: big integers at any depth (in dicts, lists, tuples, under
    integer keys) come out as their exact digits, the integers at orjson's edges and the booleans beside them as
    they are, and a message without big integers is orjson's own text."""
    msg: dict[Any, Any] = {"type": "state", "seq": 7, "legal": ["a", "b"], "log": [{"text": "x"}],
                           "view": {"flow": {"shown": [2**70, 6], "known": [-(2**63) - 1, 2**64 - 1, -(2**63)],
                                             "met": [1, 1]},
                                    "deep": [[{"x": (2**64, True)}]], 3: [False, None, 1.5]}}
    text = encode(msg)
    assert '"shown":[1180591620717411303424,6]' in text
    assert '"known":[-9223372036854775809,18446744073709551615,-9223372036854775808]' in text
    assert '"deep":[[{"x":[18446744073709551616,true]}]]' in text and '"3":[false,null,1.5]' in text
    assert json.loads(text) == json.loads(json.dumps(msg))  # the same numbers json writes
    plain: dict[Any, Any] = {"type": "state", "view": {"flow": {"met": [1, 2**64 - 1]}}, "legal": ["a"],
                             3: (True, -(2**63))}
    assert encode(plain) == orjson.dumps(plain, option=orjson.OPT_NON_STR_KEYS).decode()
