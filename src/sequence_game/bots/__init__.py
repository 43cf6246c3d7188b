"""Bots, from random to search over hidden information; :func:`make_bot` builds one by name or
level, optionally with constructor options (:mod:`~sequence_game.bots.specs`).

>>> sorted(BOTS)
['greedy', 'heuristic', 'mcts', 'pimc', 'planner', 'policy', 'random']
>>> make_bot("expert", seed=1).name
'mcts'
>>> make_bot("mcts(width=8, plies=20)", seed=1).width
8
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.util import find_spec

from .base import Bot, Limit, RandomBot, forced_action
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .mcts import MCTSBot
from .pimc import PimcBot
from .planner import PlannerBot


def policy_bot(seed: int | None = None) -> Bot:
    """The trained policy network (:class:`sequence_game.env.policy_bot.PolicyBot`), built on
    demand: it needs numpy, from the ``env`` extra, which this package does not require."""
    try:
        from ..env.policy_bot import PolicyBot
    except ImportError as exc:
        raise ImportError(
            "the policy bot runs a trained network with numpy: pip install 'sequence-game[env]'"
        ) from exc
    return PolicyBot(seed=seed)


#: Bot constructors by name, weakest first; each takes ``seed``.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "policy": policy_bot,
    "heuristic": HeuristicBot,
    "mcts": MCTSBot,
    "planner": PlannerBot,
    "pimc": PimcBot,
}

#: The optional packages a bot needs beyond this package (its extra: ``env`` or ``fast``).
NEEDS: dict[str, tuple[str, ...]] = {"policy": ("numpy",), "pimc": ("numpy", "numba")}


@cache
def available_bots() -> tuple[str, ...]:
    """The bot names this installation can build, weakest first: a bot whose extra is not
    installed is not offered to players (it would fail when its seat must move)."""
    return tuple(
        name for name in BOTS if all(find_spec(module) is not None for module in NEEDS.get(name, ()))
    )


#: Difficulty levels for people, mapped onto bot names.
LEVELS: dict[str, str] = {"easy": "random", "medium": "greedy", "hard": "heuristic", "expert": "mcts"}

#: A sensible thinking time per move for each bot when a person waits for it (seconds).
DEFAULT_SECONDS: dict[str, float] = {
    "random": 0.0,
    "greedy": 0.0,
    "policy": 0.0,
    "heuristic": 0.0,
    "mcts": 1.0,
    "planner": 1.0,
    "pimc": 1.0,
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
    "NEEDS",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "Limit",
    "MCTSBot",
    "PimcBot",
    "PlannerBot",
    "RandomBot",
    "available_bots",
    "forced_action",
    "make_bot",
    "policy_bot",
]
