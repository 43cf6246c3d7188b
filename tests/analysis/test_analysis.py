"""Post-game analysis on the evaluator (docs/analysis.md): labels on constructed positions, luck on
a constructed draw, the side accounts over a whole game, the ranked alternatives, labels that
reproduce, skill that shows, and the ``sequence analyze`` command."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sequence_game import GameConfig, GameState, new_game, parse_action
from sequence_game.actions import action_name_for
from sequence_game.analysis import (
    BLUNDER,
    MISSED,
    MISTAKE,
    AnalysisError,
    Budget,
    analyze_record,
    blocking_plays,
    format_text,
    winning_plays,
)
from sequence_game.analysis.game import (
    ERROR_FLOOR,
    ERROR_SLOPE,
    adjusted_error,
    analyse_move,
    label_of,
    move_accuracy,
    steps,
)
from sequence_game.board import LINES, parse_cell
from sequence_game.bots import make_bot
from sequence_game.cards import FULL_DECK, card_name
from sequence_game.cli import main
from sequence_game.records import write_record
from sequence_game.testing import position

FAST = Budget()
"""The budget no longer changes the work: the evaluator judges every legal play over every draw."""


def window(*names: str) -> int:
    mask = sum(1 << parse_cell(n) for n in names)
    return next(w for w, m in enumerate(LINES) if m == mask)


SEQ_BLUE = window("a9", "b9", "c9", "d9", "e9")  # side 0's completed sequence (row 9)
SEQ_GREEN = window("a0", "b0", "c0", "d0", "e0")  # side 1's (row 0)
GREEN_HAND = ["9s", "9c", "4s", "7s", "kd", "ac", "tc"]


def deck_with_top(hands: dict[int, list[str]], top: list[str]) -> list[str]:
    """The draw pile for ``position``: ``top`` first, then every other card not in a hand."""
    rest = Counter(card_name(c) for c in FULL_DECK)
    rest.subtract(c for h in hands.values() for c in h)
    rest.subtract(top)
    return top + sorted(rest.elements())


def threatened_position() -> GameState:
    """Both sides have one sequence (two win, R7.1). Green has three winning fours that share the
    chip on d5 (a5-d5 missing e5; d3-d6 missing d2 or d7); blue holds the one-eyed jack that
    removes d5 and so blocks all three (R1.3), and nothing that wins."""
    return position(
        GameConfig(players=2),
        chips={
            0: ["b9", "c9", "d9", "e9", "f7", "g7", "h7"],
            1: ["b0", "c0", "d0", "e0", "a5", "b5", "c5", "d5", "d3", "d4", "d6"],
        },
        hands={0: ["js", "kc", "8s", "6s", "4d", "5d", "7d"], 1: GREEN_HAND},
        sequences={0: [SEQ_BLUE], 1: [SEQ_GREEN]},
        seat=0,
    )


def winning_position() -> GameState:
    """Blue can win now with 5h on e4 (a4-d4 and its sequence); green threatens to win on e5, which
    blue's 2h would block."""
    return position(
        GameConfig(players=2),
        chips={
            0: ["b9", "c9", "d9", "e9", "a4", "b4", "c4", "d4"],
            1: ["b0", "c0", "d0", "e0", "a5", "b5", "c5", "d5"],
        },
        hands={0: ["2h", "5h", "kc", "8s", "6s", "4d", "3c"], 1: GREEN_HAND},
        sequences={0: [SEQ_BLUE], 1: [SEQ_GREEN]},
        seat=0,
    )


def test_leaving_a_winning_four_unblocked_with_a_block_in_hand_is_a_missed_block() -> None:
    """The label's logic: a loss of at least ``MISSED`` that leaves the other side's winning fours
    open, with a block in hand, is a missed block; the block itself never is."""
    state = threatened_position()
    view = state.view(0)
    assert [state.action_name(a) for a in blocking_plays(view)] == ["js@d5"]
    assert label_of(view, parse_action("kc@a7"), MISSED) == "missed block"
    assert label_of(view, parse_action("kc@a7"), MISSED - 0.001) is None
    assert label_of(view, parse_action("js@d5"), MISSED) == "mistake"
    # judged by the evaluator: the block is among the plays judged, and the figures hold together
    bad = analyse_move(state, parse_action("kc@a7"), budget=Budget(alternatives=200))
    judged = {a.move: a.chance for a in bad.alternatives}
    assert "js@d5" in judged and judged["kc@a7"] == bad.after
    assert bad.before == max(judged.values()) and bad.loss == pytest.approx(bad.before - bad.after)
    checked = bad.checked_loss if bad.checked_loss is not None else bad.loss  # rollouts check labels
    assert bad.label == label_of(view, parse_action("kc@a7"), checked)


