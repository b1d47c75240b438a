"""Rate limits per address and per token (429 with Retry-After), and size and rate limits on socket messages."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tabletop.server.limits import Buckets

from .conftest import Factory, auth, two_humans


def test_a_bucket_allows_its_burst_then_its_rate() -> None:
    b = Buckets(rate=2.0, burst=3)
    assert [b.take("k", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert b.take("k", now=0.0) == pytest.approx(0.5)
    assert b.take("k", now=0.5) == 0.0 and b.take("other", now=0.5) == 0.0
    assert Buckets(rate=0, burst=0).take("k") == 0.0  # off


def test_a_bucket_forgets_idle_keys() -> None:
    b = Buckets(rate=1.0, burst=2, max_keys=10)
    for i in range(11):
        b.take(str(i), now=0.0)
    b.take("late", now=100.0)
    assert len(b._b) == 1


def test_too_many_requests_from_one_address_get_429_with_retry_after(make_client: Factory) -> None:
    client = make_client(rate_per_address=1.0, burst_per_address=5)
    codes = [client.get("/api/meta/games").status_code for _ in range(5)]
    r = client.get("/api/games")
    assert codes == [200] * 5 and r.status_code == 429
    assert int(r.headers["Retry-After"]) >= 1 and "too many requests" in r.json()["detail"]


def test_one_token_is_limited_on_its_own(make_client: Factory) -> None:
    client = make_client(rate_per_token=0.5, burst_per_token=3)
    gid, tokens = two_humans(client, "silos")
    got = [client.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).status_code for _ in range(4)]
    assert got == [200, 200, 200, 429]
    assert client.get(f"/api/games/{gid}/state", headers=auth(tokens[1])).status_code == 200
    assert client.get(f"/api/games/{gid}/state").status_code == 200  # a spectator: the address's bucket only
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}"):
        pass
    assert e.value.code == 1013


def test_socket_messages_over_the_size_or_rate_limit_close_the_socket(make_client: Factory) -> None:
    client = make_client(max_socket_message_bytes=100, max_socket_messages_per_second=5)
    gid, tokens = two_humans(client, "silencio")
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        ws.send_text("é" * 60)  # 120 bytes
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
    assert e.value.code == 1009
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        for _ in range(10):
            ws.send_text("hi")
        answers = []
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(20):
                answers.append(ws.receive_json())
    assert e.value.code == 1008
    assert len(answers) <= 5 and all(a["type"] == "refused" and a["status"] == 422 for a in answers), answers


def test_seat_tokens_never_reach_the_server_log() -> None:
    """uvicorn logs each socket connection with its URL, which carries the seat token: the log shows it redacted."""
    import io
    import logging

    from tabletop.cli.serve import redact_server_logs

    logger = logging.getLogger("uvicorn.error")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        redact_server_logs()
        secret = "s3cr3t-T0ken_value"
        logger.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", f"/api/games/g1/ws?token={secret}&since=3")
        logger.info("plain line without credentials")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    text = stream.getvalue()
    assert secret not in text
    assert "token=[redacted]&since=3" in text and "plain line without credentials" in text
