"""``scripts/loadtest.py --accounts N``: accounts and "Play now" under load (issue 43).

Before the measurement, registers ``N`` accounts over HTTP (real argon2id: each registration and
each login hashes a password, 64 MiB and 3 passes) and logs each in again, as a browser would
(the session cookie, and the ``X-CSRF-Token`` header the answers give, on every request). Then,
for ``--seconds``, every account joins the Play-now queue (``POST /api/queue``, format ``2p``, no
clock), polls ``GET /api/queue`` until it is paired (every ``--poll`` seconds; the page: 1.5 s),
says ``POST /api/queue/done`` as the page does, connects to the room's websocket with its seat's
token and plays the game to its end with random legal moves (``loadtest.play_seat``, the guest
mode's scripted player), then queues again. Besides the guest mode's figures it reports the
pairing latency (from joining to the poll that sees the room), how long registrations and logins
took, that every seat was given exactly once, and ``games_rated``: the finished games whose two
players' pages (``GET /api/players/NAME``) list them with a changed rating, each account's
``games`` count matching the games it finished (a page lists a player's newest 100 games: keep a
run under that many games an account).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any

import httpx
import loadtest as lt

PASSWORD = "load test password"
#: The login and registration limits opened: every account comes from 127.0.0.1.
LIMITS = {
    "registrations_burst": 100_000,
    "registrations_per_minute": 1_000_000,
    "logins_burst": 100_000,
    "logins_per_minute": 1_000_000,
    "name_logins_burst": 100_000,
    "name_logins_per_minute": 1_000_000,
}
#: Accounts registering (or logging in) at once: each costs the server 64 MiB and a core a while.
HASHING_AT_ONCE = 4


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--accounts",
        type=int,
        default=0,
        help="instead of guests in rooms: register N accounts, log them in, and have each queue for a "
        "2p game with Play now, play it, and queue again (0: guests, as before)",
    )
    p.add_argument(
        "--poll",
        type=float,
        default=0.5,
        help="with --accounts: seconds between two GET /api/queue of an account waiting (the page: 1.5)",
    )


def name_of(i: int) -> str:
    """An account's name: letters only (the name policy maps digits to look-alike letters)."""
    return "Load" + "".join("abcdefghjk"[int(d)] for d in str(i))


class Player:
    """One account's browser: its cookie jar, the CSRF token it was told, the worker it asks."""

    def __init__(self, name: str, base: str) -> None:
        self.name = name
        self.http = httpx.AsyncClient(base_url=base, timeout=60)
        self.csrf: str | None = None
        self.games: set[str] = set()
        """The rooms whose game this account played to the end."""

    async def request(self, method: str, path: str, body: Any = None) -> httpx.Response:
        """One request; sent again once if the kept-alive connection was closed by the server
        while idle (its keep-alive ran out during a game: the request was never read). Each
        request of the queue may be repeated: a second join replaces the first."""
        headers = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        try:
            r = await self.http.request(method, path, json=body, headers=headers)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            r = await self.http.request(method, path, json=body, headers=headers)
        if r.headers.get("content-type", "").startswith("application/json"):
            data = r.json()
            if isinstance(data, dict) and "csrf" in data:
                self.csrf = data["csrf"]
        return r


