"""Moderation (issue 43, part 5): a player reports another from their room, every bad report is
refused, ``sequence admin`` lists reports, bans, unbans, renames and dismisses, and a ban holds
on a real server (no rated queue, room or seat, no chat line over the websocket, a game it is
banned in is not rated); the migration of an existing database.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from sequence_game.cli import main
from sequence_game.i18n import translation
from sequence_game.server import store as store_module
from sequence_game.server.account_store import AccountStore
from sequence_game.server.moderation import REPORTS_PER_HOUR, Moderation
from sequence_game.server.protocol import ProtocolError
from sequence_game.server.ratings import GameOver, Ratings
from sequence_game.server.store import Store, database_url

from .conftest import Client, Server, advance
from .test_accounts import Visitor, unique
from .test_postgres import postgres_url  # noqa: F401 - the fixture

LIMITS = ["--trusted-proxy", "127.0.0.1", "--limit", "registrations_burst=60", "--limit", "rooms_burst=60"]
_CODES = (f"M{n:05d}" for n in itertools.count(1))


@pytest.fixture(scope="module")
def mod_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("moderation")
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log", extra=LIMITS).start()
    yield srv
    srv.stop()


def admin(server: Server, *args: str) -> tuple[int, str, str]:
    """``sequence admin`` on the server's database, as its operator runs it: (status, out, err)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["admin", "--db", server.db, "--by", "mod", *args])
    return status, out.getvalue(), err.getvalue()


def admin_json(server: Server, *args: str) -> Any:
    status, out, err = admin(server, *args, "--json")
    assert status == 0, err
    return json.loads(out)


def player(server: Server) -> tuple[Visitor, str]:
    who, name = Visitor(server), unique("Pl")
    assert who.register(name).status_code == 201
    return who, name


def two_at_a_table(server: Server, **room: Any) -> tuple[Visitor, str, Visitor, str, str, dict[str, Any]]:
    """Ann hosts a table of two, Bob sits at seat 1: both logged in."""
    ann, an = player(server)
    bob, bn = player(server)
    made = ann.post("/api/rooms", {"players": 2, **room})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    joined = bob.post(f"/api/rooms/{code}/seats/1", {"name": "x"})
    assert joined.status_code == 201, joined.text
    tokens = {0: made.json()["token"], 1: joined.json()["token"]}
    return ann, an, bob, bn, code, tokens


def report(who: Visitor, code: str, seat: int, reason: str = "chat", text: str = "", **kw: Any) -> Any:
    return who.post("/api/reports", {"code": code, "seat": seat, "reason": reason, "text": text}, **kw)


# ------------------------------------------------------------------------------------ reports


def test_a_player_reports_another_of_the_room_and_the_operator_reads_it(mod_server: Server) -> None:
    ann, an, bob, bn, code, _tokens = two_at_a_table(mod_server)
    assert ann.request("GET", f"/api/rooms/{code}/reports").json()["seats"] == [{"seat": 1, "name": bn}]
    assert bob.request("GET", f"/api/rooms/{code}/reports").json()["seats"] == [{"seat": 0, "name": an}]
    words = "'); DROP TABLE reports; -- <script>alert(1)</script> ünïcode"
    r = report(ann, code, 1, "chat", words)
    assert r.status_code == 201, r.text
    assert r.json()["name"] == bn
    [found] = [x for x in admin_json(mod_server, "reports") if x["id"] == r.json()["id"]]
    assert (found["reporter"], found["reported"], found["room"], found["game"]) == (an, bn, code, 0)
    assert found["text"] == words and found["reason"] == "chat" and found["state"] == "open"
    again = report(ann, code, 1, "cheating")
    assert again.status_code == 409 and again.json()["code"] == "already_reported"
    status, out, _err = admin(mod_server, "reports")
    assert status == 0 and f"#{found['id']}" in out and f"{an} reports {bn} in room {code}" in out

    status, out, _err = admin(mod_server, "dismiss", str(found["id"]), "--note", "nothing in the chat")
    assert status == 0 and "dismissed" in out
    assert all(x["id"] != found["id"] for x in admin_json(mod_server, "reports"))
    [closed] = [x for x in admin_json(mod_server, "reports", "--all") if x["id"] == found["id"]]
    assert (closed["state"], closed["resolved_by"], closed["note"]) == (
        "dismissed",
        "mod",
        "nothing in the chat",
    )
    logged = [e for e in admin_json(mod_server, "log") if e["report"] == found["id"]]
    assert [(e["action"], e["account"], e["actor"]) for e in logged] == [("dismiss", bn, "mod")]
    assert report(ann, code, 1, "other").status_code == 201  # none open: a new one may be filed
    status, _out, err = admin(mod_server, "dismiss", str(found["id"]))
    assert status == 1 and "already closed" in err and "Traceback" not in err
    status, _out, err = admin(mod_server, "dismiss", "999999")
    assert status == 1 and "no report 999999" in err


