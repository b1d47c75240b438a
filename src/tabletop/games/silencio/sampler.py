"""Silencio: a full state rebuilt from what one seat saw (its view and its log), never from the state.

A remote seat (a bot over the network, the terminal at a server table) has only `view(seat)`, `log(seat)` and its
legal actions; `witness_from_view` turns them into a state the seat cannot tell from the true one: the public table
and the seat's hand as seen, the turn's internal flags (the shrine and tavern already used this turn, passes in
succession, the effect in progress and what follows it) read back from the log, the cards it cannot place dealt
in any way; `sample_from_view` is then `SilencioState._sample` of it, which redeals those cards exactly as it would
from the true state (the same deal for the same rng).

What cannot be read back exactly: which cards *other* seats know the place of (only the seat's own knowledge is
in its view; public events of the log give the rest approximately), and, during a start-of-turn shrine's effect,
whether the player in turn could play before it (ruling C-4): the seat's own legal actions decide when given,
otherwise the table as it is now.
"""

from __future__ import annotations

import re
from typing import Any, Self

from tabletop.core import LogEntry, Rng, Seat, View
from tabletop.core.logwords import notation_text
from tabletop.games.silencio.effects import effect_actions
from tabletop.games.silencio.notation import (
    ALL_KNOW,
    COLOURS,
    EFFECT,
    END,
    KEEP,
    OVER,
    P_GREEN_ACT,
    P_GREEN_RETURN,
    PASSING,
    PENDING_TEXT,
    PHASE_NAMES,
    SHRINE_NAMES,
    START,
    UNLOCK,
    card,
    parse_card,
)
from tabletop.games.silencio.rules import SilencioState

_CARD = re.compile(r"\b([rbyg]1[0-3]|[rbyg][2-9])\b")
_PRIVATE = re.compile(r"^p\d+ gave ([rbyg]\d+) to p\d+$")


class SampledSilencio(SilencioState):
    """A Silencio state rebuilt from a view: its log's entries before the rebuild are the seat's, as it was given
    them (every seat's log of a belief reads them: what the others saw of the past is not known)."""

    _seen: list[LogEntry]

    def clone(self) -> Self:
        s = super().clone()
        s._seen = self._seen
        return s

    def _log(self, seat: Seat | None, start: int) -> list[dict[str, Any]]:
        n0 = len(self._seen)
        out = [dict(e) for e in self._seen[start:]] if start < n0 else []
        return out + SilencioState._log(self, seat, max(start, n0))


def _cards(texts: Any) -> list[int]:
    return [parse_card(t) for t in texts]


def _kind(text: str) -> str:
    """The kind of a log entry from its words (the events of `view.event_texts`)."""
    rest = text.split(" ", 1)[1] if " " in text else ""
    for prefix, kind in (("played ", "play"), ("passed", "pass"), ("drew ", "random"), ("took the ", "shrine"),
                         ("at the tavern", "say"), ("gave a card", "give"), ("gave oracle", "oracle"),
                         ("gave ", "give"), ("took ", "take"), ("placed ", "place"), ("chose ", "choose"),
                         ("renewed", "renew"), ("used red", "red"), ("skipped", "skip")):
        if rest.startswith(prefix):
            if kind == "random":
                return "random played" if text.endswith(": played") else "random"
            return kind
    return "other"


