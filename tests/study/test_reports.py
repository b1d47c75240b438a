"""The reports' words per game, pinned: a tiny seeded study of each game gives the same report text (headings,
captions, findings and every test with its effect, detail and p-values) as the report code did before the games
declared their figures in their own `features` part (issue 21), with the effects, level names and p-values of issue 25
(tests/study/reports.json rewritten then: effects as predicted-probability differences, clustered by game). And what
a features part may declare is checked, naming what is wrong."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tabletop.core import games
from tabletop.study import parse_study, read_rows, run_study
from tabletop.study.features import FeaturesError, SeatFigure, _read, game_features
from tabletop.study.report import write_report
from tabletop.study.spec import figures_of

PINNED = Path(__file__).with_name("reports.json")

STUDIES = {
    "silos": """[study]\nname = "silos pin"\ngame = "silos"\nseed = 7\n[design]\nbatch = 16\n[factors]
players = [2, 3]\nagents = ["heuristic"]\n[factors.options]\nalternate_tiles = [[], [0, 1, 2, 3, 4, 5, 6]]
[stop]\ngames = 40\n""",
    "siliconvania": """[study]\nname = "sv pin"\ngame = "siliconvania"\nseed = 9\n[design]\nbatch = 10\n[factors]
players = [2]\nagents = [["heuristic", "random"]]\n[stop]\ngames = 12\n""",
    "silencio": """[study]\nname = "silencio pin"\ngame = "silencio"\nseed = 7\n[design]\nbatch = 32\n[factors]