def test_every_bad_report_is_refused(mod_server: Server) -> None:
    ann, _an, bob, _bn, code, _tokens = two_at_a_table(mod_server)
    guest = Visitor(mod_server)
    r = report(guest, code, 1)
    assert r.status_code == 401 and r.json()["code"] == "guest" and "log in" in r.json()["message"]
    assert guest.request("GET", f"/api/rooms/{code}/reports").json() | {"reasons": 0} == {
        "can": False, "why": "guest", "seats": [], "reasons": 0, "max_text": 500
    }  # fmt: skip
    r = report(ann, code, 0)
    assert r.status_code == 400 and r.json()["code"] == "self"
    cid, _cn = player(mod_server)
    r = report(cid, code, 1)
    assert r.status_code == 403 and r.json()["code"] == "not_in_room"
    assert cid.request("GET", f"/api/rooms/{code}/reports").json()["why"] == "not_in_room"
    r = report(ann, code, 1, "spam")
    assert r.status_code == 400 and r.json()["code"] == "bad_reason"
    r = report(ann, code, 1, "chat", "x" * 501)
    assert r.status_code == 400 and r.json()["code"] == "too_long"
    assert r.json()["params"] == {"n": 500}
    es = translation("es").gettext(r.json()["msgid"])  # every refusal is a message the page words
    assert es != r.json()["msgid"] and "500" in es.format(**r.json()["params"])
    r = report(ann, code, 1, csrf=False)
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = report(ann, code, 1, Origin="https://evil.example")
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = report(ann, code, 1, **{"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = report(ann, "ZZZZZZZZ", 1)
    assert r.status_code == 404 and r.json()["code"] == "unknown_room"
    for body in (
        {"code": code, "seat": 1, "reason": 3},
        {"code": code, "seat": 1, "reason": "chat", "text": "a\x00b"},
        {"code": code, "seat": 1, "reason": "chat", "extra": 1},
        {"code": "'; --", "seat": 1, "reason": "chat"},
        {"code": code, "seat": -1, "reason": "chat"},
        {"code": code, "seat": "1", "reason": "chat"},
    ):
        r = ann.post("/api/reports", body)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", (body, r.text)
    # a guest's seat and a bot's have no account to report
    three = ann.post("/api/rooms", {"players": 3}).json()
    mod_server.join(three["code"], 1, "guest")
    assert report(ann, three["code"], 1).json()["code"] == "no_account"
    assert report(ann, three["code"], 2).json()["code"] == "no_account"
    assert ann.request("GET", f"/api/rooms/{three['code']}/reports").json()["seats"] == []
    assert bob.request("GET", "/api/account").json()["account"] is not None  # nothing refused logged out


def test_the_report_endpoints_find_no_private_room_by_guessing(mod_server: Server) -> None:
    """An unknown code costs a guess, as on every room endpoint: out of guesses, refused (429),
    whether the room exists or not."""
    prober, _name = player(mod_server)
    codes = []
    for n in range(40):
        r = prober.request("GET", f"/api/rooms/NOPE{n:04d}/reports")
        codes.append(r.json()["code"])
        if r.status_code == 429:
            break
    assert codes[0] == "unknown_room" and codes[-1] == "rate_limited", codes
    r = report(prober, "NOPE9999", 1)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"


def test_reports_are_limited_per_reporter_and_hour(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    store.migrate()
    try:
        db = AccountStore(store)
        made = [
            db.create(n := unique("Lim"), n.lower(), "x", unique("h")) for _ in range(REPORTS_PER_HOUR + 2)
        ]
        ids = [a.id for a in made if a is not None]
        code = next(_CODES)
        store.create_room(code, {"players": len(ids), "teams": None}, 0)
        for seat, account in enumerate(ids):
            assert db.link_seat(code, seat, account, False)
        mod = Moderation(store)
        for other in ids[1 : REPORTS_PER_HOUR + 1]:
            mod.file_report(ids[0], other, code, 0, "chat", "")
        with pytest.raises(ProtocolError) as refused:
            mod.file_report(ids[0], ids[-1], code, 0, "chat", "")
        assert refused.value.code == "rate_limited"
        mod.file_report(ids[1], ids[-1], code, 0, "name", "")  # another reporter is not limited by it
        with store.engine.begin() as conn:  # an hour later, the first may report again
            conn.execute(sa.text("UPDATE reports SET created_at = created_at - 3601"))
        mod.file_report(ids[0], ids[-1], code, 0, "chat", "")
    finally:
        store.close()


# ------------------------------------------------------------------------------------ bans


def chat_answer(client: Client, text: str) -> dict[str, Any]:
    """Send a chat line; the answer is the line itself or a refusal."""
    client.send({"type": "chat", "text": text})
    return client.recv_until(lambda m: m["type"] in ("chat", "error"))


def test_a_ban_keeps_an_account_from_rated_play_and_the_chat(mod_server: Server) -> None:
    ann, _an, bob, bn, code, tokens = two_at_a_table(mod_server)
    rated = ann.post("/api/rooms", {"players": 2, "rated": True}).json()["code"]
    seat1 = mod_server.client(code, tokens[1])
    assert chat_answer(seat1, "hello")["type"] == "chat"
    assert report(ann, code, 1, "chat", "rude").status_code == 201

    status, out, _err = admin(mod_server, "ban", bn.upper(), "--reason", "abuse in the chat")
    assert status == 0 and f"banned {bn}" in out and "1 open reports" in out
    refused = chat_answer(seat1, "still here")
    assert refused["type"] == "error" and refused["code"] == "banned" and "chat" in refused["message"]
    for r in (
        bob.post("/api/queue", {"format": "2p"}),
        bob.post("/api/rooms", {"players": 2, "rated": True}),
        bob.post(f"/api/rooms/{rated}/seats/1", {"name": "x"}),
    ):
        assert r.status_code == 403 and r.json()["code"] == "banned", r.text
    assert bob.post("/api/rooms", {"players": 2}).status_code == 201  # casual games go on
    assert bob.request("GET", "/api/account").json()["banned"]["reason"] == "abuse in the chat"
    assert bob.request("GET", f"/api/rooms/{code}/reports").json()["why"] == "banned"
    assert report(bob, code, 0).json()["code"] == "banned"
    shown = admin_json(mod_server, "show", bn)
    assert shown["ban"]["reason"] == "abuse in the chat" and shown["ban"]["by"] == "mod"
    assert [r["state"] for r in shown["reports_on"]] == ["actioned"]
    assert admin(mod_server, "ban", bn, "--reason", "again")[0] == 1

    status, out, _err = admin(mod_server, "unban", bn, "--note", "apologised")
    assert status == 0 and "no longer banned" in out
    assert chat_answer(seat1, "sorry")["type"] == "chat"
    assert bob.request("GET", "/api/account").json()["banned"] is None
    assert bob.post("/api/queue", {"format": "2p"}).status_code == 201
    assert bob.request("DELETE", "/api/queue").json()["cancelled"] is True
    assert bob.post(f"/api/rooms/{rated}/seats/1", {"name": "x"}).status_code == 201
    status, _out, err = admin(mod_server, "unban", bn)
    assert status == 1 and "not banned" in err
    log = admin_json(mod_server, "log")
    mine = [(e["action"], e["actor"], e["detail"]) for e in log if e["account"] == bn]
    assert ("ban", "mod", "abuse in the chat") in mine and ("unban", "mod", "apologised") in mine
    seat1.close()


def test_a_game_whose_player_is_banned_while_playing_is_not_rated(mod_server: Server) -> None:
    ann, an, bob, bn, code, tokens = two_at_a_table(mod_server, rated=True)
    clients = {seat: mod_server.client(code, token) for seat, token in tokens.items()}
    clients[0].send({"type": "start"})
    for c in clients.values():
        c.recv_until(lambda m: m.get("type") == "state" and m.get("view") is not None)
    assert advance(clients) and advance(clients)
    status, _out, err = admin(mod_server, "ban", bn, "--reason", "bot use", "--logout")
    assert status == 0, err
    assert bob.me() is None  # --logout: every session of the account ended
    while advance(clients):  # the seat's token still plays the game to its end
        pass
    for c in clients.values():
        c.close()
    engine = sa.create_engine(database_url(mod_server.db))
    query = "SELECT COUNT(*) FROM {} t JOIN rooms r ON r.id = t.room_id WHERE r.code = :code"
    end = time.monotonic() + 60
    try:
        while time.monotonic() < end:
            with engine.connect() as conn:
                decided = conn.execute(sa.text(query.format("rated_games")), {"code": code}).scalar()
            if decided:
                break
            time.sleep(0.2)
        with engine.connect() as conn:
            history = conn.execute(sa.text(query.format("rating_history")), {"code": code}).scalar()
    finally:
        engine.dispose()
    assert decided == 1 and history == 0  # decided, and nobody's rating moved
    for name in (an, bn):
        assert ann.request("GET", f"/api/players/{name}").json()["ratings"] == {}


# ------------------------------------------------------------------------------------ renames


def test_rename_keeps_the_session_and_the_look_alike_rule_holds(mod_server: Server) -> None:
    ann, an = player(mod_server)
    _bob, bn = player(mod_server)
    new = unique("Renamed")
    status, out, _err = admin(mod_server, "rename", an, new)
    assert status == 0 and f"renamed {an} to {new}" in out
    assert (ann.me() or {})["name"] == new  # the session goes on, renamed
    assert mod_server.get(f"/api/players/{an}").status_code == 404  # the old name names nobody now
    assert mod_server.get(f"/api/players/{new}").json()["name"] == new
    assert Visitor(mod_server).login(new).status_code == 200
    assert Visitor(mod_server).login(an).status_code == 401
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in bn)
    status, _out, err = admin(mod_server, "rename", new, fullwidth)  # a look-alike of Bob's name
    assert status == 1 and "taken" in err
    status, _out, err = admin(mod_server, "rename", new, "Аnn")  # Cyrillic А, Latin nn
    assert status == 1 and "mixed_scripts" in err
    status, _out, err = admin(mod_server, "rename", "Nobody Here", "Somebody")
    assert status == 1 and "no account is named" in err and "Traceback" not in err
    assert admin(mod_server, "rename", new, new.upper())[0] == 0  # its own name in capitals


def test_rename_keeps_the_ratings_and_the_history(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    store.migrate()
    try:
        db = AccountStore(store)
        a, b = (db.create(n := unique("Rt"), n.lower(), "x", unique("h")) for _ in range(2))
        assert a is not None and b is not None
        code = next(_CODES)
        store.create_room(code, {"players": 2, "teams": None, "rated": True}, 0)
        for seat, account in enumerate((a, b)):
            assert db.link_seat(code, seat, account.id, False)
        ratings = Ratings(store)
        assert ratings.rate(GameOver(code, 0, 2, 2, True, 0, ((0, "human", False), (1, "human", False))))
        before = (ratings.of_account(a.id), ratings.history(a.id), db.games(a.id))
        Moderation(store).rename(a.name, "Fresh Name", "mod")
        assert (ratings.of_account(a.id), ratings.history(a.id), db.games(a.id)) == before
        assert [g["others"] for g in ratings.history(b.id)] == [["Fresh Name"]]
        assert [row["name"] for row in ratings.leaderboard("2p") if row["name"] == "Fresh Name"]
    finally:
        store.close()


# ------------------------------------------------------------------------------------ the command


def test_admin_refuses_a_missing_database_and_names_nobody(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["admin", "--db", str(tmp_path / "none.db"), "reports"])
    assert status == 2 and "no database" in err.getvalue()
    assert not (tmp_path / "none.db").exists()  # a typo makes no empty database
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["admin", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", "reports"])
    assert status == 2 and "cannot be used" in err.getvalue() and "Traceback" not in err.getvalue()
    with pytest.raises(SystemExit) as usage:
        main(["admin", "--db", str(tmp_path / "none.db"), "ban", "Someone"])  # --reason is required
    assert usage.value.code == 2


@pytest.mark.parametrize("dialect", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_an_existing_v0005_database_upgrades_with_its_games(
    dialect: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A server's database of before (ratings, no moderation) with a game in play and an account:
    upgraded in place on the next start, the game, its events and the account still there."""
    from alembic import command
    from alembic.config import Config

    if dialect == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        where = str(tmp_path / "old.db")
    else:
        url = where = request.getfixturevalue("postgres_url")
    old = Server(where, log=tmp_path / "old.log", extra=LIMITS).start()
    try:
        name = unique("Old")
        assert Visitor(old).register(name).status_code == 201
        code = old.create_room(players=2, against="easy", grace_seconds=3600)["code"]
        end = time.monotonic() + 300
        while old.get(f"/api/rooms/{code}").json()["status"] != "playing" and time.monotonic() < end:
            time.sleep(0.2)
    finally:
        old.stop()
    store = Store(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_module.__file__).with_name("migrations")))
    with store.engine.begin() as conn:  # back to the schema before this change
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
    assert "reports" not in sa.inspect(store.engine).get_table_names()
    with store.engine.connect() as conn:
        events = conn.execute(sa.text("SELECT room_id, n, kind FROM events ORDER BY room_id, n")).all()
    store.close()
    again = Server(where, log=tmp_path / "new.log", extra=LIMITS).start()
    try:
        assert again.get(f"/api/rooms/{code}").json()["status"] == "playing"
        assert Visitor(again).login(name).status_code == 200
        assert admin(again, "reports") == (0, "no open reports\n", "")
    finally:
        again.stop()
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == "0006"
            after = conn.execute(sa.text("SELECT room_id, n, kind FROM events ORDER BY room_id, n")).all()
        assert after[: len(events)] == events
    finally:
        engine.dispose()
