"""How much could a better estimate of "``hard`` from here" still gain the expert? A ceiling.

    .venv/bin/python experiments/budget_ceiling.py --games 30 --every 3 --pool 4096 --truth 4096 \\
        --seed 33000000 --workers 2 --json experiments/results/budget_ceiling.json

Issue 39 asks the expert on the evaluator to win 5 points more by deal than today's at 1 s. Leaf
values, and any other evaluator of the position, estimate the same thing the expert's full
rollouts do: each candidate's value if ``hard`` plays on from there. This measures how much
choosing by that value more exactly is worth at all, on positions, with no games:

- positions: every ``--every``-th decision of 2-player ``hard`` against ``hard`` games (fresh
  seeds) where the expert searches, its own 8 candidates and world source
  (``leaf_values.expert_setup``);
- a **pool** of ``--pool`` worlds of full rollouts (policy 3, as the expert's); the choice after
  the first ``k`` of them, by the expert's rule (the best mean where it beats the first candidate,
  the ranking's play, by ``--confidence`` standard errors of the paired differences; at the 0.1 s
  budget the expert's 4 plays on one standard error);
- an independent **truth**: ``--truth`` other worlds, which judge every choice without the
  winner's curse of judging a choice by the worlds that made it.

With ``--width 16`` (or any width above 8) the pool and the truth cover the ranking's best plays up
to that width, the expert's 8 first, and the choices include those over all of them: what more
candidates could add (``docs/evaluator.md``, "More candidates").

The gain of a budget over another is the truth's value of its choice minus the other's, in chance
(half the rollouts' -1..1 scale), averaged over positions with a 95% interval; times the searched
decisions a side makes in a game, it is a first-order estimate of the points of win rate the
larger budget is worth against ``hard``. Check of the estimate: the step from 75 worlds of 4
plays (0.1 s, about 600 rollouts) to 800 worlds of 8 (1 s, about 6,500), measured in games at
about 6 points (docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Final

import numpy as np
from leaf_values import POLICY, expert_setup, positions

from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.pimc import PimcBot
from sequence_game.evaluator.leaves import leaf_values
from sequence_game.evaluator.model import Evaluator
from sequence_game.fast.pimc import candidate_values, cut_rollouts, world_rows

BUDGETS: dict[str, tuple[int, int, float]] = {
    "0.1 s (75 worlds, 4 plays, 1 SE)": (75, 4, 1.0),
    "1 s (800 worlds, 8 plays, 0.5 SE)": (800, 8, 0.5),
    "2x (1,600 worlds)": (1600, 8, 0.5),
    "4x (3,200 worlds)": (3200, 8, 0.5),
    "pool, best mean": (-1, 8, 0.0),
}
"""Name: (worlds, candidates, confidence); -1 worlds: the whole pool."""


def budgets(width: int) -> dict[str, tuple[int, int, float]]:
    """:data:`BUDGETS`, and with ``--width`` above 8 the same choices over that many plays: the
    best mean of the pool, and the 1 s rollouts (6,400) spread over them or 800 worlds of each."""
    out = dict(BUDGETS)
    if width > 8:
        out[f"{width} plays, pool, best mean"] = (-1, width, 0.0)
        out[f"{width} plays, the 1 s rollouts ({6400 // width} worlds)"] = (6400 // width, width, 0.5)
        out[f"{width} plays, 800 worlds"] = (800, width, 0.5)
    return out


LEAF_DEFAULT: Final = "6:325:4"
"""``--leaves`` given no value: the expert's choice at 0.1 s today (``leaf=6`` over 4 plays, with
the 325 worlds it reaches in games at 0.1 s a move; counted with ``PimcBot.last_worlds``)."""


def leaf_budget(text: str) -> tuple[str, tuple[int, int, int]]:
    """``H:W:P`` (turns before the cut, worlds, plays) as a name and numbers; 4 plays choose on one
    standard error, more on half of one, as the expert does."""
    horizon, worlds, width = (int(x) for x in text.split(":"))
    return f"leaves cut after {horizon} turns, {worlds} worlds, {width} plays", (horizon, worlds, width)


def choose(values: np.ndarray, worlds: int, width: int, confidence: float) -> int:
    """The expert's rule (``PimcBot._choose``) on the first ``worlds`` worlds of ``width`` plays."""
    v = values[:width, :worlds]
    worlds = v.shape[1]  # a budget beyond the pool gets the pool
    means = v.mean(axis=1)
    best = int(means.argmax())
    if best == 0 or confidence == 0.0:
        return best
    diffs = v[best] - v[0]
    sd = diffs.std(ddof=1)
    lead = math.inf if sd == 0 else diffs.mean() / (sd / math.sqrt(worlds))
    return best if lead >= confidence else 0


