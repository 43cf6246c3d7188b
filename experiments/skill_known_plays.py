"""Each decision judged against `hard`'s play with every hand known: a figure of kinship, not skill.

    python experiments/skill_known_plays.py play --dump games_1000.jsonl --out known_1000.jsonl --workers 2  # and 60000, 120000
    python experiments/skill_known_plays.py play --bots greedy,greedy --games 400 --seed 500000 --out known_gg.jsonl --workers 2
    python experiments/skill_known_plays.py play --bots expert,heuristic --games 400 --seed 600000 --out known_eh.jsonl --workers 2
    python experiments/skill_known_plays.py play --bots heuristic,greedy --games 400 --seed 700000 --full --out known_full.jsonl --workers 2
    python experiments/skill_known_plays.py report --set dumps known_1000.jsonl known_60000.jsonl known_120000.jsonl \\
        --set greedy_mirror known_gg.jsonl --set expert known_eh.jsonl --set full known_full.jsonl \\
        --json experiments/results/skill_known_plays.json

At 2 players the luck-adjusted result is the sum of what each move changed with every hand known
(``MoveAnalysis.decision_known``). A move's change splits into what it gained over the play `hard`
would have made there (the chance after the play made less the mean chance after `hard`'s best
plays, each draw averaged over the pile: ``gain``) and the judge's own change of mind on `hard`'s
play (``drift``, the rest). For a perfect judge of "`hard` from here" the drift is zero, so the gain
looked like the decisions figure without the judge's noise. It is not: this script shows it
measures how far a player's plays are from `hard`'s (the bot `heuristic` *is* `hard`) rather than
how good they are.

- ``play`` plays each game (a dump's, deterministic from its bots and seed, or ``--games`` new ones,
  seeds ``--seed + i``, seats swapped every other game; ``expert`` moves at ``--simulations``
  rollouts) and judges every move of both seats with the whole-position judge: per seat the sums of
  ``gain`` over its decisions with a play, of ``delta`` (its moves' ``decision_known``) and of its
  draws' luck, how many decisions differed from `hard`'s best plays, and with ``--full`` the loss
  against the judge's best play of all (every legal play judged).
- ``report``: per set, the first bot's side less the other's per game (in a mirror seat 0 in even
  games), its mean with a 95% interval, the signal (mean over standard deviation) and the share of
  2,000 random samples of 50 games whose 95% interval leaves out zero; and per bot the mean a
  decision.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from skill_kinds import print_json
from skill_luck import sampled_share

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD
from sequence_game.bots import make_bot
from sequence_game.bots.base import Limit, forced_action
from sequence_game.bots.evaluation import Board
from sequence_game.bots.heuristic import HeuristicBot
from sequence_game.cards import Card
from sequence_game.evaluator.moves import drawn_card, kept_cards, result_of
from sequence_game.evaluator.whole import WholeJudge
from sequence_game.state import GameState

JUDGE = WholeJudge.load()
HARD = HeuristicBot(seed=0)  # only its scores are read: the best plays, ties and all


def after_play(state: GameState, seat: int, action: int, card: Card | None = None) -> tuple[float, float]:
    """The mover's chance after ``action`` with both hands known: its draw averaged over the cards
    really in the pile, and with the card really drawn (the result, where the play ends the game)."""
    world = state.copy()
    kept = kept_cards(world.hand(seat), action, card)
    world._apply(action, seat, card)
    if world.is_terminal():
        result = result_of(world, seat % 2)
        return result, result
    pile = state._deck
    drawn = drawn_card(kept, world.hand(seat))
    if drawn is not None and pile and len(world._deck) == len(pile) - 1:
        chance, mean = JUDGE.draw_chances(world, seat, drawn, pile)
        return mean, chance
    value = JUDGE.deal(world, seat)
    return value, value


def hard_best(view: Any) -> list[int] | None:
    """`hard`'s best plays (it picks one of them at random), or ``None`` where it only discards."""
    plays = [a for a in view.legal_actions if a < DEAD]
    if not plays:
        return None
    scores = HARD.score_plays(view, Board.of_view(view), plays)
    top = max(scores)
    return [a for a, s in zip(plays, scores, strict=True) if s >= top - 1e-9]