def test_a_missed_winning_play_is_a_missed_win() -> None:
    """A win is worth exactly 1: a play that gives it up for nothing is a missed win; blocking the
    other side's four while the win stays in hand for the next turn costs less than ``MISSED``,
    and is not labelled (docs/analysis.md: the labels are about chances lost)."""
    state = winning_position()
    assert [state.action_name(a) for a in winning_plays(state.view(0))] == ["5h@e4"]
    m = analyse_move(winning_position(), parse_action("kc@e7"), budget=FAST)
    assert m.label == "missed win", m
    assert m.before == 1.0 and m.loss >= MISSED  # a win is worth exactly 1, no estimate
    assert m.best == "5h@e4" and m.alternatives[0].move == "5h@e4"
    block = analyse_move(winning_position(), parse_action("2h@e5"), budget=FAST)
    assert block.before == 1.0 and block.after > m.after
    assert block.label == ("missed win" if block.loss >= MISSED else None)
    win = analyse_move(winning_position(), parse_action("5h@e4"), budget=FAST)
    assert (win.before, win.after, win.loss, win.label, win.drawn) == (1.0, 1.0, 0.0, None, None)


def test_labels_follow_the_documented_thresholds() -> None:
    state = new_game(GameConfig(players=2), seed=1)
    view = state.view(state.current_seat)  # no win, no threat on an empty board
    act = view.legal_actions[0]
    assert label_of(view, act, MISTAKE - 0.001) is None
    assert label_of(view, act, MISTAKE) == "mistake"
    assert label_of(view, act, BLUNDER) == "blunder"
    # a missed win below the threshold is no label at all (the win was still coming)
    state = winning_position()
    assert label_of(state.view(0), parse_action("kc@e7"), MISSED - 0.001) is None
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.10) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(1.0) == 0.0


def test_a_lucky_draw_is_worth_more_than_a_blank_one() -> None:
    """Blue has a sequence and a four it cannot fill from its hand: drawing a two-eyed jack (which
    fills it next turn, R1.3) is luck; drawing a card of no use is not."""
    hands = {0: ["8s", "6s", "4d", "3c", "kc", "9d", "2d"], 1: GREEN_HAND}
    chips = {0: ["b9", "c9", "d9", "e9", "a4", "b4", "c4", "d4"], 1: ["b0", "c0", "d0", "e0", "f1"]}

    def after_drawing(card: str) -> Any:
        state = position(
            GameConfig(players=2),
            chips=chips,
            hands=hands,
            sequences={0: [SEQ_BLUE], 1: [SEQ_GREEN]},
            deck=deck_with_top(hands, [card]),
            seat=0,
        )
        return analyse_move(state, parse_action("8s@b7"), budget=FAST)

    lucky, blank = after_drawing("jd"), after_drawing("2c")
    assert lucky.drawn == "jd" and blank.drawn == "2c"
    assert lucky.after == blank.after  # the same decision from the same view
    assert lucky.luck > 0.1 and lucky.luck > blank.luck + 0.1
    assert lucky.after_draw == pytest.approx(lucky.after + lucky.hidden + lucky.luck)


