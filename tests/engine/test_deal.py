"""R1.2 and R4: the deck, cutting for the deal, dealing and who starts."""

import random

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.cards import FULL_DECK, JC, JD, JH, JS, parse_card
from sequence_game.state import GameState, cut_for_deal


class ScriptedRandom(random.Random):
    """Returns the given floats from ``random()``: picks deck positions for the cut."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def pos(p: int) -> float:
    return (p + 0.5) / 104


def test_R1_2_two_decks_of_52() -> None:
    assert len(FULL_DECK) == 104
    assert sorted(set(FULL_DECK)) == list(range(52))


def test_R1_3_jacks() -> None:
    assert {JD, JC} == {parse_card("jd"), parse_card("jc")}
    assert {JH, JS} == {parse_card("jh"), parse_card("js")}


def test_R4_1_lowest_cut_deals_aces_high() -> None:
    # position 48 is an ace, position 0 a two: the two deals
    assert cut_for_deal(2, ScriptedRandom([pos(48), pos(0)])) == 1
    # a jack (position 36) is lower than a queen (40)
    assert cut_for_deal(2, ScriptedRandom([pos(40), pos(36)])) == 1


def test_R4_1_a_tie_among_the_lowest_cuts_again() -> None:
    # seats 0 and 2 tie with twos, seat 1 cut a king; on the recut seat 0 cuts a seven and
    # seat 2 a four, so seat 2 deals
    rng = ScriptedRandom([pos(0), pos(44), pos(1), pos(20), pos(8)])
    assert cut_for_deal(3, rng) == 2


def test_R4_2_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = list(range(52)) * 2
    state = GameState(GameConfig(players=3), deck, dealer=1)
    # seat 2 takes the first card, then seat 0, then seat 1, and so on
    assert state.hand(2) == sorted(deck[0:18:3])
    assert state.hand(0) == sorted(deck[1:18:3])
    assert state.hand(1) == sorted(deck[2:18:3])
    assert state.deck_size == 104 - 18


def test_R4_3_the_player_left_of_the_dealer_starts() -> None:
    state = GameState(GameConfig(players=4), list(FULL_DECK), dealer=3)
    assert state.current_seat == 0
    state = new_game(GameConfig(players=4), seed=9, dealer=1)
    assert state.current_seat == 2


def test_R1_2_a_deck_that_is_not_the_104_cards_is_refused() -> None:
    with pytest.raises(ValueError, match=r"R1\.2"):
        GameState(GameConfig(), [0] * 104, dealer=0)
    with pytest.raises(ValueError, match=r"R1\.2"):
        new_game(GameConfig(), deck=list(FULL_DECK)[:-1])


def test_R4_1_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError, match=r"R4\.1"):
        GameState(GameConfig(), list(FULL_DECK), dealer=2)


def test_same_seed_same_game() -> None:
    a = new_game(GameConfig(players=4), seed=42)
    b = new_game(GameConfig(players=4), seed=42)
    a.playout(random.Random(1))
    b.playout(random.Random(1))
    assert a.history == b.history
    assert a.initial_deck == b.initial_deck
