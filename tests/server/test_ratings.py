"""Ratings (issue 43, part 2): OpenSkill per format, rated once, leaving for good loses, the
migration of an existing database; and a rated game played to the end on a real server.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

pytest.importorskip("openskill")
from openskill.models import PlackettLuce

from sequence_game.server import store as store_module
from sequence_game.server.account_store import AccountStore
from sequence_game.server.moderation import Moderation
from sequence_game.server.names import check_name, name_key
from sequence_game.server.ratings import (
    MU0,
    SIGMA0,
    GameOver,
    Ratings,
    game_format,
    plays_like,
    ranks_of,
    shown,
)
from sequence_game.server.store import Store

from .conftest import Server, advance
from .test_accounts import Visitor
from .test_postgres import postgres_url  # noqa: F401 - the fixture

_CODES = (f"R{n:05d}" for n in itertools.count(1))
_NAMES = itertools.count(1)


def name(stem: str) -> str:
    return stem + "".join("abcdefghjk"[int(d)] for d in str(next(_NAMES)))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'r.db'}")
    s.migrate()
    yield s
    s.close()


def table(store: Store, *accounts: int, players: int | None = None, sides: int | None = None) -> str:
    """A room whose seats are held by ``accounts`` in order."""
    code = next(_CODES)
    players = players or len(accounts)
    store.create_room(code, {"players": players, "teams": sides, "rated": True}, 0)
    db = AccountStore(store)
    for seat, account in enumerate(accounts):
        assert db.link_seat(code, seat, account, False)
    return code


def accounts(store: Store, n: int) -> list[int]:
    db = AccountStore(store)
    made = [db.create(s := name("P"), s.lower(), "x", name("h")) for _ in range(n)]
    return [a.id for a in made if a is not None]


def over(
    code: str, players: int, sides: int, winner: int | None, stand_in: frozenset[int] = frozenset()
) -> GameOver:
    seats = tuple((i, "human", i in stand_in) for i in range(players))
    return GameOver(code, 0, players, sides, True, winner, seats)


def test_formats_ranks_and_how_a_rating_reads() -> None:
    assert [game_format(p, s) for p, s in ((2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (12, 3), (8, 2))] == [
        "2p",
        "3p",
        "2t",
        "2t",
        "3t",
        "3t",
        "2t",
    ]
    assert ranks_of(2, 0, set()) == [0, 1]
    assert ranks_of(3, None, set()) == [0, 0, 0]
    assert ranks_of(2, 0, {0}) == [2, 0]  # the winner's side left for good: it loses
    assert ranks_of(3, 1, {2}) == [1, 0, 2]
    new = shown(MU0, SIGMA0)
    assert new["provisional"] and new["text"] == "25.0 ± 16.7"
    assert not shown(30.0, 3.0)["provisional"]
    anchors = {"2p": {"easy": 25.0, "medium": 45.5, "hard": 49.4}}
    assert plays_like("2p", 47.0, anchors) == "medium"
    assert plays_like("2p", 10.0, anchors) is None
    assert plays_like("3p", 47.0, anchors) is None


def test_a_two_player_game_is_rated_once_as_openskill_computes(store: Store) -> None:
    a, b = accounts(store, 2)
    code = table(store, a, b)
    ratings = Ratings(store)
    written = ratings.rate(over(code, 2, 2, winner=1))
    assert written is not None and {r["result"] for r in written} == {"win", "loss"}
    model = PlackettLuce()
    [[ra], [rb]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 0.0])
    mine = ratings.of_account(a)["2p"]
    assert mine["mu"] == round(ra.mu, 2) and mine["sigma"] == round(ra.sigma, 2)
    assert ratings.of_account(b)["2p"]["mu"] == round(rb.mu, 2)
    # the same game again (another worker, a restart): nothing changes
    assert ratings.rate(over(code, 2, 2, winner=1)) is None
    assert ratings.rate(over(code, 2, 2, winner=0)) is None
    assert ratings.of_account(a)["2p"] == mine
    assert ratings.of_account(a)["2p"]["games"] == 1
    assert [g["change"] for g in ratings.history(a)] == [round(ra.mu - MU0, 2)]
    board = ratings.leaderboard("2p")
    assert [r["mu"] for r in board] == [round(rb.mu, 2), round(ra.mu, 2)]


def test_leaving_for_good_counts_as_a_loss(store: Store) -> None:
    """Seat 0's side won on the board, but seat 0 was played by the stand-in bot at the end."""
    a, b = accounts(store, 2)
    code = table(store, a, b)
    ratings = Ratings(store)
    ratings.rate(over(code, 2, 2, winner=0, stand_in=frozenset({0})))
    assert ratings.of_account(a)["2p"]["mu"] < MU0 < ratings.of_account(b)["2p"]["mu"]
    [left] = ratings.history(a)
    assert left["result"] == "loss" and left["abandoned"]


