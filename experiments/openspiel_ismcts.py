#!/usr/bin/env python3
"""OpenSpiel's ISMCTS on the OpenSpiel game (``python_sequence``) against the project's ``hard`` bot
(``heuristic``), on paired deals: every deal is played twice with the sides swapped, and the
win rate of ISMCTS is given with a 95% Wilson interval (a draw counts half).

ISMCTS is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with the game's ``RolloutEvaluator``
(the engine's random playouts) and its seeded resampler. Its budget is set per move in
simulations so that its CPU time a move matches ``hard``'s (``--seconds match``, the default: the
running mean of ``hard``'s moves so far, and of ISMCTS's time a simulation), or a fixed number of
seconds (``--seconds 0.1``). Both sides' mean CPU time a move is printed. Chance nodes follow a
shuffled deck per deal (the same for both games of a pair) until the first reshuffle, then a
seeded generator. One process, one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/openspiel_ismcts.py --games 20 --seed 1
    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/openspiel_ismcts.py --games 20 --seed 1 --players 4
    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/openspiel_ismcts.py --games 20 --seed 1 --seconds 0.1

(the three runs of docs/environment.md, "OpenSpiel"; ``--opponent easy`` plays another bot).

Needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped]

from sequence_game.bots import make_bot
from sequence_game.bots.ratings import wilson_interval
from sequence_game.env.openspiel_game import GAME_NAME, RolloutEvaluator, resampler
from sequence_game.state.deal import shuffled_deck


class Chance:
    """Chance outcomes from one shuffled deck (the deal's), then from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.order = shuffled_deck(random.Random(seed))
        self.at = 0
        self.rng = random.Random(seed + 1)

    def pick(self, state: Any) -> int:
        outcomes = dict(state.chance_outcomes())
        while self.at < len(self.order):
            card = self.order[self.at]
            self.at += 1
            if card in outcomes:  # always, until the pile first runs out
                return card
        cards = sorted(outcomes)
        return int(self.rng.choices(cards, [outcomes[c] for c in cards])[0])


class Ismcts:
    """ISMCTS with a budget in simulations, sized a move to a target CPU time."""

    def __init__(self, game: Any, args: argparse.Namespace, seed: int) -> None:
        self.game, self.uct_c, self.seconds = game, args.uct_c, args.seconds
        self.evaluator = RolloutEvaluator(args.rollouts, seed=seed)
        self.resample = resampler(seed)
        self.random = np.random.RandomState(seed)
        self.spent = self.sims = 0.0
        self.times: list[float] = []
        self.budgets: list[int] = []

    def step(self, state: Any, target: float) -> int:
        per_sim = self.spent / self.sims if self.sims else 0.002
        budget = max(2, round(target / per_sim))  # its first simulation only expands the root
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, self.uct_c, budget, random_state=self.random)
        bot.set_resampler(self.resample)
        start = time.process_time()
        action = int(bot.step(state))
        used = time.process_time() - start
        if len(state.legal_actions()) > 1:  # a single legal action is answered without a search
            self.spent, self.sims = self.spent + used, self.sims + budget
        self.times.append(used)
        self.budgets.append(budget)
        return action


def play(
    game: Any, deal_seed: int, ismcts_side: int, searcher: Ismcts, opponent: str, hard_times: list[float]
) -> int:
    """One game; returns +1, 0 or -1 for ISMCTS's side. ``hard_times`` gets the opponent's move times."""
    sides, players = game.config.sides, game.num_players()
    hard = {
        s: make_bot(opponent, seed=deal_seed * 100 + s) for s in range(players) if s % sides != ismcts_side
    }
    chance, state = Chance(deal_seed), game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.pick(state))
            continue
        seat = state.current_player()
        if seat in hard:
            view = state.game_state.view(seat)
            start = time.process_time()
            action = hard[seat].select_action(view)
            hard_times.append(time.process_time() - start)
        else:
            match = searcher.seconds == "match"
            action = searcher.step(
                state, statistics.fmean(hard_times[-500:]) if match else float(searcher.seconds)
            )
        state.apply_action(action)
    return int(state.returns()[ismcts_side])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games in all, an even number (pairs)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, default=0, help="0: the table's default (R2.2)")
    parser.add_argument("--seconds", default="match", help="ISMCTS's CPU time a move, or 'match'")
    parser.add_argument("--opponent", default="hard", help="a bot name or level (hard: heuristic)")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--rollouts", type=int, default=1, help="engine playouts per evaluation")
    parser.add_argument("--seed", type=int, default=1, help="deal k of the run uses seed * 10000 + k")
    args = parser.parse_args()
    game = pyspiel.load_game(GAME_NAME, {"players": args.players, "teams": args.teams})
    hard_times: list[float] = []
    warm = game.new_initial_state()  # a first estimate of hard's time a move
    chance = Chance(args.seed)
    bot = make_bot(args.opponent, seed=0)
    while len(hard_times) < 20 and not warm.is_terminal():
        if warm.is_chance_node():
            warm.apply_action(chance.pick(warm))
            continue
        start = time.process_time()
        action = bot.select_action(warm.game_state.view(warm.current_player()))
        hard_times.append(time.process_time() - start)
        warm.apply_action(action)
    warm_moves, results = len(hard_times), []
    searcher = Ismcts(game, args, seed=args.seed)
    started = time.perf_counter()
    for k in range(args.games // 2):
        for side in (0, 1):
            results.append(play(game, args.seed * 10000 + k, side, searcher, args.opponent, hard_times))
            print(f"deal {k} ISMCTS side {side}: {results[-1]:+d}", flush=True)
    wins, draws, losses = results.count(1), results.count(0), results.count(-1)
    score = wins + draws / 2
    low, high = wilson_interval(score, len(results))
    print(
        f"ISMCTS (uct_c {args.uct_c}, {args.rollouts} rollout(s), seconds={args.seconds}) against {args.opponent}, "
        f"{args.players} players, {len(results)} games on {len(results) // 2} paired deals, seed {args.seed}: "
        f"{wins} wins, {draws} draws, {losses} losses; win rate {100 * score / len(results):.1f}% "
        f"[95% {100 * low:.1f}, {100 * high:.1f}]"
    )
    print(
        f"CPU time a move: ISMCTS {1000 * statistics.fmean(searcher.times):.2f} ms "
        f"(mean {statistics.fmean(searcher.budgets):.1f} simulations), "
        f"{args.opponent} {1000 * statistics.fmean(hard_times[warm_moves:]):.2f} ms; "
        f"{time.perf_counter() - started:.0f} s in all"
    )


if __name__ == "__main__":
    main()
