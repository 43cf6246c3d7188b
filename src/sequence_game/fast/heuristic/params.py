"""The heuristic's numbers: its weights, and the parameter arrays a policy is played with.

The weights are written out here, not imported from ``bots`` (the fast package must not import
the bots, and Numba compiles them in as constants); ``tests/fast/test_heuristic_kernel.py``
holds them equal to :mod:`sequence_game.bots.heuristic`'s. A parameter array
(:data:`DEFAULT_PARAMS`, :data:`TUNED_PARAMS`, ...) holds the numbers ``HeuristicBot`` takes as
options, so that a search over them (``fast.tuning``) needs no recompiling.
"""

from __future__ import annotations

from typing import Final

import numpy as np

# ------------------------------------------------------------------ weights (bots.heuristic)

LINE: Final = np.array([0.0, 1.0, 4.0, 14.0, 50.0, 400.0])
"""``HEURISTIC.line``: an open window of one's own side by how many of its spaces count."""
BLOCK: Final = np.array([0.0, 1.0, 5.0, 20.0, 140.0, 0.0])
"""``HEURISTIC.block``: an opponent's open window, as the cost to us."""
CENTRE_WEIGHT: Final = 2.0
WIN: Final = 100_000.0
TWO_EYED_SPEND: Final = 1000.0
ONE_EYED_SPEND: Final = 400.0
TEAM_FOUR_BONUS: Final = 0.2
THREAT_WEIGHT: Final = 1.0
WINNING_SEQUENCE: Final = 2000.0
REACH: Final = (1.0, 0.6, 0.2)
"""How reachable a space is: its card held, a copy unseen, none left (``heuristic.REACH``)."""
JACK_KEEP: Final = (120.0, 72.0)
"""``HeuristicBot.jack_keep``: what a two-eyed and a one-eyed jack are worth keeping (discards)."""
TIE: Final = 1e-9
"""Scores within this of the best are ties (as ``OnePlyBot``)."""
OPPONENT_STEP: Final = 0.15
"""``heuristic.opponent_weights``: each side later in the turn order weighs this much less."""
GREEDY_LINE: Final = np.array([0.0, 1.0, 3.0, 9.0, 27.0, 200.0])
GREEDY_BLOCK: Final = np.array([0.0, 1.0, 3.0, 9.0, 27.0, 0.0])

# ------------------------------------------------------------------ parameters (tuning)

P_LINE: Final = 0
"""Offsets in a parameter array (:data:`DEFAULT_PARAMS`): ``weights.line`` (6)."""
P_BLOCK: Final = P_LINE + 6  # ``weights.block`` (6)
P_CENTRE: Final = P_BLOCK + 6  # ``weights.centre``
P_TWO_EYED: Final = P_CENTRE + 1  # ``jack_costs[0]``: spending a two-eyed jack
P_ONE_EYED: Final = P_TWO_EYED + 1  # ``jack_costs[1]``: spending a one-eyed jack
P_THREAT: Final = P_ONE_EYED + 1  # ``threat_weight``
P_REACH: Final = P_THREAT + 1  # ``reach`` (3)
NUM_PARAMS: Final = P_REACH + 3
DEFAULT_PARAMS: Final = np.array(
    [*LINE, *BLOCK, CENTRE_WEIGHT, TWO_EYED_SPEND, ONE_EYED_SPEND, THREAT_WEIGHT, *REACH], dtype=np.float64
)
"""The numbers ``HeuristicBot`` takes as options, as one float64 array: what
:func:`choose_params_with` reads, so that a search over them (``fast.tuning``) needs no
recompiling. These defaults are today's constants; the sequence value in the threat terms
stays ``LINE[5]`` (``heuristic.threat_value`` uses ``HEURISTIC`` whatever the weights)."""
GREEDY_PARAMS: Final = np.array([*GREEDY_LINE, *GREEDY_BLOCK, 0.0, 0.0, 0.0, 0.0, *REACH], dtype=np.float64)
"""The ``greedy`` bot's weights in the same layout (:func:`score_greedy` reads its lines and blocks)."""
TUNED_PARAMS: Final = np.array(
    [
        *(0.0, 1.355, 5.489, 13.96, 50.83, 727.6),
        *(0.0, 0.8759, 3.731, 10.69, 122.4, 0.0),
        2.336,
        489.7,
        288.6,
        0.5999,
        *(1.0, 0.4581, 0.1125),
    ],
    dtype=np.float64,
)
"""The numbers the joint search of ``experiments/tune_heuristic.py`` found (``bots.heuristic.TUNED``,
written out here because the fast package does not import ``bots``): 52.2% against the default
numbers over 5,000 games (``docs/research/bots-log.md``, tenth pass). The :data:`TUNED` policy plays them."""


# ------------------------------------------------------------------ from Python


def check_params(params: np.ndarray) -> np.ndarray:
    """``params`` as the kernels read it (float64, :data:`NUM_PARAMS` finite numbers), or a
    ValueError saying what is wrong: the kernels do not check their input."""
    out = np.ascontiguousarray(params, dtype=np.float64)
    if out.shape != (NUM_PARAMS,):
        raise ValueError(f"a heuristic parameter array holds {NUM_PARAMS} numbers, not shape {out.shape}")
    if not np.all(np.isfinite(out)):
        raise ValueError("heuristic parameters must be finite numbers")
    return out
