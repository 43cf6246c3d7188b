"""The bot interface: a bot sees one seat's view, never the full state, and returns one legal action.

>>> import random
>>> from sequence_game import GameConfig, new_game
>>> from sequence_game.bots import make_bot
>>> state = new_game(GameConfig(players=2), seed=1)
>>> bot = make_bot("random", seed=1)
>>> state.apply(bot.select_action(state.view(state.current_seat), Limit(seconds=0.1)))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..actions import DEAD, DISCARD, DRAW
from ..views import PlayerView

if TYPE_CHECKING:
    from ..state import GameState


@dataclass(frozen=True)
class Limit:
    """A search budget: stop at whichever comes first (after python-chess's ``engine.Limit``)."""

    seconds: float | None = None
    simulations: int | None = None


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for the seat of a view."""

    name: str

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        """One of ``view.legal_actions``."""
        ...


class RandomBot:
    """Uniformly random legal actions, dead cards always exchanged: the baseline."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        acts = legal_or_raise(view)
        if DRAW in acts:
            return DRAW  # R5.3: a seat owing a draw draws (else it may lose it)
        dead = [a for a in acts if DEAD <= a < DISCARD]
        choice = dead or list(acts)
        return choice[int(self.rng.random() * len(choice))]


def legal_or_raise(view: PlayerView) -> tuple[int, ...]:
    """The view's legal actions; a clear error when the seat has nothing to do now."""
    acts = view.legal_actions
    if not acts:
        why = "the game is over" if view.is_over else f"it is not seat {view.seat}'s turn to act"
        raise ValueError(f"R4.3: seat {view.seat} has no action to take: {why}")
    return acts


def forced_action(view: PlayerView) -> int | None:
    """The action every thinking bot takes without search, or ``None``.

    The only legal action; a draw owed in manual mode (R5.3: a later player's draw would make it
    lost); a dead card's exchange (R5.1: a dead card can never be played, and the exchange is free).
    """
    acts = legal_or_raise(view)
    if len(acts) == 1:
        return acts[0]
    if DRAW in acts:
        return DRAW
    for a in acts:
        if DEAD <= a < DISCARD:
            return a
    return None


class Oracle:
    """What a bot built with ``oracle=True`` needs: the TRUE state (every hand and the order of the
    draw pile), revealed by the table before each of its moves. A calibration tool for measuring
    a search without hidden information (``docs/bots.md``): only the tournament and tests reveal
    the truth, and :func:`~sequence_game.bots.make_bot` refuses such a bot unless the caller opts
    in, so ``sequence play``, ``sequence serve`` and the environments cannot seat one."""

    oracle: bool = False
    _truth: GameState | None = None

    def reveal(self, state: GameState) -> None:
        """Hand the bot (a copy of) the true state before it chooses for one of its views."""
        self._truth = state.copy()

    def true_world(self, view: PlayerView) -> GameState:
        """A copy of the revealed state, checked to be the one ``view`` was taken from."""
        truth = self._truth
        if truth is None or truth.turn != view.turn or truth.hand(view.seat) != sorted(view.hand):
            raise ValueError(
                "oracle mode: no true state was revealed for this position (only `sequence tournament` "
                "and tests reveal it; a bot that plays people never sees it)"
            )
        return truth.copy()


def reveal_truth(bot: object, state: GameState) -> bool:
    """Reveal the true state to ``bot`` if it was built in oracle mode; whether it was."""
    if isinstance(bot, Oracle) and bot.oracle:
        bot.reveal(state)
        return True
    return False
