"""Regenerate the evaluator's training data and weights from seeds (docs/evaluator.md).

    .venv/bin/python scripts/train_evaluator.py --games 60000 --explore-games 60000 --seed 0 --workers 2

1. Self-play: ``--games`` games of ``hard`` against ``hard`` on the compiled engine, seeds
   ``seed .. seed + games - 1``, tables drawn as ``evaluator.selfplay.TABLES`` says, in chunks
   of 500 games written under ``--data`` (a rerun reuses the chunks it finds: resumable); then
   ``--explore-games`` explored games (seeds from 20,000,000 + seed), whose moves before a random
   turn deviate and whose positions from that turn on are kept (``evaluator.selfplay``).
2. Games whose seed is 0 mod 10 are held out for the validation figures; the network is fitted
   on the others. Then ``--calibration-games`` fresh games at every table (seeds from 5,000,000)
   fit the Platt scalings, one for all tables and one per table.
3. The weights go to ``--out`` (by default the package's ``evaluator/weights.npz``) with what
   made them; a JSON summary is printed.
4. The whole-position judge (``evaluator.whole``: both hands known, 2 players, for the analysis'
   luck): ``--whole-games`` 2-player games of ``hard`` against ``hard`` and as many explored ones
   (seeds from 30,000,000 and 31,000,000), fitted the same way on the games whose seed is not
   0 mod 10, to ``--whole-out``. ``--part evaluator`` or ``--part whole`` makes one of the two.

About 10 ms of CPU a game for the self-play and a few minutes for the fit on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from sequence_game.config import GameConfig
from sequence_game.evaluator.model import ASSUMES, WEIGHTS, Network
from sequence_game.evaluator.selfplay import TABLES, Positions, chunks, generate
from sequence_game.evaluator.training import fit, log_loss, platt, reliability
from sequence_game.evaluator.whole import DATA_SEED as WHOLE_SEED
from sequence_game.evaluator.whole import EXPLORE_SEED as WHOLE_EXPLORE_SEED
from sequence_game.evaluator.whole import WHOLE_FEATURES, WHOLE_WEIGHTS, WholePositions, whole_positions
from sequence_game.features.position import FEATURE_NAMES

CHUNK = 500
VERSION = "2"
"""The weights' version (2: explored games added to the data)."""
DATA_VERSION = "1"
"""The self-play chunks' format (unchanged by version 2: its games are those of version 1)."""
CALIBRATION_SEED = 5_000_000
EXPLORE_SEED = 20_000_000
WHOLE_VERSION = "1"
"""The whole-position judge's version."""


def _chunk(path: str, seeds: range, explore: bool) -> str:
    generate(seeds, explore=explore).save(path)
    return path


def self_play(data: Path, start: int, games: int, workers: int, explore: bool = False) -> Positions:
    kind = "explore" if explore else "selfplay"
    paths, todo = _chunk_jobs(data, f"{kind}-v{DATA_VERSION}", start, games, explore)
    _make_chunks(_chunk, todo, workers, "self-play")
    return Positions.concat([Positions.load(str(p)) for p in paths])


def _chunk_jobs(
    data: Path, name: str, start: int, games: int, explore: bool
) -> tuple[list[Path], list[tuple[str, range, bool]]]:
    """The chunk files of ``games`` games from seed ``start`` (``NAME-FIRST-STOP.npz``) and the
    jobs that make those still missing: a rerun resumes."""
    data.mkdir(parents=True, exist_ok=True)
    ranges = list(chunks(start, games, CHUNK))
    paths = [data / f"{name}-{seeds.start}-{seeds.stop}.npz" for seeds in ranges]
    todo = [(str(p), seeds, explore) for p, seeds in zip(paths, ranges, strict=True) if not p.exists()]
    return paths, todo


def _make_chunks(
    make: Callable[[str, range, bool], str], todo: list[tuple[str, range, bool]], workers: int, label: str
) -> None:
    """Write the chunks still missing (``make(path, seeds, explore)`` each), ``workers`` at a time."""
    t = time.time()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for i, done in enumerate(pool.map(make, *zip(*todo, strict=True)) if todo else []):
            print(f"{label}: {i + 1}/{len(todo)} chunks ({done}), {time.time() - t:.0f} s", file=sys.stderr)


def calibration_set(data: Path, games: int, workers: int) -> Positions:
    """Fresh games for the Platt scalings, ``games`` at every table, seeds from 5,000,000 (apart
    from the training seeds and from the held-out test games of experiments/, from 10,000,000)."""
    parts = []
    for t, (config, _) in enumerate(TABLES):
        path = data / f"calibration-v{DATA_VERSION}-{config.players}-{config.sides}-{games}.npz"
        if not path.exists():
            seeds = [
                range(CALIBRATION_SEED + t * 100_000 + c.start, CALIBRATION_SEED + t * 100_000 + c.stop)
                for c in chunks(0, games, CHUNK)
            ]
            with ProcessPoolExecutor(max_workers=workers) as pool:
                done = list(
                    pool.map(_table_chunk, [config.players] * len(seeds), [config.sides] * len(seeds), seeds)
                )
            Positions.concat(done).save(str(path))
        parts.append(Positions.load(str(path)))
    return Positions.concat(parts)


def _table_chunk(players: int, sides: int, seeds: range) -> Positions:
    return generate(seeds, tables=[(GameConfig(players=players, teams=sides), 1.0)])


def _whole_chunk(path: str, seeds: range, explore: bool) -> str:
    whole_positions(seeds, explore).save(path)
    return path


