"""Rollouts whose own next move is itself searched: a second step of policy improvement.

``fast.pimc.candidate_values`` rolls every candidate out with the heuristic on every seat, so the
search improves the heuristic by one step: its own later moves are the heuristic's. Here the
search side's *next* move in each rollout is chosen as the bot itself would choose it, by a small
perfect-information Monte Carlo of its own: the heuristic's ``top`` best plays there, each rolled
out in ``inner`` worlds re-dealt from what that seat could not see then (the other hands and the
draw pile shuffled together and dealt again), the heuristic's play kept unless another beats it
by one standard error of the paired differences. Later moves are the heuristic's again.

A calibration of what a stronger continuation is worth (``docs/bots.md``), not a player: each
outer rollout costs ``1 + top * inner`` rollouts.
"""

from __future__ import annotations

import math

import numpy as np

from ..cards import DECK_SIZE
from . import heuristic as h
from . import kernels as k
from .compile import ensure_compiled
from .pimc import rollout_value

MAX_TOP = 8


@k.kernel
def _redeal(s: np.ndarray, rs: np.ndarray, seat: int, pool: np.ndarray) -> None:
    """Shuffle every card ``seat`` cannot see (the other seats' hands and the draw pile) and deal
    them back into the same places: a world consistent with that seat's view."""
    players = s[k.I_PLAYERS]
    n = 0
    for other in range(players):
        if other != seat:
            for j in range(s[k.O_HLEN + other]):
                pool[n] = s[k.O_HAND + other * k.MAX_HAND + j]
                n += 1
    for j in range(s[k.I_DECKLEN]):
        pool[n] = s[k.O_DECK + j]
        n += 1
    for i in range(n - 1, 0, -1):
        j = k.below(rs, 0, i + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    n = 0
    for other in range(players):
        if other != seat:
            for j in range(s[k.O_HLEN + other]):
                s[k.O_HAND + other * k.MAX_HAND + j] = pool[n]
                n += 1
    for j in range(s[k.I_DECKLEN]):
        s[k.O_DECK + j] = pool[n]
        n += 1


@k.kernel
def _searched_move(
    s: np.ndarray,
    rs: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    side: int,
    policy: int,
    top: int,
    inner: int,
    stop: int,
    inner_row: np.ndarray,
    play_row: np.ndarray,
    pool: np.ndarray,
    plays: np.ndarray,
    sums: np.ndarray,
    values: np.ndarray,
) -> int:
    """The move of the seat to play in ``s`` chosen by a small PIMC over the heuristic's ``top``
    plays in ``inner`` re-dealt worlds (the heuristic's own move where it has no choice)."""
    n = h.score_policy(s, iw, fw, policy)
    if n <= 1:
        return h.choose_policy_with(s, rs, 0, iw, fw, policy)
    m = min(top, n)
    # the m best plays by score, the best first (a selection, m is small)
    for j in range(m):
        best = -1
        for i in range(n):
            if best < 0 or fw[h.F_SCORES + i] > fw[h.F_SCORES + best]:
                taken = False
                for q in range(j):
                    if plays[q] == iw[h.I_PLAYS + i]:
                        taken = True
                if not taken:
                    best = i
        plays[j] = iw[h.I_PLAYS + best]
    seat = s[k.I_SEAT]
    for j in range(m):
        sums[j] = 0.0
    for w in range(inner):
        for c in range(k.ROW):
            inner_row[c] = s[c]
        _redeal(inner_row, rs, seat, pool)
        stream = rs[0]
        for j in range(m):
            for c in range(k.ROW):
                play_row[c] = inner_row[c]
            rs[0] = stream
            k.apply(play_row, rs, 0, plays[j])
            h.playout_sides_with(play_row, rs, 0, stop, iw, fw, policy, side, policy)
            values[w * MAX_TOP + j] = rollout_value(k.outcome(play_row), side, 0, 0.0)
            sums[j] += values[w * MAX_TOP + j]
    pick = 0
    for j in range(1, m):
        if sums[j] > sums[pick]:
            pick = j
    if pick == 0 or inner < 2:
        return int(plays[0])
    mean = (sums[pick] - sums[0]) / inner
    var = 0.0
    for w in range(inner):
        d = values[w * MAX_TOP + pick] - values[w * MAX_TOP] - mean
        var += d * d
    var /= inner - 1
    if var == 0.0 or mean / math.sqrt(var / inner) >= 1.0:
        return int(plays[pick])
    return int(plays[0])


@k.kernel
def _lookahead_values(
    worlds: np.ndarray,
    seeds: np.ndarray,
    cands: np.ndarray,
    side: int,
    policy: int,
    top: int,
    inner: int,
    horizon: int,
    length_penalty: float,
    s: np.ndarray,
    rs: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    inner_row: np.ndarray,
    play_row: np.ndarray,
    pool: np.ndarray,
    plays: np.ndarray,
    sums: np.ndarray,
    values: np.ndarray,
    out: np.ndarray,
) -> None:
    for w in range(worlds.shape[0]):
        for c in range(cands.shape[0]):
            for q in range(k.ROW):
                s[q] = worlds[w, q]
            rs[0] = seeds[w]
            start = s[k.I_TURN]
            stop = start + horizon
            k.apply(s, rs, 0, cands[c])
            # the others move as the heuristic until the search side is to play again
            while s[k.I_END] == k.END_NONE and s[k.I_SEAT] % s[k.I_SIDES] != side and s[k.I_TURN] < stop:
                k.apply(s, rs, 0, h.choose_policy_with(s, rs, 0, iw, fw, policy))
            if s[k.I_END] == k.END_NONE and s[k.I_TURN] < stop:
                move = _searched_move(
                    s,
                    rs,
                    iw,
                    fw,
                    side,
                    policy,
                    top,
                    inner,
                    stop,
                    inner_row,
                    play_row,
                    pool,
                    plays,
                    sums,
                    values,
                )
                rs[0] = seeds[w] ^ np.uint64(0x9E3779B97F4A7C15)
                k.apply(s, rs, 0, move)
            h.playout_sides_with(s, rs, 0, stop, iw, fw, policy, side, policy)
            out[c, w] = rollout_value(k.outcome(s), side, s[k.I_TURN] - start, length_penalty)


def lookahead_values(
    rows: np.ndarray,
    seeds: np.ndarray | list[int],
    cands: list[int],
    side: int,
    policy: int = h.INFERRING,
    top: int = 3,
    inner: int = 8,
    horizon: int = 2000,
    length_penalty: float = 0.0,
) -> np.ndarray:
    """As :func:`~.pimc.candidate_values`, the search side's next move in every rollout chosen by
    a PIMC over ``top`` plays and ``inner`` re-dealt worlds."""
    if not 1 <= top <= MAX_TOP:
        raise ValueError(f"top is 1 to {MAX_TOP}, not {top!r}")
    if inner < 1:
        raise ValueError(f"inner is at least 1, not {inner!r}")
    ensure_compiled("pimc")
    rows = np.ascontiguousarray(rows, dtype=np.int32)
    states = np.array([k.seed_state(int(x) & ((1 << 63) - 1)) for x in seeds], dtype=np.uint64)
    plays_in = np.asarray(cands, dtype=np.int64)
    out = np.zeros((plays_in.shape[0], rows.shape[0]), dtype=np.float64)
    iw, fw = h.new_work()
    _lookahead_values(
        rows,
        states,
        plays_in,
        side,
        policy,
        top,
        inner,
        horizon,
        length_penalty,
        np.empty(k.ROW, dtype=np.int32),
        np.empty(1, dtype=np.uint64),
        iw,
        fw,
        np.empty(k.ROW, dtype=np.int32),
        np.empty(k.ROW, dtype=np.int32),
        np.empty(DECK_SIZE + 16, dtype=np.int32),
        np.empty(MAX_TOP, dtype=np.int64),
        np.empty(MAX_TOP, dtype=np.float64),
        np.empty(inner * MAX_TOP, dtype=np.float64),
        out,
    )
    return out
