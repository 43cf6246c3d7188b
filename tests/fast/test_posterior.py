"""How well a guessed hand explains a play: the compiled scoring of ``fast.posterior`` and the rows of
past positions that ``bots.posterior.past_row`` rebuilds from a view's history."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD
from sequence_game.board import LAYOUT, parse_cell
from sequence_game.bots import make_bot
from sequence_game.bots.posterior import last_plays, past_row
from sequence_game.cards import NUM_CARDS, ONE_EYED, TWO_EYED, parse_card
from sequence_game.fast import heuristic as fh
from sequence_game.fast.engine import FastGame
from sequence_game.fast.posterior import IMPOSSIBLE, play_regrets
from sequence_game.testing import position


def _played_hands(opponent: str, games: int, seed: int) -> list[tuple[GameState, int, tuple[int, ...]]]:
    """(the position after, the history index, the hand it was made with) of every R5.2 play of seat
    1 (``opponent``) against ``heuristic``, seen from seat 0 at its next turn."""
    out = []
    for g in range(games):
        state = new_game(GameConfig(players=2), seed=seed + g)
        bots = [make_bot("heuristic", seed=g), make_bot(opponent, seed=g + 50)]
        held: dict[int, tuple[int, ...]] = {}
        while not state.is_terminal():
            seat = state.current_seat
            view = state.view(seat)
            if seat == 0:
                seen = [i for i in last_plays(view).values() if i in held]
                out.extend((state.copy(), i, held.pop(i)) for i in seen)
            action = bots[seat].select_action(view)
            if seat == 1 and action < DEAD:
                held[len(state.history)] = tuple(state.hand(1))
            state.apply(action, seat)
    return out


@pytest.mark.parametrize(("opponent", "policy"), [("heuristic", fh.INFERRING), ("greedy", fh.GREEDY)])
def test_the_hand_a_play_was_made_with_explains_it_exactly(opponent: str, policy: int) -> None:
    """Rebuilt from the public history, the position before each play, with the hand the player
    really held, makes that play its style's choice: regret 0 (the Python bots and the compiled
    scoring agree on these positions)."""
    seen = _played_hands(opponent, games=2, seed=100)
    assert len(seen) > 20
    for state, i, hand in seen:
        view = state.view(0)
        regret = play_regrets(
            past_row(view, i), np.array([sorted(hand)], dtype=np.int32), 1, view.history[i][1], policy=policy
        )
        assert regret[0] == 0.0


def test_a_greedy_play_is_seldom_the_heuristics_and_the_reverse() -> None:
    """The two styles tell each other apart on the true hands: the heuristic's scoring explains some
    greedy plays, the greedy scoring few of the heuristic's."""
    greedy = _played_hands("greedy", games=2, seed=300)
    heuristic = _played_hands("heuristic", games=2, seed=300)

    def explained(seen: list[tuple[GameState, int, tuple[int, ...]]], policy: int) -> float:
        hits = 0
        for state, i, hand in seen:
            view = state.view(0)
            hands = np.array([sorted(hand)], dtype=np.int32)
            hits += play_regrets(past_row(view, i), hands, 1, view.history[i][1], policy=policy)[0] == 0.0
        return hits / len(seen)

    assert explained(heuristic, fh.GREEDY) < 0.5
    assert explained(greedy, fh.INFERRING) < 0.95


def test_R5_1_a_hand_that_would_have_exchanged_a_dead_card_is_impossible() -> None:
    """Both spaces of 2s hold chips: a hand holding it would have exchanged it before playing."""
    dead = parse_card("2s")
    cells = [c for c in range(100) if LAYOUT[c] == dead]
    state = position(GameConfig(players=2), {1: cells}, {0: ["3h", "4h"], 1: ["5h"]})
    game = FastGame.from_state(state)
    seat = game.current_seat
    play = next(a for a in game.legal_actions() if a < 100)
    card = LAYOUT[play]
    live = play_regrets(game.row, np.array([[card, card]], dtype=np.int32), seat, play)
    with_dead = play_regrets(game.row, np.array([[card, dead]], dtype=np.int32), seat, play)
    assert live[0] == 0.0
    assert with_dead[0] == IMPOSSIBLE


def test_a_hand_without_the_card_played_cannot_explain_the_play() -> None:
    state = new_game(GameConfig(players=2), seed=5)
    game = FastGame.from_state(state)
    seat = game.current_seat
    hand = game.hand(seat)
    play = next(a for a in game.legal_actions() if a < 100)
    jacks = TWO_EYED | ONE_EYED
    others = [c for c in range(NUM_CARDS) if c != LAYOUT[play] and c not in jacks][: len(hand)]
    regret = play_regrets(game.row, np.array([others], dtype=np.int32), seat, play)
    assert regret[0] == IMPOSSIBLE


def test_bad_arguments_are_refused() -> None:
    game = FastGame.new(GameConfig(players=2), seed=1)
    hands = np.array([game.hand(game.current_seat)], dtype=np.int32)
    with pytest.raises(ValueError, match=r"R5\.2"):
        play_regrets(game.row, hands, game.current_seat, 352)
    with pytest.raises(ValueError, match="scoring policy"):
        play_regrets(game.row, hands, game.current_seat, parse_cell("e4"), policy=9)
    with pytest.raises(ValueError, match="shape"):
        play_regrets(game.row, np.zeros((1, 9), dtype=np.int32), game.current_seat, parse_cell("e4"))
