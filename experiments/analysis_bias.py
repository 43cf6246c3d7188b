"""How far the two sides' own-view winning chances (the analysis' evaluator) are from summing to 1.

Usage: python experiments/analysis_bias.py [--bots heuristic,heuristic] [--seed N] [--games N]

Plays ``--games`` 2-player games between the bots (deal seeds ``--seed``, ``--seed + 1``, ...) and,
after every action, asks the evaluator (``sequence_game.evaluator``, what ``sequence analyze``
judges with) for side 0's chance from seat 0's view and side 1's from seat 1's view. Consistent
chances sum to about 1; prints the mean sum and the mean absolute distance from 1 per game and
over all positions. (The sampled rollouts the evaluator replaced summed to 0.75 on average in a
72-action game, ``docs/analysis.md``.)
"""

from __future__ import annotations

import argparse
import statistics

from sequence_game import GameConfig, new_game
from sequence_game.bots import make_bot
from sequence_game.evaluator.model import Evaluator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="heuristic,heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    judge = Evaluator.load()
    sums: list[float] = []
    for seed in range(args.seed, args.seed + args.games):
        state = new_game(GameConfig(players=2), seed=seed)
        bots = [make_bot(name, seed=seed + i) for i, name in enumerate(args.bots.split(","))]
        game: list[float] = []
        while not state.is_terminal():
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
            if not state.is_terminal():
                game.append(float(judge.chances([state.view(0), state.view(1)]).sum()))
        sums += game
        print(
            f"seed {seed}: {len(game)} positions, mean sum {statistics.fmean(game):.3f}, "
            f"mean |sum - 1| {statistics.fmean(abs(s - 1) for s in game):.3f}"
        )
    print(
        f"{args.bots}, {args.games} games, {len(sums)} positions: mean sum {statistics.fmean(sums):.3f}, "
        f"mean |sum - 1| {statistics.fmean(abs(s - 1) for s in sums):.3f}"
    )


if __name__ == "__main__":
    main()
