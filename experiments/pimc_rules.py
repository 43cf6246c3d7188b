#!/usr/bin/env python3
"""Which decision rule turns the expert's rollouts into the best plays: positions scored once,
every rule judged offline against the true hands.

Positions come from 2-player games of the tuned heuristic (the expert's ranking, standing in for
the expert, which plays it unless its rollouts say otherwise) against ``heuristic``. In each, the
tuned heuristic's ``--width`` best plays are rolled out exactly as the expert rolls them out
(compiled heuristic with inference on every seat, to the end of the game, common random numbers):

- in ``--fair`` worlds sampled from the view by the expert's own dealer (the reading of the other
  seat's last 8 plays, jack weights 2.2 and 2.8): what the expert sees;
- in ``--truth`` worlds with the TRUE hands and the draw pile shuffled: the value of each play to
  a player who could read every hand but not the draws, the yardstick a fair choice is judged by.

The two sets of worlds are independent, so a rule that chooses on the fair values and is scored
on the true-hands values is not flattered by its own noise. ``save`` writes every position's
arrays to an ``.npz`` file; ``analyse`` reads one or more of them and prints, for each rule (the
expert's ``confidence`` at several budgets, a fixed minimum lead, the ranking's score as a prior),
how much win probability a move it gains over the ranking's own play, by the true hands.

    nice -n 0 .venv/bin/python experiments/pimc_rules.py save --positions 300 --seed 1 --out /tmp/r1.npz
    .venv/bin/python experiments/pimc_rules.py analyse /tmp/r1.npz /tmp/r2.npz
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD
from sequence_game.bots import make_bot
from sequence_game.bots.base import forced_action
from sequence_game.bots.heuristic import WIN, HeuristicBot
from sequence_game.bots.mcts import Determinizer, _play_scores, _spent
from sequence_game.bots.pimc import TrueHands
from sequence_game.bots.planner import LENGTH_PENALTY
from sequence_game.bots.ranking import RANKINGS
from sequence_game.bots.reading import HandReader
from sequence_game.fast.pimc import INFERRING, candidate_values, world_rows

HORIZON = 200


def save(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    reader = HandReader(8, 0.0)
    weights, costs, threat_weight, reach = RANKINGS["tuned"]  # the expert's ranking at 2 players
    out: dict[str, list[np.ndarray]] = {
        "fair": [],
        "truth": [],
        "scores": [],
        "turn": [],
        "n": [],
        "plays": [],
    }
    positions = game = 0
    began = time.perf_counter()
    while positions < args.positions:
        state = new_game(GameConfig(players=2), seed=args.seed * 100_000 + game)
        me = game % 2  # the tuned seat alternates
        bots = {
            me: HeuristicBot(
                seed=game, weights=weights, jack_costs=costs, threat_weight=threat_weight, reach=reach
            ),
            1 - me: make_bot("heuristic", seed=game + 7),
        }
        game += 1
        while not state.is_terminal() and positions < args.positions:
            seat = state.current_seat
            view = state.view(seat)
            action = bots[seat].select_action(view)
            if seat == me and forced_action(view) is None and not any(view.penalty_due):
                acts = [a for a in view.legal_actions if a < DEAD]
                if len(acts) > 1 and rng.random() < args.share:
                    scores = _play_scores(view, acts, True, weights, threat_weight, reach)
                    net = {a: scores[a] - _spent(a, costs) for a in acts}
                    order = sorted(acts, key=lambda a: -net[a])
                    if net[order[0]] < WIN / 2:
                        cands = order[: args.width]
                        fair = _values(_fair_worlds(view, rng, reader, args.fair), rng, cands, view.side)
                        truth = _values(
                            TrueHands(state, rng, seat).sample_batch(args.truth), rng, cands, view.side
                        )
                        pad = args.width - len(cands)
                        out["fair"].append(np.pad(fair, ((0, pad), (0, 0))))
                        out["truth"].append(np.pad(truth, ((0, pad), (0, 0))))
                        out["scores"].append(
                            np.pad(np.array([net[a] for a in cands]), (0, pad), constant_values=-1e9)
                        )
                        out["turn"].append(np.array(state.turn))
                        out["n"].append(np.array(len(cands)))
                        out["plays"].append(np.pad(np.array(cands), (0, pad), constant_values=-1))
                        positions += 1
                        if positions % 20 == 0:
                            print(
                                f"  {positions} positions, {time.perf_counter() - began:.0f} s",
                                file=sys.stderr,
                                flush=True,
                            )
            state.apply(action, seat)
    np.savez_compressed(args.out, **{key: np.stack(v) for key, v in out.items()})
    print(f"{positions} positions from {game} games in {time.perf_counter() - began:.0f} s -> {args.out}")
    return 0


def _fair_worlds(view, rng: random.Random, reader: HandReader, n: int):  # type: ignore[no-untyped-def]
    """``n`` worlds from the expert's own dealer (reading=8, margin=0, jack_weights=(2.2, 2.8))."""
    return Determinizer(view, rng, True, reader.read(view), (2.2, 2.8)).sample_batch(n)


