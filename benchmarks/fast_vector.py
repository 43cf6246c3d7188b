"""Environment steps per second of the batched environments, random masked actions.

For each batch size and thread count, with and without the observation planes (masks, seats,
rewards and flags always): ``FastBatchStepper.step_arrays`` (results left in place,
no copies) with the compiled uniform masked-action sampler, for ``--seconds`` seconds after a
warm-up; then the pure engine's ``SequenceVectorEnv`` for comparison. Reports steps per second of
wall time and per CPU-second of this process, with the load average (the machine is shared).

    .venv/bin/python benchmarks/fast_vector.py --batch 1024 --threads 1 2 --seconds 5
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numba
import numpy as np

from sequence_game.env.vector import SequenceVectorEnv
from sequence_game.fast.vector import FastBatchStepper, random_masked


def fast_rate(batch: int, players: int, threads: int, seconds: float, observe: bool) -> dict[str, float]:
    numba.set_num_threads(threads)
    stepper = FastBatchStepper(batch, players=players, seed=0, observations=observe)
    stepper.reset()
    rngs = (np.arange(1, batch + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
    actions = np.zeros(batch, dtype=np.int64)
    for _ in range(20):  # warm-up
        random_masked(stepper.masks, rngs, actions)
        stepper.step_arrays(actions)
    steps = episodes = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        random_masked(stepper.masks, rngs, actions)
        stepper.step_arrays(actions)
        steps += batch
        episodes += int(stepper.terminated.sum() + stepper.truncated.sum())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "steps_per_second": round(steps / wall),
        "steps_per_cpu_second": round(steps / cpu),
        "episodes": episodes,
    }


def pure_rate(batch: int, players: int, seconds: float) -> dict[str, float]:
    env = SequenceVectorEnv(batch, players=players, seed=0)
    out = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        actions = (rng.random(out.mask.shape) * out.mask).argmax(axis=1)
        out = env.step(actions)
        steps += batch
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"steps_per_second": round(steps / wall), "steps_per_cpu_second": round(steps / cpu)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[1024])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--pure-batch", type=int, default=256)
    args = parser.parse_args()
    results = []
    for batch in args.batch:
        for threads in args.threads:
            for observe in (True, False):
                rate = fast_rate(batch, args.players, threads, args.seconds, observe)
                results.append(
                    {"engine": "fast", "batch": batch, "threads": threads, "planes": observe, **rate}
                )
                print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    if args.pure_batch:
        rate = pure_rate(args.pure_batch, args.players, args.seconds)
        results.append({"engine": "pure", "batch": args.pure_batch, "threads": 1, **rate})
    print(json.dumps({"results": results, "load_average": os.getloadavg(), "cpus": os.cpu_count()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
