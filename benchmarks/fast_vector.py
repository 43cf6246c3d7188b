"""Environment steps per second of the batched environments, random masked actions.

For each batch size, thread count and kind of planes (``--planes``: ``uint8``, ``float32`` or
``none``, masks, seats, rewards and flags always): ``FastBatchStepper.step_arrays`` (results
left in place, no copies) with the compiled uniform masked-action sampler, for ``--seconds``
seconds after a warm-up, repeated ``--repeat`` times (the best kept: other load on a shared
machine only ever slows a run down); then ``FastVectorEnv.step`` (Gymnasium's API, uint8 planes,
``copy=False``) and the pure engine's ``SequenceVectorEnv`` for comparison. Reports steps per
second of wall time and per CPU-second of this process, with the load average.

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

from sequence_game.env.fast_vector import FastBatchStepper, FastVectorEnv
from sequence_game.env.vector import SequenceVectorEnv
from sequence_game.fast.vector import random_masked

PLANES = {"uint8": np.uint8, "float32": np.float32, "none": np.uint8}


def fast_rate(batch: int, players: int, threads: int, seconds: float, planes: str) -> dict[str, float]:
    numba.set_num_threads(threads)
    stepper = FastBatchStepper(
        batch, players=players, seed=0, observations=planes != "none", obs_dtype=PLANES[planes]
    )
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


def gymnasium_rate(batch: int, players: int, threads: int, seconds: float) -> dict[str, float]:
    """``FastVectorEnv.step`` as a Gymnasium user calls it (uint8 planes, no copies)."""
    numba.set_num_threads(threads)
    env = FastVectorEnv(batch, players=players, seed=0, copy=False)
    obs, _ = env.reset(seed=0)
    rngs = (np.arange(1, batch + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
    actions = np.zeros(batch, dtype=np.int64)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        random_masked(obs["action_mask"], rngs, actions)
        obs, *_ = env.step(actions)
        steps += batch
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"steps_per_second": round(steps / wall), "steps_per_cpu_second": round(steps / cpu)}


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    top = max(runs, key=lambda r: r["steps_per_second"])
    return {**top, "steps_per_cpu_second": max(r["steps_per_cpu_second"] for r in runs)}


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
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, the best kept")
    parser.add_argument("--planes", nargs="+", choices=sorted(PLANES), default=["uint8", "float32", "none"])
    parser.add_argument("--pure-batch", type=int, default=256)
    parser.add_argument("--no-gymnasium", action="store_true")
    args = parser.parse_args()
    results = []
    load_before = os.getloadavg()
    for batch in args.batch:
        for threads in args.threads:
            for planes in args.planes:
                rate = best(
                    [
                        fast_rate(batch, args.players, threads, args.seconds, planes)
                        for _ in range(args.repeat)
                    ]
                )
                results.append(
                    {"engine": "fast", "batch": batch, "threads": threads, "planes": planes, **rate}
                )
                print(json.dumps(results[-1]), file=sys.stderr, flush=True)
            if not args.no_gymnasium:
                runs = [
                    gymnasium_rate(batch, args.players, threads, args.seconds) for _ in range(args.repeat)
                ]
                results.append(
                    {
                        "engine": "FastVectorEnv",
                        "batch": batch,
                        "threads": threads,
                        "planes": "uint8",
                        **best(runs),
                    }
                )
                print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    if args.pure_batch:
        rate = pure_rate(args.pure_batch, args.players, args.seconds)
        results.append({"engine": "pure", "batch": args.pure_batch, "threads": 1, **rate})
    summary = {
        "results": results,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "cpus": os.cpu_count(),
        "threading_layer": numba.threading_layer(),  # the threads' runtime (omp, tbb or workqueue)
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