def _values(worlds, rng: random.Random, cands: list[int], side: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    seeds = [rng.getrandbits(63) for _ in worlds]
    return candidate_values(world_rows(worlds), seeds, cands, side, INFERRING, HORIZON, LENGTH_PENALTY)


# --- the rules, judged offline -------------------------------------------------------------------


def _lead(fair: np.ndarray, c: int) -> tuple[float, float]:
    """Mean paired difference of candidate ``c`` over the ranking's play and its standard error."""
    d = fair[c] - fair[0]
    n = d.shape[0]
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf


def confidence_rule(fair: np.ndarray, width: int, k: float, minimum: float = 0.0) -> int:
    """The expert's rule: the best mean, if it beats the ranking's play by ``k`` standard errors
    (and, with ``minimum``, by that much value); else the ranking's play."""
    means = fair[:width].mean(axis=1)
    best = int(np.argmax(means))  # ties: the first, the ranking's order
    if best == 0:
        return 0
    d, se = _lead(fair, best)
    return best if d >= k * se and d >= minimum else 0


def prior_rule(fair: np.ndarray, scores: np.ndarray, width: int, weight: float) -> int:
    """The best of the fair mean plus ``weight`` times the ranking's score (per 100 points)."""
    means = fair[:width].mean(axis=1) + weight * (scores[:width] - scores[0]) / 100.0
    return int(np.argmax(means))


def analyse(args: argparse.Namespace) -> int:
    data = [np.load(f) for f in args.files]
    fair = np.concatenate([d["fair"] for d in data])
    truth = np.concatenate([d["truth"] for d in data])
    scores = np.concatenate([d["scores"] for d in data])
    ns = np.concatenate([d["n"] for d in data])
    p, width, nf = fair.shape
    nt = truth.shape[2]
    print(f"{p} positions, width {width}, {nf} fair and {nt} true-hands worlds each")
    # the true-hands gain of each candidate over the ranking's play, in win probability (points)
    gain = 100 * (truth.mean(axis=2) - truth[:, :1].mean(axis=2)) / 2
    gain[np.arange(width)[None, :] >= ns[:, None]] = -np.inf

    def judge(name: str, picks: np.ndarray) -> None:
        g = gain[np.arange(p), picks]
        moved = picks != 0
        print(
            f"  {name:<44} moves {100 * moved.mean():5.1f}%  gain {g.mean():+.3f} +- {g.std(ddof=1) / math.sqrt(p):.3f}"
            f"  (per move moved {g[moved].mean() if moved.any() else 0.0:+.2f})"
        )

    # an upper bound: the best candidate by half the true-hands worlds, judged on the other half
    half = nt // 2
    ideal = np.argmax(
        np.where(np.arange(width)[None, :] < ns[:, None], truth[:, :, :half].mean(axis=2), -np.inf), 1
    )
    other = 100 * (truth[:, :, half:].mean(axis=2) - truth[:, :1, half:].mean(axis=2)) / 2
    print(
        f"  {'true hands choose (half), judged on the rest':<44} moves {100 * (ideal != 0).mean():5.1f}%  "
        f"gain {other[np.arange(p), ideal].mean():+.3f}"
    )
    for budget in args.budgets:
        for w in args.widths:
            sub = fair[:, :, :budget]
            for k in args.confidences:
                picks = np.array([confidence_rule(sub[i], min(w, ns[i]), k) for i in range(p)])
                judge(f"{budget} worlds, width {w}, confidence {k}", picks)
            for m in args.minimums:
                picks = np.array([confidence_rule(sub[i], min(w, ns[i]), 1.0, m) for i in range(p)])
                judge(f"{budget} worlds, width {w}, conf 1 and lead >= {m}", picks)
            for wt in args.priors:
                picks = np.array([prior_rule(sub[i], scores[i], min(w, ns[i]), wt) for i in range(p)])
                judge(f"{budget} worlds, width {w}, prior {wt} per 100", picks)
    if args.rollouts:
        _equal_budgets(args, fair, ns, gain)
    # how the fair lead predicts the true gain, for the best alternative at the full budget
    d = np.zeros(p)
    z = np.zeros(p)
    t = np.zeros(p)
    for i in range(p):
        means = fair[i, : ns[i]].mean(axis=1)
        means[0] = -np.inf
        b = int(np.argmax(means))
        dd, se = _lead(fair[i], b)
        d[i], z[i], t[i] = 100 * dd / 2, dd / se if se > 0 else 0.0, gain[i, b]
    print("  the best alternative at the full budget, by its fair lead in standard errors:")
    for lo, hi in ((-99, 0), (0, 1), (1, 2), (2, 3), (3, 5), (5, 99)):
        sel = (z >= lo) & (z < hi)
        if sel.any():
            print(
                f"    z in [{lo}, {hi}): {sel.sum():4d} positions, fair lead {d[sel].mean():+.2f}, "
                f"true gain {t[sel].mean():+.2f} +- {t[sel].std(ddof=1) / math.sqrt(max(sel.sum(), 2)) if sel.sum() > 1 else 0:.2f}"
            )
    return 0


def halving_rule(fair: np.ndarray, width: int, rollouts: int, k: float) -> int:
    """Sequential halving over the ranking's ``width`` best plays with ``rollouts`` in all: each
    round gives the survivors an equal share of fresh worlds (the same worlds for all of them),
    drops the worse half by mean, and the last round's best replaces the ranking's play (if it
    survived to the end) only by ``k`` standard errors."""
    alive = list(range(width))
    rounds = max(1, math.ceil(math.log2(width)))
    used = 0
    for r in range(rounds):
        share = rollouts // rounds // len(alive)
        used = min(fair.shape[1], used + max(share, 1))
        if r == rounds - 1 or len(alive) <= 2:
            break
        means = fair[alive, :used].mean(axis=1)
        keep = max(2, len(alive) // 2)
        order = sorted(range(len(alive)), key=lambda j: -means[j])[:keep]
        alive = sorted(alive[j] for j in order)
        if 0 not in alive:  # the ranking's play stays as the reference the lead is measured by
            alive = [0, *alive[:-1]]
    sub = fair[:, :used]
    means = sub[alive].mean(axis=1)
    best = alive[int(np.argmax(means))]
    if best == 0:
        return 0
    d, se = _lead(sub, best)
    return best if d >= k * se else 0


def _equal_budgets(args, fair, ns, gain) -> None:  # type: ignore[no-untyped-def]
    """Widths and rules compared at the same number of rollouts a move, paired by position
    against the expert's rule (width 4, confidence 1)."""
    p, _, nf = fair.shape
    for rollouts in args.rollouts:
        print(f"  -- {rollouts} rollouts a move (paired against width 4, confidence 1):")
        rules: list[tuple[str, np.ndarray]] = []
        for w in args.widths:
            n = min(nf, rollouts // w)
            for k in args.confidences:
                picks = np.array([confidence_rule(fair[i, :, :n], min(w, ns[i]), k) for i in range(p)])
                rules.append((f"width {w} ({n} worlds), confidence {k}", picks))
            for k in (0.0, 1.0):
                if w > 2:
                    picks = np.array([halving_rule(fair[i], min(w, ns[i]), rollouts, k) for i in range(p)])
                    rules.append((f"width {w} halving, confidence {k}", picks))
        base = next(
            pk for name, pk in rules if name.startswith("width 4 (") and name.endswith("confidence 1.0")
        )
        g0 = gain[np.arange(p), base]
        for name, picks in rules:
            g = gain[np.arange(p), picks]
            d = g - g0
            print(
                f"    {name:<40} moves {100 * (picks != 0).mean():5.1f}%  gain {g.mean():+.3f}  "
                f"vs expert {d.mean():+.3f} +- {d.std(ddof=1) / math.sqrt(p):.3f}"
            )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save")
    s.add_argument("--positions", type=int, default=200)
    s.add_argument("--width", type=int, default=6)
    s.add_argument("--fair", type=int, default=400, help="worlds sampled from the view a position")
    s.add_argument("--truth", type=int, default=400, help="true-hands worlds a position")
    s.add_argument("--share", type=float, default=0.35, help="chance a move of the tuned seat is taken")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", required=True)
    a = sub.add_parser("analyse")
    a.add_argument("files", nargs="+")
    a.add_argument("--budgets", type=int, nargs="+", default=[25, 100, 250, 400])
    a.add_argument("--widths", type=int, nargs="+", default=[4, 6])
    a.add_argument("--confidences", type=float, nargs="+", default=[0.0, 0.5, 1.0, 1.5, 2.0, 3.0])
    a.add_argument("--minimums", type=float, nargs="*", default=[0.02, 0.04, 0.08])
    a.add_argument("--priors", type=float, nargs="*", default=[0.01, 0.03, 0.1])
    a.add_argument("--rollouts", type=int, nargs="*", default=[], help="compare widths at these budgets")
    args = p.parse_args()
    return save(args) if args.command == "save" else analyse(args)


if __name__ == "__main__":
    sys.exit(main())
