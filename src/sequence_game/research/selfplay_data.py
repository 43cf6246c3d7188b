"""Self-play games as Parquet: a dataset researchers load directly, made at compiled speed.

A run is fixed by its :class:`Plan` (table, bots, seed, number of games, shard size, turn limit,
whether to keep observations). Game ``i`` is dealt from a seed derived from the plan's seed and
``i`` alone, so a shard holds the same games whoever makes it, on one core, several, or a Ray
cluster, and a stopped run resumes where it stopped: each shard is written to a temporary file
and renamed when complete, and shards already on disk are skipped.

Two tables, one file a shard each (``docs/selfplay-data.md`` gives every column):

- ``games-NNNNN.parquet``: a game a row: the deal (deck, dealer), every action with its seat, the
  reshuffled piles (R5.4) and the result. :func:`to_record` turns a row into a
  ``sequence-record/1`` record, replayed on the pure engine, so that every tool of the project
  (``sequence analyze``, the web replay) reads it.
- ``positions-NNNNN.parquet`` (with ``observations``): a decision a row: the acting seat's
  planes as uint8 (``features/planes.py``'s 24 planes, quantised), its legal actions as packed
  bits, the action taken and the result for its side.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from ..actions import NUM_ACTIONS
from ..config import TEAM_OPTIONS, GameConfig
from ..records import write_record
from ..state import GameState

FORMAT: Final = "sequence-selfplay/1"
OBS_BYTES: Final = 100 * 24
"""Bytes of one observation: planes ``(10, 10, 24)`` of uint8, row-major."""
MASK_BYTES: Final = (NUM_ACTIONS + 7) // 8
"""Bytes of one legal-action mask: ``numpy.packbits(mask, bitorder="little")``."""


@dataclass(frozen=True)
class Plan:
    """Everything that decides a run's games; two runs with equal plans write equal files."""

    players: int = 2
    teams: int | None = None
    bots: tuple[str, ...] = ("hard",)
    seed: int = 0
    games: int = 10_000
    shard_size: int = 10_000
    max_turns: int = 400
    observations: bool = False

    def __post_init__(self) -> None:
        from ..fast.selfplay import POLICIES

        if self.players not in TEAM_OPTIONS:
            raise ValueError(f"R2.1: {self.players} players is not a table the rules allow")
        config = self.config  # checks the teams (R2.2)
        unknown = [b for b in self.bots if b not in POLICIES]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} for self-play; choose from {', '.join(POLICIES)}")
        if len(self.bots) not in (1, config.sides, config.players):
            raise ValueError(f"--bots: one bot, one a side ({config.sides}) or one a seat ({config.players})")
        for name, value, least in (("games", self.games, 1), ("shard size", self.shard_size, 1)):
            if value < least:
                raise ValueError(f"{name} must be at least {least}")
        if not 1 <= self.max_turns <= 2000:
            raise ValueError("the turn limit must be 1 to 2000")
        if not 0 <= self.seed < 2**31:
            raise ValueError("the seed must be 0 to 2**31 - 1")

    @property
    def config(self) -> GameConfig:
        return GameConfig(players=self.players, teams=self.teams)

    @property
    def shards(self) -> int:
        return -(-self.games // self.shard_size)

    def shard_games(self, shard: int) -> range:
        first = shard * self.shard_size
        return range(first, min(first + self.shard_size, self.games))

    def deal_seed(self, game: int) -> int:
        """The published seed of game ``game``: its deck and dealer (Python's generator)."""
        return self.seed * 2**32 + game

    def policies(self) -> tuple[int, ...]:
        from ..fast.selfplay import POLICIES

        codes = tuple(POLICIES[b] for b in self.bots)
        return codes * self.config.sides if len(codes) == 1 else codes

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self), "bots": list(self.bots)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        fields = {k: v for k, v in data.items() if k != "format"}
        fields["bots"] = tuple(fields.get("bots", ("hard",)))
        return cls(**fields)