def test_luck_is_measured_against_the_pile_the_card_came_from() -> None:
    """A draw from a pile that holds only copies of one card is no luck, however good the card
    (R5.4): what the mover could not tell from the pile, that no other card was left in it, is
    ``hidden``, not luck. A jack-keeper's opponent otherwise counts the keeper's jacks among its
    possible draws and looks unlucky (docs/analysis.md, "Luck")."""
    hands = {0: ["8s", "6s", "4d", "3c", "kc", "9d", "2d"], 1: GREEN_HAND}
    chips = {0: ["b9", "c9", "d9", "e9", "a4", "b4", "c4", "d4"], 1: ["b0", "c0", "d0", "e0", "f1"]}
    state = position(
        GameConfig(players=2),
        chips=chips,
        hands=hands,
        sequences={0: [SEQ_BLUE], 1: [SEQ_GREEN]},
        deck=deck_with_top(hands, ["jd"]),
        seat=0,
    )
    jack = next(c for c in state._deck if card_name(c) == "jd")
    state._deck = [c for c in state._deck if c == jack]  # the pile: the drawn card's copies only
    move = analyse_move(state, parse_action("8s@b7"), budget=FAST)
    assert move.drawn == "jd"
    assert move.luck == pytest.approx(0.0, abs=1e-9)
    assert move.hidden > 0.1  # a two-eyed jack was certain, not one chance in dozens
    assert move.after_draw == pytest.approx(move.after + move.hidden)


def played_record(seed: int = 5, bots: tuple[str, str] = ("greedy", "random")) -> dict[str, Any]:
    state = new_game(GameConfig(players=2), seed=seed)
    players = [make_bot(bots[0], seed=1), make_bot(bots[1], seed=2)]
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(players[seat].select_action(state.view(seat)), seat)
    return write_record(state)


@pytest.fixture(scope="module")
def whole_game() -> Any:
    return analyze_record(played_record())


def test_the_luck_and_the_decisions_add_up_over_a_whole_game(whole_game: Any) -> None:
    analysis = whole_game
    assert analysis.over and analysis.winner is not None
    for m in analysis.moves:
        assert 0.0 <= m.after <= m.before <= 1.0
        assert m.loss == pytest.approx(m.before - m.after)
        assert m.after_draw == pytest.approx(m.before - m.loss + m.hidden + m.luck)
        if m.drawn is None:
            assert m.luck == 0.0 and m.after_draw == m.after
    for side in analysis.sides_summary:
        moves = [m for m in analysis.moves if m.side == side.side]
        assert side.luck == pytest.approx(sum(m.luck for m in moves))
        assert side.decisions == pytest.approx(-sum(m.loss for m in moves))
        assert side.start == moves[0].before
        assert side.result == (1.0 if side.side == analysis.winner else 0.0)
        assert side.start + side.decisions + side.luck + side.others == pytest.approx(side.result)
        others = sum(m.luck for m in analysis.moves if m.side != side.side)
        assert side.luck_against == pytest.approx(others)
        # at 2 players the luck taken out is judged with both hands known: the deal and each draw
        assert side.luck_known == pytest.approx(sum(m.luck_known or 0.0 for m in moves))
        against = sum(m.luck_known or 0.0 for m in analysis.moves if m.side != side.side)
        assert side.luck_known_against == pytest.approx(against)
        assert side.deal_known is not None and -0.5 < side.deal_known < 0.5
        assert side.adjusted == pytest.approx(side.result - side.deal_known - side.luck_known + against)
        gains = [  # what the decisions added: the chance after each less the mover's just before it
            m.after - prev.chances[m.seat]
            for prev, m in pairwise(analysis.moves)
            if m.side == side.side and m.decision
        ]
        assert side.added == pytest.approx(sum(gains) / len(gains))
    # with average luck the results still share one game: the adjusted results sum to 1
    assert sum(s.adjusted for s in analysis.sides_summary) == pytest.approx(1.0)
    assert sum(s.deal_known or 0.0 for s in analysis.sides_summary) == pytest.approx(0.0)
    drawn = [m for m in analysis.moves if m.drawn is not None]
    assert drawn and all(m.luck_known is not None for m in drawn)
    assert all(m.luck_known is None for m in analysis.moves if m.drawn is None)
    assert sum(s.moves for s in analysis.sides_summary) == len(analysis.moves)
    assert analysis.moves[-1].drawn is None  # the winning play ends the game before any draw


