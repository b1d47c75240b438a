"""SiliconVania's help texts (src/tabletop/games/siliconvania/help.toml) are well-formed data, explain every action
a game can offer (longest matching prefix of its canonical text) and name every component the table shows."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import tabletop
from tabletop.games.siliconvania.components import ANTIQUITY_KINDS, OBJECTIVES, load

HELP = Path(tabletop.__file__).parent / "games" / "siliconvania" / "help.toml"


def _help() -> dict[str, object]:
    with HELP.open("rb") as f:
        return tomllib.load(f)


def explain(actions: dict[str, str], text: str) -> str | None:
    """The explanation of the longest prefix of `text` among the keys, or None."""
    best = max((k for k in actions if text.startswith(k)), key=len, default=None)
    return None if best is None else actions[best]


def test_the_help_file_has_a_title_rule_sections_actions_and_terms_all_plain_strings() -> None:
    h = _help()
    assert set(h) == {"title", "rules", "actions", "terms"}
    assert h["title"] == "SiliconVania"
    rules = h["rules"]
    assert isinstance(rules, list)
    for r in rules:
        assert set(r) == {"title", "text"} and all(isinstance(v, str) and v.strip() for v in r.values())
    titles = " ".join(r["title"].lower() for r in rules)
    for topic in ("goal", "bidding", "placing", "tracks", "objectives", "scoring"):
        assert topic in titles, topic
    for table in ("actions", "terms"):
        t = h[table]
        assert isinstance(t, dict) and t
        assert all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in t.items())


def test_every_action_of_random_playouts_matches_an_explained_prefix() -> None:
    actions = _help()["actions"]
    assert isinstance(actions, dict)
    verbs: set[str] = set()
    for seed in range(8):
        players = 2 + seed % 4
        s = tabletop.new_game("siliconvania", players, seed=seed)
        rng = random.Random(seed)
        while s.to_move is not None:
            legal = s.legal_actions()
            for a in legal:
                text = str(a)
                assert explain(actions, text) is not None, f"no help text for {text!r}"
                verbs.add(text.split()[0])
            s.apply(rng.choice(legal))
    # the check can fail: the playouts reach every kind of decision the notation has
    assert verbs >= {"bid", "recover", "pool", "place", "castle", "train", "relocate", "swap", "take", "objective"}


def test_the_most_specific_explanation_wins() -> None:
    actions = _help()["actions"]
    assert isinstance(actions, dict)
    assert explain(actions, "bid 6=0 s33") == actions["bid 6=0"]
    assert explain(actions, "bid 6 s33") == actions["bid 6"]
    assert explain(actions, "relocate skip") == actions["relocate skip"]
    assert explain(actions, "swap s12 s40") == actions["swap s"]
    assert explain(actions, "exchange b2 t44") == actions["exchange"]
    assert explain(actions, "nonsense") is None


def test_every_component_named_on_the_table_has_a_term() -> None:
    terms = _help()["terms"]
    assert isinstance(terms, dict)
    c = load()
    names = [*OBJECTIVES, *c.types, *ANTIQUITY_KINDS, *(f"Bid card {n}" for n in range(1, 8)),
             "Castle", "Scorpion", "Train", "Innovation", "Survival", "Contract", "Vampire", "Cat", "Hound", "Coffin",
             "Blood", "Specialist", "Selection pool", "Specialist row", "Exchange pool", "Antiquity"]
    missing = [n for n in names if n not in terms]
    assert not missing, missing
    for objective in OBJECTIVES:
        assert "VP" in terms[objective], objective  # its scoring pattern
