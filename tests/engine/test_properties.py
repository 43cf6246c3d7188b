"""Properties over random games of every configuration (hypothesis)."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig, IllegalActionError, new_game
from sequence_game.actions import NUM_ACTIONS
from sequence_game.config import TEAM_OPTIONS
from sequence_game.records import replay, write_record
from sequence_game.testing import check_api

CONFIGS = [
    GameConfig(players=p, teams=t, draw=d)
    for p, options in TEAM_OPTIONS.items()
    for t in options
    for d in ("auto", "manual")
]
configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_position(config: GameConfig, seed: int, turns: int):  # type: ignore[no-untyped-def]
    """A state some random actions into a game."""
    rng = random.Random(seed)
    state = new_game(config, rng=rng)
    for _ in range(turns):
        if state.is_terminal():
            break
        seats = state.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


@SETTINGS
@given(configs, seeds)
def test_invariants_hold_through_random_games(config: GameConfig, seed: int) -> None:
    """Cards conserved, chips only on open non-corner spaces, locked chips stay, sequences share
    at most one space, legal actions ascending and never empty, illegal actions refused."""
    assert check_api(config, games=1, seed=seed, max_turns=300) > 0


@SETTINGS
@given(configs, seeds, st.integers(0, 200))
def test_every_legal_action_applies_and_every_other_is_refused(
    config: GameConfig, seed: int, turns: int
) -> None:
    state = random_position(config, seed, turns)
    for seat in range(config.players):
        legal = set(state.legal_actions(seat))
        for action in range(NUM_ACTIONS):
            trial = state.copy()
            if action in legal:
                trial.apply(action, seat)
            else:
                try:
                    trial.apply(action, seat)
                except IllegalActionError:
                    continue
                raise AssertionError(f"illegal action {action} for seat {seat} was accepted")


@SETTINGS
@given(configs, seeds, st.integers(0, 200), st.data())
def test_a_view_never_depends_on_another_hand(
    config: GameConfig, seed: int, turns: int, data: st.DataObject
) -> None:
    """Swap a hidden card of another hand with one from the draw pile: the view is unchanged."""
    state = random_position(config, seed, turns)
    seat = data.draw(st.integers(0, config.players - 1))
    other = (seat + data.draw(st.integers(1, config.players - 1))) % config.players
    before = state.view(seat)
    hand = state._hands[other]
    deck = state._deck
    if hand and deck:
        i = data.draw(st.integers(0, len(hand) - 1))
        j = data.draw(st.integers(0, len(deck) - 1))
        hand[i], deck[j] = deck[j], hand[i]
        # a swap may change what that other seat can do, never what this seat sees
        after = state.view(seat)
        assert after == before
    assert sorted(before.hand) == state.hand(seat)
    assert sum(before.hand_sizes) == sum(len(h) for h in state._hands)


@SETTINGS
@given(configs, seeds)
def test_a_written_record_replays_to_the_same_state(config: GameConfig, seed: int) -> None:
    state = random_position(config, seed, 400)
    result = replay(json.dumps(write_record(state)))
    assert result.ok
    assert result.state.history == state.history
    assert [result.state.view(s) for s in range(config.players)] == [
        state.view(s) for s in range(config.players)
    ]


@SETTINGS
@given(st.sampled_from([c for c in CONFIGS if c.draw == "auto"]), seeds)
def test_fast_playout_plays_only_legal_actions(config: GameConfig, seed: int) -> None:
    """The inlined playout writes a history that the validating replay accepts."""
    state = new_game(config, seed=seed)
    state.playout(random.Random(seed))
    assert state.is_terminal() or state.turn >= 0
    result = replay(write_record(state))
    assert result.ok
    assert result.state.outcome() == state.outcome()