def test_what_each_move_changed_with_every_hand_known_adds_up_to_the_adjusted_result(whole_game: Any) -> None:
    analysis = whole_game
    assert all(m.decision_known is not None for m in analysis.moves)
    # the winning play took its mover's chance to the result: 1 less the chance before it
    last = analysis.moves[-1]
    assert last.decision_known is not None and 0.0 <= last.decision_known <= 1.0
    squares = sum((m.decision_known or 0.0) ** 2 for m in analysis.moves)
    for side in analysis.sides_summary:
        own = sum(m.decision_known or 0.0 for m in analysis.moves if m.side == side.side)
        other = sum(m.decision_known or 0.0 for m in analysis.moves if m.side != side.side)
        # the deal and every draw's luck out, what is left is what the moves changed
        assert side.adjusted == pytest.approx(0.5 + own - other)
        assert side.adjusted_error == pytest.approx(0.5 * (ERROR_FLOOR + ERROR_SLOPE * squares) ** 0.5)
    assert adjusted_error([]) == pytest.approx(0.5 * ERROR_FLOOR**0.5)
    assert adjusted_error([0.1, -0.2]) > adjusted_error([0.1])


def test_every_action_of_the_record_is_analysed_in_order(whole_game: Any) -> None:
    record = played_record()
    indices = [i for i, a in enumerate(record["actions"]) if "seat" in a]
    assert [m.index for m in whole_game.moves] == indices
    names = [m.move for m in whole_game.moves]
    assert names[0] == f"{record['actions'][0]['card']}@" + names[0].split("@")[1]


def test_the_same_record_gets_the_same_figures_and_labels_whatever_the_seed() -> None:
    """The evaluator is deterministic: labels reproduce by construction (issue 39's goal), and the
    old ``seed`` and budget no longer change anything."""
    record = played_record(seed=7)
    one = analyze_record(record, Budget(), seed=0).to_json()
    two = analyze_record(record, Budget(seconds=0.5, samples=3, total=None), seed=1).to_json()
    for out in (one, two):
        out.pop("seconds"), out.pop("budget")
    assert one == two
    labelled = [(m["index"], m["label"]) for m in one["moves"] if m["label"]]
    assert labelled == [(m["index"], m["label"]) for m in two["moves"] if m["label"]]


def test_every_decision_lists_legal_plays_ranked_by_chance(whole_game: Any) -> None:
    """The alternatives are legal plays of the mover, best first; the first is ``best`` and its
    chance is ``before``; the actual play, when listed, has the chance ``after``."""
    _, _, walk = steps(played_record())
    for m, step in zip(whole_game.moves, walk, strict=True):
        if not m.decision:
            assert m.alternatives == [] and m.best is None
            continue
        view = step.state.view(step.seat)
        legal = {action_name_for(a, view.hand) for a in view.legal_actions}
        names = [a.move for a in m.alternatives]
        chances = [a.chance for a in m.alternatives]
        assert len(names) == min(3, len(legal)) and len(set(names)) == len(names)
        assert set(names) <= legal, (names, legal)
        assert chances == sorted(chances, reverse=True)
        assert names[0] == m.best and chances[0] == m.before == m.best_chance
        if m.move in names:
            assert chances[names.index(m.move)] == m.after
        assert m.evaluated >= len(legal)  # every legal play judged, over its draws


def test_the_curve_and_each_seats_own_view(whole_game: Any) -> None:
    """``ahead`` is side 0's chance (its seats' own views); ``chances`` each seat's own view."""
    for m in whole_game.moves:
        assert len(m.chances) == whole_game.players and all(0.0 <= c <= 1.0 for c in m.chances)
        assert m.ahead == m.chances[0]  # two players: side 0 is seat 0
        assert m.chances[m.seat] == pytest.approx(m.after_draw)
    assert whole_game.moves[-1].ahead == (1.0 if whole_game.winner == 0 else 0.0)


def _bot_game(bots: tuple[str, str], seed: int) -> dict[str, Any]:
    state = new_game(GameConfig(players=2), seed=seed)
    players = [make_bot(bots[0], seed=seed), make_bot(bots[1], seed=seed + 1)]
    while not state.is_terminal():
        seat = state.current_seat
        state.apply(players[seat].select_action(state.view(seat)), seat)
    return write_record(state)


