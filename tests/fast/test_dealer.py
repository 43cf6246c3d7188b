"""Worlds dealt into rows by compiled code (fast.dealer) against the search's Python deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("numba")

import numpy as np

from sequence_game import GameConfig, GameState, new_game
from sequence_game.bots import EXPERT, PimcBot, make_bot
from sequence_game.bots.determinize import Determinizer
from sequence_game.bots.heuristic import HeuristicBot
from sequence_game.cards import NUM_CARDS
from sequence_game.fast import kernels as k
from sequence_game.fast.dealer import NO_GROUPS, Groups, deal_rows
from sequence_game.fast.engine import FastGame
from sequence_game.fast.pimc import world_rows

HAND_CELLS = np.zeros(k.ROW, dtype=bool)
HAND_CELLS[k.O_HAND : k.O_HAND + k.MAX_PLAYERS * k.MAX_HAND] = True
HAND_CELLS[k.O_DECK : k.O_DECK + 104] = True


def played(config: GameConfig, seed: int, moves: int) -> GameState:
    """A game of ``hard`` players after ``moves`` moves: histories the reading can read."""
    state = new_game(config, seed=seed)
    bots = [HeuristicBot(seed=seed + s) for s in range(config.players)]
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    return state


def dealers(state: GameState, seed: int) -> tuple[Determinizer, Determinizer]:
    """Two samplers of the expert's (reading and jack weights) for the seat to move."""
    bot = make_bot(EXPERT, seed=1)
    assert isinstance(bot, PimcBot) and bot.reader is not None
    view = state.view(state.current_seat)
    held = bot.reader.read(view)
    return tuple(  # type: ignore[return-value]
        Determinizer(view, random.Random(seed + i), True, held, bot.jack_weights) for i in range(2)
    )


def cards_of(row: np.ndarray, seat: int) -> list[int]:
    return sorted(
        int(c)
        for c in row[k.O_HAND + seat * k.MAX_HAND : k.O_HAND + seat * k.MAX_HAND + row[k.O_HLEN + seat]]
    )


@pytest.mark.parametrize(("players", "teams"), [(2, None), (3, None), (4, 2)])
def test_compiled_worlds_are_the_views_worlds(players: int, teams: int | None) -> None:
    """Every row is a world of the view: the same as a Python-dealt one but for the hidden
    cards, the seat's own hand unchanged, and the hidden cards (other hands and the pile) exactly
    the unseen ones, each hand of its size."""
    state = played(GameConfig(players=players, teams=teams), 5, 10 + 4 * players)
    python, compiled = dealers(state, 3)
    rows = compiled.sample_rows(40)
    assert rows is not None and rows.shape == (40, k.ROW)
    reference = world_rows(python.sample_batch(1))[0]
    view = python.view
    for row in rows:
        assert (row[~HAND_CELLS] == reference[~HAND_CELLS]).all()
        assert cards_of(row, view.seat) == sorted(view.hand)
        hidden: Counter[int] = Counter(int(c) for c in row[k.O_DECK : k.O_DECK + row[k.I_DECKLEN]])
        for seat in range(players):
            if seat != view.seat:
                assert len(cards_of(row, seat)) == view.hand_sizes[seat]
                hidden.update(cards_of(row, seat))
        assert hidden == Counter(python.pool)


def test_compiled_worlds_follow_the_python_deal() -> None:
    """Reading groups and jack weights, dealt both ways: each card's frequency in the other hand
    and among the pile's top five cards agrees (3,000 worlds each, fixed seeds: a difference of
    0.05 is over four standard errors)."""
    for seed, moves in [(5, 20), (11, 48)]:
        state = played(GameConfig(players=2), seed, moves)
        python, compiled = dealers(state, seed)
        assert python.held_before  # the reading found groups to deal first
        other = 1 - python.view.seat
        by_python = world_rows(python.sample_batch(3000))
        by_compiled = compiled.sample_rows(3000)
        assert by_compiled is not None
        for part in ("hand", "top"):
            freq = []
            for rows in (by_python, by_compiled):
                counts = np.zeros(NUM_CARDS)
                for row in rows:
                    if part == "hand":
                        cards = cards_of(row, other)
                    else:
                        cards = row[k.O_DECK + row[k.I_DECKLEN] - 5 : k.O_DECK + row[k.I_DECKLEN]].tolist()
                    np.add.at(counts, cards, 1)
                freq.append(counts / len(rows))
            assert np.abs(freq[0] - freq[1]).max() < 0.05, (seed, part)


def test_a_seat_never_holds_what_it_showed_it_lacked() -> None:
    """A group whose cards can be dealt gets none of its absent cards: one seat, one group of 3
    cards, half the pool absent."""
    state = new_game(GameConfig(players=2), seed=4)
    base = FastGame.from_state(state).row
    pool = np.array(state._deck + state._hands[1], dtype=np.int64)
    absent = np.zeros((1, NUM_CARDS), dtype=bool)
    absent[0, : NUM_CARDS // 2] = True
    groups = Groups(np.array([1]), np.array([7]), absent)
    for powers in (None, np.full(NUM_CARDS, 0.5)):
        rows = deal_rows(
            base, pool, len(state._deck), np.array([-1, 7]), groups, seed=9, count=50, powers=powers
        )
        for row in rows:
            assert all(c >= NUM_CARDS // 2 for c in cards_of(row, 1))


def test_deal_rows_refuses_a_pool_of_the_wrong_size() -> None:
    state = new_game(GameConfig(players=2), seed=4)
    base = FastGame.from_state(state).row
    pool = np.array(state._deck, dtype=np.int64)
    with pytest.raises(ValueError, match="cards to deal"):
        deal_rows(base, pool, len(state._deck), np.array([-1, 7]), NO_GROUPS, seed=1, count=2)


def test_manual_draws_are_left_to_the_python_deal() -> None:
    state = new_game(GameConfig(players=2, draw="manual"), seed=4)
    python, _ = dealers(state, 1)
    assert python.sample_rows(2) is None
