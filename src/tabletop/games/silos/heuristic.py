"""A casual SILOS player: greedy one-step look-ahead on a sampled state with a simple position value."""

from __future__ import annotations

from tabletop.core import Action, Rng, SeatHandle
from tabletop.games.silos.notation import N_LOCATIONS, N_TYPES
from tabletop.games.silos.state import SilosState


def value(s: SilosState, p: int) -> float:
    """How good the table looks for seat p: emblems first, then progress towards a set, then majorities.

    Emblems 20 each; each human type held 3 (a step towards a set) plus 1 per human; cows 4 (wild); leading a
    location 2 (+1 if a cow waits there), second place 1; where the UFO lands next, leading is worth 2 more (the
    cow) and second place 1 more (the human); at a focus group one human short of mind control, leading is worth
    1.5 more and second 0.5; Town Hall rank 0.5 per place above the bottom. The best opponent's emblems count
    against it. A finished game is +-1000.
    """
    if s.is_over:
        return 1000.0 if p in s.winners() else -1000.0
    h = s.hum[p * N_TYPES:(p + 1) * N_TYPES]
    v = 20.0 * s.emblems[p] + sum(3.0 + x for x in h if x) + 4.0 * s.cows[p]
    nxt = s.ufo % 6 + 1
    focus = s.focus
    for loc in range(N_LOCATIONS):
        r = s.ranking(loc)
        hot = sum(focus[loc * N_TYPES:(loc + 1) * N_TYPES]) == 2
        if r and r[0] == p:
            v += 2.0 + s.abd_cow[loc] + (2.0 * s.abd_cow[loc] if loc == nxt else 0.0) + (1.5 if hot else 0.0)
        elif len(r) > 1 and r[1] == p:
            v += 1.0 + (1.0 if loc == nxt and s.abd_human[loc] >= 0 else 0.0) + (0.5 if hot else 0.0)
    v += 0.5 * (s.nf - s.rank.index(p))
    best_other = max((s.emblems[q] for q in range(s.players) if q != p), default=0)
    return v - 10.0 * best_other


class HeuristicAgent:
    """Greedy: for each legal action, apply it to a sampled copy of the game and keep the best `value`.

    What a sensible casual player does: grabs emblems and sets when it can, moves figures to win majorities where
    cows and humans are about to be abducted, takes useful powers, and otherwise keeps its options (random
    tie-break). Chance (the revealed card, drawn humans) is judged on one sampled outcome.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def act(self, seat: SeatHandle) -> Action:
        """The action with the best one-step value on a sampled state."""
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        base = seat.sample(self._rng.next64())
        assert isinstance(base, SilosState)
        best: list[Action] = []
        best_v = float("-inf")
        for a in legal:
            s = base.clone()
            s.apply(a)
            v = value(s, seat.seat)
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return best[self._rng.below(len(best))]
