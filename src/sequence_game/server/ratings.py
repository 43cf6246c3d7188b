"""Ratings (issue 43, part 2): one OpenSkill (Plackett-Luce) rating per account and format.

Formats: ``2p`` (2 players), ``3p`` (3 players), ``2t`` (2 teams of 2 or more), ``3t`` (3 teams
of 2 or more). A game is **rated** when the host chose it (``config["rated"]``), its table has a
format, every seat is a person with an account (no bot, no guest, no account twice) and the game
ends; bots make a game casual. Each side is one team of OpenSkill's ``rate``; the winning side
ranks first, the others tie second (a drawn game ties every side), and a side in which someone
**left for good** (their seat played by the stand-in bot when the game ended) ranks last, below
every other side, whatever the board says.

Rating once: the game's key ``(room, game number)`` is the primary key of ``rated_games``,
inserted in the same transaction as the new ratings, so a game finishing on two workers, or rated
again after a restart, changes nothing the second time. On PostgreSQL the players' rating rows
are locked (``FOR UPDATE``) while read and written; SQLite serves one process, and a lock here
keeps its threads apart.

A rating reads ``mu ± 2·sigma`` ("27.4 ± 6.2"); it is **provisional** while ``sigma`` is above
:data:`PROVISIONAL_SIGMA` (a new account starts at 25 ± 8.33 and gets there after about six to
ten games). The leaderboard orders by the conservative ``mu - 3·sigma``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..research.ladder import anchors as ladder_anchors
from .account_store import account_seats, accounts
from .store import Store, metadata, rooms

#: The formats, and what each means (the page's words are in ``static/js/ratings.js``).
FORMATS = ("2p", "3p", "2t", "3t")
#: A rating is provisional while its sigma is above this (new: 25/3 ≈ 8.33).
PROVISIONAL_SIGMA = 5.0
#: OpenSkill's defaults: a new player's rating.
MU0, SIGMA0 = 25.0, 25.0 / 3
#: The ladder's rungs that are levels people are offered, by level name.
LADDER_LEVELS = {"easy": "random", "medium": "greedy", "hard": "hard", "expert": "expert@100"}

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("format", sa.String(8), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game", sa.Integer, primary_key=True),
    sa.Column("format", sa.String(8), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("format", sa.String(8), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("result", sa.String(8), nullable=False),
    sa.Column("abandoned", sa.Boolean, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
player_settings = sa.Table(
    "player_settings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("hide_history", sa.Boolean, nullable=False),
)


def game_format(players: int, sides: int) -> str | None:
    """The rating format of a table, or ``None`` (no rated play at it)."""
    if players == sides and players in (2, 3):
        return f"{players}p"
    if sides in (2, 3) and players >= 2 * sides and players % sides == 0:
        return f"{sides}t"
    return None


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def shown(mu: float, sigma: float, games: int = 0) -> dict[str, Any]:
    """A rating as the API gives it: ``text`` "27.4 ± 6.2", provisional or not."""
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "text": f"{mu:.1f} ± {2 * sigma:.1f}",
        "provisional": provisional(sigma),
        "games": games,
    }


def bot_anchors() -> dict[str, dict[str, float]]:
    """Fixed ratings of the bot levels by format (``2p``, ``2t``): the benchmark ladder's anchors
    (:func:`sequence_game.research.ladder.anchors`, OpenSkill's scale, ``random`` at 25)."""
    data = ladder_anchors()
    if not data:
        return {}
    found: dict[str, dict[str, float]] = {}
    for fmt, key in (("2p", "2p"), ("2t", "4p-teams")):
        rungs = data.get(key, {})
        found[fmt] = {lvl: float(rungs[r]["mu"]) for lvl, r in LADDER_LEVELS.items() if r in rungs}
    return found


def plays_like(fmt: str, mu: float, anchors: dict[str, dict[str, float]]) -> str | None:
    """The strongest bot level whose fixed rating ``mu`` reaches ("you play like hard")."""
    levels = anchors.get(fmt)
    if not levels:
        return None
    best = None
    for level, anchor in sorted(levels.items(), key=lambda kv: kv[1]):
        if mu >= anchor:
            best = level
    return best


@dataclass(frozen=True)
class GameOver:
    """What rating needs of a finished game (taken from the room on the loop, rated off it)."""

    code: str
    game: int
    players: int
    sides: int
    rated: bool
    winner: int | None
    seats: tuple[tuple[int, str, bool], ...]
    """``(index, kind, stand_in)`` of every seat as the game ended."""


def ranks_of(sides: int, winner: int | None, abandoned: set[int]) -> list[int]:
    """Each side's rank (0 best): the winner first, others tied, a side that left last."""
    ranks = []
    for side in range(sides):
        if side in abandoned:
            ranks.append(2)
        elif winner is None or winner in abandoned or side == winner:
            ranks.append(0)
        else:
            ranks.append(1)
    return ranks


class Ratings:
    """The rating tables' statements; every method blocks (run it off the loop)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.postgres = store.engine.dialect.name == "postgresql"
        self._lock = threading.Lock()
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def rate(self, over: GameOver) -> list[dict[str, Any]] | None:
        """Rate a finished game once; the history rows written, or ``None`` when it is casual or
        already rated."""
        fmt = game_format(over.players, over.sides)
        if not over.rated or fmt is None or any(kind != "human" for _i, kind, _s in over.seats):
            return None
        with self._lock, self.engine.begin() as conn:
            room_id = conn.execute(sa.select(rooms.c.id).where(rooms.c.code == over.code)).scalar()
            if room_id is None:
                return None
            held = dict(
                conn.execute(
                    sa.select(account_seats.c.seat, account_seats.c.account_id).where(
                        account_seats.c.room_id == room_id
                    )
                ).all()
            )
            who = [held.get(i) for i, _k, _s in over.seats]
            if any(a is None for a in who) or len(set(who)) != len(who):
                return None  # a guest, or one account in two seats: casual
            try:
                with conn.begin_nested():
                    conn.execute(
                        rated_games.insert().values(
                            room_id=room_id, game=over.game, format=fmt, at=time.time()
                        )
                    )
            except sa.exc.IntegrityError:
                return None  # rated already (another worker, or before a restart)
            return self._apply(conn, room_id, over, fmt, [int(a) for a in who if a is not None])

    def _apply(
        self, conn: sa.Connection, room_id: int, over: GameOver, fmt: str, who: list[int]
    ) -> list[dict[str, Any]]:
        query = sa.select(ratings).where(ratings.c.account_id.in_(who), ratings.c.format == fmt)
        if self.postgres:
            query = query.with_for_update()
        rows = {r.account_id: r for r in conn.execute(query)}
        before = {a: (rows[a].mu, rows[a].sigma) if a in rows else (MU0, SIGMA0) for a in who}
        abandoned = {i % over.sides for i, _k, stand_in in over.seats if stand_in}
        teams = [[i for i, _k, _s in over.seats if i % over.sides == side] for side in range(over.sides)]
        ranks = ranks_of(over.sides, over.winner, abandoned)
        model_teams = [
            [self.model.rating(mu=before[who[i]][0], sigma=before[who[i]][1]) for i in team] for team in teams
        ]
        new = self.model.rate(model_teams, ranks=[float(r) for r in ranks])
        now = time.time()
        written = []
        for side, team in enumerate(teams):
            result = (
                "win"
                if ranks[side] == 0 and len(set(ranks)) > 1
                else "draw"
                if len(set(ranks)) == 1
                else "loss"
            )
            for i, after in zip(team, new[side], strict=True):
                account = who[i]
                mu0, sigma0 = before[account]
                row = {
                    "room_id": room_id,
                    "game": over.game,
                    "account_id": account,
                    "format": fmt,
                    "seat": i,
                    "result": result,
                    "abandoned": side in abandoned,
                    "mu_before": mu0,
                    "sigma_before": sigma0,
                    "mu_after": float(after.mu),
                    "sigma_after": float(after.sigma),
                    "at": now,
                }
                conn.execute(rating_history.insert().values(**row))
                values = {"mu": float(after.mu), "sigma": float(after.sigma), "updated_at": now}
                if account in rows:
                    conn.execute(
                        ratings.update()
                        .where(ratings.c.account_id == account, ratings.c.format == fmt)
                        .values(games=ratings.c.games + 1, **values)
                    )
                else:
                    conn.execute(ratings.insert().values(account_id=account, format=fmt, games=1, **values))
                written.append(row)
        return written

    # ---------------------------------------------------------------- reading

    def of_account(self, account_id: int) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(ratings).where(ratings.c.account_id == account_id)).all()
        return {r.format: shown(r.mu, r.sigma, r.games) for r in rows}

    def mu(self, account_id: int, fmt: str) -> float:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(ratings.c.mu).where(ratings.c.account_id == account_id, ratings.c.format == fmt)
            ).scalar()
        return MU0 if found is None else float(found)

    def leaderboard(self, fmt: str, limit: int = 50) -> list[dict[str, Any]]:
        """The format's best, by the conservative ``mu - 3 sigma``."""
        query = (
            sa.select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(ratings.c.format == fmt)
            .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), accounts.c.name)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                {"rank": n + 1, "name": r.name, **shown(r.mu, r.sigma, r.games)}
                for n, r in enumerate(conn.execute(query))
            ]

    def hidden(self, account_id: int) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(player_settings.c.hide_history).where(player_settings.c.account_id == account_id)
            ).scalar()
        return bool(found)

    def set_hidden(self, account_id: int, hide: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(player_settings.delete().where(player_settings.c.account_id == account_id))
            conn.execute(player_settings.insert().values(account_id=account_id, hide_history=hide))

    def history(self, account_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The account's rated games, newest first: room, game, format, result, rating change and
        the opponents' names (every other seat of the room)."""
        h = rating_history
        query = (
            sa.select(h, rooms.c.code)
            .join(rooms, rooms.c.id == h.c.room_id)
            .where(h.c.account_id == account_id)
            .order_by(h.c.at.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            others: dict[tuple[int, int], list[str]] = {}
            if rows:
                o = rating_history.alias("o")
                names = conn.execute(
                    sa.select(o.c.room_id, o.c.game, accounts.c.name)
                    .join(accounts, accounts.c.id == o.c.account_id)
                    .where(o.c.room_id.in_({r.room_id for r in rows}), o.c.account_id != account_id)
                    .order_by(o.c.seat)
                )
                for r in names:
                    others.setdefault((r.room_id, r.game), []).append(r.name)
        return [
            {
                "code": r.code,
                "game": r.game,
                "format": r.format,
                "result": r.result,
                "abandoned": bool(r.abandoned),
                "others": others.get((r.room_id, r.game), []),
                "before": shown(r.mu_before, r.sigma_before),
                "after": shown(r.mu_after, r.sigma_after),
                "change": round(r.mu_after - r.mu_before, 2),
                "at": round(r.at),
            }
            for r in rows
        ]
