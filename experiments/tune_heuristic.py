"""Tune the heuristic's numbers jointly: a cross-entropy search over them, every candidate scored
in compiled paired games against the default ``heuristic`` (``sequence_game.fast.tuning``).

Each candidate is the default numbers times a log-normal factor per tuned number (the reach
values kept at most 1). A generation draws ``--population`` candidates around the current mean
(the mean itself is one of them), scores each on ``--deals`` common deals (both seat orders:
twice as many games), and moves the mean and spread to its ``--elite`` best. Bounded by
``--minutes``. The best scores of a search are biased up (the best of many noisy numbers), so the
best few candidates and the final mean are scored again on ``--final-deals`` FRESH deals; that is
the figure to trust, and ``experiments/oracle_strength.py`` with the printed spec the one to claim.

    nice -n 10 .venv/bin/python experiments/tune_heuristic.py --minutes 11 --deals 1000 --seed 1

``--start`` searches around a found array instead of the defaults (still scored against them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from sequence_game.config import GameConfig
from sequence_game.fast import heuristic as fh
from sequence_game.fast.heuristic import check_params
from sequence_game.fast.tuning import MatchResult, bot_spec, paired_match, rounded

TUNED: tuple[int, ...] = (
    *range(fh.P_LINE + 1, fh.P_LINE + 6),  # line[1..5]
    *range(fh.P_BLOCK + 1, fh.P_BLOCK + 5),  # block[1..4]
    fh.P_CENTRE,
    fh.P_TWO_EYED,
    fh.P_ONE_EYED,
    fh.P_THREAT,
    fh.P_REACH + 1,
    fh.P_REACH + 2,
)
"""The numbers searched (``line[0]`` and ``block[0]`` never change a choice; ``reach[0]`` is the
unit the other two are measured in; ``block[5]`` scores a complete opposing window, never open)."""
REACH_INDICES = (fh.P_REACH + 1, fh.P_REACH + 2)


def candidate(log_factors: np.ndarray, origin: np.ndarray = fh.DEFAULT_PARAMS) -> np.ndarray:
    """The parameter array ``origin`` times the log factors on :data:`TUNED` (rounded as its bot
    spec is written)."""
    p = origin.copy()
    for i, x in zip(TUNED, log_factors, strict=True):
        p[i] *= float(np.exp(x))
    for i in REACH_INDICES:
        p[i] = min(p[i], 1.0)
    return rounded(p)


def show(result: MatchResult) -> str:
    lo, hi = result.wilson()
    return f"{result.wins}-{result.losses}-{result.draws} {100 * result.score:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0, help="time for the search (re-scoring after)")
    ap.add_argument("--deals", type=int, default=600, help="deals per candidate (x sides games)")
    ap.add_argument("--population", type=int, default=12)
    ap.add_argument("--elite", type=int, default=4)
    ap.add_argument("--sigma", type=float, default=0.3, help="initial spread of the log factors")
    ap.add_argument("--final-deals", type=int, default=3000, help="fresh deals for the re-scoring")
    ap.add_argument("--final-top", type=int, default=3, help="best candidates re-scored")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teams", type=int, default=None)
    ap.add_argument("--no-inference", action="store_true", help="both sides without hand inference")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--start",
        default=None,
        help=f"JSON list of {fh.NUM_PARAMS} numbers to search around (a printed 'params'; default: the defaults)",
    )
    ap.add_argument("--json", action="store_true", help="one JSON line per generation and result")
    args = ap.parse_args(argv)
    if args.elite < 1 or args.population <= args.elite or args.deals < 1:
        ap.error("need --population > --elite >= 1 and --deals >= 1")
    config = GameConfig(players=args.players, teams=args.teams)
    inference = not args.no_inference
    try:
        origin = fh.DEFAULT_PARAMS if args.start is None else check_params(np.array(json.loads(args.start)))
    except (ValueError, TypeError) as exc:
        ap.error(f"--start: {exc}")
    rng = np.random.default_rng(args.seed)
    dims = len(TUNED)
    mean = np.zeros(dims)
    sigma = np.full(dims, args.sigma)
    seen: list[tuple[float, int, np.ndarray]] = []  # (score, generation, log factors)
    start = time.monotonic()
    generation = 0

    def emit(record: dict[str, object], text: str) -> None:
        print(json.dumps(record) if args.json else text, flush=True)

    while time.monotonic() - start < 60 * args.minutes:
        seed = args.seed * 1_000_003 + generation * 100_003  # common deals within a generation
        pop = [mean.copy()] + [mean + sigma * rng.standard_normal(dims) for _ in range(args.population - 1)]
        scores = []
        for x in pop:
            r = paired_match(
                candidate(x, origin), fh.DEFAULT_PARAMS, args.deals, seed, config=config, inference=inference
            )
            scores.append(r.score)
            seen.append((r.score, generation, x))
        order = np.argsort(scores)[::-1]
        elite = np.array([pop[i] for i in order[: args.elite]])
        mean = elite.mean(axis=0)
        sigma = np.maximum(0.6 * sigma + 0.4 * elite.std(axis=0), 0.03)
        emit(
            {
                "generation": generation,
                "mean_score": scores[0],
                "best": scores[order[0]],
                "sigma": float(sigma.mean()),
            },
            f"gen {generation}: mean candidate {100 * scores[0]:.1f}%, best {100 * scores[order[0]]:.1f}%, "
            f"spread {sigma.mean():.3f}, {time.monotonic() - start:.0f}s",
        )
        generation += 1
    seen.sort(key=lambda t: -t[0])
    finalists = [("mean", mean)] + [
        (f"best{i + 1} (gen {g}, {100 * s:.1f}%)", x) for i, (s, g, x) in enumerate(seen[: args.final_top])
    ]
    fresh = 10**9 + args.seed * 1_000_003
    for name, x in finalists:
        p = candidate(x, origin)
        r = paired_match(p, fh.DEFAULT_PARAMS, args.final_deals, fresh, config=config, inference=inference)
        emit(
            {
                "finalist": name,
                "wins": r.wins,
                "losses": r.losses,
                "draws": r.draws,
                "score": r.score,
                "wilson": r.wilson(),
                "params": p.tolist(),
                "spec": bot_spec(p),
            },
            f"{name}: fresh {r.games} games {show(r)}\n  {bot_spec(p)}",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
