#!/usr/bin/env python3
"""How good is the hint as a player? A seat that always plays a hint from its own view against a
bot, on paired deals (each deal played with the hint in both seats), 2 players.

``--hint``: ``shipped`` (the hint as the server and the terminal give it,
:func:`sequence_game.analysis.hint.hint`), ``evaluator`` (the evaluator's best play, the hint
before it), ``evaluator:K`` (the evaluator's best of the tuned ranking's K best plays), ``tuned``
(the tuned ranking's first play) or a bot spec (``expert``, for ``--seconds`` a move). A hint that
loses to ``hard`` would advise worse than the bot a player can already face.

    .venv/bin/python experiments/hint_strength.py --games 800 --hint evaluator --seed 1 \
        --workers 2 --json experiments/results/hint_strength_evaluator.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD
from sequence_game.bots import make_bot
from sequence_game.bots.base import Limit, forced_action
from sequence_game.bots.ranking import ranked_plays
from sequence_game.bots.ratings import wilson_interval
from sequence_game.views import PlayerView


def play(
    deal: int, hint_seat: int, opponent: str, hint: str, seconds: float
) -> tuple[int, int | None, float, int]:
    """One game: (deal, winning seat or None, seconds the hint took in all, hints given)."""
    from sequence_game.analysis.hint import hint as shipped_hint
    from sequence_game.analysis.hint import warm_search
    from sequence_game.evaluator.advice import advise
    from sequence_game.evaluator.model import Evaluator

    judge = Evaluator.load()
    warm_search(wait=None)  # a shipped hint searches from the first move
    state = new_game(GameConfig(players=2), seed=deal)
    other = make_bot(opponent, seed=deal * 2 + 1)
    kind, _, width = hint.partition(":")
    bot = None if kind in ("evaluator", "tuned", "shipped") else make_bot(hint, seed=deal * 2)
    rng = random.Random(deal)
    spent, given = 0.0, 0
    while not state.is_terminal() and state.turn < 400:
        seat = state.current_seat
        view = state.view(seat)
        if seat != hint_seat:
            state.apply(other.select_action(view, Limit(simulations=100)))
            continue
        action = forced_action(view)
        if action is None:
            start = time.process_time()
            if bot is not None:
                action = bot.select_action(view, Limit(seconds=seconds))
            elif kind == "shipped":
                action = shipped_hint(view, rng, seconds=seconds, judge=judge).action
            elif kind == "tuned":
                action = ranked(view)[0]
            elif width:
                action = advise_among(view, rng, judge, ranked(view)[: int(width)])
            else:
                action = advise(view, rng, judge).action
            spent += time.process_time() - start
            given += 1
        state.apply(action)
    outcome = state.outcome()
    return deal, None if outcome is None else outcome.winner, spent, given  # 2 players: side = seat


def ranked(view: PlayerView) -> list[int]:
    """The plays, best first by the heuristic's numbers tuned for the table, net of a jack's cost
    (the expert's ranking); the legal actions where there is no play."""
    plays = [a for a in view.legal_actions if a < DEAD]
    return ranked_plays(view, plays)[0] if plays else list(view.legal_actions)


def advise_among(view: PlayerView, rng: random.Random, judge: Any, plays: list[int]) -> int:
    """The evaluator's best of ``plays`` (a winning play first)."""
    from sequence_game.evaluator.moves import judge_plays
    from sequence_game.worlds import sample_world

    world = sample_world(view, rng)
    judged = judge_plays(judge, world, view.seat, plays)
    return min(judged, key=lambda pc: (pc[0].exact != 1.0, -pc[1], pc[0].action))[0].action


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="games (paired: even)")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument(
        "--hint",
        default="evaluator",
        help="'shipped', 'evaluator' (the hint before), 'evaluator:K' (its best of the tuned ranking's K best plays), "
        "'tuned' (the tuned ranking's first play) or a bot spec",
    )
    p.add_argument("--seconds", type=float, default=0.3, help="a bot spec's time a move")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", metavar="FILE", help="write the figures here too (with each deal's score)")
    p.add_argument(
        "--paired", metavar="FILE", help="another run's --json on the same seed: the difference by deal"
    )
    args = p.parse_args()
    jobs = [(args.seed * 100_000 + g // 2, g % 2) for g in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [
            pool.submit(play, deal, seat, args.opponent, args.hint, args.seconds) for deal, seat in jobs
        ]
        results = [f.result() for f in futures]
    wins = sum(1 for (_, winner, _, _), (_, seat) in zip(results, jobs, strict=True) if winner == seat)
    drawn = sum(1 for _, winner, _, _ in results if winner is None)
    by_deal: dict[int, float] = {}
    for (deal, winner, _, _), (_, seat) in zip(results, jobs, strict=True):
        by_deal[deal] = by_deal.get(deal, 0.0) + (0.5 if winner is None else float(winner == seat)) / 2
    lo, hi = wilson_interval(wins + drawn / 2, len(results))
    spent = sum(r[2] for r in results)
    given = sum(r[3] for r in results)
    out = {
        "hint": args.hint,
        "opponent": args.opponent,
        "games": len(results),
        "wins": wins,
        "drawn": drawn,
        "win_rate": (wins + drawn / 2) / len(results),
        "ci95": [lo, hi],
        "cpu_ms_per_hint": 1000 * spent / max(given, 1),
        "seed": args.seed,
        "per_deal": {str(deal): score for deal, score in sorted(by_deal.items())},
    }
    if args.paired:
        with open(args.paired, encoding="utf-8") as fh:
            base = json.load(fh)
        diffs = [score - base["per_deal"][deal] for deal, score in out["per_deal"].items()]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        out["paired"] = {
            "against": base["hint"],
            "deals": len(diffs),
            "diff": mean,
            "ci95": [mean - half, mean + half],
        }
    print(json.dumps({k: v for k, v in out.items() if k != "per_deal"}))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
