"""Measure the shipped policy bot (``sequence_game.bots.policy.PolicyBot``, numpy inference)
against a bot of ``sequence_game.bots`` on paired deals: every deal is played twice, the policy
in each seat once, with the same opponent seed, so that the luck of the deal cancels out.

    .venv/bin/python examples/eval_policy_bot.py --opponent greedy --pairs 400 --seed 1

Prints the policy's win rate with a 95% Wilson interval over the games, and per seat.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: one position at a time runs
os.environ.setdefault("OMP_NUM_THREADS", "1")  # fastest on one thread, and far faster on a busy machine

import argparse
import json
import math
import random
import time

from sequence_game import GameConfig, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.policy import POLICY_WEIGHTS, PolicyBot


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(
    deal: int, policy_seat: int, policy: PolicyBot, opponent: str, bot_seed: int, max_turns: int
) -> float:
    """One two-player game; the policy's return (+1 win, -1 loss, 0 drawn or cut off)."""
    state = new_game(GameConfig(players=2), seed=deal)
    other = make_bot(opponent, seed=bot_seed)
    while not state.is_terminal() and state.turn < max_turns:
        seat = state.current_seat
        bot = policy if seat == policy_seat else other
        state.apply(bot.select_action(state.view(seat)), seat)
    return state.returns()[policy_seat] if state.is_terminal() else 0.0


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--pairs", type=int, default=400, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", default=str(POLICY_WEIGHTS))
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    policy = PolicyBot(weights=args.weights)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    results: list[list[float]] = [[], []]
    for _ in range(args.pairs):
        deal, bot_seed = rng.getrandbits(63), rng.getrandbits(63)
        for seat in (0, 1):
            results[seat].append(play(deal, seat, policy, args.opponent, bot_seed, args.max_turns))
    games = results[0] + results[1]
    wins = sum(r > 0 for r in games)
    low, high = wilson(wins, len(games))
    summary: dict[str, object] = {
        "opponent": args.opponent,
        "games": len(games),
        "win": wins / len(games),
        "draw": sum(r == 0 for r in games) / len(games),
        "win_95": [round(low, 4), round(high, 4)],
        "win_first_seat": sum(r > 0 for r in results[0]) / args.pairs,
        "win_second_seat": sum(r > 0 for r in results[1]) / args.pairs,
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"policy vs {args.opponent}: {wins}-{len(games) - wins} over {len(games)} games, win rate "
            f"{summary['win']:.3f} [{low:.3f}, {high:.3f}] (first seat {summary['win_first_seat']:.3f}, "
            f"second {summary['win_second_seat']:.3f})"
        )
    return summary


if __name__ == "__main__":
    main()
