"""The policies' entry points: choosing an action and playing out a game, for kernels (with the
caller's scratch arrays, ``..._with``), for Python (allocating their own) and for tests
(:func:`heuristic_action`, :func:`heuristic_scores`). A policy is one of the numbers below, so
that a rollout can take it as an argument."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from .. import kernels as k
from .candidates import _pick
from .params import DEFAULT_PARAMS, TUNED_PARAMS, check_params
from .scoring import _score, score_greedy, score_lite, score_params
from .work import F_SCORES, FLOAT_WORK, I_PLAYS, INT_WORK, new_work

if TYPE_CHECKING:  # a type only: the heuristic sits below the engine, which compiles it
    from ..engine import FastGame

FULL: Final = 1
"""Policy: :func:`choose`, the heuristic bot with ``inference=False``."""
LITE: Final = 2
"""Policy: :func:`choose_lite`, its cheap form."""
INFERRING: Final = 3
"""Policy: :func:`choose_inferring`, the heuristic bot's default (with inference). The numbers
are ``fast.pimc``'s rollout policies, where 0 is random play."""
GREEDY: Final = 4
"""Policy: :func:`choose_greedy`, the ``greedy`` bot (its weights, no hand, no jack costs): a
model of a player who is not the heuristic, for the other seats of a search's rollouts."""
TUNED: Final = 5
"""Policy: the heuristic with inference playing the tuned numbers (:data:`TUNED_PARAMS`), a little
stronger than the default: a search's rollouts of its own seats."""


@k.kernel
def score_policy(s: np.ndarray, iw: np.ndarray, fw: np.ndarray, policy: int) -> int:
    """The scores of :data:`LITE`, :data:`FULL` or :data:`INFERRING` play (:func:`score_lite`,
    :func:`score_full`, :func:`score_inferring`): one entry point, so that a rollout can take
    its policy as a number."""
    if policy == LITE:
        return score_lite(s, iw, fw)
    if policy == GREEDY:
        return score_greedy(s, iw, fw)
    if policy == TUNED:
        return _score(s, iw, fw, True, TUNED_PARAMS)
    return _score(s, iw, fw, policy == INFERRING, DEFAULT_PARAMS)


@k.inline_kernel
def _chosen(s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, n: int) -> int:
    """The action for a scorer's result ``n``: a forced one (``-1 - action``), -1 when the game
    is over, else the best of the ``n`` scored plays, ties broken with ``rs[g]``."""
    if n <= 0:
        return -1 if n == 0 else -1 - n
    return _pick(s, rs, g, iw, fw, n)


@k.kernel
def choose_policy_with(
    s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, policy: int
) -> int:
    """The action of ``policy`` (:data:`LITE`, :data:`FULL`, :data:`INFERRING`, :data:`GREEDY`, :data:`TUNED`)
    with the caller's scratch arrays (:func:`new_work`): no allocation, for kernels that run
    without Numba's runtime."""
    if policy == LITE:
        return _chosen(s, rs, g, iw, fw, score_lite(s, iw, fw))
    if policy == GREEDY:
        return _chosen(s, rs, g, iw, fw, score_greedy(s, iw, fw))
    if policy == TUNED:
        return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, True, TUNED_PARAMS, True))
    return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, policy == INFERRING, DEFAULT_PARAMS, True))


@k.kernel
def choose_params_with(
    s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, p: np.ndarray, inference: bool
) -> int:
    """:func:`choose_with` (``inference``: :func:`choose_inferring`) playing with the numbers of
    ``p``: ``HeuristicBot(weights=..., jack_costs=..., threat_weight=..., reach=...)`` compiled,
    for tuning them (``fast.tuning``). With :data:`DEFAULT_PARAMS` it is :func:`choose_with`."""
    return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, inference, p, True))


@k.kernel
def choose_unpruned_with(
    s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray, p: np.ndarray, inference: bool
) -> int:
    """:func:`choose_params_with` as it chose before its branch and bound: every play scored in
    full (:func:`score_params`) and the window tables counted afresh. The same action and the
    same draws from ``rs`` (``tests/fast/test_heuristic_kernel.py``), at about half the speed:
    the reference the pruned choice is tested and measured against."""
    return _chosen(s, rs, g, iw, fw, _score(s, iw, fw, inference, p, False))


@k.kernel
def playout_unpruned_with(
    s: np.ndarray,
    rs: np.ndarray,
    g: int,
    max_turns: int,
    iw: np.ndarray,
    fw: np.ndarray,
    p: np.ndarray,
    inference: bool,
) -> int:
    """:func:`playout_policy_with`, every seat playing :func:`choose_unpruned_with` (for
    ``benchmarks/fast_heuristic.py speed``)."""
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns:
        k.apply(s, rs, g, choose_unpruned_with(s, rs, g, iw, fw, p, inference))
    return k.outcome(s)


@k.kernel
def choose_with(s: np.ndarray, rs: np.ndarray, g: int, iw: np.ndarray, fw: np.ndarray) -> int:
    """:func:`choose` with the caller's scratch arrays (:func:`new_work`)."""
    return choose_policy_with(s, rs, g, iw, fw, FULL)


@k.kernel
def playout_policy_with(
    s: np.ndarray, rs: np.ndarray, g: int, max_turns: int, iw: np.ndarray, fw: np.ndarray, policy: int
) -> int:
    """As ``kernels.playout`` (the winning side, -1 for a drawn game, -2 when stopped at
    ``max_turns`` turns), every seat playing ``policy``, with the caller's scratch arrays."""
    return playout_sides_with(s, rs, g, max_turns, iw, fw, policy, 0, policy)


