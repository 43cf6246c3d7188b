"""The compiled engine against the pure one (the reference): same states, legal actions, outcomes."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sequence_game import ConfigError, GameConfig, IllegalActionError, Termination, new_game
from sequence_game.cards import FULL_DECK
from sequence_game.fast.differential import CONFIGS, _fast_snapshot, _pure_snapshot, play_lockstep
from sequence_game.fast.engine import FastGame


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p{c.sides}s")
def test_lockstep_sample_every_table(config: GameConfig) -> None:
    # R2.1/R2.2: every table; the whole state is compared after every action
    for seed in range(3):
        result = play_lockstep(config, seed)
        assert result.outcome is not None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**40),
    fast_choices=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_lockstep_property(table: GameConfig, seed: int, fast_choices: float) -> None:
    result = play_lockstep(table, seed, fast_choices=fast_choices)
    assert result.actions > 0


def test_lockstep_reaches_the_rare_rules() -> None:
    # dead cards (R5.1), reshuffles (R5.4), stuck hands and drawn games (R5.5, R7.2) all occur
    totals = {"dead": 0, "reshuffles": 0, "stuck": 0, "drawn": 0}
    for seed in range(40):
        result = play_lockstep(GameConfig(players=12, teams=3), seed)
        totals["dead"] += result.dead_exchanges
        totals["reshuffles"] += result.reshuffles
        totals["stuck"] += result.stuck_discards
        assert result.outcome is not None
        totals["drawn"] += result.outcome.termination is Termination.STUCK
    assert all(v > 0 for v in totals.values()), totals


@pytest.mark.parametrize("players,teams", [(2, 2), (6, 3), (12, 2)])
def test_from_state_gives_the_same_position(players: int, teams: int) -> None:
    rng = random.Random(players)
    for seed in range(6):
        state = new_game(GameConfig(players=players, teams=teams), seed=seed)
        state.playout(rng, max_turns=rng.choice([0, 7, 30, 70, 150]))
        game = FastGame.from_state(state, seed)
        assert _fast_snapshot(game) == _pure_snapshot(state)


def test_playout_from_a_converted_state_ends_legally() -> None:
    state = new_game(GameConfig(players=3), seed=5)
    state.playout(random.Random(1), max_turns=20)
    game = FastGame.from_state(state, 9)
    outcome = game.playout()
    assert outcome is not None and game.is_terminal() and game.legal_actions() == []
    assert (outcome.winner is None) == (outcome.termination is Termination.STUCK)


def test_copy_is_independent() -> None:
    game = FastGame.new(GameConfig(players=2), seed=1)
    other = game.copy()
    other.playout()
    assert game.turn == 0 and other.is_terminal()


def test_manual_draw_is_refused_with_the_rule() -> None:
    with pytest.raises(ConfigError, match=r"R5\.3: the fast engine plays auto-draw games only"):
        FastGame.new(GameConfig(players=2, draw="manual"), seed=1)


def test_table_talk_is_refused_with_the_rule() -> None:
    game = FastGame.new(GameConfig(players=4), seed=1)
    with pytest.raises(IllegalActionError, match=r"R6\.1"):
        game.call_table_talk(0)
    state = new_game(GameConfig(players=4), seed=1)
    state.call_table_talk(0)
    with pytest.raises(IllegalActionError, match=r"R6\.1"):
        FastGame.from_state(state)


def test_illegal_actions_name_a_rule_and_change_nothing() -> None:
    game = FastGame.new(GameConfig(players=2), seed=3)
    before = _fast_snapshot(game)
    illegal = next(a for a in range(300) if a not in game.legal_actions())
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        game.apply(illegal)
    with pytest.raises(IllegalActionError, match=r"R5\.3"):
        game.apply(404)
    with pytest.raises(IllegalActionError, match=r"R5\.2: not an action id"):
        game.apply(-1)
    assert _fast_snapshot(game) == before
    game.playout()
    with pytest.raises(IllegalActionError, match=r"R7\.1"):
        game.apply(0)


def test_a_bad_deck_or_dealer_is_refused() -> None:
    with pytest.raises(ValueError, match=r"R1\.2"):
        FastGame(GameConfig(players=2), [*list(FULL_DECK[:-1]), 0], 0)
    with pytest.raises(ValueError, match=r"R4\.1"):
        FastGame(GameConfig(players=2), list(FULL_DECK), 2)


def test_random_play_is_reproducible_from_the_seed() -> None:
    a, b = FastGame.new(GameConfig(players=6), seed=11), FastGame.new(GameConfig(players=6), seed=11)
    assert a.playout() == b.playout() and a.turn == b.turn
