"""What a leaf value costs against a full rollout, on the same positions, CPU time in one run.

The expert's search can stop its rollouts after ``h`` turns and let the evaluator judge where
each stands (``pimc(leaf=h)``). Whether that pays depends on the cost of a judged end against a
rollout to the end of the game. On the decisions of ``hard`` against ``hard`` games (the same
positions and candidates as ``experiments/leaf_values.py``), each step is timed in CPU seconds
per candidate and world:

- **full**: the expert's rollouts to the end (``fast.pimc.candidate_values``, policy 3);
- **cut**: the same rollouts stopped after ``h`` turns (``fast.pimc.cut_rollouts``);
- **judged, compiled**: the evaluator's chances of those ends, the features read from the rows by
  compiled code (``evaluator.leaves.leaf_values``);
- **judged, Python**: the same through a view of each row (``python_leaf_values``, the first form).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/leaf_speed.py --games 6 --every 6 \\
        --worlds 64 --horizon 6 --seed 31000000 --json experiments/results/leaf_speed.json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from leaf_values import POLICY, expert_setup, positions

from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.pimc import PimcBot
from sequence_game.evaluator.leaves import leaf_values, python_leaf_values
from sequence_game.evaluator.model import Evaluator
from sequence_game.fast.pimc import candidate_values, cut_rollouts, world_rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--horizon", type=int, default=6)
    ap.add_argument("--seed", type=int, default=31_000_000)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    judge = Evaluator.load()
    bot = make_bot(EXPERT, seed=args.seed)
    assert isinstance(bot, PimcBot)
    rng = random.Random(args.seed)
    cpu = dict.fromkeys(("full", "cut", "judged_compiled", "judged_python"), 0.0)
    pairs = used = 0
    warm = True  # the first position compiles the kernels: timed again below, not counted
    for view in positions(args.games, args.every, args.seed):
        setup = expert_setup(bot, view)
        if setup is None:
            continue
        cands, source = setup
        rows = world_rows(source.sample_batch(args.worlds))
        seeds = [rng.getrandbits(63) for _ in range(args.worlds)]
        for _ in range(2 if warm else 1):
            t0 = time.process_time()
            candidate_values(rows, seeds, cands, view.side, POLICY)
            t1 = time.process_time()
            ends = cut_rollouts(rows, seeds, cands, view.side, args.horizon, POLICY)
            t2 = time.process_time()
            leaf_values(judge, view, rows, ends)
            t3 = time.process_time()
            python_leaf_values(judge, view, rows, ends)
            t4 = time.process_time()
        warm = False
        for key, seconds in zip(cpu, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            cpu[key] += seconds
        pairs += len(cands) * args.worlds
        used += 1
    ms = {key: 1000 * seconds / pairs for key, seconds in cpu.items()}
    report = {
        "positions": used,
        "candidate_worlds": pairs,
        "cpu_ms_per_candidate_world": ms,
        "leaf_compiled_over_full": (ms["cut"] + ms["judged_compiled"]) / ms["full"],
        "leaf_python_over_full": (ms["cut"] + ms["judged_python"]) / ms["full"],
        "args": vars(args) | {"json": str(args.json)},
    }
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
