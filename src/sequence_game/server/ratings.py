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
again after a restart, changes nothing the second time. A worker killed between a game's last
move and its rating leaves it unrated until a sweep (:meth:`Ratings.sweep`, at each worker's
start and every :data:`SWEEP_SECONDS`) finds it: the room's stored events are folded again, each
game taken as it stood at the event that ended it, and rated through the same once-only path.
On PostgreSQL the players' rating rows
are locked (``FOR UPDATE``) while read and written; SQLite serves one process, and a lock here
keeps its threads apart.

A rating reads ``mu ± 2·sigma`` ("27.4 ± 6.2"); it is **provisional** while ``sigma`` is above
:data:`PROVISIONAL_SIGMA` (a new account starts at 25 ± 8.33 and gets there after about six to
ten games). The leaderboard orders by the conservative ``mu - 3·sigma``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..research.ladder import anchors as ladder_anchors
from ..research.ladder import league_anchors
from .account_store import account_seats, accounts
from .room_state import Room
from .rooms import fold
from .seats import Seat
from .store import RoomRow, Store, events, metadata, rooms

log = logging.getLogger(__name__)

#: The formats, and what each means (the page's words are in ``static/js/ratings.js``).
FORMATS = ("2p", "3p", "2t", "3t")
#: A rating is provisional while its sigma is above this (new: 25/3 ≈ 8.33).
PROVISIONAL_SIGMA = 5.0
#: OpenSkill's defaults: a new player's rating.
MU0, SIGMA0 = 25.0, 25.0 / 3
#: Seconds between two sweeps for finished games of rated rooms left unrated (a worker died).
SWEEP_SECONDS = 60.0
#: A sweep looks at the rooms created this many seconds ago or since.
SWEEP_DAYS_S = 7 * 86400.0
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
    """Fixed ratings of the bot levels by format, OpenSkill's scale with ``random`` at 25: ``2p``
    and ``2t`` from the benchmark ladder's anchors (:func:`sequence_game.research.ladder.anchors`),
    ``3p`` and ``3t`` from the 3-sided league (:func:`~sequence_game.research.ladder.league_anchors`,
    which has no ``expert``). A format or level not measured is absent."""
    found: dict[str, dict[str, float]] = {}
    for data, formats in (
        (ladder_anchors(), (("2p", "2p"), ("2t", "4p-teams"))),
        (league_anchors(), (("3p", "3p"), ("3t", "3-teams"))),
    ):
        for fmt, key in formats:
            rungs = data.get(key, {})
            if rungs:
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


def game_over_of(room: Room) -> GameOver | None:
    """What rating needs of the game that has just ended in ``room`` (its last line of the match);
    ``None`` when the room is not rated. Taken on the loop by the worker that ended the game, and
    by a sweep at the same point of the room's folded events."""
    if not room.config.get("rated") or not room.match:
        return None
    return GameOver(
        code=room.code,
        game=len(room.match) - 1,
        players=len(room.seats),
        sides=room.sides,
        rated=True,
        winner=room.match[-1]["winner"],
        seats=tuple((s.index, s.kind, s.stand_in) for s in room.seats),
    )


