"""Branch and bound over the jacks' plays: a play whose score cannot come within ``TIE`` of the
best is given ``-inf`` instead of its score, so the choice and its tie-breaking draw stay those
of scoring every play (``docs/fast.md``)."""

from __future__ import annotations

import numpy as np

from ...actions import REMOVE, WILD
from ...board import NUM_CELLS
from ...cards import JC, JD, JH, JS
from .. import kernels as k
from .gains import _aware_gain, _open_gain
from .params import (
    OPPONENT_STEP,
    P_BLOCK,
    P_CENTRE,
    P_LINE,
    P_ONE_EYED,
    P_REACH,
    P_THREAT,
    P_TWO_EYED,
    TIE,
)
from .plays import _mine_after, _play_score
from .tables import CENTRE, NUM_WINDOWS, THROUGH, THROUGH_N
from .windows import _completes, _opponent_weight
from .work import F_RISK, F_SCORES, I_HAND, I_HOT, I_OPEN, I_PLAYS, I_THREATS


@k.inline_kernel
def _below_best(bound: float, best: float, slack: float) -> bool:
    """Whether a play whose score is at most ``bound`` (up to rounding, ``slack``) scores below
    ``best`` by more than :data:`TIE`: outside the tie set, whatever its exact score."""
    return bound + slack + 1e-9 * abs(best) < best - TIE


