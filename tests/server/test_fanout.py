"""The server's shared-part views (``server/fanout.py``) equal the engine's own views, for every
seat and for spectators, at every step of random games (auto and manual draw, teams, fines)."""

from __future__ import annotations

import json
import random

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.server.fanout import SeatViews
from sequence_game.server.json_text import encode
from sequence_game.server.rooms import public_view


@pytest.mark.parametrize(
    ("players", "teams", "draw", "seed"),
    [
        (2, None, "auto", 1),
        (3, None, "manual", 2),
        (4, 2, "auto", 3),
        (6, 3, "manual", 4),
        (12, 2, "auto", 5),
    ],
)
def test_views_equal_the_engines_at_every_step(players: int, teams: int | None, draw: str, seed: int) -> None:
    state = new_game(GameConfig(players=players, teams=teams, draw=draw), seed=seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        views = SeatViews(state)
        for seat in range(players):
            assert views.view(seat) == state.view(seat).to_dict(), (seat, steps)
        assert views.view(None) == public_view(state)
        if state.is_terminal() or steps > 400:
            break
        if steps % 37 == 5 and state.config.team_size > 1 and not state.penalty_due:
            state.call_table_talk(rng.randrange(state.config.sides))  # R6.1 fines in the views
        else:
            seat = rng.choice(state.seats_to_act())
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
        steps += 1


def test_encode_is_json_and_survives_a_lone_surrogate() -> None:
    message = {"type": "state", "n": [1, None, True], "name": "Ann ♥", 3: "x"}
    assert json.loads(encode(message)) == {"type": "state", "n": [1, None, True], "name": "Ann ♥", "3": "x"}
    assert json.loads(encode({"name": "\ud800"})) == {"name": "\ud800"}