def games_over(row: RoomRow) -> list[GameOver]:
    """Every game that ended in a stored room of a rated table, each as the worker that committed
    its end saw it: the events folded one by one (as :func:`.rooms.rebuild` does) and the game
    taken at the event that ended it, so who had left for good (``away``, a ``flag`` to a bot)
    is read from the events as they stood then."""
    room = Room(row.code, dict(row.config), row.host_seat, [Seat(i) for i in range(row.config["players"])])
    found = []
    for ev in row.events:
        was = room.status
        fold(room, ev)
        if was != "over" and room.status == "over" and (over := game_over_of(room)) is not None:
            found.append(over)
    return found


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
        self.store = store
        self.engine = store.engine
        self._swept: dict[str, int] = {}
        """Rooms a sweep folded and found nothing to rate in, by code: the version it read."""
        self.postgres = store.engine.dialect.name == "postgresql"
        self._lock = threading.Lock()
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def rate(self, over: GameOver, joined_only: bool = False) -> list[dict[str, Any]] | None:
        """Rate a finished game once; the history rows written, or ``None`` when it is casual or
        already rated. ``joined_only`` (a sweep, after the game): a seat counts as an account's
        only if the account sat down in it, not if it claimed a guest's seat afterwards."""
        fmt = game_format(over.players, over.sides)
        if not over.rated or fmt is None or any(kind != "human" for _i, kind, _s in over.seats):
            return None
        with self._lock, self.engine.begin() as conn:
            room_id = conn.execute(sa.select(rooms.c.id).where(rooms.c.code == over.code)).scalar()
            if room_id is None:
                return None
            links = sa.select(account_seats.c.seat, account_seats.c.account_id).where(
                account_seats.c.room_id == room_id
            )
            if joined_only:
                links = links.where(account_seats.c.claimed.is_(False))
            held = dict(conn.execute(links).all())
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

    # ---------------------------------------------------------------- the sweep

    def unrated_rooms(self, since: float) -> list[tuple[str, int]]:
        """``(code, version)`` of the rated rooms created after ``since``, with an account's seat,
        that have more finished games than rated ones (the count of ``start`` events, less the
        game going on), but for those a sweep already folded at that version."""
        starts = (
            sa.select(sa.func.count())
            .where(events.c.room_id == rooms.c.id, events.c.kind == "start")
            .scalar_subquery()
        )
        done = sa.select(sa.func.count()).where(rated_games.c.room_id == rooms.c.id).scalar_subquery()
        query = sa.select(
            rooms.c.code,
            rooms.c.version,
            rooms.c.config,
            rooms.c.status,
            starts.label("starts"),
            done.label("done"),
        ).where(
            rooms.c.created_at > since,
            rooms.c.status.in_(("playing", "over")),
            sa.exists().where(account_seats.c.room_id == rooms.c.id),
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        behind = {
            r.code: int(r.version)
            for r in rows
            if (r.config or {}).get("rated") and r.starts - (1 if r.status == "playing" else 0) > r.done
        }
        self._swept = {c: v for c, v in self._swept.items() if c in behind}
        return [(code, version) for code, version in behind.items() if self._swept.get(code) != version]

    def sweep(self, since: float | None = None, void: Callable[[GameOver], bool] | None = None) -> int:
        """Rate every finished game of a rated room that has no rating yet (a worker was killed
        between the game's last move and its rating); returns the games rated. Idempotent: each
        game goes through :meth:`rate`, whose ``rated_games`` key admits it once. ``void``: the
        check the worker makes before rating a game (a banned player's game is decided unrated),
        made here too; true, and the game is not rated."""
        since = time.time() - SWEEP_DAYS_S if since is None else since
        rated = 0
        for code, version in self.unrated_rooms(since):
            try:
                row = self.store.load_room(code)
                if row is None:
                    continue
                done = [
                    self.rate(over, joined_only=True)
                    for over in games_over(row)
                    if void is None or not void(over)
                ]
            except sa.exc.OperationalError:
                raise  # the database is away: the next sweep tries again
            except Exception:
                log.exception("sweep: room %s could not be read again to rate its games", code)
                done = []
            rated += sum(1 for d in done if d is not None)
            self._swept[code] = version  # casual games in a rated room: not folded again unchanged
        return rated

    # ---------------------------------------------------------------- reading

    def page(self, account_id: int, own: bool) -> dict[str, Any]:
        """A player's page: whether the games are hidden, the ratings and (unless hidden from
        others) the rated games, all read from one state of the database: a game and the
        ratings it brought are committed together, and two separate reads could show one
        without the other."""
        with self.store.snapshot() as conn:
            hidden = self._hidden(conn, account_id)
            games = [] if hidden and not own else self._history(conn, account_id)
            return {"hidden": hidden, "ratings": self._of_account(conn, account_id), "games": games}

    def of_account(self, account_id: int) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as conn:
            return self._of_account(conn, account_id)

    @staticmethod
    def _of_account(conn: sa.Connection, account_id: int) -> dict[str, dict[str, Any]]:
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

    @staticmethod
    def _hidden(conn: sa.Connection, account_id: int) -> bool:
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
        with self.engine.connect() as conn:
            return self._history(conn, account_id, limit)

    @staticmethod
    def _history(conn: sa.Connection, account_id: int, limit: int = 100) -> list[dict[str, Any]]:
        h = rating_history
        query = (
            sa.select(h, rooms.c.code)
            .join(rooms, rooms.c.id == h.c.room_id)
            .where(h.c.account_id == account_id)
            .order_by(h.c.at.desc())
            .limit(limit)
        )
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
