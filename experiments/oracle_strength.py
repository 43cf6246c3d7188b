#!/usr/bin/env python3
"""Strength of search variants against one opponent on the same paired deals, at a FIXED
budget (simulations a move, so results repeat exactly and do not depend on the machine's load).

Each variant plays ``--games`` paired games (both seat orders on every deal) against
``--opponent``; variants may be in oracle mode (``planner(oracle=True)``: they see the true
state, a measurement tool). Prints one line per variant: wins, win rate, 95% Wilson interval,
time a move (CPU-load dependent, for information only).

    nice -n 10 .venv/bin/python experiments/oracle_strength.py \\
        --variants "planner(oracle=True)" "mcts(oracle=True)" --games 100 --simulations 100 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from sequence_game.bots.ratings import wilson_interval
from sequence_game.bots.specs import parse_bot_spec
from sequence_game.bots.tournament import iter_results, schedule
from sequence_game.config import GameConfig


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variants", nargs="+", required=True, help="bot specs to measure")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--games", type=int, default=100, help="games per variant (paired: even)")
    p.add_argument("--simulations", type=int, default=None, help="rollouts/simulations a move")
    p.add_argument("--seconds", type=float, default=None, help="time a move instead (load-dependent)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--teams", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON line per variant")
    p.add_argument(
        "--per-game",
        metavar="FILE",
        help="append one JSON line per finished game (variant, schedule index, deal, seats, winner) "
        "for paired comparisons of variants run on the same schedule (experiments/paired_compare.py)",
    )
    p.add_argument(
        "--start",
        type=int,
        default=0,
        help="play only the schedule's games from this index on (a long run split in parts; "
        "--per-game logs join them)",
    )
    p.add_argument("--stop", type=int, default=None, help="play only the schedule's games before this index")
    p.add_argument(
        "--records",
        action="store_true",
        help="keep each game's record in its --per-game line, so that paired_compare.py --luck can take "
        "the draws' luck out of the results",
    )
    args = p.parse_args()
    config = GameConfig(players=args.players, teams=args.teams)
    for text in args.variants:
        label = parse_bot_spec(text, allow_oracle=True).label
        specs = schedule(
            [label, args.opponent],
            config,
            args.games,
            seed=args.seed,
            seconds=args.seconds,
            simulations=args.simulations,
            record=args.records,
        )[args.start : args.stop]
        by_index = {spec.index: spec for spec in specs}
        began = time.perf_counter()
        wins = draws = moves = 0
        spent = 0.0
        log = open(args.per_game, "a", encoding="utf-8") if args.per_game else None  # noqa: SIM115
        for done, result in enumerate(iter_results(specs, workers=args.workers), start=1):
            if log is not None:
                spec = by_index[result.index]
                game = {
                    "variant": label,
                    "opponent": args.opponent,
                    "seed": args.seed,
                    "simulations": args.simulations,
                    "seconds": args.seconds,
                    "index": result.index,
                    "deal_seed": spec.deal_seed,
                    "seats": list(spec.bots),
                    "winner": result.winner,
                    "turns": result.turns,
                }
                if result.record is not None:
                    game["record"] = json.loads(result.record)
                log.write(json.dumps(game) + "\n")
                log.flush()
            if done % 10 == 0:
                print(f"  {label}: {wins} wins after {done - 1} games", file=sys.stderr, flush=True)
            if result.winner == label:
                wins += 1
            elif result.winner is None:
                draws += 1
            n, s = result.move_times[label]
            moves += n
            spent += s
        if log is not None:
            log.close()
        games = len(specs)
        lo, hi = wilson_interval(wins, games)
        row = {
            "variant": label,
            "opponent": args.opponent,
            "games": games,
            "wins": wins,
            "draws": draws,
            "win_rate": wins / games,
            "ci95": [lo, hi],
            "ms_per_move": 1000 * spent / max(moves, 1),
            "minutes": (time.perf_counter() - began) / 60,
            "simulations": args.simulations,
            "seconds": args.seconds,
            "seed": args.seed,
            "start": args.start,
            "stop": args.stop,
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{label} vs {args.opponent}: {wins}-{games - wins - draws} ({draws} drawn) "
                f"{100 * wins / games:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
                f"{row['ms_per_move']:.0f} ms a move, {row['minutes']:.1f} min",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
