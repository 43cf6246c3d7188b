"""R3: sequences, corners, overlaps, several at once, locking; R7.1 the end."""

import pytest

from sequence_game import GameConfig, IllegalActionError, Termination
from sequence_game.actions import REMOVE
from sequence_game.testing import position

from .conftest import cell

TWO = GameConfig(players=2)
ROW1 = [10 + c for c in range(10)]  # 6c 5c 4c 3c 2c ah kh qh th ts


def row1_window(col: int) -> int:
    return 6 + col  # horizontal windows of row 1 start at window 6


def test_R3_2_five_in_a_row_is_a_sequence_but_two_are_needed_with_two_sides() -> None:
    state = position(TWO, {0: ROW1[0:4]}, {0: ["2c"], 1: ["3s"]})
    state.apply(cell("e1"))  # 2c
    assert state.sequence_counts() == (1, 0)
    assert state.sequences(0) == [tuple(ROW1[0:5])]
    assert not state.is_terminal()  # R3.1: two sequences to win with two sides


def test_R3_2_a_corner_counts_for_every_side() -> None:
    # side 0 along row 0 with the corner a0; side 1 down column a with the same corner
    state = position(TWO, {0: ["b0", "c0", "d0"], 1: ["a1", "a2", "a3"]}, {0: ["5s"], 1: ["9c"]})
    state.apply(cell("e0"))  # 5s completes a0..e0 with 4 chips
    assert state.sequence_counts() == (1, 0)
    state.apply(cell("a4"))  # 9c completes a0..a4 for side 1
    assert state.sequence_counts() == (1, 1)
    assert not state.locked >> 0 & 1  # corners are never locked chips


def test_R3_1_with_three_sides_one_sequence_wins() -> None:
    three = GameConfig(players=3)
    state = position(three, {0: ROW1[0:4]}, {0: ["2c"], 1: ["3s"], 2: ["4s"]})
    state.apply(cell("e1"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.termination is Termination.SEQUENCES


def test_R3_3_six_in_a_row_is_one_sequence() -> None:
    state = position(TWO, {0: ROW1[0:5]}, {0: ["ah"], 1: ["3s"]}, sequences={0: [row1_window(0)]})
    state.apply(cell("f1"))  # ah extends to six
    assert state.sequence_counts() == (1, 0)
    assert not state.locked >> cell("f1") & 1


def test_R3_3_nine_in_a_row_is_two_sequences_and_wins() -> None:
    state = position(TWO, {0: ROW1[0:4] + ROW1[5:9]}, {0: ["2c"], 1: ["3s"]})
    state.apply(cell("e1"))  # the middle chip completes two sequences at once (R3.4)
    assert state.sequence_counts() == (2, 0)
    assert sorted(state.sequences(0)) == [tuple(ROW1[0:5]), tuple(ROW1[4:9])]
    assert state.outcome() is not None and state.outcome().winner == 0  # type: ignore[union-attr]


def test_R3_3_second_sequence_may_share_one_space_with_the_first() -> None:
    state = position(TWO, {0: ROW1[0:5] + ROW1[5:8]}, {0: ["th"], 1: ["3s"]}, sequences={0: [row1_window(0)]})
    state.apply(cell("i1"))  # th: f1..i1 plus e1 shared
    assert state.sequence_counts() == (2, 0)
    assert state.is_terminal()


def test_R3_3_a_second_sequence_may_not_share_two_spaces() -> None:
    state = position(TWO, {0: ROW1[0:5] + ROW1[5:7]}, {0: ["qh"], 1: ["3s"]}, sequences={0: [row1_window(0)]})
    state.apply(cell("h1"))  # d1..h1 would share d1 and e1 with a1..e1
    assert state.sequence_counts() == (1, 0)


def test_R3_4_one_chip_completing_two_lines_wins_at_once() -> None:
    # row 1 (a1 b1 d1 e1) and column c (c0 c2 c3 c4) cross at c1
    chips = ["a1", "b1", "d1", "e1", "c0", "c2", "c3", "c4"]
    state = position(TWO, {0: chips}, {0: ["4c"], 1: ["3s"]})
    state.apply(cell("c1"))  # 4c
    assert state.sequence_counts() == (2, 0)
    assert state.outcome().winner == 0  # type: ignore[union-attr]


def test_R3_4_a_run_of_six_made_at_once_declares_the_first_window() -> None:
    state = position(TWO, {0: ROW1[0:3] + ROW1[4:7]}, {0: ["3c"], 1: ["3s"]})
    state.apply(cell("d1"))  # completes a1..e1, b1..f1 and c1..g1 at once
    assert state.sequences(0) == [tuple(ROW1[0:5])]
    assert [c for c in ROW1 if state.locked >> c & 1] == ROW1[0:5]


def test_R3_5_chips_of_a_sequence_cannot_be_removed() -> None:
    state = position(TWO, {0: ROW1[0:6]}, {0: ["3s"], 1: ["jh"]}, seat=1, sequences={0: [row1_window(0)]})
    legal = state.legal_actions()
    assert REMOVE + cell("a1") not in legal
    assert REMOVE + cell("f1") in legal  # the sixth chip is not part of the sequence
    with pytest.raises(IllegalActionError) as err:
        state.apply(REMOVE + cell("a1"))
    assert err.value.rule == "R3.5"
    state.apply(REMOVE + cell("f1"))
    assert state.chip_at(cell("f1")) is None


def test_R7_1_no_action_after_the_game_is_won() -> None:
    three = GameConfig(players=3)
    state = position(three, {0: ROW1[0:4]}, {0: ["2c", "3s"], 1: ["3s"], 2: ["4s"]})
    state.apply(cell("e1"))
    assert state.legal_actions() == [] and state.seats_to_act() == []
    with pytest.raises(IllegalActionError) as err:
        state.apply(cell("b0"), seat=1)
    assert err.value.rule == "R7.1"
    assert state.returns() == [1.0, -1.0, -1.0]
