"""The evaluator's calibration on held-out games (docs/evaluator.md, "Held-out calibration").

    .venv/bin/python experiments/evaluator_calibration.py --games 5000 1000 1000 --workers 2 \\
        --json experiments/results/evaluator_calibration.json

Plays fresh ``hard`` vs ``hard`` games on seeds from 10,000,000 up (training used seeds below
1,000,000), at 2 players, 4 players in 2 teams and 3 players (``--games`` each, in that order),
judges every kept position with the shipped evaluator, and prints for each table:

- the reliability table by decile of predicted chance, with 95% intervals clustered by game,
  the expected calibration error (ECE) and the Brier score;
- the Brier score by third of the game (turn / the game's length);
- in two-sided games, the two sides' chances at the same moment (the mover's and one seat of
  the other side, both from their own views): the mean of their sum and of its distance from 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from sequence_game.config import GameConfig
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.selfplay import Positions, chunks, generate
from sequence_game.evaluator.training import reliability

TABLES = (GameConfig(players=2), GameConfig(players=4, teams=2), GameConfig(players=3))
FIRST_SEED = 10_000_000


def _chunk(players: int, teams: int, seeds: range) -> Positions:
    return generate(seeds, tables=[(GameConfig(players=players, teams=teams), 1.0)])


def positions_of(config: GameConfig, games: int, start: int, workers: int) -> Positions:
    parts = list(chunks(start, games, 250))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        done = pool.map(_chunk, [config.players] * len(parts), [config.sides] * len(parts), parts)
        return Positions.concat(list(done))


def report(config: GameConfig, pos: Positions, judge: Evaluator) -> dict[str, object]:
    p = judge.chances_of_features(pos.x)
    table = reliability(p, pos.y, pos.game)
    stage = np.minimum(2, (3 * pos.turn.astype(np.float64) / np.maximum(pos.length, 1)).astype(int))
    thirds = [float(np.mean((p[stage == s] - pos.y[stage == s]) ** 2)) for s in range(3)]
    out: dict[str, object] = {
        "players": config.players,
        "sides": config.sides,
        **table.as_dict(),
        "brier_by_third": thirds,
        "max_decile_gap": max(abs(b["predicted"] - b["actual"]) for b in table.bins),
    }
    if config.sides == 2:
        # positions come in pairs (mover, a seat of the other side) at each turn
        movers = np.flatnonzero(pos.mover)
        pairs = movers[(movers + 1 < len(pos.mover)) & ~pos.mover[np.minimum(movers + 1, len(pos.mover) - 1)]]
        sums = p[pairs] + p[pairs + 1]
        out["symmetry"] = {"mean_sum": float(sums.mean()), "mean_abs_gap": float(np.abs(sums - 1).mean())}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs=3, default=[5000, 1000, 1000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    judge = Evaluator.load(args.weights)
    results = []
    start = FIRST_SEED
    for config, games in zip(TABLES, args.games, strict=True):
        pos = positions_of(config, games, start, args.workers)
        start += 1_000_000
        result = report(config, pos, judge)
        results.append(result)
        print(f"== {config.players} players, {config.sides} sides: {games} games, {len(pos)} positions")
        print(f"ECE {result['ece']:.4f}  Brier {result['brier']:.4f}  by third {result['brier_by_third']}")
        for b in result["bins"]:  # type: ignore[attr-defined]
            print(
                f"  {b['low']:.1f}-{b['high']:.1f}: {b['positions']:7d} positions  predicted {b['predicted']:.3f}"
                f"  actual {b['actual']:.3f} [{b['actual_low']:.3f}, {b['actual_high']:.3f}]"
            )
        if "symmetry" in result:
            print(f"  symmetry: {result['symmetry']}")
        sys.stdout.flush()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"evaluator": judge.version, "tables": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
