"""The OpenSpiel Python game (``sequence_game.env.openspiel_game``): OpenSpiel's own consistency
checks, what the tensors hide, the returns, the chance nodes and ISMCTS playing it."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts

from sequence_game.actions import action_name_for
from sequence_game.cards import DECK_SIZE, FULL_DECK
from sequence_game.env import openspiel_game
from sequence_game.env.openspiel_game import RolloutEvaluator, resampler


def load(players: int, teams: int = 0, **more: Any) -> Any:
    return pyspiel.load_game(openspiel_game.GAME_NAME, {"players": players, "teams": teams, **more})


def chance_step(state: Any, rng: random.Random) -> None:
    cards, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(cards, probs)[0])


def play_random(state: Any, rng: random.Random, decisions: int | None = None) -> Any:
    """Random legal play (chance by its odds) to the end, or until ``decisions`` were made and a
    seat is to act."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        elif decisions is not None and made >= decisions:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    return state


@pytest.mark.parametrize(
    ("players", "teams", "sims"), [(2, 0, 3), (3, 0, 2), (4, 2, 2), (6, 2, 1), (6, 3, 1)]
)
def test_openspiel_random_sim_test(players: int, teams: int, sims: int) -> None:
    """OpenSpiel's checks: legal actions, clones, serialisation, observations, returns, lengths."""
    game = load(players, teams)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_game_type_parameters_and_refusals() -> None:
    game = load(6, 3)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.utility_sum() is None
    assert load(4).get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load(4).utility_sum() == 0.0
    assert game.num_distinct_actions() == 405
    assert game.max_chance_outcomes() == 52
    assert game.information_state_tensor_shape() == [10, 10, 24]
    assert game.observation_tensor_shape() == [10, 10, 24]
    assert load(2, max_turns=50).max_game_length() == 100
    assert pyspiel.load_game("python_sequence(players=12,teams=3)").num_players() == 12
    for bad in ({"draw": "manual"}, {"players": 5}, {"players": 4, "teams": 3}):
        with pytest.raises(Exception, match=r"R5\.3|R2\.1|R2\.2"):
            pyspiel.load_game(openspiel_game.GAME_NAME, bad)


def test_the_deal_and_the_draws_are_chance_nodes_uniform_over_the_cards_left() -> None:
    rng = random.Random(5)
    state = load(12, 3).new_initial_state()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(52))
    assert all(p == pytest.approx(2 / DECK_SIZE) for _, p in outcomes)
    dealt: list[int] = []
    while state.game_state is None:  # 36 cards dealt one by one (R4.2)
        left = Counter(FULL_DECK)
        left.subtract(dealt)
        assert dict(state.chance_outcomes()) == pytest.approx(
            {c: k / left.total() for c, k in left.items() if k}
        )
        dealt.append(state.chance_outcomes()[rng.randrange(len(state.chance_outcomes()))][0])
        state.apply_action(dealt[-1])
    assert sum(len(state.game_state.hand(s)) for s in range(12)) == 36
    draws = reshuffled = 0
    while not state.is_terminal():
        if state.is_chance_node():
            engine = state.game_state
            pile = Counter(engine._deck)
            assert dict(state.chance_outcomes()) == pytest.approx(
                {c: k / pile.total() for c, k in pile.items()}
            )
            draws += 1
            reshuffled += engine._reshuffles > 0
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert draws > 68 and reshuffled > 0  # the pile of 68 ran out and the discards came back (R5.4)


