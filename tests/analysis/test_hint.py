"""Hints (``analysis.hint``): the expert's play where its search is ready, the tuned ranking's
where it is not, a forced action as it is, a win always; the evaluator says the play's chance
and why, from the seat's view alone."""

from __future__ import annotations

import random

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD, DRAW
from sequence_game.analysis import hint as hint_module
from sequence_game.analysis import winning_plays
from sequence_game.analysis.hint import hint, warm_search
from sequence_game.bots import available_bots
from sequence_game.bots.ranking import ranked_plays
from sequence_game.evaluator.advice import REASONS, advise
from sequence_game.evaluator.model import Evaluator

from ..bots.helpers import random_position


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on an installation without the compiled engine (the expert level falls back to ``mcts``)."""
    monkeypatch.setattr(hint_module, "level_bot", lambda level: "mcts")


@pytest.mark.parametrize("players", [2, 3])
def test_without_the_search_the_tuned_ranking_chooses_and_the_evaluator_explains(
    no_search: None, players: int
) -> None:
    judge = Evaluator.load()
    for seed in range(6):
        state = random_position(GameConfig(players=players), seed, 10 + 4 * seed)
        view = state.view(state.current_seat)
        plays = [a for a in view.legal_actions if a < DEAD]
        if state.is_terminal() or len(plays) < 2:
            continue
        got = hint(view, random.Random(seed), judge=judge)
        assert got.chosen_by == "ranking" and got.action == ranked_plays(view, plays)[0][0]
        explained = advise(view, random.Random(seed), judge, play=got.action)
        assert got.chance == pytest.approx(explained.chance) and got.reason in REASONS
        assert got.action not in [a for a, _ in got.alternatives] and len(got.alternatives) <= 3


@pytest.mark.skipif(
    "pimc" not in available_bots(), reason="the search needs the compiled engine (fast extra)"
)
def test_with_the_search_ready_the_expert_chooses() -> None:
    assert warm_search(wait=None)
    judge = Evaluator.load()
    state = random_position(GameConfig(players=2), 4, 14)
    view = state.view(state.current_seat)
    got = hint(view, random.Random(1), seconds=0.05, judge=judge)
    assert got.chosen_by == "expert" and got.action in view.legal_actions and 0.0 <= got.chance <= 1.0


@pytest.mark.parametrize("search", [False, True], ids=["ranking", "expert"])
def test_a_hint_takes_a_win_and_says_so(search: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if search and not warm_search(wait=None):
        pytest.skip("the search needs the compiled engine (fast extra)")
    if not search:
        monkeypatch.setattr(hint_module, "level_bot", lambda level: "mcts")
    judge = Evaluator.load()
    seen = 0
    for seed in range(80):
        rng = random.Random(seed)
        state = new_game(GameConfig(players=2), seed=seed)
        while not state.is_terminal() and not (wins := winning_plays(state.view(state.current_seat))):
            state.apply(state.random_action(rng))
        if state.is_terminal():
            continue
        got = hint(state.view(state.current_seat), rng, seconds=0.05, judge=judge)
        assert got.action in wins and got.reason == "wins" and got.chance == 1.0
        seen += 1
        if seen >= 4:
            break
    assert seen >= 4


def test_a_draw_owed_is_the_hint_without_a_search(no_search: None) -> None:
    state = new_game(GameConfig(players=2, draw="manual"), seed=2)
    mover = state.current_seat
    state.apply(next(a for a in state.legal_actions() if a < DEAD))
    view = state.view(mover)  # R5.3: the seat that played owes its draw
    assert DRAW in view.legal_actions
    got = hint(view, random.Random(0))
    assert got.action == DRAW and got.chosen_by == "forced"


def test_a_play_not_allowed_now_is_refused_with_the_rule() -> None:
    state = new_game(GameConfig(players=2), seed=1)
    view = state.view(state.current_seat)
    illegal = next(a for a in range(100) if a not in view.legal_actions)
    with pytest.raises(ValueError, match=r"R4\.3"):
        advise(view, random.Random(0), play=illegal)
