"""The load test script stays runnable: a tiny run plays real games, evicts them and replays every
record (the figures it prints are for docs/server.md, never asserted here)."""

from __future__ import annotations

import glob
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "loadtest.py"


def test_a_small_load_test_finishes_cleanly() -> None:
    cmd = [sys.executable, str(SCRIPT), "--games", "3", "--rooms", "2", "--idle", "3", "--evict-wait", "20"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert out["errors"] == 0 and out["games"] == 3 and out["records_replayed"] == 3, out
    assert out["rooms_evicted"] >= 3 and out["moves"] > 0


@pytest.mark.postgres
def test_a_small_load_test_routed_by_room_on_two_workers() -> None:
    """``--route room``: two ``--cluster`` workers, each room's requests sent to one of them, as a
    load balancer hashing on the room would; the rooms created on the other worker are left to it."""
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("PostgreSQL binaries not found (apt-get install postgresql)")
    cmd = [sys.executable, str(SCRIPT), "--games", "4", "--rooms", "2", "--idle", "0", "--evict-wait", "20"]
    cmd += ["--postgres", "--workers", "2", "--route", "room"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert out["route"] == "room" and out["workers_seen"] == 2, out
    assert out["errors"] == 0 and out["games"] == 4 and out["records_replayed"] == 4, out
    assert isinstance(out["rooms_handed_over"], int) and out["moves"] > 0
