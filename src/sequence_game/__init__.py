"""Sequence, the board-and-card game: an exact, fast rules engine and what is built on it.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=4), seed=1)
>>> state.config.sides, state.current_seat in range(4)
(2, True)
"""

from .actions import NUM_ACTIONS, Action, action_name, parse_action
from .cards import Card, card_name, parse_card
from .config import GameConfig
from .errors import ConfigError, IllegalActionError
from .state import GameState, Outcome, Termination, new_game

__all__ = [
    "NUM_ACTIONS",
    "Action",
    "Card",
    "ConfigError",
    "GameConfig",
    "GameState",
    "IllegalActionError",
    "Outcome",
    "Termination",
    "action_name",
    "card_name",
    "new_game",
    "parse_action",
    "parse_card",
]

__version__ = "0.1.0"
