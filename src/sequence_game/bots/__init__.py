"""Bots, from random to search over hidden information; :func:`make_bot` builds one by name or
level, optionally with constructor options (:mod:`~sequence_game.bots.specs`).

>>> sorted(BOTS)
['greedy', 'heuristic', 'mcts', 'planner', 'random']
>>> make_bot("expert", seed=1).name
'mcts'
>>> make_bot("mcts(width=8, plies=20)", seed=1).width
8
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, Limit, RandomBot, forced_action
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .mcts import MCTSBot
from .planner import PlannerBot

#: Bot constructors by name, weakest first; each takes ``seed``.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "mcts": MCTSBot,
    "planner": PlannerBot,
}

#: Difficulty levels for people, mapped onto bot names.
LEVELS: dict[str, str] = {"easy": "random", "medium": "greedy", "hard": "heuristic", "expert": "mcts"}

#: A sensible thinking time per move for each bot when a person waits for it (seconds).
DEFAULT_SECONDS: dict[str, float] = {
    "random": 0.0,
    "greedy": 0.0,
    "heuristic": 0.0,
    "mcts": 1.0,
    "planner": 1.0,
}


def make_bot(name: str, seed: int | None = None, *, allow_oracle: bool = False) -> Bot:
    """A bot by name (see :data:`BOTS`) or difficulty level (see :data:`LEVELS`), optionally
    with options: ``"mcts(width=8)"`` (see :func:`~sequence_game.bots.specs.parse_bot_spec`).
    A bot in oracle mode (``"mcts(oracle=True)"``, which sees the true state) is refused unless
    ``allow_oracle``: only tournaments and tests measure with one."""
    from .specs import parse_bot_spec

    return parse_bot_spec(name, allow_oracle=allow_oracle).build(seed)


__all__ = [
    "BOTS",
    "DEFAULT_SECONDS",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "Limit",
    "MCTSBot",
    "PlannerBot",
    "RandomBot",
    "forced_action",
    "make_bot",
]
