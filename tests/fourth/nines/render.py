"""The terminal table of Nines, drawn from a view only."""

from __future__ import annotations

from typing import Any

from rich.text import Text


def render(view: dict[str, Any]) -> Text:
    lines = [
        f"Nines: points {view['points'][0]}-{view['points'][1]}, {view['face_down']} cards face down",
        f"trick: {', '.join(map(str, view['trick'])) or '-'}",
        f"hands: {view['hand_sizes'][0]} and {view['hand_sizes'][1]} cards",
    ]
    if view.get("hand") is not None:
        lines.append(f"your hand (p{view['seat']}): {', '.join(map(str, view['hand']))}")
    return Text("\n".join(lines))
