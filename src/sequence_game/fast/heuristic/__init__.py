"""The heuristic bot's policy, compiled: rollouts that play like the opponent a search models.

A fair search over sampled worlds gains over ``heuristic`` only with rollouts that play as that
opponent does (``docs/bots.md``); in Python such a rollout costs about 60 ms. These kernels play
the same one-ply choice over the fast engine's row (:mod:`..kernels`): every R5.2 play scored as
:func:`~sequence_game.bots.heuristic.score_plays` scores it with ``inference=False``, the best
taken, ties broken with the row's random state.

:func:`choose_inferring` also reads the other seats' hands from their last plays, as the
default ``heuristic`` bot does (``inference=True``, :mod:`~sequence_game.bots.inference`), from
the row's log of the last 32 actions. :func:`choose_lite` is the cheap form: the open-window
gain (``evaluation.action_gain``) under the heuristic's weights, jacks' spending costs and the
win (R7.1), without card counting or threats. Each has a ``..._with`` form taking scratch arrays
(:func:`new_work`) for kernels compiled without Numba's runtime, and a playout.

The scores are the Python code's floats (its sums in its order; ``docs/fast.md`` gives the
agreement measured). Speed comes from reading the windows off the row's line masks, counting
threats once a move and, per play, again only through its cell; the choosing kernels also keep
the window tables from one move to the next in their scratch arrays and skip the jacks' plays
whose score a cheap bound puts outside the tie set (:mod:`.pruning`), so they choose as
:func:`choose_unpruned_with`, which scores every play, does: the same move, the same draws.

The rest of the package reads it as ``from . import heuristic as h`` and ``h.NAME``: this module
re-exports the names of its modules, each of which imports only those listed before it.

- :mod:`.params`: the weights and the parameter arrays (``DEFAULT_PARAMS``, ``TUNED_PARAMS``).
- :mod:`.tables`: look-up tables of the board's windows; :mod:`.work`: the scratch arrays.
- :mod:`.windows`: a side's windows read off the row, the sequences a placement declares.
- :mod:`.gains`: a play's window gain; :mod:`.candidates`: the plays and the pick among them.
- :mod:`.window_counts`: per side, its windows' counts and threats, kept from move to move.
- :mod:`.threats`: threats' value and the opponents' completion risk.
- :mod:`.inference`: the other seats' hands read from their last plays.
- :mod:`.plays`: the score of one play; :mod:`.pruning`: the branch and bound over the jacks'.
- :mod:`.scoring`: the scores of every play; :mod:`.policy`: choosing and playing out.

>>> from sequence_game import GameConfig
>>> from sequence_game.fast.engine import FastGame
>>> game = FastGame.new(GameConfig(players=2), seed=3)
>>> heuristic_action(game, seed=1) in game.legal_actions()
True
"""

from __future__ import annotations

from .params import (
    BLOCK,
    CENTRE_WEIGHT,
    DEFAULT_PARAMS,
    GREEDY_BLOCK,
    GREEDY_LINE,
    GREEDY_PARAMS,
    JACK_KEEP,
    LINE,
    NUM_PARAMS,
    ONE_EYED_SPEND,
    OPPONENT_STEP,
    P_BLOCK,
    P_CENTRE,
    P_LINE,
    P_ONE_EYED,
    P_REACH,
    P_THREAT,
    P_TWO_EYED,
    REACH,
    TEAM_FOUR_BONUS,
    THREAT_WEIGHT,
    TIE,
    TUNED_PARAMS,
    TWO_EYED_SPEND,
    WIN,
    WINNING_SEQUENCE,
    check_params,
)
from .policy import (
    FULL,
    GREEDY,
    INFERRING,
    LITE,
    TUNED,
    choose,
    choose_greedy,
    choose_inferring,
    choose_lite,
    choose_params_with,
    choose_policy_with,
    choose_unpruned_with,
    choose_with,
    heuristic_action,
    heuristic_playout,
    heuristic_scores,
    inferring_playout,
    lite_playout,
    playout_policy_with,
    playout_sides_with,
    playout_unpruned_with,
    playout_with,
    score_policy,
)
from .scoring import _score as _score  # benchmarks/fast_heuristic.py scores with it
from .scoring import score_full, score_greedy, score_inferring, score_lite, score_params
from .tables import (
    CARD_OF,
    CELLS_5,
    CENTRE,
    CLASH,
    CORNER_BITS,
    JACK_KIND,
    LOWEST_ZERO_5,
    NUM_WINDOWS,
    POPCOUNT_5,
    THROUGH,
    THROUGH_AT,
    THROUGH_N,
    WINDOW_LINE,
    WINDOW_START,
)
from .work import (
    F_GAIN,
    F_REACH,
    F_RISK,
    F_SCORES,
    FLOAT_WORK,
    I_ABSENT,
    I_AFTER,
    I_ALLOWED,
    I_BEFORE_NEXT,
    I_CHANGED,
    I_COUNT,
    I_FRESH,
    I_HAND,
    I_HOT,
    I_IDX,
    I_INFERRED,
    I_KNOWN,
    I_KNOWN_BOARD,
    I_KNOWN_SEQ,
    I_LAST,
    I_LIST,
    I_LISTN,
    I_MARK,
    I_MISSING,
    I_NEW,
    I_NOW,
    I_OPEN,
    I_PLAYS,
    I_SAVED,
    I_STAMP,
    I_THREATS,
    I_UNSEEN,
    I_WAS,
    INT_WORK,
    MAX_REWINDOW,
    new_work,
)