def test_skill_shows_in_the_luck_adjusted_result() -> None:
    """The figures that show skill (docs/analysis.md, "Skill shows"): each draw's luck has mean
    zero whatever the players do, so taking it from the result keeps the result's mean and removes
    much of its noise; and what the decisions added against `hard`'s (their chance after the play
    less the chance before it, a jack play net of its cost) is higher for the better player. On 20
    deals of ``heuristic`` against ``greedy``, seats swapped, the heuristic comes out ahead on both,
    and the luck-adjusted result spreads less than the result (1,200 games, every hand known:
    0.60 against 0.96 a game)."""
    adjusted: list[float] = []
    results: list[float] = []
    added: list[float] = []
    errors: list[float] = []
    for seed in range(20):
        for bots in (("heuristic", "greedy"), ("greedy", "heuristic")):
            sides = analyze_record(_bot_game(bots, 500 + seed)).sides_summary
            h = bots.index("heuristic")
            error = sides[h].adjusted_error
            assert error is not None and error == sides[1 - h].adjusted_error  # one game, one error
            errors.append(error)
            adjusted.append(sides[h].adjusted - sides[1 - h].adjusted)
            results.append(sides[h].result - sides[1 - h].result)
            mine, theirs = sides[h].added, sides[1 - h].added
            assert mine is not None and theirs is not None
            added.append(mine - theirs)
    assert np.mean(adjusted) > 0.0, adjusted
    assert np.std(adjusted) < 0.85 * np.std(results), (np.std(adjusted), np.std(results))
    assert np.mean(added) > 0.0, added
    # each game's standard error is larger where its luck-adjusted result strays further
    # (docs/analysis.md, "Each game's uncertainty"), and the weighted mean keeps the heuristic ahead
    far = np.square(adjusted)
    above = np.array(errors) > np.median(errors)
    assert far[above].mean() > far[~above].mean()
    weights = 1.0 / np.square(errors)
    assert np.dot(weights, adjusted) / weights.sum() > 0.0


def test_bad_records_are_refused() -> None:
    with pytest.raises(AnalysisError, match="malformed"):
        analyze_record(b"{}")
    record = played_record()
    record["actions"][0]["seat"] = 1 - record["actions"][0]["seat"]
    with pytest.raises(AnalysisError, match="illegal action 0"):
        analyze_record(record)


