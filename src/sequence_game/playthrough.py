"""Playthroughs: a readable trace of a seeded game, action by action, with every seat's view and the
legal actions, after OpenSpiel's playthrough files. Checked-in traces catch any change in behaviour
as a reviewable diff; the counts of legal actions double as perft-style regression numbers.

>>> from sequence_game import GameConfig
>>> print(playthrough(GameConfig(players=2), seed=1, actions=1).splitlines()[0])
# playthrough: 2 players, 2 sides, draw auto, seed 1
"""

from __future__ import annotations

import random

from .cards import card_name
from .config import GameConfig
from .notation import board_text
from .state import new_game


def playthrough(config: GameConfig, seed: int, actions: int = 40) -> str:
    """Play ``actions`` random actions (with the seed) and write down everything."""
    rng = random.Random(seed)
    state = new_game(config, seed=seed)
    out = [
        f"# playthrough: {config.players} players, {config.sides} sides, draw {config.draw}, seed {seed}",
        f"dealer {state.dealer}",
    ]
    for step in range(actions):
        if state.is_terminal():
            break
        out.append(f"\n## step {step}: turn {state.turn}, seats to act {state.seats_to_act()}")
        out.append(board_text(state))
        for seat in range(config.players):
            view = state.view(seat)
            hand = " ".join(card_name(c) for c in view.hand)
            legal = view.legal_actions
            out.append(
                f"seat {seat} hand [{hand}] legal {len(legal)}: {' '.join(view.action_name(a) for a in legal[:12])}"
            )
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        action = rng.choice(state.legal_actions(seat))
        out.append(f"seat {seat} plays {state.view(seat).action_name(action)}")
        state.apply(action, seat)
    outcome = state.outcome()
    out.append(
        f"\n## end: {outcome if outcome else 'in progress'}; sequences {list(state.sequence_counts())}"
    )
    return "\n".join(out) + "\n"
