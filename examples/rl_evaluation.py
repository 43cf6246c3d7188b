"""The evaluation the training examples share: the policy's win rate against `random`, `greedy`
and `heuristic` on paired deals (each deal twice, the seats swapped), with 95% Wilson intervals.

Imported by ``rllib_selfplay.py`` and ``sb3_maskable_ppo.py`` from the folder they stand in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from sequence_game.bots.ratings import wilson_interval
from sequence_game.env import SequenceEnv

OPPONENTS = ("random", "greedy", "heuristic")


def play_game(
    policy: Callable[[Mapping[str, np.ndarray]], int], env: SequenceEnv, deal: int
) -> tuple[float, int]:
    """One game of the policy in ``env.seat`` against the env's bot: its return and its illegal moves
    (an illegal one ends the game as a loss, so it shows in the win rate too)."""
    obs, _ = env.reset(seed=deal)
    illegal = 0
    while True:
        action = policy(obs)
        illegal += int(not obs["action_mask"][action])
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return float(reward), illegal


def evaluate(
    policy: Callable[[Mapping[str, np.ndarray]], int], games: int, seed: int, max_turns: int
) -> dict[str, dict[str, Any]]:
    """Win rates against each of ``OPPONENTS`` over ``games`` games (rounded up to paired deals):
    the same deals at every evaluation, so the curve compares like with like."""
    pairs = max(1, math.ceil(games / 2))
    rng = random.Random(seed)
    deals = [rng.getrandbits(63) for _ in range(pairs)]
    out: dict[str, dict[str, Any]] = {}
    for name in OPPONENTS:
        envs = [SequenceEnv(players=2, seat=s, opponents=name, max_turns=max_turns) for s in (0, 1)]
        returns, illegal = [], 0
        for deal in deals:
            for env in envs:  # the same seed deals the same cards and seeds the same bot
                ret, bad = play_game(policy, env, deal)
                returns.append(ret)
                illegal += bad
        wins = sum(r > 0 for r in returns)
        low, high = wilson_interval(wins, len(returns))
        out[name] = {
            "games": len(returns),
            "wins": wins,
            "draws": sum(r == 0 for r in returns),
            "losses": sum(r < 0 for r in returns),
            "win_rate": wins / len(returns),
            "win_95": [round(low, 4), round(high, 4)],
            "illegal_actions": illegal,
        }
    return out
