"""`tabletop loadtest`: bot clients play whole games over WebSocket against a real `tabletop serve` process.

A client of the server, with its own extra (`pip install 'tabletop[loadtest]'`: httpx and websockets for the bots,
and the server's extra for the `tabletop serve` it starts). It imports nothing of `tabletop.server`: it starts the
server through the `tabletop serve` command and talks to it over HTTP and WebSocket, as any client does. Its parts:
`bots` (one seat each: play a game, check what its socket delivered), `process` (the server process, its database,
its memory and CPU), `pgcluster` (a throwaway PostgreSQL cluster), `run` (the runs and their report), `plot` (the
timeline figure).

The server is started as a subprocess on a free loopback port, under its default limits, on a fresh database: an
SQLite file (default) or PostgreSQL (a throwaway cluster of its own, or `--db URL` of an empty database). Every
bot is one seat with its own source address (127.0.0.2, 127.0.0.3, ...), so the per-address limits apply per
player as they would on the internet, and it keeps its seat token within the per-token limit on its own (a 429
counts as an error).

A bot reads its socket; when a state message gives it legal actions it waits its think time, sends one over the
socket as the browser client does (quoting the `seq` it saw, with a client action id), and measures the round trip:
from the send to the moment both the acknowledgement and a state message at the acknowledged `seq` (or later) have
arrived. At the end of a game every seat compares the log entries
its socket delivered (each message's `log_start` must continue the previous `log_pos`) with its log from the
server, and each seat's acknowledged actions are compared with that seat's actions in the finished game's record
(the record keeps the engine's canonical order, in which a decision submitted ahead in a simultaneous step comes
when the engine reaches its seat, so it is compared seat by seat, not by event `seq`): entries missing on the
socket or actions acknowledged but not recorded are lost, entries delivered twice or actions recorded twice
duplicated.

The games are those the server plays (`GET /api/meta/games`, those that take `--players`), in turn, or the ones
named with `--games`: a new game is load-tested without an edit here.

Modes:
- `paced` (people-paced): `--games` concurrent games, each bot thinking 0.2-0.8 s (uniform) after its turn
  arrives, every game to its end.
- `saturation`: no think time; steps of concurrent games (2, 4, 8, ...), each played back to back for
  `--step-seconds`; reported per step, and the highest actions/s whose p99 stays within 100 ms.

Either way the engine's own cost per action (apply, the legal actions of the seat deciding, the view and the new
log entries of every seat and of a spectator) is measured in this process on the records of the games played, and
the server's memory (RSS) is sampled every half second.
"""

from tabletop.loadtest.bots import Addresses, actions_by_seat
from tabletop.loadtest.pgcluster import ClusterFailed
from tabletop.loadtest.plot import plot_timeline
from tabletop.loadtest.process import ServerFailed
from tabletop.loadtest.run import STEPS, NotServed, format_report, percentile, run, served_games

__all__ = ["STEPS", "Addresses", "ClusterFailed", "NotServed", "ServerFailed", "actions_by_seat", "format_report",
           "percentile", "plot_timeline", "run", "served_games"]
