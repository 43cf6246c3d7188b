"""Shared helpers for the environment tests: tables and seeded mid-game positions."""

from __future__ import annotations

import random

import pytest

from sequence_game import GameConfig, GameState, new_game
from sequence_game.config import TEAM_OPTIONS

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

#: Every table R2 allows: (players, teams).
ALL_TABLES = [(p, t) for p, options in sorted(TEAM_OPTIONS.items()) for t in options]


def positions(players: int, teams: int | None, count: int, seed: int = 0) -> list[GameState]:
    """Seeded states at varied depths of random games, finished ones included."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = new_game(GameConfig(players=players, teams=teams), seed=seed * 1000 + i)
        state.playout(rng, max_turns=rng.choice([0, 5, 20, 40, 60, 90, 400]))
        out.append(state)
    return out
