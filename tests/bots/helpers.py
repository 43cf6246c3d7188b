"""Random positions of every configuration, for the bot tests."""

from __future__ import annotations

import random

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DRAW
from sequence_game.config import TEAM_OPTIONS

#: Every table the rules allow (R2.1, R2.2), in both draw modes (R5.3).
CONFIGS: list[GameConfig] = [
    GameConfig(players=n, teams=t, draw=d)
    for n, options in TEAM_OPTIONS.items()
    for t in options
    for d in ("auto", "manual")
]


def random_position(config: GameConfig, seed: int, turns: int) -> GameState:
    """A game after about ``turns`` random actions; table-talk fines (R6.1) are called now and then,
    and in manual mode draws are sometimes skipped (so some are lost, R5.3)."""
    rng = random.Random(seed)
    state = new_game(config, seed=seed)
    for _ in range(turns):
        if state.is_terminal():
            break
        if config.team_size >= 2 and not state.penalty_due and rng.random() < 0.03:
            state.call_table_talk(rng.randrange(config.sides))
            continue
        seats = state.seats_to_act()
        seat = rng.choice(seats)
        acts = state.legal_actions(seat)
        if DRAW in acts and rng.random() < 0.7:
            action = DRAW
        else:
            action = rng.choice(acts)
        state.apply(action, seat)
    return state
