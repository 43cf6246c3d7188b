"""The ``pimc`` bot: perfect-information Monte Carlo with compiled rollouts (sequence_game.fast.pimc)."""

from __future__ import annotations

import math
import random
import sys

import pytest

pytest.importorskip("numba")

import numpy as np

import sequence_game.fast
from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD, WILD
from sequence_game.board import LAYOUT, WINDOW_CELLS, parse_cell
from sequence_game.bots import Limit, PimcBot, make_bot
from sequence_game.bots import heuristic as hb
from sequence_game.bots.base import reveal_truth
from sequence_game.bots.heuristic import HeuristicBot
from sequence_game.bots.pimc import _batch_size
from sequence_game.cards import parse_card
from sequence_game.fast.pimc import GREEDY, HEURISTIC, INFERRING, LITE, RANDOM, candidate_values, world_rows
from sequence_game.testing import position

from .helpers import random_position


def _winning_position() -> tuple[GameState, int]:
    """Side 0 has one sequence and four of row 5; the fifth space's card is in its hand."""
    row = [parse_cell(f"{c}5") for c in "bcdef"]
    other = [parse_cell(f"{c}2") for c in "bcdef"]
    card = LAYOUT[row[4]]
    spare = parse_card("2s") if card != parse_card("2s") else parse_card("3s")
    state = position(
        GameConfig(players=2),
        {0: row[:4] + other},
        {0: [card, spare], 1: ["3h"]},
        sequences={0: [WINDOW_CELLS.index(tuple(other))]},
    )
    return state, row[4]


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC, LITE, INFERRING])
def test_R7_1_a_winning_play_is_worth_a_win_in_every_world(policy: int) -> None:
    state, cell = _winning_position()
    other = next(a for a in state.legal_actions() if a not in (cell, WILD + cell) and a < 100)
    rows = world_rows([state, state, state])
    values = candidate_values(rows, [1, 2, 3], [cell, other], side=0, policy=policy, length_penalty=0.01)
    assert values.shape == (2, 3)
    assert values[0].tolist() == [1.0] * 3  # the win at once: no turn of length penalty
    assert all(-1.0 <= v <= 1.0 for v in values[1])


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC, LITE, INFERRING])
def test_every_candidate_meets_the_same_world_and_random_stream(policy: int) -> None:
    """Common random numbers: the same play in the same world with the same seed rolls out the
    same game, however many other candidates are evaluated; the call is reproducible."""
    state = random_position(GameConfig(players=3), 2, 12)
    plays = [a for a in state.legal_actions() if a < 100][:3]
    rows = world_rows([state] * 4)
    seeds = [5, 6, 7, 8]
    values = candidate_values(rows, seeds, [plays[0], plays[1], plays[0]], 0, policy)
    assert values[0].tolist() == values[2].tolist()
    assert candidate_values(rows, seeds, [plays[1]], 0, policy)[0].tolist() == values[1].tolist()


def test_heuristic_rollouts_finish_games() -> None:
    state = new_game(GameConfig(players=4, teams=2), seed=6)
    plays = [a for a in state.legal_actions() if a < 100][:2]
    values = candidate_values(world_rows([state] * 3), [1, 2, 3], plays, 0, HEURISTIC)
    assert all(abs(v) > 0.5 for v in values.ravel())  # decided (+-1 less the length penalty)


def test_candidate_values_refuses_bad_arguments() -> None:
    state = new_game(GameConfig(players=2), seed=1)
    rows = world_rows([state])
    play = next(a for a in state.legal_actions() if a < 100)
    with pytest.raises(ValueError, match="rollout policy"):
        candidate_values(rows, [1], [play], 0, policy=7)
    with pytest.raises(ValueError, match="seeds"):
        candidate_values(rows, [1, 2], [play], 0)
    with pytest.raises(ValueError, match="horizon"):
        candidate_values(rows, [1], [play], 0, horizon=0)
    with pytest.raises(ValueError, match="threads"):
        candidate_values(rows, [1], [play], 0, threads=0)
    with pytest.raises(ValueError, match="rollout policy"):
        candidate_values(rows, [1], [play], 0, others=9)
    with pytest.raises(ValueError, match="every seat or none"):
        candidate_values(rows, [1], [play], 0, policy=RANDOM, others=HEURISTIC)


