"""Simulations per second of search rollouts, before (pure engine) and after (fast engine).

Positions: ``--positions`` two-player games played ``--turns`` random turns in. Measured, each per
CPU-second of this process:

- ``flat_pure``: flat Monte Carlo, one ``state.copy().playout(rng)`` per simulation (the pure
  engine's inlined playout, what ``RolloutEvaluator`` runs);
- ``flat_fast_each``: the same through :class:`FastRolloutEvaluator` (convert the state, play one
  compiled playout) per simulation, as ``MCTSBot`` calls an evaluator;
- ``flat_fast_batched``: :func:`rollout_outcomes`, converting once and playing ``--sims``
  playouts in one compiled call (what a flat search can do);
- ``ismcts_pure`` / ``ismcts_fast``: ``MCTSBot(paired=False)`` choosing a move with a budget of
  ``--mcts-sims`` simulations, with ``RolloutEvaluator()`` then ``FastRolloutEvaluator()``
  (tree, sampled worlds and selection stay in Python).

    nice -n 10 .venv/bin/python benchmarks/fast_search.py --positions 10 --sims 200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

from sequence_game import GameConfig, new_game
from sequence_game.bots.base import Limit
from sequence_game.bots.mcts import MCTSBot, RolloutEvaluator
from sequence_game.fast.compile import ensure_compiled
from sequence_game.fast.rollout import FastRolloutEvaluator, rollout_outcomes
from sequence_game.state import GameState


def positions(count: int, turns: int) -> list[GameState]:
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        state = new_game(GameConfig(players=2), seed=seed)
        while state.turn < turns and not state.is_terminal():
            state.apply(state.random_action(rng))
        if not state.is_terminal():
            out.append(state)
    return out


def rate(sims: int, work: Callable[[], None]) -> float:
    start = time.process_time()
    work()
    return sims / max(time.process_time() - start, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--sims", type=int, default=200, help="flat Monte Carlo simulations per position")
    parser.add_argument("--mcts-sims", type=int, default=300, help="MCTSBot budget per move")
    parser.add_argument("--rounds", type=int, default=3, help="alternated IS-MCTS rounds (median reported)")
    args = parser.parse_args()
    for group in ("engine", "rollout"):
        ensure_compiled(group)
    states = positions(args.positions, args.turns)
    rng = random.Random(0)
    fast_eval = FastRolloutEvaluator()
    n = len(states) * args.sims

    def flat_pure() -> None:
        for state in states:
            for _ in range(args.sims):
                world = state.copy()
                world.playout(rng, world.turn + 2000)

    def flat_fast_each() -> None:
        for state in states:
            for _ in range(args.sims):
                fast_eval.evaluate(state, rng)

    def flat_fast_batched() -> None:
        for i, state in enumerate(states):
            rollout_outcomes(state, args.sims, seed=i)

    results: dict[str, object] = {
        "positions": len(states),
        "flat_pure": round(rate(n, flat_pure)),
        "flat_fast_each": round(rate(n, flat_fast_each)),
        "flat_fast_batched": round(rate(n, flat_fast_batched)),
    }
    rounds: dict[str, list[float]] = {"ismcts_pure": [], "ismcts_fast": []}
    for _ in range(args.rounds):  # alternated, so that a change of load hits both alike
        for name, evaluator in (("ismcts_pure", RolloutEvaluator()), ("ismcts_fast", FastRolloutEvaluator())):
            bot = MCTSBot(seed=1, evaluator=evaluator, paired=False)
            done = 0
            start = time.process_time()
            for state in states:
                bot.select_action(state.view(state.current_seat), Limit(simulations=args.mcts_sims))
                done += bot.last_simulations
            rounds[name].append(done / max(time.process_time() - start, 1e-9))
    for name, rates in rounds.items():
        results[name] = round(statistics.median(rates))
        results[name + "_rounds"] = [round(r) for r in rates]
    ratios = [f / p for f, p in zip(rounds["ismcts_fast"], rounds["ismcts_pure"], strict=True)]
    results["speedup_ismcts_rounds"] = [round(r, 2) for r in ratios]
    results["speedup_flat_each"] = round(results["flat_fast_each"] / results["flat_pure"], 1)  # type: ignore[operator]
    results["speedup_flat_batched"] = round(results["flat_fast_batched"] / results["flat_pure"], 1)  # type: ignore[operator]
    results["speedup_ismcts"] = round(statistics.median(ratios), 2)
    results["load_average"] = os.getloadavg()
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
