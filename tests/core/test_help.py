"""Rules help as data (games/<game>/help.toml): every game has one, it loads and validates, every action met in
random playouts finds an explanation by prefix, and the terms the tables show are explained."""

from __future__ import annotations

import random
import tomllib

import pytest

import tabletop
from tabletop.core.help import HelpDataError, NoHelp, explain, game_help, parse_help

GAMES = tabletop.games()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_help_file_with_rules_actions_and_terms(game: str) -> None:
    h = game_help(game)
    assert h["title"] == tabletop.game_info(game).title
    titles = " ".join(r["title"].lower() for r in h["rules"])
    for topic in ("goal", "turn", "end"):
        assert topic in titles, f"{game}: no rules section about {topic!r}"
    assert h["actions"] and h["terms"]


@pytest.mark.parametrize("game", GAMES)
def test_every_action_of_random_playouts_finds_an_explanation_by_prefix(game: str) -> None:
    h = game_help(game)
    info = tabletop.game_info(game)
    missing: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        players = rng.randint(info.min_players, info.max_players)
        options = {}
        for o in info.options:
            if o.multi:
                options[o.name] = rng.sample(list(o.choices), rng.randrange(len(o.choices) + 1))
            elif o.check is None:
                options[o.name] = rng.choice(list(o.choices))
        s = tabletop.new_game(game, players, seed=seed, options=options)
        for _ in range(400 if game == "siliconvania" else 3000):
            if s.is_over:
                break
            legal = [str(a) for a in s.legal_actions()]
            missing.update(a for a in legal if explain(h, a) is None)
            s.apply(rng.choice(legal))
    assert not missing, f"{game}: actions without an explanation: {sorted(missing)[:20]}"


def test_the_longest_matching_prefix_explains_an_action() -> None:
    h = game_help("silos")
    assert explain(h, "power 4 draw three") == h["actions"]["power 4 draw three"]
    assert explain(h, "power 4 draw") == h["actions"]["power 4 draw"]
    assert explain(h, "place leader 3") == h["actions"]["place leader"]
    assert explain(h, "place politician 3") == h["actions"]["place "]
    assert explain(h, "no such action") is None


def test_silos_help_explains_every_location_power_base_and_alternate_every_card_and_module() -> None:
    terms = game_help("silos")["terms"]
    names = [loc["name"] for loc in tabletop.new_game("silos", 3, seed=1).view(0)["locations"]]
    for name in names:
        assert name in terms and f"{name}*" in terms
    for card in ("All Powers", "One Power", "Marked Specimen", "UFO Advance", "UFO Sighting", "Human Confluence",
                 "Your Powers", "Crop Circles"):
        assert card in terms
    for i in range(7):
        assert f"skill {i}" in terms


def test_silencio_help_explains_each_effect_light_and_dark_the_shrines_the_star_and_the_variants() -> None:
    terms = game_help("silencio")["terms"]
    for colour in ("red", "blue", "yellow", "green"):
        assert f"{colour} light" in terms and f"{colour} dark" in terms
    for t in ("shrine", "large shrine", "★", "Tavern", "Dark Shrines"):
        assert t in terms


def test_a_malformed_help_file_is_refused_naming_the_field() -> None:
    good = {"title": "X", "rules": [{"title": "Goal", "text": "win"}], "actions": {"a": "b"}, "terms": {"t": "u"}}
    assert parse_help(good, "x")["title"] == "X"
    cases: list[tuple[dict[str, object], str]] = [
        ({**good, "extra": 1}, "unknown top-level"), ({**good, "rules": []}, "rules"),
        ({**good, "rules": [{"title": "Goal"}]}, "rules[0]"), ({**good, "actions": {"a": ""}}, "actions"),
        ({**good, "terms": {}}, "terms"), ({**good, "title": 3}, "title")]
    for bad, field in cases:
        with pytest.raises(HelpDataError, match=field.replace("[", r"\[").replace("]", r"\]")):
            parse_help(bad, "x")
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads("title = ")


def test_an_unknown_game_has_no_help() -> None:
    with pytest.raises(tabletop.UnknownGame):
        game_help("chess")
    assert issubclass(NoHelp, tabletop.TabletopError)
