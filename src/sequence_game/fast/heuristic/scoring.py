"""Scoring every R5.2 play of the seat to move: the full heuristic (:func:`_score`, with or
without inference, any parameter array), its lite form and the ``greedy`` bot's scores."""

from __future__ import annotations

import numpy as np

from ...actions import REMOVE, WILD
from ...board import NUM_CELLS
from ...cards import JC, JD, JH, JS, NUM_CARDS
from .. import kernels as k
from .candidates import _candidates
from .gains import _aware_gain, _aware_gains, _open_gain
from .inference import _infer
from .params import (
    DEFAULT_PARAMS,
    GREEDY_LINE,
    GREEDY_PARAMS,
    LINE,
    ONE_EYED_SPEND,
    OPPONENT_STEP,
    P_LINE,
    P_REACH,
    TEAM_FOUR_BONUS,
    TWO_EYED_SPEND,
    WIN,
)
from .plays import _play_score
from .pruning import _score_pruned
from .tables import CARD_OF
from .threats import _completion_risk, _sequence_value, _threat_value
from .window_counts import _window_tables
from .windows import _declares
from .work import (
    F_GAIN,
    F_REACH,
    F_RISK,
    F_SCORES,
    I_BEFORE_NEXT,
    I_HAND,
    I_INFERRED,
    I_LIST,
    I_LISTN,
    I_MARK,
    I_PLAYS,
    I_STAMP,
    I_UNSEEN,
)


