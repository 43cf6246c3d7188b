"""The score of one play (``heuristic.score_plays``' terms): its window gain, the jack's cost,
the win (R7.1), the change in our threats' value and in each opponent's completion risk."""

from __future__ import annotations

import numpy as np

from ...actions import REMOVE, WILD
from ...board import NUM_CELLS
from ...cards import JC, JD, JH, JS
from .. import kernels as k
from .params import P_ONE_EYED, P_THREAT, P_TWO_EYED, WIN
from .tables import CARD_OF
from .threats import _completion_risk, _recount, _sequence_value, _threat_value, _threats_after
from .windows import _declares, _opponent_weight
from .work import F_RISK, I_AFTER, I_HAND, I_LIST, I_LISTN


@k.kernel
def _play_score(
    s: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    p: np.ndarray,
    a: int,
    gain: float,
    side: int,
    need: int,
    wild: int,
    remover: int,
    total: int,
    mine_before: float,
) -> float:
    """The score of play ``a`` (:func:`_score`) from its window ``gain`` (:func:`_aware_gain` of a
    placement's cell, :func:`_open_gain` of a removal): the jack's spending cost, the win (R7.1),
    the change in our threats' value and in each opponent's completion risk, added in
    ``score_plays``' order so that the floats are its floats."""
    sides = s[k.I_SIDES]
    placed = a < REMOVE
    score = gain
    if placed:
        cell = a if a < WILD else a - WILD
        if a < WILD:
            spent = CARD_OF[cell]
        else:
            spent = JD if iw[I_HAND + JD] > 0 else JC
            score -= p[P_TWO_EYED]
    else:
        cell = a - REMOVE
        spent = JS if iw[I_HAND + JS] > 0 else JH
        score -= p[P_ONE_EYED]
    owner = s[k.O_OWNER + cell]
    s[k.O_OWNER + cell] = side if placed else -1
    declared = _declares(s, iw, side, cell) if placed else 0
    if s[k.O_NSEQ + side] + declared >= need:
        s[k.O_OWNER + cell] = owner
        return float(score + WIN)  # R7.1
    iw[I_HAND + spent] -= 1  # the hand our threats are filled from next turn
    for q in range(sides):  # our side first, then the others in order (as score_plays adds them)
        t = side if q == 0 else q - 1 if q - 1 < side else q
        if t == side and declared > 0:  # sequences ruled windows out (R3.3): count them all again
            at, ln = I_AFTER, _recount(s, iw, t, declared)
        else:
            ln = _threats_after(s, iw, t, cell, placed, side)
            at = I_AFTER
            if ln < 0:
                if t != side:
                    continue  # the same threats: no change in the risk (exactly 0)
                at, ln = I_LIST + t * NUM_CELLS, iw[I_LISTN + t]
        if t == side:
            mine = _threat_value(
                iw,
                at,
                ln,
                side,
                sides,
                _sequence_value(s[k.O_NSEQ + side] + declared, need),
                wild,
                remover,
                total,
            )
            score += p[P_THREAT] * (mine - mine_before)
        else:
            lost = (
                _completion_risk(s, iw, at, ln, t, _sequence_value(s[k.O_NSEQ + t], need), wild, total)
                - fw[F_RISK + t]
            )
            score -= p[P_THREAT] * _opponent_weight(side, t, sides) * lost
    iw[I_HAND + spent] += 1
    s[k.O_OWNER + cell] = owner
    return float(score)


@k.kernel
def _mine_after(
    s: np.ndarray,
    iw: np.ndarray,
    side: int,
    cell: int,
    spent: int,
    need: int,
    wild: int,
    remover: int,
    total: int,
) -> float:
    """Our threats' value (:func:`_threat_value`) after our chip on ``cell`` (-1: a play that
    changes none of our threats) that declares no sequence, having spent ``spent``: what
    :func:`_play_score` computes for such a play."""
    iw[I_HAND + spent] -= 1
    at = I_LIST + side * NUM_CELLS
    ln = iw[I_LISTN + side]
    if cell >= 0:
        s[k.O_OWNER + cell] = side
        changed = _threats_after(s, iw, side, cell, True, side)
        s[k.O_OWNER + cell] = -1
        if changed >= 0:
            at, ln = I_AFTER, changed
    mine = _threat_value(
        iw, at, ln, side, s[k.I_SIDES], _sequence_value(s[k.O_NSEQ + side], need), wild, remover, total
    )
    iw[I_HAND + spent] += 1
    return mine
