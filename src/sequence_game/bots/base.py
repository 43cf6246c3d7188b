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
        acts = view.legal_actions
        if not acts:
            raise ValueError(f"seat {view.seat} has no action to take")
        dead = [a for a in acts if 300 <= a < 352]
        choice = dead or acts
        return choice[int(self.rng.random() * len(choice))]
