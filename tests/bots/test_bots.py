"""Every bot returns a legal action in every configuration, reproducibly, from its view alone."""

from __future__ import annotations

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.actions import DEAD, DISCARD, DRAW, REMOVE, WILD
from sequence_game.board import CELLS_OF_CARD, parse_cell
from sequence_game.bots import BOTS, LEVELS, Bot, Limit, level_bot, make_bot
from sequence_game.bots.evaluators import RolloutEvaluator
from sequence_game.bots.mcts import MCTSBot
from sequence_game.cards import parse_card
from sequence_game.testing import position

from .helpers import CONFIGS, random_position

LIMIT = Limit(seconds=5.0, simulations=12)


def _config_id(config: GameConfig) -> str:
    return f"{config.players}p{config.sides}s-{config.draw}"


@pytest.mark.parametrize("config", CONFIGS, ids=_config_id)
def test_every_bot_plays_legal_actions_in_random_positions(config: GameConfig) -> None:
    bots = {name: make_bot(name, seed=1) for name in BOTS}
    checked = 0
    for seed in range(3):
        for turns in (0, 7, 40, 120):
            state = random_position(config, seed * 1000 + turns, turns)
            if state.is_terminal():
                continue
            for seat in state.seats_to_act():
                view = state.view(seat)
                for name, bot in bots.items():
                    action = bot.select_action(view, LIMIT)
                    assert action in state.legal_actions(seat), (name, seat, action)
                    if DRAW in view.legal_actions:
                        assert action == DRAW  # R5.3: a seat owing a draw draws
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_whole_games_in_teams_and_manual_mode(name: str) -> None:
    config = GameConfig(players=4, draw="manual")
    state = new_game(config, seed=5)
    bots = [make_bot(name, seed=s) for s in range(4)]
    while not state.is_terminal() and state.turn < 400:
        seats = state.seats_to_act()
        seat = next((s for s in seats[1:] if state.owes_draw(s)), seats[0])
        state.apply(bots[seat].select_action(state.view(seat), Limit(simulations=5)), seat)
    assert state.is_terminal()


@pytest.mark.parametrize("name", sorted(BOTS))
def test_R6_1_bots_pay_a_table_talk_fine_with_a_discard(name: str) -> None:
    state = new_game(GameConfig(players=6, teams=2), seed=2)
    state.call_table_talk(1)
    while state.penalty_due:
        seat = state.current_seat
        action = make_bot(name, seed=0).select_action(state.view(seat), LIMIT)
        assert DISCARD <= action < DRAW
        state.apply(action, seat)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_R5_5_bots_discard_from_a_stuck_hand(name: str) -> None:
    state = position(GameConfig(players=2), {}, {0: ["jh", "js"], 1: ["3s"]})
    action = make_bot(name, seed=0).select_action(state.view(0), LIMIT)
    assert action in (DISCARD + parse_card("jh"), DISCARD + parse_card("js"))


@pytest.mark.parametrize("name", ["greedy", "heuristic", "mcts", "planner"])
def test_R5_1_thinking_bots_exchange_a_dead_card(name: str) -> None:
    # both 2s cells are taken: the 2s is dead
    cells = list(CELLS_OF_CARD[parse_card("2s")])
    state = position(GameConfig(players=2), {1: cells}, {0: ["2s", "5d"], 1: ["3s"]})
    assert state.is_dead(parse_card("2s"))
    action = make_bot(name, seed=0).select_action(state.view(0), LIMIT)
    assert action == DEAD + parse_card("2s")


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_reproducible_with_a_seed(name: str) -> None:
    config = GameConfig(players=3)
    states = [random_position(config, seed, 30) for seed in range(4)]
    views = [s.view(s.current_seat) for s in states if not s.is_terminal()]
    limit = Limit(simulations=20)
    first = [make_bot(name, seed=9).select_action(v, limit) for v in views]
    second = [make_bot(name, seed=9).select_action(v, limit) for v in views]
    assert first == second


