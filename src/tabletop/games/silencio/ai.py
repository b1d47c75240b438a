"""What the search agents know about Silencio (the game's `ai` part; docs/architecture.md, "The parts of a game").

Silencio has no position value (its rollouts play to the end: a game is short) and no move explainer: its hints
come from the team search, whose reasons are the expected result (the `team` part). `LEVELS`: the agent spec
behind a strength label where it differs from the default.
"""

from __future__ import annotations

LEVELS = {"hard": "team:time=1.0"}  # docs/silencio-team.md: 0.90 cards left against ismcts' 1.70 at 1 s
