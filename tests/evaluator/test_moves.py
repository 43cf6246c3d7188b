"""A play's chance (``evaluator.moves``): the network's chance after it, its draw averaged, and at
2 players less the cost of a spent jack that rollouts with the true hands show the network misses."""

from __future__ import annotations

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD, REMOVE, WILD
from sequence_game.bots import make_bot
from sequence_game.cards import JC, JH
from sequence_game.evaluator.model import Evaluator
from sequence_game.evaluator.moves import JACK_COSTS, Batch, jack_cost, judge_plays, over_draws
from sequence_game.state import GameState


def _mid_game(players: int, seed: int = 4) -> GameState:
    state = new_game(GameConfig(players=players), seed=seed)
    bots = [make_bot("hard", seed=s) for s in range(players)]
    for _ in range(4 * players):
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    return state


def _with_jacks(state: GameState) -> GameState:
    """The seat to move holds a two-eyed and a one-eyed jack (R1.3), in place of two cards."""
    seat = state.current_seat
    hand = state._hands[seat]
    for i, jack in enumerate((JC, JH)):
        if jack not in hand and jack in state._deck:
            state._deck[state._deck.index(jack)] = hand[i]
            hand[i] = jack
    return state


def test_jack_costs_apply_to_jack_plays_at_the_tables_measured() -> None:
    two_eyed, one_eyed = JACK_COSTS[2]
    assert 0 < one_eyed < two_eyed < 0.1
    assert jack_cost(WILD + 5, 2) == two_eyed and jack_cost(REMOVE + 5, 2) == one_eyed
    assert jack_cost(5, 2) == 0.0 and jack_cost(DEAD + 3, 2) == 0.0
    assert jack_cost(WILD + 5, 3) == 0.0  # not measured at 3 players: no cost


@pytest.mark.parametrize("players", [2, 3])
def test_a_jack_plays_chance_is_the_networks_less_its_cost(players: int) -> None:
    state = _with_jacks(_mid_game(players))
    seat = state.current_seat
    judge = Evaluator.load()
    judged = judge_plays(judge, state, seat)
    kinds = {WILD <= p.action < REMOVE for p, _ in judged} | {REMOVE <= p.action < DEAD for p, _ in judged}
    assert kinds == {True, False}  # natural cards and both kinds of jack among the plays
    for play, chance in judged:
        batch = Batch()
        group = over_draws(batch, play)
        raw = batch.solve(judge)[group]
        expected = raw if play.exact is not None else max(0.0, raw - jack_cost(play.action, players))
        assert chance == pytest.approx(expected, abs=1e-6)  # float32 sums differ by batch
