"""Hand reading (``bots.reading``): what the other seats' recent plays show about the cards they
have held since, and the search's worlds dealt by it."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

from sequence_game import GameConfig, GameState, new_game
from sequence_game.bots import make_bot
from sequence_game.bots.base import Limit
from sequence_game.bots.determinize import Determinizer
from sequence_game.bots.pimc import PimcBot
from sequence_game.bots.reading import HandReader, HeldSince
from sequence_game.cards import ONE_EYED, TWO_EYED
from sequence_game.testing import position

from .test_inference import MISSING, four_left_open


def test_a_four_left_open_is_read_as_well() -> None:
    """What :mod:`inference` reads (the four's cards were not held) the reading reads too."""
    state = four_left_open(2)
    groups = HandReader(turns=1).read(state.view(0))
    assert [g.seat for g in groups] == [1]
    assert groups[0].absent >= MISSING
    assert groups[0].held == len(state.hand(1)) - 1  # all but the draw after that play


def test_the_groups_run_oldest_first_with_growing_absent_sets() -> None:
    state = four_left_open(2)
    groups = HandReader(turns=3).read(state.view(0))
    assert sum(g.held for g in groups) <= len(state.hand(1)) - 1
    for older, newer in pairwise(groups):
        assert older.absent >= newer.absent


def test_a_position_without_its_history_reads_nothing() -> None:
    state = position(GameConfig(players=2), {1: [51, 52, 53, 54]}, {0: ["2h"], 1: ["3h"]})
    assert HandReader().read(state.view(0)) == []


def heuristic_games(players: int, games: int) -> list[GameState]:
    """Positions of games in which every seat is the ``heuristic`` bot (the reading's assumption)."""
    config = GameConfig(players=players, teams=2 if players == 4 else None)
    out = []
    for g in range(games):
        state = new_game(config, seed=100 + g)
        bots = [make_bot("heuristic", seed=s) for s in range(players)]
        while not state.is_terminal():
            out.append(state.copy())
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
    return out


def over_the_limit(groups: list[HeldSince], seat: int, hand: list[int]) -> int:
    """By how many cards the seat's hand breaks its reading (0 when it holds): a group's absent
    set contains every newer group's, so the cards of the k oldest groups' sets in the hand must
    fit in the slots of the newer groups and the fresh cards."""
    mine = [g for g in groups if g.seat == seat]
    held = Counter(hand)
    worst = 0
    for k, group in enumerate(mine):
        room = len(hand) - sum(g.held for g in mine[: k + 1])
        worst = max(worst, sum(held[c] for c in group.absent) - room)
    return worst


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_players_seldom_hold_what_the_reading_says_they_lack(players: int) -> None:
    """The reading is an assumption about the players, not a deduction: against the heuristic it
    holds in nearly every position (a guessed hand makes some scores differ)."""
    reader = HandReader(turns=4)
    positions = heuristic_games(players, 2)[6::2]
    read = wrong = 0
    for state in positions:
        seat = state.current_seat
        groups = reader.read(state.view(seat))
        for other in {g.seat for g in groups}:
            read += 1
            wrong += over_the_limit(groups, other, state.hand(other)) > 0
    assert read > 20
    assert wrong <= read * 0.1, (wrong, read)


def greedy_games(games: int) -> list[GameState]:
    """Positions of games of ``heuristic`` (seat 0) against ``greedy`` (seat 1), 2 players."""
    out = []
    for g in range(games):
        state = new_game(GameConfig(players=2), seed=300 + g)
        bots = [make_bot("heuristic", seed=g), make_bot("greedy", seed=g)]
        while not state.is_terminal():
            out.append(state.copy())
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
    return out


def test_a_greedy_players_hand_never_breaks_the_greedy_reading() -> None:
    """A greedy player's choice depends on the board alone, so its reading is exact: in every
    position its hand holds what the reading of its last plays allows."""
    reader = HandReader(turns=8, margin=0.0, model="greedy")
    read = 0
    for state in greedy_games(2)[6:]:
        if state.current_seat != 0:
            continue
        groups = reader.read(state.view(0))
        if groups:
            read += 1
            assert over_the_limit(groups, 1, state.hand(1)) == 0
    assert read > 20


def test_the_greedy_reading_finds_that_a_greedy_player_spends_its_jacks() -> None:
    """The cards a greedy player held since its last play exclude the two-eyed jacks: their best
    placement beats almost any play it could have made instead."""
    reader = HandReader(turns=1, margin=0.0, model="greedy")
    with_jacks = 0
    positions = [s for s in greedy_games(2)[10:] if s.current_seat == 0]
    for state in positions:
        groups = reader.read(state.view(0))
        with_jacks += bool(groups) and groups[0].absent >= TWO_EYED
    assert with_jacks > len(positions) / 2
    with pytest.raises(ValueError, match="assumes one of heuristic, greedy"):
        HandReader(model="random")


def test_sampled_worlds_keep_the_oldest_cards_out_of_what_was_read() -> None:
    rng = random.Random(5)
    reader = HandReader(turns=4)
    checked = 0
    for state in heuristic_games(2, 1)[8::6]:
        seat = state.current_seat
        view = state.view(seat)
        groups = reader.read(view)
        if not groups:
            continue
        determinizer = Determinizer(view, rng, inference=True, reading=groups)
        for _ in range(4):
            world = determinizer.sample()
            assert world.view(seat) == view
            assert over_the_limit(groups, 1 - seat, world.hand(1 - seat)) == 0
        checked += 1
    assert checked >= 4


def test_pimc_reads_hands_when_asked() -> None:
    state = four_left_open(2)
    bot = PimcBot(seed=1, reading=2)
    assert bot.select_action(state.view(0), Limit(simulations=40)) in state.legal_actions()
    with pytest.raises(ValueError, match="reading"):
        PimcBot(reading=-1)
    with pytest.raises(ValueError, match="jack_weights"):
        PimcBot(jack_weights=(0.0, 1.0))
    with pytest.raises(ValueError, match="shuffle_draws"):
        PimcBot(shuffle_draws=True)


def test_jack_weights_deal_more_jacks_into_the_cards_held_longest() -> None:
    """Players keep their jacks, so a seat's old cards are likelier jacks than the deck's: the
    weighted worlds still give back the view, with more jacks in the other hand."""
    state = heuristic_games(2, 1)[30]
    seat = state.current_seat
    view = state.view(seat)
    groups = HandReader(turns=8, margin=0).read(view)
    assert groups
    counts = []
    for weights in ((1.0, 1.0), (4.0, 4.0)):
        determinizer = Determinizer(
            view, random.Random(2), inference=True, reading=groups, jack_weights=weights
        )
        jacks = 0
        for _ in range(300):
            world = determinizer.sample()
            assert world.view(seat) == view
            jacks += sum(c in TWO_EYED | ONE_EYED for c in world.hand(1 - seat))
        counts.append(jacks)
    assert counts[1] > counts[0] * 1.3


def test_weights_set_after_construction_deal_as_weights_given_at_it() -> None:
    """A calibration (experiments/hand_model.py) sets per-card weights on a built dealer: they must
    weight its deals exactly as the same weights given when it is built."""
    state = heuristic_games(2, 1)[30]
    view = state.view(state.current_seat)
    groups = HandReader(turns=8, margin=0).read(view)
    built = Determinizer(view, random.Random(5), inference=True, reading=groups, jack_weights=(4.0, 3.0))
    later = Determinizer(view, random.Random(5), inference=True, reading=groups)
    assert later.weights is None
    later.weights = dict.fromkeys(TWO_EYED, 4.0) | dict.fromkeys(ONE_EYED, 3.0)
    for _ in range(20):
        assert built.sample()._hands == later.sample()._hands


@pytest.mark.parametrize("part", ["jacks", "cards"])
def test_partly_true_hands_keep_what_they_reveal_and_deal_the_rest(part: str) -> None:
    """The calibration behind ``pimc(oracle=True, shuffle_draws=True, hands=...)``: the revealed
    part of every other hand stays true, the rest is dealt from the other hidden cards, and the
    searcher's own view is unchanged."""
    from sequence_game.bots.pimc import TrueHands

    jacks = TWO_EYED | ONE_EYED
    state = next(  # a position where the other hand holds both a jack and another card
        s
        for s in heuristic_games(2, 2)[20:]
        if 0 < sum(c in jacks for c in s.hand(1 - s.current_seat)) < len(s.hand(1 - s.current_seat))
    )
    seat = state.current_seat
    other = 1 - seat
    true_hand = Counter(state.hand(other))
    hidden = Counter(state.hand(other)) + Counter(state._deck)
    source = TrueHands(state, random.Random(5), seat, part)
    changed = 0
    for _ in range(20):
        world = source.sample()
        assert world.view(seat) == state.view(seat)
        hand = Counter(world.hand(other))
        assert hand + Counter(world._deck) == hidden
        assert len(world.hand(other)) == len(state.hand(other))
        if part == "jacks":
            assert {c: n for c, n in hand.items() if c in jacks} == {
                c: n for c, n in true_hand.items() if c in jacks
            }
        else:
            assert all(true_hand[c] <= hand[c] for c in true_hand if c not in jacks)
        changed += hand != true_hand
    assert changed > 10
    with pytest.raises(ValueError, match="hands"):
        PimcBot(oracle=True, hands="jacks")
    with pytest.raises(ValueError, match="hands"):
        PimcBot(oracle=True, shuffle_draws=True, hands="hearts")


def test_pimc_plays_with_partly_true_hands_in_a_tournament() -> None:
    from sequence_game.bots.tournament import play_game, schedule

    spec = schedule(
        ['pimc(oracle=True, shuffle_draws=True, hands="jacks")', "heuristic"],
        GameConfig(players=2),
        1,
        seed=3,
        simulations=8,
    )[0]
    assert play_game(spec).turns > 0
