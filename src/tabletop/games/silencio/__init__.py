"""Silencio — cooperative and silent, 2–4 players (from the Silencio rulebook).

Rules summary
-------------
The team holds journey cards of four colours (red, blue, yellow, green); values 2–8 / 2–10 / 2–13 for 2 / 3 / 4
players, hands of 6 / 6 / 5. The rest is a face-down deck; one face-up oracle card per player lies beside it.
First each player in turn, from the first player, passes one card to the left (having seen the card just received).
Then, clockwise, each plays one card into its colour's row, higher than the row's last card (the small shrine counts
as 1). A card one above the last one creates its colour's *dark* effect (mandatory) unless it is the player's last
card; any other card creates its *light* effect (optional). A player who can play must; one who cannot passes.
Once per turn, at the start or the end of a turn in which they play, a player may take a light shrine: a small one
gives its colour's light effect, the large one any light effect; it then turns dark for good. A player who cannot
play is offered only the start-of-turn shrines after which it can play (a blue take-back, a green oracle swap), and
may pass instead; inside a start-of-turn shrine its own choices keep it a card to play, the others' are free (C-4).
The game ends when no card can be played, not even after a shrine, or when every player has passed in succession
with no card played (C-5); the fewer cards left in hands (and in front of players), the better. Views show each
row card's half (light or dark); `log(seat)` is the whole history as that seat saw it.

Effects: red light skips the next card's dark effect, red dark the next card's light effect. Blue light takes the
last card of a non-blue row into hand; blue dark gives an oracle card to another player (the deck refills it).
Yellow light puts a hand card face up in front of its owner, playable by anyone; yellow dark makes the next player
play a random hand card (if it cannot be laid, a normal turn follows). Green light lets a chosen player swap a card
with another player, swap one with the oracle, or renew the oracle; green dark makes the next card green (the
highest green card creates no dark effect). Variants: Tavern (after every three dark effects the tavern opens and
a player may say one phrase at the start of a turn) and Dark Shrines (large, small or all shrines start dark).

Notation (seats are p0..p3; cards are a colour letter and a value: r5, b10, y2, g13)
---------------------------------------------------------------------------------------
=========================== ==============================================================================
``give r5``                 passing round: pass r5 to the player on your left
``play r5``                 play r5 from your hand, or from in front of any player, into the red row
``pass``                    play no card (must when unable; may when only others' face-up cards fit)
``shrine red``              take the light red shrine and apply the red light effect (blue, yellow, green alike)
``shrine large green``      take the light large shrine and apply the green light effect
``end``                     end your turn without taking a shrine (offered while one could be taken)
``tavern count 2``          take the open tavern and say "I have 2 card(s) that I cannot play."
``tavern high blue``        ... "I have only cards with a high value of blue."
``tavern avoid red``        ... "Please do not play red cards."
``use red light``           red light: the next played card's dark effect is skipped
``take y7``                 blue light: take y7, the last card of its row, into your hand
``place g4``                yellow light: place g4 from your hand face up in front of you
``choose p2``               green light: p2 performs one of the three green actions
``give r5 to p1``           green action 1 (by the chosen player): give r5 to p1, who then gives one back
``return b3``               green action 1, second half: give b3 back to the chosen player
``swap b7 for r5``          green action 2: take b7 from the oracle and put r5 from your hand in its place
``renew oracle``            green action 3: return the oracle cards to the box, reveal one per player
``oracle b7 to p1``         blue dark: give oracle card b7 to p1
``skip``                    decline an optional (light) effect
=========================== ==============================================================================
A decision with a single legal action (a forced pass, the only playable card, a lone give-back, ...) is taken for
the seat by the engine and logged as if chosen (ruling C-9, rules version 3). The team's last card ends the game at
once (C-5). Rulings C-1 ... C-23: docs/rulings.md.
"""

from tabletop.core import GameInfo, Option, register
from tabletop.games.silencio.rules import SilencioState, check_first_player

INFO = register(
    GameInfo(
        name="silencio",
        title="Silencio",
        min_players=2,
        max_players=4,
        cooperative=True,
        version="3",
        options=(
            Option("variant", "none", ("none", "tavern"),
                   "Tavern: once the tavern opens, players may say one phrase"),
            Option("dark_shrines", "none", ("none", "large", "small", "all"),
                   "Dark Shrines: which shrines start dark"),
            Option("first_player", "random", ("random", 0, 1, 2, 3), "who plays first (random: drawn by the game)",
                   check=check_first_player),
        ),
        state_class=SilencioState,
        summary="Cooperative and silent: play all your cards into rising colour rows.",
        score_label="−cards left",
        no_chat="Silencio has no table chat: its rules forbid talking during the game (the Tavern variant's "
                "phrases, played as actions, are the only channel)",
        step_limit=1_000,
    )
)

__all__ = ["INFO", "SilencioState"]
