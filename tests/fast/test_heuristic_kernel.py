"""The compiled heuristic (``sequence_game.fast.heuristic``) against the Python one it copies.

``choose`` must score every R5.2 play as ``bots.heuristic.score_plays(..., inference=False)``
does, so that rollouts played with it are games against the opponent a search models;
``choose_lite`` as the open-window gain under the same weights. Positions come from games between
``HeuristicBot(inference=False)`` seats, on the pure engine (the reference), converted with
``FastGame.from_state``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig, GameState, new_game
from sequence_game.actions import DEAD, DISCARD, REMOVE, WILD
from sequence_game.board import CELLS_OF_CARD, PLAYABLE, WINDOW_CELLS, cells_of
from sequence_game.bots import evaluation, heuristic
from sequence_game.bots.base import forced_action
from sequence_game.bots.evaluation import Board, Weights, action_gain
from sequence_game.bots.greedy import GreedyBot
from sequence_game.bots.heuristic import HEURISTIC, HeuristicBot, opponent_weights, score_plays
from sequence_game.cards import parse_card
from sequence_game.fast import heuristic as fh
from sequence_game.fast import kernels as k
from sequence_game.fast.compile import ensure_compiled
from sequence_game.fast.engine import FastGame
from sequence_game.testing import position

TABLES = (
    GameConfig(players=2),
    GameConfig(players=3),
    GameConfig(players=4),
    GameConfig(players=6),
    GameConfig(players=6, teams=3),
)


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    ensure_compiled("heuristic", notice=None)


def heuristic_positions(
    config: GameConfig, games: int, seed: int, inference: bool = False
) -> Iterator[GameState]:
    """Every position of ``games`` games between Python heuristic seats."""
    for i in range(games):
        state = new_game(config, seed=seed + i)
        bots = [HeuristicBot(seed=seed + 31 * i + s, inference=inference) for s in range(config.players)]
        while not state.is_terminal():
            yield state
            state.apply(bots[state.current_seat].select_action(state.view(state.current_seat)))


def python_scores(state: GameState, inference: bool = False) -> dict[int, float] | int:
    """``score_plays`` of every R5.2 play, or the Python bot's action when it scores none."""
    view = state.view(state.current_seat)
    forced = forced_action(view)
    if forced is not None:
        return forced
    plays = [a for a in view.legal_actions if a < DEAD]
    if not plays:
        return HeuristicBot(inference=False).select_action(view)
    scores = score_plays(view, Board.of_view(view), plays, HEURISTIC, inference=inference)
    return dict(zip(plays, scores, strict=True))


def lite_reference(state: GameState) -> dict[int, float]:
    """What ``choose_lite`` scores: ``action_gain`` under the heuristic's weights (fours scaled for
    teams, opponents weighted by turn order), jacks' spending costs, and the win (R7.1)."""
    view = state.view(state.current_seat)
    board = Board.of_view(view)
    w = HEURISTIC
    four = w.line[4] * (1.0 + heuristic.TEAM_FOUR_BONUS * (view.config.team_size - 1))
    weights = Weights(line=(*w.line[:4], four, w.line[5]), block=w.block, centre=w.centre)
    out = {}
    for a in view.legal_actions:
        if a >= DEAD:
            continue
        score = action_gain(board, view.side, a, weights, opponent_weights(view))
        score -= heuristic.ONE_EYED_SPEND if a >= REMOVE else heuristic.TWO_EYED_SPEND if a >= WILD else 0.0
        if board.after(a, view.side).sequences[view.side] >= view.config.sequences_to_win:
            score += heuristic.WIN
        out[a] = score
    return out


def same_scores(python: dict[int, float] | int, compiled: dict[int, float] | int) -> bool:
    if isinstance(python, int) or isinstance(compiled, int):
        return python == compiled
    return python.keys() == compiled.keys() and all(abs(python[a] - compiled[a]) < 1e-6 for a in python)


