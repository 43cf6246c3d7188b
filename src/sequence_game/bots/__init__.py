"""Bots, from random to search over hidden information; :func:`make_bot` builds one by name or
level, optionally with constructor options (:mod:`~sequence_game.bots.specs`).

>>> sorted(BOTS)
['greedy', 'heuristic', 'mcts', 'pimc', 'planner', 'policy', 'random']
>>> make_bot("hard", seed=1).name
'heuristic'
>>> make_bot("mcts(width=8, plies=20)", seed=1).width
8
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.util import find_spec
from typing import Final

from .base import Bot, Limit, RandomBot, forced_action
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .mcts import MCTSBot
from .pimc import PimcBot
from .planner import PlannerBot
from .specs import spec_name


def policy_bot(seed: int | None = None) -> Bot:
    """The trained policy network (:class:`sequence_game.bots.policy.PolicyBot`), built on
    demand: it needs numpy, from the ``env`` extra, which this package does not require."""
    try:
        from .policy import PolicyBot
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


EXPERT: Final = (
    "pimc(rank='table', reading=8, margin=0, jack_weights=(2.2, 2.8), reading_players=2,"
    " two_player_width=8, two_player_confidence=0.5, two_player_rollouts=2000,"
    " leaf=6, leaf_rollouts=2000, leaf_players=2)"
)
"""The expert: perfect-information Monte Carlo on the compiled engine over the plays the tuned
heuristic ranks best (with the numbers tuned for the table: those tuned at 3 players where three
sides play), reading the other hands at 2 players and searching 8 plays there instead of 4, on
half a standard error, where the move's time buys at least 2,000 rollouts (``docs/research/bots-log.md``,
eighteenth to twenty-second passes: at 1 s a move against ``hard``, 62.6% at 2 players over 800
games, 65.5% at 4 in 2 teams and 55.4% at 3; 70.2% against ``medium`` at 2 players over 400
games). At 2 players, where the move's time buys fewer than 2,000 rollouts (about 0.1 s a move),
its rollouts stop after 6 turns and the evaluator judges where they stand: four to five times the worlds for
the same time (``docs/evaluator.md``, "Leaf values"); at 1 s it searches exactly as before."""

#: Difficulty levels for people, weakest first: the bot each plays, with its options (a spec).
LEVELS: dict[str, str] = {"easy": "random", "medium": "greedy", "hard": "heuristic", "expert": EXPERT}

#: What a level plays where its own bot's extra is not installed (``pimc`` needs ``fast``).
LEVEL_FALLBACKS: dict[str, str] = {"expert": "mcts"}


def level_spec(level: str) -> str:
    """The bot spec this installation plays at ``level`` (a key of :data:`LEVELS`): the level's
    own, or its fallback where that bot's extra is missing.

    >>> level_spec("hard")
    'heuristic'
    """
    spec = LEVELS[level]
    if spec_name(spec) in available_bots():
        return spec
    return LEVEL_FALLBACKS.get(level, "random")


def level_bot(level: str) -> str:
    """The name of the bot this installation plays at ``level`` (``"pimc"`` for the expert)."""
    return spec_name(level_spec(level))


def level_bots() -> dict[str, str]:
    """Per bot name that a level plays on this installation, the level (the server's labels)."""
    return {level_bot(level): level for level in LEVELS}


def table_spec(name: str) -> str:
    """The spec a bot named ``name`` plays with at a table of people: a level's bot with that
    level's options (the expert's ``pimc`` reads hands), any other bot with its defaults.
    Tournaments and experiments name their options themselves (:func:`make_bot`).

    >>> table_spec("heuristic"), table_spec("planner")
    ('heuristic', 'planner')
    """
    for level in LEVELS:
        spec = level_spec(level)
        if spec_name(spec) == name:
            return spec
    return name


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


def warm_up(name: str) -> None:
    """Load what the bot ``name`` needs before its first move, silently: the compiled kernels of
    ``pimc`` (compiled on a machine's first run, tens of seconds; loaded from the disk cache
    after). Interfaces call it in the background so that the expert's first move is not spent
    waiting; any other bot needs nothing."""
    if name == "pimc" and name in available_bots():
        from ..fast.compile import ensure_compiled
        from .pimc import kernel_groups

        for group in kernel_groups():
            ensure_compiled(group, notice=None)


def is_warm(name: str) -> bool:
    """Whether the bot ``name`` answers without loading anything first (:func:`warm_up` done, or
    nothing to load): an interface that finds it cold tells the player what the wait is."""
    if name != "pimc" or name not in available_bots():
        return True
    from ..fast.compile import is_compiled
    from .pimc import kernel_groups

    return all(is_compiled(group) for group in kernel_groups())


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
    "EXPERT",
    "LEVELS",
    "LEVEL_FALLBACKS",
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
    "is_warm",
    "level_bot",
    "level_bots",
    "level_spec",
    "make_bot",
    "policy_bot",
    "table_spec",
    "warm_up",
]
