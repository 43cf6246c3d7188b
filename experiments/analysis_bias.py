"""How far each side's own-view winning chance (``sequence_game.analysis``) is from consistent.

Usage: python experiments/analysis_bias.py [--bots heuristic,heuristic] [--seed N] [--samples N] [--inference]

Plays a 2-player game between the bots, then at every 10th action estimates side 0's chance from
seat 0's view and side 1's chance from seat 1's view, each over ``--samples`` sampled worlds
played out by the greedy policy, and prints both and their sum. Calibrated estimates would sum to
about 1 on average; sampled worlds deal the other hand uniformly from the unseen cards, while real
hands are what their holders chose to keep, and the sum shows how much that costs.
``--inference`` samples the worlds as the search bot does with what the other seats' last plays
showed (``bots.mcts.Determinizer(inference=True)``) instead, to compare.
"""

from __future__ import annotations

import argparse
import random

from sequence_game import GameConfig, new_game
from sequence_game.analysis.estimate import chance
from sequence_game.bots import make_bot
from sequence_game.bots.mcts import Determinizer
from sequence_game.worlds import sample_world


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="heuristic,heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--inference", action="store_true", help="sample as the search bot does")
    args = parser.parse_args()
    state = new_game(GameConfig(players=2), seed=args.seed)
    bots = [make_bot(name, seed=i) for i, name in enumerate(args.bots.split(","))]
    positions = []
    while not state.is_terminal():
        if state.turn % 10 == 1:
            positions.append(state.copy())
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    rng = random.Random(0)
    sums = []
    for position in positions:
        own = []
        for seat in (0, 1):
            view = position.view(seat)
            sample = Determinizer(view, rng, inference=True).sample if args.inference else None
            total = sum(
                chance(sample() if sample else sample_world(view, rng), view.side, random.Random(k))
                for k in range(args.samples)
            )
            own.append(total / args.samples)
        sums.append(own[0] + own[1])
        print(
            f"turn {position.turn:3d}: side 0 (own view) {own[0]:.2f}  side 1 (own view) {own[1]:.2f}  sum {sums[-1]:.2f}"
        )
    outcome = state.outcome()
    print(
        f"{args.bots} seed {args.seed}: winner {outcome.winner if outcome else None}; mean sum {sum(sums) / len(sums):.2f}"
    )


if __name__ == "__main__":
    main()