def test_the_weights_are_the_python_heuristics() -> None:
    assert tuple(fh.LINE) == HEURISTIC.line and tuple(fh.BLOCK) == HEURISTIC.block
    greedy = evaluation.GREEDY
    assert tuple(fh.GREEDY_LINE) == greedy.line and tuple(fh.GREEDY_BLOCK) == greedy.block
    assert tuple(fh.GREEDY_PARAMS[fh.P_LINE : fh.P_CENTRE + 1]) == (
        *greedy.line,
        *greedy.block,
        greedy.centre,
    )
    assert HEURISTIC.centre == fh.CENTRE_WEIGHT and tuple(fh.CENTRE) == evaluation.CENTRE
    assert (fh.WIN, fh.TWO_EYED_SPEND, fh.ONE_EYED_SPEND) == (
        heuristic.WIN,
        heuristic.TWO_EYED_SPEND,
        heuristic.ONE_EYED_SPEND,
    )
    assert (fh.TEAM_FOUR_BONUS, fh.THREAT_WEIGHT, fh.WINNING_SEQUENCE, fh.REACH) == (
        heuristic.TEAM_FOUR_BONUS,
        heuristic.THREAT_WEIGHT,
        heuristic.WINNING_SEQUENCE,
        heuristic.REACH,
    )
    assert HeuristicBot.jack_keep == fh.JACK_KEEP
    tuned = heuristic.TUNED
    assert tuple(fh.TUNED_PARAMS) == (
        *tuned.line,
        *tuned.block,
        tuned.centre,
        *heuristic.TUNED_JACK_COSTS,
        heuristic.TUNED_THREAT_WEIGHT,
        *heuristic.TUNED_REACH,
    )


def test_the_tuned_policy_plays_the_tuned_numbers_with_inference() -> None:
    """Policy :data:`~fh.TUNED` (a search's own seats) is :func:`fh.choose_params_with` on the
    tuned numbers with inference, move for move and draw for draw, through whole games."""
    moves = 0
    for seed in range(3):
        game = FastGame.from_state(new_game(GameConfig(players=2), seed=90 + seed), seed=seed)
        row, twin = game.row.copy(), game.row.copy()
        rs = np.array([k.seed_state(seed + 1)], dtype=np.uint64)
        twin_rs = rs.copy()
        iw, fw = fh.new_work()
        while row[k.I_END] == k.END_NONE:
            action = fh.choose_policy_with(row, rs, 0, iw, fw, fh.TUNED)
            assert action == fh.choose_params_with(twin, twin_rs, 0, iw, fw, fh.TUNED_PARAMS, True)
            k.apply(row, rs, 0, action)
            k.apply(twin, twin_rs, 0, action)
            moves += 1
    assert moves > 100


def test_window_tables_follow_the_rows_line_masks() -> None:
    """The windows read from ``kernels.O_LINES``: each window's cells are consecutive bits of
    one line, in the kernels' own line numbering."""
    for w, cells in enumerate(WINDOW_CELLS):
        direction = (1, 10, 11, 9).index(cells[1] - cells[0])
        for m, c in enumerate(cells):
            assert k.LINE_OF[c, direction] == fh.WINDOW_LINE[w]
            assert k.LINE_BIT[c, direction] == fh.WINDOW_START[w] + m


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.players}p{c.sides}s")
def test_choose_scores_every_play_as_the_python_heuristic(config: GameConfig) -> None:
    """Every play's score (and so the tie set) equals ``score_plays`` with ``inference=False``,
    on every position of whole games: card counting, threats, blocks, sequences and wins."""
    checked = 0
    for state in heuristic_positions(config, 3, seed=70 + config.players + config.sides):
        game = FastGame.from_state(state, seed=1)
        python = python_scores(state)
        compiled = fh.heuristic_scores(game)
        assert same_scores(python, compiled), (state.turn, python, compiled)
        checked += 1
    assert checked >= 80  # over 550 positions in all


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.players}p{c.sides}s")
def test_choose_inferring_scores_every_play_as_the_default_heuristic(config: GameConfig) -> None:
    """With hand inference (``bots.inference``: a seat that left a four of its side unfilled
    did not hold its card), the scores equal ``score_plays(..., inference=True)``: the default
    ``heuristic`` bot, on every position of its own games."""
    inferred = 0
    for state in heuristic_positions(config, 2, seed=40 + config.players + config.sides, inference=True):
        game = FastGame.from_state(state, seed=1)
        assert same_scores(python_scores(state, True), fh.heuristic_scores(game, inference=True)), state.turn
        iw, fw = fh.new_work()
        if fh.score_inferring(game.row, iw, fw) > 0:
            inferred += int(iw[fh.I_INFERRED : fh.I_INFERRED + k.MAX_PLAYERS].sum())
    assert inferred > 0  # some hands were read