def _mix(x: int) -> int:
    """SplitMix64: the play's random generator seed from the deal's (independent streams)."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def make_shard(plan: Plan, shard: int) -> dict[str, bytes]:
    """Play one shard's games; its tables as Parquet bytes (``games``, and ``positions`` with
    observations). Pure in its arguments, so it runs in any process or on any Ray node."""
    import pyarrow as pa

    from ..fast.selfplay import GameLog, play_game

    config = plan.config
    policies = plan.policies()
    log = GameLog.for_turns(plan.max_turns, observe=plan.observations)
    cols: dict[str, list[Any]] = {k: [] for k in ("game", "deal_seed", "dealer", "winner", "turns", "deck")}
    actions: list[np.ndarray] = []
    seats: list[np.ndarray] = []
    resh_at: list[np.ndarray] = []
    piles: list[list[bytes]] = []
    pos: dict[str, list[np.ndarray]] = {
        k: [] for k in ("game", "ply", "seat", "obs", "mask", "action", "outcome")
    }
    for game in plan.shard_games(shard):
        seed = plan.deal_seed(game)
        played = play_game(
            config, seed, _mix(seed), policies, log, max_turns=plan.max_turns, observe=plan.observations
        )
        n, r = played.actions, played.reshuffles
        cols["game"].append(game)
        cols["deal_seed"].append(seed)
        cols["dealer"].append(played.dealer)
        cols["winner"].append(played.winner)
        cols["turns"].append(played.turns)
        cols["deck"].append(bytes(played.deck))
        acts = log.actions[:n].astype(np.int16)
        who = log.seats[:n].astype(np.int8)
        actions.append(acts)
        seats.append(who)
        resh_at.append(log.resh_at[:r].astype(np.int16))
        piles.append([bytes(int(c) for c in row[row >= 0]) for row in log.resh_cards[:r]])
        if plan.observations:
            pos["game"].append(np.full(n, game, dtype=np.int64))
            pos["ply"].append(np.arange(n, dtype=np.int16))
            pos["seat"].append(who)
            pos["obs"].append(log.words[:n].view(np.uint8).reshape(n, OBS_BYTES).copy())
            pos["mask"].append(np.packbits(log.masks[:n].astype(bool), axis=1, bitorder="little"))
            pos["action"].append(acts)
            pos["outcome"].append(_outcomes(played.winner, who % config.sides))
    games = pa.table(
        {
            "game": pa.array(cols["game"], pa.int64()),
            "deal_seed": pa.array(cols["deal_seed"], pa.int64()),
            "players": pa.array([config.players] * len(cols["game"]), pa.int8()),
            "teams": pa.array([config.sides] * len(cols["game"]), pa.int8()),
            "dealer": pa.array(cols["dealer"], pa.int8()),
            "deck": pa.array(cols["deck"], pa.binary(104)),
            "actions": _lists(actions, pa.int16()),
            "seats": _lists(seats, pa.int8()),
            "reshuffle_at": _lists(resh_at, pa.int16()),
            "reshuffles": pa.array(piles, pa.list_(pa.binary())),
            "winner": pa.array(cols["winner"], pa.int8()),
            "turns": pa.array(cols["turns"], pa.int16()),
        }
    )
    out = {"games": _parquet(games, plan)}
    if plan.observations:
        obs = np.concatenate(pos["obs"])
        masks = np.concatenate(pos["mask"])
        positions = pa.table(
            {
                "game": pa.array(np.concatenate(pos["game"])),
                "ply": pa.array(np.concatenate(pos["ply"])),
                "seat": pa.array(np.concatenate(pos["seat"])),
                "obs": pa.FixedSizeBinaryArray.from_buffers(
                    pa.binary(OBS_BYTES), len(obs), [None, pa.py_buffer(obs.tobytes())]
                ),
                "mask": pa.FixedSizeBinaryArray.from_buffers(
                    pa.binary(MASK_BYTES), len(masks), [None, pa.py_buffer(masks.tobytes())]
                ),
                "action": pa.array(np.concatenate(pos["action"])),
                "outcome": pa.array(np.concatenate(pos["outcome"])),
            }
        )
        out["positions"] = _parquet(positions, plan)
    return out


def _outcomes(winner: int, sides: np.ndarray) -> np.ndarray:
    """The result for each decision's side: 1 won, -1 lost, 0 drawn, NaN for a truncated game."""
    from ..fast.selfplay import TRUNCATED

    if winner == TRUNCATED:
        return np.full(len(sides), np.nan, dtype=np.float32)
    if winner < 0:
        return np.zeros(len(sides), dtype=np.float32)
    return np.where(sides == winner, 1.0, -1.0).astype(np.float32)


def _lists(parts: list[np.ndarray], kind: Any) -> Any:
    import pyarrow as pa

    offsets = np.zeros(len(parts) + 1, dtype=np.int32)
    np.cumsum([len(p) for p in parts], out=offsets[1:])
    values = np.concatenate(parts) if parts else np.zeros(0)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values, kind))


def _parquet(table: Any, plan: Plan) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = table.replace_schema_metadata({"sequence-selfplay": json.dumps(plan.to_json())})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


# ------------------------------------------------------------------ the run


class PlanMismatch(ValueError):
    """The folder holds a run with another plan: resuming it would mix two datasets."""