class AccountsMode:
    """The accounts' part of a run: :meth:`prepare` before the measurement, :meth:`play` during
    it, :meth:`check` after the records are replayed."""

    def __init__(self, args: argparse.Namespace) -> None:
        if args.accounts < 2 or args.accounts > lt.MAX_SOCKETS:
            raise SystemExit(f"--accounts must be 2..{lt.MAX_SOCKETS}")
        self.args = args
        self.limits: dict[str, float] = dict(LIMITS)
        self.players: list[Player] = []
        self.pairing: list[float] = []
        self.seats: list[tuple[str, int, str]] = []
        """``(room, seat, account)`` of every pairing seen."""
        self.sent: dict[str, dict[int, float]] = {}
        """Each room's send times by version, shared by its two players (as a guest room's)."""
        self.cancelled = 0
        self.started = 0

    async def prepare(self, server: lt.Server, out: dict[str, Any]) -> None:
        addresses = server.http_all()
        self.players = [Player(name_of(i), addresses[i % len(addresses)]) for i in range(self.args.accounts)]
        at_once = asyncio.Semaphore(HASHING_AT_ONCE)
        timings: dict[str, list[float]] = {"register": [], "login": []}

        async def one(player: Player) -> None:
            for step, path, want in (("register", "register", 201), ("login", "login", 200)):
                async with at_once:
                    began = time.perf_counter()
                    r = await player.request(
                        "POST", f"/api/account/{path}", {"name": player.name, "password": PASSWORD}
                    )
                    timings[step].append(time.perf_counter() - began)
                if r.status_code != want:
                    raise SystemExit(f"{step} {player.name}: {r.status_code} {r.text[:200]}")

        began = time.perf_counter()
        await asyncio.gather(*(one(p) for p in self.players))
        out["accounts"] = {
            "count": len(self.players),
            "seconds": round(time.perf_counter() - began, 2),
            "at_once": HASHING_AT_ONCE,
            **{f"{step}_ms_p50": round(1000 * lt.percentile(t, 50), 1) for step, t in timings.items()},
            **{f"{step}_ms_max": round(1000 * max(t), 1) for step, t in timings.items()},
        }

    async def play(self, server: lt.Server, tally: lt.Tally, rng: random.Random, deadline: float) -> None:
        await asyncio.gather(*(self._lane(p, server, tally, rng, deadline) for p in self.players))

    async def _lane(
        self, player: Player, server: lt.Server, tally: lt.Tally, rng: random.Random, deadline: float
    ) -> None:
        while time.perf_counter() < deadline and self.started < self.args.games:
            try:
                if not await self._one_game(player, server, tally, rng, deadline):
                    return
            except Exception as exc:  # noqa: BLE001 - counted, and the run goes on
                tally.errors.append(f"{player.name}: {type(exc).__name__}: {exc}")
                return

    async def _one_game(
        self, player: Player, server: lt.Server, tally: lt.Tally, rng: random.Random, deadline: float
    ) -> bool:
        """Queue, wait for the room, play it to the end; ``False`` when the run is over."""
        joined = time.perf_counter()
        r = await player.request("POST", "/api/queue", {"format": "2p", "time_control": "none"})
        if r.status_code != 201:
            tally.errors.append(f"{player.name}: queue {r.status_code} {r.text[:100]}")
            return False
        entry = await self._paired(player, deadline)
        if entry is None:
            return False
        self.pairing.append(time.perf_counter() - joined)
        code, seat, token = entry["code"], int(entry["seat"]), entry["token"]
        self.seats.append((code, seat, player.name))
        if seat == 0:
            self.started += 1
        await player.request("POST", "/api/queue/done")  # the page has its room
        ws = await lt.hello(server, code, token)
        try:
            view = await lt.play_seat(ws, seat, self.sent.setdefault(code, {}), tally, rng, code)
        finally:
            await ws.close()
        if view is None:
            tally.errors.append(f"{code}: {player.name}'s socket closed before the game ended")
            return True
        player.games.add(code)
        if seat == 0:  # one finished game a room, as the guest mode counts it
            tally.finished.append((code, view))
        return True

    async def _paired(self, player: Player, deadline: float) -> dict[str, Any] | None:
        """Poll as the page does until paired; once the run is over, leave the queue (``None``)
        unless a room is already being made (then play it: the run ends with the games going on)."""
        while True:
            entry = (await player.request("GET", "/api/queue")).json()["entry"]
            if entry is not None and entry["state"] == "paired":
                return dict(entry)
            if entry is None:
                raise RuntimeError("the queue lost the entry")
            if time.perf_counter() > deadline and entry["state"] == "waiting":
                left = (await player.request("DELETE", "/api/queue")).json()
                if left.get("cancelled"):
                    self.cancelled += 1
                    return None
            await asyncio.sleep(self.args.poll)

    async def check(self, server: lt.Server, tally: lt.Tally, out: dict[str, Any]) -> None:
        """Pairing latency and its bookkeeping; every finished game rated, once, for both players."""
        out["pairing_latency_ms"] = {
            "p50": 1000 * lt.percentile(self.pairing, 50),
            "p95": 1000 * lt.percentile(self.pairing, 95),
            "p99": 1000 * lt.percentile(self.pairing, 99),
            "max": 1000 * max(self.pairing, default=float("nan")),
            "poll_s": self.args.poll,
        }
        rooms: dict[str, list[int]] = {}
        for code, seat, _name in self.seats:
            rooms.setdefault(code, []).append(seat)
        twice = [code for code, seats in rooms.items() if sorted(seats) != [0, 1]]
        if twice:
            tally.errors.append(f"rooms not paired exactly once, one account a seat: {twice[:5]}")
        out["pairings"] = {"seats": len(self.seats), "rooms": len(rooms), "left_the_queue": self.cancelled}
        finished = {code for code, _view in tally.finished}
        pages = await self._pages_once_rated(server)
        rated = 0
        for code in finished:
            changed = [
                any(g["code"] == code and g["after"] != g["before"] for g in pages[p.name]["games"])
                for p in self.players
                if code in p.games
            ]
            rated += len(changed) == 2 and all(changed)
        out["games_rated"] = rated
        if rated != len(finished):
            tally.errors.append(f"{len(finished) - rated} of {len(finished)} finished games not rated")

    async def _pages_once_rated(self, server: lt.Server, wait: float = 60.0) -> dict[str, Any]:
        """Every account's page, once each one's ``2p`` games count what it finished (a game is
        rated off the loop just after its end), or after ``wait`` seconds."""
        until = time.perf_counter() + wait
        while True:
            pages = {}
            for p in self.players:
                r = await p.request("GET", f"/api/players/{p.name}")
                pages[p.name] = r.json()
            counts_match = all(
                pages[p.name]["ratings"].get("2p", {}).get("games", 0) == len(p.games) for p in self.players
            )
            if counts_match or time.perf_counter() > until:
                return pages
            await asyncio.sleep(0.5)

    async def close(self) -> None:
        for p in self.players:
            await p.http.aclose()
