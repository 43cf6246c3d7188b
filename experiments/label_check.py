#!/usr/bin/env python3
"""Are the analysis' labels true? Each decision the evaluator labels (``mistake``, ``blunder``,
``missed block``) is judged again by rollouts of ``hard`` on the compiled engine: the play made
against the evaluator's best play, paired (the same worlds and random streams for both).

- the check (:func:`sequence_game.analysis.check.rollout_loss`): ``--check`` worlds dealt from
  the mover's own view (the hidden hands dealt from the cards the mover has not seen, with what
  the other seats' plays showed they did not hold), twice: from the view alone (``check``, as the
  analysis did until the 29th pass) and with the expert's reading of the other hand
  (``check_read``, as the analysis checks labels at 2 players now);
- the truth: ``--truth`` playouts from the true position (the other hands as they were, the draw
  pile shuffled for each: what the mover could not know is only the draws).

A label is true where the truth's loss is at least the label's threshold (0.10 for a mistake).
The script prints, for the labels as the evaluator gives them and for those a check rule keeps
(the analysis keeps a label where the check's loss reaches the threshold, ``check_read >= 0.10``),
how many there are, the share that are true and the mean true loss; most labels of ``hard`` games
say a jack should have been spent (docs/analysis.md, "Labels").

    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/label_check.py --games 40 --seed 21 \\
        --check 256 --truth 1024 --json experiments/results/label_check.json
    # the same without the jack costs: results/label_check_no_jack_costs.json
    # at 4 players in 2 teams: --players 4 --seed 4021 --json experiments/results/label_check_4p.json

Up to 4 players the analysis checks with the reading (``check_read`` is the rule it ships); from 5
players on, from the view alone (``check``).
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

from sequence_game import GameConfig
from sequence_game.actions import WILD
from sequence_game.analysis.check import rollout_loss
from sequence_game.analysis.game import MISTAKE, label_of, load_evaluator, steps
from sequence_game.analysis.judge import judge
from sequence_game.bots.base import forced_action
from sequence_game.bots.tournament import run_games, schedule, side_patterns
from sequence_game.fast.pimc import INFERRING, candidate_values, world_rows
from sequence_game.state import GameState

LABELLED = ("mistake", "blunder", "missed block")


def paired_loss(
    rows: np.ndarray, rng: random.Random, best: int, played: int, side: int
) -> tuple[float, float]:
    """The mean and standard error of (best - played) in chance over the worlds ``rows``."""
    seeds = [rng.getrandbits(63) for _ in range(rows.shape[0])]
    values = candidate_values(rows, seeds, [best, played], side, policy=INFERRING)
    diff = (values[0] - values[1]) / 2  # values are +-1: a chance is (v + 1) / 2
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(diff.shape[0]))


def true_rows(state: GameState, n: int, rng: random.Random) -> np.ndarray:
    """``n`` copies of the true state with the draw pile shuffled (the truth)."""
    worlds = []
    for _ in range(n):
        s = state.copy()
        rng.shuffle(s._deck)
        worlds.append(s)
    return world_rows(worlds)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--seed", type=int, default=21)
    p.add_argument("--players", type=int, default=2, help="the table (the rules' default teams)")
    p.add_argument("--check", type=int, default=256, help="worlds of the check, from the mover's view")
    p.add_argument("--truth", type=int, default=1024, help="playouts of the truth, from the true position")
    p.add_argument("--json", type=Path)
    p.add_argument(
        "--no-jack-costs",
        action="store_true",
        help="the evaluator's chances alone (evaluator.moves.JACK_COSTS off, as before the 29th pass)",
    )
    args = p.parse_args()
    if args.no_jack_costs:
        from sequence_game.evaluator.moves import JACK_COSTS

        JACK_COSTS.clear()
    evaluator = load_evaluator()
    rng = random.Random(args.seed)
    # a deal group plays each deal in every seat order: for hard against hard the same game again
    config = GameConfig(players=args.players)
    group = len(side_patterns(config.sides))
    specs = schedule(["heuristic", "heuristic"], config, group * args.games, seed=args.seed, record=True)
    rows_out: list[dict[str, Any]] = []
    for result in run_games(specs[::group], workers=1):
        _config, final, walk = steps(result.record or "")
        for i, step in enumerate(walk):
            state = step.state
            view = state.view(step.seat)
            if forced_action(view) is not None or step.action >= 400:
                continue
            after = walk[i + 1].state if i + 1 < len(walk) else final
            j = judge(state, step.seat, step.action, step.card, after, evaluator, decision=True)
            loss = max(0.0, j.before - j.after)
            label = label_of(view, step.action, loss)
            if label not in LABELLED:
                continue
            best = j.plays[0].action
            side = step.seat % state.config.sides
            # from the view alone (shipped until the 29th pass), and with the reading (shipped)
            check = rollout_loss(state, step.seat, best, step.action, args.check, step.index, reading=False)
            read = rollout_loss(state, step.seat, best, step.action, args.check, step.index, reading=True)
            assert check is not None and read is not None
            truth, truth_se = paired_loss(true_rows(state, args.truth, rng), rng, best, step.action, side)
            row = {
                "game": result.index,
                "index": step.index,
                "label": label,
                "best_is_jack": best >= WILD,
                "played_is_jack": step.action >= WILD,
                "evaluator": round(loss, 4),
                "check": round(check, 4),
                "check_read": round(read, 4),
                "truth": round(truth, 4),
                "truth_se": round(truth_se, 4),
            }
            rows_out.append(row)
            print(json.dumps(row), file=sys.stderr)

    def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
        if not rows:
            return {"labels": 0}
        true = [r for r in rows if r["truth"] >= MISTAKE]
        return {
            "labels": len(rows),
            "true_share": round(len(true) / len(rows), 3),
            "a_real_loss_share": round(sum(r["truth"] > 0 for r in rows) / len(rows), 3),
            "mean_truth_loss": round(statistics.fmean(r["truth"] for r in rows), 4),
            "mean_evaluator_loss": round(statistics.fmean(r["evaluator"] for r in rows), 4),
        }

    rules = {
        "the evaluator's labels": lambda r: True,
        "check >= 0.10": lambda r: r["check"] >= MISTAKE,
        "check >= 0.075": lambda r: r["check"] >= 0.075,
        "check >= 0.05": lambda r: r["check"] >= MISTAKE / 2,
        "check with the reading >= 0.10": lambda r: r["check_read"] >= MISTAKE,
        "check with the reading >= 0.075": lambda r: r["check_read"] >= 0.075,
    }
    truly = [r for r in rows_out if r["truth"] >= MISTAKE]
    out = {
        "games": args.games,
        "players": args.players,
        "seed": args.seed,
        "check_worlds": args.check,
        "truth_playouts": args.truth,
        "decisions_labelled": len(rows_out),
        "labels_that_say_spend_a_jack": sum(r["best_is_jack"] and not r["played_is_jack"] for r in rows_out),
        "rules": {
            name: {
                **summary([r for r in rows_out if keep(r)]),
                "true_labels_kept": sum(1 for r in truly if keep(r)),
            }
            for name, keep in rules.items()
        },
        "true_labels": len(truly),
        "rows": rows_out,
    }
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
