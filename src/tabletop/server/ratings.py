"""Ratings and results (issue 23): stored in the transaction of a game's final event, so exactly once.

When an action ends a game, `Ratings.final_op` gives the service a write that runs inside the transaction storing
that event (`Storage.append_event`): a `results` row for every seat bound to an account (its place, score, whether
it won), and, for a game created rated between signed-in people, the openskill (Plackett-Luce) update of their
ratings in that game kind. The final event is unique per game (`UNIQUE(game, seq)`), so a retried final action (a
duplicate, answered from the log) or the same one sent to two server processes stores it once: the loser's
transaction, ratings included, is rolled back. Ratings rows are locked (`FOR UPDATE` on PostgreSQL) while updated,
so two games ending at once for one player both count.

Decisions: AI seats are not counted (left out of the ranking: the humans are ranked among themselves), because our
AI levels have no calibrated rating to anchor to; a rated game can only be joined by signed-in players (a guest's
claim is refused), and at its end a seat not bound to an account (e.g. its account was deleted) makes it unrated for
everyone. A cooperative game (Silencio) has no rating: each player's record of games, perfect games and cards left
by player count and variant is read from the results instead.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, case, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tabletop.core import State, game_info, games
from tabletop.server.models import AccountRow, GameRow, LeftSeatRow, RatedGameRow, RatingRow, ResultRow
from tabletop.server.storage import GameHeader, SeatInfo, Storage, _aware, now

MODEL = PlackettLuce()
LEADERBOARD = 100
RECENT = 20


def places(scores: list[float], winners: list[int]) -> list[int]:
    """Each seat's place (1 = first): winners first, then by score; equal seats share the better place."""
    keys = [(p in winners, scores[p]) for p in range(len(scores))]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def variant_of(options: dict[str, Any]) -> str:
    """The variant a result is filed under (the `variant` option, else `standard`)."""
    v = options.get("variant")
    return str(v) if v else "standard"


def shown(mu: float, sigma: float) -> dict[str, float]:
    """A rating as shown: mu, its uncertainty sigma, and the conservative `ordinal` (mu - 3 sigma) ranked by."""
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(mu - 3 * sigma, 3)}


