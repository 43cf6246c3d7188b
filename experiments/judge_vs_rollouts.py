"""Is the analysis' judge of decisions right where it calls a kept jack a mistake?

    OPENBLAS_NUM_THREADS=1 python experiments/judge_vs_rollouts.py --deals 6 --rollouts 200 \\
        --seed 1000 --json experiments/results/judge_vs_rollouts.json

Plays ``heuristic`` against ``greedy`` on ``--deals`` deals (seats swapped, as
``analysis_skill.py``), and at every decision of ``heuristic`` where the evaluator's best play
spends a jack and ``heuristic`` played something else, measures three plays twice: by the
evaluator (the analysis' judge: its chance after the play, the draw averaged) and by
``--rollouts`` playouts of ``hard`` on the compiled engine from the true position after the play
(the hands as they were, the draw pile shuffled for each playout, so the draw is unknown as it
was to the mover). The plays: the one ``heuristic`` made, the evaluator's best (a jack), and the
evaluator's best play that is not a jack. If the evaluator's loss for keeping the jack is real,
rollouts show it too; if the best of the many places a jack can go is only the luckiest error of
the evaluator (the winner's curse of a maximum over dozens of estimates), the rollouts put the
best jack play well below the evaluator's chance for it, and the kept-jack play close to its own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from analysis_skill import play

from sequence_game.actions import WILD
from sequence_game.analysis.game import load_evaluator, steps
from sequence_game.analysis.judge import judge
from sequence_game.bots.base import forced_action
from sequence_game.fast import heuristic as h
from sequence_game.fast.engine import FastGame
from sequence_game.state import GameState


def is_jack(action: int) -> bool:
    return action >= WILD


def rollouts(
    state: GameState, seat: int, action: int, card: Any, n: int, rng: random.Random, sampled: bool = False
) -> float:
    """The mover's side's share of wins (draws half) over ``n`` playouts of ``hard`` after the play.
    ``sampled``: the other hands are dealt again for each playout from the cards the mover has
    not seen (theirs and the pile), as the evaluator's view leaves them, instead of the true ones."""
    side = seat % state.config.sides
    total = 0.0
    for _ in range(n):
        s = state.copy()
        if sampled:
            others = [i for i in range(len(s._hands)) if i != seat]
            pool = [c for i in others for c in s._hands[i]] + s._deck
            rng.shuffle(pool)
            for i in others:
                size = len(s._hands[i])
                s._hands[i], pool = pool[:size], pool[size:]
            s._deck = pool
        rng.shuffle(s._deck)  # the draw pile's order was unknown to the mover
        s.apply(action, seat, card=card)
        game = FastGame.from_state(s, seed=rng.getrandbits(62))
        winner = h.inferring_playout(game.row, game.rng, 0, 400)
        total += 1.0 if winner == side else 0.5 if winner == -1 else 0.0
    return total / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--hands",
        choices=("true", "sampled"),
        default="true",
        help="the other hands in the playouts: as they were, or dealt again from the unseen cards",
    )
    args = parser.parse_args()
    sampled = args.hands == "sampled"
    evaluator = load_evaluator()
    rng = random.Random(args.seed)
    rows = []
    for deal in range(args.seed, args.seed + args.deals):
        for bots in (("heuristic", "greedy"), ("greedy", "heuristic")):
            record = play(bots, deal)
            _config, final, walk = steps(record)
            for i, step in enumerate(walk):
                if bots[step.seat] != "heuristic" or is_jack(step.action):
                    continue
                state = step.state
                if forced_action(state.view(step.seat)) is not None:
                    continue
                after = walk[i + 1].state if i + 1 < len(walk) else final
                j = judge(state, step.seat, step.action, step.card, after, evaluator, decision=True)
                best = j.plays[0]
                if not is_jack(best.action):
                    continue
                plain = next(p for p in j.plays if not is_jack(p.action))
                row = {
                    "deal": deal,
                    "index": step.index,
                    "jack_plays": sum(1 for p in j.plays if is_jack(p.action)),
                    "evaluator": {"played": j.after, "best_jack": best.chance, "best_plain": plain.chance},
                    "rollouts": {
                        "played": rollouts(
                            state, step.seat, step.action, step.card, args.rollouts, rng, sampled
                        ),
                        "best_jack": rollouts(
                            state, step.seat, best.action, best.card, args.rollouts, rng, sampled
                        ),
                        "best_plain": rollouts(
                            state, step.seat, plain.action, plain.card, args.rollouts, rng, sampled
                        ),
                    },
                }
                rows.append(row)
                print(json.dumps(row), file=sys.stderr)

    def mean(path: tuple[str, str]) -> float:
        return statistics.fmean(r[path[0]][path[1]] for r in rows)

    se = 0.5 / np.sqrt(args.rollouts)
    out = {
        "decisions": len(rows),
        "rollouts": args.rollouts,
        "hands": args.hands,
        "rollout_se_per_play": round(float(se), 3),
        "mean": {
            judge_: {k: round(mean((judge_, k)), 4) for k in ("played", "best_jack", "best_plain")}
            for judge_ in ("evaluator", "rollouts")
        },
        "loss_of_keeping_the_jack": {
            judge_: round(mean((judge_, "best_jack")) - mean((judge_, "played")), 4)
            for judge_ in ("evaluator", "rollouts")
        },
        "jack_plays_median": statistics.median(r["jack_plays"] for r in rows) if rows else None,
        "rows": rows,
    }
    text = json.dumps(out, indent=1)
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
