"""The evaluator's calibration on games of the expert against itself (issue 39, docs/evaluator.md).

    .venv/bin/python experiments/evaluator_expert_calibration.py --games 500 --rollouts 100 \\
        --workers 2 --games-file experiments/results/expert_games_100.jsonl \\
        --json experiments/results/evaluator_expert_calibration.json

The evaluator assumes "both sides play like ``hard`` from here". Do its chances still hold when
both sides play like the expert? This plays ``--games`` 2-player games of the expert level
(``bots.EXPERT``) against itself at a fixed budget of ``--rollouts`` rollouts a move, deals from
seeds 30,000,000 up (never used in training, calibration or the other held-out tests), and writes
each game as one JSON line (seed, actions, result) to ``--games-file``: a rerun skips the games
already there, so a long run can stop and go on. The report replays every game, judges the view of
the seat to move and of one seat of the other side at every turn with the evaluator (``--weights``
or the shipped one), and prints the reliability table by decile with 95% intervals clustered by
game, the ECE, the Brier score by third of the game and the two sides' summed chances.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.base import Limit
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.training import reliability
from sequence_game.features.position import features, view_parts

FIRST_SEED = 30_000_000


def play(job: tuple[int, int]) -> dict[str, Any]:
    """One game of the expert against itself at ``rollouts`` a move, from deal ``seed``."""
    seed, rollouts = job
    config = GameConfig(players=2)
    state = new_game(config, seed=seed)
    bots = [make_bot(EXPERT, seed=seed * 2 + seat) for seat in range(2)]
    limit = Limit(simulations=rollouts)
    actions = []
    while not state.is_terminal():
        seat = state.current_seat
        action = bots[seat].select_action(state.view(seat), limit)
        actions.append(action)
        state.apply(action, seat)
    outcome = state.outcome()
    winner = None if outcome is None else outcome.winner
    return {"seed": seed, "rollouts": rollouts, "actions": actions, "winner": winner}


def judged(games: list[dict[str, Any]], evaluator: Evaluator) -> dict[str, np.ndarray]:
    """Every turn's two views (mover, other side) of every game, with chances and results."""
    parts, ys, game_ids, stage, pair = [], [], [], [], []
    for g in games:
        state = new_game(GameConfig(players=2), seed=g["seed"])
        length = len(g["actions"])
        for turn, action in enumerate(g["actions"]):
            seat = state.current_seat
            for s in (seat, 1 - seat):
                parts.append(view_parts(state.view(s)))
                ys.append(0.5 if g["winner"] is None else float(g["winner"] == s))
                game_ids.append(g["seed"])
                stage.append(min(2, 3 * turn // max(1, length)))
                pair.append(len(pair) // 2)
            state.apply(action, seat)
    p = evaluator.chances_of_features(features(parts))
    return {
        "p": p,
        "y": np.array(ys),
        "game": np.array(game_ids),
        "stage": np.array(stage),
        "pair": np.array(pair),
    }


def report(games: list[dict[str, Any]], evaluator: Evaluator) -> dict[str, Any]:
    d = judged(games, evaluator)
    table = reliability(d["p"], d["y"], d["game"])
    thirds = [float(np.mean((d["p"][d["stage"] == s] - d["y"][d["stage"] == s]) ** 2)) for s in range(3)]
    sums = d["p"][0::2] + d["p"][1::2]
    return {
        "games": len(games),
        "rollouts": sorted({g["rollouts"] for g in games}),
        "seat_0_wins": sum(1 for g in games if g["winner"] == 0),
        "draws": sum(1 for g in games if g["winner"] is None),
        **table.as_dict(),
        "brier_by_third": thirds,
        "sides_sum_mean": float(sums.mean()),
        "sides_sum_abs_error": float(np.abs(sums - 1).mean()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--games-file", type=Path, required=True, help="JSON lines, one game each (resumable)"
    )
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--report-only", action="store_true", help="judge the games in the file, play none")
    args = parser.parse_args()
    done: dict[int, dict[str, Any]] = {}
    if args.games_file.exists():
        for line in args.games_file.read_text().splitlines():
            if line.strip():
                g = json.loads(line)
                if g["rollouts"] == args.rollouts:
                    done[g["seed"]] = g
    todo = [(FIRST_SEED + i, args.rollouts) for i in range(args.games) if FIRST_SEED + i not in done]
    if todo and not args.report_only:
        args.games_file.parent.mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(max_workers=args.workers) as pool, args.games_file.open("a") as out:
            for i, g in enumerate(pool.map(play, todo)):
                out.write(json.dumps(g) + "\n")
                out.flush()
                done[g["seed"]] = g
                print(f"{i + 1}/{len(todo)} games", file=sys.stderr, flush=True)
    games = [done[s] for s in sorted(done) if s < FIRST_SEED + args.games]
    result = report(games, Evaluator.load(args.weights))
    text = json.dumps(result, indent=1)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
