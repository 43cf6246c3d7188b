"""The heuristic's numbers as a parameter array (``fast.heuristic.choose_params_with``) and the
compiled paired match that tunes them (``fast.tuning``).

A tuned array is only worth claiming if the Python ``HeuristicBot`` built with the same numbers
plays the same moves: so the scores are compared with ``score_plays`` under those options, on
positions of whole games, as well as the default array with today's kernels.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD
from sequence_game.bots.base import forced_action
from sequence_game.bots.evaluation import Board, Weights
from sequence_game.bots.heuristic import HeuristicBot, score_plays
from sequence_game.bots.specs import parse_bot_spec
from sequence_game.fast import heuristic as fh
from sequence_game.fast import kernels as k
from sequence_game.fast.compile import ensure_compiled
from sequence_game.fast.engine import FastGame
from sequence_game.fast.tuning import bot_options, bot_spec, paired_match, rounded

TUNED = rounded(
    fh.DEFAULT_PARAMS
    * np.array([1, 1.3, 0.7, 1.6, 0.8, 1.5, 1, 0.6, 1.4, 0.9, 1.7, 1, 0.5, 0.75, 1.8, 1.4, 1, 0.8, 2.5])
)
"""Every tuned number moved (reach now (1, 0.48, 0.5)), rounded as a bot spec writes them."""


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    ensure_compiled("heuristic", notice=None)


def positions(config: GameConfig, games: int, seed: int, bot_params: np.ndarray) -> Iterator[GameState]:
    """Every position of games between Python heuristic seats playing ``bot_params``."""
    options = bot_options(bot_params)
    weights = Weights(**options.pop("weights"))
    for i in range(games):
        state = new_game(config, seed=seed + i)
        bots = [HeuristicBot(seed=seed + s, weights=weights, **options) for s in range(config.players)]
        while not state.is_terminal():
            yield state
            state.apply(bots[state.current_seat].select_action(state.view(state.current_seat)))


def python_scores(state: GameState, params: np.ndarray, inference: bool) -> dict[int, float] | int:
    """``score_plays`` under the options ``params`` stands for, or the forced action."""
    view = state.view(state.current_seat)
    forced = forced_action(view)
    if forced is not None:
        return forced
    plays = [a for a in view.legal_actions if a < DEAD]
    options = bot_options(params)
    if not plays:
        return HeuristicBot(inference=False).select_action(view)
    scores = score_plays(
        view,
        Board.of_view(view),
        plays,
        Weights(**options["weights"]),
        options["jack_costs"],
        threat_weight=options["threat_weight"],
        reach=options["reach"],
        inference=inference,
    )
    return dict(zip(plays, scores, strict=True))


def same(python: dict[int, float] | int, compiled: dict[int, float] | int) -> bool:
    if isinstance(python, int) or isinstance(compiled, int):
        return python == compiled
    return python.keys() == compiled.keys() and all(abs(python[a] - compiled[a]) < 1e-6 for a in python)


@pytest.mark.parametrize("inference", [False, True], ids=["plain", "inferring"])
def test_the_default_array_scores_as_todays_kernels(inference: bool) -> None:
    """``DEFAULT_PARAMS`` is today's constants: every play scores exactly (same floats) as with
    ``score_full`` / ``score_inferring``, so ``choose`` and the playouts did not change."""
    checked = 0
    for config in (GameConfig(players=2), GameConfig(players=4)):
        game = FastGame.new(config, seed=5 + config.players)
        while not game.is_terminal():
            assert fh.heuristic_scores(game, inference=inference) == fh.heuristic_scores(
                game, inference=inference, params=fh.DEFAULT_PARAMS
            )
            game.apply(fh.heuristic_action(game, seed=int(game.row[k.I_TURN]), inference=inference))
            checked += 1
    assert checked > 60


@pytest.mark.parametrize("config", [GameConfig(players=2), GameConfig(players=4)], ids=["2p", "4p2t"])
@pytest.mark.parametrize("inference", [False, True], ids=["plain", "inferring"])
def test_other_numbers_score_as_the_python_bot_with_those_options(
    config: GameConfig, inference: bool
) -> None:
    """What a search tunes is what ``HeuristicBot(weights=..., jack_costs=..., ...)`` plays:
    every play of every position of its games scores the same in both."""
    checked = 0
    for state in positions(config, 1, seed=11 + config.players, bot_params=TUNED):
        game = FastGame.from_state(state, seed=1)
        python = python_scores(state, TUNED, inference)
        assert same(python, fh.heuristic_scores(game, inference=inference, params=TUNED)), state.turn
        checked += 1
    assert checked > 20


def test_a_bot_spec_builds_the_bot_with_those_numbers() -> None:
    spec = parse_bot_spec(bot_spec(TUNED))
    bot = spec.build(seed=1)
    assert isinstance(bot, HeuristicBot)
    options = bot_options(TUNED)
    assert bot.weights == Weights(**options["weights"])
    assert (bot.jack_costs, bot.threat_weight, bot.reach) == (
        options["jack_costs"],
        options["threat_weight"],
        options["reach"],
    )


def test_a_paired_match_between_equals_is_even() -> None:
    """The same numbers on both sides of every deal, from the same random state: each deal's two
    games mirror each other, so A wins exactly half."""
    result = paired_match(fh.DEFAULT_PARAMS, fh.DEFAULT_PARAMS, deals=20, seed=3)
    assert (result.games, result.wins, result.losses) == (40, 20, 20)
    assert result.score == 0.5


def test_a_paired_match_tells_a_better_policy() -> None:
    """Spending two-eyed jacks freely (cost 0) loses clearly to the default; repeats exactly."""
    careless = fh.DEFAULT_PARAMS.copy()
    careless[fh.P_TWO_EYED] = 0.0
    careless[fh.P_ONE_EYED] = 0.0
    result = paired_match(careless, fh.DEFAULT_PARAMS, deals=100, seed=1)
    assert result.games == 200 and result.score < 0.45
    assert paired_match(careless, fh.DEFAULT_PARAMS, deals=100, seed=1) == result
    lo, hi = result.wilson()
    assert lo < result.score < hi


def test_four_players_in_two_teams_and_three_sides() -> None:
    teams = paired_match(TUNED, fh.DEFAULT_PARAMS, deals=5, seed=2, config=GameConfig(players=4))
    assert teams.games == 10
    three = paired_match(TUNED, fh.DEFAULT_PARAMS, deals=5, seed=2, config=GameConfig(players=3))
    assert three.games == 15


@pytest.mark.parametrize("bad", [np.zeros(3), np.full(fh.NUM_PARAMS, np.nan)], ids=["short", "nan"])
def test_bad_parameter_arrays_are_refused(bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="heuristic parameter"):
        paired_match(bad, fh.DEFAULT_PARAMS, deals=1)
    with pytest.raises(ValueError, match="deal"):
        paired_match(fh.DEFAULT_PARAMS, fh.DEFAULT_PARAMS, deals=0)
