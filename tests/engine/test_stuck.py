"""R5.5: a hand with no legal play; R7.2: the drawn game."""

import pytest

from sequence_game import GameConfig, IllegalActionError, Termination
from sequence_game.actions import DISCARD
from sequence_game.board import PLAYABLE, cells_of
from sequence_game.testing import position

from .conftest import card

TWO = GameConfig(players=2)


def test_R5_5_a_stuck_player_discards_a_card_of_choice_draws_and_passes() -> None:
    # only one-eyed jacks in hand and no opponent chip to remove
    state = position(TWO, {}, {0: ["jh", "js"], 1: ["3s"]})
    assert state.legal_actions() == [DISCARD + card("js"), DISCARD + card("jh")]
    state.apply("discard jh")
    assert state.discard_pile(0) == [card("jh")]
    assert len(state.hand(0)) == 2
    assert state.current_seat == 1


def test_R5_5_no_discard_while_a_play_exists() -> None:
    state = position(TWO, {}, {0: ["2s"], 1: ["3s"]})
    with pytest.raises(IllegalActionError) as err:
        state.apply("discard 2s")
    assert err.value.rule == "R5.5"


def test_R7_2_a_full_round_of_stuck_players_draws_the_game() -> None:
    # every playable cell is covered, split between the two sides; hands hold only dead cards
    cells = cells_of(PLAYABLE)
    chips = {0: cells[0::2], 1: cells[1::2]}
    state = position(TWO, chips, {0: ["2s", "3s"], 1: ["4s", "5s"]})
    state.apply("dead 2s")
    state.apply(next(a for a in state.legal_actions() if a >= DISCARD))
    assert not state.is_terminal()
    seat1 = state.legal_actions()
    state.apply(next(a for a in seat1 if a >= DISCARD))
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.STUCK and outcome.winner is None
    assert state.returns() == [0.0, 0.0]


def test_R5_5_an_empty_hand_passes_without_drawing() -> None:
    four = GameConfig(players=4)
    state = position(four, {}, {0: ["2s"], 1: [], 2: ["3s"], 3: ["4s"]})
    state.apply("2s@b0")
    assert state.current_seat == 2  # seat 1 passed
    assert state.hand(1) == []
