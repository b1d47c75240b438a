"""A bot of about 30 lines for a tabletop server (docs/bots.md): your own agent at a table, from an invite link.

    python examples/bot.py 'http://127.0.0.1:8000/join/<game>#<code>'
    tabletop bot --server http://127.0.0.1:8000 --join '<link>' --agent examples/bot.py:GreedyBot   # the same

It sees what its seat sees (the view, the log, its legal actions) and samples of what it cannot (`seat.sample`).
"""

import sys

from tabletop.client import Client, parse_invite
from tabletop.client.bot import run_bot


class GreedyBot:
    """Each legal action tried on a few samples of the hidden cards; the one that scores best for its seat."""

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 3) -> None:
        self.seed, self.samples = seed, samples

    def act(self, seat):  # the agent protocol of docs/agents.md: a seat handle in, one of its legal actions out
        def score(action):
            total = 0.0
            for k in range(self.samples):
                state = seat.sample(self.seed + k)  # a full state consistent with the seat's view, never the true one
                state.apply(action.text)
                total += state.scores()[seat.seat]
            return total

        return max(seat.legal_actions()[:30], key=score)


if __name__ == "__main__":
    link = sys.argv[1]
    with Client(parse_invite(link)[0]) as client:
        seat = client.claim_invite(link, name="greedy (bot)")
        seat.mark_bot()  # shown as a bot at the table and in the lobby
        print(run_bot(seat, GreedyBot()).final["status"])