def witness_from_view(players: int, options: dict[str, Any], seat: int, view: View, log: list[LogEntry],
                      legal: list[str] | None = None) -> SampledSilencio:
    """A state the seat cannot tell from the true one, from its `view` and whole `log`: the table and its own hand as
    seen, the turn's flags read back from the log, the cards it cannot place dealt in any way (the sample redeals
    them). `legal`: the seat's legal action texts when it owes the decision (see the module docstring)."""
    s = SampledSilencio.setup(players, 0, options)
    s.options = dict(options)
    s.max_value = int(view["max_value"])
    s.rows = [list(view["rows"][COLOURS[i]]) for i in range(4)]
    s.halves = [[h == "dark" for h in view["halves"][COLOURS[i]]] for i in range(4)]
    s.shrines = [view["shrines"][name] == "light" for name in SHRINE_NAMES]
    s.oracle = _cards(view["oracle"])
    s.box = sorted(_cards(view["box"]))
    s.fronts = [_cards(f) for f in view["fronts"]]
    s.first = int(view["first_player"])
    s.phase = PHASE_NAMES.index(view["phase"])
    s.to_move = view["to_move"]
    s.turn = s.first if view["turn"] is None else int(view["turn"])
    fx = view["effects"]
    s.skip_dark, s.skip_light, s.green_only = bool(fx["skip_next_dark"]), bool(fx["skip_next_light"]), \
        bool(fx["green_only"])
    s.random_play = -1 if fx["random_play"] is None else int(fx["random_play"])
    tavern = view["tavern"]
    s.tavern = tavern is not None
    s.tavern_open = bool(tavern and tavern["open"])
    s.tavern_count = int(tavern["dark_effects"]) if tavern else 0
    s.said = [(int(p), str(t)) for p, t in view["said"]]
    s._seen = list(log)
    s._ev = [[("seen", e["seat"]), ("", ""), 0] for e in log]  # placeholders: `SampledSilencio._log` reads _seen
    s._nev = len(log)
    s._history = []

    # who knows what: the seat's own knowledge from its view; a card whose last mention in the log is public is
    # known to all (approximate for the other seats' knowledge, which no view shows)
    public: set[int] = set(s.oracle) | set(s.box) | {c for f in s.fronts for c in f}
    for e in log:
        text = notation_text(e)
        m = _PRIVATE.match(text)
        if m:
            public.discard(parse_card(m.group(1)))
        elif _kind(text) not in ("give", "say"):
            public.update(parse_card(t) for t in _CARD.findall(text))
    s.known = [0] * 64
    for c in public:
        s.known[c] = ALL_KNOW
    over = s.phase == OVER
    sizes = [int(n) for n in view["hand_sizes"]]
    kept: list[list[int]] = []
    if over:  # the hands lie open (ruling C-19); what the seat knew of them before is still its view's `known`
        s.hands = [sorted(_cards(h)) for h in view["result"]["hands"]]
        kept = [h.copy() for h in s.hands]
        for q in range(players):
            seen = set(_cards(view["known"].get(str(q), [])))
            for c in s.hands[q]:
                if c not in public:
                    s.known[c] = 1 << q | (1 << seat if q == seat or c in seen else 0)
                elif q != seat and c not in seen:
                    s.known[c] = ALL_KNOW & ~(1 << seat)
    else:
        s.hands = [[] for _ in range(players)]
        for q in range(players):
            if q == seat:
                s.hands[q] = sorted(_cards(view["hand"]))
                kept.append([])
                for c in s.hands[q]:
                    if c not in public:
                        s.known[c] = 1 << seat
            else:
                k = sorted(_cards(view["known"][str(q)]))
                kept.append(k)
                for c in k:
                    if c not in public:
                        s.known[c] = (1 << q) | (1 << seat)
    placed = {c for h in s.hands for c in h} | {c for k in kept for c in k} | set(s.oracle) | set(s.box)
    placed |= {c for f in s.fronts for c in f} | {card(col, v) for col in range(4) for v in s.rows[col]}
    pool = sorted(c for c in (card(col, v) for col in range(4) for v in range(2, s.max_value + 1)) if c not in placed)
    if len(pool) != int(view["deck"]) + sum(sizes[q] - len(kept[q]) for q in range(players) if q != seat):
        raise ValueError("the view does not add up: its hidden cards are not the cards it does not show")

    mine = _flags(s, log, players)
    if s.phase == EFFECT:
        _effect_flags(s, log, view, legal, mine)

    deal = list(pool)  # any deal: SilencioState._sample redeals every card the seat cannot place
    for q in range(players):
        if q != seat:
            dealt = [deal.pop() for _ in range(sizes[q] - len(kept[q]))]
            for c in dealt:
                s.known[c] = 1 << q
            s.hands[q] = sorted(kept[q] + dealt)
    for c in deal:
        s.known[c] = 0
    s.deck = deal
    s._legal = None
    return s


def sample_from_view(players: int, options: dict[str, Any], seat: int, view: View, log: list[LogEntry], rng: Rng,
                     legal: list[str] | None = None) -> SampledSilencio:
    """A state consistent with `view` and `log` (seat's, whole: `log(seat, 0)`), hidden cards drawn with `rng` by
    the engine's own `SilencioState._sample` from a witness (`witness_from_view`).

    `legal`: the seat's legal action texts when it owes the decision (settles what the log cannot, see the module
    docstring). The caller (`tabletop.core.belief`) reseeds the result as `State.sample` does."""
    return witness_from_view(players, options, seat, view, log, legal)._sample(seat, rng)


def _flags(s: SilencioState, log: list[LogEntry], players: int) -> list[str]:
    """The turn's flags the view does not show, read back from the log; the kinds of the player in turn's events
    this turn."""
    kinds = [_kind(notation_text(e)) for e in log]
    s.passes = 0
    for k in reversed(kinds):  # passes in succession since the last card played (ruling C-5)
        if k in ("play", "random played"):
            break
        if k == "pass":
            s.passes += 1
    s.passed_cards = (s.to_move - s.first) % players if s.phase == PASSING and s.to_move is not None else players
    # the current turn began after the previous player's play or pass (every turn has exactly one)
    prev = (s.turn - 1) % players
    start = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i]["seat"] == prev and kinds[i] in ("play", "pass"):
            start = i + 1
            break
    if s.phase == PASSING:
        start = len(log)
    mine = [kinds[i] for i in range(start, len(log)) if log[i]["seat"] == s.turn]
    s.shrine_taken = "shrine" in mine
    s.tavern_used = "say" in mine
    return mine


def _effect_flags(s: SilencioState, log: list[LogEntry], view: View, legal: list[str] | None,
                  mine: list[str]) -> None:
    """The effect in progress: which, for whom (`pend_a`), what follows it (`after`) and ruling C-4's `enable`."""
    decision = str(view["decision"]).split(": ", 1)[1]
    s.pending = PENDING_TEXT.index(decision)
    s.pend_a = int(log[-1]["seat"]) if s.pending in (P_GREEN_ACT, P_GREEN_RETURN) and log else 0
    origin = [k for k in mine if k in ("play", "shrine")]
    if origin and origin[-1] == "shrine" and "play" not in origin:
        s.after = START
    else:
        s.after = END
    s.enable = 0
    if s.after == START:
        s.enable = KEEP if s._can_play(s.turn) else UNLOCK
        if legal is not None and s.to_move is not None:
            want = sorted(legal)
            for enable in (s.enable, UNLOCK if s.enable == KEEP else KEEP):
                s.enable = enable
                if sorted(a.text for a in effect_actions(s, s.to_move)) == want:
                    break