__all__ = [
    "BLOCK",
    "CARD_OF",
    "CELLS_5",
    "CENTRE",
    "CENTRE_WEIGHT",
    "CLASH",
    "CORNER_BITS",
    "DEFAULT_PARAMS",
    "FLOAT_WORK",
    "FULL",
    "F_GAIN",
    "F_REACH",
    "F_RISK",
    "F_SCORES",
    "GREEDY",
    "GREEDY_BLOCK",
    "GREEDY_LINE",
    "GREEDY_PARAMS",
    "INFERRING",
    "INT_WORK",
    "I_ABSENT",
    "I_AFTER",
    "I_ALLOWED",
    "I_BEFORE_NEXT",
    "I_CHANGED",
    "I_COUNT",
    "I_FRESH",
    "I_HAND",
    "I_HOT",
    "I_IDX",
    "I_INFERRED",
    "I_KNOWN",
    "I_KNOWN_BOARD",
    "I_KNOWN_SEQ",
    "I_LAST",
    "I_LIST",
    "I_LISTN",
    "I_MARK",
    "I_MISSING",
    "I_NEW",
    "I_NOW",
    "I_OPEN",
    "I_PLAYS",
    "I_SAVED",
    "I_STAMP",
    "I_THREATS",
    "I_UNSEEN",
    "I_WAS",
    "JACK_KEEP",
    "JACK_KIND",
    "LINE",
    "LITE",
    "LOWEST_ZERO_5",
    "MAX_REWINDOW",
    "NUM_PARAMS",
    "NUM_WINDOWS",
    "ONE_EYED_SPEND",
    "OPPONENT_STEP",
    "POPCOUNT_5",
    "P_BLOCK",
    "P_CENTRE",
    "P_LINE",
    "P_ONE_EYED",
    "P_REACH",
    "P_THREAT",
    "P_TWO_EYED",
    "REACH",
    "TEAM_FOUR_BONUS",
    "THREAT_WEIGHT",
    "THROUGH",
    "THROUGH_AT",
    "THROUGH_N",
    "TIE",
    "TUNED",
    "TUNED_PARAMS",
    "TWO_EYED_SPEND",
    "WIN",
    "WINDOW_LINE",
    "WINDOW_START",
    "WINNING_SEQUENCE",
    "check_params",
    "choose",
    "choose_greedy",
    "choose_inferring",
    "choose_lite",
    "choose_params_with",
    "choose_policy_with",
    "choose_unpruned_with",
    "choose_with",
    "heuristic_action",
    "heuristic_playout",
    "heuristic_scores",
    "inferring_playout",
    "lite_playout",
    "new_work",
    "playout_policy_with",
    "playout_sides_with",
    "playout_unpruned_with",
    "playout_with",
    "score_full",
    "score_greedy",
    "score_inferring",
    "score_lite",
    "score_params",
    "score_policy",
]

# last: the warm-up reads the names above (it registers with fast.compile; nothing is compiled now)
from . import warm_up as warm_up
