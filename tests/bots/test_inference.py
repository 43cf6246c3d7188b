"""What the other seats' plays show about their hands (``bots.inference``), and its use by the
heuristic's odds and the search's sampled worlds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sequence_game import GameConfig, GameState, new_game
from sequence_game.board import LAYOUT
from sequence_game.bots import make_bot
from sequence_game.bots.determinize import Determinizer
from sequence_game.bots.evaluation import Board, threats
from sequence_game.bots.heuristic import Odds
from sequence_game.bots.inference import infer_hands
from sequence_game.cards import JC, JD
from sequence_game.testing import position

FOUR = [51, 52, 53, 54]  # row 5, columns 1-4: seat 1's side's open four
MISSING = {LAYOUT[50], LAYOUT[55]}  # the spaces at both ends: two fours
ELSEWHERE = {0: [12, 37, 76, 88, 18], 2: [63, 24, 81, 46, 29]}  # scattered: no line grows far


def four_left_open(players: int) -> GameState:
    """Seat 1 builds a four on row 5 by real plays and then plays elsewhere, leaving the fifth
    space open at both ends; every other seat plays scattered cards."""
    hands = {s: [LAYOUT[c] for c in ELSEWHERE[s]] for s in range(players) if s != 1}
    hands[1] = [LAYOUT[c] for c in FOUR] + [LAYOUT[77], LAYOUT[22]]
    state = position(GameConfig(players=players), {}, hands)
    plays = {s: list(ELSEWHERE[s]) for s in hands if s != 1}
    plays[1] = [*FOUR, 77]
    for _ in range(5):
        for seat in range(players):
            state.apply(plays[seat].pop(0), seat)
    return state


def test_a_four_left_open_shows_its_card_was_not_held() -> None:
    state = four_left_open(2)
    assert set(threats(Board.of_state(state), 1)) == {50, 55}
    known = infer_hands(state.view(0))
    assert set(known) == {1}
    assert known[1].absent == MISSING  # not a winning four: its jacks are unknown
    assert known[1].fresh == 1  # the draw after that play


def test_R7_1_a_winning_four_left_open_shows_no_two_eyed_jack_either() -> None:
    state = four_left_open(3)  # three sides: one sequence wins (R3.1)
    known = infer_hands(state.view(2))
    assert known[1].absent == MISSING | {JD, JC}


def test_a_position_without_its_history_shows_nothing() -> None:
    state = position(GameConfig(players=2), {1: FOUR}, {0: ["2h"], 1: ["3h"]})
    assert infer_hands(state.view(0)) == {}


@pytest.mark.parametrize("players", [2, 3])
def test_a_four_left_open_is_less_likely_to_be_filled(players: int) -> None:
    state = four_left_open(players)
    seat = 2 if players == 3 else 0
    view = state.view(seat)
    board = Board.of_view(view)
    cells = threats(board, 1)
    naive = Odds(view, inference=False).completion_risk(view, board, 1, cells)
    informed = Odds(view).completion_risk(view, board, 1, cells)
    if players == 3:  # a winning four: only a fresh card can fill it, its card or a jack
        assert 0 < informed < naive / 3
    else:  # only its two-eyed jacks are still as likely as before
        assert 0 < informed < naive


def played_positions(players: int, games: int) -> list[GameState]:
    """Positions of games between ``greedy`` and ``heuristic`` seats."""
    config = GameConfig(players=players, teams=2 if players == 4 else None)
    out = []
    for g in range(games):
        state = new_game(config, seed=g)
        bots = [make_bot(("greedy", "heuristic")[(s + g) % 2], seed=s) for s in range(players)]
        while not state.is_terminal():
            out.append(state.copy())
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_the_bots_never_hold_what_their_plays_showed_they_lacked(players: int) -> None:
    seen = 0
    for state in played_positions(players, 6):
        seat = state.current_seat
        for other, known in infer_hands(state.view(seat)).items():
            held = Counter(state.hand(other))
            assert sum(held[c] for c in known.absent) <= known.fresh
            seen += 1
    assert seen > 50


def test_sampled_worlds_deal_the_cards_held_since_the_last_play_from_the_others() -> None:
    rng = random.Random(3)
    checked = 0
    for state in played_positions(2, 3)[::3]:
        seat = state.current_seat
        view = state.view(seat)
        known = infer_hands(view)
        if not known:
            continue
        determinizer = Determinizer(view, rng, inference=True)
        for _ in range(5):
            world = determinizer.sample()
            assert world.view(seat) == view
            for other, k in known.items():
                held = Counter(world.hand(other))
                assert sum(held[c] for c in k.absent) <= k.fresh
        checked += 1
    assert checked > 10
