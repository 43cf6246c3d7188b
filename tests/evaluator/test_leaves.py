"""Cut rollouts judged by the evaluator (sequence_game.evaluator.leaves, ``pimc(leaf=N)``)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

from sequence_game import GameConfig, new_game
from sequence_game.bots import Limit, PimcBot, make_bot
from sequence_game.evaluator.leaves import RowView, leaf_values, logged_since, python_leaf_values
from sequence_game.evaluator.model import Evaluator
from sequence_game.fast import kernels as k
from sequence_game.fast.leaf_features import row_features
from sequence_game.fast.pimc import (
    HEURISTIC,
    INFERRING,
    NO_HORIZON,
    RANDOM,
    candidate_values,
    cut_rollouts,
    world_rows,
)
from sequence_game.features.position import features, history_marks, view_parts

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


TABLES = [(2, None), (3, None), (4, 2), (6, 2), (6, 3), (8, 2), (9, None), (10, 2), (12, 3)]


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_the_compiled_features_of_a_row_are_the_views_bit_for_bit(players: int, teams: int | None) -> None:
    """The compiled reading of rows (``fast.leaf_features``) against the Python one (a view of the
    row, then ``view_parts`` and ``features``) at every kind of table, after cut rollouts of 1 to
    40 turns from positions along a game: every number equal."""
    config = GameConfig(players=players, teams=teams)
    checked = 0
    for seed in range(5):
        state = random_position(config, seed, 4 + 9 * seed)
        if state.is_terminal() or any(state.penalty_due):
            continue
        seat = state.current_seat
        view = state.view(seat)
        plays = [a for a in state.legal_actions() if a < 300][:4]
        rows = world_rows([state] * 2)
        marks = history_marks(view.history, config.sides)
        for turns in (1, 3, 8, 40):
            policy = INFERRING if (seed + turns) % 2 else RANDOM
            ends = cut_rollouts(rows, [seed, seed + 7], plays, view.side, turns, policy=policy)
            got = row_features(ends, rows, seat, marks)
            for c in range(len(plays)):
                for w in range(2):
                    row = ends[c, w]
                    if row[k.I_END] != k.END_NONE:
                        assert not got[c, w].any()
                        continue
                    history = (*view.history, *logged_since(row, int(rows[w, k.I_LOGGED])))
                    want = features([view_parts(RowView(config, seat, row, history), marks)])[0]
                    assert got[c, w].tolist() == want.tolist(), (seed, turns, c, w)
                    checked += 1
        values = leaf_values(Evaluator.load(), view, rows, ends)
        reference = python_leaf_values(Evaluator.load(), view, rows, ends)
        assert np.allclose(values, reference, rtol=0, atol=1e-5)  # the same features, batched otherwise
    assert checked > 40


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


def test_leaf_rollouts_judges_cut_rollouts_only_where_the_budget_is_small() -> None:
    """``leaf_rollouts=N``: leaves where the move buys fewer than N full rollouts, full rollouts
    elsewhere, each then exactly the search without the other (same worlds, same streams). The
    expert judges leaves below 2,000 rollouts a move (about 0.1 s) and searches as before at 1 s."""
    from sequence_game.bots import EXPERT

    assert "leaf=6, leaf_rollouts=2000, leaf_players=2" in EXPERT
    state = random_position(GameConfig(players=2), 5, 14)
    view = state.view(state.current_seat)

    def search(spec: str, limit: Limit) -> tuple[int, bool, int]:
        bot = make_bot(spec, seed=3)
        assert isinstance(bot, PimcBot)
        return bot.select_action(view, limit), bot.last_leaves, bot.last_simulations

    small, large = Limit(simulations=80), Limit(simulations=200)
    switching = "pimc(width=4, leaf=4, leaf_rollouts=100)"
    assert search(switching, small) == search("pimc(width=4, leaf=4)", small)
    assert search(switching, small)[1:] == (True, 80)
    assert search(switching, large) == search("pimc(width=4)", large)
    assert search(switching, large)[1:] == (False, 200)
    # a clock: the first batch's full rollouts measure the rate, then the search judges leaves
    assert search("pimc(width=4, leaf=4, leaf_rollouts=1000000000)", Limit(seconds=0.05))[1]
    assert not search("pimc(width=4, leaf=4, leaf_rollouts=1)", Limit(seconds=0.05))[1]
    with pytest.raises(ValueError, match="needs leaf"):
        make_bot("pimc(leaf_rollouts=100)")


def test_leaf_players_keeps_full_rollouts_at_larger_tables() -> None:
    """``leaf_players=2``: the leaves at a 2-player table only; at 3 players the search is exactly
    the one without them."""
    for players, leaves in ((2, True), (3, False)):
        state = random_position(GameConfig(players=players), 5, 14)
        view = state.view(state.current_seat)
        bot = make_bot("pimc(width=4, leaf=4, leaf_players=2)", seed=3)
        plain = make_bot("pimc(width=4)" if players == 3 else "pimc(width=4, leaf=4)", seed=3)
        assert isinstance(bot, PimcBot) and isinstance(plain, PimcBot)
        assert bot.select_action(view, Limit(simulations=80)) == plain.select_action(
            view, Limit(simulations=80)
        )
        assert bot.last_leaves is leaves
    with pytest.raises(ValueError, match="leaf_players"):
        make_bot("pimc(leaf=4, leaf_players=1)")
