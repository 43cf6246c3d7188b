#!/usr/bin/env python3
"""Why perfect-information Monte Carlo does (not) gain over the heuristic: what the ``pimc`` bot's
rollouts say about the heuristic's play, on positions from heuristic-against-heuristic games.

For each position (the seat to move, 2 players), the ``--width`` best plays of the heuristic are
rolled out (compiled, policy ``--policy``) in ``--worlds`` worlds sampled from the view by the
bot's own sampler, and a play is chosen as the bot chooses (best mean, ``--confidence``
standard errors over the heuristic's). Its gain over the heuristic's play (the mean paired
difference / 2: win probability a move) is then measured on other worlds, so that choosing on
noise does not inflate it: on as many other sampled worlds (what the bot believes), and on
worlds with the TRUE hands and the draw pile shuffled (the ground truth of a choice made without
seeing the draws). Last, the gain available: a choice made on true-hands worlds, measured on
others.

    nice -n 10 .venv/bin/python experiments/pimc_diagnose.py --positions 60 --worlds 200
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD
from sequence_game.bots import make_bot
from sequence_game.bots.base import forced_action
from sequence_game.bots.heuristic import ONE_EYED_SPEND, TWO_EYED_SPEND, WIN
from sequence_game.bots.mcts import Determinizer, _play_scores, _spent
from sequence_game.bots.pimc import PimcBot
from sequence_game.fast.pimc import candidate_values, world_rows
from sequence_game.views import PlayerView


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--worlds", type=int, default=200, help="worlds of each kind per position")
    p.add_argument("--width", type=int, default=6)
    p.add_argument("--policy", type=int, default=1, help="0 random, 1 heuristic, 2 lite, 3 inferring")
    p.add_argument("--confidence", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    n = args.worlds
    gains: dict[str, list[float]] = {"model": [], "truth": [], "ideal": []}
    changed = {"model": 0, "ideal": 0}
    positions = game = 0
    while positions < args.positions:
        state = new_game(GameConfig(players=2), seed=args.seed * 1000 + game)
        bots = [make_bot("heuristic", seed=game * 2 + s) for s in range(2)]
        game += 1
        while not state.is_terminal() and positions < args.positions:
            seat = state.current_seat
            view = state.view(seat)
            action = bots[seat].select_action(view)
            if forced_action(view) is None and rng.random() < 0.3:
                acts = [a for a in view.legal_actions if a < DEAD]
                scores = _play_scores(view, acts)
                costs = (TWO_EYED_SPEND, ONE_EYED_SPEND)
                order = sorted(acts, key=lambda a: -(scores[a] - _spent(a, costs)))
                cands = order[: args.width]
                if len(cands) > 1 and scores[order[0]] - _spent(order[0], costs) < WIN / 2:
                    positions += 1

                    side, policy = view.side, args.policy
                    sampled = _values(_sample(view, rng, 2 * n), rng, cands, side, policy)
                    truth = _values(_true_hands(state, rng, 2 * n), rng, cands, side, policy)
                    pick = PimcBot._choose([row[:n] for row in sampled], args.confidence)
                    changed["model"] += pick != 0
                    gains["model"].append(_gain([row[n:] for row in sampled], pick))
                    gains["truth"].append(_gain(truth, pick))
                    ideal = PimcBot._choose([row[:n] for row in truth], args.confidence)
                    changed["ideal"] += ideal != 0
                    gains["ideal"].append(_gain([row[n:] for row in truth], ideal))
            state.apply(action, seat)
    print(
        f"{positions} positions, width {args.width}, policy {args.policy}, confidence {args.confidence}; "
        "gains in points of win probability a move over the heuristic's play"
    )
    for key, what in (
        ("model", f"the bot's choice ({n} sampled worlds), measured on {n} other sampled worlds"),
        ("truth", f"the same choice, measured on {2 * n} worlds with the TRUE hands and a shuffled pile"),
        ("ideal", f"a choice from {n} true-hands worlds, measured on {n} others"),
    ):
        g = gains[key]
        mean = 100 * statistics.fmean(g)
        se = 100 * statistics.stdev(g) / math.sqrt(len(g))
        moved = changed["ideal" if key == "ideal" else "model"]
        print(
            f"  {what}: differs in {100 * moved / positions:.0f}% of positions, gain {mean:+.2f} +- {se:.2f}"
        )
    return 0


def _values(
    worlds: list[GameState], rng: random.Random, cands: list[int], side: int, policy: int
) -> list[list[float]]:
    """Per candidate, its rollout value in each world (one random stream a world)."""
    seeds = [rng.getrandbits(63) for _ in worlds]
    out = candidate_values(world_rows(worlds), seeds, cands, side, policy)
    return [[float(x) for x in row] for row in out]


def _gain(values: list[list[float]], pick: int) -> float:
    """The mean paired difference of ``pick`` over the heuristic's play, as win probability."""
    return statistics.fmean(b - a for a, b in zip(values[0], values[pick], strict=True)) / 2


def _true_hands(state: GameState, rng: random.Random, n: int) -> list[GameState]:
    """``n`` copies of the true state with the draw pile shuffled: what the player to move would
    face if it knew every hand but not the order of the draws (the ground truth of its choice)."""
    worlds = []
    for _ in range(n):
        world = state.copy()
        rng.shuffle(world._deck)
        worlds.append(world)
    return worlds


def _sample(view: PlayerView, rng: random.Random, n: int) -> list[GameState]:
    """``n`` worlds from the bot's own sampler (with what the other seat's plays showed)."""
    sampler = Determinizer(view, rng, True)
    return [sampler.sample() for _ in range(n)]


if __name__ == "__main__":
    sys.exit(main())
