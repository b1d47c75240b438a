"""Where a Silencio team loses its cards: every card left at the end, put down to the play that killed it.

A card is lost when a higher card of its colour is laid while it is held (or later reaches a hand): the play that
first skipped it "killed" it. Each card left is counted by the kind of that play, judged with the whole table in
view (hindsight, for diagnosis only: the agents never see this):

- random: the next seat's random card after a yellow dark effect (ruling C-7);
- chosen, avoidable: a play chosen while another play would have killed no held card;
- chosen, no safe play: every play the seat had killed some held card;
- forced: the seat had a single play;
- effect: killed by a card laid through an effect or a shrine decision;
- green-dark end: the game ended under a green dark effect with the card still playable.

The kind is split by whose card it was: the killer's own ("own") or a teammate's, the oracle's or the deck's.

    nice -n 5 .venv/bin/python scripts/silencio_losses.py --players 3 --deals 30 --team team:iters=1000
"""

from __future__ import annotations

import argparse
import collections
import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import tabletop
from tabletop.agents import InvalidAgentSpec, make_agent
from tabletop.arena.schedule import derive_seed
from tabletop.core import SeatHandle, TabletopError
from tabletop.games.silencio import SilencioState
from tabletop.games.silencio.notation import START


def _where(state: SilencioState) -> dict[int, str]:
    out: dict[int, str] = {}
    for q, cards in enumerate(state.hands):
        out.update((c, f"hand{q}") for c in cards)
    for q, cards in enumerate(state.fronts):
        out.update((c, f"hand{q}") for c in cards)
    out.update((c, "oracle") for c in state.oracle)
    out.update((c, "deck") for c in state.deck)
    return out


def _kills(state: SilencioState, c: int, held: set[int]) -> int:
    col, v = c >> 4, c & 15
    return sum(1 for u in range(state.top(col) + 1, v) if col * 16 + u in held)


def losses(spec: str, players: int, deal_seed: int) -> tuple[int, collections.Counter[str]]:
    """Play one deal with `spec` at every seat; the cards left and their count by cause."""
    state = tabletop.new_game("silencio", players, deal_seed)
    assert isinstance(state, SilencioState)
    agents = [make_agent(spec, "silencio", derive_seed(deal_seed, 0, s)) for s in range(players)]
    handles = [SeatHandle(state, s) for s in range(players)]
    killer: dict[int, tuple[str, str]] = {}
    while state.to_move is not None:
        seat = state.to_move
        action = agents[seat].act(handles[seat])
        where = _where(state)
        held = {c for c, w in where.items() if w.startswith("hand")}
        plays = [a for a in state.legal_actions() if a.verb == "play"] if state.phase == START else []
        safe = any(_kills(state, int(a.args[0]), held) == 0 for a in plays)
        kind = ("forced" if len(plays) == 1 else "chosen, avoidable" if safe else "chosen, no safe play") \
            if action.verb == "play" and state.phase == START else "effect"
        rows = [list(r) for r in state.rows]
        start = state._nev
        state.apply(action)
        events = [e[0] for e in state._ev[start:state._nev]]
        randoms = {e[2] for e in events if e[0] == "random" and e[3]}
        for e in events:
            if e[0] != "play":
                continue
            p, c = e[1], e[2]
            col, v = c >> 4, c & 15
            top = rows[col][-1] if rows[col] else 1
            rows[col].append(v)
            how = "random" if c in randoms else kind
            for u in range(top + 1, v):
                k = col * 16 + u
                if k not in killer:
                    w = where.get(k, "box")
                    killer[k] = (how, "own" if w == f"hand{p}" else "teammate's" if w.startswith("hand") else w)
    causes: collections.Counter[str] = collections.Counter()
    for cards in (*state.hands, *state.fronts):
        for c in cards:
            if (c & 15) > state.top(c >> 4):
                causes["green-dark end" if state.green_only else "still playable"] += 1
            else:
                how, whose = killer.get(c, ("unknown", ""))
                causes[f"{how} ({whose})"] += 1
    return state.cards_left(), causes


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the causes table (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--team", default="team:iters=1000", help="the agent spec at every seat")
    ap.add_argument("--players", type=int, default=3, help="2, 3 or 4")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0, help="fixes the deals and the agents' seeds")
    args = ap.parse_args(argv)
    console = Console(stderr=True)
    if args.players not in (2, 3, 4) or args.deals < 1:
        console.print("[red]--players must be 2, 3 or 4 and --deals at least 1[/red]")
        return 2
    try:
        make_agent(args.team, "silencio", 0)
    except (InvalidAgentSpec, TabletopError) as e:
        console.print(f"[red]{e}[/red]")
        return 2
    total: collections.Counter[str] = collections.Counter()
    left: list[int] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(args.team, total=args.deals)
        for d in range(args.deals):
            n, causes = losses(args.team, args.players, derive_seed(args.seed, d))
            left.append(n)
            total.update(causes)
            progress.advance(task)
    deals = len(left)
    table = Table(title=f"{args.team}, {args.players} players, {deals} deals: {sum(left) / deals:.2f} cards left "
                        f"a game, {left.count(0)} perfect")
    table.add_column("cause of a card left")
    table.add_column("cards", justify="right")
    table.add_column("per game", justify="right")
    table.add_column("share", justify="right")
    for cause, n in total.most_common():
        table.add_row(cause, str(n), f"{n / deals:.2f}", f"{n / max(1, sum(left)):.0%}")
    spread = collections.Counter(left)
    Console().print(table)
    Console().print("cards left: " + ", ".join(f"{k}: {spread[k]} games" for k in sorted(spread)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
