#!/usr/bin/env python3
"""A learned model of the other hand: which hidden cards a ``heuristic`` player holds, from the
public board and its plays (a calibration first).

The ``heuristic`` bot builds toward spaces whose cards it holds (its reach table counts a held
card fully, an unseen one at 0.6) and keeps its jacks, so the board says something about its hand
beyond what :mod:`sequence_game.bots.reading` reads from the plays it passed over. This script
plays ``heuristic`` against ``heuristic`` (2 players), and at every other turn records, per kind of
hidden card, features of the public position and how many copies the other seat holds. It fits a
binomial logistic model per copy (numpy, Newton's method) on the training games and reports, on
held-out games, the log-likelihood per hidden copy of: the base rate (every hidden copy alike),
the reading's evidence alone, and the full model; then how many cards of the true hand a dealt
hand holds (as ``experiments/hand_reading.py``) when the held-since-a-play cards are dealt by the
model's weights instead of the fixed jack weights.

    nice -n 10 .venv/bin/python experiments/hand_model.py --train 200 --test 40 --seed 900

``--save FILE`` writes the fitted coefficients as JSON (for a dealer to load).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter

import numpy as np
from hand_reading import heuristic_positions  # the same games (experiments/ is on the path)

from sequence_game.actions import DEAD, REMOVE, WILD
from sequence_game.board import CARD_MASK, CORNERS, LINES, LINES_THROUGH, cells_of
from sequence_game.bots.evaluation import Board
from sequence_game.bots.mcts import Determinizer
from sequence_game.bots.reading import HandReader, HeldSince
from sequence_game.cards import JD, JH, NUM_CARDS, ONE_EYED, TWO_EYED
from sequence_game.views import PlayerView
from sequence_game.worlds import unseen_cards

NATURAL = tuple(c for c in range(NUM_CARDS) if c not in TWO_EYED | ONE_EYED)
KINDS = (*NATURAL, JD, JH)
"""Each natural card, then the two-eyed and the one-eyed jacks as one kind each."""
NAMES = (
    "bias",
    "base_logit",
    "log_allowed",
    "pull_other",
    "pull_other_sq",
    "pull_mine",
    "dead",
    "near_last_play",
    "near_recent_plays",
    "stage",
    "two_eyed",
    "one_eyed",
    "two_eyed_stage",
    "one_eyed_stage",
)


def pull(board: Board, side: int, cell: int) -> int:
    """The most chips (corners counted) ``side`` has in a window through ``cell`` that no other
    side blocks: how much that side would gain from the space."""
    others = 0
    for s, mask in enumerate(board.chips):
        if s != side:
            others |= mask
    mine = board.chips[side] | CORNERS
    best = 0
    for w in LINES_THROUGH[cell]:
        line = LINES[w]
        if not line & others:
            best = max(best, (line & mine).bit_count())
    return best


def shares_open_window(board: Board, side: int, a: int, b: int) -> bool:
    """Whether some window through both cells is open to ``side``."""
    others = 0
    for s, mask in enumerate(board.chips):
        if s != side:
            others |= mask
    bit = 1 << b
    return any(LINES[w] & bit and not LINES[w] & others for w in LINES_THROUGH[a])


def position_rows(
    view: PlayerView, other: int, groups: list[HeldSince]
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Per kind with a hidden copy: the kind, its features and its hidden copies (trials)."""
    board = Board.of_view(view)
    side_o = other % view.config.sides
    side_m = view.side
    unseen = unseen_cards(view)
    hidden = sum(unseen.values())
    h = view.hand_sizes[other]
    base = math.log(h / max(hidden - h, 1))
    empty = ~board.occupied
    plays = [e[1] for e in view.history if e[0] == other and e[1] < DEAD]
    cells = [a if a < WILD else a - WILD for a in plays if a < REMOVE]
    stage = view.turn / 100.0
    kinds, rows, trials = [], [], []
    for kind in KINDS:
        if kind in TWO_EYED:
            u = sum(unseen[c] for c in TWO_EYED)
        elif kind in ONE_EYED:
            u = sum(unseen[c] for c in ONE_EYED)
        else:
            u = unseen[kind]
        if u == 0:
            continue
        not_it = sum(g.held for g in groups if g.seat == other and kind in g.absent)
        allowed = math.log(max(0.0, 1.0 - not_it / max(h, 1)) + 0.02)
        j2, j1 = kind in TWO_EYED, kind in ONE_EYED
        if j2 or j1:
            po = po2 = pm = dead = near = recent = 0.0
        else:
            spaces = cells_of(CARD_MASK[kind] & empty)
            dead = 0.0 if spaces else 1.0
            po = max((pull(board, side_o, c) for c in spaces), default=0) / 4.0
            po2 = po * po
            pm = max((pull(board, side_m, c) for c in spaces), default=0) / 4.0
            near = float(bool(cells) and any(shares_open_window(board, side_o, cells[-1], c) for c in spaces))
            recent = sum(
                1.0 for p in cells[-4:-1] if any(shares_open_window(board, side_o, p, c) for c in spaces)
            )
        rows.append(
            [1.0, base, allowed, po, po2, pm, dead, near, recent, stage, j2, j1, j2 * stage, j1 * stage]
        )
        kinds.append(kind)
        trials.append(u)
    return kinds, np.array(rows), np.array(trials, dtype=np.float64)


def held_counts(hand: list[int], kinds: list[int]) -> np.ndarray:
    counts = Counter(hand)
    j2 = sum(counts[c] for c in TWO_EYED)
    j1 = sum(counts[c] for c in ONE_EYED)
    return np.array(
        [j2 if k in TWO_EYED else j1 if k in ONE_EYED else counts[k] for k in kinds], dtype=np.float64
    )


