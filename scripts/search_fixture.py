"""Write (or check) the committed set of search positions: what each search agent plays there, fixed seed and budget.

The set (`tests/agents/data/search_positions.json`) pins the behaviour of the search agents (`ismcts`, `guided`,
`team`) and of the hints (`tabletop.agents.hints.hints`, before it `guided.hints_for`): at each position, with a
fixed seed and iteration budget, the action each
agent plays, and the hints it gives (actions, samples, values, reasons). It was written by the search code as it
stood before the search core (`tabletop.agents.search`) replaced the three loops, and
`tests/agents/test_search_equivalence.py` checks the code of today against it. Also pinned: a few whole games
played by one agent at every seat (the agents keep their trees between moves), as action sequences.

    .venv/bin/python scripts/search_fixture.py --write     # only to change the pinned behaviour on purpose
    .venv/bin/python scripts/search_fixture.py             # compare today's code with the file (what the test does)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import tabletop
from tabletop.core import Rng, SeatHandle

OUT = Path(__file__).parents[1] / "tests" / "agents" / "data" / "search_positions.json"

AGENTS: dict[str, list[str]] = {
    "silos": ["ismcts:iters=30", "guided:iters=60", "guided:iters=40,reuse=false,pw=1.5,depth=4"],
    "siliconvania": ["ismcts:iters=30", "guided:iters=60", "guided:iters=40,trust=1.0"],
    "silencio": ["ismcts:iters=40", "guided:iters=40", "team:iters=60", "team:iters=40,others=tree,widen=3",
                 "team:iters=40,belief=off,rollout=random", "ismcts:iters=20,rollout=heuristic"],
}
HINT_ITERS = 50
PLAYERS = {"silos": (2, 3, 4), "siliconvania": (2, 3, 4, 5), "silencio": (2, 3, 4)}
GAMES = {  # whole games, every seat the same agent: (game, players, seed, spec)
    "silos": [(2, 11, "guided:iters=25"), (3, 12, "ismcts:iters=8")],
    "siliconvania": [(3, 13, "guided:iters=20")],
    "silencio": [(3, 14, "team:iters=40"), (2, 15, "guided:iters=20")],
}


def positions(game: str, per_game: int) -> list[dict[str, Any]]:
    """`per_game` positions from random games: early, middle and late, every player count, and the seats that owe
    a decision ahead of their turn (a secret bid) as well as the seat to move."""
    rng = Rng(7)
    out: list[dict[str, Any]] = []
    g = 0
    while len(out) < per_game:
        players = PLAYERS[game][g % len(PLAYERS[game])]
        seed = 1000 + g
        g += 1
        state = tabletop.new_game(game, players, seed)
        actions: list[str] = []
        trace: list[list[str]] = []
        while not state.is_over:
            legal = state.legal_actions()
            trace.append(list(actions))
            a = legal[rng.below(len(legal))]
            actions.append(str(a))
            state.apply(a)
        n = len(trace)
        for frac in (0.1, 0.45, 0.85):
            prefix = trace[int(n * frac)]
            s = replay(game, players, seed, prefix)
            seats = [s.to_move] + [q for q in s.deciding() if q != s.to_move]
            for seat in seats[:2]:
                if seat is not None and len(SeatHandle(s, seat).legal_actions()) > 1:
                    out.append({"game": game, "players": players, "seed": seed, "actions": prefix, "seat": seat})
    return out[:per_game]


def replay(game: str, players: int, seed: int, actions: list[str]) -> tabletop.State:
    state = tabletop.new_game(game, players, seed)
    for text in actions:
        state.apply(next(a for a in state.legal_actions() if str(a) == text))
    return state


def decide(pos: dict[str, Any]) -> dict[str, Any]:
    """What each agent plays at the position, and the hints there."""
    from tabletop.agents import make_agent
    from tabletop.agents.hints import hints as hints_for

    game = pos["game"]
    state = replay(game, pos["players"], pos["seed"], pos["actions"])
    seat = SeatHandle(state, pos["seat"])
    played = {}
    for spec in AGENTS[game]:
        agent = make_agent(spec, game, seed=pos["seed"])
        played[spec] = str(agent.act(seat))
    hints = [[str(c.action), c.visits, c.value, c.reason]
             for c in hints_for(seat, seconds=None, iters=HINT_ITERS, seed=pos["seed"], top=5)]
    return {"played": played, "hints": hints}


def whole_game(game: str, players: int, seed: int, spec: str) -> list[str]:
    from tabletop.agents import make_agent

    state = tabletop.new_game(game, players, seed)
    agents = [make_agent(spec, game, seed=seed * 10 + p) for p in range(players)]
    out = []
    while not state.is_over:
        p = state.to_move
        assert p is not None
        a = agents[p].act(SeatHandle(state, p))
        out.append(str(a))
        state.apply(a)
    return out


def build(per_game: int) -> dict[str, Any]:
    data: dict[str, Any] = {"hint_iters": HINT_ITERS, "agents": AGENTS, "positions": [], "games": []}
    for game in AGENTS:
        for pos in positions(game, per_game):
            data["positions"].append({**pos, **decide(pos)})
            print(f"{game} {len(data['positions'])}", file=sys.stderr, end="\r")
        for players, seed, spec in GAMES[game]:
            data["games"].append({"game": game, "players": players, "seed": seed, "spec": spec,
                                  "actions": whole_game(game, players, seed, spec)})
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="write the file from today's code")
    ap.add_argument("--per-game", type=int, default=54)
    args = ap.parse_args(argv)
    if args.write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(build(args.per_game), indent=1) + "\n")
        print(f"wrote {OUT}")
        return 0
    pinned = json.loads(OUT.read_text())
    bad = 0
    for pos in pinned["positions"]:
        now = decide(pos)
        if now != {"played": pos["played"], "hints": pos["hints"]}:
            bad += 1
            print(f"differs: {pos['game']} seed {pos['seed']} step {len(pos['actions'])} seat {pos['seat']}")
    for g in pinned["games"]:
        if whole_game(g["game"], g["players"], g["seed"], g["spec"]) != g["actions"]:
            bad += 1
            print(f"whole game differs: {g['game']} {g['players']}p seed {g['seed']} {g['spec']}")
    print(f"{len(pinned['positions'])} positions, {len(pinned['games'])} games: {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