def test_the_information_state_tensor_leaks_no_hidden_card() -> None:
    rng = random.Random(2)
    for players in (2, 4):
        state = play_random(load(players).new_initial_state(), rng, decisions=12)
        viewer = state.current_player()
        other = (viewer + 1) % players
        swapped = state.clone()
        engine = swapped.game_state
        hand, deck = engine._hands[other], engine._deck
        new = next(c for c in deck if c not in hand)
        hand[0], deck[deck.index(new)] = new, hand[0]  # another card in the other hand
        assert state.game_state.hand(other) != swapped.game_state.hand(other)
        assert state.information_state_tensor(viewer) == swapped.information_state_tensor(viewer)
        assert state.observation_tensor(viewer) == swapped.observation_tensor(viewer)
        assert state.observation_string(viewer) == swapped.observation_string(viewer)
        assert state.information_state_string(viewer) == swapped.information_state_string(viewer)
        assert state.information_state_tensor(other) != swapped.information_state_tensor(other)
        # and a resampled world: the viewer cannot tell it from the true one
        world = state.resample_from_infostate(viewer, random.Random(1).random)
        assert world.information_state_string(viewer) == state.information_state_string(viewer)
        assert world.information_state_tensor(viewer) == state.information_state_tensor(viewer)
        assert world.legal_actions() == state.legal_actions()
        for seat in range(players):  # every seat's log still adds up to its hand
            got = Counter(c for s, a, c in world._t.log if s == seat and a < 0)
            played = Counter(c for s, a, c in world._t.log if s == seat and a >= 0)
            assert not played - got
            assert got - played == Counter(world.game_state.hand(seat))


def test_the_information_state_string_is_the_history_as_the_seat_saw_it() -> None:
    state = play_random(load(2).new_initial_state(), random.Random(4), decisions=3)
    mine = state.information_state_string(0)
    assert mine.startswith("seat 0 0+") and " 1+? " in mine
    assert state.information_state_string(1).startswith("seat 1 0+? 1+")
    later = play_random(state.clone(), random.Random(4), decisions=80)
    public = [[t for t in later.information_state_string(p).split() if ":" in t] for p in (0, 1)]
    plays = [e for e in later.game_state.history if e[0] >= 0]  # (seat, action, card) per action
    names = [f"{e[0]}:{action_name_for(e[1], (e[2],)).replace(' ', '-')}" for e in plays]
    assert public[0] == public[1] == names  # every play public, jacks named by the suit played
    replay = load(2).new_initial_state()  # apply_action is deterministic given the chance outcomes
    for action in state.history():
        replay.apply_action(action)
    assert str(replay) == str(state)
    assert replay.information_state_string(0) == mine


@pytest.mark.parametrize(("players", "teams"), [(2, 0), (3, 0), (4, 2), (6, 3)])
def test_returns_are_the_rules(players: int, teams: int) -> None:
    game = load(players, teams)
    rng = random.Random(players)
    for _ in range(3):
        state = play_random(game.new_initial_state(), rng)
        engine = state.game_state
        returns = state.returns()
        assert returns == engine.returns()
        outcome = engine.outcome()
        assert outcome is not None
        sides = engine.config.sides
        if outcome.winner is None:
            assert returns == [0.0] * players  # R7.2
        else:
            assert returns == [1.0 if s % sides == outcome.winner else -1.0 for s in range(players)]
            size = players // sides  # team mates share (R2.4)
            assert sum(returns) == (0.0 if sides == 2 else size - 2 * size)


def test_cut_off_at_max_turns_is_a_draw() -> None:
    state = play_random(load(2, max_turns=6).new_initial_state(), random.Random(0))
    assert state.game_state.turn == 6 and not state.game_state.is_terminal()
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_finishes_a_game(players: int) -> None:
    game = load(players)
    bot = ismcts.ISMCTSBot(game, RolloutEvaluator(1, seed=0), 2.0, 4, random_state=np.random.RandomState(0))
    bot.set_resampler(resampler(0))
    state, rng = game.new_initial_state(), random.Random(players)
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(bot.step(state))
    assert state.game_state.is_terminal() or state.game_state.turn >= 1000
    assert len(state.returns()) == players


def test_ismcts_with_openspiels_own_evaluator_and_sampler() -> None:
    game = load(2)
    state = play_random(game.new_initial_state(), random.Random(9), decisions=0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 3)
    assert bot.step(state) in state.legal_actions()


def test_importing_the_environments_does_not_import_openspiel() -> None:
    code = "import sys, sequence_game.env; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
