"""R6.1: the table-talk penalty."""

import pytest

from sequence_game import GameConfig, IllegalActionError, new_game
from sequence_game.actions import DISCARD
from sequence_game.testing import position

from .conftest import card


def test_R6_1_every_member_discards_in_ascending_seat_order_without_drawing() -> None:
    state = new_game(GameConfig(players=4), seed=4, dealer=0)
    to_play = state.current_seat
    state.call_table_talk(1)
    assert state.penalty_due == (1, 3)
    assert state.seats_to_act() == [1]
    hand1 = state.hand(1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(DISCARD + state.hand(3)[0], seat=3)
    assert err.value.rule == "R6.1"
    state.apply(DISCARD + hand1[0], seat=1)
    assert len(state.hand(1)) == 5
    assert state.current_seat == 3
    state.apply(DISCARD + state.hand(3)[0])
    assert len(state.hand(3)) == 5
    assert state.penalty_due == ()
    assert state.current_seat == to_play  # play goes on where it stopped


def test_R6_1_only_a_discard_is_accepted_while_a_fine_is_owed() -> None:
    state = new_game(GameConfig(players=4), seed=4, dealer=0)
    state.call_table_talk(0)
    payer = state.current_seat
    with pytest.raises(IllegalActionError, match=r"R6\.1"):
        state.apply(1, seat=payer)  # a placement on b0


def test_R6_1_no_penalty_for_individual_players() -> None:
    state = new_game(GameConfig(players=3), seed=1)
    with pytest.raises(IllegalActionError, match=r"R6\.1"):
        state.call_table_talk(0)


def test_R6_1_a_member_with_an_empty_hand_owes_nothing() -> None:
    state = position(GameConfig(players=4), {}, {0: ["2s"], 1: ["3s"], 2: [], 3: ["4s"]})
    state.call_table_talk(0)
    assert state.penalty_due == (0,)
    state.apply(DISCARD + card("2s"))
    assert state.hand(0) == []
    assert state.current_seat == 1  # seat 0 now has nothing and passes


def test_R6_1_no_second_call_while_one_is_being_paid() -> None:
    state = new_game(GameConfig(players=6, teams=3), seed=2)
    state.call_table_talk(2)
    with pytest.raises(IllegalActionError, match="already"):
        state.call_table_talk(1)
