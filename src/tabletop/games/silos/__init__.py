"""SILOS (Reiner Knizia, Bitewing Games 2025) with the Crop Circles expansion, for 2-4 players.

Rules summary
-------------
Alien factions compete for influence in seven locations: 0 Town Hall, 1 Sheriff's Office, 2 University,
3 Shopping Mall, 4 News Station, 5 Church, 6 Bus Station. Influence: figure 1, leader 1.5, distinguished (capped)
figure 2, crop circle token +1; ties go to the better Town Hall rank. Setup: one human per focus group by colour,
a cow and a random human on each abduction space 1-6, UFO at 4, ranks in seat order from a random start player.
Initial positioning: in turn, each player places one figure at a time (choosing which figure is the leader), 7
each; then the Town Hall re-ranks by influence there (ties keep setup order). A turn: up to two movements along
streets (ring 1-2-3-4-5-6-1, Town Hall joined to 1, 3, 5; reconstructed), [skill tiles], then exactly one card:
the top common card or an unused faction card. Events: UFO abduction (most influence takes the cow, second-most the
human), mind control when a focus group fills (most takes two of the three, second-most the last), power events
(the location's power, exerted by the faction with most influence there). A complete set (politician, government,
influencer, professional; cows wild and compulsory) is exchanged at once for an emblem. The game ends at the end of
the turn in which someone has 5 (or 4) emblems; most emblems wins, then most humans + cows, else shared.
Two players: a non-player faction (purple) with one figure at each location, locked at rank 1, blocks powers and
takes abduction/mind-control rewards to the bag. Nothing is hidden; every view shows the whole table, the
decision in words (`decision`), the length of the public log (`log_pos`) and its last 40 entries (`log`, each
`{"seat", "text"}`: actions, revealed cards, abductions, mind control, emblems, re-rankings); `state.log(seat, k)`
gives the whole history from entry k on (ruling S-28), so a player sees everything since their last turn.
A decision with no real choice is not asked (rulings S-16, S-24).

Notation (canonical action texts; locations are numbers 0-6; figure kinds: figure, leader, distinguished;
human types: politician, government, influencer, professional; colours: blue, yellow, purple, green)
--------------------------------------------------------------------------------------------------------
place leader 3 / place figure 3          initial positioning: put that figure at location 3
move leader 3-4                          a movement along the street 3-4 (up to two per turn, three with skill 6)
stop                                     end movement early; also: stop drawing (mall), stop moving (sheriff)
card common                              reveal the top common card and carry it out (not asked when it is the
                                         only card left, S-16)
card sighting ufo / card sighting reposition   UFO Sighting faction card, either option
card confluence / card powers            Human Confluence / Your Powers faction cards
card held one-power                      a common card kept with the alternate Church power
card none                                (version 1 only: no card can be activated; now not asked, S-15)
skill 0 keep / skill 0 reject            Town Hall skill tile: keep or reject the first revealed common card
exert 5                                  One Power: exert the power of a location where you have most influence
place politician 3                       place a drawn human in the focus group of location 3
take politician influencer               mind control: the majority takes these two, the last goes to second
power 1 move yellow leader 3-1           Sheriff's Office: move that figure to 1 (same colour and location after)
power 2 graduate                         University: move all your figures 2->0 and distinguish one there
power 2 distinguish                      University*: distinguish one of your figures in the News Station
power 3 draw / power 3 draw four         Shopping Mall: draw one human to place / Mall*: draw four to place
power 4 exchange cow politician politician   News Station: three humans/cows for an emblem
power 4 draw / power 4 draw three        draw one human / News Station*: draw three then return three
power 4 return politician                News Station*: return one of your humans (as many as drawn)
power 5 take politician from yellow      Church: take a human from a player
power 5 take politician from focus 2     Church: take a human from a focus group
power 5 draw card                        Church*: keep a common card as a faction card
reposition leader 3-5 / done             Bus Station and UFO Sighting: reposition figures one at a time
power 6 downgrade                        Bus Station*: remove a cap there, draw three humans
crop place 3 / crop move 3-5             Crop Circles tile: place a token (or replace), or move one of yours
skill 1 move yellow figure 3-1           skill tiles 1-5 (phase 2): Sheriff's, University (`skill 2 move leader
skill 3 draw / skill 4 return a b        3-2`), Mall, News Station, Church (`skill 5 move politician 3-5`)
skip                                     decline any MAY power or skill

Options: `alternate_tiles` (list of locations using their alternate tile), `emblem_target` (5 or 4),
`crop_circles` (0 = module off, else the location 1-6 holding the crop circles power tile), `skill_tiles`.
Rulings S-1...: docs/rulings.md.
"""

from tabletop.core import GameInfo, Option, register
from tabletop.games.silos.state import SilosState

INFO = register(
    GameInfo(
        name="silos",
        title="SILOS",
        min_players=2,
        max_players=4,
        cooperative=False,
        version="2",
        options=(
            Option(
                "alternate_tiles", [], (0, 1, 2, 3, 4, 5, 6),
                doc="locations whose alternate location tile is used (0*-6*)", multi=True,
            ),
            Option("emblem_target", 5, (5, 4), doc="emblems that end the game (4 for a shorter game)"),
            Option(
                "crop_circles", 0, (0, 1, 2, 3, 4, 5, 6),
                doc="Crop Circles module: the location (1-6) whose power its tile covers, 6 advised; 0 = off",
            ),
            Option("skill_tiles", False, (False, True), doc="Permanent Skill Tiles module"),
        ),
        state_class=SilosState,
        summary="Alien factions vie for influence in a small town to silo humans and cows.",
        step_limit=3_000,
    )
)

__all__ = ["INFO", "SilosState"]
