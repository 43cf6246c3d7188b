#!/usr/bin/env python3
"""Load test for ``sequence serve``: scripted websocket players in many rooms, plus idle sockets.

Starts its own server on 127.0.0.1 (a SQLite file in a temporary directory, or ``--db URL``),
then plays ``--games`` two-seat games, ``--rooms`` at a time, every seat a scripted client that
answers each state with a random legal move at once. ``--idle`` spectator sockets sit in lobby
rooms meanwhile, and ``--bot-rooms`` rooms of a person and eleven bots (``--bot-level``) think
alongside, to measure how much they slow the others. It reports:

* moves per second (actions sent by the scripted players, over the playing phase);
* send-to-broadcast latency p50/p95/p99: from a player sending its move to each client of the
  room (the sender included) receiving the resulting state;
* errors (refusals, closed sockets, games that did not finish);
* server memory (VmRSS) at the start, after the games, and after every finished room has left
  memory (``/health``'s ``rooms_loaded``);
* every finished game's record, fetched afterwards (so loaded again from the store) and replayed
  through the engine: it must be legal and end as the players saw it end.

``--accounts N`` (``loadtest_accounts.py``) plays as N registered accounts instead, each queueing
with "Play now", playing the game it is paired into and queueing again: it adds the pairing
latency and checks that every finished game was rated.

``--workers N`` serves with ``sequence serve --workers N`` (PostgreSQL ``--db`` only): memory is
then the sum over the worker processes, and the room counts the sums over the workers reached.
``--route room`` instead starts N ``sequence serve --cluster`` workers on their own ports and sends
each room's requests to one of them by a hash of its code, as a load balancer routing by room does.

Bounded: at most ``--seconds`` of play, 5,000 games and 2,000 sockets; loopback only. The load
generator shares the machine with the server, so its own work is part of every figure.

    python scripts/loadtest.py                       # 200 games, 50 rooms at a time, 200 idle sockets
    python scripts/loadtest.py --games 1000 --idle 0 # memory after 1,000 finished games are evicted
    python scripts/loadtest.py --bot-rooms 6 --bot-level mcts --rooms 1 --games 20
    python scripts/loadtest.py --games 300 --postgres --workers 2 --route room
    python scripts/loadtest.py --accounts 50 --idle 0 --seconds 60 --postgres --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import h11
import httpx
from websockets.asyncio.client import connect

try:  # the load generator shares the cores with the server: the cheapest parser it can have
    from orjson import loads
except ImportError:  # pragma: no cover - the server extra brings orjson
    from json import loads

MAX_GAMES = 5000
MAX_SOCKETS = 2000


@dataclass
class Tally:
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """(room code, the final view a player saw)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    """Direct child processes of ``pid`` (Linux ``/proc``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def commits_are(args: argparse.Namespace) -> str:
    """Whether a commit the server acknowledged survives a crash of the machine (issue 42: a
    figure from a database says so)."""
    if args.postgres:
        if args.pg_durable:
            return "durable: PostgreSQL synchronous_commit on (each commit waits for its WAL flush)"
        return "not durable: PostgreSQL synchronous_commit off (a machine crash may lose the last ~0.6 s)"
    if args.db and args.db.startswith("postgresql"):
        return "as the given PostgreSQL is configured (synchronous_commit unknown to the load test)"
    return "durable against a process crash, not a power loss: SQLite WAL with synchronous=NORMAL"


def headline(out: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The figures a reader compares first: throughput, p99, the server's CPU a move, durability
    (and with ``--accounts``, the pairing latency's p50 and p99)."""
    pairing = (
        {k: out["pairing_latency_ms"][k] for k in ("p50", "p99")} if "pairing_latency_ms" in out else None
    )
    return {
        "moves_per_s": round(out.get("moves_per_s", 0.0), 1),
        "p99_ms": round(out.get("latency_ms", {}).get("p99", float("nan")), 1),
        **({"pairing_ms": pairing} if pairing else {}),
        "server_cpu_ms_per_move": out.get("cpu_ms_per_move", {}).get("server"),
        "commits": commits_are(args),
        "load_average": out.get("load_average"),
    }


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds the processes have used so far (``/proc/PID/stat``)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


