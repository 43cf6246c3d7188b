"""Fixed ratings of the bot levels at 3 sides (the server's ``3p`` and ``3t`` "plays like").

    nice -n 10 .venv/bin/python scripts/bot_league.py --games 1800 --seed 1 \\
        --out src/sequence_game/research/league_v1.json

The benchmark ladder (``sequence_game.research.ladder``) measured the levels at 2 sides only. Here
the levels ``random``, ``greedy`` and ``hard`` (the ``heuristic`` bot, each at its own default
budget) meet three at a time, one level a side, at two tables: ``3p`` (``GameConfig(players=3)``)
and ``3-teams`` (``GameConfig(players=6, teams=3)``, each seat of a side its own bot instance).
The ``expert`` level is left out: its search takes seconds a move, and a level without an anchor
simply does not show.

Games: deal ``d`` (0, 1, ...) of a table is ``new_game(config, seed=deal_seed(seed, table, d),
dealer=players - 1)`` (seat 0 starts) and is played once for each of the 6 ways to seat the 3
levels on the 3 sides, so every level plays every side on the same cards; ``--games`` is rounded
up to whole deals (a multiple of 6). Seat ``s``'s bot is seeded ``deal_seed * 16 + s``. A drawn
game (about 1% end so, by the rules), or one stopped at :data:`MAX_TURNS`, counts as a win shared
by all sides (a third each; the ladder counts half a win each at 2 sides).

Fit: Plackett-Luce by maximum likelihood over all games of a table at once. Only the winner of a
Sequence game is known (the others tie for second), and Plackett-Luce's chance that side ``i``
finishes first is ``exp(t_i) / sum_j exp(t_j)`` whatever the order of the rest, so each game
contributes that one factor. As in ``bots.ratings.bradley_terry``, one virtual game shared by all
levels keeps a level that never wins finite. The strengths go on OpenSkill's scale the way the
ladder's do: OpenSkill's Plackett-Luce gives that same chance with ``t_i = mu_i / c``,
``c = sqrt(k) * beta`` for ``k`` sides with no ``sigma`` (``c = sqrt(2) * beta`` at 2 sides, the
ladder's constant), ``beta = 25 / 6``; ``random`` is fixed at ``mu`` 25. ``sigma`` is the fit's
standard error of ``mu - mu(random)`` (inverse observed information; ``random``, the origin, 0).
Like the ladder's 2-team table, a team is rated as one player with the side's strength.

Each game's result is appended to ``--log`` (default: ``--out`` with ``.games.jsonl``) as it
ends; a rerun with the same ``--seed`` skips the games found there (resumable).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sequence_game.bots import Limit, make_bot
from sequence_game.bots.tournament import next_actor
from sequence_game.config import GameConfig
from sequence_game.state import new_game

PROTOCOL = "sequence-league3/1"
#: The levels by rung name (weakest first, the ladder's names) and their bot.
LEVELS = {"random": "random", "greedy": "greedy", "hard": "heuristic"}
TABLES = {"3p": GameConfig(players=3), "3-teams": GameConfig(players=6, teams=3)}
MAX_TURNS = 2000
BETA = 25 / 6
ORIGIN_MU = 25.0


def deal_seed(seed: int, table: str, deal: int) -> int:
    """The published seed of deal ``deal`` of ``table`` in the league seeded ``seed``."""
    return seed * 10_000_000 + list(TABLES).index(table) * 1_000_000 + deal


def orders() -> list[tuple[str, ...]]:
    """The 6 ways to seat the levels: ``order[side]`` is the level of that side."""
    return list(itertools.permutations(LEVELS))


def play(table: str, seed: int, deal: int, order: Sequence[str]) -> dict[str, Any]:
    """One game: the winning level (``None``: drawn, or stopped at the turn limit) and its length."""
    config = TABLES[table]
    dseed = deal_seed(seed, table, deal)
    state = new_game(config, seed=dseed, dealer=config.players - 1)
    bots = [make_bot(LEVELS[order[config.side_of(s)]], seed=dseed * 16 + s) for s in range(config.players)]
    limit = Limit()
    while not state.is_terminal() and state.turn < MAX_TURNS:
        seat = next_actor(state)
        state.apply(bots[seat].select_action(state.view(seat), limit), seat)
    outcome = state.outcome()
    side = None if outcome is None else outcome.winner
    return {
        "table": table,
        "deal": deal,
        "order": list(order),
        "winner": None if side is None else order[side],
        "winner_side": side,
        "turns": state.turn,
    }


# ---------------------------------------------------------------- the fit


def plackett_luce_winners(
    levels: Sequence[str], games: Iterable[tuple[Sequence[str], str | None]], prior: float = 1.0
) -> tuple[dict[str, float], dict[str, float]]:
    """Maximum-likelihood Plackett-Luce strengths from games of which only the winner is known.

    ``games``: ``(the levels that played, the winner)``, ``None`` for a game nobody won (a win
    shared equally). The chance that ``i`` wins among the players ``P`` is
    ``exp(t_i) / sum_{j in P} exp(t_j)``. ``prior``: the weight of one virtual game among all
    ``levels`` won by each equally. Returns ``t`` (natural log-odds, ``levels[0]`` at 0) and the
    standard error of each ``t`` (``levels[0]``: 0), from the inverse of the observed information.
    """
    index = {name: i for i, name in enumerate(levels)}
    k = len(levels)
    groups: dict[tuple[int, ...], tuple[np.ndarray, float]] = {}  # players -> (wins, games)
    for players, winner in games:
        key = tuple(sorted(index[p] for p in players))
        wins, n = groups.get(key, (np.zeros(k), 0.0))
        if winner is None:
            wins[list(key)] += 1 / len(key)
        else:
            wins[index[winner]] += 1
        groups[key] = (wins, n + 1)
    if prior > 0:
        everyone = tuple(range(k))
        wins, n = groups.get(everyone, (np.zeros(k), 0.0))
        groups[everyone] = (wins + prior / k, n + prior)
    masks = [(np.isin(np.arange(k), key), wins, n) for key, (wins, n) in groups.items()]

    def probs(t: np.ndarray, mask: np.ndarray) -> np.ndarray:
        e = np.where(mask, np.exp(t - t[mask].max()), 0.0)
        return np.asarray(e / e.sum())

    def nll(t: np.ndarray) -> float:
        """Minus the log-likelihood (of the real and the virtual games)."""
        value = 0.0
        for mask, wins, n in masks:
            top = t[mask].max()
            value -= float(wins @ t) - n * (top + math.log(np.exp(t[mask] - top).sum()))
        return value

    def information(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The gradient of :func:`nll` and its Hessian (the observed information)."""
        grad, info = np.zeros(k), np.zeros((k, k))
        for mask, wins, n in masks:
            p = probs(t, mask)
            grad -= wins - n * p
            info += n * (np.diag(p) - np.outer(p, p))
        return grad, info

    # Newton's method on the free strengths (``levels[0]`` stays at 0), halving a step that
    # does not lower ``nll`` (it is convex, so this converges)
    t = np.zeros(k)
    for _ in range(200):
        grad, info = information(t)
        step = np.concatenate(([0.0], np.linalg.solve(info[1:, 1:], grad[1:])))
        size, before = 1.0, nll(t)
        while nll(t - size * step) > before and size > 1e-9:
            size /= 2
        t = t - size * step
        if np.abs(size * step).max() < 1e-10:
            break
    _grad, info = information(t)
    cov = np.linalg.inv(info[1:, 1:])
    se = np.concatenate(([0.0], np.sqrt(np.diag(cov))))
    return (
        {name: float(t[i]) for i, name in enumerate(levels)},
        {name: float(se[i]) for i, name in enumerate(levels)},
    )