def test_inference_leaves_the_row_as_it_was() -> None:
    """The log is undone on the row itself to see the board before each play: put back after."""
    state = next(
        s for s in heuristic_positions(GameConfig(players=4), 1, seed=3, inference=True) if s.turn == 30
    )
    game = FastGame.from_state(state, seed=1)
    before = game.row.copy()
    iw, fw = fh.new_work()
    fh.score_inferring(game.row, iw, fw)
    assert (game.row == before).all()


@pytest.mark.parametrize("config", TABLES[:3], ids=lambda c: f"{c.players}p")
def test_choose_lite_scores_the_open_window_gain(config: GameConfig) -> None:
    for state in heuristic_positions(config, 1, seed=90 + config.players):
        game = FastGame.from_state(state, seed=1)
        compiled = fh.heuristic_scores(game, lite=True)
        python = python_scores(state)
        if isinstance(python, int):
            assert compiled == python  # a forced action (R5.1) or a stuck discard (R5.5)
        else:
            assert same_scores(lite_reference(state), compiled), state.turn


@pytest.mark.parametrize("config", TABLES[:3], ids=lambda c: f"{c.players}p")
def test_choose_greedy_scores_every_play_as_the_greedy_bot(config: GameConfig) -> None:
    bot = GreedyBot(seed=0)
    for state in heuristic_positions(config, 1, seed=70 + config.players):
        view = state.view(state.current_seat)
        game = FastGame.from_state(state, seed=1)
        iw, fw = fh.new_work()
        n = int(fh.score_policy(game.row, iw, fw, fh.GREEDY))
        plays = [a for a in view.legal_actions if a < DEAD]
        if forced_action(view) is not None or not plays:  # R5.1 dead card, R5.5 stuck hand
            assert -1 - n == bot.select_action(view), state.turn
            continue
        compiled = {int(iw[fh.I_PLAYS + i]): float(fw[fh.F_SCORES + i]) for i in range(n)}
        python = dict(zip(plays, bot.score_plays(view, Board.of_view(view), plays), strict=True))
        assert same_scores(python, compiled), state.turn


def test_greedy_seats_in_a_heuristic_playout_change_the_game_but_not_the_rules() -> None:
    # every seat the heuristic: the mixed playout is the plain one; greedy opponents make it another
    state = new_game(GameConfig(players=2), seed=12)

    def played(others: int) -> tuple[int, np.ndarray]:
        game = FastGame.from_state(state, seed=1)
        rs = np.array([k.seed_state(5)], dtype=np.uint64)
        iw, fw = fh.new_work()
        return fh.playout_sides_with(game.row, rs, 0, 2000, iw, fw, fh.FULL, 0, others), game.row

    plain = FastGame.from_state(state, seed=1)
    rs = np.array([k.seed_state(5)], dtype=np.uint64)
    winner = fh.heuristic_playout(plain.row, rs, 0, 2000)
    same_winner, same_row = played(fh.FULL)
    assert same_winner == winner
    assert (same_row == plain.row).all()
    greedy_winner, greedy_row = played(fh.GREEDY)
    assert greedy_winner in (-1, 0, 1)
    assert (greedy_row != plain.row).any()


