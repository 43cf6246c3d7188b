#!/usr/bin/env python3
"""What are a position's plays really worth? The evaluator's chances against rollouts of ``hard``
from the mover's view and from the true hands, on positions of real games.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/play_truth.py collect --games 300 \\
        --seed 3000 --out PLAYS.jsonl            # bots' games: heuristic and greedy
    OPENBLAS_NUM_THREADS=1 .venv/bin/python experiments/play_truth.py collect --games 300 \\
        --seed 5000 --games-of hint --out HINT.jsonl   # the evaluator's best play against hard
    .venv/bin/python experiments/play_truth.py report PLAYS.jsonl --hint HINT.jsonl \\
        --json experiments/results/play_truth.json

``collect`` plays games of ``--players`` (2 by default; ``mixed``: `heuristic` against itself and
against `greedy`, seats swapped, at 3 and 4 players one side's seats `greedy` in two games of
three; ``hint``: a seat that plays the evaluator's best play, the hint before
``analysis.hint``, against `heuristic`) and, at a quarter of the decisions (a fixed random
stream per game), values each candidate play: the evaluator's 4 best, the tuned ranking's 3
best, the evaluator's best natural card, two-eyed and one-eyed jack play, the play made, `hard`'s
choice and one random play. Each is valued by the evaluator (its chance after the play, the draw
averaged, as the analysis does) and by paired rollouts of `hard` on the compiled engine in four
kinds of worlds: dealt from the mover's view as the analysis' label check deals them (``ra``,
``rb``: two independent halves), dealt with the expert's reading of the other hand (``rr``; ``re``
with the expert's jack weights too), and the true other hands with the draw pile shuffled
(``ta``, ``tb``: two halves; what the mover could not know). The expert reads hands at 2 players
only, so at larger tables the two kinds of worlds with the reading are left out. ``report`` compares the choices on
the true-hand half each did not choose on, so that no choice gains from its own noise, and tries
the simplest correction of the evaluator's ranking: a cost for spending each kind of jack, fitted
on the other games' ``ta`` (five folds by seed); at 3 and more players also the 2-player costs and
costs searched on a grid for the best play itself.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import json
import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD, REMOVE, WILD
from sequence_game.bots import make_bot
from sequence_game.bots.base import forced_action
from sequence_game.bots.determinize import Determinizer, dealt_rows
from sequence_game.bots.pimc import TrueHands, kernel_groups
from sequence_game.bots.ranking import ranked_plays
from sequence_game.bots.reading import HandReader
from sequence_game.evaluator.advice import advise
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.moves import JACK_COSTS, judge_plays
from sequence_game.state import GameState
from sequence_game.views import PlayerView

TWO_PLAYER_COSTS = JACK_COSTS[2]
"""The jack costs fitted at 2 players, tried at other tables."""

EXPERT_JACK_WEIGHTS = (2.2, 2.8)
"""The expert's weights on the other hand holding a two-eyed and a one-eyed jack (bots.EXPERT)."""


def _values(rows: Any, plays: list[int], side: int, rng: random.Random) -> np.ndarray:
    """Each play's chance in each world (plays by worlds), rolled out by `hard`."""
    from sequence_game.fast import pimc as fast_pimc

    seeds = [rng.getrandbits(63) for _ in range(len(rows))]
    out = fast_pimc.candidate_values(rows, seeds, plays, side, policy=fast_pimc.INFERRING)
    return (np.asarray(out) + 1.0) / 2.0


