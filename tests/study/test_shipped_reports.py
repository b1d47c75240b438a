"""The shipped reports (docs/studies/) against their own data: every stated effect agrees with the raw data.

Each report directory holds its findings.json (every test of the report: the effect, its 95% interval, whether it is
a finding, and how its raw difference is recomputed) and its data: the study's dataset directory (`data/`, Parquet)
for a study report, rows.json.gz for a component-value study. This test reads the rows itself, recomputes each raw
difference with its own arithmetic (not the report's frames or models), and requires it inside the stated interval,
or equal to the effect where the report states the raw difference itself. It also requires every sentence
findings.json calls a finding to be on the page, and every test of the page's table to be in findings.json."""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tabletop.study import read_rows

STUDIES = Path(__file__).resolve().parents[2] / "docs" / "studies"
REPORTS = ("silos", "silencio", "siliconvania")
COMPONENTS = ("silos-components-2p", "silencio-components-3p", "siliconvania-components-2p")


def _same(a: Any, b: Any) -> bool:
    """A row's value and a check's level are the same (numbers by value: 1 and 1.0; else as text)."""
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def frames(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The games and the seats of a dataset, each a plain dict, the measures computed here from the raw row."""
    games, seats = [], []
    for r in rows:
        g = {"players": r["players"], "length": r["length"], "perfect": float(bool(r["winners"])),
             "spread": max(r["scores"]) - min(r["scores"]),
             **{k: v for k, v in r.items() if k.startswith("opt_")}}
        if "seat_cards_left" in r:
            g["cards_left"] = float(sum(r["seat_cards_left"]))
        games.append(g)
        for p in range(r["players"]):
            s = {**g, "share": r["shares"][p], "won": float(r["shares"][p] > 0)}
            s.update({k[5:]: v[p] for k, v in r.items() if k.startswith("seat_")})
            seats.append(s)
    return {"games": games, "seats": seats}


def _mean(values: list[float]) -> float:
    assert values, "a check selected no rows: the report's check names a level or filter the data does not hold"
    return sum(values) / len(values)


def raw_of(check: dict[str, Any], data: dict[str, list[dict[str, Any]]]) -> float:
    """The raw difference a check names, from the rows."""
    rows = [x for x in data[check["frame"]] if all(_same(x[k], v) for k, v in check["where"].items())]
    y = check["outcome"]
    if check["kind"] == "fair":
        return _mean([x[y] for x in rows]) - float(check["fair"])
    assert check["kind"] == "levels", check
    if "holds" in check:
        def held(x: dict[str, Any]) -> bool:
            return check["value"] in str(x[check["holds"]] or "").split("|")
        return _mean([x[y] for x in rows if held(x)]) - _mean([x[y] for x in rows if not held(x)])
    at = _mean([x[y] for x in rows if _same(x[check["factor"]], check["level"])])
    return at - _mean([x[y] for x in rows if _same(x[check["factor"]], check["reference"])])


def paired_of(check: dict[str, Any], rows: list[dict[str, Any]]) -> float:
    base = {r["block"]: r[check["measure"]] for r in rows if not r["component"]}
    diffs = [r[check["measure"]] - base[r["block"]] for r in rows if r["component"] == check["component"]]
    return _mean(diffs)


def _holds(effect: float, lo: float, hi: float, raw: float, equal: bool) -> bool:
    tol = 1e-9 * max(1.0, abs(raw))
    return abs(raw - effect) <= tol if equal else lo - tol <= raw <= hi + tol


def _page_words(page: str) -> tuple[list[str], list[str]]:
    def text(fragment: str) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()

    findings = [text(li) for li in re.findall(r"<li>(.*?)</li>", page.split("<h2>Findings</h2>")[1].split("<h2>")[0],
                                              re.S)]
    tests = [text(re.findall(r"<td>(.*?)</td>", row, re.S)[0])
             for row in re.findall(r'<tr class="[^"]*">(.*?)</tr>', page, re.S)]
    return findings, tests


@pytest.mark.parametrize("name", REPORTS)
def test_every_stated_effect_of_a_shipped_report_agrees_with_its_raw_data(name: str) -> None:
    folder = STUDIES / name
    found = json.loads((folder / "findings.json").read_text(encoding="utf-8"))
    data = frames(read_rows(folder / found["dataset"]))
    assert found["games"] == len(data["games"]) > 0
    assert found["tests"], "a report with no tests"
    wrong = []
    for t in found["tests"]:
        assert t["check"] is not None, f"{t['words']}: no way to recompute it"
        raw = raw_of(t["check"], data)
        if not _holds(t["effect"], t["lo"], t["hi"], raw, t["check"].get("equal", t["check"]["kind"] == "fair")):
            wrong.append(f"{t['words']}: effect {t['effect']:+.4f} [{t['lo']:+.4f}, {t['hi']:+.4f}], raw {raw:+.4f}")
    for c in found["components"]:
        rows = json.loads(gzip.decompress((folder / c["check"]["study"] / "rows.json.gz").read_bytes()))
        raw = paired_of(c["check"], rows)
        if not _holds(c["effect"], c["lo"], c["hi"], raw, True):
            wrong.append(f"component {c['component']} ({c['measure']}): effect {c['effect']:+.4f}, raw {raw:+.4f}")
    assert not wrong, "\n".join(wrong)
    page = (folder / "index.html").read_text(encoding="utf-8")
    findings, tests = _page_words(page)
    kept = sorted((t for t in found["tests"] if t["finding"]), key=lambda t: t["p_adjusted"])
    assert kept and findings == [t["sentence"] for t in kept]
    assert all(t["p_adjusted"] < found["alpha"] for t in kept)
    assert tests == [t["words"] for t in found["tests"]]


@pytest.mark.parametrize("name", COMPONENTS)
def test_every_effect_of_a_shipped_component_study_is_its_rows_paired_difference(name: str) -> None:
    folder = STUDIES / name
    found = json.loads((folder / "findings.json").read_text(encoding="utf-8"))
    rows = json.loads(gzip.decompress((folder / "rows.json.gz").read_bytes()))
    assert found["components"]
    for c in found["components"]:
        raw = paired_of(c["check"], rows)
        assert abs(raw - c["effect"]) <= 1e-9 and c["lo"] <= raw <= c["hi"], c
    md = (folder / "components.md").read_text(encoding="utf-8")
    assert found["summary"] in md and all(s in md for s in found["sentences"])


def test_the_check_sees_a_wrong_effect() -> None:
    """The arithmetic above can fail: a level's raw difference recomputed by hand, and a moved interval refused."""
    rows = [{"players": 2, "length": 10 + 5 * (i % 2), "winners": [0], "scores": [1, 0], "shares": [1.0, 0.0],
             "opt_x": ["a", "b"][i % 2], "seat_position": [1, 2]} for i in range(6)]
    data = frames(rows)
    check = {"kind": "levels", "frame": "games", "outcome": "length", "where": {}, "factor": "opt_x", "level": "b",
             "reference": "a"}
    assert raw_of(check, data) == 5.0
    assert _holds(5.0, 4.0, 6.0, raw_of(check, data), False)
    assert not _holds(7.0, 6.5, 7.5, raw_of(check, data), False)
    fair = {"kind": "fair", "frame": "seats", "outcome": "share", "where": {"position": 1}, "fair": 0.5}
    assert raw_of(fair, data) == 0.5 and not _holds(0.4, 0.3, 0.6, 0.5, True)


def test_the_silencio_kinds_the_report_explains_are_offered_to_a_random_team() -> None:
    """The Silencio kinds the heuristic never takes are rules a random team meets (offered at some decision): the
    report's notes say the agents decline them, not that the rules never reach them."""
    from tabletop import new_game
    from tabletop.agents import make_agent, play_game
    from tabletop.study.features import game_features

    notes = game_features("silencio").action_notes
    offered: set[str] = set()
    for seed in range(40):
        state = new_game("silencio", 3, seed, {"variant": "tavern", "dark_shrines": "all"})
        play_game(state, [make_agent("random", "silencio", seed * 3 + i) for i in range(3)],
                  on_action=lambda s, _seat, _a: offered.update(x.verb.split(" ")[0] for x in s.legal_actions()))
    assert set(notes) == {"choose", "place", "giveto", "renew", "return", "tavern"}
    assert set(notes) <= offered, set(notes) - offered
