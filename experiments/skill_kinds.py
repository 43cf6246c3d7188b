"""Decisions figures that judge a play against plays of its own kind: can they show skill?

    python experiments/skill_kinds.py --games 200 --seed 1000 --workers 2 --dump GAMES.jsonl
    python experiments/skill_kinds.py --load GAMES.jsonl --json experiments/results/skill_kinds.json

The analysis' decisions figure (the loss against the evaluator's best play) ranks ``greedy`` above
``heuristic`` because the evaluator prefers spending a jack that ``heuristic`` keeps
(``docs/analysis.md``, "Skill shows"). This script plays the same games as ``analysis_skill.py``
(``heuristic`` against ``greedy`` on paired deals, seats swapped, then ``heuristic`` against itself)
and keeps, for every decision, the evaluator's chance of each legal play by kind: a natural card
(a dead card's discard counts as one), a two-eyed jack, a one-eyed jack. Per game and side it then
computes these figures (higher is better for the side), first bot minus second (seat 0 minus
seat 1 in the mirror):

- ``loss_vs_best``: minus the mean loss against the best play of any kind (the analysis today);
- ``loss_vs_kind``: minus the mean loss against the best play that spends the same kind of card
  as the play made (whether to spend a jack is not judged), the loss against any play counted
  where a play wins at once or the mover must block a winning four (``label_of``'s missed win
  and missed block: there the evaluator is certain);
- ``loss_cards``: ``loss_vs_kind`` over the decisions where a natural card was played only;
- ``rank_in_kind``: the mean share of the same kind's plays that the play made beats (ties half).

For each: the mean difference with its 95% interval, the signal per game (mean over standard
deviation; above about 0.28 a figure separates 50 games at 95%), and how many disjoint samples of
``--sample`` games separate, both for the bots and for the mirror.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from analysis_skill import play  # the same games: two bots on one deal, a record

from sequence_game.actions import DEAD, DRAW, REMOVE, WILD
from sequence_game.analysis.game import blocking_plays, load_evaluator, steps, winning_plays
from sequence_game.analysis.judge import judge
from sequence_game.bots.base import forced_action


def kind(action: int) -> str:
    if WILD <= action < REMOVE:
        return "two"
    if REMOVE <= action < DEAD:
        return "one"
    return "card"


def decisions(job: tuple[tuple[str, str], int]) -> dict[str, Any]:
    """One game: for every decision, the play's kind and chance and every legal play's (kind, chance)."""
    bots, seed = job
    record = play(bots, seed)
    evaluator = load_evaluator()
    _config, final, walk = steps(record)
    rows = []
    for i, step in enumerate(walk):
        view = step.state.view(step.seat)
        if step.action == DRAW or forced_action(view) is not None:
            continue
        after = walk[i + 1].state if i + 1 < len(walk) else final
        j = judge(step.state, step.seat, step.action, step.card, after, evaluator, decision=True)
        certain = bool(winning_plays(view) or blocking_plays(view))
        rows.append(
            {
                "seat": step.seat,
                "kind": kind(step.action),
                "chance": j.after,
                "plays": [(kind(p.action), round(p.chance, 6)) for p in j.plays],
                "certain": certain,
            }
        )
    outcome = final.outcome()
    winner = outcome.winner if outcome else None
    return {"bots": bots, "seed": seed, "winner": winner, "decisions": rows}


def side_figures(game: dict[str, Any], seat: int) -> dict[str, float]:
    mine = [d for d in game["decisions"] if d["seat"] == seat]
    vs_best, vs_kind, cards, ranks = [], [], [], []
    for d in mine:
        chance = d["chance"]
        best = max(c for _k, c in d["plays"])
        same = [c for k, c in d["plays"] if k == d["kind"]]
        vs_best.append(max(0.0, best - chance))
        loss = max(0.0, (best if d["certain"] else max(same)) - chance)
        vs_kind.append(loss)
        if d["kind"] == "card":
            cards.append(loss)
        if len(same) > 1:
            beaten = sum(1.0 if c < chance else 0.5 if c == chance else 0.0 for c in same) - 0.5
            ranks.append(beaten / (len(same) - 1))
    winner = game["winner"]
    return {
        "result": 0.5 if winner is None else float(winner == seat),
        "loss_vs_best": -statistics.fmean(vs_best) if vs_best else 0.0,
        "loss_vs_kind": -statistics.fmean(vs_kind) if vs_kind else 0.0,
        "loss_cards": -statistics.fmean(cards) if cards else 0.0,
        "rank_in_kind": statistics.fmean(ranks) if ranks else 0.5,
    }


def differences(
    games: list[dict[str, Any]],
    first: str,
    mirror: bool,
    figures_of: Callable[[dict[str, Any], int], dict[str, float]] = side_figures,
) -> dict[str, list[float]]:
    """Per game, each figure of the first bot minus the second's (seat 0 minus seat 1 in the mirror)."""
    out: dict[str, list[float]] = {}
    for g in games:
        a = 0 if mirror else g["bots"].index(first)
        fa, fb = figures_of(g, a), figures_of(g, 1 - a)
        for f in fa:
            out.setdefault(f, []).append(fa[f] - fb[f])
    return out