@settings(max_examples=25, deadline=None)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 120),
)
def test_property_compiled_scores_equal_python_scores_after_random_play(
    table: GameConfig, seed: int, turns: int
) -> None:
    """From positions random play reaches (dead cards, jacks, reshuffles the heuristic's own
    games seldom show), the compiled scores still equal the Python ones."""
    state = new_game(table, seed=seed)
    state.playout(random.Random(seed), max_turns=turns)
    if state.is_terminal():
        return
    compiled = fh.heuristic_scores(FastGame.from_state(state, seed=seed))
    assert same_scores(python_scores(state), compiled)
    if table.sides == 2:  # three sides: a removal older than the row's log can hide a hand
        inferring = fh.heuristic_scores(FastGame.from_state(state, seed=seed), inference=True)
        assert same_scores(python_scores(state, True), inferring)


def tuned_params() -> np.ndarray:
    """Other numbers than the defaults (cheaper jacks, a heavier threat term, other reach), so
    that the branch and bound's bounds are tried away from the weights they were tuned on."""
    p = fh.DEFAULT_PARAMS.copy()
    p[fh.P_LINE + 3] *= 1.3
    p[fh.P_BLOCK + 2] *= 0.7
    p[fh.P_TWO_EYED] *= 0.4
    p[fh.P_ONE_EYED] *= 0.5
    p[fh.P_THREAT] *= 1.5
    p[fh.P_REACH + 1] = 0.5
    return p


def pruned_action(
    row: np.ndarray,
    rs: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    params: np.ndarray | None,
    inference: bool,
) -> int:
    if params is None:
        return int(fh.choose_policy_with(row, rs, 0, iw, fw, fh.INFERRING if inference else fh.FULL))
    return int(fh.choose_params_with(row, rs, 0, iw, fw, params, inference))


def same_choice(
    row: np.ndarray,
    rs: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
    params: np.ndarray | None,
    inference: bool,
) -> int:
    """The pruned choice, checked against every play scored (``choose_unpruned_with``, fresh
    scratch arrays): the same action and the same state of the random stream after it."""
    reference_rs = rs.copy()
    ref_iw, ref_fw = fh.new_work()
    expected = int(
        fh.choose_unpruned_with(
            row, reference_rs, 0, ref_iw, ref_fw, fh.DEFAULT_PARAMS if params is None else params, inference
        )
    )
    before = row.copy()
    action = pruned_action(row, rs, iw, fw, params, inference)
    assert (row == before).all()  # the row is put back as it was
    assert action == expected and rs[0] == reference_rs[0], (int(row[k.I_TURN]), action, expected)
    return action


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.players}p{c.sides}s")
def test_the_pruned_choice_is_the_full_scorings_move_for_move(config: GameConfig) -> None:
    """The branch and bound (a jack's play skipped when a bound of its score is below the
    best) and the window tables kept from move to move change no decision: in seeded games,
    each move equals the choice with every play scored and the tables counted afresh, ties
    broken with the same draws, with and without inference and with other numbers than the
    defaults. The scratch arrays are kept over the game, as a rollout keeps them."""
    for g in range(4):
        for params, inference in ((None, True), (None, False), (tuned_params(), True)):
            row = FastGame.new(config, seed=300 + g).row.copy()
            rs = np.array([k.seed_state(g)], dtype=np.uint64)
            iw, fw = fh.new_work()
            while row[k.I_END] == k.END_NONE:
                k.apply(row, rs, 0, same_choice(row, rs, iw, fw, params, inference))


