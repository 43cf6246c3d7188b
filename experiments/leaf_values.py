"""Rollouts cut short and judged by the evaluator, against full rollouts, on the same positions.

Issue 39 asks for the expert on the evaluator (for example "as leaf values of truncated
rollouts"), measured first against the simplest strong baseline, rollout averages, on the same
positions. This measures that before anything is built into the expert:

    .venv/bin/python experiments/leaf_values.py --games 40 --every 4 --truth 384 --test 64 \\
        --seed 31000000 --json experiments/results/leaf_values.json

``--dump FILE`` keeps each position's candidates and means (truth and estimators), for
``experiments/leaf_bias.py``.

Positions: every ``--every``-th decision of 2-player ``hard`` against ``hard`` games (the Python
``heuristic`` bot on both seats; seeds from ``--seed``, never used in training) where the expert
would search (two candidates or more). At each, the expert's own candidates (its spec,
:data:`~sequence_game.bots.EXPERT`: the tuned ranking's 8 best plays and its jack plays) and its
own world source (the hands read from the last plays). Then:

- **truth**: each candidate's mean value over ``--truth`` worlds of full rollouts, as the expert
  rolls out (policy 3, the heuristic with its inference, on every seat);
- on ``--test`` other worlds, each candidate's value in each world by two estimators:
  **full** rollouts (the expert's today), and **cut** rollouts: the same rollout (same world, same
  random stream) stopped after ``h`` turns, the candidate's own turn included (``h = 1`` judges
  the position right after the play), its end valued by the evaluator from the searching seat's
  view of that world (``2p - 1``, on the rollouts' scale of -1 to +1); a game over by then counts
  its result.

Reported per estimator: the correlation of its candidate means with the truth's over all
positions; the noise of a world (the standard deviation of the paired difference between two
candidates in one world); and the regret of choosing the best mean over ``k`` worlds (bootstrap
of the test worlds), in chance (half the value scale) against the truth's best, with the cost of
a candidate and world in CPU time (the cut rollout's kernel and its evaluation in Python
separately: a compiled evaluation would cost less than the Python one).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD
from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.determinize import Determinizer
from sequence_game.bots.heuristic import WIN, HeuristicBot
from sequence_game.bots.pimc import PimcBot
from sequence_game.evaluator.leaves import end_values, leaf_values
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.whole import WholeJudge
from sequence_game.fast.leaf_features import row_features
from sequence_game.fast.pimc import candidate_values, cut_rollouts, world_rows
from sequence_game.features.position import history_marks
from sequence_game.views import PlayerView

POLICY = 3  # the expert's rollouts: the heuristic with its inference, every seat


def positions(games: int, every: int, seed: int) -> list[PlayerView]:
    """Every ``every``-th decision of ``hard`` against ``hard`` where the expert would search."""
    out: list[PlayerView] = []
    for g in range(games):
        state = new_game(GameConfig(players=2), seed=seed + g)
        bots = [HeuristicBot(seed=seed + g), HeuristicBot(seed=seed + g + 1)]
        decision = 0
        while not state.is_terminal():
            view = state.view(state.current_seat)
            if len([a for a in view.legal_actions if a < DEAD]) >= 2:
                decision += 1
                if decision % every == 0:
                    out.append(view)
            state.apply(bots[state.current_seat].select_action(view), state.current_seat)
    return out


def expert_setup(bot: PimcBot, view: PlayerView) -> tuple[list[int], Determinizer] | None:
    """The expert's candidates and world source at ``view`` (``PimcBot.select_action``'s first
    steps), or ``None`` where it would not search (a win now, a single candidate)."""
    acts = [a for a in view.legal_actions if a < DEAD]
    order, net = bot.ranked(view, acts)
    if net[order[0]] >= WIN / 2:
        return None
    cands = bot.candidates(order, bot.two_player_width)
    if len(cands) < 2:
        return None
    held = bot.reader.read(view) if bot.reader is not None else None
    return cands, Determinizer(view, bot.rng, bot.inference, held, bot.jack_weights)


def both_leaf_values(judge: WholeJudge, view: PlayerView, worlds: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``leaf_values`` with each cut end judged by the whole-position judge, with both hands of
    its world (2 players): ``float64[C, W]`` on the rollouts' scale, a finished game its result."""
    marks = history_marks(view.history, view.config.sides)
    mine = row_features(ends, worlds, view.seat, marks)
    theirs = row_features(ends, worlds, 1 - view.seat, marks)
    return end_values(ends, view.side, lambda open_rows: judge.chances(mine[open_rows], theirs[open_rows]))


