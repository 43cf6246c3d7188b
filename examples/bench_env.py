"""Steps per second of the environments, uniformly random legal actions in every seat.

Compares the plain PettingZoo AEC environment (wrapped as ``env()`` returns it, and raw) with the
batch stepper at several batch sizes. A *step* is one action of one seat in one game; every step
includes building that seat's observation planes and action mask.

    .venv/bin/python examples/bench_env.py                 # two players, about a minute
    .venv/bin/python examples/bench_env.py --players 4 --steps 20000 --json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.env import SequenceVectorEnv, env, raw_env

Clock = Callable[[], float]


def bench_engine(players: int, teams: int | None, steps: int, seed: int, clock: Clock) -> float:
    """The engine alone, for scale: ``legal_actions()`` and ``apply()``, no observation at all."""
    config = GameConfig(players=players, teams=teams)
    rng = random.Random(seed)
    state = new_game(config, rng=rng)
    start = clock()
    for _ in range(steps):
        if state.is_terminal():
            state = new_game(config, rng=rng)
        acts = state.legal_actions()
        state.apply(acts[int(rng.random() * len(acts))])
    return steps / (clock() - start)


def bench_aec(players: int, teams: int | None, steps: int, seed: int, wrapped: bool, clock: Clock) -> float:
    """Steps per second of the AEC loop (``last()`` then ``step()``), games restarted as they end."""
    aec = env(players=players, teams=teams) if wrapped else raw_env(players=players, teams=teams)
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    done = 0
    start = clock()
    while done < steps:
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.reset()
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return done / (clock() - start)


def bench_vector(
    players: int, teams: int | None, steps: int, seed: int, num_envs: int, clock: Clock
) -> float:
    """Steps per second of the batch stepper (``num_envs`` steps per call), actions drawn in numpy."""
    venv = SequenceVectorEnv(num_envs, players, teams, seed=seed)
    rng = np.random.default_rng(seed)
    batch = venv.reset()
    calls = max(1, steps // num_envs)
    start = clock()
    for _ in range(calls):
        actions = np.argmax(rng.random(batch.mask.shape) * batch.mask, axis=1)  # uniform legal
        batch = venv.step(actions)
    return calls * num_envs / (clock() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, default=None)
    parser.add_argument("--steps", type=int, default=50_000, help="steps per measurement")
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 16, 64, 256], help="batch sizes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of this many runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--cpu-time", action="store_true", help="time with CPU time, not wall time")
    args = parser.parse_args(argv)
    # CPU time is steadier on a machine shared with other jobs (the stepper is single-threaded).
    clock: Clock = time.process_time if args.cpu_time else time.perf_counter
    results: dict[str, Any] = {"players": args.players, "teams": args.teams, "steps": args.steps}
    results["clock"] = "cpu" if args.cpu_time else "wall"
    p, t, steps, seed = args.players, args.teams, args.steps, args.seed
    runs: dict[str, Callable[[], float]] = {
        "engine_only": lambda: bench_engine(p, t, steps, seed, clock),
        "aec_env": lambda: bench_aec(p, t, steps // 2, seed, True, clock),
        "aec_raw_env": lambda: bench_aec(p, t, steps // 2, seed, False, clock),
    }
    for n in args.batch:
        runs[f"vector_{n}"] = lambda n=n: bench_vector(p, t, steps, seed, n, clock)
    for key, run in runs.items():  # best of several: other load on the machine only slows a run
        results[key] = max(run() for _ in range(max(1, args.repeat)))
    if args.json:
        print(json.dumps(results))
        return
    print(f"players={args.players} teams={args.teams}: steps per second (one core)")
    for key, value in results.items():
        if key.startswith(("engine", "aec", "vector")):
            print(f"  {key:<14} {value:>10,.0f}")


if __name__ == "__main__":
    main()