def position(
    state: GameState,
    view: PlayerView,
    played: int,
    hard: int,
    rng: random.Random,
    worlds: int,
    reader: HandReader,
) -> dict[str, Any] | None:
    """One decision's candidate plays and their values (``None`` with fewer than two plays)."""
    acts = [a for a in view.legal_actions if a < DEAD]
    if len(acts) < 2:
        return None
    seat = view.seat
    judged = judge_plays(Evaluator.load(), state, seat, acts)
    chance = {p.action: c for p, c in judged}
    by_chance = sorted(acts, key=lambda a: -chance[a])
    tuned, _ = ranked_plays(view, acts, "tuned")
    cands: list[int] = []
    picks: list[int | None] = [*by_chance[:4], *tuned[:3]]
    for lo, hi in ((0, WILD), (WILD, REMOVE), (REMOVE, DEAD)):
        picks.append(next((a for a in by_chance if lo <= a < hi), None))
    picks += [played, hard, rng.choice(acts)]
    for a in picks:
        if a is not None and a < DEAD and a not in cands:
            cands.append(a)
    side = view.side
    plain = _values(dealt_rows(Determinizer(view, rng, True), worlds), cands, side, rng)
    reads: dict[str, list[float]] = {}
    if view.config.players == 2:  # the expert's reading, as it reads (2 players)
        held = reader.read(view)
        read = _values(dealt_rows(Determinizer(view, rng, True, held), worlds), cands, side, rng)
        weighted = Determinizer(view, rng, True, held, EXPERT_JACK_WEIGHTS)
        expert = _values(dealt_rows(weighted, worlds), cands, side, rng)
        reads = {"rr": read.mean(axis=1).tolist(), "re": expert.mean(axis=1).tolist()}
    truth = _values(dealt_rows(TrueHands(state, rng, seat), 2 * worlds), cands, side, rng)
    half = worlds // 2
    return {
        "players": view.config.players,
        "turn": state.turn,
        "plays": cands,
        "played": played,
        "hard": hard,
        "v": [chance[a] for a in cands],
        "tuned_rank": [tuned.index(a) for a in cands],
        "ra": plain[:, :half].mean(axis=1).tolist(),
        "rb": plain[:, half:].mean(axis=1).tolist(),
        **reads,
        "ta": truth[:, :worlds].mean(axis=1).tolist(),
        "tb": truth[:, worlds:].mean(axis=1).tolist(),
    }


def seat_bots(seed: int, games_of: str, config: GameConfig) -> list[str]:
    """Who plays each seat of game ``seed``: one side's seats play alike, as a team does."""
    if games_of == "hint":
        pair = [("evaluator", "heuristic"), ("heuristic", "evaluator")][seed % 2]
    else:
        pair = [("heuristic", "heuristic"), ("heuristic", "greedy"), ("greedy", "heuristic")][seed % 3]
    return [
        pair[0] if seat % config.sides == 0 else pair[1] if seat % config.sides == 1 else "heuristic"
        for seat in range(config.players)
    ]


def game(job: tuple[int, str, int, float, int]) -> list[dict[str, Any]]:
    """One game's sampled decisions."""
    seed, games_of, worlds, rate, players = job
    from sequence_game.fast.compile import ensure_compiled

    for group in kernel_groups(leaf=False):
        ensure_compiled(group)
    rng = random.Random(seed)
    config = GameConfig(players=players)
    seats = seat_bots(seed, games_of, config)
    bots = [make_bot("heuristic" if s == "evaluator" else s, seed=seed + i) for i, s in enumerate(seats)]
    reader = HandReader(8, 0.0, "heuristic")
    state = new_game(config, seed=seed)
    out = []
    while not state.is_terminal():
        seat = state.current_seat
        view = state.view(seat)
        hard = action = bots[seat].select_action(view)
        free = forced_action(view) is None
        if seats[seat] == "evaluator" and free:
            action = advise(view, rng, Evaluator.load()).action
        if free and (games_of != "hint" or seats[seat] == "evaluator") and rng.random() < rate:
            row = position(state, view, action, hard, rng, worlds, reader)
            if row is not None:
                out.append({"seed": seed, "mover": seats[seat], **row})
        state.apply(action, seat)
    return out