@pytest.mark.parametrize("name", ["greedy", "heuristic", "mcts", "planner"])
def test_R7_1_bots_complete_a_winning_sequence(name: str) -> None:
    # side 0 has one sequence elsewhere and four in row 5; the 5th space's card is in hand
    row = [parse_cell(f"{c}5") for c in "bcdef"]
    other = [parse_cell(f"{c}2") for c in "bcdef"]
    from sequence_game.board import LAYOUT, WINDOW_CELLS

    seq = WINDOW_CELLS.index(tuple(other))
    card = LAYOUT[row[4]]
    hand = [card, parse_card("2s") if card != parse_card("2s") else parse_card("3s")]
    state = position(GameConfig(players=2), {0: row[:4] + other}, {0: hand, 1: ["3h"]}, sequences={0: [seq]})
    action = make_bot(name, seed=0).select_action(state.view(0), Limit(simulations=30))
    state.apply(action)
    assert state.outcome() is not None and state.outcome().winner == 0


@pytest.mark.parametrize("name", ["greedy", "heuristic", "mcts"])
def test_bots_block_an_open_four(name: str) -> None:
    row = [parse_cell(f"{c}5") for c in "bcdef"]
    from sequence_game.board import LAYOUT

    card = LAYOUT[row[4]]
    state = position(GameConfig(players=3), {1: row[:4]}, {0: [card, parse_card("2s")], 1: ["3h"], 2: ["4h"]})
    action = make_bot(name, seed=0).select_action(state.view(0), Limit(simulations=60))
    assert action in (row[4], WILD + row[4]) or REMOVE <= action < DEAD


def test_levels_map_onto_bots() -> None:
    for level in LEVELS:
        bot = make_bot(level, seed=1)
        assert isinstance(bot, Bot)
        assert bot.name == level_bot(level)  # the expert is pimc, or mcts without the fast extra
    assert [level_bot(level) for level in list(LEVELS)[:3]] == ["random", "greedy", "heuristic"]
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


def test_a_bot_asked_out_of_turn_gets_a_clear_error() -> None:
    state = new_game(GameConfig(players=2), seed=1)
    other = 1 - state.current_seat
    with pytest.raises(ValueError, match=r"R4\.3"):
        make_bot("heuristic").select_action(state.view(other))


def test_mcts_with_random_rollouts_plays_legally() -> None:
    state = random_position(GameConfig(players=2), 4, 20)
    bot = MCTSBot(seed=3, evaluator=RolloutEvaluator())
    view = state.view(state.current_seat)
    assert bot.select_action(view, Limit(simulations=10)) in view.legal_actions
    assert bot.last_simulations == 10


def test_aware_gain_values_a_block_less_when_no_copy_of_the_cards_is_left() -> None:
    # side 1 holds three of row 5; blocking the window is worth less when its last space can
    # only be filled by a two-eyed jack (no copy of the card left) than when copies are unseen
    from sequence_game.bots.evaluation import Board, aware_gain
    from sequence_game.bots.heuristic import HEURISTIC

    row = [parse_cell(f"{c}5") for c in "bcdef"]
    board = Board.from_parts([0, sum(1 << c for c in row[:3])], 0, [(), ()])
    live = [[1.0] * 100, [0.6] * 100]
    dead = [[1.0] * 100, [0.6] * 100]
    dead[1][row[4]] = 0.2
    assert aware_gain(board, 0, row[3], HEURISTIC, dead) < aware_gain(board, 0, row[3], HEURISTIC, live)


