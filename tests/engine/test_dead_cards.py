"""R5.1: exchanging a dead card at the start of a turn."""

import pytest

from sequence_game import GameConfig, IllegalActionError
from sequence_game.actions import DEAD
from sequence_game.board import CELLS_OF_CARD
from sequence_game.testing import position

from .conftest import card

TWO = GameConfig(players=2)
SEVEN_H = CELLS_OF_CARD[card("7h")]
THREE_D = CELLS_OF_CARD[card("3d")]


def test_R5_1_a_card_is_dead_when_both_spaces_hold_chips() -> None:
    state = position(TWO, {0: [SEVEN_H[0]], 1: [SEVEN_H[1]]}, {0: ["7h", "2s"], 1: ["3s"]})
    assert state.is_dead(card("7h"))
    assert DEAD + card("7h") in state.legal_actions()
    assert not state.is_dead(card("2s"))


def test_R5_1_exchange_keeps_the_turn_and_draws_a_replacement() -> None:
    state = position(TWO, {0: [SEVEN_H[0]], 1: [SEVEN_H[1]]}, {0: ["7h", "2s"], 1: ["3s"]}, deck=None)
    top = state._deck[-1]
    state.apply("dead 7h")
    assert state.current_seat == 0
    assert state.discard_pile(0) == [card("7h")]
    assert sorted(state.hand(0)) == sorted([card("2s"), top])
    assert state.dead_card_exchanged


def test_R5_1_only_one_dead_card_per_turn_even_if_the_replacement_is_dead() -> None:
    chips = {0: [SEVEN_H[0], THREE_D[0]], 1: [SEVEN_H[1], THREE_D[1]]}
    state = position(TWO, chips, {0: ["7h", "3d", "2s"], 1: ["3s"]})
    state.apply("dead 7h")
    assert DEAD + card("3d") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match=r"R5\.1: only one dead card"):
        state.apply("dead 3d")
    state.apply("2s@b0")
    state.apply("3s@c0")
    assert DEAD + card("3d") in state.legal_actions()  # a new turn, a new exchange


def test_R5_1_jacks_are_never_dead() -> None:
    state = position(TWO, {}, {0: ["jd", "js"], 1: ["3s"]})
    with pytest.raises(IllegalActionError, match=r"R5\.1: jacks are never dead"):
        state.apply(DEAD + card("jd"))


def test_R5_1_a_live_card_cannot_be_exchanged() -> None:
    state = position(TWO, {0: [SEVEN_H[0]]}, {0: ["7h"], 1: ["3s"]})
    with pytest.raises(IllegalActionError, match=r"R5\.1: 7h is not dead"):
        state.apply("dead 7h")


def test_R5_1_only_the_seat_to_play_may_exchange() -> None:
    state = position(TWO, {0: [SEVEN_H[0]], 1: [SEVEN_H[1]]}, {0: ["2s"], 1: ["7h"]})
    with pytest.raises(IllegalActionError) as err:
        state.apply("dead 7h", seat=1)
    assert err.value.rule == "R4.3"
