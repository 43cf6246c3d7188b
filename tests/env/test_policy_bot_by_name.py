"""The trained policy is a ``sequence`` bot by name: ``make_bot("policy")`` plays legal moves at
tables of two and four, thinks no longer than it takes (``DEFAULT_SECONDS``), is no difficulty
level, and says which extra it needs where numpy is missing (the bots package does not need it)."""

from __future__ import annotations

import sys

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.bots import BOTS, DEFAULT_SECONDS, LEVELS, Limit, make_bot
from sequence_game.bots.policy import PolicyBot


@pytest.mark.parametrize("players", [2, 4])
def test_policy_by_name_plays_legal_moves_to_the_end(players: int) -> None:
    state = new_game(GameConfig(players=players), seed=players)
    bots = [
        make_bot("policy", seed=seat) if seat % 2 == 0 else make_bot("greedy", seed=seat)
        for seat in range(players)
    ]
    assert isinstance(bots[0], PolicyBot) and bots[0].name == "policy"
    played = 0
    while not state.is_terminal() and state.turn < 400:
        seat = state.current_seat
        action = bots[seat].select_action(state.view(seat), Limit(seconds=1.0))
        assert action in state.legal_actions(seat), (seat, action)
        state.apply(action, seat)
        played += 1
    assert state.is_terminal()
    assert played > 2 * players


def test_policy_is_a_bot_name_not_a_level() -> None:
    assert "policy" in BOTS
    assert DEFAULT_SECONDS["policy"] == 0.0  # one forward pass: nothing to wait for
    assert "policy" not in LEVELS.values()


def test_policy_without_numpy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sequence_game.bots.policy", None)  # import fails
    with pytest.raises(ImportError, match=r"pip install 'sequence-game\[env\]'"):
        make_bot("policy")
