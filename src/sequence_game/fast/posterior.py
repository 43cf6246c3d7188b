"""How well a guessed hand explains a play: the compiled heuristic asked what it would have played.

A search over sampled worlds deals the other seats' hidden cards from what the view allows; the
reading (``bots.reading``) drops the cards a play showed were not held. A play says more than
that: the heuristic scores a placement by the cards left in its hand (a line toward spaces it
holds cards for is worth more, a four it can fill is a threat), and it exchanges a dead card before
it plays. So the hand a world gives a seat can be scored by how far the play that seat actually
made falls short of the heuristic's own choice with that hand, the *regret*: 0 where the hand
makes the play the heuristic's choice, large where the hand would have played otherwise. A search
weights its worlds by ``exp(-regret / T)`` (:class:`sequence_game.bots.posterior.PosteriorDealer`).

:func:`play_regrets` scores a batch of guessed hands for the seat to play in a row (the position
of the play, rebuilt from the public history by ``bots.posterior.past_row``) in one compiled call.

>>> from sequence_game import GameConfig
>>> from sequence_game.fast.engine import FastGame
>>> game = FastGame.new(GameConfig(players=2), seed=4)
>>> seat, hand = game.current_seat, game.hand(game.current_seat)
>>> best = h.heuristic_action(game, inference=True)
>>> regrets = play_regrets(game.row, np.array([hand], dtype=np.int32), seat, best)
>>> float(regrets[0])
0.0
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..board import NUM_CELLS
from . import heuristic as h
from . import kernels as k
from .compile import ensure_compiled

IMPOSSIBLE: Final = 1000.0
"""The regret of a hand that could not have made the play, or would first have exchanged a dead
card (R5.1): far above any real shortfall, finite so that a player who breaks the model (a person
who keeps a dead card) only makes its worlds unlikely, not impossible."""


@k.kernel
def _regrets(
    template: np.ndarray,
    hands: np.ndarray,
    sizes: np.ndarray,
    seat: int,
    action: int,
    policy: int,
    s: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[w]``: how far ``action`` falls short of the best play of ``policy`` (a rollout
    policy of :func:`~.heuristic.score_policy`) for ``seat`` in the row ``template`` holding
    ``hands[w, :sizes[w]]`` (:data:`IMPOSSIBLE` where the hand cannot make it, or would have
    exchanged a dead card first)."""
    for w in range(hands.shape[0]):
        for j in range(template.shape[0]):
            s[j] = template[j]
        n = sizes[w]
        s[k.O_HLEN + seat] = n
        for j in range(n):
            s[k.O_HAND + seat * k.MAX_HAND + j] = hands[w, j]
        m = h.score_policy(s, iw, fw, policy)
        if m <= 0:
            out[w] = IMPOSSIBLE  # a forced action: a dead card exchanged first, or a stuck hand
            continue
        best = -np.inf
        mine = -np.inf
        for j in range(m):
            score = fw[h.F_SCORES + j]
            best = max(best, score)
            if iw[h.I_PLAYS + j] == action:
                mine = score
        out[w] = IMPOSSIBLE if mine == -np.inf else min(best - mine, IMPOSSIBLE)


def play_regrets(
    template: np.ndarray,
    hands: np.ndarray,
    seat: int,
    action: int,
    sizes: np.ndarray | None = None,
    policy: int = h.INFERRING,
) -> np.ndarray:
    """Per guessed hand (a row of ``hands``, ``int32``, its first ``sizes[w]`` cards; all of
    them by default), the regret of ``action`` for ``seat`` in ``template``, scored by ``policy``:
    :data:`~.heuristic.INFERRING` (the default ``heuristic`` bot), :data:`~.heuristic.GREEDY`, and
    the other numbers of :func:`~.heuristic.score_policy`."""
    ensure_compiled("heuristic")
    hands = np.ascontiguousarray(hands, dtype=np.int32)
    if hands.ndim != 2 or hands.shape[1] > k.MAX_HAND:
        raise ValueError(f"hands must be an int32 array of shape (worlds, at most {k.MAX_HAND})")
    if sizes is None:
        sizes = np.full(hands.shape[0], hands.shape[1], dtype=np.int64)
    if not 0 <= action < NUM_CELLS * 3:
        raise ValueError(f"only an R5.2 play (0-299) can be explained, not {action!r}")
    if policy not in (h.FULL, h.LITE, h.INFERRING, h.GREEDY, h.TUNED):
        raise ValueError(f"no scoring policy {policy!r}")
    s = np.empty(k.ROW, dtype=np.int32)
    iw, fw = h.new_work()
    out = np.empty(hands.shape[0], dtype=np.float64)
    _regrets(template, hands, np.asarray(sizes, dtype=np.int64), seat, action, policy, s, iw, fw, out)
    return out