@k.kernel
def _score_pruned(
    s: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    p: np.ndarray,
    n: int,
    side: int,
    need: int,
    four: float,
    wild: int,
    remover: int,
    total: int,
    mine_before: float,
) -> int:
    """The scores of :func:`_score`'s ``n`` plays, but ``-inf`` for a jack's play that cannot
    come within :data:`TIE` of the best (branch and bound; ``docs/fast.md``). The natural
    cards' placements are scored in full first; then the jacks' plays, each against an upper
    bound of its score that costs far less than the score, and scored only when the bound does
    not rule it out.

    None of them may declare a sequence (those are scored in full): a two-eyed jack on a cell
    that no four of ours misses, a one-eyed jack whose removal opens no four of ours. Our
    threat term is then exact (:func:`_mine_after`; the same for every removal and every
    placement in no window of three or more of ours); an opponent's risk can only fall (a
    placement blocks, a removal breaks the owner's windows), at most by what it was, and not
    at all where the cell is in no window of three or more of that side (``I_HOT``); a third
    side's risk can only rise (a cost, with a threat weight that is not negative). A removal's
    window gain is exact (:func:`_open_gain`, from the line masks). A placement's: each window
    through the cell adds at most its step (from the window counts, ``I_OPEN``; where no window
    of ours is of three or more, at most the largest step from two or less, and per opponent
    at most its largest block of two or less, four or less in its ``I_HOT`` windows), scaled by
    at most the largest reach to the fourth power."""
    sides = s[k.I_SIDES]
    best = -np.inf
    for i in range(n):  # the natural cards' placements, in full
        a = iw[I_PLAYS + i]
        if a < WILD:
            gain = _aware_gain(s, iw, fw, side, a, four, p)
            score = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
            fw[F_SCORES + i] = score
            best = max(best, score)
    holds_wild = iw[I_HAND + JD] > 0 or iw[I_HAND + JC] > 0
    holds_remover = iw[I_HAND + JS] > 0 or iw[I_HAND + JH] > 0
    if not (holds_wild or holds_remover):
        return n
    reach = max(1.0, abs(p[P_REACH]), abs(p[P_REACH + 1]), abs(p[P_REACH + 2]))
    reach = reach * reach * reach * reach
    step = 0.0  # our window of two or less
    for c in range(3):
        step = max(step, abs(p[P_LINE + c + 1] - p[P_LINE + c]))
    low_block = 0.0  # an opponent's window of two or less, of four or less
    high_block = 0.0
    for c in range(5):
        high_block = max(high_block, abs(p[P_BLOCK + c]))
        if c < 3:
            low_block = max(low_block, abs(p[P_BLOCK + c]))
    # a two-eyed jack where no window of ours is of 3+: per window through the cell, per window
    # of 3+ of each opponent (the side after us, the one after that), and that side's risk
    quiet_window = step
    for t in range(sides):
        if t != side:
            quiet_window += abs(_opponent_weight(side, t, sides)) * low_block
    quiet_window *= reach
    next_side = (side + 1) % sides
    next_hot = abs(_opponent_weight(side, next_side, sides)) * (high_block - low_block) * reach
    next_risk = max(0.0, p[P_THREAT] * _opponent_weight(side, next_side, sides)) * fw[F_RISK + next_side]
    last_side = (side + 2) % sides  # with two sides, ourselves: never hot for an opponent
    last_hot = 0.0
    last_risk = 0.0
    if sides == 3:
        last_hot = abs(_opponent_weight(side, last_side, sides)) * (high_block - low_block) * reach
        last_risk = max(0.0, p[P_THREAT] * _opponent_weight(side, last_side, sides)) * fw[F_RISK + last_side]
    third_ok = sides == 2 or p[P_THREAT] >= 0.0
    wild_spent = JD if iw[I_HAND + JD] > 0 else JC
    remove_spent = JS if iw[I_HAND + JS] > 0 else JH
    quiet_change = 0.0  # the rest of its score: our threats' change, the jack's cost
    quiet_slack = 0.0
    remove_mine = 0.0  # ... after any removal that opens no four of ours
    for q in range(4):  # 0: plays that may declare, in full; 1: removals; 2, 3: wilds, ours of 3+ first
        if q == 1 and third_ok and holds_remover:
            remove_mine = _mine_after(s, iw, side, -1, remove_spent, need, wild, remover, total)
        if q == 3 and holds_wild:
            quiet_mine = _mine_after(s, iw, side, -1, wild_spent, need, wild, remover, total)
            quiet_change = p[P_THREAT] * (quiet_mine - mine_before) - p[P_TWO_EYED]
            quiet_slack = abs(p[P_TWO_EYED]) + abs(p[P_THREAT] * (quiet_mine - mine_before))
        for i in range(n):
            a = iw[I_PLAYS + i]
            if a < WILD:
                continue
            if a < REMOVE:
                cell = a - WILD
                if q < 2:
                    if q == 0 and iw[I_THREATS + side * NUM_CELLS + cell] > 0:  # it completes a four
                        fw[F_SCORES + i] = _play_score(
                            s,
                            iw,
                            fw,
                            p,
                            a,
                            _aware_gain(s, iw, fw, side, cell, four, p),
                            side,
                            need,
                            wild,
                            remover,
                            total,
                            mine_before,
                        )
                        best = max(best, fw[F_SCORES + i])
                    continue
                if iw[I_THREATS + side * NUM_CELLS + cell] > 0:
                    continue
                ours = iw[I_HOT + side * NUM_CELLS + cell] > 0
                if ours != (q == 2):
                    continue
                if not ours:
                    bound = THROUGH_N[cell] * quiet_window + abs(p[P_CENTRE] * CENTRE[cell])
                    hot = iw[I_HOT + next_side * NUM_CELLS + cell]
                    if hot > 0:
                        bound += hot * next_hot + next_risk
                    if sides == 3:
                        hot = iw[I_HOT + last_side * NUM_CELLS + cell]
                        if hot > 0:
                            bound += hot * last_hot + last_risk
                    slack = 1e-9 * (1.0 + bound + quiet_slack)
                    if _below_best(bound + quiet_change, best, slack):
                        fw[F_SCORES + i] = -np.inf
                        continue
                    gain = _aware_gain(s, iw, fw, side, cell, four, p)
                    score = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
                    fw[F_SCORES + i] = score
                    best = max(best, score)
                    continue
                risk = 0.0
                for t in range(sides):
                    if t != side and iw[I_HOT + t * NUM_CELLS + cell] > 0:
                        risk += max(0.0, p[P_THREAT] * _opponent_weight(side, t, sides)) * fw[F_RISK + t]
                mine = _mine_after(s, iw, side, cell, wild_spent, need, wild, remover, total)
                bound = 0.0
                for j in range(THROUGH_N[cell]):
                    w = THROUGH[cell, j]
                    for t in range(sides):
                        m = iw[I_OPEN + t * NUM_WINDOWS + w]
                        if m < 0:
                            continue
                        if t == side:
                            hi = four if m + 1 == 4 else p[P_LINE + m + 1]
                            lo = four if m == 4 else p[P_LINE + m]
                            bound += abs(hi - lo)
                        else:
                            bound += abs(p[P_BLOCK + m] * _opponent_weight(side, t, sides))
                bound = bound * reach + abs(p[P_CENTRE] * CENTRE[cell])
                change = p[P_THREAT] * (mine - mine_before)
                slack = 1e-9 * (1.0 + bound + abs(p[P_TWO_EYED]) + abs(change) + risk)
                if _below_best(bound - p[P_TWO_EYED] + change + risk, best, slack):
                    fw[F_SCORES + i] = -np.inf
                    continue
                gain = _aware_gain(s, iw, fw, side, cell, four, p)
            else:
                if q >= 2:
                    continue
                cell = a - REMOVE
                quiet = third_ok and not _completes(s, side, cell)
                if quiet != (q == 1):
                    continue
                gain = _open_gain(s, iw, side, a, four, p, OPPONENT_STEP)
                if quiet:
                    owner = s[k.O_OWNER + cell]
                    risk = 0.0
                    if iw[I_HOT + owner * NUM_CELLS + cell] > 0:
                        risk = (
                            max(0.0, p[P_THREAT] * _opponent_weight(side, owner, sides)) * fw[F_RISK + owner]
                        )
                    change = p[P_THREAT] * (remove_mine - mine_before)
                    slack = 1e-9 * (1.0 + abs(gain) + abs(p[P_ONE_EYED]) + abs(change) + risk)
                    if _below_best(gain - p[P_ONE_EYED] + change + risk, best, slack):
                        fw[F_SCORES + i] = -np.inf
                        continue
            score = _play_score(s, iw, fw, p, a, gain, side, need, wild, remover, total, mine_before)
            fw[F_SCORES + i] = score
            best = max(best, score)
    return n