def summary(values: list[float], sample: int) -> dict[str, Any]:
    mean = statistics.fmean(values)
    sd = statistics.stdev(values)
    half = 1.96 * sd / math.sqrt(len(values))
    parts = [values[i : i + sample] for i in range(0, len(values) - sample + 1, sample)]
    separate = 0
    for p in parts:
        m, h = statistics.fmean(p), 1.96 * statistics.stdev(p) / math.sqrt(len(p))
        separate += not m - h <= 0.0 <= m + h
    return {
        "mean": round(mean, 5),
        "interval": [round(mean - half, 5), round(mean + half, 5)],
        "signal_per_game": round(mean / sd, 3) if sd else None,
        "samples_separating": f"{separate} of {len(parts)}",
    }


def add_match_arguments(parser: argparse.ArgumentParser, games: int = 200) -> None:
    """The options every skill experiment shares: the games, the bots, the output."""
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--bots", default="heuristic,greedy")
    parser.add_argument("--mirror", default="heuristic")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--dump", help="write the games' decisions here (JSON lines)")
    parser.add_argument("--load", help="read games dumped before instead of playing")
    parser.add_argument("--json", help="write the summary here too")


def match_games(
    args: argparse.Namespace, one: Callable[[Any], dict[str, Any]], extra: tuple[Any, ...] = ()
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The two bots' games (each deal twice, seats swapped) and the mirror's, each judged by
    ``one`` (given the bots, the seed and ``extra``): loaded from ``--load`` or played (and
    written to ``--dump``)."""
    if args.load:
        every = [json.loads(line) for line in Path(args.load).read_text().splitlines()]
        return [g for g in every if g["bots"][0] != g["bots"][1]], [
            g for g in every if g["bots"][0] == g["bots"][1]
        ]
    first, second = args.bots.split(",")
    deals = [args.seed + i for i in range((args.games + 1) // 2)]
    jobs = [((first, second) if k == 0 else (second, first), d, *extra) for d in deals for k in (0, 1)]
    mirror_jobs = [((args.mirror, args.mirror), d + k * 100_000, *extra) for d in deals for k in (0, 1)]
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(one, jobs[: args.games], chunksize=2))
        mirrors = list(pool.map(one, mirror_jobs[: args.games], chunksize=2))
    if args.dump:
        with open(args.dump, "w") as f:
            f.writelines(json.dumps(g) + "\n" for g in games + mirrors)
    return games, mirrors


def report(
    out: dict[str, Any],
    bots: dict[str, list[float]],
    mirror: dict[str, list[float]],
    args: argparse.Namespace,
) -> None:
    """Print the summary (``out`` and each figure's for the bots and the mirror), and write it to ``--json``."""
    out["bots"] = {f: summary(v, args.sample) for f, v in bots.items()}
    out["mirror"] = {f: summary(v, args.sample) for f, v in mirror.items()}
    print_json(out, args.json)


def print_json(out: dict[str, Any], path: str | Path | None) -> None:
    """Print a report, and write it to ``path`` (``--json``) where one is given."""
    text = json.dumps(out, indent=1)
    print(text)
    if path:
        Path(path).write_text(text + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_match_arguments(parser)
    args = parser.parse_args()
    games, mirrors = match_games(args, decisions)
    first = args.bots.split(",")[0]
    bots = differences(games, first, mirror=False)
    mirror = differences(mirrors, args.mirror, mirror=True)
    report({"games": len(games), "mirror_games": len(mirrors)}, bots, mirror, args)


if __name__ == "__main__":
    main()
