"""A throwaway PostgreSQL for ``scripts/loadtest.py --postgres`` (kept apart from the load test)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from pathlib import Path

from loadtest import children, free_port


class Postgres:
    """A throwaway PostgreSQL server on loopback (Debian's ``initdb``/``pg_ctl``, as the tests start
    it; as root it runs as the ``postgres`` user), removed when the run ends."""

    def __init__(self, durable: bool) -> None:
        import glob
        import shutil

        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("--postgres: PostgreSQL binaries not found (apt-get install postgresql)")
        self.bindir = Path(found[-1]).parent
        self.base = Path(tempfile.mkdtemp(prefix="sequence-load-pg-"))
        sock = self.base / "sock"
        sock.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres")
            shutil.chown(sock, "postgres")
        self.port = free_port()
        self.data = self.base / "data"
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        # synchronous_commit=off, unless --pg-durable: a commit is in PostgreSQL's memory before it
        # returns, so a killed *server* loses nothing, but a crash of PostgreSQL or of the machine
        # may lose the last fraction of a second (SQLite's synchronous=NORMAL in WAL mode is alike)
        opts = f"-p {self.port} -k {sock} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not durable:
            opts += " -c synchronous_commit=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.base / "pg.log"), "-w", "start")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bindir / tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True)

    def pids(self) -> list[int]:
        """The postmaster and its backends (their CPU is part of the server's cost)."""
        try:
            main = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        return [main, *children(main)]

    def stop(self) -> None:
        import shutil

        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.base, ignore_errors=True)
