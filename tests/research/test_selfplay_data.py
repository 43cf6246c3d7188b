"""Self-play Parquet datasets: every game replays as a valid record with its result, the
observations are the environments' own, runs repeat exactly and resume where they stopped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from sequence_game.features.planes import encode, quantize
from sequence_game.records import replay
from sequence_game.research import selfplay_data as sd


def _rows(folder: Path, kind: str = "games") -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for path in sorted(folder.glob(f"{kind}-*.parquet")):
        rows.extend(pq.read_table(path).to_pylist())
    return rows


@pytest.mark.parametrize(
    ("players", "teams", "bots"),
    [(2, None, ("hard",)), (3, None, ("random",)), (4, 2, ("hard", "greedy")), (6, 3, ("lite",))],
)
def test_every_game_replays_as_a_record_with_its_result(
    tmp_path: Path, players: int, teams: int | None, bots: tuple[str, ...]
) -> None:
    plan = sd.Plan(players=players, teams=teams, bots=bots, seed=3, games=40, shard_size=15)
    summary = sd.run(plan, tmp_path)
    assert summary["made"] == 3 and summary["games"] == 40
    rows = _rows(tmp_path)
    assert [r["game"] for r in rows] == list(range(40))
    for row in rows:
        record = sd.to_record(row)
        result = replay(record)
        assert result.ok, (row["game"], result)
        outcome = result.state.outcome()
        if row["winner"] == -2:
            assert outcome is None
        else:
            assert outcome is not None
            assert (-1 if outcome.winner is None else outcome.winner) == row["winner"]
        assert result.state.turn == row["turns"]
        assert len(row["reshuffles"]) == len(row["reshuffle_at"])  # type: ignore[arg-type]


def test_random_games_reshuffle_and_still_replay(tmp_path: Path) -> None:
    """Random play at 3 players runs the pile out (R5.4): the recorded piles make the replay exact."""
    sd.run(sd.Plan(players=3, bots=("random",), seed=11, games=30, shard_size=30), tmp_path)
    rows = _rows(tmp_path)
    assert sum(len(r["reshuffles"]) for r in rows) > 0  # type: ignore[arg-type]
    for row in rows:
        if row["reshuffles"]:
            record = sd.to_record(row)
            assert any("reshuffle" in a for a in record["actions"])
            assert replay(record).ok


def test_observations_are_the_environments_planes_and_masks(tmp_path: Path) -> None:
    sd.run(
        sd.Plan(players=4, teams=2, bots=("hard",), seed=5, games=4, shard_size=4, observations=True),
        tmp_path,
    )
    games = {r["game"]: r for r in _rows(tmp_path)}
    positions = _rows(tmp_path, "positions")
    assert len(positions) == sum(len(g["actions"]) for g in games.values())  # type: ignore[arg-type]
    checked = 0
    for game, row in games.items():
        record = sd.to_record(row)
        mine = [p for p in positions if p["game"] == game]
        state_record = dict(record)
        for p in mine[::7]:
            ply = int(p["ply"])  # type: ignore[call-overload]
            state_record["actions"] = _first_actions(record["actions"], ply)
            state = replay(state_record).state
            assert state.current_seat == p["seat"]
            planes, mask = encode(state, int(p["seat"]))  # type: ignore[call-overload]
            assert np.array_equal(sd.observation(p["obs"]), quantize(planes))  # type: ignore[arg-type]
            assert np.array_equal(sd.unpack_mask(p["mask"]), mask)  # type: ignore[arg-type]
            assert mask[int(p["action"])] == 1  # type: ignore[call-overload]
            side = int(p["seat"]) % 2  # type: ignore[call-overload]
            winner = row["winner"]
            assert p["outcome"] == (0.0 if winner == -1 else (1.0 if winner == side else -1.0))
            checked += 1
    assert checked >= 10


def _first_actions(actions: list[dict[str, object]], plies: int) -> list[dict[str, object]]:
    """A record's first ``plies`` actions (a reshuffle entry belongs to the action before it)."""
    out: list[dict[str, object]] = []
    count = 0
    for entry in actions:
        if "reshuffle" in entry:
            if count <= plies and out:
                out.append(entry)
            continue
        if count == plies:
            break
        out.append(entry)
        count += 1
    return out


def test_a_run_repeats_exactly_whatever_the_workers(tmp_path: Path) -> None:
    plan = sd.Plan(bots=("hard", "greedy"), seed=9, games=30, shard_size=10, observations=True)
    sd.run(plan, tmp_path / "one")
    sd.run(plan, tmp_path / "two", workers=2)
    for kind in ("games", "positions"):
        assert _rows(tmp_path / "one", kind) == _rows(tmp_path / "two", kind)


def test_a_stopped_run_resumes_and_another_plan_is_refused(tmp_path: Path) -> None:
    plan = sd.Plan(bots=("greedy",), seed=2, games=30, shard_size=10)
    sd.run(plan, tmp_path)
    whole = _rows(tmp_path)
    (tmp_path / "games-00001.parquet").unlink()  # as if stopped while writing shard 1
    (tmp_path / ".games-00001.parquet.123.tmp").write_bytes(b"half a file")
    summary = sd.run(plan, tmp_path)
    assert (summary["made"], summary["skipped"]) == (1, 2)
    assert _rows(tmp_path) == whole
    with pytest.raises(sd.PlanMismatch, match="another run"):
        sd.run(sd.Plan(bots=("greedy",), seed=3, games=30, shard_size=10), tmp_path)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bots": ("nobody",)}, "unknown bot"),
        ({"players": 5}, "R2.1"),
        ({"players": 4, "teams": 3}, "R2"),
        ({"bots": ("hard", "greedy", "random")}, "one a side"),
        ({"games": 0}, "at least 1"),
        ({"max_turns": 0}, "turn limit"),
    ],
)
def test_bad_plans_are_refused_with_a_reason(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sd.Plan(**fields)  # type: ignore[arg-type]


def test_the_command_writes_shards_and_refuses_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "data"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sequence_game",
            "selfplay",
            "--out",
            str(out),
            "--games",
            "25",
            "--shard-size",
            "10",
            "--bots",
            "hard,random",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 25 and summary["shards"] == 3
    assert json.loads((out / "manifest.json").read_text())["bots"] == ["hard", "random"]
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "sequence_game",
            "selfplay",
            "--out",
            str(out),
            "--games",
            "25",
            "--bots",
            "nobody",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode != 0 and "unknown bot 'nobody'" in bad.stderr
    other = subprocess.run(
        [
            sys.executable,
            "-m",
            "sequence_game",
            "selfplay",
            "--out",
            str(out),
            "--games",
            "26",
            "--shard-size",
            "10",
            "--bots",
            "hard,random",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert other.returncode != 0 and "another run" in other.stderr


def test_on_ray_the_shards_are_the_same(tmp_path: Path) -> None:
    """``--backend ray``: the tasks return the Parquet bytes and the driver writes them, so a
    cluster's files equal one process's."""
    ray = pytest.importorskip("ray")
    plan = sd.Plan(bots=("hard", "random"), seed=4, games=20, shard_size=10, observations=True)
    sd.run(plan, tmp_path / "local")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        summary = sd.run(plan, tmp_path / "ray", backend="ray")
    finally:
        ray.shutdown()
    assert summary["made"] == 2
    for kind in ("games", "positions"):
        assert _rows(tmp_path / "local", kind) == _rows(tmp_path / "ray", kind)