def test_text_json_and_chart(whole_game: Any, tmp_path: Path) -> None:
    from sequence_game.analysis.chart import write_chart

    text = format_text(whole_game)
    assert "largest swings" in text and "side 0: accuracy" in text and "luck-adjusted result" in text
    assert "every hand known" in text  # 2 players: the deal and the draws judged with both hands
    assert "±" in text  # ... and the luck-adjusted result's standard error
    decision = next(m for m in whole_game.moves if m.decision)
    assert f"best: {decision.alternatives[0].move}" in text
    data = json.loads(json.dumps(whole_game.to_json()))
    assert len(data["moves"]) == len(whole_game.moves) and data["thresholds"]["blunder"] == BLUNDER
    first = next(m for m in data["moves"] if m["decision"])
    assert {"move", "chance"} == set(first["alternatives"][0]) and "ahead" in first and "chances" in first
    assert data["evaluator"]["assumes"] and data["curve"] == {"side": 0, "field": "ahead"}
    assert {"adjusted", "luck_against"} <= set(data["summary"][0])
    png = tmp_path / "chances.png"
    write_chart(whole_game, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_analyze_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = played_record()
    record["actions"] = record["actions"][:4]
    del record["result"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    # the rollouts' options are still accepted, with no effect
    argv = [
        "analyze",
        str(path),
        "--seconds",
        "0",
        "--samples",
        "2",
        "--bot",
        "heuristic",
        "--seed",
        "3",
        "--quiet",
    ]
    assert main([*argv, "--json", "--chart", str(tmp_path / "c.png"), "--alternatives", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["index"] for m in out["moves"]] == [0, 1, 2, 3]
    assert all(len(m["alternatives"]) == 4 for m in out["moves"] if m["decision"])
    assert (tmp_path / "c.png").exists()
    assert main(argv) == 0
    assert "game not over" in capsys.readouterr().out
    path.write_text("[]")
    assert main(argv) == 2
    assert "cannot analyse" in capsys.readouterr().err
    assert main([*argv[:2], "--samples", "0"]) == 2
    assert main([*argv[:2], "--alternatives", "0"]) == 2
    path.write_text(json.dumps(record))
    assert main([*argv[:2], "--evaluator", str(tmp_path / "none.npz")]) == 2
    assert "evaluator's weights" in capsys.readouterr().err


def test_manual_draws_three_sides_and_a_table_talk_fine_are_analysed() -> None:
    """Every kind of action: plays, owed draws (R5.3) with their luck, a fine's discards (R6.1)."""
    for config in (GameConfig(players=3, draw="manual"), GameConfig(players=4)):
        state = new_game(config, seed=2)
        bots = [make_bot("greedy", seed=i) for i in range(config.players)]
        for n in range(16):
            if n == 6 and config.team_size >= 2:
                state.call_table_talk(0)
            seat = state.current_seat
            state.apply(bots[seat].select_action(state.view(seat)), seat)
        record = write_record(state)
        analysis = analyze_record(record)
        seats = [i for i, a in enumerate(record["actions"]) if "seat" in a]
        assert [m.index for m in analysis.moves] == seats
        kinds = {m.move.split()[0] for m in analysis.moves}
        if config.draw == "manual":
            assert "draw" in kinds
            assert all(m.drawn is not None and not m.decision for m in analysis.moves if m.move == "draw")
        else:
            assert "discard" in kinds  # the fine
        assert len(analysis.sides_summary) == config.sides
        # the whole-position judge knows 2-player tables only: luck from the drawers' views here
        assert all(m.luck_known is None and m.decision_known is None for m in analysis.moves)
        for s in analysis.sides_summary:
            assert s.luck_known is None and s.deal_known is None and s.adjusted_error is None
            assert s.adjusted == pytest.approx(s.result - s.luck + s.luck_against)
        for m in analysis.moves:
            assert 0.0 <= m.after <= m.before <= 1.0 and len(m.chances) == config.players
            side0 = [c for s, c in enumerate(m.chances) if s % config.sides == 0]
            assert m.ahead == pytest.approx(sum(side0) / len(side0))


@pytest.mark.parametrize(
    "config",
    [GameConfig(players=2), GameConfig(players=3), GameConfig(players=4, teams=2)],
    ids=["2p", "3p", "4p"],
)
def test_the_judges_batch_is_the_straightforward_rows(config: GameConfig) -> None:
    """``analysis.judge`` gives the evaluator every play's view once and each draw as a card added
    to it (``features.position.draw_features``); its rows, and so its chances, must be those of
    one full view per (play, draw), read with the features as first written."""
    from sequence_game.analysis.judge import judge
    from sequence_game.evaluator.model import Evaluator
    from sequence_game.evaluator.moves import Batch, apply_play, over_draws
    from sequence_game.features.position import unseen_cards, with_hand

    from ..features.reference import reference_features

    evaluator = Evaluator.load()
    state = new_game(config, seed=3)
    bot = make_bot("greedy", seed=1)
    for turn in range(40):
        if state.is_terminal():
            break
        seat = state.current_seat
        action = bot.select_action(state.view(seat))
        if turn % 8 == 5:
            batch, rows, weights = Batch(), [], []
            for legal in state.legal_actions(seat):
                play = apply_play(state, seat, legal, None)
                group = over_draws(batch, play)
                if play.parts is not None and play.drew:
                    kept = with_hand(play.parts, play.kept)
                    copies = unseen_cards(kept)
                    rows += [with_hand(play.parts, [*play.kept, c]) for c, n in enumerate(copies) if n]
                    weights.append(([float(n) for n in copies if n], group))
            assert batch.rows == len(rows) and np.array_equal(batch.features(), reference_features(rows))
            values, raw, start = batch.solve(evaluator), evaluator.chances_of_features(batch.features()), 0
            for w, group in weights:
                assert values[group] == pytest.approx(
                    np.dot(raw[start : start + len(w)], w) / sum(w), abs=1e-12
                )
                start += len(w)
            after = state.copy()
            after.apply(action, seat)
            judged = judge(state, seat, action, None, after, evaluator, decision=True)
            # and the actual play once more over the cards really in the pile (its luck's average)
            drew = len(after.hand(seat)) == len(state.hand(seat))
            pile = len(set(state._deck)) if drew else 0
            assert judged.evaluated == batch.rows + pile + 1 + config.players
        state.apply(action, seat)
