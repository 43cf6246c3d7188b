"""The whole-position judge fitted to TD(lambda) targets instead of the games' results.

    python scripts/train_evaluator.py --part whole          # the games, cached in data/ (and the shipped judge)
    python experiments/whole_td.py --lam 0.7 --out whole_td07.npz
    python experiments/skill_weighted.py play --whole whole_td07.npz --dump games_1000.jsonl --out td_1000.jsonl --workers 2

The shipped judge learns each position's chance from how its game ended. A position's target can
instead mix the judge's own chance at the next position with the result (the lambda-return:
``G_t = (1 - lambda) V(s_t+1) + lambda G_t+1``, ``G`` of the last kept position its result; ``V`` the
shipped judge's symmetrised chance, from the same seat's side): less noise in the targets, and a
judge more consistent from one move to the next, which is what the luck-adjusted result's spread
is made of (docs/analysis.md, "Each game's uncertainty"). The rows are the cached chunks of
``scripts/train_evaluator.py --part whole`` (each game's positions in turn order, one row each way);
a row's next one is the same game's next turn, from the other seat unless the same seat moved
twice (a dead card's exchange: then the results agree). Drawn games keep their results as targets.
Fitted as the shipped judge is (64 and 64 units, 8 epochs, seed 0, the games whose seed is 0 mod
10 held out) and scored against the held-out results.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")

import numpy as np

from sequence_game.evaluator.training import fit, log_loss
from sequence_game.evaluator.whole import WholeJudge, WholePositions


def lambda_targets(rows: WholePositions, judge: WholeJudge, lam: float) -> np.ndarray:
    """The lambda-returns of one chunk's rows (its first half: the mover's row; the second half
    the same positions swapped, whose targets are one less these)."""
    n = len(rows.y) // 2
    mover = rows.x[:n]
    half = mover.shape[1] // 2
    chance = judge.chances(mover[:, :half], mover[:, half:])
    result = rows.y[:n].astype(np.float64)
    game = rows.game[:n]
    target = result.copy()
    for i in range(n - 2, -1, -1):
        if game[i + 1] != game[i] or result[i] == 0.5:
            continue
        same = result[i + 1] == result[i]  # the same seat moved again
        nxt = chance[i + 1] if same else 1.0 - chance[i + 1]
        later = target[i + 1] if same else 1.0 - target[i + 1]
        target[i] = (1 - lam) * nxt + lam * later
    return np.concatenate([target, 1.0 - target]).astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("data"), help="train_evaluator.py's cache")
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    judge = WholeJudge.load()
    paths = sorted(args.data.glob("whole-*.npz"))
    if not paths:
        raise SystemExit(f"no whole-*.npz chunks in {args.data}: run scripts/train_evaluator.py --part whole")
    started = time.time()
    chunks = [WholePositions.load(p) for p in paths]
    x = np.concatenate([c.x for c in chunks])
    y = np.concatenate([lambda_targets(c, judge, args.lam) for c in chunks])
    results = np.concatenate([c.y for c in chunks])
    held = np.concatenate([c.game for c in chunks]) % 10 == 0
    net = fit(
        x[~held], y[~held], hidden=(64, 64), epochs=8, seed=0, log=lambda line: print(line, file=sys.stderr)
    )
    p = net.predict(x[held])
    net.meta = {**judge.network.meta, "version": f"td{args.lam}"}
    net.save(args.out)
    print(
        json.dumps(
            {
                "lambda": args.lam,
                "held_out_log_loss": round(log_loss(p, results[held]), 4),
                "held_out_brier": round(float(np.mean((p - results[held]) ** 2)), 4),
                "seconds": round(time.time() - started),
            }
        )
    )


if __name__ == "__main__":
    main()