def collect(first_seed: int, games: int, turns: int) -> list[dict]:
    """Positions of heuristic games: view, the other seat, its reading, its true hand."""
    out = []
    for turn, state in heuristic_positions(first_seed, games):
        if turn == 0:  # a game's own memory, one a seat
            readers = [HandReader(turns=turns, margin=0), HandReader(turns=turns, margin=0)]
        seat = state.current_seat
        view = state.view(seat)
        if turn >= 6 and turn % 2 == 0:
            other = 1 - seat
            groups = readers[seat].read(view)
            kinds, x, u = position_rows(view, other, groups)
            y = held_counts(state.hand(other), kinds)
            out.append(
                {
                    "view": view,
                    "other": other,
                    "groups": groups,
                    "kinds": kinds,
                    "x": x,
                    "u": u,
                    "y": y,
                    "hand": list(state.hand(other)),
                }
            )
    return out


def fit(x: np.ndarray, u: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 30) -> np.ndarray:
    """Binomial logistic regression (y successes of u trials) by Newton's method."""
    w = np.zeros(x.shape[1])
    w[1] = 1.0  # start from the base rate
    for _ in range(iters):
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (y - u * p) - l2 * w
        hess = (x * (u * p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w


def loglik(x: np.ndarray, u: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    z = x @ w
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return float((y * np.log(p) + (u - y) * np.log(1 - p)).sum() / u.sum())


def stack(rows: list[dict], cols: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.concatenate([r["x"] for r in rows])[:, cols]
    u = np.concatenate([r["u"] for r in rows])
    y = np.concatenate([r["y"] for r in rows])
    return x, u, y


def card_weights(row: dict, w: np.ndarray) -> dict[int, float]:
    """Per card, its odds under the model (the reading's evidence left out: the dealer applies
    it as a constraint) over the base rate's odds."""
    x = row["x"].copy()
    x[:, 2] = math.log(1.02)
    z = x @ w
    base = x[:, 1]
    out: dict[int, float] = {}
    for kind, zi, bi in zip(row["kinds"], z, base, strict=True):
        ratio = math.exp(zi - bi)
        for card in TWO_EYED if kind in TWO_EYED else ONE_EYED if kind in ONE_EYED else (kind,):
            out[card] = ratio
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", type=int, default=200, help="training games")
    p.add_argument("--test", type=int, default=40, help="held-out games")
    p.add_argument("--seed", type=int, default=900, help="first training deal's seed")
    p.add_argument("--turns", type=int, default=8, help="plays read back per seat")
    p.add_argument("--samples", type=int, default=10, help="hands dealt a test position per dealer")
    p.add_argument("--save", help="write the fitted coefficients here (JSON)")
    args = p.parse_args()
    began = time.perf_counter()
    train = collect(args.seed, args.train, args.turns)
    test = collect(args.seed + 100_000, args.test, args.turns)
    print(
        f"{len(train)} training positions ({args.train} games), {len(test)} held out ({args.test} games), "
        f"{time.perf_counter() - began:.0f} s"
    )
    all_cols = list(range(len(NAMES)))
    models = {
        "base rate": [0, 1],
        "reading": [0, 1, 2],
        "reading+jack terms": [0, 1, 2, 9, 10, 11, 12, 13],
        "full": all_cols,
    }
    fitted = {}
    for name, cols in models.items():
        w = fit(*stack(train, cols))
        fitted[name] = (cols, w)
        print(
            f"{name:20} held-out log-likelihood per hidden copy {loglik(*stack(test, cols), w):.4f}"
            f" (train {loglik(*stack(train, cols), w):.4f})"
        )
    cols, w = fitted["full"]
    print("full model's coefficients:", ", ".join(f"{n}={v:.3f}" for n, v in zip(NAMES, w, strict=True)))
    # dealing: the reading's constraints with the fixed jack weights, or with the model's weights
    rng = random.Random(args.seed)
    jacks = dict.fromkeys(TWO_EYED, 2.2) | dict.fromkeys(ONE_EYED, 2.8)
    totals: Counter[str] = Counter()
    for row in test:
        truth = Counter(row["hand"])
        totals["truth j2"] += sum(truth[c] for c in TWO_EYED)
        totals["truth j1"] += sum(truth[c] for c in ONE_EYED)
        for name, weights in (("reading+jacks", jacks), ("reading+model", card_weights(row, w))):
            dealer = Determinizer(row["view"], rng, True, row["groups"])
            dealer.weights = weights
            for _ in range(args.samples):
                hand = Counter(dealer.sample().hand(row["other"]))
                totals[name] += sum((hand & truth).values()) / args.samples
                totals[name + " j2"] += sum(hand[c] for c in TWO_EYED) / args.samples
                totals[name + " j1"] += sum(hand[c] for c in ONE_EYED) / args.samples
    n = len(test)
    print(f"true hand: two-eyed {totals['truth j2'] / n:.3f}, one-eyed {totals['truth j1'] / n:.3f}")
    for name in ("reading+jacks", "reading+model"):
        print(
            f"{name:15} cards of the true hand {totals[name] / n:.3f}, two-eyed {totals[name + ' j2'] / n:.3f},"
            f" one-eyed {totals[name + ' j1'] / n:.3f}"
        )
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump({"names": [NAMES[c] for c in cols], "coef": list(map(float, w))}, f, indent=1)
    print(f"{time.perf_counter() - began:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
