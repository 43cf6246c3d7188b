"""R5.3: the draw, manual-draw mode and the lost draw; R5.4: reshuffling the discard piles."""

import pytest

from sequence_game import GameConfig, IllegalActionError, new_game
from sequence_game.actions import DRAW
from sequence_game.state import EV_RESHUFFLE
from sequence_game.testing import position

from .conftest import card

MANUAL4 = GameConfig(players=4, draw="manual")


def play_first(state, seat: int) -> None:  # type: ignore[no-untyped-def]
    action = next(a for a in state.legal_actions(seat) if a < 300)
    state.apply(action, seat)


def test_R5_3_draws_are_automatic_by_default() -> None:
    state = new_game(GameConfig(players=2), seed=3)
    with pytest.raises(IllegalActionError, match=r"R5\.3"):
        state.apply(DRAW)


def test_R5_3_manual_play_then_draw() -> None:
    state = new_game(MANUAL4, seed=5, dealer=3)
    play_first(state, 0)
    assert state.owes_draw(0) and len(state.hand(0)) == 5
    assert state.current_seat == 1
    assert state.seats_to_act() == [1, 0]
    assert state.legal_actions(0) == [DRAW]
    state.apply(DRAW, 0)
    assert not state.owes_draw(0) and len(state.hand(0)) == 6
    with pytest.raises(IllegalActionError, match=r"R5\.3: seat 0 owes no draw"):
        state.apply(DRAW, 0)


def test_R5_3_a_late_draw_is_fine_until_the_next_player_has_played_and_drawn() -> None:
    state = new_game(MANUAL4, seed=5, dealer=3)
    play_first(state, 0)
    play_first(state, 1)
    state.apply(DRAW, 0)  # after seat 1 played but before seat 1 drew: still in time
    assert len(state.hand(0)) == 6


def test_R5_3_the_draw_is_lost_once_the_next_player_has_played_and_drawn() -> None:
    state = new_game(MANUAL4, seed=5, dealer=3)
    play_first(state, 0)
    play_first(state, 1)
    state.apply(DRAW, 1)
    assert not state.owes_draw(0)
    assert len(state.hand(0)) == 5  # plays on with fewer cards
    with pytest.raises(IllegalActionError, match=r"R5\.3"):
        state.apply(DRAW, 0)


def test_R5_3_playing_again_before_drawing_loses_the_earlier_draw() -> None:
    state = new_game(GameConfig(players=2, draw="manual"), seed=8, dealer=1)
    play_first(state, 0)
    play_first(state, 1)  # seat 1 does not draw either
    play_first(state, 0)  # seat 0 plays again: its first draw is gone, one is owed
    assert state.owes_draw(0)
    state.apply(DRAW, 0)
    assert len(state.hand(0)) == 6


def test_R5_4_an_empty_draw_pile_is_made_of_all_discard_piles() -> None:
    state = position(GameConfig(players=2), {}, {0: ["2s", "3s"], 1: ["4s", "5s"]})
    # put the other 100 cards on the discard piles
    rest = state._deck[:]
    state._deck.clear()
    state._discards[0].extend(rest[:50])
    state._discards[1].extend(rest[50:])
    state.apply("2s@b0")
    assert state.deck_size == 100  # 100 discards and the 2s, less the card drawn
    assert all(not state.discard_pile(s) for s in range(2))
    event = state.history[-1]
    assert event[0] == EV_RESHUFFLE and len(event[1]) == 101
    assert card("2s") in event[1]


def test_R5_4_reshuffles_follow_the_seed() -> None:
    import random

    a = new_game(GameConfig(players=2), seed=11)
    b = new_game(GameConfig(players=2), seed=11)
    a.playout(random.Random(2))
    b.playout(random.Random(2))
    assert [e for e in a.history if e[0] == EV_RESHUFFLE] == [e for e in b.history if e[0] == EV_RESHUFFLE]
