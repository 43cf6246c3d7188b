"""R1.1: the board, and what is precomputed about it."""

from collections import Counter

from sequence_game.board import (
    CELLS_OF_CARD,
    CORNER_CELLS,
    LAYOUT,
    LINES,
    LINES_THROUGH,
    WINDOW_CELLS,
    card_at,
    cell_name,
    parse_cell,
)
from sequence_game.cards import NUM_CARDS, is_jack, parse_card


def test_R1_1_four_corners_are_free_spaces() -> None:
    assert CORNER_CELLS == (0, 9, 90, 99)
    assert all(LAYOUT[c] == -1 for c in CORNER_CELLS)


def test_R1_1_every_non_jack_card_appears_exactly_twice() -> None:
    counts = Counter(c for c in LAYOUT if c >= 0)
    assert len(counts) == 48
    assert set(counts.values()) == {2}
    for card in range(NUM_CARDS):
        assert len(CELLS_OF_CARD[card]) == (0 if is_jack(card) else 2)


def test_R1_3_jacks_are_not_on_the_board() -> None:
    assert not any(is_jack(c) for c in LAYOUT if c >= 0)


def test_R1_1_fixed_cells_match_the_standard_board() -> None:
    assert card_at(parse_cell("b0")) == "2s"
    assert card_at(parse_cell("a1")) == "6c"
    assert card_at(parse_cell("f4")) == "4h"
    assert card_at(parse_cell("j8")) == "5d"
    assert card_at(parse_cell("4,5")) == "4h"
    assert card_at(99) == "jk"
    assert CELLS_OF_CARD[parse_card("ah")] == (15, 46)


def test_cell_names_round_trip() -> None:
    for cell in range(100):
        assert parse_cell(cell_name(cell)) == cell


def test_R3_4_windows_are_ordered_by_direction_then_first_cell() -> None:
    assert len(LINES) == 192
    assert WINDOW_CELLS[0] == (0, 1, 2, 3, 4)  # horizontal first
    assert WINDOW_CELLS[60] == (0, 10, 20, 30, 40)  # then vertical
    assert WINDOW_CELLS[120] == (0, 11, 22, 33, 44)  # diagonal down-right
    assert WINDOW_CELLS[156] == (4, 13, 22, 31, 40)  # diagonal down-left, smaller row first
    assert max(len(t) for t in LINES_THROUGH) == 20
    assert all(w == tuple(sorted(w)) for w in LINES_THROUGH)