def judge_game(job: tuple[list[str], int, int, bool]) -> dict[str, Any]:
    bots, seed, simulations, full = job
    state = new_game(GameConfig(players=2), seed=seed)
    players = [make_bot(bots[0], seed=seed), make_bot(bots[1], seed=seed + 1)]
    limit = Limit(simulations=simulations)
    deal = JUDGE.deal(state, 0) - 0.5
    seats: list[dict[str, Any]] = [
        {"gain": 0.0, "delta": 0.0, "luck": 0.0, "decisions": 0, "differ": 0, "loss": 0.0} for _ in (0, 1)
    ]
    while not state.is_terminal():
        seat = state.current_seat
        view = state.view(seat)
        action = players[seat].select_action(view, limit if bots[seat] == "expert" else None)
        before = JUDGE.deal(state, seat)
        mean, drawn = after_play(state, seat, action)
        s = seats[seat]
        s["delta"] += mean - before
        s["luck"] += drawn - mean
        best = hard_best(view) if forced_action(view) is None else None
        if best is not None:
            s["decisions"] += 1
            if not (len(best) == 1 and best[0] == action):
                s["gain"] += mean - statistics.fmean(after_play(state, seat, b)[0] for b in best)
                s["differ"] += action not in best
            if full:
                s["loss"] += max(after_play(state, seat, b)[0] for b in view.legal_actions if b < DEAD) - mean
        state.apply(action, seat)
    outcome = state.outcome()
    assert outcome is not None
    for k, s in enumerate(seats):
        s["result"] = 0.5 if outcome.winner is None else float(outcome.winner == k)
        s["adjusted"] = s["result"] - (deal if k == 0 else -deal) - s["luck"] + seats[1 - k]["luck"]
    return {"bots": bots, "seed": seed, "full": full, "seats": seats}


def play(args: argparse.Namespace) -> None:
    if args.dump:
        games = [
            json.loads(line) for line in Path(args.dump).read_text(encoding="utf-8").splitlines() if line
        ]
        jobs = [(list(g["bots"]), int(g["seed"]), args.simulations, args.full) for g in games]
    else:
        a, b = args.bots.split(",")
        jobs = [
            ([a, b] if i % 2 == 0 else [b, a], args.seed + i, args.simulations, args.full)
            for i in range(args.games)
        ]
    started = time.time()
    with ProcessPoolExecutor(args.workers) as pool, open(args.out, "w", encoding="utf-8") as out:
        out.writelines(json.dumps(row) + "\n" for row in pool.map(judge_game, jobs, chunksize=10))
    print(f"{len(jobs)} games in {time.time() - started:.0f} s", file=sys.stderr)


def summary(values: list[float], sample: bool = True) -> dict[str, Any]:
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    half = 1.96 * sd / math.sqrt(len(values))
    out = {"mean": round(mean, 5), "interval": [round(mean - half, 5), round(mean + half, 5)]}
    if sample:
        out["signal_per_game"] = round(mean / sd, 3) if sd else None
        out["samples_of_50_separating"] = sampled_share(values, 50, 2000, 0)
    return out


def report(args: argparse.Namespace) -> None:
    out: dict[str, Any] = {}
    for name, *paths in args.set:
        games = [
            json.loads(line)
            for p in paths
            for line in Path(p).read_text(encoding="utf-8").splitlines()
            if line
        ]
        for kind in ("match", "mirror"):
            chosen = [g for g in games if (g["bots"][0] == g["bots"][1]) == (kind == "mirror")]
            if not chosen:
                continue
            first = chosen[0]["bots"][0] if kind == "match" else None
            rows: dict[str, list[float]] = {}
            for i, g in enumerate(chosen):
                a = g["bots"].index(first) if first else i % 2
                mine, theirs = g["seats"][a], g["seats"][1 - a]
                full = bool(g.get("full"))
                figures = ["result", "adjusted", "gain"] + (["loss"] if full else [])
                for f in figures:
                    sign = -1 if f == "loss" else 1
                    rows.setdefault(f, []).append(sign * (mine[f] - theirs[f]))
                for who, s in (("first", mine), ("second", theirs)):
                    per = max(1, s["decisions"])
                    rows.setdefault(f"{who}_gain_a_decision", []).append(s["gain"] / per)
                    rows.setdefault(f"{who}_differs_from_hard", []).append(s["differ"] / per)
                    if full:
                        rows.setdefault(f"{who}_loss_a_decision", []).append(s["loss"] / per)
            out[f"{name}_{kind}"] = {
                "first": first or "seat 0 in even games",
                "games": len(chosen),
                **{f: summary(v, not f.startswith(("first_", "second_"))) for f, v in rows.items()},
            }
    print_json(out, args.json)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--dump")
    p.add_argument("--bots", default="heuristic,greedy")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=500_000)
    p.add_argument("--simulations", type=int, default=300, help="rollouts a move of the expert")
    p.add_argument("--full", action="store_true", help="also the loss against the judge's best play")
    p.add_argument("--out", required=True)
    p.add_argument("--workers", type=int, default=1)
    r = sub.add_parser("report")
    r.add_argument("--set", nargs="+", action="append", required=True, metavar=("NAME", "FILE"))
    r.add_argument("--json")
    args = parser.parse_args()
    {"play": play, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