def one(job: tuple[int, int, int, int, int, list[str], int]) -> list[dict[str, Any]]:
    """One game's positions: each budget's choice judged by the truth."""
    game_seed, every, pool, truth_worlds, seed, leaves, width_all = job
    judge = Evaluator.load() if leaves else None
    bot = make_bot(EXPERT, seed=seed + game_seed)
    assert isinstance(bot, PimcBot)
    bot.two_player_width = max(bot.two_player_width, width_all)  # the first 8 are the expert's
    rng = random.Random(seed + game_seed)
    out = []
    views = positions(1, 1, game_seed)
    searched = 0
    for i, view in enumerate(views):
        setup = expert_setup(bot, view)
        if setup is None:
            continue
        searched += 1
        if searched % every:
            continue
        cands, source = setup
        pool_rows = world_rows(source.sample_batch(pool))
        values = candidate_values(
            pool_rows, [rng.getrandbits(63) for _ in range(pool)], cands, view.side, POLICY
        )
        truth_rows = world_rows(source.sample_batch(truth_worlds))
        truth = candidate_values(
            truth_rows, [rng.getrandbits(63) for _ in range(truth_worlds)], cands, view.side, POLICY
        ).mean(axis=1)
        picks = {
            name: choose(values, pool if worlds < 0 else worlds, min(width, len(cands)), conf)
            for name, (worlds, width, conf) in budgets(width_all).items()
        }
        for text in leaves:
            assert judge is not None
            name, (horizon, worlds, width) = leaf_budget(text)
            rows = world_rows(source.sample_batch(worlds))
            seeds = [rng.getrandbits(63) for _ in range(worlds)]
            ends = cut_rollouts(rows, seeds, cands[:width], view.side, horizon, POLICY)
            judged = leaf_values(judge, view, rows, ends)
            picks[name] = choose(judged, worlds, width, 1.0 if width <= 4 else 0.5)
        out.append(
            {
                "game": game_seed,
                "decision": i,
                "candidates": len(cands),
                "picks": picks,
                "value": {name: float(truth[c]) / 2.0 for name, c in picks.items()},
            }
        )
    for row in out:
        row["searched_in_game"] = searched
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--pool", type=int, default=4096)
    ap.add_argument("--truth", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=33_000_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--leaves",
        nargs="*",
        default=None,
        metavar="H:W:P",
        help=f"also choices on judged leaves: turns, worlds, plays (none given: {LEAF_DEFAULT})",
    )
    ap.add_argument(
        "--width", type=int, default=8, help="plays in the pool and the truth (the expert's 8 first)"
    )
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.leaves is None:
        args.leaves = []
    elif not args.leaves:  # --leaves alone
        args.leaves = [LEAF_DEFAULT]
    jobs = [
        (args.seed + g, args.every, args.pool, args.truth, args.seed, args.leaves, args.width)
        for g in range(args.games)
    ]
    with ProcessPoolExecutor(args.workers) as ex:
        rows = [r for game in ex.map(one, jobs) for r in game]
    searched = statistics.fmean(
        {r["game"]: r["searched_in_game"] for r in rows}.values()
    )  # a game's searched decisions, both sides
    per_side = searched / 2
    names = list(budgets(args.width)) + [leaf_budget(t)[0] for t in args.leaves]
    base = names[1]
    report: dict[str, Any] = {
        "positions": len(rows),
        "games": args.games,
        "searched_decisions_per_side": per_side,
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "gain_over_1s": {},
    }
    for name in names:
        d = [r["value"][name] - r["value"][base] for r in rows]
        mean = statistics.fmean(d)
        half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
        differ = sum(r["picks"][name] != r["picks"][base] for r in rows) / len(rows)
        report["gain_over_1s"][name] = {
            "chance_per_decision": [round(mean, 5), round(mean - half, 5), round(mean + half, 5)],
            "points_per_game": [round(100 * x * per_side, 2) for x in (mean, mean - half, mean + half)],
            "choice_differs": round(differ, 3),
        }
        print(name, report["gain_over_1s"][name], flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