@k.kernel
def score_lite(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """Score the R5.2 plays of the seat to move as :func:`choose_lite` does: their number, the
    plays in ``iw[I_PLAYS:]`` and the scores in ``fw[F_SCORES:]``; a forced action (R5.1, R5.5)
    as ``-1 - action``; 0 when the game is over."""
    if s[k.I_END] != k.END_NONE:
        return 0
    n = _candidates(s, iw)
    if n < 0:
        return n
    seat = s[k.I_SEAT]
    sides = s[k.I_SIDES]
    side = seat % sides
    team = s[k.I_PLAYERS] // sides
    four = LINE[4] * (1.0 + TEAM_FOUR_BONUS * (team - 1))
    need = s[k.I_NEED]
    for i in range(n):
        a = iw[I_PLAYS + i]
        score = _open_gain(s, iw, side, a, four, DEFAULT_PARAMS, OPPONENT_STEP)
        if a >= REMOVE:
            score -= ONE_EYED_SPEND
        else:
            cell = a
            if a >= WILD:
                score -= TWO_EYED_SPEND
                cell = a - WILD
            s[k.O_OWNER + cell] = side
            if s[k.O_NSEQ + side] + _declares(s, iw, side, cell) >= need:
                score += WIN  # R7.1
            s[k.O_OWNER + cell] = -1
        fw[F_SCORES + i] = score
    return n


@k.kernel
def score_greedy(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """Score the R5.2 plays of the seat to move as the ``greedy`` bot does: the open-window gain
    under its weights (``evaluation.GREEDY``), every opponent weighted alike, nothing for the
    hand, a jack's cost or the win beyond the sequence's own weight. Returns as :func:`score_lite`."""
    if s[k.I_END] != k.END_NONE:
        return 0
    n = _candidates(s, iw)
    if n < 0:
        return n
    side = s[k.I_SEAT] % s[k.I_SIDES]
    for i in range(n):
        fw[F_SCORES + i] = _open_gain(s, iw, side, iw[I_PLAYS + i], GREEDY_LINE[4], GREEDY_PARAMS, 0.0)
    return n


@k.kernel
def _score(
    s: np.ndarray, iw: np.ndarray, fw: np.ndarray, inference: bool, p: np.ndarray, prune: bool = False
) -> int:
    """As :func:`score_lite`, scoring as ``heuristic.score_plays`` does: card-counted window
    gains, jacks' spending costs, the win (R7.1), and the change in our threats' value and in
    each opponent's chance to complete a sequence before our next turn; ``inference`` as its
    argument of that name; the numbers from the parameter array ``p`` (:data:`DEFAULT_PARAMS`).

    With ``prune`` (the choosing kernels), a play proven to score below the best by more than
    :data:`TIE` is not scored but given ``-inf`` (:func:`_score_pruned`): the tie set, so the choice
    and the random draw that breaks ties, stay those of the full scoring."""
    if s[k.I_END] != k.END_NONE:
        return 0
    n = _candidates(s, iw)
    if n < 0:
        return n
    seat = s[k.I_SEAT]
    players = s[k.I_PLAYERS]
    sides = s[k.I_SIDES]
    side = seat % sides
    need = s[k.I_NEED]
    four = p[P_LINE + 4] * (1.0 + TEAM_FOUR_BONUS * (players // sides - 1))
    # what the seat cannot see: not in its hand, not face up on a discard pile (worlds.unseen_cards)
    total = 0
    for card in range(NUM_CARDS):
        u = 2 - iw[I_HAND + card] - s[k.O_DCOUNT + 3 * k.COLUMNS + card]
        u = max(u, 0)
        iw[I_UNSEEN + card] = u
        total += u
    total = max(total, 1)
    wild = iw[I_UNSEEN + JD] + iw[I_UNSEEN + JC]
    remover = iw[I_UNSEEN + JH] + iw[I_UNSEEN + JS]
    floor = p[P_REACH + 1] if iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0 else p[P_REACH + 2]
    for t in range(sides):  # heuristic.reach_table
        for c in range(NUM_CELLS):
            card = CARD_OF[c]
            r = 1.0  # a corner, a chip: no factor in a window's reach (_window_gain)
            if card >= 0 and s[k.O_OWNER + c] < 0:
                if t == side and iw[I_HAND + card] > 0:
                    r = p[P_REACH]
                elif iw[I_UNSEEN + card] > 0:
                    r = p[P_REACH + 1]
                else:
                    r = floor if t == side else p[P_REACH + 2]
            fw[F_REACH + t * NUM_CELLS + c] = r
    if inference:
        _infer(s, iw)
    else:
        for other in range(players):
            iw[I_INFERRED + other] = 0
    for t in range(k.MAX_SIDES):
        iw[I_BEFORE_NEXT + t] = 0
    for j in range(1, players):
        other = (seat + j) % players
        if iw[I_INFERRED + other] == 0:  # the inferred hands are counted apart (_completion_risk)
            iw[I_BEFORE_NEXT + other % sides] += s[k.O_HLEN + other]
    # the position's own terms, the same for every play
    _window_tables(s, iw, prune)
    iw[I_MARK : I_MARK + NUM_CELLS] = 0
    iw[I_STAMP] = 0
    mine_before = _threat_value(
        iw,
        I_LIST + side * NUM_CELLS,
        iw[I_LISTN + side],
        side,
        sides,
        _sequence_value(s[k.O_NSEQ + side], need),
        wild,
        remover,
        total,
    )
    risk_before = fw[F_RISK : F_RISK + k.MAX_SIDES]
    for t in range(sides):
        risk_before[t] = 0.0
        if t != side:
            risk_before[t] = _completion_risk(
                s,
                iw,
                I_LIST + t * NUM_CELLS,
                iw[I_LISTN + t],
                t,
                _sequence_value(s[k.O_NSEQ + t], need),
                wild,
                total,
            )
    if prune:
        return _score_pruned(s, iw, fw, p, n, side, need, four, wild, remover, total, mine_before)
    batch = iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0  # a two-eyed jack: every open cell is a candidate
    if batch:
        _aware_gains(s, iw, fw, side, four, p)
    for i in range(n):
        a = iw[I_PLAYS + i]
        if a < REMOVE:
            cell = a if a < WILD else a - WILD
            gain = fw[F_GAIN + cell] if batch else _aware_gain(s, iw, fw, side, cell, four, p)
        else:
            gain = _open_gain(s, iw, side, a, four, p, OPPONENT_STEP)
        fw[F_SCORES + i] = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
    return n


@k.kernel
def score_full(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """As :func:`score_lite`, scoring as :func:`choose` does (``heuristic.score_plays`` with
    ``inference=False``)."""
    return _score(s, iw, fw, False, DEFAULT_PARAMS)


@k.kernel
def score_inferring(s: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """As :func:`score_lite`, scoring as :func:`choose_inferring` does (``score_plays`` with
    ``inference=True``, the default ``heuristic`` bot)."""
    return _score(s, iw, fw, True, DEFAULT_PARAMS)


@k.kernel
def score_params(s: np.ndarray, iw: np.ndarray, fw: np.ndarray, p: np.ndarray, inference: bool) -> int:
    """As :func:`score_full` (``inference``: :func:`score_inferring`), with the weights, jack
    costs, threat weight and reach of the parameter array ``p`` (:data:`DEFAULT_PARAMS`)."""
    return _score(s, iw, fw, inference, p)
