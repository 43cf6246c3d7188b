"""R5.5: a hand with no legal play; R7.2: the drawn game."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig, GameState, IllegalActionError, Termination, new_game
from sequence_game.actions import DISCARD, DRAW, EV_PASS, EV_RESHUFFLE
from sequence_game.board import PLAYABLE, cells_of
from sequence_game.cards import CARD_NAMES, FULL_DECK, is_jack
from sequence_game.records import replay, write_record
from sequence_game.testing import _check_state, position

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


# ---------------------------------------------------------------- the end of a stuck round (issue 20)


def full_board_stuck(
    players: int, hands: dict[int, list[str]], deck_size: int, draw: str = "auto"
) -> GameState:
    """Every playable space covered (split between the sides), so every non-jack card is dead; the
    ``deck_size`` top cards are dead cards too, and every other card lies on seat 0's discard pile."""
    config = GameConfig(players=players, draw=draw)  # type: ignore[arg-type]
    cells = cells_of(PLAYABLE)
    chips = {side: cells[side :: config.sides] for side in range(config.sides)}
    rest = Counter(FULL_DECK)
    rest.subtract(card(c) for h in hands.values() for c in h)
    deck = [c for c in sorted(rest.elements()) if not is_jack(c)][:deck_size]
    rest.subtract(deck)
    return position(config, chips, hands, deck=deck, discards={0: sorted(rest.elements())})


def test_R7_2_the_game_ends_with_the_stuck_rounds_last_discard_and_nobody_draws_after_it() -> None:
    # one card left to draw: seat 0 draws it after its discard; seat 1's discard ends the game
    # with an empty draw pile. The engine used to draw once more there, reshuffling after the end.
    state = full_board_stuck(2, {0: ["2s", "3s"], 1: ["4s", "5s"]}, deck_size=1)
    state.apply("discard 2s")
    assert state.deck_size == 0 and len(state.hand(0)) == 2
    piles = [state.discard_pile(s) for s in range(2)]
    state.apply("discard 4s")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.STUCK
    assert state.hand(1) == [card("5s")]  # no draw after the last discard
    assert state.deck_size == 0 and state.discard_pile(0) == piles[0]
    assert state.history[-1] == (1, DISCARD + card("4s"), card("4s"))
    assert not any(e[0] == EV_RESHUFFLE for e in state.history)
    assert state.seats_to_act() == [] and state.legal_actions() == []


def test_R7_2_in_manual_draw_mode_no_draw_is_owed_after_the_end() -> None:
    state = full_board_stuck(2, {0: ["2s", "3s"], 1: ["4s", "5s"]}, deck_size=1, draw="manual")
    state.apply("discard 2s")
    state.apply("discard 4s")
    assert state.is_terminal()
    assert not state.owes_draw(1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(DRAW, seat=1)
    assert err.value.rule == "R7.1"


def test_R7_2_a_seeded_stuck_game_with_an_empty_pile_ends_on_the_discard_and_its_record_replays() -> None:
    # Found by searching seeded random games: the last discard of the stuck round finds the draw
    # pile empty (the old engine reshuffled there, after the end, and wrote that into the record).
    state = new_game(GameConfig(players=6, teams=3), seed=1713)
    state.playout(random.Random(1713))
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.STUCK
    seat, action, _card = state.history[-1]
    assert seat >= 0 and DISCARD <= action < DRAW
    assert state.deck_size == 0
    record = write_record(state)
    assert "reshuffle" not in record["actions"][-1]
    result = replay(record)
    assert result.ok, result.error
    assert result.state.outcome() == outcome


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 6]),
    data=st.data(),
    draw=st.sampled_from(["auto", "manual"]),
)
def test_R7_2_property_a_stuck_round_ends_on_its_last_discard_with_nothing_drawn(
    players: int, data: st.DataObject, draw: str
) -> None:
    dead = [c for c in CARD_NAMES if not c.startswith("j")]
    hands: dict[int, list[str]] = {}
    for seat in range(players):
        low = 1 if seat == 0 else 0  # seat 0 is to play and must hold a card
        hands[seat] = data.draw(
            st.lists(st.sampled_from(dead), min_size=low, max_size=3), label=f"hand {seat}"
        )
    counts = Counter(c for h in hands.values() for c in h)
    if any(n > 2 for n in counts.values()):
        hands = {s: [] if s else [hands[0][0]] for s in hands}
    holding = sum(1 for h in hands.values() if h)
    # about one card per stuck discard, so the pile runs out near or at the round's last discard
    deck_size = data.draw(st.integers(min_value=0, max_value=holding + 1), label="deck")
    state = full_board_stuck(players, hands, deck_size, draw)
    for _ in range(4 * players):
        if state.is_terminal():
            break
        seat = state.current_seat
        discards = [a for a in state.legal_actions() if DISCARD <= a < DRAW]
        assert discards, "a stuck hand may always discard (R5.5)"
        action = data.draw(st.sampled_from(discards), label="discard")
        hand_before, deck_before = len(state.hand(seat)), state.deck_size
        history_before = len(state.history)
        state.apply(action)
        if state.is_terminal():
            assert state.history[history_before] == (seat, action, action - DISCARD)
            after = state.history[history_before + 1 :]
            passes = [i for i, e in enumerate(after) if e[0] == EV_PASS]
            if not passes:
                # the game ended with this discard: nothing drawn, nothing reshuffled after it
                assert after == []
                assert len(state.hand(seat)) == hand_before - 1
                assert state.deck_size == deck_before
            else:
                # empty hands passed after the discard's draw; the last pass ended the game
                assert all(e[0] == EV_PASS for e in after[passes[0] :])
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.STUCK
    assert state.seats_to_act() == []
    _check_state(state)
