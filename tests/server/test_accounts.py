"""Accounts, optional (issue 43): register, log in and out, change the password, delete, claim a
finished guest game; and every attack the design must stop, each tried for real.

A real ``sequence serve`` on SQLite behind a "proxy" (``--trusted-proxy 127.0.0.1``), so each
test plays from addresses of its own (``X-Forwarded-For``) and the per-address limits of one
test never touch another's; each test registers names of its own for the per-name limits.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, advance

ADDRESSES = (f"198.51.100.{n}" for n in itertools.count(1))
LIMITS = [
    "--trusted-proxy",
    "127.0.0.1",
    "--limit",
    "logins_burst=5",
    "--limit",
    "logins_per_minute=0.001",
    "--limit",
    "name_logins_burst=6",
    "--limit",
    "name_logins_per_minute=0.001",
    "--limit",
    "registrations_burst=6",
]
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def accounts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp: Path = tmp_path_factory.mktemp("accounts")
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log", extra=LIMITS).start()
    yield srv
    srv.stop()


class Visitor:
    """One browser: its cookie jar, its address, the CSRF token its page was told."""

    def __init__(self, server: Server, address: str | None = None) -> None:
        self.server = server
        self.address = address or next(ADDRESSES)
        self.http = httpx.Client(base_url=server.http, headers={"X-Forwarded-For": self.address}, timeout=60)
        self.csrf: str | None = None

    def request(
        self, method: str, path: str, body: Any = None, *, csrf: bool = True, **headers: Any
    ) -> httpx.Response:
        if csrf and self.csrf:
            headers.setdefault("X-CSRF-Token", self.csrf)
        r = self.http.request(method, path, json=body, headers=headers)
        if r.headers.get("content-type", "").startswith("application/json"):
            data = r.json()
            if isinstance(data, dict) and "csrf" in data:
                self.csrf = data["csrf"]
        return r

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.request("POST", path, body, **kw)

    def me(self) -> dict[str, Any] | None:
        account = self.request("GET", "/api/account").json()["account"]
        return account if account is None else dict(account)

    def register(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post("/api/account/register", {"name": name, "password": password})

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post("/api/account/login", {"name": name, "password": password})

    @property
    def cookie(self) -> str | None:
        found = [c.value for c in self.http.cookies.jar if c.name == "sequence_session"]
        return found[-1] if found else None

    def plant(self, value: str) -> None:
        """Put a session cookie in this browser (as an attacker would, or a thief)."""
        self.http.cookies.clear()
        self.http.cookies.set("sequence_session", value, domain="127.0.0.1", path="/")


def unique(stem: str) -> str:
    """A name no other test registers: ``stem`` and letters from a counter (names take no symbols)."""
    n = next(_NAMES)
    return stem + "".join("abcdefghjk"[int(d)] for d in str(n))


_NAMES = itertools.count(100)


def rows(server: Server, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(server.db) as db:
        return db.execute(sql, args).fetchall()


# ------------------------------------------------------------------------------------ the flows


def test_register_log_out_log_in_and_what_is_stored(accounts_server: Server) -> None:
    ann, name = Visitor(accounts_server), unique("Ann")
    assert ann.me() is None  # a guest: nothing to show, nothing refused
    r = ann.register(name)
    assert r.status_code == 201, r.text
    assert r.json()["account"]["name"] == name
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP here (see the HTTPS test below)
    assert ann.me() == {"name": name, "created_at": r.json()["account"]["created_at"]}

    # the store keeps an argon2id hash and the session token's SHA-256, never the secrets
    [(stored,)] = rows(accounts_server, "SELECT password_hash FROM accounts WHERE name = ?", name)
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    token = ann.cookie
    assert token is not None
    hashes = [h for (h,) in rows(accounts_server, "SELECT token_hash FROM account_sessions")]
    assert hashlib.sha256(token.encode()).hexdigest() in hashes and token not in hashes

    assert ann.post("/api/account/logout").status_code == 200
    assert ann.me() is None
    assert ann.login(name).status_code == 200
    assert ann.me() is not None


def test_a_secure_cookie_behind_https(accounts_server: Server) -> None:
    """Behind a trusted proxy that says the page came over HTTPS, the cookie is ``Secure``."""
    v = Visitor(accounts_server)
    r = v.http.post(
        "/api/account/register",
        json={"name": unique("Sec"), "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https", "Origin": f"https://127.0.0.1:{accounts_server.port}"},
    )
    assert r.status_code == 201, r.text
    assert "Secure" in r.headers["set-cookie"]


def test_change_the_password_ends_every_other_session(accounts_server: Server) -> None:
    name = unique("Bo")
    phone, laptop = Visitor(accounts_server), Visitor(accounts_server)
    assert phone.register(name).status_code == 201
    assert laptop.login(name).status_code == 200
    old_cookie = phone.cookie
    wrong = phone.post("/api/account/password", {"current": "not it at all", "new": "a new secret 1"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login"
    short = phone.post("/api/account/password", {"current": PASSWORD, "new": "short"})
    assert short.status_code == 400 and short.json()["code"] == "bad_password"
    r = phone.post("/api/account/password", {"current": PASSWORD, "new": "a new secret 1"})
    assert r.status_code == 200, r.text
    assert phone.cookie != old_cookie  # this session renewed
    assert phone.me() is not None
    assert laptop.me() is None  # the other one ended
    assert Visitor(accounts_server).login(name).status_code == 401
    assert Visitor(accounts_server).login(name, "a new secret 1").status_code == 200


def test_delete_the_account(accounts_server: Server) -> None:
    name = unique("Cy")
    v = Visitor(accounts_server)
    assert v.register(name).status_code == 201
    code = v.post("/api/rooms", {"name": "ignored"}).json()["code"]
    assert v.request("DELETE", "/api/account", {"password": "wrong password"}).status_code == 401
    r = v.request("DELETE", "/api/account", {"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert v.me() is None
    assert rows(accounts_server, "SELECT count(*) FROM accounts WHERE name = ?", name) == [(0,)]
    assert Visitor(accounts_server).login(name).status_code == 401
    assert accounts_server.get(f"/api/rooms/{code}").status_code == 200  # the room stays
    assert Visitor(accounts_server).register(name).status_code == 201  # the name is free again


def test_a_logged_in_seat_carries_the_account_and_a_guest_plays_as_before(accounts_server: Server) -> None:
    name = unique("Di")
    host = Visitor(accounts_server)
    assert host.register(name).status_code == 201
    r = host.post("/api/rooms", {"name": "Someone else", "players": 2})
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["room"]["seats"][0]["name"] == name  # the account's name, not the typed one
    guest = Visitor(accounts_server)
    joined = guest.post(f"/api/rooms/{room['code']}/seats/1", {"name": "Just me"})
    assert joined.status_code == 201
    seats = accounts_server.get(f"/api/rooms/{room['code']}").json()["seats"]
    assert [s["name"] for s in seats] == [name, "Just me"]
    games = host.request("GET", "/api/account").json()["games"]
    assert games == [{"code": room["code"], "seat": 0, "claimed": False, "status": "lobby"}]
    plain = Visitor(accounts_server).post("/api/rooms", {"name": "A guest", "players": 2})
    assert plain.status_code == 201 and plain.json()["room"]["seats"][0]["name"] == "A guest"


def play_out(client: Any) -> None:
    if client.last is None or client.last["room"]["status"] != "playing":
        client.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    while advance({0: client}):
        pass


def test_a_guest_claims_a_finished_game_for_a_new_account(accounts_server: Server) -> None:
    guest = Visitor(accounts_server)
    room = guest.post("/api/rooms", {"name": "Guest", "players": 2, "against": "easy"}).json()
    code, token = room["code"], room["token"]
    claimer = Visitor(accounts_server)
    assert claimer.register(unique("Fay")).status_code == 201
    early = claimer.post("/api/account/claim", {"code": code, "token": token})
    assert early.status_code == 409 and early.json()["code"] == "in_progress"

    ws = accounts_server.client(code, token)
    try:
        play_out(ws)
    finally:
        ws.close()
    no_login = Visitor(accounts_server).post("/api/account/claim", {"code": code, "token": token})
    assert no_login.status_code == 401 and no_login.json()["code"] == "not_logged_in"
    forged = claimer.post("/api/account/claim", {"code": code, "token": "x" * 32})
    assert forged.status_code == 403 and forged.json()["code"] == "bad_token"
    r = claimer.post("/api/account/claim", {"code": code, "token": token})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0
    games = claimer.request("GET", "/api/account").json()["games"]
    assert games == [{"code": code, "seat": 0, "claimed": True, "status": "over"}]
    other = Visitor(accounts_server)
    assert other.register(unique("Gus")).status_code == 201
    again = other.post("/api/account/claim", {"code": code, "token": token})
    assert again.status_code == 409 and again.json()["code"] == "claimed"


# ------------------------------------------------------------------------------------ the attacks


def test_a_forged_cookie_names_nobody(accounts_server: Server) -> None:
    v = Visitor(accounts_server)
    v.plant("A" * 43)
    r = v.request("GET", "/api/account")
    assert r.json()["account"] is None
    assert 'sequence_session=""' in r.headers.get("set-cookie", "")  # told to forget it
    v.plant("A" * 43)
    r = v.post("/api/account/password", {"current": PASSWORD, "new": "whatever 12345"})
    assert r.status_code == 401 and r.json()["code"] == "not_logged_in"
    # the hash of a real session (what a leaked table holds) is no cookie either
    real = Visitor(accounts_server)
    assert real.register(unique("Hal")).status_code == 201
    assert real.cookie is not None
    v.plant(hashlib.sha256(real.cookie.encode()).hexdigest())
    assert v.me() is None
    # nor is a cookie that is not even of the right form
    v.plant("'; DROP TABLE accounts; --")
    assert v.me() is None


def test_session_fixation_a_login_never_keeps_the_session_it_came_with(accounts_server: Server) -> None:
    """The attacker plants a session id in the victim's browser (their own, or one they made up):
    after the victim logs in, the browser holds a new one, and the planted one names nobody."""
    mallory, victim_name = Visitor(accounts_server), unique("Ida")
    assert mallory.register(unique("Mal")).status_code == 201
    planted = mallory.cookie
    assert planted is not None
    victim = Visitor(accounts_server)
    assert Visitor(accounts_server).register(victim_name).status_code == 201
    victim.plant(planted)
    assert victim.login(victim_name).status_code == 200
    assert victim.cookie not in (None, planted)
    assert mallory.me() is None  # the planted session was ended by the login
    assert victim.me() == {"name": victim_name, "created_at": victim.me()["created_at"]}  # type: ignore[index]

    made_up = "B" * 43
    other = Visitor(accounts_server)
    other.plant(made_up)
    assert other.login(victim_name).status_code == 200
    assert other.cookie != made_up
    hashes = [h for (h,) in rows(accounts_server, "SELECT token_hash FROM account_sessions")]
    assert hashlib.sha256(made_up.encode()).hexdigest() not in hashes


def test_logout_ends_the_session_for_good(accounts_server: Server) -> None:
    v = Visitor(accounts_server)
    assert v.register(unique("Jo")).status_code == 201
    stolen = v.cookie
    assert stolen is not None
    assert v.post("/api/account/logout").status_code == 200
    thief = Visitor(accounts_server)
    thief.plant(stolen)
    assert thief.me() is None


def test_csrf_without_the_token_or_from_another_site_is_refused(accounts_server: Server) -> None:
    v = Visitor(accounts_server)
    assert v.register(unique("Kai")).status_code == 201
    good = v.csrf
    change = {"current": PASSWORD, "new": "another secret 9"}
    for headers in (
        {},  # no token
        {"X-CSRF-Token": "0" * 64},  # a wrong one
        {"X-CSRF-Token": "é".encode("latin-1")},  # not even ASCII
    ):
        r = v.post("/api/account/password", change, csrf=False, **headers)
        assert r.status_code == 403 and r.json()["code"] == "csrf", r.text
    assert good is not None
    evil = {"X-CSRF-Token": good, "Origin": "https://evil.example"}
    assert v.post("/api/account/password", change, csrf=False, **evil).json()["code"] == "csrf"
    cross = {"X-CSRF-Token": good, "Sec-Fetch-Site": "cross-site"}
    assert v.post("/api/account/password", change, csrf=False, **cross).json()["code"] == "csrf"
    # every state-changing request the cookie authorises: logout, delete, claim, rooms, seats
    assert v.post("/api/account/logout", csrf=False).status_code == 403
    r = v.request("DELETE", "/api/account", {"password": PASSWORD}, csrf=False)
    assert r.status_code == 403
    assert v.post("/api/account/claim", {"code": "ABCD", "token": "t"}, csrf=False).status_code == 403
    assert v.post("/api/rooms", {"name": "x"}, csrf=False).status_code == 403
    assert v.me() is not None  # none of it happened
    # a login or registration from another site's page (login CSRF) is refused too
    other = {"Origin": "http://evil.example"}
    r = Visitor(accounts_server).post("/api/account/login", {"name": "x", "password": "y"}, **other)
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    # the page's own requests pass
    same = {"Origin": accounts_server.http, "Sec-Fetch-Site": "same-origin"}
    assert v.post("/api/account/password", change, **same).status_code == 200


def test_brute_force_hits_the_limit_per_address(accounts_server: Server) -> None:
    name = unique("Lea")
    assert Visitor(accounts_server).register(name).status_code == 201
    attacker = Visitor(accounts_server)
    codes = [attacker.login(unique("Guess"), f"guess {i:04}").status_code for i in range(5)]
    assert codes == [401] * 5  # logins_burst=5, each at another name
    r = attacker.login(name)  # even the right password: the address is out of attempts
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"


def test_brute_force_hits_the_limit_per_account_from_many_addresses(accounts_server: Server) -> None:
    name = unique("Max")
    assert Visitor(accounts_server).register(name).status_code == 201
    codes = [Visitor(accounts_server).login(name, f"guess {i:04}").status_code for i in range(6)]
    assert codes == [401] * 6  # name_logins_burst=6, each from a fresh address
    r = Visitor(accounts_server).login(name)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    # an unknown name runs out the same way, with the same words: the limit tells nothing
    unknown = unique("Nobody")
    replies = [Visitor(accounts_server).login(unknown, f"guess {i:04}") for i in range(7)]
    assert [x.status_code for x in replies] == [401] * 6 + [429]
    assert replies[-1].json() == r.json()


def test_the_login_form_does_not_tell_whether_a_name_exists(accounts_server: Server) -> None:
    name = unique("Ned")
    assert Visitor(accounts_server).register(name).status_code == 201
    wrong = Visitor(accounts_server).login(name, "not the password")
    unknown = Visitor(accounts_server).login(unique("Nemo"), "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


def test_an_unknown_name_costs_one_argon2_verification_as_a_known_one_does() -> None:
    """The timing-equivalent path: an unknown name is checked against a dummy hash made with the
    same parameters, so both refusals do the same work (counted, not timed)."""
    from sequence_game.server.accounts import Accounts
    from sequence_game.server.limits import Limits
    from sequence_game.server.protocol import ProtocolError
    from sequence_game.server.store import Store

    store = Store("sqlite://")
    store.migrate()
    accounts = Accounts(store, Limits())
    verified: list[str] = []
    real_verify = accounts._verify

    def counting(stored: str, password: str) -> bool:
        verified.append(stored)
        return real_verify(stored, password)

    accounts._verify = counting  # type: ignore[method-assign]

    async def scenario() -> list[dict[str, Any]]:
        await accounts.register("Olga", PASSWORD, "192.0.2.1")
        out = []
        for name in ("Olga", "Oleg"):
            try:
                await accounts.login(name, "wrong password", "192.0.2.1")
            except ProtocolError as exc:
                out.append(exc.to_dict())
        return out

    known, unknown = asyncio.run(scenario())
    assert known == unknown
    assert len(verified) == 2
    dummy = accounts.dummy_hash()
    assert verified[1] == dummy and verified[0] != dummy
    assert dummy.split("$")[:4] == verified[0].split("$")[:4]  # argon2id, same version and cost
    store.close()


@pytest.mark.parametrize(
    "lookalike",
    [
        "ＲＯＳＡ",  # fullwidth: NFKC makes it ROSA
        "rosa",  # case
        "r o s a",  # spaces
        "Ro_sa",  # separators
        "Rоsа",  # Cyrillic о and а inside Latin: mixed scripts, refused outright
        "Rоsа".upper(),
        "R0sa",  # zero for o
        "Ros\u200da",  # an invisible joiner
    ],
)
def test_a_look_alike_of_a_registered_name_is_refused(accounts_server: Server, lookalike: str) -> None:
    first = Visitor(accounts_server).register("Rosa")  # the first of these registers it
    assert first.status_code in (201, 409)
    r = Visitor(accounts_server).register(lookalike)
    assert r.status_code in (400, 409), r.text
    assert r.json()["code"] in ("name_taken", "bad_name")


def test_look_alikes_across_scripts_and_the_login_under_another_form() -> None:
    from sequence_game.server.names import BadName, check_name, name_key

    assert name_key("Ann") == name_key("ＡＮＮ") == name_key("ann")
    with pytest.raises(BadName, match="mixed_scripts"):
        check_name("Аnn")  # Cyrillic А
    assert name_key(check_name("Рор")) == name_key("Pop")  # all Cyrillic: its own script, same key
    assert name_key("Åse") != name_key("Ase")  # a letter of its own in Danish is not a look-alike
    with pytest.raises(BadName, match="bad_character"):
        check_name("Ann\u202e")  # right-to-left override


def test_the_name_logs_in_under_any_of_its_forms(accounts_server: Server) -> None:
    name = unique("Pia")
    assert Visitor(accounts_server).register(name).status_code == 201
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in name)
    assert Visitor(accounts_server).login(fullwidth).status_code == 200
    assert Visitor(accounts_server).login(name.lower()).status_code == 200


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": "Quinn"}, 422),  # no password
        ({"name": 5, "password": PASSWORD}, 422),  # a number
        ({"name": ["Quinn"], "password": PASSWORD}, 422),
        ({"name": "Quinn", "password": PASSWORD, "admin": True}, 422),  # an unknown field
        ({"name": "Q" * 65, "password": PASSWORD}, 422),  # too long to read
        ({"name": "Q" * 30, "password": PASSWORD}, 400),  # too long for a name
        ({"name": "Quinn", "password": "x" * 1025}, 422),
        ({"name": "Quinn", "password": "x" * 300}, 400),
        ({"name": "Quinn", "password": "short"}, 400),
        ({"name": "Quinn", "password": "Quinn"}, 400),  # the name itself
        ({"name": "Qu\x00inn", "password": PASSWORD}, 400),
        ({"name": "🙂🙂🙂", "password": PASSWORD}, 400),
        ({"name": "", "password": PASSWORD}, 422),
        ([1, 2], 422),
    ],
)
def test_every_request_is_validated(accounts_server: Server, body: Any, status: int) -> None:
    r = Visitor(accounts_server).post("/api/account/register", body)
    assert r.status_code == status, r.text
    assert r.json()["type"] == "error"


def test_bodies_that_are_not_json_or_too_large_are_refused_cleanly(accounts_server: Server) -> None:
    v = Visitor(accounts_server)
    r = v.http.post("/api/account/login", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 422) and r.json()["type"] == "error"
    r = v.http.post(
        "/api/account/login", content=b"x" * 100_000, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413
    assert v.post("/api/account/claim", {"code": "../../etc", "token": "t"}).status_code in (401, 422)
    assert v.request("GET", "/api/account").status_code == 200


def test_a_session_expires() -> None:
    from sequence_game.server.accounts import Accounts
    from sequence_game.server.limits import Limits
    from sequence_game.server.store import Store

    store = Store("sqlite://")
    store.migrate()

    async def scenario(days: float) -> bool:
        accounts = Accounts(store, Limits(session_days=days))
        account = await accounts.login("Uma", PASSWORD, "192.0.2.9") if days else None
        if account is None:
            account = await accounts.register("Uma", PASSWORD, "192.0.2.9")
        token = await accounts.start_session(account)
        return await accounts.session(token) is not None

    assert asyncio.run(scenario(0.0)) is False  # over at once: expired sessions name nobody
    assert asyncio.run(scenario(1.0)) is True
    store.close()


# ------------------------------------------------------------------------------------ passkeys


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def forged_assertion(challenge: str, origin: str, kind: str = "webauthn.get") -> dict[str, Any]:
    """An assertion for ``challenge`` that no authenticator signed."""
    client_data = {"type": kind, "challenge": challenge, "origin": origin}
    return {
        "id": _b64(b"no such credential"),
        "rawId": _b64(b"no such credential"),
        "type": "public-key",
        "response": {
            "clientDataJSON": _b64(json.dumps(client_data).encode()),
            "authenticatorData": _b64(b"\0" * 37),
            "signature": _b64(b"\0" * 64),
        },
        "clientExtensionResults": {},
    }


def test_passkey_ceremonies_refuse_what_they_did_not_ask_for(accounts_server: Server) -> None:
    v = Visitor(accounts_server)
    # making a passkey needs a session and its CSRF token
    assert v.post("/api/account/passkeys/options").status_code == 401
    assert v.register(unique("Rex")).status_code == 201
    assert v.post("/api/account/passkeys/options", csrf=False).status_code == 403
    options = v.post("/api/account/passkeys/options")
    assert options.status_code == 200, options.text
    assert options.json()["authenticatorSelection"]["residentKey"] == "required"
    # a login from another site's page is refused before any challenge is made
    evil = {"Origin": "https://evil.example"}
    assert Visitor(accounts_server).post("/api/account/passkey-login/options", **evil).status_code == 403

    stranger = Visitor(accounts_server)
    made_up = forged_assertion(_b64(b"a challenge never issued"), accounts_server.http)
    r = stranger.post("/api/account/passkey-login", {"credential": made_up})
    assert r.status_code == 401 and r.json()["code"] == "bad_passkey"
    challenge = stranger.post("/api/account/passkey-login/options").json()["challenge"]
    unsigned = forged_assertion(challenge, accounts_server.http)
    r = stranger.post("/api/account/passkey-login", {"credential": unsigned})
    assert r.status_code == 401 and r.json()["code"] == "bad_passkey"
    assert stranger.me() is None
    # a registration's challenge is no login's, and a challenge is used once
    reg_challenge = options.json()["challenge"]
    r = stranger.post("/api/account/passkey-login", {"credential": forged_assertion(reg_challenge, "x")})
    assert r.status_code == 401
    # malformed bodies: refused, never a crash
    bodies: list[dict[str, Any]] = [
        {"credential": "x"},
        {"credential": {}},
        {"credential": {"response": 5}},
        {},
        {"x": 1},
    ]
    for body in bodies:
        r = stranger.post("/api/account/passkey-login", body)
        assert r.status_code in (401, 422), (body, r.text)
        assert r.json()["type"] == "error"