def whole_self_play(data: Path, games: int, workers: int) -> WholePositions:
    """The whole-position judge's games, in resumable chunks (explored ones first)."""
    paths, todo = _chunk_jobs(data, "whole-explore", WHOLE_EXPLORE_SEED, games, True)
    played, more = _chunk_jobs(data, "whole-play", WHOLE_SEED, games, False)
    paths, todo = paths + played, todo + more
    _make_chunks(_whole_chunk, todo, workers, "whole")
    return WholePositions.concat(WholePositions.load(p) for p in paths)


def _fit_kept(
    x: np.ndarray, y: np.ndarray, held: np.ndarray, args: argparse.Namespace, label: str = ""
) -> Network:
    """The network fitted on the rows not ``held`` out, as the options say."""
    return fit(
        x[~held],
        y[~held],
        hidden=args.hidden,
        epochs=args.epochs,
        seed=args.seed,
        log=lambda line: print(f"{label}{line}", file=sys.stderr),
    )


def train_whole(args: argparse.Namespace) -> dict[str, object]:
    """Step 4: the whole-position judge, its held-out scores beside the one-view evaluator's."""
    from sequence_game.evaluator.model import Evaluator

    positions = whole_self_play(args.data, args.whole_games, args.workers)
    held = positions.game % 10 == 0
    net = _fit_kept(positions.x, positions.y, held, args, "whole: ")
    y = positions.y[held]
    both = net.predict(positions.x[held])
    one = Evaluator.load().chances_of_features(positions.x[held][:, : len(FEATURE_NAMES)])
    net.meta = {
        "version": WHOLE_VERSION,
        "features": list(WHOLE_FEATURES),
        "assumes": ASSUMES,
        "data": {
            "games": args.whole_games,
            "seeds": [WHOLE_SEED, WHOLE_SEED + args.whole_games - 1],
            "explored_games": args.whole_games,
            "explored_seeds": [WHOLE_EXPLORE_SEED, WHOLE_EXPLORE_SEED + args.whole_games - 1],
            "positions": len(positions),
            "held_out": "seeds 0 mod 10 (validation)",
        },
        "hidden": args.hidden,
        "epochs": args.epochs,
        "validation": {
            "log_loss": log_loss(both, y),
            "brier": float(np.mean((both - y) ** 2)),
            "one_view_log_loss": log_loss(one, y),
            "one_view_brier": float(np.mean((one - y) ** 2)),
        },
    }
    net.save(args.whole_out)
    return {**net.meta, "weights": str(args.whole_out)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument(
        "--explore-games",
        type=int,
        default=60_000,
        help="explored games besides (selfplay.py: deviating moves before a random turn), seeds from 20,000,000",
    )
    parser.add_argument(
        "--calibration-games", type=int, default=3_000, help="fresh games a table for the scaling"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, nargs="+", default=[64, 64])
    parser.add_argument("--data", type=Path, default=Path("data/evaluator"))
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument(
        "--network", type=Path, default=None, help="reuse this file's network: calibrate only"
    )
    parser.add_argument(
        "--whole-games",
        type=int,
        default=40_000,
        help="2-player games for the whole-position judge, and as many explored ones",
    )
    parser.add_argument("--whole-out", type=Path, default=WHOLE_WEIGHTS)
    parser.add_argument("--part", choices=("all", "evaluator", "whole"), default="all")
    args = parser.parse_args()
    start = time.time()
    whole = train_whole(args) if args.part in ("all", "whole") else None
    if args.part == "whole":
        print(json.dumps({**(whole or {}), "seconds": round(time.time() - start, 1)}, indent=1))
        return 0
    positions = Positions.concat(
        [
            self_play(args.data, args.seed, args.games, args.workers),
            self_play(args.data, EXPLORE_SEED + args.seed, args.explore_games, args.workers, explore=True),
        ]
    )
    held = positions.game % 10 == 0
    print(f"{len(positions)} positions, {int(held.sum())} held out", file=sys.stderr)
    if args.network is not None:
        net = Network.load(args.network)
    else:
        net = _fit_kept(positions.x, positions.y, held, args)
    # the scalings come from thousands of fresh games a table: positions of one game share its
    # result, so a few hundred games leave the slope too uncertain (it moved by 0.1-0.4)
    cal = calibration_set(args.data, args.calibration_games, args.workers)
    logits = net.logits(cal.x)
    net.calibration = platt(logits, cal.y)
    net.tables = {}
    for config, _ in TABLES:
        rows = (cal.players == config.players) & (cal.sides == config.sides)
        net.tables[(config.players, config.sides)] = platt(logits[rows], cal.y[rows])
    p = net.predict(positions.x[held])
    table = reliability(p, positions.y[held], positions.game[held])
    net.meta = {
        "version": VERSION,
        "features": list(FEATURE_NAMES),
        "assumes": ASSUMES,
        "data": {
            "games": args.games,
            "seeds": [args.seed, args.seed + args.games - 1],
            "explored_games": args.explore_games,
            "explored_seeds": [EXPLORE_SEED + args.seed, EXPLORE_SEED + args.seed + args.explore_games - 1],
            "positions": len(positions),
            "tables": [[c.players, c.sides, w] for c, w in TABLES],
            "held_out": "seeds 0 mod 10 (validation)",
            "calibration": f"{args.calibration_games} games a table, seeds from {CALIBRATION_SEED}",
        },
        "hidden": args.hidden,
        "epochs": args.epochs,
        "validation": {"log_loss": log_loss(p, positions.y[held]), "brier": table.brier, "ece": table.ece},
    }
    net.save(args.out)
    summary = {**net.meta, "seconds": round(time.time() - start, 1), "weights": str(args.out)}
    if whole is not None:
        summary["whole"] = whole
    summary["calibration"] = list(net.calibration)
    summary["tables"] = {f"{p}/{s}": list(ab) for (p, s), ab in net.tables.items()}
    print(json.dumps(summary, indent=1))
    if not np.isfinite(table.ece):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
