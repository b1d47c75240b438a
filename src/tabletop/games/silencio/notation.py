"""Silencio notation: colours, cards (`r5` is the card 0 * 16 + 5), phases, pending effects and the action texts.

Every action is interned once here (`ACTIONS(verb, *args)`), so the rules build legal action lists by indexing these
tables; the texts are listed in the package docstring (`silencio/__init__.py`).
"""

from __future__ import annotations

from tabletop.core import ActionTable
from tabletop.games.silencio.components import COMPONENTS

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
COLOURS = COMPONENTS.colours
LETTERS = "rbyg"
LARGE = 4  # shrine index of the large (purple) shrine; small shrines are indexed by colour
SHRINE_NAMES = (*COLOURS, "large")

# Phases
PASSING, START, EFFECT, END, OVER = range(5)
PHASE_NAMES = ("passing", "start of turn", "effect", "end of turn", "over")

KEEP, UNLOCK = 1, 2  # a start-of-turn shrine's effect: the player in turn could play before it, or could not

# Pending effect decisions (phase EFFECT)
P_RED_LIGHT, P_BLUE_LIGHT, P_YELLOW_LIGHT, P_GREEN_LIGHT, P_GREEN_ACT, P_GREEN_RETURN, P_BLUE_DARK = range(7)
PENDING_TEXT = (
    "red light effect: skip the next card's dark effect?",
    "blue light effect: take the last card of a row other than blue?",
    "yellow light effect: place a card from hand face up in front of you?",
    "green light effect: choose a player to make a swap?",
    "green light effect: chosen to give a card, swap with the oracle or renew the oracle",
    "green light effect: give a card back",
    "blue dark effect: give an oracle card to another player",
)

PUBLIC = 1 << 7  # knowledge bit: everyone (and spectators) know where the card is
ALL_KNOW = 0xFF
TAVERN_PHRASES = ("count", "high", "avoid")
PLAY_HOW = {
    "light": " (light)", "dark": " (dark effect)", "dark skipped": " (dark effect skipped: red)",
    "light skipped": " (light effect skipped: red)", "last": " as last card (no effect)",
    "final": ", the team's last card: the game is over", "top green": " (highest green: no dark effect)",
}
LOG_TAIL = 20  # the view carries the last entries of its seat's log; the whole history is `log(seat, start)`


def card(colour: int, value: int) -> int:
    """Card id of a colour and value."""
    return colour * 16 + value


def colour_of(c: int) -> int:
    return c >> 4


def value_of(c: int) -> int:
    return c & 15


def card_text(c: int) -> str:
    """`r5`, `g13`."""
    return f"{LETTERS[c >> 4]}{c & 15}"


def parse_card(text: str) -> int:
    """The card id written as `r5`; ValueError otherwise."""
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in LETTERS or not t[1:].isdigit() or not 2 <= int(t[1:]) <= 13:
        raise ValueError(f"{text!r} is not a card; cards are written r5, b10, y2, g13")
    return card(LETTERS.index(t[0]), int(t[1:]))


def _format(verb: str, args: tuple[int | str, ...]) -> str:
    a = args
    if verb in ("play", "give", "place", "take", "return"):
        return f"{verb} {card_text(int(a[0]))}"
    if verb == "giveto":
        return f"give {card_text(int(a[0]))} to p{a[1]}"
    if verb == "oracle":
        return f"oracle {card_text(int(a[0]))} to p{a[1]}"
    if verb == "swap":
        return f"swap {card_text(int(a[0]))} for {card_text(int(a[1]))}"
    if verb == "shrine":
        return f"shrine {COLOURS[int(a[0])]}" if a[0] != LARGE else f"shrine large {COLOURS[int(a[1])]}"
    if verb == "choose":
        return f"choose p{a[0]}"
    if verb == "tavern":
        return f"tavern {a[0]} {a[1]}"
    return verb  # pass, end, skip, use, renew


ACTIONS = ActionTable(_format)
PASS, END_TURN, SKIP = ACTIONS("pass"), ACTIONS("end"), ACTIONS("skip")
USE_RED, RENEW = ACTIONS("use red light"), ACTIONS("renew oracle")
PLAY = [ACTIONS("play", c) for c in range(64)]
GIVE = [ACTIONS("give", c) for c in range(64)]
# Every other action, interned once here so the hot path only indexes lists (ids that are not cards: PASS).
_IS_CARD = [2 <= c & 15 <= 13 for c in range(64)]
TAKE = [ACTIONS("take", c) if _IS_CARD[c] else PASS for c in range(64)]
PLACE = [ACTIONS("place", c) if _IS_CARD[c] else PASS for c in range(64)]
RETURN = [ACTIONS("return", c) if _IS_CARD[c] else PASS for c in range(64)]
GIVETO = [[ACTIONS("giveto", c, r) if _IS_CARD[c] else PASS for r in range(4)] for c in range(64)]
ORACLE = [[ACTIONS("oracle", c, q) if _IS_CARD[c] else PASS for q in range(4)] for c in range(64)]
SWAP = [[ACTIONS("swap", o, c) if _IS_CARD[o] and _IS_CARD[c] else PASS for c in range(64)] for o in range(64)]
CHOOSE = [ACTIONS("choose", q) for q in range(4)]
SHRINE_SMALL = [ACTIONS("shrine", col) for col in range(4)]
SHRINE_LARGE = [ACTIONS("shrine", LARGE, col) for col in range(4)]
TAVERN_COUNT = [ACTIONS("tavern", "count", n) for n in range(49)]
TAVERN_COLOUR = [ACTIONS("tavern", phrase, COLOURS[col]) for phrase in ("high", "avoid") for col in range(4)]
