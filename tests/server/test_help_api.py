"""GET /api/meta/games/{game}/help serves the game's help data exactly as the engine loads it."""

from __future__ import annotations

from tabletop.core.help import game_help

from .conftest import Factory


def test_the_help_endpoint_serves_each_games_help_file_and_404s_an_unknown_game(make_client: Factory) -> None:
    client = make_client()
    for game in ("silos", "silencio"):
        r = client.get(f"/api/meta/games/{game}/help")
        assert r.status_code == 200, r.text
        assert r.json() == game_help(game)
    r = client.get("/api/meta/games/chess/help")
    assert r.status_code == 404 and "unknown game" in r.json()["detail"]
