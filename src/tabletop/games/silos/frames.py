"""SILOS: the kinds of frames on the turn stack and of entries in the public log.

A compound turn runs on a stack of small frames, tuples `(kind, seat, x, y)`: the top frame is either resolved
automatically or asks one seat one decision (the table of what each kind does is at the end of `state.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from tabletop.core import Action

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState

# Frame kinds, in the order of FRAME_NAMES. The turn: initial positioning, movement, skill tiles, the card.
K_POSITIONING: Final = 0
K_MOVEMENT: Final = 1
K_SKILL_TILES: Final = 2
K_CARD: Final = 3
K_TOWN_HALL_SKILL: Final = 4
K_END_OF_TURN: Final = 5
K_CARD_IN_PLAY: Final = 6
# Power events, then the location powers (base and alternate side by side), then the humans' events.
K_ALL_POWERS: Final = 7
K_YOUR_POWERS: Final = 8
K_ONE_POWER: Final = 9
K_POWER_EVENT: Final = 10
K_SHERIFFS_OFFICE: Final = 11
K_SHERIFFS_OFFICE_ALTERNATE: Final = 12
K_UNIVERSITY: Final = 13
K_UNIVERSITY_ALTERNATE: Final = 14
K_SHOPPING_MALL: Final = 15
K_SHOPPING_MALL_ALTERNATE: Final = 16
K_NEWS_STATION: Final = 17
K_NEWS_STATION_ALTERNATE: Final = 18
K_RETURN_HUMANS: Final = 19
K_CHURCH: Final = 20
K_CHURCH_ALTERNATE: Final = 21
K_REPOSITION: Final = 22
K_BUS_STATION_ALTERNATE: Final = 23
K_CROP_CIRCLES: Final = 24
K_PLACE_HUMANS: Final = 25
K_MIND_CONTROL: Final = 26
K_MARKED_SPECIMEN: Final = 27

FRAME_NAMES: Final = (
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
L_TURN: Final = 0
L_ACTION: Final = 1
L_REVEAL: Final = 2
L_ABDUCTION: Final = 3
L_MIND_CONTROL: Final = 4
L_EMBLEM: Final = 5
L_DRAW: Final = 6
L_RERANK: Final = 7
L_RESHUFFLE: Final = 8
L_SKILL: Final = 9
L_END: Final = 10
L_EXERT: Final = 11
L_NO_CARD: Final = 12
# entries the view's tail carries: more than a round of 4 players (the rest via `log(seat, start)`)
LOG_SHOWN: Final = 40

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
