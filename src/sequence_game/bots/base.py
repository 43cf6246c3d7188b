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
from typing import Protocol, runtime_checkable

from ..actions import DEAD, DISCARD, DRAW
from ..views import PlayerView


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
