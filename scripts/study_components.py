"""Component value by intervention (tabletop.study.components): per component the game's features part declares
(SILOS's locations, Silencio's shrines), the paired effect of forbidding it to one seat, as a heatmap and a table in
OUT (components.png, components.md, findings.json (every effect with its interval, machine-readable), what was
played in components.json and every game's row in rows.json.gz, which `tabletop study report DIR --components OUT`
reads into a study's report).

    nice -n 15 .venv/bin/python scripts/study_components.py --game silos --players 2 --deals 200 --workers 2 \
        --out docs/studies/silos-components-2p
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tabletop.study.components import (
    ComponentStudy,
    component_figure,
    component_findings,
    design,
    effects,
    load_components,
    measure_words,
    method_words,
    run_components,
    save_components,
    summary,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game")
    ap.add_argument("--players", type=int)
    ap.add_argument("--deals", type=int, default=200, help="deals; each is played once plus once per component")
    ap.add_argument("--agent", default="heuristic", help="every seat's agent")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--redraw", action="store_true",
                    help="redraw OUT's figure and table from its components.json and rows.json.gz without playing")
    a = ap.parse_args()
    if a.redraw:
        study = load_components(a.out)
        a.game, a.players, a.deals, a.seed, a.agent = study.game, study.players, study.deals, study.seed, study.agent
    else:
        if a.game is None or a.players is None:
            ap.error("--game and --players are needed to play (or --redraw OUT)")
        rows = run_components(design(a.game, a.players, a.deals, a.seed, a.agent), a.workers, progress=True)
        study = ComponentStudy(a.game, a.players, a.deals, a.seed, a.agent, rows)
    save_components(a.out, study)
    rows = study.rows
    found = effects(rows)
    sentences = component_figure(a.game, a.players, found, a.out / "components.png")
    (a.out / "findings.json").write_text(json.dumps({"game": a.game, "players": a.players, "summary": summary(
        a.game, found), "sentences": sentences, "components": component_findings(study, found)}, indent=1) + "\n",
        encoding="utf-8")
    words = measure_words(a.game)
    base = [r for r in rows if not r["component"]]
    base_words = (f"Baseline (nothing forbidden): the focal seat's {words['result'].split(' (')[0]} "
                  f"{100 * sum(r['result'] for r in base) / len(base):.1f}%, its mean score "
                  f"{sum(r['score'] for r in base) / len(base):.2f}.")
    lines = [f"# Component value: {a.game}, {a.players} players", "", method_words(study), "", base_words, "",
             summary(a.game, found), "", "![component value](components.png)", "",
             *[f"- {s}" for s in sentences], "",
             f"Agents are not people: this measures how much the `{a.agent}` agent's result depends on each component, "
             "not how much a person's would.", "",
             "| component | measure | effect (95% CI) | deals changed | decisions with options removed, a game "
             "| fallbacks | deals |", "|---|---|---|---|---|---|---|"]
    for e in found:
        k = 100.0 if e.measure == "result" else 1.0
        lines.append(f"| {e.component} | {words[e.measure]} | {k * e.diff:+.2f} ({k * e.lo:+.2f} to {k * e.hi:+.2f}) "
                     f"| {e.changed} | {e.bites:.2f} | {e.fallbacks} | {e.deals} |")
    (a.out / "components.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
