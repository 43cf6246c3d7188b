"""Does the analysis see skill? Its decisions figure over games of two bots, and over a mirror match.

Usage: python experiments/analysis_skill.py [--games 50] [--seed 1000] [--bots heuristic,greedy]
                                            [--mirror heuristic] [--workers 1] [--repeat 8] [--dump FILE]

Plays ``--games`` 2-player games of the two bots on paired deals (each deal twice, seats swapped),
and as many of ``--mirror`` against itself on the same deals, analyses every game with
``sequence_game.analysis`` at its default (the shipped evaluator), and compares the bots' mean
loss of winning chance per decision game by game: the per-game difference (first bot minus
second) with its 95% interval (mean +- 1.96 standard errors). The analysis "separates" the bots when
the interval excludes 0; in the mirror match the "first" bot is the one in seat 0.

``--dump`` writes every game's per-seat figures (each decision's loss, label, accuracy, chance
after, the mover's chance before it, and every seat's own-view chances before and after; the
side's account) for ``skill_figures.py``.

It also re-analyses the first ``--repeat`` records with another seed and reports the Jaccard index
of the labelled moves (1.0: the labels reproduce), and the analysis' time per game (wall and CPU).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core a game: the evaluator's products are small

from sequence_game import GameConfig, new_game
from sequence_game.analysis import analyze_record
from sequence_game.bots import make_bot
from sequence_game.records import write_record


def play(bots: tuple[str, str], seed: int) -> dict[str, Any]:
    state = new_game(GameConfig(players=2), seed=seed)
    players = [make_bot(bots[0], seed=seed), make_bot(bots[1], seed=seed + 1)]
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(players[seat].select_action(state.view(seat)), seat)
    return write_record(state)


def judge(job: tuple[tuple[str, str], int]) -> dict[str, Any]:
    """One game: per seat, its mean loss per decision and its labels; the analysis' time."""
    bots, seed = job
    record = play(bots, seed)
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyze_record(record)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # what the evaluator expected of each move: the mover's own-view chance before it (after the
    # previous action, its draw seen), the chance of the position if `hard`, which it assumes, played
    expected: dict[int, float] = {}
    previous: dict[int, list[float]] = {}
    last = None
    for m in analysis.moves:
        if last is not None:
            expected[m.index] = last[m.seat]
            previous[m.index] = last
        last = m.chances
    seats = []
    for seat in range(2):
        mine = [m for m in analysis.moves if m.seat == seat and m.decision]
        seats.append(
            {
                "bot": bots[seat],
                "decisions": len(mine),
                "loss": sum(m.loss for m in mine) / max(1, len(mine)),
                "labels": sum(1 for m in mine if m.label),
                # where the loss comes from: (played a jack, the evaluator's best a jack, loss)
                "jacks": [(m.move.startswith("j"), (m.best or "").startswith("j"), m.loss) for m in mine],
                "moves": [
                    (
                        m.loss,
                        m.label,
                        m.accuracy,
                        m.after,
                        expected.get(m.index),
                        previous.get(m.index),
                        m.chances,
                    )
                    for m in mine
                ],
                "summary": {
                    k: getattr(analysis.sides_summary[seat], k)
                    for k in ("start", "decisions", "luck", "others", "result", "luck_against")
                },
            }
        )
    labelled = sorted(m.index for m in analysis.moves if m.label)
    return {
        "bots": bots,
        "seed": seed,
        "actions": len(analysis.moves),
        "winner": analysis.winner,
        "wall": wall,
        "cpu": cpu,
        "seats": seats,
        "labelled": labelled,
        "record": record,
    }