def shard_path(out: Path, kind: str, shard: int) -> Path:
    return out / f"{kind}-{shard:05d}.parquet"


def pending_shards(plan: Plan, out: Path) -> list[int]:
    """The shards not yet complete (a shard is complete once its games file exists: it is
    renamed into place last)."""
    return [s for s in range(plan.shards) if not shard_path(out, "games", s).exists()]


def prepare(plan: Plan, out: Path) -> None:
    """Create the folder and its manifest, or check that the manifest there is this plan's."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / "manifest.json"
    if manifest.exists():
        try:
            found = Plan.from_json(json.loads(manifest.read_text(encoding="utf-8")))
        except (ValueError, TypeError, json.JSONDecodeError) as exc:
            raise PlanMismatch(f"{manifest} is not a self-play manifest ({exc})") from None
        if found != plan:
            raise PlanMismatch(
                f"{out} holds another run ({json.dumps(found.to_json())}); "
                "use a new folder, or the same options to resume it"
            )
        return
    _write_atomic(manifest, (json.dumps(plan.to_json(), indent=2) + "\n").encode())


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save_shard(out: Path, shard: int, tables: Mapping[str, bytes]) -> None:
    """Positions first, games last: a games file on disk means its shard is whole."""
    if "positions" in tables:
        _write_atomic(shard_path(out, "positions", shard), tables["positions"])
    _write_atomic(shard_path(out, "games", shard), tables["games"])


def _shard_job(job: tuple[Plan, int]) -> tuple[int, dict[str, bytes], float]:
    plan, shard = job
    start = time.process_time()
    tables = make_shard(plan, shard)
    return shard, tables, time.process_time() - start


def iter_shards(
    plan: Plan, shards: list[int], workers: int = 1, backend: str = "process", address: str | None = None
) -> Iterator[tuple[int, dict[str, bytes], float]]:
    """Each shard's tables and the CPU seconds it took, as they finish."""
    jobs = [(plan, s) for s in shards]
    if backend == "ray":
        try:
            import ray
        except ImportError:
            raise RuntimeError("--backend ray needs Ray: pip install 'sequence-game[ray]'") from None
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        remote = ray.remote(_shard_job)
        pending = [remote.remote(job) for job in jobs]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    elif workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield _shard_job(job)
    else:
        import multiprocessing

        with multiprocessing.get_context().Pool(min(workers, len(jobs))) as pool:
            yield from pool.imap_unordered(_shard_job, jobs, chunksize=1)


def run(
    plan: Plan,
    out: Path,
    *,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Make every missing shard of ``plan`` in ``out``; what was done and how fast."""
    prepare(plan, out)
    todo = pending_shards(plan, out)
    start = time.perf_counter()
    cpu = 0.0
    games = 0
    for done, (shard, tables, seconds) in enumerate(iter_shards(plan, todo, workers, backend, address), 1):
        save_shard(out, shard, tables)
        cpu += seconds
        games += len(plan.shard_games(shard))
        if progress is not None:
            progress(done, len(todo))
    wall = time.perf_counter() - start
    return {
        "folder": str(out),
        "shards": plan.shards,
        "made": len(todo),
        "skipped": plan.shards - len(todo),
        "games": games,
        "wall_seconds": round(wall, 3),
        "worker_cpu_seconds": round(cpu, 3),
        "games_per_cpu_second": round(games / cpu, 1) if cpu else None,
    }


# ------------------------------------------------------------------ reading back


def to_record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A ``games`` row as a ``sequence-record/1`` record: the game replayed on the pure engine,
    which checks every action (an error names the rule) and writes the cards and cells."""
    config = GameConfig(players=int(row["players"]), teams=int(row["teams"]))
    piles = [list(p) for p in row["reshuffles"]]

    def reshuffle(pool: list[int]) -> list[int]:
        if not pool:
            return []
        return piles.pop(0)

    state = GameState(config, list(row["deck"]), int(row["dealer"]), reshuffle_source=reshuffle)
    for action, seat in zip(row["actions"], row["seats"], strict=True):
        state.apply(int(action), int(seat))
    return write_record(state)


def unpack_mask(packed: bytes) -> np.ndarray:
    """The legal-action mask (``NUM_ACTIONS`` 0/1 ``int8``) of a ``positions`` row."""
    bits = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), bitorder="little")
    return bits[:NUM_ACTIONS].astype(np.int8)


def observation(packed: bytes) -> np.ndarray:
    """The planes ``(10, 10, 24)`` uint8 of a ``positions`` row (as the environments' uint8
    observations)."""
    return np.frombuffer(packed, dtype=np.uint8).reshape(10, 10, 24)