def test_R5_1_reach_counts_cards_seen_by_the_seat() -> None:
    # the seat holds both copies of a card: the other side can reach its spaces only with a jack
    from sequence_game.board import LAYOUT
    from sequence_game.bots.heuristic import REACH, Odds, reach_table

    cell = parse_cell("b5")
    card = LAYOUT[cell]
    state = position(GameConfig(players=2), {}, {0: [card, card], 1: ["3h"]})
    view = state.view(0)
    reach = reach_table(view, Odds(view))
    assert reach[0][cell] == REACH[0]
    assert reach[1][cell] == REACH[2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_policy_plays_legal_actions_in_sampled_worlds(players: int) -> None:
    import random

    from sequence_game.bots.determinize import Determinizer
    from sequence_game.bots.rollout_policy import greedy_policy

    rng = random.Random(1)
    for seed in range(3):
        state = random_position(GameConfig(players=players), seed, 25 * seed)
        if state.is_terminal():
            continue
        world = Determinizer(state.view(state.current_seat), rng).sample()
        for _ in range(30):
            if world.is_terminal():
                break
            action = greedy_policy(world, rng)
            assert action in world.legal_actions()
            world.apply(action)


@pytest.mark.parametrize("paired", [True, False])
def test_mcts_counts_its_simulations_in_both_searches(paired: bool) -> None:
    state = random_position(GameConfig(players=2), 6, 30)
    bot = MCTSBot(seed=2, paired=paired)
    view = state.view(state.current_seat)
    assert bot.select_action(view, Limit(simulations=25)) in view.legal_actions
    assert bot.last_simulations in (0, 25)  # 0 when the move is forced


@pytest.mark.parametrize("players", [2, 3])
def test_rollout_placement_matches_the_greedy_board_gain(players: int) -> None:
    # the rollouts' fast path must pick a placement worth exactly the best action_gain
    import random

    from sequence_game.bots.evaluation import GREEDY, Board, action_gain
    from sequence_game.bots.rollout_policy import _best_placement

    rng = random.Random(players)
    for seed in range(6):
        state = random_position(GameConfig(players=players), seed, 10 + 12 * seed)
        if state.is_terminal():
            continue
        board = Board.of_state(state)
        free = [c for c in range(100) if not board.occupied >> c & 1 and c not in (0, 9, 90, 99)]
        cells = set(rng.sample(free, min(12, len(free))))
        side = state.current_seat % state.config.sides
        gain, cell = _best_placement(board, side, cells)
        best = max(action_gain(board, side, c, GREEDY) for c in cells)
        assert cell in cells
        assert gain == pytest.approx(best)
        assert action_gain(board, side, cell, GREEDY) == pytest.approx(best)


def test_halving_search_widens_with_the_budget() -> None:
    # sequential halving: a small budget ranks few plays, a large one up to max_width
    bot = MCTSBot(seed=1, halving=True, width=4)
    assert bot._width_for(60, 30) == bot.width == 4
    assert bot._width_for(5000, 30) == bot.max_width == 16
    assert bot._width_for(5000, 5) == 5  # never more than the legal plays
    assert bot._width_for(60, 3) == 3


def test_halving_search_spends_its_simulation_budget_over_the_rounds() -> None:
    state = random_position(GameConfig(players=2), 3, 24)
    view = state.view(state.current_seat)
    bot = MCTSBot(seed=4, halving=True)
    first = bot.select_action(view, Limit(simulations=400))
    assert first in view.legal_actions
    assert 300 <= bot.last_simulations <= 400
    assert MCTSBot(seed=4, halving=True).select_action(view, Limit(simulations=400)) == first  # reproducible


@pytest.mark.parametrize("with_jack", [False, True])
def test_mcts_plays_a_winning_sequence_without_searching(with_jack: bool) -> None:
    # R7.1: with three sides one sequence wins (R3.1); nothing is worth searching for then,
    # even when it takes a two-eyed jack (R5.2) the heuristic would otherwise keep
    row = [parse_cell(f"{c}5") for c in "bcdef"]
    from sequence_game.board import LAYOUT

    card = parse_card("Jd") if with_jack else LAYOUT[row[4]]
    state = position(GameConfig(players=3), {0: row[:4]}, {0: [card, parse_card("2s")]})
    bot = MCTSBot(seed=1)
    action = bot.select_action(state.view(0), Limit(simulations=500))
    assert action == (WILD + row[4] if with_jack else row[4])
    assert bot.last_simulations == 0


def test_paired_search_keeps_the_heuristic_play_until_the_evidence_is_clear() -> None:
    # with an unreachable margin the search must play the heuristic's best-scored play
    import math

    from sequence_game.bots.evaluation import Board
    from sequence_game.bots.heuristic import HEURISTIC, ONE_EYED_SPEND, TWO_EYED_SPEND, score_plays

    for seed in range(4):
        state = random_position(GameConfig(players=2), seed, 12 + 6 * seed)
        if state.is_terminal():
            continue
        view = state.view(state.current_seat)
        plays = [a for a in view.legal_actions if a < DEAD]
        if len(plays) < 2:
            continue
        scores = score_plays(view, Board.of_view(view), plays, HEURISTIC, (TWO_EYED_SPEND, ONE_EYED_SPEND))
        chosen = MCTSBot(seed=seed, confidence=math.inf).select_action(view, Limit(simulations=60))
        assert scores[plays.index(chosen)] == max(scores)