class Server:
    """``sequence serve`` in a child process on loopback, limits opened for a load test.

    ``route="room"``: ``workers`` separate ``sequence serve --cluster`` processes, each on its own
    port, and every request about a room (its websockets, a seat taken, its record) sent to the
    worker its code hashes to, as a load balancer hashing on the room does (nginx ``hash``,
    HAProxy ``balance uri``: docs/server.md); creating a room, which has no code yet, goes to
    each worker in turn. Otherwise one process (``--workers N``: its workers share one socket)."""

    def __init__(
        self,
        db: str,
        bot_seconds: float,
        log: Path,
        workers: int = 1,
        compression: str = "on",
        route: str = "shared",
        more_limits: dict[str, float] | None = None,
    ) -> None:
        limits = {
            "rooms_burst": 100_000,
            "rooms_per_minute": 1_000_000,
            "finished_seconds": 1,
            "sweep_seconds": 0.5,
            **(more_limits or {}),
        }
        self.cmd = [sys.executable, "-m", "sequence_game", "serve", "--db", db]
        self.cmd += ["--bot-delay", "0", "--bot-seconds", str(bot_seconds), "--log-level", "warning"]
        self.cmd += ["--ws-compression", compression]
        # every simulated player comes from 127.0.0.1: the cap of connections per address (256 a
        # worker, conn_guard.py) is for real clients, and a routed worker holding more than its
        # half of ~500 sockets refused some (connection resets in 2 of 6 routed runs)
        self.cmd += ["--connections-per-address", "100000"]
        for name, value in limits.items():
            self.cmd += ["--limit", f"{name}={value}"]
        self.log = log
        self.workers = workers
        self.routed = route == "room" and workers > 1
        self.ports = [free_port() for _ in range(workers if self.routed else 1)]
        self.procs: list[subprocess.Popen[bytes]] = []
        self._created = 0
        # routed: the first worker migrates the schema alone, the others start once it is up
        self._launch(0, ["--cluster"] if self.routed else ["--workers", str(workers)] if workers > 1 else [])
        self.proc = self.procs[0]
        self.http = f"http://127.0.0.1:{self.ports[0]}"
        self.ws = f"ws://127.0.0.1:{self.ports[0]}"

    def _launch(self, index: int, flags: list[str]) -> None:
        cmd = [*self.cmd, "--port", str(self.ports[index]), *flags]
        self.procs.append(subprocess.Popen(cmd, stdout=self.log.open("ab"), stderr=subprocess.STDOUT))

    def _index(self, code: str) -> int:
        """The worker a balancer hashing on the room sends ``code`` to (any stable hash will do)."""
        return zlib.crc32(code.encode()) % len(self.ports) if self.routed else 0

    def http_for(self, code: str) -> str:
        return f"http://127.0.0.1:{self.ports[self._index(code)]}"

    def ws_for(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.ports[self._index(code)]}"

    def http_new(self) -> str:
        """Where a new room is created: each worker in turn (routed), else the one address."""
        self._created += 1
        return f"http://127.0.0.1:{self.ports[self._created % len(self.ports)]}"

    def http_all(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    async def ready(self, client: httpx.AsyncClient) -> None:
        await self._ready_one(client, 0)
        if self.routed:
            for index in range(1, self.workers):
                self._launch(index, ["--cluster"])
            for index in range(1, self.workers):
                await self._ready_one(client, index)

    async def _ready_one(self, client: httpx.AsyncClient, index: int) -> None:
        for _ in range(300):
            if self.procs[index].poll() is not None:
                raise SystemExit(f"the server exited with {self.procs[index].returncode}")
            try:
                if (await client.get(f"http://127.0.0.1:{self.ports[index]}/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
        raise SystemExit("the server did not start within 30 s")

    def pids(self) -> list[int]:
        """The server's processes: the supervisors (or workers) and their children (workers,
        bot and analysis pools)."""
        return [pid for proc in self.procs for pid in (proc.pid, *children(proc.pid))]

    def rss_kb(self) -> int:
        """The server's memory: with ``--workers`` the supervisor's and its worker processes'
        (routed: each worker's)."""
        pids = [proc.pid for proc in self.procs]
        if self.workers > 1 and not self.routed:
            pids += children(self.proc.pid)
        return sum(rss_kb(pid) for pid in pids)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


CLIENT: dict[str, Any] = {"deflate": True, "library": "aiohttp", "session": None}
"""``deflate``: whether the scripted clients offer permessage-deflate, as browsers do
(``--no-deflate``: not); ``library``: the websocket client (``--client``); ``session``: aiohttp's."""


class AioSocket:
    """An aiohttp websocket with the few calls the scripted clients make of a ``websockets`` one."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def send(self, text: str) -> None:
        await self.ws.send_str(text)

    async def close(self) -> None:
        await self.ws.close()

    async def __aiter__(self) -> Any:
        import aiohttp

        while True:
            msg = await self.ws.receive()
            if msg.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
                yield msg.data
            elif msg.type not in (aiohttp.WSMsgType.PING, aiohttp.WSMsgType.PONG):
                return  # closed, closing, or an error: the socket is done, as ``websockets`` ends


async def hello(server: Server, code: str, token: str | None) -> Any:
    if CLIENT["library"] == "aiohttp":
        import aiohttp

        if CLIENT["session"] is None:
            CLIENT["session"] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        ws = await CLIENT["session"].ws_connect(
            f"{server.ws_for(code)}/ws/{code}",
            compress=15 if CLIENT["deflate"] else 0,
            max_msg_size=2**22,
            autoclose=True,
            autoping=True,
        )
        sock: Any = AioSocket(ws)
    else:
        compression = "deflate" if CLIENT["deflate"] else None
        sock = await connect(  # loopback: no proxy to look up in the environment (a cost per socket)
            f"{server.ws_for(code)}/ws/{code}",
            max_size=2**22,
            open_timeout=20,
            compression=compression,
            proxy=None,
        )
    await sock.send(json.dumps({"type": "hello", "token": token}))
    return sock


_STATE = re.compile(r'\{"type":"state","version":(\d+),')
_TO_ACT = re.compile(r'"seats_to_act":\[([\d,]*)\]')
_AFTER_ACTION = re.compile(r'"event":\{"n":\d+,"kind":"action"')
_LEGAL = re.compile(r'"legal_actions":\[([^\]]*)\]')
_ACTION_ID = re.compile(r"\d+")


def glance(raw: str, seat: int) -> tuple[int, bool, list[str]] | None:
    """``(version, whether it follows a move, the ids of seat's legal actions)`` of a state
    message in a game that goes on, read without decoding it (the ids are empty when another
    seat is to act); ``None`` for any other message, which is then decoded whole. Decoding every
    message whole was the load generator's largest single cost, and then decoding those it
    answers (a 2.3 KB view for a list of numbers) its largest after the websockets library's."""
    head = _STATE.match(raw)
    if head is None or '"termination":null' not in raw:
        return None
    to_act = _TO_ACT.search(raw)
    if to_act is None:
        return None
    legal: list[str] = []
    if str(seat) in to_act.group(1).split(","):
        found = _LEGAL.search(raw)
        if found is None:
            return None
        legal = _ACTION_ID.findall(found.group(1))
    return int(head.group(1)), _AFTER_ACTION.search(raw) is not None, legal


async def play_seat(
    ws: Any, seat: int, sent: dict[int, float], tally: Tally, rng: random.Random, code: str
) -> dict[str, Any] | None:
    """Answer every state with a random legal move; record latencies; return the final view."""
    async for raw in ws:
        now = time.perf_counter()
        seen = glance(raw, seat) if isinstance(raw, str) else None
        if seen is not None:  # a state of a game going on: its latency, and a move if this seat acts
            version, after_action, legal = seen
            if after_action and version in sent:
                tally.latencies.append(now - sent[version])
            if legal:
                sent[version + 1] = time.perf_counter()
                tally.moves += 1
                await ws.send(
                    f'{{"type":"act","action":{legal[rng.randrange(len(legal))]},"version":{version}}}'
                )
            continue
        msg = loads(raw)
        kind = msg.get("type")
        if kind == "error":
            tally.errors.append(f"{code} seat {seat}: {msg.get('code')}: {msg.get('message')}")
            continue
        if kind == "nonce_request":  # a fair deal asks each person for a nonce, as the page answers
            nonce = {"type": "nonce", "commitment": msg["commitment"], "nonce": secrets.token_hex(16)}
            await ws.send(json.dumps(nonce))
            continue
        if kind not in ("welcome", "state"):
            continue
        if kind == "state" and (msg.get("event") or {}).get("kind") == "action" and msg["version"] in sent:
            tally.latencies.append(now - sent[msg["version"]])
        view = msg.get("view")
        if not view:
            continue
        if view["termination"] is not None:
            return dict(view)
        legal_actions = view["legal_actions"]
        if seat in view["seats_to_act"] and legal_actions:
            action = legal_actions[rng.randrange(len(legal_actions))]
            sent[msg["version"] + 1] = time.perf_counter()
            tally.moves += 1
            await ws.send(f'{{"type":"act","action":{action},"version":{msg["version"]}}}')
    return None


class KeepAlive:
    """JSON ``POST``s over one kept-alive HTTP/1.1 connection per server address, with ``h11``
    (the parser under httpx and uvicorn): a lane's creates and joins cost the load generator a
    fraction of what httpx's layers did (about a third of its CPU went to them), and the
    generator's CPU counts against the same two cores as the server's."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter, h11.Connection]] = {}

    async def post(self, base: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        """``(status, the answer's JSON)``; a connection the server closed while idle (its
        keep-alive ran out, so the request was never read) is opened again once."""
        for attempt in (0, 1):
            try:
                return await self._post(base, path, body)
            except (ConnectionError, h11.ProtocolError, EOFError):
                self._drop(base)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _post(self, base: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        opened = self._open.get(base)
        if opened is None or opened[2].our_state is not h11.IDLE:
            self._drop(base)
            url = httpx.URL(base)
            reader, writer = await asyncio.open_connection(url.host, url.port)
            opened = self._open[base] = (reader, writer, h11.Connection(h11.CLIENT))
        reader, writer, conn = opened
        data = json.dumps(body).encode()
        headers = [
            ("Host", "loopback"),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(data))),
        ]
        writer.write(
            conn.send(h11.Request(method="POST", target=path, headers=headers))
            + conn.send(h11.Data(data=data))
            + conn.send(h11.EndOfMessage())
        )
        status, chunks = 0, []
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                got = await reader.read(65536)
                if not got and status == 0:
                    raise EOFError("closed before answering")
                conn.receive_data(got)
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise EOFError("closed mid-answer")
        conn.start_next_cycle()
        return status, loads(b"".join(chunks))

    def _drop(self, base: str) -> None:
        opened = self._open.pop(base, None)
        if opened is not None:
            opened[1].close()

    def close(self) -> None:
        for base in list(self._open):
            self._drop(base)


class HttpxPost:
    """The same ``post`` through httpx (the warm-up and bot rooms, outside the measurement)."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def post(self, base: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        r = await self.client.post(f"{base}{path}", json=body)
        return r.status_code, r.json()


async def one_game(
    server: Server, http: KeepAlive | HttpxPost, tally: Tally, rng: random.Random, bots: str | None = None
) -> None:
    """A room from creation to its end: two scripted seats, or one and eleven bots."""
    players = 12 if bots else 2
    status, made = await http.post(server.http_new(), "/api/rooms", {"players": players, "name": "load"})
    if status != 201:
        tally.errors.append(f"create: {status} {str(made)[:100]}")
        return
    code, tokens = made["code"], [made["token"]]
    if not bots:
        status, joined = await http.post(
            server.http_for(code), f"/api/rooms/{code}/seats/1", {"name": "load"}
        )
        if status != 201:
            tally.errors.append(f"join: {status} {str(joined)[:100]}")
            return
        tokens.append(joined["token"])
    sockets = [await hello(server, code, t) for t in tokens]
    try:
        if bots:
            for seat in range(1, players):
                await sockets[0].send(json.dumps({"type": "bot", "seat": seat, "level": bots}))
        await sockets[0].send(json.dumps({"type": "start"}))
        sent: dict[int, float] = {}
        measured = tally if not bots else Tally()  # bot rooms are load, not the measurement
        views = await asyncio.gather(
            *(play_seat(ws, seat, sent, measured, rng, code) for seat, ws in enumerate(sockets))
        )
        if bots:
            tally.errors += measured.errors
        if views[0] is None:
            tally.errors.append(f"{code}: the socket closed before the game ended")
        else:
            tally.finished.append((code, views[0]))
    finally:
        for ws in sockets:
            await ws.close()


async def check_records(server: Server, client: httpx.AsyncClient, tally: Tally) -> int:
    """Every finished game's record, fetched again, must replay legally to the end the players saw."""
    from sequence_game.records import replay

    good = 0
    for code, view in tally.finished:
        r = await client.get(f"{server.http_for(code)}/api/rooms/{code}/record")
        if r.status_code != 200:
            tally.errors.append(f"{code}: record {r.status_code}")
            continue
        record = r.json()
        result = replay(record)
        if not result.ok or result.state.outcome() is None:
            tally.errors.append(f"{code}: the record does not replay: {result}")
        elif record["result"]["winner"] != view["winner"] or record["result"]["end"] != view["termination"]:
            tally.errors.append(f"{code}: the record's result differs from what the players saw")
        else:
            good += 1
    return good


async def evicted(server: Server, client: httpx.AsyncClient, left: int, wait: float) -> dict[str, Any]:
    """Wait (at most ``wait`` seconds) until no more than ``left`` rooms are loaded; ``/health``
    (with ``--workers``, the sums over the workers that answered a burst of fresh connections)."""
    waited = time.perf_counter()
    while True:
        health: dict[str, Any] = (await client.get(f"{server.http}/health")).json()
        if server.workers > 1:
            seen = {health["pid"]: health}
            if server.routed:  # each worker on its own port
                for address in server.http_all():
                    one = (await client.get(f"{address}/health")).json()
                    seen[one["pid"]] = one
            for _ in range(0 if server.routed else 20 * server.workers):
                async with httpx.AsyncClient(timeout=10) as fresh:
                    one = (await fresh.get(f"{server.http}/health")).json()
                seen[one["pid"]] = one
            for key in ("rooms_loaded", "rooms_evicted", "rooms_alive", "rooms_handed_over"):
                health[key] = sum(h.get(key, 0) for h in seen.values())
            health["workers_seen"] = len(seen)
            health["memory"] = [h.get("memory") for h in seen.values()]
            health["commits"] = [h.get("commits") for h in seen.values()]
        if health["rooms_loaded"] <= left or time.perf_counter() - waited > wait:
            return health
        await asyncio.sleep(0.5)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from loadtest_accounts import AccountsMode  # scripts/ (see main)
    from loadtest_db import Postgres

    mode = AccountsMode(args) if args.accounts else None  # accounts and Play now (issue 43)
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="sequence-load-"))
    postgres = Postgres(args.pg_durable) if args.postgres else None
    db = postgres.url if postgres else args.db or str(tmp / "load.db")
    try:
        server = Server(
            db,
            args.bot_seconds,
            tmp / "server.log",
            args.workers,
            args.ws_compression,
            args.route,
            mode.limits if mode else None,
        )
    except BaseException:
        if postgres:
            postgres.stop()
        raise
    tally = Tally()
    idle: list[Any] = []
    out: dict[str, Any] = {}
    limits = httpx.Limits(max_connections=200)
    try:
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            await server.ready(client)
            out["route"] = "room" if server.routed else "shared"
            await asyncio.sleep(1.0)
            out["rss_start_mb"] = server.rss_kb() / 1024
            for _ in range(args.warmup):  # first use loads modules and fills caches once for all
                await one_game(server, HttpxPost(client), Tally(), rng)
            if args.warmup:
                await evicted(server, client, 0, args.evict_wait)
                out["rss_warm_mb"] = server.rss_kb() / 1024
            for i in range(args.idle):  # idle spectators, ten to a lobby room
                if i % 10 == 0:
                    r = await client.post(f"{server.http_new()}/api/rooms", json={"players": 2})
                    lobby = r.json()["code"]
                idle.append(await hello(server, lobby, None))
            bot_tasks = [
                asyncio.create_task(one_game(server, HttpxPost(client), tally, rng, bots=args.bot_level))
                for _ in range(args.bot_rooms)
            ]
            if bot_tasks:
                await asyncio.sleep(2.0)  # let the bots start thinking
            if mode:  # register and log the accounts in, before the measurement
                await mode.prepare(server, out)
            start = time.perf_counter()
            serving = server.pids()
            pg = postgres.pids() if postgres else []
            cpu_start = (cpu_seconds(serving), cpu_seconds(pg), time.process_time())
            queue = iter(range(args.games))
            deadline = start + args.seconds

            async def lane() -> None:
                http = KeepAlive()
                try:
                    for _ in queue:
                        if time.perf_counter() > deadline:
                            return
                        try:
                            await one_game(server, http, tally, rng)
                        except Exception as exc:  # noqa: BLE001 - counted, and the run goes on
                            tally.errors.append(f"game: {type(exc).__name__}: {exc}")
                finally:
                    http.close()

            if mode:  # each account queues, plays what it is paired into, and queues again
                await mode.play(server, tally, rng, deadline)
            else:
                await asyncio.gather(*(lane() for _ in range(args.rooms)))
            elapsed = time.perf_counter() - start
            used = (cpu_seconds(serving), cpu_seconds(pg), time.process_time())
            cpu = [b - a for a, b in zip(cpu_start, used, strict=True)]
            # CPU seconds per second of play: 1.0 is one core busy all along
            out["cpu_cores"] = {
                "server": round(cpu[0] / elapsed, 2),
                "postgres": round(cpu[1] / elapsed, 2),
                "load_generator": round(cpu[2] / elapsed, 2),
            }
            # CPU milliseconds each move cost: the capacity of a core is 1000 / this, whatever else
            # the machine was doing meanwhile (moves/s is not: it drops when others take the cores)
            out["cpu_ms_per_move"] = {
                "server": round(1000 * cpu[0] / max(1, tally.moves), 3),
                "postgres": round(1000 * cpu[1] / max(1, tally.moves), 3),
                "load_generator": round(1000 * cpu[2] / max(1, tally.moves), 3),
            }
            out["load_average"] = os.getloadavg()[0]
            for task in bot_tasks:
                task.cancel()
            out.update(
                games=len(tally.finished),
                seconds=elapsed,
                moves=tally.moves,
                moves_per_s=tally.moves / elapsed,
                latency_ms={
                    "p50": 1000 * percentile(tally.latencies, 50),
                    "p95": 1000 * percentile(tally.latencies, 95),
                    "p99": 1000 * percentile(tally.latencies, 99),
                    "mean": 1000 * statistics.fmean(tally.latencies) if tally.latencies else float("nan"),
                },
                rss_after_games_mb=server.rss_kb() / 1024,
            )
            for ws in idle:
                await ws.close()
            idle.clear()
            health = await evicted(server, client, args.bot_rooms, args.evict_wait)
            out["rooms_loaded_after_eviction"] = health["rooms_loaded"]
            out["rooms_evicted"] = health.get("rooms_evicted")
            out["room_objects_alive"] = health.get("rooms_alive")
            out["rooms_handed_over"] = health.get("rooms_handed_over")  # left to the worker serving them
            out["workers_seen"] = health.get("workers_seen", 1)
            out["rss_after_eviction_mb"] = server.rss_kb() / 1024
            out["memory_release"] = health.get("memory")  # the sweep's collections and their pauses
            out["group_commits"] = health.get("commits")  # PostgreSQL: events and the statements they took
            out["records_replayed"] = await check_records(server, client, tally)
            if mode:  # pairing latency, and every finished game rated
                await mode.check(server, tally, out)
    finally:
        if mode:
            await mode.close()
        for ws in idle:
            await ws.close()
        if CLIENT["session"] is not None:
            await CLIENT["session"].close()
        server.stop()
        if postgres:
            postgres.stop()
    out["errors"] = len(tally.errors)
    if out["errors"]:
        out["server_log"] = str(tmp / "server.log")  # kept for the post-mortem
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    out["first_errors"] = tally.errors[:5]
    return out


def _loop_factory() -> Any:
    """uvloop when installed (uvicorn's standard extra brings it): a cheaper event loop for the
    load generator, which shares the machine's cores with the server."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return None
    return uvloop.new_event_loop


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="two-seat games to play in all (default 200)")
    p.add_argument("--rooms", type=int, default=50, help="games at a time (default 50)")
    p.add_argument("--idle", type=int, default=200, help="idle spectator sockets (default 200)")
    p.add_argument("--bot-rooms", type=int, default=0, help="rooms of one player and eleven bots alongside")
    p.add_argument("--bot-level", default="mcts", help="the bots of --bot-rooms (default mcts)")
    p.add_argument("--bot-seconds", type=float, default=1.0, help="the server's --bot-seconds (default 1.0)")
    p.add_argument("--db", help="a database URL instead of a fresh SQLite file (must be on loopback)")
    p.add_argument(
        "--workers", type=int, default=1, help="the server's --workers (more than 1: --db PostgreSQL)"
    )
    p.add_argument(
        "--route",
        choices=("shared", "room"),
        default="shared",
        help="with --workers N: shared = one `--workers N` server, whose workers share one socket "
        "(each connection to any worker); room = N `--cluster` workers on their own ports and every "
        "request about a room sent to one of them by a hash of its code, as a load balancer hashing "
        "on the room would (default shared)",
    )
    p.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL on loopback for the run (Debian's postgresql package)",
    )
    p.add_argument(
        "--pg-durable",
        action="store_true",
        help="with --postgres: keep synchronous_commit on (each commit waits for its WAL flush)",
    )
    p.add_argument(
        "--no-deflate",
        action="store_true",
        help="clients do not offer permessage-deflate (browsers do): measures the server without it",
    )
    p.add_argument(
        "--ws-compression",
        choices=("on", "off"),
        default="on",
        help="the server's --ws-compression: off declines the clients' permessage-deflate (default on)",
    )
    p.add_argument(
        "--client",
        choices=("aiohttp", "websockets"),
        default="aiohttp",
        help="the scripted clients' websocket library: aiohttp's C frame reader costs the load generator "
        "less CPU a move than websockets' (docs/server.md; default aiohttp)",
    )
    p.add_argument("--seconds", type=float, default=300, help="stop starting games after this (default 300)")
    p.add_argument("--evict-wait", type=float, default=60, help="wait this long for rooms to leave memory")
    p.add_argument("--warmup", type=int, default=2, help="games played (and evicted) before measuring")
    p.add_argument("--seed", type=int, default=1)
    sys.modules.setdefault("loadtest", sys.modules[__name__])  # one module for loadtest_accounts too
    from loadtest_accounts import add_arguments

    add_arguments(p)
    args = p.parse_args()
    if not 0 < args.games <= MAX_GAMES:
        p.error(f"--games must be 1..{MAX_GAMES}")
    if args.rooms * 2 + args.idle + args.bot_rooms > MAX_SOCKETS:
        p.error(f"at most {MAX_SOCKETS} sockets")
    if args.db and "://" in args.db:
        host = httpx.URL(args.db.replace("+psycopg", "")).host
        if host not in ("127.0.0.1", "localhost", "::1", ""):
            p.error("--db must be on loopback: the load test never leaves this machine")
    if args.route == "room" and args.workers < 2:
        p.error("--route room needs --workers 2 or more")
    CLIENT["deflate"] = not args.no_deflate
    CLIENT["library"] = args.client
    if args.postgres and args.db:
        p.error("--postgres starts its own database: no --db with it")
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        out = runner.run(run(args))
    out["cpus"] = os.cpu_count()
    print(json.dumps({"headline": headline(out, args), **out}, indent=2))
    return 1 if out["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
