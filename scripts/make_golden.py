"""Regenerate the golden game records in tests/fixtures/golden/ (review the diff before committing).

Each is a whole seeded game between random players, with table-talk calls in team games, saved as a
record with its expected ``sequence validate --json`` answer beside it.

    python scripts/make_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from sequence_game import GameConfig, new_game
from sequence_game.records import dumps, replay

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "golden"

GAMES = [
    ("two-players", GameConfig(players=2), 1),
    ("three-players", GameConfig(players=3), 2),
    ("four-players-manual", GameConfig(players=4, draw="manual"), 3),
    ("six-players-three-teams", GameConfig(players=6, teams=3), 4),
    ("eight-players", GameConfig(players=8), 5),
    ("nine-players", GameConfig(players=9), 6),
    ("ten-players-manual", GameConfig(players=10, draw="manual"), 7),
    ("twelve-players-two-teams", GameConfig(players=12, teams=2), 8),
]


def play(config: GameConfig, seed: int) -> str:
    rng = random.Random(seed)
    state = new_game(config, seed=seed)
    while not state.is_terminal():
        if config.team_size >= 2 and not state.penalty_due and rng.random() < 0.01:
            state.call_table_talk(rng.randrange(config.sides))
            continue
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        acts = state.legal_actions(seat)
        dead = [a for a in acts if 300 <= a < 352]
        state.apply(rng.choice(dead or acts), seat)
    return dumps(state)


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, config, seed in GAMES:
        text = play(config, seed)
        (GOLDEN / f"{name}.json").write_text(text)
        summary = replay(text).summary()
        (GOLDEN / f"{name}.expected.json").write_text(json.dumps(summary) + "\n")
        print(name, summary)


if __name__ == "__main__":
    main()