def collect(args: argparse.Namespace) -> None:
    jobs = [(args.seed + g, args.games_of, args.worlds, args.rate, args.players) for g in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool, open(args.out, "a", encoding="utf-8") as fh:
        for rows in pool.map(game, jobs):
            fh.writelines(json.dumps(row) + "\n" for row in rows)
            fh.flush()


def _load(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _mean_ci(x: np.ndarray) -> list[float]:
    half = 1.96 * float(x.std(ddof=1)) / len(x) ** 0.5 if len(x) > 1 else float("nan")
    return [float(x.mean()), float(x.mean()) - half, float(x.mean()) + half]


def _picked(rows: list[dict[str, Any]], choose: Callable[[dict[str, Any]], int], key: str) -> np.ndarray:
    """Per position, the ``key`` value of the play ``choose`` picks."""
    return np.array([r[key][choose(r)] for r in rows])


CHOICES: dict[str, Callable[[dict[str, Any]], int]] = {
    "the evaluator's best": lambda r: int(np.argmax(r["v"])),
    "the tuned ranking's first": lambda r: int(np.argmin(r["tuned_rank"])),
    "the play made": lambda r: r["plays"].index(r["played"]),
    "hard's play": lambda r: r["plays"].index(r["hard"]),
    "best by 64 worlds from the view": lambda r: int(np.argmax(r["ra"])),
    "best by 128 true-hand worlds": lambda r: int(np.argmax(r["ta"])),
}


def _choices(rows: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Each choice's true-hand value (the ``tb`` half) minus the evaluator's best play's."""
    base = _picked(rows, CHOICES["the evaluator's best"], "tb")
    return {name: _mean_ci(_picked(rows, pick, "tb") - base) for name, pick in CHOICES.items()}


def _jack_costs(rows: list[dict[str, Any]], key: str = "ta") -> np.ndarray:
    """The two chances to take off a two-eyed and a one-eyed jack play so that the evaluator's
    differences between one position's plays fit the true-hand rollouts' (``ta``) best: least
    squares on the differences from each position's mean (the simplest form of training on pairs
    of plays)."""
    xs, ys = [], []
    for r in rows:
        x = _jack_kinds(r["plays"])
        y = np.array(r[key]) - np.array(r["v"])
        xs.append(x - x.mean(axis=0))
        ys.append(y - y.mean())
    costs, *_ = np.linalg.lstsq(np.vstack(xs), -np.concatenate(ys), rcond=None)
    return costs


def _jack_kinds(plays: list[int]) -> np.ndarray:
    """Per play, whether it spends a two-eyed and a one-eyed jack (plays by 2, 0 or 1)."""
    a = np.array(plays)
    return np.stack([(a >= WILD) & (a < REMOVE), a >= REMOVE], axis=1).astype(float)


def _gains_with_costs(rows: list[dict[str, Any]], costs: Any) -> list[float]:
    """Per position, the evaluator's best play net of the jack ``costs`` (two-eyed, one-eyed),
    valued on the ``tb`` half, minus its own best play."""
    diffs = []
    for r in rows:
        net = np.array(r["v"]) - _jack_kinds(r["plays"]) @ np.asarray(costs)
        diffs.append(r["tb"][int(np.argmax(net))] - r["tb"][int(np.argmax(r["v"]))])
    return diffs


def _corrected(rows: list[dict[str, Any]], key: str = "ta") -> dict[str, Any]:
    """The evaluator's best play once the jack costs fitted (to ``key``) on the other games (seed
    mod 5) are taken off, valued on the ``tb`` half, minus the evaluator's own best play."""
    diffs: list[float] = []
    costs_by_fold = []
    for fold in range(5):
        test = [r for r in rows if r["seed"] % 5 == fold]
        costs = _jack_costs([r for r in rows if r["seed"] % 5 != fold], key)
        costs_by_fold.append(costs.tolist())
        diffs += _gains_with_costs(test, costs)
    return {"jack_costs_by_fold": costs_by_fold, "minus_the_evaluator_s_best": _mean_ci(np.array(diffs))}


def _searched(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The jack costs chosen for the decision itself: on each fold's other games, the pair on a
    grid (0 to 0.08 and 0 to 0.06, steps of 0.005) whose net best play is worth most on ``ta``;
    valued on the fold's games' ``tb``, minus the evaluator's own best play."""
    grid = [(a / 200, b / 200) for a in range(17) for b in range(13)]
    diffs: list[float] = []
    chosen = []
    for fold in range(5):
        train = [r for r in rows if r["seed"] % 5 != fold]
        scored = [dict(r, tb=r["ta"]) for r in train]  # the fit sees the ta half only
        best = max(grid, key=lambda c: float(np.mean(_gains_with_costs(scored, c))))
        chosen.append(list(best))
        diffs += _gains_with_costs([r for r in rows if r["seed"] % 5 == fold], best)
    return {"jack_costs_by_fold": chosen, "minus_the_evaluator_s_best": _mean_ci(np.array(diffs))}


def _losses(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The evaluator's loss (its best play's chance minus the play made's) against the same two
    plays' loss by rollouts, by bands of the evaluator's loss."""
    best = [int(np.argmax(r["v"])) for r in rows]
    made = [r["plays"].index(r["played"]) for r in rows]
    loss = {
        key: np.array([r[key][b] - r[key][m] for r, b, m in zip(rows, best, made, strict=True)])
        for key in ("v", "ra", "rr", "re", "tb")
        if all(key in r for r in rows)
    }
    bands = []
    for lo, hi in ((0.0, 0.01), (0.01, 0.03), (0.03, 0.06), (0.06, 0.1), (0.1, 1.0)):
        m = (loss["v"] >= lo) & (loss["v"] < hi)
        if m.sum() > 1:
            bands.append(
                {
                    "band": [lo, hi],
                    "n": int(m.sum()),
                    **{key: _mean_ci(values[m]) for key, values in loss.items()},
                }
            )
    return {"all": {key: _mean_ci(values) for key, values in loss.items()}, "bands": bands}


def report(args: argparse.Namespace) -> None:
    rows = _load(args.plays)
    out: dict[str, Any] = {"positions": len(rows)}
    keys = [key for key in ("v", "ra", "rr", "re", "ta") if all(key in r for r in rows)]
    out["mean_value"] = {key: float(np.mean([np.mean(r[key]) for r in rows])) for key in keys}
    out["by_mover"] = {}
    for mover in sorted({r["mover"] for r in rows}):
        mine = [r for r in rows if r["mover"] == mover]
        out["by_mover"][mover] = {"positions": len(mine), "choices": _choices(mine), "losses": _losses(mine)}
    out["jack_costs_taken_off"] = _corrected(rows)
    out["jack_costs_fitted_to_the_view"] = _corrected(rows, "ra")
    players = {r.get("players", 2) for r in rows}
    if players != {2}:  # another table: are the 2-player costs (fitted on other games) worth it here?
        out["jack_costs_searched"] = _searched(rows)
        out["two_player_costs"] = {
            "costs": TWO_PLAYER_COSTS,
            "minus_the_evaluator_s_best": _mean_ci(np.array(_gains_with_costs(rows, TWO_PLAYER_COSTS))),
        }
    if args.hint:
        hint = [r for r in _load(args.hint) if r["mover"] == "evaluator"]
        out["hint_games"] = {"positions": len(hint), "choices": _choices(hint)}
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and value their sampled decisions")
    c.add_argument("--games", type=int, default=100)
    c.add_argument("--seed", type=int, default=3000)
    c.add_argument("--games-of", choices=("mixed", "hint"), default="mixed")
    c.add_argument("--players", type=int, default=2, help="the table (the rules' default teams)")
    c.add_argument("--worlds", type=int, default=128, help="worlds of each kind from the view (true: twice)")
    c.add_argument("--rate", type=float, default=0.25, help="share of the decisions valued")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--out", required=True)
    r = sub.add_parser("report", help="the tables")
    r.add_argument("plays")
    r.add_argument("--hint", help="collect --games-of hint's output")
    r.add_argument("--json")
    args = p.parse_args()
    collect(args) if args.command == "collect" else report(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
