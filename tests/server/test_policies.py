"""Trained policies as AI seats: offered by label from the server's own policy directory, never by a path."""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path

import pytest

import tabletop
from tabletop.server.ai import choose_action, find_policies, shipped_policy_dir

from .conftest import Factory, state_of

SHIPPED = "silos-2p"


def _seats(*ai: str) -> list[dict[str, str]]:
    return [{"kind": "creator"}, *({"kind": "ai", "ai": a} for a in ai)]


def test_the_shipped_policy_is_offered_for_its_game_and_player_count(make_client: Factory) -> None:
    meta = {m["name"]: m for m in make_client().get("/api/meta/games").json()}
    from tabletop.agents.policy import shipped_policies

    for name, m in meta.items():  # every shipped policy of the game, at its measured place among the levels
        mine = sorted(shipped_policies(name), key=lambda s: s.name)
        assert sorted(m["ai"]) == sorted(["easy", "medium", "hard", *(s.name for s in mine)])
        assert [a for a in m["ai"] if a in ("easy", "medium", "hard")] == ["easy", "medium", "hard"]
        assert sorted(m["policies"], key=lambda p: p["label"]) == [
            {"label": s.name, "game": name, "players": s.players, "position": s.position} for s in mine]
        for s in mine:
            before = m["ai"][:m["ai"].index(s.name)]
            assert len([a for a in before if a in ("easy", "medium", "hard")]) == min(3, int(s.position + 1))
    assert SHIPPED in meta["silos"]["ai"]
    assert "path" not in str(meta) and ".npz" not in str(meta)  # the server's files are never shown


def test_a_policy_seat_is_created_by_its_label(make_client: Factory) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": _seats(SHIPPED)})
    assert r.status_code == 201, r.text
    info = client.get(f"/api/games/{r.json()['id']}").json()
    assert [s["ai"] for s in info["seats"]] == [None, SHIPPED]


@pytest.mark.parametrize("label", [
    "/etc/passwd", "../silos-2p.npz", "silos-2p.npz", str(shipped_policy_dir() / "silos-2p.npz"),
    "policy:path=/tmp/x.npz", "~/x", "..\\x",
])
def test_a_path_from_a_client_is_refused_with_a_clear_message(make_client: Factory, label: str) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": _seats(label)})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert "never by a path" in detail and "easy, medium, hard, silos-2p" in detail


def test_an_unknown_policy_name_is_refused_naming_the_offered_ones(make_client: Factory) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": _seats("nosuch")})
    assert r.status_code == 422
    assert r.json()["detail"] == "seat 1: AI strength 'nosuch' is not one of easy, medium, hard, silos-2p"


def test_a_policy_is_refused_for_another_game_or_player_count(make_client: Factory) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "silos", "players": 3, "seats": _seats(SHIPPED, "easy")})
    assert r.status_code == 422 and "plays 2-player SILOS, not 3-player SILOS" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "silencio", "players": 2, "seats": _seats(SHIPPED)})
    assert r.status_code == 422 and "not 2-player Silencio" in r.json()["detail"]
    assert "silos-2p" not in r.json()["detail"].split("here:")[1]  # not offered there


def test_the_policy_directory_setting_decides_what_is_offered(make_client: Factory, tmp_path: Path) -> None:
    shutil.copy(shipped_policy_dir() / f"{SHIPPED}.npz", tmp_path / "mine.npz")
    (tmp_path / "broken.npz").write_bytes(b"not a zip")
    shutil.copy(shipped_policy_dir() / f"{SHIPPED}.npz", tmp_path / "Not A Label.npz")
    shutil.copy(shipped_policy_dir() / f"{SHIPPED}.npz", tmp_path / "easy.npz")  # a built-in's name: skipped
    assert sorted(find_policies(tmp_path)) == ["mine"]
    client = make_client(policy_dir=str(tmp_path))
    silos = next(m for m in client.get("/api/meta/games").json() if m["name"] == "silos")
    assert silos["ai"] == ["easy", "medium", "hard", "mine"]  # no model card: not measured, after the levels
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": _seats(SHIPPED)})
    assert r.status_code == 422 and "easy, medium, hard, mine" in r.json()["detail"]
    assert find_policies(tmp_path / "missing") == {}


def test_the_policy_worker_picks_a_legal_action_from_the_seat_view() -> None:
    state = tabletop.new_game("silos", players=2, seed=3)
    path = str(shipped_policy_dir() / f"{SHIPPED}.npz")
    for _ in range(30):
        seat = state.to_move
        assert seat is not None
        text = choose_action(state.record(), seat, SHIPPED, seed=1, policy=path)
        state.apply(next(a for a in state.legal_actions() if a.text == text))


def test_a_learned_judgement_policy_is_offered_and_its_worker_picks_legal_actions() -> None:
    """SiliconVania's policies are learned judgements (`tabletop-lookahead-v1`): the lobby offers them for their
    player count, and the worker plays them from the record like a network."""
    offers = find_policies(None)
    assert {o.label for o in offers.values() if o.game == "siliconvania"} == {"vania-2p", "vania-3p", "vania-4p",
                                                                              "vania-5p"}
    assert offers["vania-3p"].players == 3
    state = tabletop.new_game("siliconvania", players=2, seed=3)
    for _ in range(25):
        seat = state.to_move
        assert seat is not None
        text = choose_action(state.record(), seat, "vania-2p", seed=1, policy=str(offers["vania-2p"].path))
        state.apply(next(a for a in state.legal_actions() if a.text == text))


def test_a_policy_seat_plays_through_the_ai_workers(make_client: Factory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="tabletop.server")
    client = make_client(ai_workers=1)
    r = client.post("/api/games", json={"game": "silos", "players": 2, "visibility": "public",
                                        "seats": [{"kind": "ai", "ai": SHIPPED}, {"kind": "ai", "ai": "easy"}]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    deadline = time.monotonic() + 60
    while state_of(client, gid)["seq"] < 8:
        assert time.monotonic() < deadline, "the AI seats did not move"
        time.sleep(0.05)
    assert not [r for r in caplog.records if "failed" in r.getMessage()]  # the policy moved, not the fallback
