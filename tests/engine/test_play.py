"""R5.2: playing a card: normal cards, two-eyed and one-eyed jacks; R4.3 turn order; R7.1."""

import pytest

from sequence_game import GameConfig, IllegalActionError
from sequence_game.actions import REMOVE, WILD, parse_action
from sequence_game.board import CELLS_OF_CARD
from sequence_game.testing import position

from .conftest import card, cell, snapshot

TWO = GameConfig(players=2)


def test_R5_2_normal_card_puts_a_chip_on_one_of_its_spaces_and_draws() -> None:
    state = position(TWO, {}, {0: ["7h", "2s"], 1: ["3s"]})
    a, b = CELLS_OF_CARD[card("7h")]
    assert {a, b} <= set(state.legal_actions())
    deck_before = state.deck_size
    state.apply(b)
    assert state.chip_at(b) == 0
    assert state.discard_pile(0) == [card("7h")]
    assert len(state.hand(0)) == 2  # played one, drew one (automatic draw)
    assert state.deck_size == deck_before - 1
    assert state.current_seat == 1


def test_R5_2_a_space_holding_a_chip_cannot_take_another() -> None:
    a, b = CELLS_OF_CARD[card("7h")]
    state = position(TWO, {1: [a]}, {0: ["7h"], 1: ["3s"]})
    assert a not in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply(a)
    assert err.value.rule == "R5.2"
    assert snapshot(state) == before
    state.apply(b)  # the other space is open
    assert state.chip_at(b) == 0


def test_R5_2_a_card_not_in_hand_cannot_be_played() -> None:
    state = position(TWO, {}, {0: ["7h"], 1: ["3s"]})
    with pytest.raises(IllegalActionError, match=r"R5\.2: seat 0 holds no 3s"):
        state.apply(CELLS_OF_CARD[card("3s")][0])


def test_R5_2_corners_hold_no_chips() -> None:
    state = position(TWO, {}, {0: ["jd"], 1: ["3s"]})
    assert 0 not in state.legal_actions() and WILD + 0 not in state.legal_actions()
    for action in (0, WILD + 99):
        with pytest.raises(IllegalActionError, match=r"R5\.2"):
            state.apply(action)


def test_R5_2_two_eyed_jack_takes_any_open_space() -> None:
    state = position(TWO, {1: ["e4"]}, {0: ["jc"], 1: ["3s"]})
    wild = [a - WILD for a in state.legal_actions() if WILD <= a < REMOVE]
    assert len(wild) == 95 and cell("e4") not in wild
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        state.apply(WILD + cell("e4"))
    state.apply("jc@a5")
    assert state.chip_at(cell("a5")) == 0
    assert state.discard_pile(0) == [card("jc")]


def test_R5_2_two_eyed_jack_choice_is_kept_for_records() -> None:
    state = position(TWO, {}, {0: ["jd", "jc"], 1: ["3s"]})
    state.apply(WILD + cell("e4"), card=card("jc"))
    assert state.discard_pile(0) == [card("jc")]
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        state.apply(WILD + cell("e5"), card=card("jh"))


def test_R5_2_one_eyed_jack_removes_an_opponent_chip_and_ends_the_turn() -> None:
    state = position(TWO, {1: ["e4"], 0: ["e5"]}, {0: ["js", "4h"], 1: ["3s"]})
    removable = [a - REMOVE for a in state.legal_actions() if a >= REMOVE and a < 300]
    assert removable == [cell("e4")]  # never one's own chip
    state.apply(REMOVE + cell("e4"))
    assert state.chip_at(cell("e4")) is None
    assert state.current_seat == 1  # no chip placed: the turn has passed


def test_R5_2_one_eyed_jack_refusals() -> None:
    state = position(TWO, {0: ["e5"], 1: []}, {0: ["jh"], 1: ["3s"]})
    with pytest.raises(IllegalActionError, match=r"R5\.2: e4 holds no chip"):
        state.apply(REMOVE + cell("e4"))
    with pytest.raises(IllegalActionError, match=r"R5\.2: the chip on e5 is your own"):
        state.apply(REMOVE + cell("e5"))
    state2 = position(TWO, {1: ["e5"]}, {0: ["4h"], 1: ["3s"]})
    with pytest.raises(IllegalActionError, match=r"R5\.2: seat 0 holds no one-eyed jack"):
        state2.apply(REMOVE + cell("e5"))


def test_R4_3_only_the_seat_to_play_may_play() -> None:
    state = position(TWO, {}, {0: ["7h"], 1: ["3s"]})
    with pytest.raises(IllegalActionError) as err:
        state.apply(CELLS_OF_CARD[card("3s")][0], seat=1)
    assert err.value.rule == "R4.3"


def test_notation_and_ids_agree() -> None:
    assert parse_action("7h@d5") == cell("d5")
    assert parse_action("jd@e4") == WILD + cell("e4")
    assert parse_action("JS@e4") == REMOVE + cell("e4")
    assert parse_action("dead 7h") == 300 + card("7h")
    assert parse_action("discard 7h") == 352 + card("7h")
    assert parse_action("draw") == 404
    with pytest.raises(ValueError, match="not printed"):
        parse_action("7h@a0")


def test_garbage_actions_are_refused_with_a_rule() -> None:
    state = position(TWO, {}, {0: ["7h"], 1: ["3s"]})
    for bad in (-1, 405, 10**9):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        state.apply("hello")


def test_random_play_is_uniform_over_distinct_actions() -> None:
    """Holding both copies of a card must not make its spaces likelier (playout and random_action)."""
    import random
    from collections import Counter

    base = position(TWO, {}, {0: ["7h", "7h", "2s"], 1: ["3s"]})
    rng = random.Random(5)
    fast: Counter[int] = Counter()
    trusted: Counter[int] = Counter()
    for _ in range(4000):
        state = base.copy()
        state.playout(rng, max_turns=1)
        fast[state.history[0][1]] += 1
        trusted[base.random_action(rng)] += 1
    expected = set(CELLS_OF_CARD[card("7h")] + CELLS_OF_CARD[card("2s")])
    for counts in (fast, trusted):
        assert set(counts) == expected
        assert all(900 <= n <= 1100 for n in counts.values()), counts