def test_the_opponents_model_plays_the_other_seats_only() -> None:
    """``others`` set to the rollout policy is the plain call; greedy opponents (the ``greedy``
    bot compiled) roll out other games from the same worlds and streams."""
    state = new_game(GameConfig(players=2), seed=8)
    plays = [a for a in state.legal_actions() if a < 100][:3]
    rows = world_rows([state] * 6)
    seeds = list(range(20, 26))
    side = state.current_seat % 2
    plain = candidate_values(rows, seeds, plays, side, INFERRING, length_penalty=0.002)
    same = candidate_values(rows, seeds, plays, side, INFERRING, length_penalty=0.002, others=INFERRING)
    assert same.tolist() == plain.tolist()
    greedy = candidate_values(rows, seeds, plays, side, INFERRING, length_penalty=0.002, others=GREEDY)
    assert greedy.tolist() != plain.tolist()
    assert np.all(np.abs(greedy) <= 1.0)


def test_threads_split_the_worlds_without_changing_a_value() -> None:
    """Each world keeps its own random stream, so the values are the same however many threads
    share the worlds (more threads than worlds included)."""
    state = random_position(GameConfig(players=2), 3, 14)
    plays = [a for a in state.legal_actions() if a < 100][:3]
    rows = world_rows([state] * 5)
    seeds = [11, 12, 13, 14, 15]
    one = candidate_values(rows, seeds, plays, 0, INFERRING)
    for threads in (2, 3, 8):
        assert candidate_values(rows, seeds, plays, 0, INFERRING, threads=threads).tolist() == one.tolist()
    views = [random_position(GameConfig(players=2), s, 20) for s in range(3)]
    first = [PimcBot(seed=9).select_action(s.view(s.current_seat), Limit(simulations=30)) for s in views]
    second = [
        PimcBot(seed=9, threads=2).select_action(s.view(s.current_seat), Limit(simulations=30)) for s in views
    ]
    assert first == second


def test_a_batch_fits_the_budget_and_half_the_time_left() -> None:
    """The honest clock's arithmetic: half the worlds that would still fit at the measured rate,
    none when not one would (experiments/move_times.py measures the real clock)."""
    assert _batch_size(8, math.inf, 0, 4, 0.0, math.inf) == 8  # no rate yet: the batch as planned
    assert _batch_size(64, 100, 80, 4, 0.0, math.inf) == 5  # the rollout budget: 20 left, 4 plays
    assert _batch_size(64, math.inf, 40, 4, 0.001, 0.2) == 25  # 50 worlds fit in 0.2 s: half
    assert _batch_size(64, math.inf, 40, 4, 0.001, 0.003) == 0  # not one world fits
    assert _batch_size(64, math.inf, 40, 4, 0.001, -0.1) == 0  # already past the deadline


@pytest.mark.parametrize("players,teams", [(2, None), (3, None), (4, 2), (6, 3)])
def test_pimc_plays_legal_actions(players: int, teams: int | None) -> None:
    config = GameConfig(players=players, teams=teams)
    bot = PimcBot(seed=3)
    for seed in range(3):
        for turns in (0, 15, 50):
            state = random_position(config, seed * 100 + turns, turns)
            if state.is_terminal() or state.penalty_due:
                continue
            seat = state.current_seat
            assert bot.select_action(state.view(seat), Limit(simulations=24)) in state.legal_actions(seat)


def test_a_simulation_budget_is_a_number_of_rollouts() -> None:
    state = random_position(GameConfig(players=2), 4, 10)
    bot = PimcBot(seed=1, width=4)
    view = state.view(state.current_seat)
    bot.select_action(view, Limit(simulations=41))
    assert (bot.last_worlds, bot.last_simulations) == (10, 40)  # 41 // 4 worlds of 4 candidates


