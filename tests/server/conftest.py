"""Real servers for the server tests: ``sequence serve`` in a subprocess on loopback, real SQLite files.

Clients use the ``websockets`` sync client, so every test speaks the real protocol over real sockets.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")
from websockets.sync.client import ClientConnection, connect

#: How long a server may take to answer ``/health`` before the test calls it hung: only a bound
#: for a failure, never a pace that a busy machine must keep (the wait ends as soon as it answers).
HANG_SECONDS = 300
#: Servers started and not yet stopped: whatever a failing test leaves is killed at the end.
LIVE: set[Server] = set()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """No server outlives the test run, whatever its tests did."""
    for server in list(LIVE):
        server.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PortTaken(RuntimeError):
    """The server could not bind the port :func:`free_port` had found free: another took it."""


class Server:
    """``sequence serve`` as a child process; ``kill()`` is a hard SIGKILL, as in a crash."""

    def __init__(
        self,
        db: str,
        *,
        bot_delay: float = 0.0,
        bot_seconds: float = 0.05,
        log: Path | None = None,
        extra: list[str] | None = None,
    ):
        self.extra = extra or []
        self.db = db
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._own_log = False

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the server on a free port: again on another one when the port was taken between
        :func:`free_port` and the server's bind (another xdist worker's server got it first)."""
        for _attempt in range(4):
            try:
                return self._start_once()
            except PortTaken:
                pass
        return self._start_once()

    def _lost_the_port(self, logged: int) -> bool:
        """Whether the server exited because its port was already in use (by what it logged
        after the first ``logged`` bytes of its log)."""
        if self.proc is None or self.proc.poll() is None or self.log is None or not self.log.exists():
            return False
        with open(self.log, "rb") as f:
            f.seek(logged)
            return b"address already in use" in f.read().lower()

    def _start_once(self) -> Server:
        self.port = free_port()
        cmd = [
            sys.executable,
            "-m",
            "sequence_game",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-delay",
            str(self.bot_delay),
            "--bot-seconds",
            str(self.bot_seconds),
            "--log-level",
            "warning",
            *self.extra,
        ]
        if self.log is None:  # kept for :meth:`post_mortem` (a few lines at --log-level warning)
            self.log = Path(tempfile.mkdtemp(prefix="sequence-server-")) / "server.log"
            self._own_log = True
        logged = self.log.stat().st_size if self.log.exists() else 0
        out = open(self.log, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ})
        LIVE.add(self)
        try:
            self.wait_ready()
        except BaseException as exc:
            lost = isinstance(exc, RuntimeError) and self._lost_the_port(logged)
            self.kill()  # a server that failed to start must not outlive the test
            if lost:
                raise PortTaken(self.port) from exc
            raise
        return self

    def wait_ready(self) -> None:
        """Wait until ``/health`` answers, for as long as the process lives: on a busy machine
        the start may take minutes, and only a hang (:data:`HANG_SECONDS`) is a failure."""
        assert self.proc is not None
        deadline = time.monotonic() + HANG_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.log}")
            try:
                health = httpx.get(f"{self.http}/health", timeout=5)
                if health.status_code == 200 and self._answered_by_us(health.json().get("pid")):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not answer /health in {HANG_SECONDS} s (hung?)")

    def _answered_by_us(self, pid: Any) -> bool:
        """Whether ``/health`` came from this server (its process or one of its workers): another
        test's server may hold the port that :func:`free_port` found free a moment before (an
        xdist worker's race), and its answer must not pass for ours (Linux's ``/proc`` says whose
        child a process is; elsewhere any answer is taken)."""
        assert self.proc is not None
        while isinstance(pid, int) and pid > 1:
            if pid == self.proc.pid:
                return True
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                return not Path("/proc/self").exists()
            pid = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")), 0)
        return False

    def post_mortem(self) -> str:
        """Why the server did not answer: whether it still runs, and its log's end after asking it
        to write every thread's stack there (``kill -USR1``, :mod:`sequence_game.commands.serve`)."""
        if self.proc is None:
            return "the server was never started"
        alive = self.proc.poll() is None
        if alive:
            self.proc.send_signal(signal.SIGUSR1)
            time.sleep(1.0)
        tail = self.log.read_text(errors="replace")[-12_000:] if self.log and self.log.exists() else ""
        state = "still running" if alive else f"exited with {self.proc.returncode}"
        return f"server {state}; the end of its log ({self.log}):\n{tail}"

    def rss_kb(self) -> int:
        """The server process's resident memory (Linux ``/proc``)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)
        LIVE.discard(self)
        self._forget_log()

    def _forget_log(self) -> None:
        if self._own_log and self.log is not None and (self.proc is None or self.proc.poll() is not None):
            shutil.rmtree(self.log.parent, ignore_errors=True)
            self.log, self._own_log = None, False

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        LIVE.discard(self)
        self._forget_log()

    # ---------------------------------------------------------------- helpers

    def post(self, path: str, body: dict[str, Any] | None = None, timeout: float = 60) -> httpx.Response:
        return httpx.post(f"{self.http}{path}", json=body or {}, timeout=timeout)

    def get(self, path: str, timeout: float = 60) -> httpx.Response:
        return httpx.get(f"{self.http}{path}", timeout=timeout)

    def create_room(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/rooms", body)
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, code: str, seat: int, name: str = "P") -> str:
        r = self.post(f"/api/rooms/{code}/seats/{seat}", {"name": name})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])

    def client(self, code: str, token: str | None = None, *, hello: bool = True) -> Client:
        return Client(self, code, token, hello=hello)


class Client:
    """One websocket; keeps every message it received (the leak test reads them all)."""

    def __init__(self, server: Server, code: str, token: str | None, *, hello: bool = True) -> None:
        self.server = server
        self.ws: ClientConnection = connect(
            f"{server.ws}/ws/{code}", open_timeout=60, max_size=2**22, legacy=True
        )
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.last: dict[str, Any] | None = None
        self.acted = -1  # the version this seat last acted on (tests' websocket_move)
        if hello:
            self.send({"type": "hello", "token": token})
            self.welcome = self.recv()

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    def recv(self, timeout: float = 60) -> dict[str, Any]:
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}; {self.server.post_mortem()}") from None
        assert isinstance(text, str)
        self.raw.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        if msg.get("type") in ("welcome", "state"):
            self.last = msg
        return msg

    def recv_until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(timeout=max(0.1, deadline - time.monotonic()))
            if pred(msg):
                return msg

    def error(self, obj: Any) -> dict[str, Any]:
        """Send a command that must be refused; return the refusal."""
        self.send(obj)
        return self.recv_until(lambda m: m["type"] == "error", timeout=60)

    def close(self) -> None:
        self.ws.close()


def my_turn(seat: int) -> Callable[[dict[str, Any]], bool]:
    def pred(m: dict[str, Any]) -> bool:
        v = m.get("view")
        if m.get("type") not in ("welcome", "state") or not v:
            return False
        return v["termination"] is not None or (seat in v["seats_to_act"] and bool(v["legal_actions"]))

    return pred


def over(m: dict[str, Any]) -> bool:
    v = m.get("view")
    return m.get("type") in ("welcome", "state") and bool(v) and v["termination"] is not None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("server")
    srv = Server(str(tmp / "sequence.db"), log=tmp / "server.log").start()
    yield srv
    srv.stop()


def advance(clients: dict[int, Client], pick: Callable[[list[int]], int] = lambda legal: legal[0]) -> bool:
    """One event of a game whose clients have all seen the same latest state: a human seat in
    ``clients`` acts (``pick`` chooses), or a bot does; every client then reads that event.
    Returns False once the game is over."""
    ref = next(iter(clients.values())).last
    assert ref is not None and ref["view"] is not None
    view = ref["view"]
    if view["termination"] is not None:
        return False
    actor = view["seats_to_act"][0]
    if actor in clients:
        mine = clients[actor].last
        assert mine is not None
        legal = list(mine["view"]["legal_actions"])  # action ids
        clients[actor].send({"type": "act", "action": pick(legal), "version": mine["version"]})
    for c in clients.values():
        c.recv_until(lambda m: m["type"] == "state")
    return True


def the_same_sound_record(code: str, *workers: Server) -> dict[str, Any]:
    """The finished game's record, which replays and which every worker serves alike."""
    from sequence_game.records import replay

    record: dict[str, Any] = workers[0].get(f"/api/rooms/{code}/record").json()
    assert replay(record).ok
    for other in workers[1:]:
        assert other.get(f"/api/rooms/{code}/record").json() == record
    return record


#: Server options that make post-game analysis jobs finish in a moment (tests of the analysis flow).
FAST_ANALYSIS = [
    "--limit",
    "analysis_seconds=0.01",
    "--limit",
    "analysis_total=3",
    "--limit",
    "analysis_samples=2",
]


# ------------------------------------------------------------------------------------------- browser

#: Debian's Chromium, driven by Playwright (its own browser download does not work here).
CHROMIUM = os.environ.get("SEQUENCE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module, shared by every browser test."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()
