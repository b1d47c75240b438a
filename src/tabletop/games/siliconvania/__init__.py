"""SiliconVania (2-5 players): build a 4x4 city for vampires and animals over 8 rounds.

Rules summary. Each round: Refresh (2 players: one tile into each of 4 selection pools; 3+: two tiles into each of 1
+ players pools; one specialist per player into the row), secret simultaneous Bid Selection (a silent bid card 1-7
and a specialist from hand; nobody sees another's bid before the reveal), Building Tile Resolution (highest bid
first, ties by higher specialist rank; the bid card's ability first: 1-2 gain a vampire, 3 recovers a used bid card,
6 and 7 cost 1 and 2 vampires or count as 0, the player's choice when they can pay; 2 players: the winner takes two
pools and the other the rest; 3+: one pool each, leftovers discarded; tile bonuses at once; tiles into empty grid
cells), Specialist Card Resolution (highest rank first: bid effect, take a specialist from the row, bid card to your
private discard; from round 4 add a card from hand to your city objectives). Track bonuses (recover, castle, train,
contract, relocate, swap objective, upgrade castle) are gained on landing or passing; a contract when a player's two
markers meet. Final scoring: 7 types 5 VP, housed vampires 1 each, animals 1/3/6/9/12/16/20/25, best blood cluster,
contracts 2 each (+5 for 3+), objectives (at most 12 VP a card; at most 3 copies of a kind score), Tiara 4. Housing
is optimised for the player at the end. Ties: most housed vampires, then shared. See docs/rulings.md for rulings
V-1...

Notation (cells a1..d4: row a-d top to bottom, column 1-4; perimeter slots top1..top4 above the columns and
lefta..leftd left of the rows; tiles tN by id, specialists sN by rank):

    bid 5 s33                  play silent bid card 5 and specialist rank 33 (bid 0 s33: no bid card left)
    bid 6=0 s33                play card 6 as a 0 bid, keeping the vampires it costs (only when you could pay)
    recover 4                  take silent bid card 4 back from your discard pile
    pool 3                     take the tiles of selection pool 3
    place t17 b2               put pending tile 17 on empty cell b2
    castle mall top2           take the Mall castle, place it above column 2
    train 3 leftb              take train 3, place it left of row b
    upgrade top2               flip the castle above column 2 to its Scorpion side
    relocate swap a1 b2        swap two building tiles
    relocate move a1 c3        move a tile (or perimeter tile, top1 -> leftc) to a free place; then one more
    relocate skip / done       decline the relocation / stop after one move
    swap s12 s40               swap objective s12 with s40 from your hand or discard; swap skip declines
    exchange b2 t44            put your tile at b2 into the exchange pool, take tile 44 (then place it)
    exchange skip              decline the exchange
    antiquity goblet b2        take a Goblet from the supply and put it on your building at b2
    take s45                   take specialist 45 from the row
    objective s45              add specialist 45 from your hand to your city objectives
"""

from tabletop.core import GameInfo, register
from tabletop.games.siliconvania.rules import SiliconVaniaState

INFO = register(
    GameInfo(
        name="siliconvania",
        title="SiliconVania",
        min_players=2,
        max_players=5,
        cooperative=False,
        version="2",
        options=(),
        state_class=SiliconVaniaState,
        summary="Build a vampire tech city; bid for tiles and specialists over 8 rounds.",
        step_limit=2_000,
    )
)