class Ratings:
    """Rated games, ratings and results in the server's database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def mark_rated(self, game_id: str) -> None:
        """The game is rated."""
        self.storage._write(lambda conn: conn.execute(insert(RatedGameRow.__table__), {"game_id": game_id}))  # type: ignore[arg-type]

    def is_rated(self, game_id: str) -> bool:
        """Whether the game was created rated."""
        with self.storage._session() as s:
            return s.get(RatedGameRow, game_id) is not None

    # ---- the final event's write ----------------------------------------------------------------------------
    def final_op(self, header: GameHeader, seats: list[SeatInfo], final: State
                 ) -> Callable[[Connection], None] | None:
        """The write to run in the transaction of the event that ended the game: None if no seat is an account's."""
        mine = [s for s in seats if s.account_id is not None]
        if not mine:
            return None
        scores = [float(x) for x in final.scores()]
        winners = list(final.winners())
        place = final.places()  # winners first, then by standing; a seat that conceded last (docs/rulings.md)
        cooperative = game_info(header.game).cooperative
        variant = variant_of(header.options)

        def op(conn: Connection) -> None:
            t = now()
            left = set(conn.scalars(select(LeftSeatRow.seat).where(LeftSeatRow.game_id == header.id)))
            counted = [s for s in mine if s.seat not in left]  # a leaver's seat is unrated from its leaving on
            rated = (not cooperative and conn.scalar(select(func.count()).select_from(RatedGameRow)
                                                     .where(RatedGameRow.game_id == header.id)) == 1
                     and all(s.account_id is not None for s in seats if s.kind == "human" and s.seat not in left)
                     and len(counted) >= 2)
            after: dict[int, tuple[float, float]] = {}
            if rated:
                after = self._rate(conn, header.game, counted, place, winners, t)
            rows = [{"game_id": header.id, "seat": s.seat, "account_id": s.account_id, "game": header.game,
                     "players": header.players, "variant": variant, "place": place[s.seat],
                     "score": scores[s.seat], "won": s.seat in winners, "rated": rated and s.seat in after,
                     "mu": after.get(s.seat, (None, None))[0], "sigma": after.get(s.seat, (None, None))[1],
                     "time": t} for s in mine]
            conn.execute(insert(ResultRow.__table__), rows)  # type: ignore[arg-type]

        return op

    def _rate(self, conn: Connection, game: str, mine: list[SeatInfo], place: list[int], winners: list[int],
              t: datetime) -> dict[int, tuple[float, float]]:
        ids = [s.account_id for s in mine]
        fresh = [{"account_id": a, "game": game, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0, "wins": 0,
                  "updated": t} for a in ids]
        ins = (pg_insert if conn.dialect.name == "postgresql" else sqlite_insert)(RatingRow.__table__)  # type: ignore[arg-type]
        conn.execute(ins.on_conflict_do_nothing(), fresh)  # rows that exist stay as they are
        query = select(RatingRow).where(RatingRow.game == game, RatingRow.account_id.in_(ids))
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        now_rows = {r.account_id: r for r in conn.execute(query)}
        teams = [[MODEL.rating(mu=now_rows[s.account_id].mu, sigma=now_rows[s.account_id].sigma)] for s in mine]
        new = MODEL.rate(teams, ranks=[place[s.seat] for s in mine])
        out: dict[int, tuple[float, float]] = {}
        for s, team in zip(mine, new, strict=True):
            r = team[0]
            row = now_rows[s.account_id]
            conn.execute(update(RatingRow).where(RatingRow.account_id == s.account_id, RatingRow.game == game)
                         .values(mu=r.mu, sigma=r.sigma, games=row.games + 1, wins=row.wins + (s.seat in winners),
                                 updated=t))
            out[s.seat] = (float(r.mu), float(r.sigma))
        return out

    # ---- reading --------------------------------------------------------------------------------------------
    def profile(self, username: str) -> dict[str, Any] | None:
        """An account's ratings per game, its cooperative records and its recent finished games; None if no such
        account. Finished games only: results exist only once a game is over."""
        with self.storage._session() as s:
            acc = s.scalars(select(AccountRow).where(AccountRow.username_key == username.casefold())).first()
            if acc is None:
                return None
            ratings = s.scalars(select(RatingRow).where(RatingRow.account_id == acc.id)
                                .order_by(RatingRow.game)).all()
            coop = s.execute(
                select(ResultRow.game, ResultRow.players, ResultRow.variant, func.count(),
                       func.sum(case((ResultRow.won, 1), else_=0)), func.avg(ResultRow.score),
                       func.max(ResultRow.score))
                .join(GameRow, GameRow.id == ResultRow.game_id)
                .where(ResultRow.account_id == acc.id,
                       ResultRow.game.in_([g for g in games() if game_info(g).cooperative]))
                .group_by(ResultRow.game, ResultRow.players, ResultRow.variant)
                .order_by(ResultRow.players, ResultRow.variant)).all()
            recent = s.execute(select(ResultRow, GameRow.players).join(GameRow, GameRow.id == ResultRow.game_id)
                               .where(ResultRow.account_id == acc.id, GameRow.status == "over")
                               .order_by(ResultRow.time.desc()).limit(RECENT)).all()
            return {
                "username": acc.username,
                "ratings": [{"game": r.game, **shown(r.mu, r.sigma), "games": r.games, "wins": r.wins}
                            for r in ratings],
                "records": [{"game": g, "players": p, "variant": v, "games": int(n), "perfect": int(w or 0),
                             "average_cards_left": round(-float(avg), 2), "fewest_cards_left": int(-float(best))}
                            for g, p, v, n, w, avg, best in coop],
                "recent": [{"game_id": r.game_id, "game": r.game, "players": players, "variant": r.variant,
                            "seat": r.seat, "place": r.place, "score": r.score, "won": r.won, "rated": r.rated,
                            "rating": None if r.mu is None or r.sigma is None else shown(r.mu, r.sigma),
                            "time": _aware(r.time).isoformat(), "record": f"/api/games/{r.game_id}/record",
                            "replay": f"/api/games/{r.game_id}/replay/0"}
                           for r, players in recent],
            }

    def leaderboard(self, game: str, limit: int = LEADERBOARD) -> list[dict[str, Any]]:
        """The game's rated players, by their conservative rating (mu - 3 sigma), best first."""
        with self.storage._session() as s:
            rows = s.execute(select(RatingRow, AccountRow.username)
                             .join(AccountRow, AccountRow.id == RatingRow.account_id)
                             .where(RatingRow.game == game, RatingRow.games > 0)
                             .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc()).limit(limit)).all()
            return [{"rank": i + 1, "username": name, **shown(r.mu, r.sigma), "games": r.games, "wins": r.wins}
                    for i, (r, name) in enumerate(rows)]
