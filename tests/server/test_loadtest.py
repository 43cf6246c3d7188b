"""The load test script stays runnable: a tiny run plays real games, evicts them and replays every
record (the figures it prints are for docs/server.md, never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "loadtest.py"


def test_a_small_load_test_finishes_cleanly() -> None:
    cmd = [sys.executable, str(SCRIPT), "--games", "3", "--rooms", "2", "--idle", "3", "--evict-wait", "20"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert out["errors"] == 0 and out["games"] == 3 and out["records_replayed"] == 3, out
    assert out["rooms_evicted"] >= 3 and out["moves"] > 0