def test_the_same_seed_plays_the_same_moves() -> None:
    views = [random_position(GameConfig(players=2), s, 20) for s in range(4)]
    first = [PimcBot(seed=9).select_action(s.view(s.current_seat), Limit(simulations=30)) for s in views]
    second = [PimcBot(seed=9).select_action(s.view(s.current_seat), Limit(simulations=30)) for s in views]
    assert first == second


def test_R7_1_pimc_completes_a_winning_sequence_without_search() -> None:
    state, cell = _winning_position()
    bot = PimcBot(seed=0)
    assert bot.select_action(state.view(0), Limit(simulations=60)) == cell
    assert bot.last_simulations == 0


def test_the_heuristic_play_stands_unless_another_is_clearly_better() -> None:
    noisy = [[1.0, -1.0, 1.0, -1.0], [1.0, 1.0, -1.0, -1.0]]  # mean 0 each: no evidence
    assert PimcBot._choose(noisy, 1.0) == 0
    clear = [[-1.0, -1.0, 1.0, -1.0], [1.0, 1.0, 1.0, 1.0]]  # +1.5 a world, every world
    assert PimcBot._choose(clear, 1.0) == 1
    slight = [[0.0] * 8, [1.0, -1.0] * 3 + [1.0, 1.0]]  # +0.25 at about 0.7 standard errors
    assert PimcBot._choose(slight, 1.0) == 0
    assert PimcBot._choose(slight, 0.0) == 1  # confidence 0: the best mean
    assert PimcBot._choose([[-1.0], [1.0]], 1.0) == 0  # one world is no evidence
    assert PimcBot._choose([[-1.0], [1.0]], 0.0) == 1  # ... but decides in oracle mode


@pytest.mark.parametrize(
    ("rank", "players"), [("tuned", 2), ("tuned", 3), ("tuned3", 2), ("table", 2), ("table", 3)]
)
def test_the_tuned_ranking_scores_plays_as_the_heuristic_with_the_tuned_numbers(
    rank: str, players: int
) -> None:
    """``rank="tuned"``: the candidates and the play kept are those of ``HeuristicBot`` with
    the numbers tuned at 2 players (:data:`~sequence_game.bots.heuristic.TUNED` and its costs),
    ``"tuned3"`` with those tuned at 3 (:data:`~sequence_game.bots.heuristic.TUNED_3P`), and
    ``"table"`` with the 3-player ones where three sides play: wherever the ranking's best play has
    no tie, it is that bot's choice."""
    three = rank == "tuned3" or (rank == "table" and players == 3)
    reference = HeuristicBot(
        seed=1,
        weights=hb.TUNED_3P if three else hb.TUNED,
        jack_costs=hb.TUNED_3P_JACK_COSTS if three else hb.TUNED_JACK_COSTS,
        threat_weight=hb.TUNED_3P_THREAT_WEIGHT if three else hb.TUNED_THREAT_WEIGHT,
        reach=hb.TUNED_3P_REACH if three else hb.TUNED_REACH,
    )
    bot = PimcBot(seed=1, rank=rank)
    checked = 0
    for seed in range(12):
        state = random_position(GameConfig(players=players), seed, turns=6 + 2 * seed)
        view = state.view(state.current_seat)
        acts = [a for a in view.legal_actions if a < DEAD]
        if state.is_terminal() or any(view.penalty_due) or len(acts) < 2:
            continue
        order, net = bot.ranked(view, acts)
        if net[order[0]] - net[order[1]] > 1e-6:
            assert reference.select_action(view) == order[0]
            checked += 1
    assert checked >= 5


def test_jack_candidates_join_the_heuristics_best_plays() -> None:
    # R5.2 placements (0-99), two-eyed jack plays (100-199), one-eyed removals (200-299), best first
    order = [12, 45, 150, 7, 63, 111, 230, 250, 99]
    assert PimcBot(seed=0, width=3).candidates(order) == [12, 45, 150]
    # the best of each jack kind not already a candidate: 111 (150 is in), then 230
    assert PimcBot(seed=0, width=3, jacks=1).candidates(order) == [12, 45, 150, 111, 230]
    assert PimcBot(seed=0, width=2, jacks=2).candidates(order) == [12, 45, 150, 111, 230, 250]
    assert PimcBot(seed=0, width=2, jacks=1).candidates([12, 45, 7]) == [12, 45]  # no jacks held


