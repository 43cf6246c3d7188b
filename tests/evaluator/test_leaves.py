"""Cut rollouts judged by the evaluator (sequence_game.evaluator.leaves, ``pimc(leaf=N)``)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.bots import Limit, PimcBot, make_bot
from sequence_game.evaluator.leaves import RowView, leaf_values
from sequence_game.evaluator.model import Evaluator
from sequence_game.fast import kernels as k
from sequence_game.fast.pimc import (
    HEURISTIC,
    INFERRING,
    NO_HORIZON,
    RANDOM,
    candidate_values,
    cut_rollouts,
    world_rows,
)
from sequence_game.features.position import view_parts

from ..bots.helpers import random_position


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_view_read_from_a_row_is_the_engines_view(players: int) -> None:
    """One turn (the candidate's own) leaves the row where the pure engine stands after the same
    play: the seat's view read from the row gives the evaluator the very same numbers."""
    config = GameConfig(players=players, teams=2 if players == 4 else None)
    for seed in range(6):
        state = random_position(config, seed, 8 + 3 * seed)
        if state.is_terminal():
            continue
        seat = state.current_seat
        view = state.view(seat)
        plays = [a for a in state.legal_actions() if a < 100][:3]
        ends = cut_rollouts(world_rows([state]), [seed], plays, view.side, turns=1, policy=RANDOM)
        for c, play in enumerate(plays):
            after = state.copy()
            after.apply(play, seat)  # the draw that follows is the pile's top card in both engines
            history = after.view(seat).history
            got = view_parts(RowView(config, seat, ends[c, 0], history))
            assert got == view_parts(after.view(seat)), (seed, play)


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC, INFERRING])
def test_a_cut_rollout_is_the_full_rollout_stopped_early(policy: int) -> None:
    """The same world and random stream: cut after as many turns as the game lasts, the rollout
    ends where :func:`candidate_values`' does, and its leaf value is that rollout's result."""
    state = new_game(GameConfig(players=2), seed=12)
    view = state.view(state.current_seat)
    plays = [a for a in state.legal_actions() if a < 100][:3]
    rows = world_rows([state] * 3)
    seeds = [4, 5, 6]
    full = candidate_values(rows, seeds, plays, view.side, policy)
    ends = cut_rollouts(rows, seeds, plays, view.side, NO_HORIZON, policy)
    assert leaf_values(Evaluator.load(), view, rows, ends).tolist() == full.tolist()
    short = cut_rollouts(rows, seeds, plays, view.side, 4, policy)
    assert short.shape == (3, 3, k.ROW)
    assert (short[:, :, k.I_TURN] == state.turn + 4).all()  # the opening: no game ends that soon


def test_leaf_values_are_chances_on_the_rollouts_scale() -> None:
    state = random_position(GameConfig(players=2), 3, 20)
    view = state.view(state.current_seat)
    plays = [a for a in state.legal_actions() if a < 100][:4]
    rows = world_rows([state] * 5)
    ends = cut_rollouts(rows, [1, 2, 3, 4, 5], plays, view.side, 2, HEURISTIC)
    values = leaf_values(Evaluator.load(), view, rows, ends)
    assert values.shape == (4, 5)
    assert ((values >= -1) & (values <= 1)).all()
    assert len(np.unique(values)) > 2  # judged positions, not only results


def test_cut_rollouts_refuse_bad_arguments() -> None:
    state = new_game(GameConfig(players=2), seed=1)
    rows = world_rows([state])
    play = next(a for a in state.legal_actions() if a < 100)
    with pytest.raises(ValueError, match="at least the candidate's own turn"):
        cut_rollouts(rows, [1], [play], 0, turns=0)
    with pytest.raises(ValueError, match="seeds"):
        cut_rollouts(rows, [1, 2], [play], 0, turns=2)
    with pytest.raises(ValueError, match="policies"):
        cut_rollouts(rows, [1], [play], 0, turns=2, policy=RANDOM, others=HEURISTIC)


def test_the_pimc_bot_searches_on_leaf_values() -> None:
    state = random_position(GameConfig(players=2), 5, 14)
    view = state.view(state.current_seat)
    bot = make_bot("pimc(leaf=4, width=4)", seed=3)
    assert isinstance(bot, PimcBot)
    action = bot.select_action(view, Limit(simulations=80))
    assert action in view.legal_actions
    assert bot.last_simulations == 80
    with pytest.raises(ValueError, match="leaf"):
        make_bot("pimc(leaf=-1)")
    with pytest.raises(ValueError, match="one or the other"):
        make_bot("pimc(leaf=2, lookahead=2)")