@k.kernel
def playout_sides_with(
    s: np.ndarray,
    rs: np.ndarray,
    g: int,
    max_turns: int,
    iw: np.ndarray,
    fw: np.ndarray,
    policy: int,
    side: int,
    others: int,
) -> int:
    """:func:`playout_policy_with` where the seats of ``side`` play ``policy`` and every other
    seat ``others``: a search's own side and its model of the opponents."""
    while s[k.I_END] == k.END_NONE and s[k.I_TURN] < max_turns:
        mover = policy if s[k.I_SEAT] % s[k.I_SIDES] == side else others
        k.apply(s, rs, g, choose_policy_with(s, rs, g, iw, fw, mover))
    return k.outcome(s)


@k.kernel
def playout_with(
    s: np.ndarray, rs: np.ndarray, g: int, max_turns: int, iw: np.ndarray, fw: np.ndarray
) -> int:
    """:func:`heuristic_playout` with the caller's scratch arrays (:func:`new_work`)."""
    return playout_policy_with(s, rs, g, max_turns, iw, fw, FULL)


@k.allocating_kernel
def _work() -> tuple[np.ndarray, np.ndarray]:
    """Fresh scratch arrays, inside a kernel (:func:`new_work` is the same from Python)."""
    return np.zeros(INT_WORK, dtype=np.int64), np.zeros(FLOAT_WORK, dtype=np.float64)


@k.allocating_kernel
def choose(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """The compiled heuristic's action for the seat to move in row ``s`` (auto draw, no table
    talk); ties broken with the row's random state ``rs[g]``. Dead cards exchanged (R5.1), stuck
    hands discard like ``best_discard`` (R5.5). -1 when the game is over."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, FULL)


@k.allocating_kernel
def choose_inferring(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """As :func:`choose`, reading the other seats' hands from their last plays as the default
    ``heuristic`` bot does (``bots.inference``; from the row's log of the last 32 actions)."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, INFERRING)


@k.allocating_kernel
def choose_lite(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """The lite heuristic's action for the seat to move in row ``s`` (auto draw, no table talk):
    the open-window gain of each R5.2 play under the heuristic's weights, minus a jack's
    spending cost, plus the win (R7.1); ties broken with ``rs[g]``. Dead cards are exchanged
    (R5.1), stuck hands discard as ``best_discard`` (R5.5). -1 when the game is over."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, LITE)


@k.allocating_kernel
def choose_greedy(s: np.ndarray, rs: np.ndarray, g: int) -> int:
    """The ``greedy`` bot's action for the seat to move in row ``s`` (auto draw, no table talk),
    ties broken with ``rs[g]``; dead cards and stuck hands as :func:`choose`. -1 when the game
    is over."""
    iw, fw = _work()
    return choose_policy_with(s, rs, g, iw, fw, GREEDY)


@k.allocating_kernel
def heuristic_playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """As ``kernels.playout`` (the winning side, -1 for a drawn game, -2 when stopped at
    ``max_turns`` turns), every seat playing :func:`choose`."""
    iw, fw = _work()
    return playout_policy_with(s, rs, g, max_turns, iw, fw, FULL)


@k.allocating_kernel
def inferring_playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """As :func:`heuristic_playout`, every seat playing :func:`choose_inferring`."""
    iw, fw = _work()
    return playout_policy_with(s, rs, g, max_turns, iw, fw, INFERRING)


@k.allocating_kernel
def lite_playout(s: np.ndarray, rs: np.ndarray, g: int, max_turns: int) -> int:
    """As :func:`heuristic_playout`, every seat playing :func:`choose_lite`."""
    iw, fw = _work()
    return playout_policy_with(s, rs, g, max_turns, iw, fw, LITE)


# ------------------------------------------------------------------ from Python


def heuristic_action(game: FastGame, seed: int = 0, *, lite: bool = False, inference: bool = False) -> int:
    """The compiled heuristic's action in ``game`` (not applied), ties broken from ``seed``:
    :func:`choose`, :func:`choose_lite` or :func:`choose_inferring`."""
    if game.is_terminal():
        raise ValueError("R7.1: the game is over; there is no action to choose")
    rs = np.array([k.seed_state(seed & ((1 << 63) - 1))], dtype=np.uint64)
    iw, fw = new_work()
    policy = LITE if lite else INFERRING if inference else FULL
    return int(choose_policy_with(game.row, rs, 0, iw, fw, policy))


def heuristic_scores(
    game: FastGame, *, lite: bool = False, inference: bool = False, params: np.ndarray | None = None
) -> dict[int, float] | int:
    """The compiled scores of the R5.2 plays of the seat to move, or its forced action (R5.1,
    R5.5): what tests and the agreement measurement compare with ``bots.heuristic``. With
    ``params`` (:data:`DEFAULT_PARAMS`' layout), :func:`score_params` scores them."""
    if game.is_terminal():
        raise ValueError("R7.1: the game is over; there is no action to choose")
    iw, fw = new_work()
    if params is not None:
        if lite:
            raise ValueError("the lite heuristic takes no parameter array")
        n = int(score_params(game.row, iw, fw, check_params(params), inference))
    else:
        n = int(score_policy(game.row, iw, fw, LITE if lite else INFERRING if inference else FULL))
    if n < 0:
        return -1 - n
    return {int(iw[I_PLAYS + i]): float(fw[F_SCORES + i]) for i in range(n)}
