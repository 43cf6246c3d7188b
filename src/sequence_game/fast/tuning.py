"""Paired matches between two sets of the heuristic's numbers, wholly compiled: what a search over
those numbers (``experiments/tune_heuristic.py``) scores its candidates with.

One-at-a-time changes to the heuristic's weights were measured in 800-game Python matches
(``docs/bots.md``); a joint search needs thousands of games per candidate, which only the
compiled policy (:func:`~sequence_game.fast.heuristic.choose_params_with`, move for move the
Python ``HeuristicBot``) affords. Every deal is played once per side A takes (both seat orders
with two sides), from the same random state, so luck of the deal cancels out.

>>> from sequence_game.fast.heuristic import DEFAULT_PARAMS
>>> result = paired_match(DEFAULT_PARAMS, DEFAULT_PARAMS, deals=2, seed=1)
>>> result.games, result.wins + result.losses + result.draws
(4, 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from ..cards import DECK_SIZE
from ..config import GameConfig
from . import kernels as k
from .heuristic import (
    DEFAULT_PARAMS,
    FLOAT_WORK,
    INT_WORK,
    NUM_PARAMS,
    P_BLOCK,
    P_CENTRE,
    P_LINE,
    P_ONE_EYED,
    P_REACH,
    P_THREAT,
    P_TWO_EYED,
    check_params,
    choose_params_with,
)

MAX_TURNS: Final = 2000
"""A game stops unfinished after this many turns (heuristic games last about 60-100)."""
WIN: Final = 0
LOSS: Final = 1
DRAW: Final = 2
UNFINISHED: Final = 3
"""What :func:`match_kernel` records per game, from A's side."""

_SEED_MASK: Final = (1 << 62) - 1


@k.allocating_kernel
def match_kernel(
    players: int,
    sides: int,
    deals: int,
    seed: int,
    pa: np.ndarray,
    pb: np.ndarray,
    inference: bool,
    max_turns: int,
    out: np.ndarray,
) -> None:
    """Deal ``deals`` games (deal ``d`` from random state ``seed + d``); play each once with A's
    numbers ``pa`` on side ``a`` for every side ``a`` and ``pb`` on the others, from the same
    random state (the same dealer, deck and tie-breaks until the play differs); ``out[d, a]`` is
    :data:`WIN`, :data:`LOSS`, :data:`DRAW` or :data:`UNFINISHED` for A."""
    s = np.empty(k.ROW, dtype=np.int32)
    deck = np.empty(DECK_SIZE, dtype=np.int32)
    rs = np.empty(1, dtype=np.uint64)
    iw = np.zeros(INT_WORK, dtype=np.int64)
    fw = np.zeros(FLOAT_WORK, dtype=np.float64)
    for d in range(deals):
        for a in range(sides):
            rs[0] = k.seed_state(seed + d)
            k.deal_random(s, rs, 0, players, sides, deck)
            while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns:
                p = pa if s[k.I_SEAT] % sides == a else pb
                k.apply(s, rs, 0, choose_params_with(s, rs, 0, iw, fw, p, inference))
            if s[k.I_END] == k.END_NONE:
                out[d, a] = UNFINISHED
            elif s[k.I_WINNER] < 0:
                out[d, a] = DRAW
            else:
                out[d, a] = WIN if s[k.I_WINNER] == a else LOSS


@dataclass(frozen=True)
class MatchResult:
    """A's games in a paired match."""

    wins: int
    losses: int
    draws: int
    """Drawn and unfinished games (R7.2), each worth half a win in :attr:`score`."""

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """A's share of the points: a win 1, a drawn game 1/2."""
        return (self.wins + 0.5 * self.draws) / max(self.games, 1)

    def wilson(self, z: float = 1.96) -> tuple[float, float]:
        """The 95% Wilson interval of A's win rate (drawn games as half wins)."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.score
        centre = p + z * z / (2 * n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def paired_match(
    pa: np.ndarray,
    pb: np.ndarray,
    deals: int,
    seed: int = 0,
    *,
    config: GameConfig | None = None,
    inference: bool = True,
) -> MatchResult:
    """A (numbers ``pa``) against B (``pb``) on ``deals`` deals from ``seed``, A on each side of
    every deal in turn: ``deals * sides`` games. ``inference`` as ``HeuristicBot``'s (on in the
    default ``heuristic`` bot). The same ``seed`` gives the same deals to every candidate."""
    if deals < 1:
        raise ValueError(f"a match needs at least one deal, not {deals}")
    table = config or GameConfig(players=2)
    out = np.zeros((deals, table.sides), dtype=np.int64)
    match_kernel(
        table.players,
        table.sides,
        deals,
        seed & _SEED_MASK,
        check_params(pa),
        check_params(pb),
        inference,
        MAX_TURNS,
        out,
    )
    return MatchResult(
        wins=int((out == WIN).sum()),
        losses=int((out == LOSS).sum()),
        draws=int(((out == DRAW) | (out == UNFINISHED)).sum()),
    )


def bot_options(params: np.ndarray) -> dict[str, Any]:
    """The ``HeuristicBot`` options that play as ``params`` (``sequence_game.bots.specs``)."""
    p = check_params(params)
    return {
        "weights": {
            "line": tuple(float(x) for x in p[P_LINE : P_LINE + 6]),
            "block": tuple(float(x) for x in p[P_BLOCK : P_BLOCK + 6]),
            "centre": float(p[P_CENTRE]),
        },
        "jack_costs": (float(p[P_TWO_EYED]), float(p[P_ONE_EYED])),
        "threat_weight": float(p[P_THREAT]),
        "reach": tuple(float(x) for x in p[P_REACH : P_REACH + 3]),
    }


def bot_spec(params: np.ndarray, digits: int = 4) -> str:
    """A ``heuristic(...)`` bot spec playing as ``params``, for ``--bots`` and ``--variants``."""

    def num(x: float) -> str:
        return repr(float(f"{x:.{digits}g}"))

    def nums(xs: tuple[float, ...]) -> str:
        return "(" + ", ".join(num(x) for x in xs) + ")"

    o = bot_options(params)
    w = o["weights"]
    return (
        f"heuristic(weights={{'line': {nums(w['line'])}, 'block': {nums(w['block'])}, "
        f"'centre': {num(w['centre'])}}}, jack_costs={nums(o['jack_costs'])}, "
        f"threat_weight={num(o['threat_weight'])}, reach={nums(o['reach'])})"
    )


def rounded(params: np.ndarray, digits: int = 4) -> np.ndarray:
    """``params`` rounded as :func:`bot_spec` writes them (so a spec plays what was measured)."""
    return np.array([float(f"{x:.{digits}g}") for x in check_params(params)], dtype=np.float64)


__all__ = [
    "DEFAULT_PARAMS",
    "NUM_PARAMS",
    "MatchResult",
    "bot_options",
    "bot_spec",
    "paired_match",
    "rounded",
]
