"""Shipped policies: `policy:NAME`, their model cards, and their place among the strength levels."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pytest

from tabletop.agents import InvalidAgentSpec, make_agent, parse_spec, play_game
from tabletop.agents.policy import (
    FORMAT,
    LOOKAHEAD_FORMAT,
    LookaheadPolicy,
    Shipped,
    find_shipped,
    ladder,
    load_policy,
    shipped_dir,
    shipped_policies,
)
from tabletop.agents.spec import split_specs
from tabletop.core import new_game
from tabletop.core.parts import part as game_part
from tabletop.spaces import action_space, encoder

from .test_policy import write_policy


def test_a_bare_first_parameter_names_a_shipped_policy_and_only_for_the_policy_kind() -> None:
    assert parse_spec("policy:silos-2p") == ("policy", {"name": "silos-2p"})
    assert parse_spec("policy:silos-2p,sample=true") == ("policy", {"name": "silos-2p", "sample": "true"})
    assert parse_spec("policy:path=a.npz") == ("policy", {"path": "a.npz"})
    with pytest.raises(InvalidAgentSpec, match="must look like key=value"):
        parse_spec("ismcts:fast")
    with pytest.raises(InvalidAgentSpec, match="must look like key=value"):
        parse_spec("policy:silos-2p,greedy")  # only the first parameter may be bare
    assert split_specs("human,policy:silos-2p,sample=true,random") == ["human", "policy:silos-2p,sample=true",
                                                                        "random"]
    assert split_specs("policy:silos-2p,sample=false;medium") == ["policy:silos-2p,sample=false", "medium"]


def test_the_named_policy_plays_a_legal_game_greedy_and_sampled() -> None:
    for spec in ("policy:silos-2p", "policy:silos-2p,sample=true", "policy:silos-2p,sample=false"):
        agent = make_agent(spec, "silos", seed=3)
        result = play_game(new_game("silos", 2, 5), [agent, make_agent("random", "silos", 1)])
        assert result.state.is_over and result.decisions[0] > 0
    assert make_agent("policy:silos-2p,sample=true", "silos").sample is True  # type: ignore[attr-defined]
    assert make_agent("policy:silos-2p,sample=false", "silos").sample is False  # type: ignore[attr-defined]


def test_unknown_or_misplaced_names_are_clear_errors() -> None:
    with pytest.raises(InvalidAgentSpec, match=r"no shipped policy named .nosuch.*silos-2p"):
        make_agent("policy:nosuch", "silos")
    with pytest.raises(InvalidAgentSpec, match="plays silos, not silencio"):
        make_agent("policy:silos-2p", "silencio")
    with pytest.raises(InvalidAgentSpec, match="one of the two"):
        make_agent("policy:silos-2p,path=x.npz", "silos")
    with pytest.raises(InvalidAgentSpec, match="must be true or false"):
        make_agent("policy:silos-2p,sample=maybe", "silos")


def _card(path: Path, results: dict[str, float | str]) -> None:
    body = "\n".join(f"{k} = {json.dumps(v)}" for k, v in results.items())
    path.with_suffix(".toml").write_text(f"[policy]\nname = \"{path.stem}\"\n\n[results]\n{body}\n", encoding="utf-8")


def test_the_ladder_orders_levels_and_policies_by_measured_strength(tmp_path: Path) -> None:
    strong, weak, _blank = (write_policy(tmp_path / f"{n}.npz", "silos", 3, seed=i)
                           for i, n in enumerate(("strong", "weak", "blank")))
    _card(strong, {"greedy_win": 0.30, "sampled_win": 0.45, "play": "sampled"})  # fair share 1/3: stronger
    _card(weak, {"greedy_win": 0.10, "sampled_win": 0.05})
    write_policy(tmp_path / "other.npz", "silos", 2)
    (tmp_path / "broken.npz").write_bytes(b"not a zip")
    assert [s.name for s in shipped_policies(folder=tmp_path)] == ["blank", "other", "strong", "weak"]
    assert [spec for spec, _ in ladder("silos", 3, tmp_path)] == [
        "easy", "policy:weak", "medium", "policy:strong", "hard", "policy:blank"]
    pos = dict(ladder("silos", 3, tmp_path))
    assert pos["policy:strong"] == pytest.approx(1.35) and pos["policy:weak"] == pytest.approx(0.3)
    assert pos["policy:blank"] == 2.5  # no result: after the levels, never placed as if measured
    assert Shipped("s", "silos", 3, strong, tomllib.loads(strong.with_suffix(".toml").read_text())).play_sampled


def test_a_silencio_policy_is_placed_by_the_cards_its_team_leaves(tmp_path: Path) -> None:
    better, worse = write_policy(tmp_path / "a.npz", "silencio", 3), write_policy(tmp_path / "b.npz", "silencio", 3)
    _card(better, {"team_cards_left": 3.0, "medium_cards_left": 4.0})
    _card(worse, {"team_cards_left": 6.0, "medium_cards_left": 4.0})
    assert [spec for spec, _ in ladder("silencio", 3, tmp_path)] == [
        "easy", "policy:b", "medium", "policy:a", "hard"]


def test_every_shipped_policy_loads_has_a_card_and_fits_its_encoding() -> None:
    found = shipped_policies()
    assert found and len({(s.game, s.players) for s in found}) == len(found)  # one per game and player count
    for s in found:
        assert s.path.parent == shipped_dir()
        assert find_shipped(s.name, s.game) == s and find_shipped(f"{s.game}-{s.players}p", s.game) == s
        with np.load(s.path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
        if meta["format"] == LOOKAHEAD_FORMAT:  # a learned judgement: it reads the game's features of today
            assert isinstance(load_policy(s.path), LookaheadPolicy)
            assert meta["features"] == list(game_part(s.game, "heuristic").FEATURES)  # type: ignore[union-attr]
        else:
            assert meta["format"] == FORMAT and meta["obs"] == encoder(s.game, s.players).size
            assert meta["actions"] <= action_space(s.game, s.players).n
        if s.path.with_suffix(".toml").exists():
            assert s.card["policy"]["game"] == s.game and s.card["policy"]["players"] == s.players
            assert "reproduce" in s.card["training"]
    assert sum(s.path.stat().st_size for s in found) < 6_000_000  # the size budget: a few MB in all