def regret(est: np.ndarray, truth: np.ndarray, k_worlds: int, rng: np.random.Generator, boots: int) -> float:
    """Mean regret (in chance: half the value scale) of the best mean over ``k_worlds`` test worlds."""
    worlds = est.shape[1]
    picks = rng.integers(0, worlds, size=(boots, k_worlds))
    means = est[:, picks].mean(axis=2)  # [cands, boots]
    chosen = means.argmax(axis=0)
    return float((truth.max() - truth[chosen]).mean() / 2.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--truth", type=int, default=384, help="worlds of full rollouts for the truth")
    ap.add_argument("--test", type=int, default=64, help="worlds for the estimators")
    ap.add_argument("--horizons", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--budgets", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    ap.add_argument("--seed", type=int, default=31_000_000)
    ap.add_argument("--json", type=Path)
    ap.add_argument(
        "--dump", type=Path, help="one JSON line per position: candidates, truth and estimators' means"
    )
    ap.add_argument(
        "--both-hands",
        nargs="?",
        const="",
        metavar="WEIGHTS",
        help="also judge each cut end with both hands of its world by the whole-position judge "
        "(evaluator.whole; the shipped one, or these weights): estimators both<h>",
    )
    args = ap.parse_args()

    judge = Evaluator.load()
    both = None if args.both_hands is None else WholeJudge.load(args.both_hands or None)
    bot = make_bot(EXPERT, seed=args.seed)
    assert isinstance(bot, PimcBot)
    views = positions(args.games, args.every, args.seed)
    rng = random.Random(args.seed)
    boot = np.random.default_rng(args.seed)
    names = ["full"] + [f"cut{hz}" for hz in args.horizons]
    if both is not None:
        names += [f"both{hz}" for hz in args.horizons]
    cpu = dict.fromkeys(names + [f"eval{hz}" for hz in args.horizons], 0.0)
    pairs = 0
    noise = {n: [] for n in names}  # type: dict[str, list[float]]
    regrets = {n: {b: [] for b in args.budgets} for n in names}  # type: dict[str, dict[int, list[float]]]
    means: dict[str, list[float]] = {n: [] for n in [*names, "truth"]}
    used = 0
    for view in views:
        setup = expert_setup(bot, view)
        if setup is None:
            continue
        cands, source = setup
        used += 1
        truth_rows = world_rows(source.sample_batch(args.truth))
        truth = candidate_values(
            truth_rows, [rng.getrandbits(63) for _ in range(args.truth)], cands, view.side, POLICY
        ).mean(axis=1)
        test = world_rows(source.sample_batch(args.test))
        seeds = [rng.getrandbits(63) for _ in range(args.test)]
        t = time.process_time()
        est = {"full": candidate_values(test, seeds, cands, view.side, POLICY)}
        cpu["full"] += time.process_time() - t
        for hz in args.horizons:
            t = time.process_time()
            ends = cut_rollouts(test, seeds, cands, view.side, hz, POLICY)
            cpu[f"cut{hz}"] += time.process_time() - t
            t = time.process_time()
            est[f"cut{hz}"] = leaf_values(judge, view, test, ends)
            cpu[f"eval{hz}"] += time.process_time() - t
            if both is not None:
                est[f"both{hz}"] = both_leaf_values(both, view, test, ends)
        pairs += len(cands) * args.test
        if args.dump:
            line = {"cands": cands, "truth": truth.tolist()} | {
                n: e.mean(axis=1).tolist() for n, e in est.items()
            }
            with args.dump.open("a") as f:
                f.write(json.dumps(line) + "\n")
        best = int(truth.argmax())
        means["truth"].extend(truth.tolist())
        for n in names:
            e = est[n]
            means[n].extend(e.mean(axis=1).tolist())
            noise[n].extend(float((e[c] - e[best]).std()) for c in range(len(cands)) if c != best)
            for b in args.budgets:
                regrets[n][b].append(regret(e, truth, b, boot, 200))
        if used % 10 == 0:
            print(f"{used} positions", flush=True)
    truth_means = np.array(means["truth"])
    report: dict[str, Any] = {
        "positions": used,
        "candidates": len(truth_means),
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
    }
    for n in names:
        m = np.array(means[n])
        per_pair = cpu[n.replace("both", "cut")] / pairs
        evaluation = cpu.get(f"eval{n[3:]}", 0.0) / pairs if n.startswith("cut") else 0.0
        report[n] = {
            "corr_with_truth": float(np.corrcoef(m, truth_means)[0, 1]),
            "noise_per_world": float(np.mean(noise[n])),
            "regret_by_worlds": {b: float(np.mean(regrets[n][b])) for b in args.budgets},
            "regret_ci95": {b: float(1.96 * np.std(regrets[n][b]) / np.sqrt(used)) for b in args.budgets},
            "cpu_ms_rollout": 1000 * per_pair,
            "cpu_ms_evaluation_python": 1000 * evaluation,
        }
        print(n, json.dumps(report[n]))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