def test_pruning_drops_a_clearly_worse_play_but_never_the_heuristics() -> None:
    first = [1.0, -1.0] * 6  # the heuristic's play: even
    best = [1.0] * 12  # better than it in every world where it lost
    worse = [-1.0] * 12  # beaten by the best in every world
    close = [1.0] * 11 + [-1.0]  # a shade below the best (1 standard error): no evidence yet
    values = [first, best, worse, close]
    assert PimcBot._survivors(values, [0, 1, 2, 3], 2.0) == [0, 1, 3]
    assert PimcBot._survivors(values, [0, 1, 2, 3], 0.5) == [0, 1]
    # the heuristic's play stays even when it is the one clearly beaten
    assert PimcBot._survivors([worse, best], [0, 1], 2.0) == [0, 1]


def test_a_pruned_play_is_never_chosen() -> None:
    # a pruned play met fewer worlds than the heuristic's: it is left out even where its mean
    # over the worlds it met is the best
    values = [[0.0] * 10, [1.0] * 10, [1.0] * 4]
    assert PimcBot._choose(values, 1.0) == 1
    assert PimcBot._choose([[0.0] * 10, [-1.0] * 10, [1.0] * 4], 0.0) == 0


def test_pruning_spends_the_budget_on_the_plays_still_in_contention() -> None:
    state = random_position(GameConfig(players=2), 4, 10)
    view = state.view(state.current_seat)
    plain = PimcBot(seed=1, width=4)
    plain.select_action(view, Limit(simulations=400))
    pruned = PimcBot(seed=1, width=4, prune=0.5)  # a low bar: something is dropped early
    pruned.select_action(view, Limit(simulations=400))
    assert plain.last_worlds == 100 and plain.last_simulations == 400
    assert pruned.last_simulations <= 400
    assert (
        pruned.last_worlds > plain.last_worlds or pruned.last_simulations < 400
    )  # more worlds, or done early


@pytest.mark.parametrize(
    "text,match",
    [
        ("pimc(width=0)", "width"),
        ("pimc(policy=6)", "policy"),
        ("pimc(rank='greedy')", "rank"),
        ("pimc(horizon=0)", "horizon"),
        ("pimc(prune=-1)", "prune"),
        ("pimc(jacks=-1)", "jacks"),
        ("pimc(opponents=6)", "opponents"),
        ("pimc(policy=0, opponents=3)", "every seat or none"),
        ("pimc(posterior=-1)", "posterior"),
        ("pimc(proposals=0)", "proposals"),
        ("pimc(lookahead=-1)", "lookahead"),
        ("pimc(lookahead_width=0)", "lookahead_width"),
        ("pimc(lookahead=2, threads=2)", "one policy on every seat, in one thread"),
        ("pimc(reading_model='random')", "reading_model"),
        ("pimc(two_player_width=-1)", "two_player_width"),
        ("pimc(two_player_confidence=-0.5)", "two_player_confidence"),
        ("pimc(two_player_rollouts=-1)", "two_player_rollouts"),
    ],
)
def test_bad_options_are_refused(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        make_bot(text, seed=1)


def test_without_the_fast_extra_the_bot_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sequence_game.fast, "pimc", raising=False)
    monkeypatch.setitem(sys.modules, "sequence_game.fast.pimc", None)
    with pytest.raises(ImportError, match=r"sequence-game\[fast\]"):
        PimcBot(seed=1)