def test_kept_window_tables_follow_a_change_of_game() -> None:
    """Scratch arrays shared by two games played in turns, now one move each, now two of one
    (boards a few cells apart early, many later; sequences declared at different times),
    still choose as fresh ones do."""
    games = [
        FastGame.new(GameConfig(players=2), seed=11).row.copy(),
        FastGame.new(GameConfig(players=4), seed=12).row.copy(),
    ]
    rs = np.array([k.seed_state(4)], dtype=np.uint64)
    iw, fw = fh.new_work()
    for step in range(400):
        row = games[step % 2] if step % 7 else games[(step // 7) % 2]
        if row[k.I_END] != k.END_NONE:
            continue
        k.apply(row, rs, 0, same_choice(row, rs, iw, fw, None, step % 3 > 0))


SHARED_WORK = fh.new_work()
"""Scratch arrays kept from one example to the next."""


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), turns=st.integers(0, 150))
def test_property_pruned_choice_after_random_play(table: GameConfig, seed: int, turns: int) -> None:
    """From positions random play reaches (dead cards, many jacks, reshuffles), with scratch
    arrays last used on another position, the pruned choice is the full scoring's."""
    state = new_game(table, seed=seed)
    state.playout(random.Random(seed), max_turns=turns)
    if state.is_terminal():
        return
    row = FastGame.from_state(state, seed=seed).row
    rs = np.array([k.seed_state(seed)], dtype=np.uint64)
    same_choice(row, rs, *SHARED_WORK, None, table.sides == 2)
    same_choice(row, rs, *SHARED_WORK, tuned_params(), False)


#: ``inferring_playout`` from ``FastGame.new(GameConfig(players=p), seed=s)`` with the random
#: stream ``seed_state(s)``, s = 0..7: (winner, turns), recorded with the kernels before the
#: branch and bound and the kept window tables (commit 15df790), which must not change them.
BEFORE_PRUNING = {
    2: [(0, 40), (0, 35), (0, 42), (0, 39), (1, 65), (0, 76), (1, 80), (1, 32)],
    3: [(2, 95), (0, 42), (2, 39), (2, 58), (1, 41), (2, 33), (1, 21), (2, 49)],
    4: [(0, 32), (0, 48), (1, 48), (0, 49), (0, 45), (0, 56), (0, 65), (0, 37)],
    6: [(0, 42), (1, 48), (1, 60), (0, 53), (0, 41), (0, 58), (1, 64), (0, 41)],
}


@pytest.mark.parametrize("players", sorted(BEFORE_PRUNING))
def test_seeded_rollouts_end_as_before_the_pruning(players: int) -> None:
    for seed, (winner, turns) in enumerate(BEFORE_PRUNING[players]):
        row = FastGame.new(GameConfig(players=players), seed=seed).row.copy()
        rs = np.array([k.seed_state(seed)], dtype=np.uint64)
        assert (fh.inferring_playout(row, rs, 0, 1 << 30), int(row[k.I_TURN])) == (winner, turns)


def winning_plays(state: GameState) -> set[int]:
    """The R5.2 plays that win the game at once (R7.1), found with the pure engine."""
    out = set()
    for a in state.legal_actions():
        if a < DEAD:
            after = state.copy()
            after.apply(a)
            outcome = after.outcome()
            if outcome is not None and outcome.winner == state.current_seat % state.config.sides:
                out.add(a)
    return out


@pytest.mark.parametrize("lite", [False, True], ids=["full", "lite"])
def test_it_wins_when_it_can(lite: bool) -> None:
    found = 0
    for config in TABLES[:3]:
        for state in heuristic_positions(config, 1, seed=5):
            wins = winning_plays(state) if state.turn > 25 else set()
            if wins:
                found += 1
                assert fh.heuristic_action(FastGame.from_state(state), seed=found, lite=lite) in wins
    assert found >= 3


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8, 9, 10, 12])
@pytest.mark.parametrize("lite", [False, True], ids=["full", "lite"])
def test_whole_games_are_played_with_legal_actions(players: int, lite: bool) -> None:
    """Every seat choosing, at every table size: each action is checked by ``FastGame.apply``
    (which raises for an illegal one) and the game ends."""
    game = FastGame.new(GameConfig(players=players), seed=players)
    for step in range(3000):
        if game.is_terminal():
            break
        game.apply(fh.heuristic_action(game, seed=step, lite=lite, inference=step % 2 == 0))
    assert game.is_terminal()


