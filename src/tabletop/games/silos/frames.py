"""SILOS: the kinds of frames on the turn stack and of entries in the public log.

A compound turn runs on a stack of small frames, tuples `(kind, seat, x, y)`: the top frame is either resolved
automatically or asks one seat one decision (the table of what each kind does is at the end of `state.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tabletop.core import Action

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState

# Frame kinds, in the order of FRAME_NAMES. The turn: initial positioning, movement, skill tiles, the card.
K_POSITIONING, K_MOVEMENT, K_SKILL_TILES, K_CARD, K_TOWN_HALL_SKILL, K_END_OF_TURN, K_CARD_IN_PLAY = range(7)
# Power events, then the location powers (base and alternate side by side), then the humans' events.
K_ALL_POWERS, K_YOUR_POWERS, K_ONE_POWER, K_POWER_EVENT = range(7, 11)
K_SHERIFFS_OFFICE, K_SHERIFFS_OFFICE_ALTERNATE, K_UNIVERSITY, K_UNIVERSITY_ALTERNATE = range(11, 15)
K_SHOPPING_MALL, K_SHOPPING_MALL_ALTERNATE, K_NEWS_STATION, K_NEWS_STATION_ALTERNATE = range(15, 19)
K_RETURN_HUMANS, K_CHURCH, K_CHURCH_ALTERNATE, K_REPOSITION, K_BUS_STATION_ALTERNATE = range(19, 24)
K_CROP_CIRCLES, K_PLACE_HUMANS, K_MIND_CONTROL, K_MARKED_SPECIMEN = range(24, 28)

FRAME_NAMES = (
    "initial positioning", "movement", "skill tiles", "activate a card", "town hall skill", "end of turn",
    "card in play", "all powers", "your powers", "one power", "power event", "sheriff's office power",
    "sheriff's office power (alternate)", "university power", "university power (alternate)",
    "shopping mall power", "shopping mall power (alternate)", "news station power", "news station power (alternate)",
    "return humans", "church power", "church power (alternate)", "reposition figures", "bus station power (alternate)",
    "crop circles power", "place humans", "mind control", "marked specimen",
)

Frame = tuple[int, int, int, int]

# The public log, the whole history (everyone at the table witnesses every event: nothing in SILOS is hidden, so all
# seats and spectators share one log). A linked list of cells `[entry, previous_cell, text]` plus a length counter, so
# a clone shares it for free and clones diverge by pointing at different heads. `entry` is a small tuple whose first
# item is one of these codes; `text` caches the entry's `(seat, words)` once first shown (the words depend only on
# the entry and on constants of the game, so a cache shared by clones and samples is always right).
L_TURN, L_ACTION, L_REVEAL, L_ABDUCTION, L_MIND_CONTROL, L_EMBLEM, L_DRAW = range(7)
L_RERANK, L_RESHUFFLE, L_SKILL, L_END, L_EXERT = range(7, 12)
L_NO_CARD = 12
LOG_SHOWN = 40  # entries the view's tail carries: more than a round of 4 players (the rest via `log(seat, start)`)

# Each kind of frame has three functions: `step` resolves the frame automatically and returns -1, or returns the seat
# that decides; `legal` lists that seat's options; `apply` carries out its choice. Each rules module lists the frames
# it holds in a `FRAMES` table.
StepFn = Callable[["SilosState", Frame], int]
LegalFn = Callable[["SilosState", Frame], list[Action]]
ApplyFn = Callable[["SilosState", Frame, Action], None]
FrameFunctions = tuple[StepFn, LegalFn, ApplyFn]


def no_decision_legal(s: SilosState, fr: Frame) -> list[Action]:
    """The `legal` of a frame that is always resolved automatically."""
    raise AssertionError(f"frame {FRAME_NAMES[fr[0]]} never waits for a decision")


def no_decision_apply(s: SilosState, fr: Frame, a: Action) -> None:
    """The `apply` of a frame that is always resolved automatically."""
    raise AssertionError(f"frame {FRAME_NAMES[fr[0]]} never waits for a decision")
