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

About 10 ms of CPU a game for the self-play and a few minutes for the fit on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from sequence_game.config import GameConfig
from sequence_game.evaluator.model import ASSUMES, WEIGHTS, Network
from sequence_game.evaluator.selfplay import TABLES, Positions, chunks, generate
from sequence_game.evaluator.training import fit, log_loss, platt, reliability
from sequence_game.features.position import FEATURE_NAMES

CHUNK = 500
VERSION = "2"
"""The weights' version (2: explored games added to the data)."""
DATA_VERSION = "1"
"""The self-play chunks' format (unchanged by version 2: its games are those of version 1)."""
CALIBRATION_SEED = 5_000_000
EXPLORE_SEED = 20_000_000


def _chunk(path: str, seeds: range, explore: bool) -> str:
    generate(seeds, explore=explore).save(path)
    return path


def self_play(data: Path, start: int, games: int, workers: int, explore: bool = False) -> Positions:
    data.mkdir(parents=True, exist_ok=True)
    todo = []
    paths = []
    kind = "explore" if explore else "selfplay"
    for seeds in chunks(start, games, CHUNK):
        path = data / f"{kind}-v{DATA_VERSION}-{seeds.start}-{seeds.stop}.npz"
        paths.append(path)
        if not path.exists():
            todo.append((str(path), seeds, explore))
    t = time.time()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for i, done in enumerate(pool.map(_chunk, *zip(*todo, strict=True)) if todo else []):
            print(f"self-play: {i + 1}/{len(todo)} chunks ({done}), {time.time() - t:.0f} s", file=sys.stderr)
    return Positions.concat([Positions.load(str(p)) for p in paths])


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
    args = parser.parse_args()
    start = time.time()
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
        net = fit(
            positions.x[~held],
            positions.y[~held],
            hidden=args.hidden,
            epochs=args.epochs,
            seed=args.seed,
            log=lambda line: print(line, file=sys.stderr),
        )
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
    summary["calibration"] = list(net.calibration)
    summary["tables"] = {f"{p}/{s}": list(ab) for (p, s), ab in net.tables.items()}
    print(json.dumps(summary, indent=1))
    if not np.isfinite(table.ece):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
