"""Balance studies: designed experiments of many games, a Parquet dataset, and a report (docs/studies.md).

from tabletop.study import load_study, run_study
spec = load_study("studies/silos.toml")
run = run_study(spec, "silos.study", budget=200)
"""

from tabletop.study.features import FeaturesError, GameFeatures, game_features
from tabletop.study.runner import GameTask, StudyRun, block_tasks, figure_value, play_task, read_rows, run_study
from tabletop.study.spec import (
    FIGURES,
    Cell,
    StudyError,
    StudySpec,
    figures_of,
    level_label,
    load_study,
    parse_study,
)

__all__ = [
    "FIGURES",
    "Cell",
    "FeaturesError",
    "GameFeatures",
    "GameTask",
    "StudyError",
    "StudyRun",
    "StudySpec",
    "block_tasks",
    "figure_value",
    "figures_of",
    "game_features",
    "level_label",
    "load_study",
    "parse_study",
    "play_task",
    "read_rows",
    "run_study",
]
