"""The heuristic's compile warm-up, registered with :mod:`sequence_game.fast.compile`."""

from __future__ import annotations

import numpy as np

from ...cards import DECK_SIZE
from .. import heuristic as h
from .. import kernels as k
from ..compile import register_warm_up


def _warm_up() -> None:
    """Call every compiled entry point of the heuristic once, with the types the package uses."""
    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row, rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    iw, fw = h.new_work()
    h.score_full(row, iw, fw)
    h.score_lite(row, iw, fw)
    h.choose(row, rng, 0)
    h.choose_lite(row, rng, 0)
    h.choose_with(row, rng, 0, iw, fw)
    h.score_inferring(row, iw, fw)
    h.choose_inferring(row, rng, 0)
    h.inferring_playout(row.copy(), rng, 0, 10)
    h.heuristic_playout(row.copy(), rng, 0, 10)
    h.playout_with(row.copy(), rng, 0, 10, iw, fw)
    h.score_policy(row, iw, fw, h.INFERRING)
    h.choose_policy_with(row, rng, 0, iw, fw, h.INFERRING)
    h.lite_playout(row, rng, 0, 10)
    h.score_greedy(row, iw, fw)
    h.choose_greedy(row, rng, 0)


register_warm_up("heuristic", _warm_up)
