"""AI moves, computed in worker processes (never in the event loop).

The worker receives the game's record, rebuilds the state from it inside the worker (a process of this
server, on this machine: records never leave the server), and lets the agent decide through a `SeatHandle`
of its seat, so the agent sees only what that seat may see. Clients name strengths by label only.

Besides the built-in strengths, the server offers the trained policies of its policy directory (`policy_dir`
setting; by default the ones shipped in `tabletop/rl/policies/`): a file `NAME.npz` (format of
`tabletop.agents.policy`) is offered under the label `NAME` to games of the game and player count it was trained
for. A client sends the label; the server alone maps it to the file in its own directory, so no path ever comes
from a client.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from tabletop.agents import make_agent
from tabletop.agents.levels import LEVELS, level_spec
from tabletop.core import SeatHandle, game_info, replay

log = logging.getLogger("tabletop.server")

AI_LABELS: dict[str, str] = {level: level for level in LEVELS}
"""Strength label (what clients send) to agent spec (what only the server knows): each label is the level of the
same name, whose agent depends on the game (`tabletop.agents.levels.level_spec`)."""

POLICY_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,9}")
"""A policy's label: its file name without `.npz`, lower-case letters, digits, `-` and `_`, at most 10 characters
(the length of a stored AI label), and not a built-in strength."""


@dataclass(frozen=True)
class PolicyOffer:
    """A trained policy this server offers: its label, what it plays, and (server-side only) its file."""

    label: str
    game: str
    players: int
    path: Path

    def public(self) -> dict[str, Any]:
        """What clients see: the label and what it plays, never the file."""
        return {"label": self.label, "game": self.game, "players": self.players}


def shipped_policy_dir() -> Path:
    """The policies that come with tabletop (`tabletop/rl/policies/`)."""
    return Path(str(resources.files("tabletop.rl").joinpath("policies")))


def find_policies(directory: str | Path | None) -> dict[str, PolicyOffer]:
    """The policies offered from `directory` (None: the shipped ones), by label. A file whose name is not a
    valid label, or that does not load as a policy, is skipped with a warning in the server log."""
    folder = shipped_policy_dir() if directory is None else Path(directory)
    if not folder.is_dir():
        if directory is not None:
            log.warning("policy directory %s does not exist: no trained policies offered", folder)
        return {}
    try:
        from tabletop.agents.policy import PolicyNet
    except ImportError:  # pragma: no cover - the agents package always has it
        return {}
    out: dict[str, PolicyOffer] = {}
    for path in sorted(folder.glob("*.npz")):
        label = path.stem
        if not POLICY_NAME.fullmatch(label) or label in AI_LABELS:
            log.warning("policy %s skipped: a label is 1-10 of a-z 0-9 - _ and not %s", path.name,
                        ", ".join(AI_LABELS))
            continue
        try:
            net = PolicyNet(path)
        except Exception as e:  # a broken file must not stop the server
            log.warning("policy %s skipped: %s", path.name, e)
            continue
        out[label] = PolicyOffer(label, net.game, net.players, path.resolve())
    return out


def check_label(label: str, game: str, players: int, policies: dict[str, PolicyOffer]) -> str | None:
    """Why `label` cannot play a seat of `game` with `players` (a message naming what is allowed), or None."""
    fits = [p.label for p in policies.values() if p.game == game and p.players == players]
    allowed = ", ".join([*AI_LABELS, *fits])
    if label in AI_LABELS:
        return None
    offer = policies.get(label)
    if offer is None:
        if any(c in label for c in "/\\.:") or label.startswith("~"):
            return (f"AI strength {label[:40]!r} is not one of {allowed} (a trained policy is named by its label "
                    "from this server's list, never by a path)")
        return f"AI strength {label[:40]!r} is not one of {allowed}"
    if offer.game != game or offer.players != players:
        title = game_info(offer.game).title
        return (f"policy {label} plays {offer.players}-player {title}, not {players}-player "
                f"{game_info(game).title}; here: {allowed}")
    return None


def choose_action(record: dict[str, Any], seat: int, label: str, seed: int, policy: str | None = None) -> str:
    """The canonical text of the action the `label` agent takes for `seat` in the game `record` describes.
    A policy label comes with `policy`, the file the server resolved it to in its own directory."""
    state = replay(record)
    if seat not in state.deciding():
        raise ValueError(f"seat {seat} owes no decision")
    if label in AI_LABELS:
        agent = make_agent(level_spec(AI_LABELS[label], state.game), state.game, seed)
    else:
        if policy is None:
            raise ValueError(f"AI label {label!r} is not offered by this server")
        from tabletop.agents.policy import PolicyAgent

        path = Path(policy)
        agent = PolicyAgent(state.game, _net(str(path), path.stat().st_mtime_ns), seed, sample=True)
    return agent.act(SeatHandle(state, seat)).text


@lru_cache(maxsize=8)
def _net(path: str, mtime: int) -> Any:
    """A policy network, read once per worker process (and again when its file changes)."""
    from tabletop.agents.policy import PolicyNet

    return PolicyNet(path)


def hint_actions(record: dict[str, Any], seat: int, seed: int, seconds: float) -> list[dict[str, Any]]:
    """Hints for `seat` from its own view (a `SeatHandle` of the state the record rebuilds to): the top candidate
    actions with their estimated value in [0, 1] (the chance of winning, as the search sees it), how many search
    samples tried them, and a one-line `reason` ("" where the game's search gives none). The search (the guided
    search in SILOS and SiliconVania, the team agent's in Silencio) runs for `seconds` (its whole budget)."""
    from tabletop.agents.guided import hints_for

    handle = SeatHandle(replay(record), seat)
    return [{"action": c.action.text, "value": round(c.value, 4), "visits": c.visits, "reason": c.reason}
            for c in hints_for(handle, seconds=seconds, seed=seed)]