def to_openskill(
    strengths: dict[str, float], errors: dict[str, float], sides: int, origin: str
) -> dict[str, dict[str, float]]:
    """Strengths in log-odds on OpenSkill's scale: ``mu = 25 + (t - t[origin]) * sqrt(sides) * beta``."""
    c = math.sqrt(sides) * BETA
    return {
        name: {"mu": ORIGIN_MU + (t - strengths[origin]) * c, "sigma": errors[name] * c}
        for name, t in strengths.items()
    }


def fit_table(results: Sequence[dict[str, Any]], sides: int) -> dict[str, dict[str, float]]:
    """A table's anchors from its games' records (as :func:`play` returns them)."""
    names = list(LEVELS)
    strengths, errors = plackett_luce_winners(names, [(r["order"], r["winner"]) for r in results])
    return to_openskill(strengths, errors, sides, names[0])


# ---------------------------------------------------------------- the command


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1800, help="games a table (rounded up to 6 a deal)")
    parser.add_argument("--seed", type=int, default=1, help="the league's seed (deal seeds follow)")
    parser.add_argument("--table", choices=list(TABLES), action="append", help="a table (default: both)")
    parser.add_argument("--out", type=Path, default=Path("league.json"), help="the anchors' JSON")
    parser.add_argument("--log", type=Path, help="games played so far (default: OUT.games.jsonl)")
    args = parser.parse_args(argv)
    tables = args.table or list(TABLES)
    log_path = args.log or args.out.with_suffix(".games.jsonl")
    done: dict[tuple[str, int, tuple[str, ...]], dict[str, Any]] = {}
    if log_path.exists():
        for line in log_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                if r.get("seed") == args.seed:
                    done[(r["table"], r["deal"], tuple(r["order"]))] = r
    deals = -(-args.games // len(orders()))
    start = time.time()
    with log_path.open("a", encoding="utf-8") as log:
        for table in tables:
            for deal in range(deals):
                for order in orders():
                    if (table, deal, order) in done:
                        continue
                    r = {"seed": args.seed, **play(table, args.seed, deal, order)}
                    done[(table, deal, order)] = r
                    log.write(json.dumps(r) + "\n")
                    log.flush()
                print(f"{table}: deal {deal + 1}/{deals} ({time.time() - start:.0f} s)", file=sys.stderr)
    ratings: dict[str, dict[str, dict[str, float]]] = {}
    summary: dict[str, Any] = {}
    for table in tables:
        results = [r for (t, d, _o), r in done.items() if t == table and d < deals]
        anchors = fit_table(results, TABLES[table].sides)
        ratings[table] = anchors
        wins = {name: sum(r["winner"] == name for r in results) for name in LEVELS}
        summary[table] = {
            "games": len(results),
            "wins": wins,
            "drawn": sum(r["winner"] is None for r in results),
            "wins_by_side": [sum(r["winner_side"] == s for r in results) for s in range(TABLES[table].sides)],
            "mean_turns": round(sum(r["turns"] for r in results) / len(results), 1),
            "interval95": {
                name: [round(a["mu"] - 1.96 * a["sigma"], 2), round(a["mu"] + 1.96 * a["sigma"], 2)]
                for name, a in anchors.items()
            },
        }
    out = {
        "protocol": PROTOCOL,
        "command": "scripts/bot_league.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed,
        "games_per_table": deals * len(orders()),
        "levels": [{"rung": name, "bot": bot} for name, bot in LEVELS.items()],
        "tables": {t: {"players": TABLES[t].players, "sides": TABLES[t].sides} for t in tables},
        "ratings": ratings,
        "scores": summary,
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"ratings": ratings, "scores": summary}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