players = [2, 3]\nagents = ["heuristic"]\n[factors.options]\nvariant = ["none", "tavern"]
dark_shrines = ["none", "all"]\n[stop]\ngames = 64\n""",
}


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def report_words(page: str) -> dict[str, Any]:
    """What a report says, without its plots' pixels: headings, images, captions, findings, the tests' table."""
    return {
        "headings": [_text(h) for h in re.findall(r"<h2>(.*?)</h2>", page)],
        "images": re.findall(r'<img src="([^"]+)"', page),
        "captions": [_text(c) for c in re.findall(r'<p class="cap">(.*?)</p>', page, re.S)],
        "findings": [_text(li) for li in re.findall(r"<li>(.*?)</li>", page, re.S)],
        "tests": [[_text(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
                  for row in re.findall(r'<tr class="[^"]*">(.*?)</tr>', page, re.S)],
        "tables": [_text(row) for row in re.findall(r"<tr><td>(.*?)</tr>", page, re.S)],
    }


def words_of(game: str, tmp: Path) -> dict[str, Any]:
    run_study(parse_study(STUDIES[game]), tmp / game)
    return report_words(write_report(tmp / game).read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_a_tiny_seeded_study_reports_the_pinned_words(game: str, tmp_path: Path) -> None:
    got = words_of(game, tmp_path)
    want = json.loads(PINNED.read_text(encoding="utf-8"))[game]
    assert got == want


def test_the_pinned_reports_hold_each_games_own_figures() -> None:
    """The pin itself covers what the games declare (so a report that lost them could not match it)."""
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert "rank.png" in pinned["silos"]["images"] and "by_option.png" in pinned["silos"]["images"]
    assert any(t[0].startswith("the win rate of Town Hall rank 1 ") for t in pinned["silos"]["tests"])
    assert any("Town Hall rank 1 (locations whose alternate location tile is used: all rather than none)" in t[0]
               for t in pinned["silos"]["tests"])
    assert any(t[0].startswith("the start player's win rate (") for t in pinned["silos"]["tests"])
    assert any(t[0].startswith("the win rate of the start player ") for t in pinned["silos"]["tests"])
    sv = pinned["siliconvania"]
    assert {"objectives.png", "mean_bid.png"} <= set(sv["images"])
    assert any(t[0].startswith("the win rate of a seat keeping a") and t[0].endswith(" objective (rather than not)")
               for t in sv["tests"])
    assert not any("start player" in t[0] for t in sv["tests"]) and any("seat position 1" in t[0] for t in sv["tests"])
    coop = pinned["silencio"]
    assert {"perfect.png", "cards_left.png"} <= set(coop["images"]) and coop["findings"]
    assert "Perfect games and cards left by factor" in coop["headings"]
    assert any(t[0] == "cards left (Tavern: on rather than none)" for t in coop["tests"])


def test_each_game_declares_its_study_facts_in_its_features_part() -> None:
    assert game_features("silos").start_player and not game_features("siliconvania").start_player
    assert [f.column for f in game_features("silos").figures] == ["rank"]
    assert [f.kind for f in game_features("siliconvania").figures] == ["kinds", "binned"]
    team = game_features("silencio").team
    assert team is not None and team.measure == "cards_left" and team.split == ("variant", "dark_shrines")
    assert set(figures_of("silos")) == {"seat_win_halfwidth", "perfect_halfwidth", "rank_win_halfwidth"}
    assert set(figures_of("siliconvania")) == {"seat_win_halfwidth", "perfect_halfwidth", "objective_win_halfwidth"}
    assert SeatFigure("kinds", "c", "n", "t", "a", "c", words="keeping {a} {value} card").who("Ace") == \
        "keeping an Ace card"


def _module(**names: Any) -> ModuleType:
    m = ModuleType("fake_features")
    m.seat_features = lambda state: {"position": [1, 2]}  # type: ignore[attr-defined]
    for k, v in names.items():
        setattr(m, k, v)
    return m


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ({"START_PLAYER": "yes"}, "START_PLAYER must be True or False"),
        ({"FIGURES": ({"kind": "pie", "column": "c", "name": "n", "title": "t", "axis": "a", "caption": "c"},)},
         "has kind 'pie'; the kinds: rate, kinds, binned"),
        ({"FIGURES": ({"kind": "rate", "colum": "c"},)}, "FIGURES[0] has no key 'colum'; its keys:"),
        ({"FIGURES": ({"kind": "rate"},)}, "FIGURES[0]: "),
        ({"FIGURES": ("rank",)}, "FIGURES[0] must be a dict"),
        ({"TEAM": {"measure": "x"}}, "TEAM: "),
        ({"ACTION_KINDS": ("play",), "ACTION_KIND_NOTES": {"jump": "x"}}, "ACTION_KIND_NOTES must be a dict of"),
    ],
)
def test_a_malformed_features_part_is_refused_naming_what_is_wrong(names: dict[str, Any], words: str) -> None:
    with pytest.raises(FeaturesError) as e:
        _read(_module(**names), "Nines")
    assert words in str(e.value) and str(e.value).startswith("Nines's features")


def test_a_features_part_without_declarations_takes_the_defaults() -> None:
    got = _read(_module(), "Nines")
    assert got.start_player and got.figures == () and got.team is None and got.stops == {}


@pytest.fixture
def nines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The fourth game (tests/fourth), a plugin of a throw-away distribution: tabletop is not edited to know it."""
    from fourth.distribution import install_nines
    from tabletop.core import registry

    registry._forget_plugins()
    monkeypatch.syspath_prepend(str(install_nines(tmp_path / "dist")))
    assert "nines" in games()
    yield "nines"
    registry._forget_plugins()


def test_a_game_from_another_distribution_is_studied_through_its_own_features_part(nines: str, tmp_path: Path) -> None:
    text = (f'[study]\nname = "nines"\ngame = "{nines}"\nseed = 1\n[design]\nbatch = 10\n[factors]\n'
            'agents = [["heuristic", "random"]]\n[factors.options]\nhand = [3, 4]\n[stop]\ngames = 20\n'
            'figure = "seat_win_halfwidth"\ntarget = 0.5\n')
    run_study(parse_study(text), tmp_path / "n")
    rows = read_rows(tmp_path / "n")
    assert rows and all(r["seat_position"] == [1, 2] and len(r["seat_high"]) == 2 for r in rows)
    words = report_words(write_report(tmp_path / "n").read_text(encoding="utf-8"))
    assert "seat_position.png" in words["images"] and "by_option.png" in words["images"]
    assert any(t[0] == "the win rate of the start player in 2-player games" for t in words["tests"])
    assert any(t[0].startswith("the start player's win rate (") and t[0].endswith(": 4 rather than 3)")
               for t in words["tests"])
    assert set(figures_of(nines)) == {"seat_win_halfwidth", "perfect_halfwidth"}  # it declares none of its own