def test_oracle_mode_is_a_measurement_tool_that_plays_from_the_truth() -> None:
    with pytest.raises(ValueError, match="measurement tool"):
        make_bot("pimc(oracle=True)", seed=1)
    bot = make_bot("pimc(oracle=True, width=3)", seed=1, allow_oracle=True)
    state = new_game(GameConfig(players=2), seed=3)
    state.playout(random.Random(2), max_turns=10)
    view = state.view(state.current_seat)
    with pytest.raises(ValueError, match="no true state was revealed"):
        bot.select_action(view, Limit(simulations=6))
    assert reveal_truth(bot, state)
    assert bot.select_action(view, Limit(simulations=6)) in state.legal_actions()


def test_the_expert_reads_hands_at_2_players_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert level is ``pimc`` with the reading, at 2 players (where it was fitted and gains);
    with more players it deals its worlds as ``pimc`` without the reading does, move for move."""
    from sequence_game.bots import EXPERT, level_spec, table_spec
    from sequence_game.bots.reading import HandReader

    assert level_spec("expert") == table_spec("pimc") == EXPERT
    reads: list[int] = []
    real = HandReader.read

    def spy(self: HandReader, view: object) -> object:
        reads.append(view.config.players)  # type: ignore[attr-defined]
        return real(self, view)  # type: ignore[arg-type]

    monkeypatch.setattr(HandReader, "read", spy)
    for players in (2, 3, 4):
        config = GameConfig(players=players)
        states = [random_position(config, s, 12 + players) for s in range(3)]
        states = [s for s in states if not s.is_terminal() and not s.penalty_due]
        expert, plain = make_bot("expert", seed=5), PimcBot(seed=5, rank="table")
        for state in states:
            view = state.view(state.current_seat)
            move = expert.select_action(view, Limit(simulations=40))
            assert move in state.legal_actions(state.current_seat)
            if players > 2:
                assert move == plain.select_action(view, Limit(simulations=40))
    assert reads and set(reads) == {2}


def test_a_two_player_table_searches_its_own_width_and_confidence() -> None:
    """``two_player_width`` and ``two_player_confidence`` replace ``width`` and ``confidence`` at a
    2-player table only (the expert searches 8 plays there, 4 elsewhere): a budget of rollouts buys
    ``rollouts // candidates`` worlds."""
    from sequence_game.bots import EXPERT

    assert "two_player_width=8" in EXPERT and "two_player_confidence=0.5" in EXPERT
    bot = PimcBot(seed=2, width=3, two_player_width=6, two_player_confidence=0.5)
    assert (bot.width, bot.two_player_width, bot.confidence, bot.two_player_confidence) == (3, 6, 1.0, 0.5)
    assert PimcBot(seed=2, confidence=2.0).two_player_confidence == 2.0  # -1: as confidence
    assert PimcBot(seed=2, width=5).two_player_width == 5  # 0: as width
    for players, width in ((2, 6), (3, 3), (4, 3)):
        state = (
            _heuristic_position(14) if players == 2 else random_position(GameConfig(players=players), 4, 16)
        )
        view = state.view(state.current_seat)
        assert len([a for a in view.legal_actions if a < DEAD]) > 6
        move = bot.select_action(view, Limit(simulations=60))
        assert move in state.legal_actions(state.current_seat)
        assert (bot.last_worlds, bot.last_simulations) == (60 // width, 60 // width * width)


def test_a_small_budget_keeps_the_narrow_search_at_a_two_player_table() -> None:
    """``two_player_rollouts``: below that many rollouts a move the 2-player width gives way to
    ``width`` (judged at once for a rollout budget, from the first batch's rate for a clock); the
    expert searches 8 plays only where its budget buys 2,000 rollouts."""
    from sequence_game.bots import EXPERT

    assert "two_player_rollouts=2000" in EXPERT
    state = _heuristic_position(14)
    view = state.view(state.current_seat)
    bot = PimcBot(seed=2, width=3, two_player_width=6, two_player_confidence=0.5, two_player_rollouts=100)
    bot.select_action(view, Limit(simulations=60))  # under 100: three plays, 20 worlds
    assert (bot.last_narrowed, bot.last_worlds, bot.last_simulations) == (True, 20, 60)
    bot.select_action(view, Limit(simulations=120))  # enough: six plays
    assert (bot.last_narrowed, bot.last_worlds, bot.last_simulations) == (False, 20, 120)

    # a clock: the first batch (two worlds of six plays) measures the rate, then the search narrows
    slow = PimcBot(seed=2, width=3, two_player_width=6, two_player_rollouts=10**9)
    assert slow.select_action(view, Limit(seconds=0.05)) in view.legal_actions
    assert slow.last_narrowed and slow.last_simulations == 2 * 6 + (slow.last_worlds - 2) * 3
    roomy = PimcBot(seed=2, width=3, two_player_width=6, two_player_rollouts=1)
    roomy.select_action(view, Limit(seconds=0.05))
    assert not roomy.last_narrowed and roomy.last_simulations == roomy.last_worlds * 6

    # more players: the 2-player options never apply
    three = random_position(GameConfig(players=3), 4, 16)
    bot.select_action(three.view(three.current_seat), Limit(simulations=60))
    assert (bot.last_narrowed, bot.last_worlds) == (False, 20)


def _heuristic_position(turns: int, seed: int = 11) -> GameState:
    """A 2-player game of the ``heuristic`` bot against itself after ``turns`` turns."""
    state = new_game(GameConfig(players=2), seed=seed)
    bots = [make_bot("heuristic", seed=s) for s in range(2)]
    while state.turn < turns and not state.is_terminal():
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    return state


def test_worlds_weighed_by_the_last_play_keep_the_view_and_favour_hands_that_explain_it() -> None:
    """``posterior``: the worlds still give back the view, and the hands they rebuild for the other
    seat's last play explain it better (a lower mean regret) than the worlds they were drawn from."""
    from sequence_game.bots.determinize import Determinizer
    from sequence_game.bots.posterior import PosteriorDealer
    from sequence_game.bots.reading import HandReader
    from sequence_game.fast.posterior import play_regrets

    state = _heuristic_position(20)
    seat = state.current_seat
    view = state.view(seat)
    rng = random.Random(3)
    source = Determinizer(view, rng, True, HandReader(8, 0.0).read(view), (2.2, 2.8))
    dealer = PosteriorDealer(source, view, rng, temperature=0.5, proposals=8)
    assert [e[0] for e in dealer.evidence] == [1 - seat]
    other, row, action, card, taken = dealer.evidence[0]

    def mean_regret(worlds: list[GameState]) -> float:
        size = len(worlds[0].hand(other)) - taken + 1
        hands = np.array([[*w._hands[other][: size - 1], card] for w in worlds], dtype=np.int32)
        return float(play_regrets(row, hands, other, action).mean())

    weighed = dealer.sample_batch(32)
    assert all(world.view(seat) == view for world in weighed)
    drawn = [source.sample() for _ in range(256)]
    assert mean_regret(weighed) <= mean_regret(drawn)
    bot = PimcBot(seed=1, posterior=0.5)
    assert bot.select_action(view, Limit(simulations=40)) in view.legal_actions


def test_lookahead_rollouts_search_the_next_move_and_count_its_rollouts() -> None:
    """``lookahead``: each world costs a candidate ``1 + lookahead * lookahead_width`` rollouts."""
    from sequence_game.fast.lookahead import lookahead_values

    state, cell = _winning_position()
    other = next(a for a in state.legal_actions() if a not in (cell, WILD + cell) and a < 100)
    values = lookahead_values(world_rows([state, state]), [1, 2], [cell, other], side=0, top=2, inner=2)
    assert values[0].tolist() == [1.0, 1.0]
    assert all(-1.0 <= v <= 1.0 for v in values[1])
    position_ = _heuristic_position(16)
    view = position_.view(position_.current_seat)
    bot = PimcBot(seed=2, lookahead=2, lookahead_width=2)
    assert bot.select_action(view, Limit(simulations=200)) in view.legal_actions
    assert bot.last_simulations == bot.last_worlds * 4 * (1 + 2 * 2) <= 200
    with pytest.raises(ValueError, match="top"):
        lookahead_values(world_rows([state]), [1], [cell], side=0, top=0)
