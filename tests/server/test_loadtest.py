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
    # the headline says what a reader compares: throughput, p99, CPU a move, and durability
    head = out["headline"]
    assert head["moves_per_s"] > 0 and head["commits"].startswith("durable against a process crash")


def test_a_small_load_test_with_accounts_and_play_now() -> None:
    """``--accounts``: four accounts registered and logged in over HTTP, each queueing with Play now,
    playing what it is paired into and queueing again; every seat given once, every game finished,
    rated for both players and replayed from its record."""
    cmd = [sys.executable, str(SCRIPT), "--accounts", "4", "--games", "4", "--seconds", "60"]
    cmd += ["--idle", "0", "--warmup", "0", "--evict-wait", "20", "--poll", "0.2"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    games = out["games"]
    assert out["errors"] == 0 and games >= 4 and out["records_replayed"] == games, out
    assert out["games_rated"] == games and out["accounts"]["count"] == 4
    # each room's two seats paired exactly once, one account each
    assert out["pairings"]["rooms"] == games and out["pairings"]["seats"] == 2 * games
    pairing = out["pairing_latency_ms"]
    assert 0 < pairing["p50"] <= pairing["p99"] <= pairing["max"] and out["moves"] > 0
    assert out["headline"]["pairing_ms"]["p99"] == pairing["p99"]


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
    assert out["headline"]["server_cpu_ms_per_move"] > 0 and "durable" in out["headline"]["commits"]


def test_the_generator_reads_a_state_as_decoding_it_would() -> None:
    """The scripted clients read the version, the move before and their legal actions' ids from
    a state message's text without decoding it (scripts/loadtest.py ``glance``): the same as the
    decoded message says, at every step of a random game, for the seat to act and the other."""
    import importlib.util
    import random

    from sequence_game import GameConfig, new_game
    from sequence_game.server.fanout import SeatViews
    from sequence_game.server.json_text import encode

    spec = importlib.util.spec_from_file_location("loadtest_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # its dataclasses look their module up
    try:
        spec.loader.exec_module(script)
    finally:
        del sys.modules[spec.name]
    rng = random.Random(3)
    state = new_game(GameConfig(players=2), seed=3)
    version = 5
    while state.outcome() is None:
        views = SeatViews(state)
        for seat in (0, 1):
            view = views.view(seat)
            room = {"code": "ABCDEF", "calls": [{"id": 999, "by": 1, "side": 0}], "seats": []}
            event = {"n": version, "kind": "action", "seat": 1 - seat, "action": "x", "notes": []}
            text = encode(
                {"type": "state", "version": version, "you": {}, "room": room, "view": view, "event": event}
            )
            legal = [str(a) for a in view["legal_actions"]] if seat in view["seats_to_act"] else []
            assert script.glance(text, seat) == (version, True, legal)
        actor = state.current_seat
        state.apply(rng.choice(state.legal_actions(actor)), actor)
        version += 1
    final = encode({"type": "state", "version": version, "view": SeatViews(state).view(0), "event": None})
    assert script.glance(final, 0) is None  # the game's end is decoded whole (its record is checked)