def test_teams_ratings_and_casual_games(store: Store) -> None:
    people = accounts(store, 5)
    code = table(store, *people[:4], sides=2)
    ratings = Ratings(store)
    assert ratings.rate(over(code, 4, 2, winner=0)) is not None
    model = PlackettLuce()
    new = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[0.0, 1.0])
    for seat, account in enumerate(people[:4]):  # seat i plays for side i % 2
        assert ratings.of_account(account)["2t"]["mu"] == round(new[seat % 2][seat // 2].mu, 2)
    # a guest seat (no account), a bot, an unrated room: casual
    guest = table(store, people[4])
    store.create_room(g := next(_CODES), {"players": 2, "rated": True}, 0)
    AccountStore(store).link_seat(g, 0, people[4], False)
    assert ratings.rate(over(g, 2, 2, winner=0)) is None
    bot = GameOver(guest, 0, 2, 2, True, 0, ((0, "human", False), (1, "bot", False)))
    assert ratings.rate(bot) is None
    assert ratings.rate(GameOver(guest, 0, 2, 2, False, 0, over(guest, 2, 2, 0).seats)) is None
    assert "2p" not in ratings.of_account(people[4])


@pytest.mark.parametrize("dialect", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_a_players_page_reads_one_state_of_the_database(
    dialect: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A game finishing while a player's page is read shows on it with its rating or not at
    all: the page's reads share one snapshot, which another connection's commit does not move."""
    url = f"sqlite:///{tmp_path / 'p.db'}" if dialect == "sqlite" else request.getfixturevalue("postgres_url")
    store = Store(url)
    try:
        store.migrate()
        a, b = accounts(store, 2)
        code = table(store, a, b)
        ratings = Ratings(store)
        with store.snapshot() as conn:
            assert Ratings._history(conn, a) == [] and Ratings._of_account(conn, a) == {}
            assert ratings.rate(over(code, 2, 2, winner=0)) is not None  # committed meanwhile
            assert Ratings._history(conn, a) == [] and Ratings._of_account(conn, a) == {}
        page = ratings.page(a, own=False)
        assert [g["result"] for g in page["games"]] == ["win"] and page["ratings"]["2p"]["games"] == 1
        assert not page["hidden"]
        ratings.set_hidden(a, True)
        assert ratings.page(a, own=False)["games"] == [] and len(ratings.page(a, own=True)["games"]) == 1
    finally:
        store.close()


def _events_of(url: str) -> list[tuple[Any, ...]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return [
                tuple(r)
                for r in conn.exec_driver_sql("SELECT room_id, n, kind FROM events ORDER BY room_id, n")
            ]
    finally:
        engine.dispose()


@pytest.mark.parametrize("dialect", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_an_existing_v0004_database_upgrades_with_its_games(
    dialect: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A server's database of before (accounts, no ratings) with a game in play: upgraded in
    place on the next start, the game and its events still there, the new tables empty."""
    from alembic import command
    from alembic.config import Config

    if dialect == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        where = str(tmp_path / "old.db")
    else:
        url = where = request.getfixturevalue("postgres_url")
    old = Server(where, log=tmp_path / "old.log").start()
    try:
        code = old.create_room(players=2, against="easy", grace_seconds=3600)["code"]
        end = time.monotonic() + 300
        while old.get(f"/api/rooms/{code}").json()["status"] != "playing" and time.monotonic() < end:
            time.sleep(0.2)
    finally:
        old.stop()
    store = Store(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_module.__file__).with_name("migrations")))
    with store.engine.begin() as conn:  # back to the schema before this change, as a server of then left it
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    assert "ratings" not in sa.inspect(store.engine).get_table_names()
    store.close()
    before = _events_of(url)
    assert before
    again = Server(where, log=tmp_path / "new.log").start()
    try:
        assert again.get(f"/api/rooms/{code}").json()["status"] == "playing"
        assert again.get("/api/leaderboard?format=2p").json()["players"] == []
    finally:
        again.stop()
    assert _events_of(url)[: len(before)] == before
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == "0006"
    engine.dispose()


# ------------------------------------------------------------------------------ on a real server

LIMITS = ["--trusted-proxy", "127.0.0.1", "--limit", "registrations_burst=50"]


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("ratings")
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log", extra=LIMITS).start()
    yield srv
    srv.stop()


def test_a_rated_room_played_to_the_end_rates_both(rated_server: Server) -> None:
    ann, bob = Visitor(rated_server), Visitor(rated_server)
    an, bn = name("Ann"), name("Bob")
    assert ann.register(an).status_code == 201 and bob.register(bn).status_code == 201
    r = ann.post("/api/rooms", {"players": 2, "rated": True, "name": "x"})
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["room"]["config"]["rated"] is True
    code = room["code"]
    joined = bob.post(f"/api/rooms/{code}/seats/1", {"name": "y"})
    assert joined.status_code == 201, joined.text
    host = rated_server.client(code, room["token"])
    guest = rated_server.client(code, joined.json()["token"])
    host.send({"type": "start"})
    for c in (host, guest):
        c.recv_until(lambda m: m.get("type") == "state" and m.get("view") is not None)
    clients = {0: host, 1: guest}
    while advance(clients):
        pass
    winner = host.last["view"]["winner"] if host.last else None
    host.close()
    guest.close()
    model = PlackettLuce()
    ranks = [0.0, 0.0] if winner is None else [0.0 if s == winner else 1.0 for s in range(2)]
    new = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        page = ann.request("GET", f"/api/players/{an}").json()
        if page["ratings"]:
            break
        time.sleep(0.2)
    assert page["ratings"]["2p"]["mu"] == round(new[0][0].mu, 2)
    assert bob.request("GET", f"/api/players/{bn}").json()["ratings"]["2p"]["mu"] == round(new[1][0].mu, 2)
    [game] = page["games"]
    assert game["code"] == code and game["others"] == [bn]
    # hidden history: others see the ratings, not the games; the player still sees them
    assert ann.post("/api/account/history", {"hide": True}).status_code == 200
    assert bob.request("GET", f"/api/players/{an}").json()["games"] == []
    assert len(ann.request("GET", f"/api/players/{an}").json()["games"]) == 1


def test_leaving_a_rated_game_for_good_loses_it_on_a_server(rated_server: Server) -> None:
    """Bob leaves at the start and never comes back: the stand-in bot plays his seat to the end
    and, whatever the board says, Bob lost and Ann won."""
    ann, bob = Visitor(rated_server), Visitor(rated_server)
    an, bn = name("Ann"), name("Bob")
    assert ann.register(an).status_code == 201 and bob.register(bn).status_code == 201
    room = ann.post("/api/rooms", {"players": 2, "rated": True, "grace_seconds": 0.5}).json()
    code = room["code"]
    bob.post(f"/api/rooms/{code}/seats/1", {"name": "y"})
    host = rated_server.client(code, room["token"])
    host.send({"type": "start"})
    host.recv_until(lambda m: m.get("type") == "state" and m.get("view") is not None)
    clients = {0: host}
    while advance(clients):  # Bob's seat: the stand-in, once his grace is over
        pass
    host.close()
    model = PlackettLuce()
    new = model.rate([[model.rating()], [model.rating()]], ranks=[0.0, 2.0])
    end = time.monotonic() + 120
    while not (page := bob.request("GET", f"/api/players/{bn}").json())["games"] and time.monotonic() < end:
        time.sleep(0.2)
    [game] = page["games"]
    assert game["result"] == "loss" and game["abandoned"]
    assert page["ratings"]["2p"]["mu"] == round(new[1][0].mu, 2)
    assert ann.request("GET", f"/api/players/{an}").json()["ratings"]["2p"]["mu"] == round(new[0][0].mu, 2)


def test_a_players_page_of_nobody_is_a_404(rated_server: Server) -> None:
    for who in ("Nobody", "%00", "%F0%9F%98%80", "a" * 100, "%ED%A0%80"):
        r = rated_server.get(f"/api/players/{who}")
        assert r.status_code == 404 and r.json()["code"] == "no_player", (who, r.text)
    assert rated_server.get("/api/leaderboard?format=9z").status_code == 400
    guest = rated_server.create_room(players=2, rated=True)  # a guest's room is never rated
    assert "rated" not in guest["room"]["config"]


def account_id(store: Store, shown_name: str) -> int:
    found = AccountStore(store).by_key(name_key(check_name(shown_name)))
    assert found is not None
    return found.id


def test_a_game_left_unrated_by_a_killed_worker_is_rated_by_the_sweep(tmp_path: Path) -> None:
    """A worker killed between a game's last move and its rating (simulated: the rating's rows
    deleted once the worker is dead) leaves the game unrated; the next worker's sweep at its start
    rates it as the worker would have, reading from the stored events that Bob left for good (his
    seat played by the stand-in at the end: a loss, whatever the board says), and leaves alone
    the casual game of the same host with a guest who claimed the seat afterwards. A second sweep
    changes nothing."""
    db = str(tmp_path / "sequence.db")
    first = Server(db, log=tmp_path / "first.log", extra=LIMITS).start()
    try:
        ann, bob, cat = Visitor(first), Visitor(first), Visitor(first)
        an, bn, cn = name("Ann"), name("Bob"), name("Cat")
        assert ann.register(an).status_code == 201 and bob.register(bn).status_code == 201
        room = ann.post("/api/rooms", {"players": 2, "rated": True, "grace_seconds": 0.5}).json()
        code = room["code"]
        assert bob.post(f"/api/rooms/{code}/seats/1", {"name": "y"}).status_code == 201
        host = first.client(code, room["token"])
        host.send({"type": "start"})
        host.recv_until(lambda m: m.get("type") == "state" and m.get("view") is not None)
        while advance({0: host}):  # Bob never comes: the stand-in plays his seat
            pass
        host.close()
        # the same host with a guest, who registers and claims the seat once the game is over
        casual = ann.post("/api/rooms", {"players": 2, "rated": True}).json()
        guest_token = cat.post(f"/api/rooms/{casual['code']}/seats/1", {"name": "z"}).json()["token"]
        clients = {
            0: first.client(casual["code"], casual["token"]),
            1: first.client(casual["code"], guest_token),
        }
        clients[0].send({"type": "start"})
        for c in clients.values():
            c.recv_until(lambda m: m.get("type") == "state" and m.get("view") is not None)
        while advance(clients):
            pass
        for c in clients.values():
            c.close()
        assert cat.register(cn).status_code == 201
        claim = cat.post("/api/account/claim", {"code": casual["code"], "token": guest_token})
        assert claim.status_code == 200, claim.text
        end = time.monotonic() + 120
        while not ann.request("GET", f"/api/players/{an}").json()["ratings"] and time.monotonic() < end:
            time.sleep(0.2)
    finally:
        first.kill()
    store = Store(f"sqlite:///{db}")
    try:
        ratings = Ratings(store)
        a_id, b_id, c_id = (account_id(store, n) for n in (an, bn, cn))
        rated_before = ratings.of_account(a_id), ratings.of_account(b_id)
        assert rated_before[0]["2p"]["games"] == 1 and ratings.of_account(c_id) == {}
        with store.engine.begin() as conn:  # as if the worker had died before the rating's commit
            for t in ("rated_games", "rating_history"):
                conn.exec_driver_sql(f"DELETE FROM {t}")
            conn.exec_driver_sql("DELETE FROM ratings")
        assert ratings.of_account(a_id) == {} and ratings.history(b_id) == []
    finally:
        store.close()
    second = Server(db, log=tmp_path / "second.log", extra=LIMITS).start()  # its sweep at start
    try:
        ann.http.base_url = bob.http.base_url = second.http
        end = time.monotonic() + 120
        while (
            not (page := bob.request("GET", f"/api/players/{bn}").json())["games"] and time.monotonic() < end
        ):
            time.sleep(0.2)
        [game] = page["games"]
        assert game["code"] == code and game["result"] == "loss" and game["abandoned"]
        model = PlackettLuce()
        new = model.rate([[model.rating()], [model.rating()]], ranks=[0.0, 2.0])
        assert page["ratings"]["2p"]["mu"] == round(new[1][0].mu, 2)
        mine = ann.request("GET", f"/api/players/{an}").json()
        assert mine["ratings"]["2p"]["mu"] == round(new[0][0].mu, 2)
        assert mine["ratings"]["2p"]["games"] == 1  # the game with the guest stays casual
        assert [g["code"] for g in mine["games"]] == [code]
    finally:
        second.kill()
    store = Store(f"sqlite:///{db}")
    try:
        ratings = Ratings(store)
        after = ratings.of_account(a_id), ratings.of_account(b_id)
        assert after == rated_before  # the same numbers as the worker's own rating
        assert ratings.sweep() == 0 and ratings.sweep(since=0.0) == 0  # twice: nothing changes
        assert (ratings.of_account(a_id), ratings.of_account(b_id)) == after
        assert len(ratings.history(a_id)) == len(ratings.history(b_id)) == 1
        # the ban path: the same game left unrated again, and Bob banned meanwhile (as play_routes
        # sweeps: moderation's void_if_banned first) is decided unrated, for good
        with store.engine.begin() as conn:
            for t in ("rated_games", "rating_history", "ratings"):
                conn.exec_driver_sql(f"DELETE FROM {t}")
        moderation = Moderation(store)
        moderation.ban(bn, "abuse", actor="test")

        def void(over: GameOver) -> bool:
            return moderation.void_if_banned(over.code, over.game, over.players, over.sides)

        assert ratings.sweep(since=0.0, void=void) == 0
        assert ratings.of_account(a_id) == {} and ratings.of_account(b_id) == {}
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM rated_games").scalar() == 1
        moderation.unban(bn, actor="test")
        assert ratings.sweep(since=0.0, void=void) == 0 and ratings.of_account(b_id) == {}
    finally:
        store.close()
