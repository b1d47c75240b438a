"""A full state from what one seat saw: its view and its log, never the state (for a seat played from afar).

A remote seat (a bot over the network, the terminal at a server table) is given `view(seat)`, `log(seat)` and its
legal actions, and nothing else. To search it needs determinizations, as `State.sample` gives an in-process agent:
`sample_from_view` builds one through the game's `sampler` part (`tabletop.core.parts`), whose
`sample_from_view(players, options, seat, view, log, rng, legal)` rebuilds the public table and the seat's own
secrets from the view, reads the flow's internal flags back from the log, and draws what the seat cannot see as the
game's `_sample` does. Tests in tests/conformance/test_sampler.py hold every game's sampler to the engine: the
sample's view for the seat is the real view, its legal actions are the seat's, and each hidden card lies where the
engine's own samples put it as often, within sampling error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.core.action import Action
from tabletop.core.errors import shorten
from tabletop.core.options import resolve_options
from tabletop.core.parts import require
from tabletop.core.registry import game_info
from tabletop.core.rng import Rng
from tabletop.core.state import LogEntry, Seat, State, View


class Belief:
    """Samples for one seat from one view and log (a remote seat's picture of the game), any number of them.

    The game's sampler builds its witness once (`witness_from_view`, when the part has one: a state the seat cannot
    tell from the true one), and each sample is the engine's own `_sample` from it; a part without a witness builds
    every sample from the view. MissingPart if the game has no sampler; ValueError if the view and log do not fit."""

    def __init__(self, game: str, players: int, options: Mapping[str, Any] | None, seat: Seat, view: View,
                 log: Sequence[LogEntry], legal: Sequence[str] | None = None) -> None:
        info = game_info(game)
        self.module = require(info, "sampler", "sampler from a seat's view")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"seat must be an integer 0..{players - 1}, not {shorten(seat)}")
        if int(view.get("log_pos", len(log))) != len(log):
            raise ValueError(f"the log has {len(log)} entries but the view says {view.get('log_pos')}: "
                             "pass the seat's whole log, up to the view")
        self.players, self.seat, self.view = players, seat, view
        self.options = resolve_options(info.options, options, players)
        self.log = list(log)
        self.legal = None if legal is None else list(legal)
        make = getattr(self.module, "witness_from_view", None)
        self.witness: State | None = None if make is None else make(players, self.options, seat, view, self.log,
                                                                     self.legal)

    def sample(self, seed: int) -> State:
        """A state consistent with the view and log, as `State.sample(seat, seed)` of the true state would be."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"a sample seed must be an integer, not {shorten(seed)}")
        rng = Rng(seed ^ 0x5EED5A3B1E)  # as State.sample
        if self.witness is not None:
            s: State = self.witness._sample(self.seat, rng)
        else:
            s = self.module.sample_from_view(self.players, self.options, self.seat, self.view, list(self.log), rng,
                                             self.legal)
        s.rng = Rng(seed)
        s.seed = None  # a belief, not a game with a record
        s._legal = None
        s._trail = None
        s._queue = None
        view = self.view
        decided = view.get("decided") or []
        if decided and s.to_move is not None:  # that the others decided is known, not what: their choices are drawn
            queue: dict[Seat, Action] = {}
            for q in sorted(int(x) for x in decided):
                options_q = s._legal_actions_ahead(q)
                if q == self.seat and view.get("your_decision"):
                    mine = [a for a in options_q if a.text == view["your_decision"]]
                    if mine:
                        queue[q] = mine[0]
                        continue
                queue[q] = options_q[rng.below(len(options_q))]
            s._queue = queue
        return s


def sample_from_view(game: str, players: int, options: Mapping[str, Any] | None, seat: Seat, view: View,
                     log: Sequence[LogEntry], seed: int, legal: Sequence[str] | None = None) -> State:
    """A state consistent with seat's `view` and its whole `log` (from entry 0), as `State.sample(seat, seed)`.

    `legal`: the seat's legal action texts, when it owes a decision (some games settle with them what the log
    cannot tell). MissingPart if the game has no sampler; ValueError if the view and log do not fit together. For
    many samples of one picture, a `Belief` builds the game's witness once."""
    return Belief(game, players, options, seat, view, log, legal).sample(seed)