def test_playouts_finish_and_report_the_winner() -> None:
    rs = np.array([k.seed_state(3)], dtype=np.uint64)
    for players in (2, 3, 4, 6):
        for i in range(5):
            game = FastGame.new(GameConfig(players=players), seed=i)
            for playout in (fh.heuristic_playout, fh.lite_playout, fh.inferring_playout):
                row = game.row.copy()
                result = playout(row, rs, 0, 1 << 30)
                assert row[k.I_END] != k.END_NONE
                assert result == row[k.I_WINNER]
    row = FastGame.new(GameConfig(players=2), seed=1).row.copy()
    assert fh.heuristic_playout(row, rs, 0, 5) == -2 and row[k.I_TURN] == 5  # stopped unfinished
    assert fh.choose(row, rs, 0) >= 0


def test_heuristic_playouts_beat_random_ones() -> None:
    """A side playing the compiled heuristic against random play wins nearly every game: a
    check that the policy plays Sequence, not just legal moves."""
    wins = 0
    rs = np.array([k.seed_state(9)], dtype=np.uint64)
    iw, fw = fh.new_work()
    for i in range(20):
        game = FastGame.new(GameConfig(players=2), seed=100 + i)
        row = game.row
        while row[k.I_END] == k.END_NONE:
            smart = row[k.I_SEAT] == i % 2
            k.apply(row, rs, 0, fh.choose_with(row, rs, 0, iw, fw) if smart else k.random_action(row, rs, 0))
        wins += int(row[k.I_WINNER] == i % 2)
    assert wins >= 18


def test_a_dead_card_is_exchanged_first() -> None:
    """R5.1: as ``forced_action``, the lowest dead card goes before any play."""
    two_spades = parse_card("2s")
    state = position(
        GameConfig(players=2), {1: CELLS_OF_CARD[two_spades]}, {0: ["jd", "2s", "js"], 1: ["3s"]}
    )
    expected = forced_action(state.view(0))
    assert expected == DEAD + two_spades
    game = FastGame.from_state(state)
    assert fh.heuristic_action(game) == expected
    assert fh.heuristic_action(game, lite=True) == expected


def test_a_stuck_hand_discards_the_least_useful_card() -> None:
    """R5.5: every space covered, a hand of dead cards (already exchanged this turn) and a
    one-eyed jack with nothing to remove: a dead card goes, the jack is kept."""
    config = GameConfig(players=2)
    cells = cells_of(PLAYABLE)
    state = position(config, {0: cells}, {0: ["js", "5h", "2s"], 1: ["3s"]})
    state.apply(next(a for a in state.legal_actions() if DEAD <= a < DISCARD))
    assert all(a >= DISCARD for a in state.legal_actions())
    expected = HeuristicBot(inference=False).select_action(state.view(0))
    game = FastGame.from_state(state)
    assert fh.heuristic_action(game) == expected == fh.heuristic_action(game, lite=True)


def test_a_finished_game_has_no_action() -> None:
    game = FastGame.new(GameConfig(players=2), seed=2)
    game.playout()
    with pytest.raises(ValueError, match=r"R7\.1"):
        fh.heuristic_action(game)
    rs = np.array([k.seed_state(1)], dtype=np.uint64)
    assert fh.choose(game.row, rs, 0) == -1
    assert fh.heuristic_playout(game.row, rs, 0, 10) == game.row[k.I_WINNER]
