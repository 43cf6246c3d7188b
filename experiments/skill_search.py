"""Decisions judged by the expert's search instead of the one-ply evaluator: can they show skill?

    python experiments/skill_search.py --games 200 --seed 1000 --workers 2 --worlds 64 --dump GAMES.jsonl
    python experiments/skill_search.py --load GAMES.jsonl --json experiments/results/skill_search.json

The analysis' decisions figure (the loss against the evaluator's best of every legal play) ranks
``greedy`` above ``heuristic`` (``docs/analysis.md``, "Skill shows"): the maximum of some 70
one-ply estimates is mostly a jack play that ``hard`` would not find, and its error. A judge that
plays better than one ply, and picks its best play with less of that curse, is the next thing to
try. Here every decision of ``analysis_skill.py``'s games (``heuristic`` against ``greedy`` on
paired deals, seats swapped, then ``heuristic`` against itself) is judged the way the expert
chooses a move: the plays the tuned heuristic ranks best (``--width``) and the play made, valued
by rollouts of ``hard`` in ``--worlds`` worlds dealt from the mover's view with the expert's
reading of the other hand (full rollouts, or cut after ``--leaf`` turns and judged by the
evaluator). The loss of the play made is cross-fitted, so that no play is both chosen and valued
on the same worlds: the best play by the worlds of one half, the loss of the play made against it
on the other half, both ways round, averaged. An unlucky best play then counts as no loss, and
the figure's mean is not inflated by the maximum's noise.

``--model actual`` rolls each seat out as the bot that played it (``heuristic`` as the compiled
heuristic with inference, ``greedy`` as the compiled ``greedy``) and reads the other hand as its
bot plays: a judge that knows both players, which no analysis of people's games has, to see
whether the decisions carry the bots' difference once the continuation is the real one.

Per game and side the figures are the result, minus the mean loss a decision (``loss``), minus
the summed loss (``loss_sum``), and the same against the tuned ranking's first play instead of the
best, valued on every world (``vs_top``, ``vs_top_sum``: no choice to cross-fit, and exactly 0
where the play made is that play), first bot minus second (seat 0 minus seat 1 in the mirror), with
the signal per game (mean over standard deviation; above about 0.28 a figure separates 50 games at
95%) and how many disjoint samples of ``--sample`` games separate.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from analysis_skill import play  # the same games: two bots on one deal, a record
from skill_kinds import add_match_arguments, differences, match_games, report

from sequence_game.actions import DEAD, DRAW
from sequence_game.analysis.game import steps
from sequence_game.bots import EXPERT, make_bot
from sequence_game.bots.base import Limit, forced_action
from sequence_game.bots.mcts import Determinizer
from sequence_game.bots.pimc import PimcBot
from sequence_game.fast.pimc import GREEDY, INFERRING
from sequence_game.state import GameState
from sequence_game.views import PlayerView

ACTUAL = {"heuristic": INFERRING, "greedy": GREEDY}
"""``--model actual``: the compiled rollout policy that plays as each bot does."""


def cross_fitted_loss(values: list[list[float]], played: int) -> float:
    """The loss of candidate ``played`` against the best: chosen on one half of the worlds, valued
    on the other, both ways round (the mean of the two)."""
    n = len(values[0])
    half = n // 2
    losses = []
    for choose, value in ((slice(0, half), slice(half, n)), (slice(half, n), slice(0, half))):
        best = max(range(len(values)), key=lambda i: sum(values[i][choose]))
        # not clipped at 0: clipping would count the noise as loss
        mean_best, mean_played = (
            statistics.fmean(values[best][value]),
            statistics.fmean(values[played][value]),
        )
        losses.append(mean_best - mean_played)
    return statistics.fmean(losses) / 2  # rollout values run -1..1: a chance is half of one


def plays(view: PlayerView) -> list[int]:
    """The legal plays of a view that the expert ranks (a dead card's discard is not one)."""
    return [a for a in view.legal_actions if a < DEAD]


def choices(record: dict[str, Any]) -> tuple[list[tuple[Any, PlayerView]], GameState]:
    """A record's decisions (each play with a choice: not a draw, a dead card's discard or a
    forced move) with the mover's view, and the final state."""
    _config, final, walk = steps(record)
    out = []
    for step in walk:
        view = step.state.view(step.seat)
        if step.action != DRAW and step.action < DEAD and forced_action(view) is None:
            out.append((step, view))
    return out, final


def judge_for(bots: tuple[str, str], seat: int, opts: dict[str, Any], seed: int) -> PimcBot:
    """The judge of ``seat``'s decisions: the expert's search, its rollouts ``hard`` on every seat,
    or with ``--model actual`` each seat's own bot (and the other hand read as its bot plays)."""
    spec = EXPERT
    if opts.get("model") == "actual":
        other = bots[1 - seat]
        spec = EXPERT[:-1] + f", reading_model={other!r})"
    bot = make_bot(spec, seed=seed)
    assert isinstance(bot, PimcBot)
    bot.leaf, bot.leaf_rollouts = opts["leaf"], 0
    if opts.get("model") == "actual":
        bot.policy, bot.opponents = ACTUAL[bots[seat]], ACTUAL[bots[1 - seat]]
    return bot


def judge_game(job: tuple[tuple[str, str], int, dict[str, Any]]) -> dict[str, Any]:
    """One game: every decision's cross-fitted loss under the search judge, and the winner."""
    bots, seed, opts = job
    record = play(bots, seed)
    judges = [judge_for(bots, seat, opts, seed + 7 + seat) for seat in (0, 1)]
    rng = random.Random(seed * 31 + 5)
    rows = []
    began = time.process_time()
    decisions, final = choices(record)
    for step, view in decisions:
        bot = judges[step.seat]
        order, _net = bot.ranked(view, plays(view))
        cands = bot.candidates(order, opts["width"])
        if step.action not in cands:
            cands.append(step.action)
        held = bot.reader.read(view) if bot.reader is not None else None
        source = Determinizer(view, rng, bot.inference, held, bot.jack_weights)
        limit = Limit(simulations=opts["worlds"] * len(cands))
        values = bot._rollouts(view, cands, source, time.perf_counter(), limit)
        rows.append(
            {
                "seat": step.seat,
                "loss": round(cross_fitted_loss(values, cands.index(step.action)), 5),
                # against the ranking's first play, on every world (0 where the play is that one)
                "vs_top": round(
                    (statistics.fmean(values[0]) - statistics.fmean(values[cands.index(step.action)])) / 2, 5
                ),
                "top": step.action == order[0],
            }
        )
    outcome = final.outcome()
    winner = outcome.winner if outcome else None
    return {
        "bots": bots,
        "seed": seed,
        "winner": winner,
        "decisions": rows,
        "options": opts,
        "cpu": round(time.process_time() - began, 2),
    }


def side_figures(game: dict[str, Any], seat: int) -> dict[str, float]:
    mine = [d["loss"] for d in game["decisions"] if d["seat"] == seat]
    top = [d["vs_top"] for d in game["decisions"] if d["seat"] == seat]
    winner = game["winner"]
    return {
        "result": 0.5 if winner is None else float(winner == seat),
        "loss": -statistics.fmean(mine) if mine else 0.0,
        "loss_sum": -sum(mine),
        "vs_top": -statistics.fmean(top) if top else 0.0,
        "vs_top_sum": -sum(top),
    }


def per_decision(games: list[dict[str, Any]], mirror: bool) -> dict[str, dict[str, float]]:
    """Each bot's (each seat's in the mirror) mean loss a decision, against the best and against
    the ranking's first play, and how often its play was that first play."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        for d in g["decisions"]:
            rows.setdefault(f"seat {d['seat']}" if mirror else g["bots"][d["seat"]], []).append(d)
    return {
        who: {
            "decisions": len(ds),
            "loss": round(statistics.fmean(d["loss"] for d in ds), 5),
            "vs_top": round(statistics.fmean(d["vs_top"] for d in ds), 5),
            "played_top": round(statistics.fmean(d["top"] for d in ds), 3),
        }
        for who, ds in sorted(rows.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_match_arguments(parser)
    parser.add_argument(
        "--worlds", type=int, default=64, help="worlds a decision (every candidate meets each)"
    )
    parser.add_argument(
        "--width", type=int, default=8, help="the ranking's best plays judged with the play made"
    )
    parser.add_argument("--leaf", type=int, default=0, help="cut rollouts after this many turns (0: full)")
    parser.add_argument(
        "--model",
        choices=("hard", "actual"),
        default="hard",
        help="the rollouts' players: `hard`, or the bots that played",
    )
    args = parser.parse_args()
    opts: dict[str, Any] = {
        "worlds": args.worlds,
        "width": args.width,
        "leaf": args.leaf,
        "model": args.model,
    }
    games, mirrors = match_games(args, judge_game, (opts,))
    if args.load:
        opts = games[0].get("options", opts)  # the run's own (dumps before this field: the defaults)
    first = args.bots.split(",")[0]
    out = {
        "options": opts,
        "games": len(games),
        "mirror_games": len(mirrors),
        "cpu_per_game": statistics.median(g["cpu"] for g in games + mirrors),
        "per_decision": {"bots": per_decision(games, False), "mirror": per_decision(mirrors, True)},
    }
    report(
        out,
        differences(games, first, False, side_figures),
        differences(mirrors, args.mirror, True, side_figures),
        args,
    )


if __name__ == "__main__":
    main()