def interval(diffs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, mean - half, mean + half


def jack_split(seats: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """A bot's decisions by whether the play or the evaluator's best play was a jack: each kind's
    share of the decisions and its loss per decision of all (the kinds add up to the whole)."""
    rows = [row for s in seats for row in s["jacks"]]
    kinds = {
        "neither a jack": (False, False),
        "played a jack, best not": (True, False),
        "best a jack, played not": (False, True),
        "both jacks": (True, True),
    }
    out = {}
    for name, kind in kinds.items():
        losses = [loss for played, best, loss in rows if (played, best) == kind]
        out[name] = {
            "share": round(len(losses) / max(1, len(rows)), 3),
            "loss_per_decision": round(sum(losses) / max(1, len(rows)), 4),
        }
    return out


def compare(games: list[dict[str, Any]], first: str, second: str, mirror: bool) -> dict[str, Any]:
    """Per game, the first bot's mean loss per decision minus the second's (the seat-0 bot's minus
    the seat-1 bot's in a mirror match)."""
    diffs = []
    for g in games:
        by_seat = g["seats"]
        if mirror:
            diffs.append(by_seat[0]["loss"] - by_seat[1]["loss"])
        else:
            a = next(s for s in by_seat if s["bot"] == first)
            b = next(s for s in by_seat if s["bot"] == second)
            diffs.append(a["loss"] - b["loss"])
    mean, low, high = interval(diffs)
    by_jack = {
        name: jack_split([s for g in games for s in g["seats"] if s["bot"] == name])
        for name in {first, second}
    }
    labels = {}
    for name in {first, second}:
        seats = [s for g in games for s in g["seats"] if s["bot"] == name]
        labels[name] = sum(s["labels"] for s in seats) / max(1, sum(s["decisions"] for s in seats))
    return {
        "games": len(games),
        "mean_difference": round(mean, 4),
        "interval": [round(low, 4), round(high, 4)],
        "separates": not low <= 0.0 <= high,
        "labels_per_decision": {k: round(v, 4) for k, v in labels.items()},
        "loss_per_decision_by_jack": by_jack,
        "wins": {
            name: sum(1 for g in games if g["winner"] is not None and g["bots"][g["winner"]] == name)
            for name in {first, second}
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--bots", default="heuristic,greedy")
    parser.add_argument("--mirror", default="heuristic", help="the mirror match's bot ('' for none)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--dump", help="write every game's per-seat figures here (JSON lines)")
    parser.add_argument(
        "--repeat", type=int, default=8, help="records re-analysed for the labels' reproducibility"
    )
    parser.add_argument(
        "--no-jack-costs",
        action="store_true",
        help="judge with the evaluator's chances alone (evaluator.moves.JACK_COSTS off: the ablation)",
    )
    args = parser.parse_args()
    if args.no_jack_costs:  # before the workers fork, so that they inherit it
        from sequence_game.evaluator.moves import JACK_COSTS

        JACK_COSTS.clear()
    first, second = args.bots.split(",")
    deals = [args.seed + i for i in range((args.games + 1) // 2)]
    jobs = [((first, second) if k == 0 else (second, first), d) for d in deals for k in (0, 1)][: args.games]
    mirror_jobs = [((args.mirror, args.mirror), d + k * 100_000) for d in deals for k in (0, 1)][: args.games]
    if not args.mirror:
        mirror_jobs = []
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(judge, jobs))
        mirrors = list(pool.map(judge, mirror_jobs))
    if args.dump:
        with open(args.dump, "w") as f:
            f.writelines(
                json.dumps({k: v for k, v in g.items() if k != "record"}) + "\n" for g in games + mirrors
            )
    out: dict[str, Any] = {"bots": compare(games, first, second, mirror=False)}
    if mirrors:
        out["mirror"] = compare(mirrors, args.mirror, args.mirror, mirror=True)
    every = games + mirrors
    out["analysis_seconds"] = {
        "wall_median": round(statistics.median(g["wall"] for g in every), 2),
        "wall_max": round(max(g["wall"] for g in every), 2),
        "cpu_median": round(statistics.median(g["cpu"] for g in every), 2),
        "cpu_max": round(max(g["cpu"] for g in every), 2),
        "actions_median": statistics.median(g["actions"] for g in every),
        "actions_max": max(g["actions"] for g in every),
    }
    jaccards = []
    for g in games[: args.repeat]:
        again = analyze_record(g["record"], seed=12345)
        one, two = set(g["labelled"]), {m.index for m in again.moves if m.label}
        jaccards.append(len(one & two) / len(one | two) if one | two else 1.0)
    out["labels_jaccard"] = {"records": len(jaccards), "min": min(jaccards, default=None)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
