"""The review of a seat's own game: each of its decisions valued by the search, from what the seat knew then.

`review(record, seat)` replays a finished game and, at each decision of `seat`, runs the hint search of the game's
`hard` level (`tabletop.agents.hints`) from a `SeatHandle` of the position at that step: the seat's view and log
then, and samples of what it could not see (never the hands revealed later). The move the seat played is always
searched (it is expanded first at the root, even where the team convention would not play it), so each decision
gets the value of the move played, the best move found and its value, and the loss between them. The largest losses
(at least `MISTAKE` of the value scale, at most a fifth of the decisions) are marked as mistakes, with the reason
the hints give for the better move.

Values are the search's, from the seat's view: the chance of winning (SILOS, SiliconVania, any competitive game),
or, in a cooperative game, the team's expected result (Silencio: the expected cards left, from the mean team score),
`Review.measure` says which. `Decision.estimate` is the seat's estimated result at that decision (the best value):
the curve of `Review.curve`.

Budget: `seconds` per decision (default `SECONDS`, about 0.2 s: a SILOS seat's ~100 decisions in well under a minute
on one core); with `iters` and `seconds=None` a review is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from tabletop.agents.hints import hint_search_for
from tabletop.agents.search import Search
from tabletop.core import Action, SeatHandle, State, TabletopError, game_info, validate_record
from tabletop.core.record import replay

SECONDS = 0.2
"""The default search time per decision."""
MISTAKE = 0.1
"""A loss of at least this share of the value scale (10 points of win chance) can be a mistake."""
MISTAKE_SHARE = 0.2
"""At most this share of the seat's decisions (the largest losses) is marked as mistakes."""


class ReviewRefused(TabletopError):
    """A review that cannot be made: a game not over, a seat that is not in it, or one that never decided."""


@dataclass
class Decision:
    """One decision of the reviewed seat."""

    step: int
    """The index of the action in the record."""
    played: str
    played_value: float
    best: str
    best_value: float
    loss: float
    samples: int
    """The search's iterations for this decision."""
    options: int
    """How many legal actions the seat had."""
    estimate: float
    """The seat's estimated result here (the best value found)."""
    reason: str = ""
    """Why the best move is worth considering (the hints' reason), for a mistake."""
    mistake: bool = False
    played_score: float | None = None
    """Cooperative games: the team's expected score after the move played (Silencio: minus the cards left)."""
    best_score: float | None = None


@dataclass
class Review:
    """The review of one seat's decisions in one finished game."""

    game: str
    seat: int
    measure: str
    """What a value is: "win chance" (0 to 1), or, cooperative, "team result" (0 to 1, with the expected score)."""
    score_label: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def mistakes(self) -> list[Decision]:
        """The decisions marked as mistakes, in game order."""
        return [d for d in self.decisions if d.mistake]

    @property
    def curve(self) -> list[tuple[int, float]]:
        """(step, estimate): the seat's estimated result over the game."""
        return [(d.step, d.estimate) for d in self.decisions]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"game": self.game, "seat": self.seat, "measure": self.measure, "score_label": self.score_label,
                "decisions": [asdict(d) for d in self.decisions]}


Progress = Callable[[int, int], None]
"""Told (decisions done, decisions in all) after each decision."""


def positions(record: dict[str, Any], seat: int) -> Iterator[tuple[int, State, str]]:
    """(step, the state before the action, the action's text) at every decision of `seat` in the record."""
    state = replay(record, upto=0)
    for step, text in enumerate(record["actions"]):
        if state.to_move == seat:
            yield step, state.clone(), text
        state.apply(text)


def review(
    record: dict[str, Any],
    seat: int,
    seconds: float | None = SECONDS,
    iters: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Review `seat`'s decisions in the finished game `record` (see the module docstring)."""
    validate_record(record)
    info = game_info(record["game"])
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < record["players"]:
        raise ReviewRefused(f"seat must be one of 0-{record['players'] - 1}, not {seat!r}")
    if not replay(record).is_over:
        raise ReviewRefused("a review is of a finished game: this record's game is not over (a live game's record "
                            "would reveal every hand)")
    if seconds is None and iters is None:
        raise ReviewRefused("a review needs a budget: seconds or iters per decision")
    steps = list(positions(record, seat))
    return review_positions(record["game"], seat, steps, seconds, iters, seed, progress,
                            score_label=info.score_label, cooperative=info.cooperative)


def review_positions(
    game: str,
    seat: int,
    steps: Iterable[tuple[int, State, str]],
    seconds: float | None,
    iters: int | None,
    seed: int = 0,
    progress: Progress | None = None,
    score_label: str = "score",
    cooperative: bool = False,
) -> Review:
    """The review of the decisions `steps` ((step, state, action text)); each is searched from a `SeatHandle` of its
    state only, so two states that the seat cannot tell apart give the same decision."""
    steps = list(steps)
    out = Review(game, seat, "team result" if cooperative else "win chance", score_label)
    make = hint_search_for(game)
    for n, (step, state, text) in enumerate(steps):
        handle = SeatHandle(state, seat)
        legal = handle.legal_actions()
        played = next(a for a in legal if a.text == text)
        if len(legal) == 1:
            search = None
        else:
            search = make(handle, seed + step)
            search.must = played
            search.run(iters, seconds)
        out.decisions.append(_decision(search, step, played, len(legal)))
        if progress is not None:
            progress(n + 1, len(steps))
    _mark(out.decisions)
    return out


def _decision(search: Search | None, step: int, played: Action, options: int) -> Decision:
    if search is None:  # a single answer: nothing to choose, nothing lost
        return Decision(step, played.text, 0.0, played.text, 0.0, 0.0, 0, 1, 0.0)
    ranked = search.candidates()
    pv, _ = search.action_value(played)
    best = ranked[0] if ranked and ranked[0].visits else None
    bv = best.value if best is not None else pv
    if best is None or bv < pv:  # the move played is the best found
        best_action, bv = played, pv
    else:
        best_action = best.action
    d = Decision(step, played.text, pv, best_action.text, bv, max(0.0, bv - pv), search.iterations, options, bv)
    d.played_score = search.action_score(played)
    d.best_score = search.action_score(best_action)
    if best_action is not played:
        d.reason = search.reason_for(best_action)
    return d


def _mark(decisions: list[Decision]) -> None:
    """Mark the largest losses (at least MISTAKE, at most MISTAKE_SHARE of the decisions with a choice)."""
    choices = [d for d in decisions if d.options > 1]
    room = max(1, int(len(choices) * MISTAKE_SHARE))
    for d in sorted(choices, key=lambda d: -d.loss)[:room]:
        if d.loss >= MISTAKE:
            d.mistake = True
