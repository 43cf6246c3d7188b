"""The winner's curse in the analysis' judge, and the double estimator that removes it.

    python experiments/double_judge.py fit --data DATA --out-a A.npz --out-b B.npz
    OPENBLAS_NUM_THREADS=1 python experiments/double_judge.py skill A.npz B.npz --games 50 --seed 1000 --workers 2

The analysis calls a decision's loss ``max over plays of the evaluator's chance - the chance of
the play made``. A maximum over many estimates is biased upwards by their errors: a two-eyed jack
can go to some 80 places, so the evaluator's best place for it is partly its luckiest error, and
keeping a jack looks like a loss that rollouts do not confirm (``judge_vs_rollouts.py``). The
textbook remedy (the double estimator, as in double Q-learning) chooses the best play with one
estimator and values it with another whose errors are independent of the first's.

``fit`` trains two networks like the shipped one (scripts/train_evaluator.py's data directory:
its self-play chunks and calibration games) on disjoint halves of the training games
(``(seed // 10) % 2``; the held-out games, seed 0 mod 10, in neither), each with its own Platt
scalings. ``skill`` plays the games of ``analysis_skill.py`` and computes every decision's loss
three ways: the shipped evaluator alone (the analysis today), and the double estimator
``(B(best by A) - B(played) + A(best by B) - A(played)) / 2``, unclipped and clipped at 0; then
the per-game difference between the two bots with its 95% interval, and the same for a mirror
match.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")


sys.path.insert(0, str(Path(__file__).parent))
from analysis_skill import play

from sequence_game.analysis.game import load_evaluator, steps
from sequence_game.analysis.judge import judge
from sequence_game.bots.base import forced_action
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.selfplay import TABLES, Positions
from sequence_game.evaluator.training import fit, platt


def fit_halves(data: Path, out_a: Path, out_b: Path, epochs: int) -> None:
    chunks = sorted(data.glob("selfplay-*.npz")) + sorted(data.glob("explore-*.npz"))
    positions = Positions.concat([Positions.load(str(p)) for p in chunks])
    cal = Positions.concat([Positions.load(str(p)) for p in sorted(data.glob("calibration-*.npz"))])
    train = positions.game % 10 != 0
    half = (positions.game // 10) % 2 == 0
    for name, rows, out in (("A", train & half, out_a), ("B", train & ~half, out_b)):
        print(f"{name}: {int(rows.sum())} positions", file=sys.stderr)
        net = fit(
            positions.x[rows],
            positions.y[rows],
            epochs=epochs,
            seed=1 if name == "A" else 2,
            log=lambda line: print(line, file=sys.stderr),
        )
        logits = net.logits(cal.x)
        net.calibration = platt(logits, cal.y)
        net.tables = {}
        for config, _ in TABLES:
            sel = (cal.players == config.players) & (cal.sides == config.sides)
            net.tables[(config.players, config.sides)] = platt(logits[sel], cal.y[sel])
        net.meta = {
            "version": f"2-half-{name}",
            "data": f"training games with (seed // 10) % 2 == {0 if name == 'A' else 1}",
        }
        net.save(out)


def chance_of(plays: list[Any], action: int, card: Any) -> float:
    for p in plays:
        if p.action == action and (p.card == card or card is None or p.card is None):
            return float(p.chance)
    raise KeyError(action)


def losses(job: tuple[tuple[str, str], int, str, str]) -> dict[str, Any]:
    bots, seed, path_a, path_b = job
    one, a, b = load_evaluator(), Evaluator.load(path_a), Evaluator.load(path_b)
    record = play(bots, seed)
    _config, final, walk = steps(record)
    per_seat: dict[int, dict[str, list[float]]] = {0: {}, 1: {}}
    for i, step in enumerate(walk):
        state = step.state
        if forced_action(state.view(step.seat)) is not None or step.action < 0:
            continue
        after = walk[i + 1].state if i + 1 < len(walk) else final
        ja = judge(state, step.seat, step.action, step.card, after, a, decision=True)
        jb = judge(state, step.seat, step.action, step.card, after, b, decision=True)
        j1 = judge(state, step.seat, step.action, step.card, after, one, decision=True)
        best_a, best_b = ja.plays[0], jb.plays[0]
        double = 0.5 * (
            chance_of(jb.plays, best_a.action, best_a.card)
            - jb.after
            + chance_of(ja.plays, best_b.action, best_b.card)
            - ja.after
        )
        seat = per_seat[step.seat]
        seat.setdefault("single", []).append(max(0.0, j1.before - j1.after))
        seat.setdefault("double", []).append(double)
        seat.setdefault("double_clipped", []).append(max(0.0, double))
    return {"bots": bots, "seed": seed, "seats": per_seat}


def interval(diffs: list[float]) -> dict[str, Any]:
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {
        "mean": round(mean, 4),
        "interval": [round(mean - half, 4), round(mean + half, 4)],
        "separates": not mean - half <= 0.0 <= mean + half,
    }


def compare(games: list[dict[str, Any]], first: str, mirror: bool) -> dict[str, Any]:
    """Per game, the first bot's mean loss per decision minus the second's (seat 0 minus seat 1
    in a mirror match), for each way of judging."""
    out = {}
    for kind in ("single", "double", "double_clipped"):
        diffs, mine_all, theirs_all = [], [], []
        for g in games:
            s = g["seats"]
            mine = 0 if mirror or g["bots"][0] == first else 1
            a, b = s[mine][kind], s[1 - mine][kind]
            diffs.append(statistics.fmean(a) - statistics.fmean(b))
            mine_all += a
            theirs_all += b
        out[kind] = interval(diffs)
        out[kind]["loss_per_decision"] = {
            "first": round(statistics.fmean(mine_all), 4),
            "second": round(statistics.fmean(theirs_all), 4),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--data", type=Path, required=True)
    f.add_argument("--out-a", type=Path, required=True)
    f.add_argument("--out-b", type=Path, required=True)
    f.add_argument("--epochs", type=int, default=8)
    s = sub.add_parser("skill")
    s.add_argument("a", type=Path)
    s.add_argument("b", type=Path)
    s.add_argument("--games", type=int, default=50)
    s.add_argument("--seed", type=int, default=1000)
    s.add_argument("--bots", default="heuristic,greedy")
    s.add_argument("--mirror", default="heuristic")
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if args.command == "fit":
        fit_halves(args.data, args.out_a, args.out_b, args.epochs)
        return
    first, second = args.bots.split(",")
    deals = [args.seed + i for i in range((args.games + 1) // 2)]
    jobs = [
        ((first, second) if k == 0 else (second, first), d, str(args.a), str(args.b))
        for d in deals
        for k in (0, 1)
    ][: args.games]
    mirror_jobs = [
        ((args.mirror, args.mirror), d + k * 100_000, str(args.a), str(args.b)) for d in deals for k in (0, 1)
    ][: args.games]
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(losses, jobs))
        mirrors = list(pool.map(losses, mirror_jobs))
    out = {"bots": compare(games, first, mirror=False), "mirror": compare(mirrors, args.mirror, mirror=True)}
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
