"""Bot specs: ``name(option=value, ...)`` on the command line, checked before any game starts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.actions import REMOVE, WILD
from sequence_game.bots import HeuristicBot, MCTSBot, level_spec, make_bot
from sequence_game.bots.evaluation import Weights
from sequence_game.bots.heuristic import HEURISTIC
from sequence_game.bots.specs import BotSpec, parse_bot_spec, split_bot_list
from sequence_game.cards import TWO_EYED
from sequence_game.cli import main
from sequence_game.records import replay


def test_a_list_splits_at_the_commas_outside_parentheses() -> None:
    text = "greedy, heuristic(jack_costs=(300, 400), weights={'centre': 0}) ,mcts(width=8),"
    assert split_bot_list(text) == [
        "greedy",
        "heuristic(jack_costs=(300, 400), weights={'centre': 0})",
        "mcts(width=8)",
    ]
    for bad in ("mcts(width=8", "mcts)width=8(", "heuristic(jack_costs=(1, 2)"):
        with pytest.raises(ValueError, match="unbalanced"):
            split_bot_list(bad)


def test_names_levels_and_options() -> None:
    assert parse_bot_spec("greedy") == BotSpec("greedy")
    assert parse_bot_spec(" Hard ") == BotSpec("heuristic")
    spec = parse_bot_spec("mcts( width = 8, confidence=1 )")
    assert spec == BotSpec("mcts", {"width": 8, "confidence": 1.0})
    assert isinstance(spec.options["confidence"], float)
    assert spec.label == "mcts(width=8, confidence=1)"
    assert parse_bot_spec("mcts()").label == "mcts"
    # a level is the spec this installation plays there; options written after it override its own
    expert = parse_bot_spec("expert")
    assert expert == parse_bot_spec(level_spec("expert"))
    assert parse_bot_spec("expert(width=8)").options == {**expert.options, "width": 8}
    assert parse_bot_spec("mcts(candidate_costs=None)").options == {"candidate_costs": None}
    weights = parse_bot_spec("heuristic(weights={'block': (0, 1, 5, 20, 200, 0)})").options["weights"]
    assert weights == Weights(
        line=HEURISTIC.line, block=(0.0, 1.0, 5.0, 20.0, 200.0, 0.0), centre=HEURISTIC.centre
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("grandmaster", "unknown bot or level 'grandmaster'"),
        ("", "not a bot spec"),
        ("9lives", "not a bot spec"),
        ("random(x=1)", "random takes no options"),
        ("mcts(widht=8)", "mcts has no option 'widht'; its options: exploration, temperature"),
        ("mcts(evaluator=None)", "has no option 'evaluator'"),  # not a plain value: code only
        ("mcts(8)", "key=value"),
        ("mcts(width=8, width=9)", "width is given twice"),
        ("mcts(width='8')", "width must be a whole number"),
        ("mcts(width=True)", "width must be a whole number"),
        ("mcts(paired=1)", "paired must be True or False"),
        ("mcts(confidence='high')", "confidence must be a number"),
        ("mcts(width=__import__('os'))", "must be a literal value"),
        ("heuristic(jack_costs=(300,))", "jack_costs must be 2 numbers"),
        ("heuristic(weights={'lines': (1,)})", "weights must be a dict with some of the keys line, block"),
        ("heuristic(weights={'line': (1, 2)})", "line must be 6 numbers"),
        ("mcts(width=" + "(" * 500 + ")" * 500 + ")", "cannot read"),
    ],
)
def test_a_bad_spec_is_refused_with_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_bot_spec(text)
    with pytest.raises(ValueError):
        make_bot(text)


@pytest.mark.parametrize(
    "text", ["mcts(width=0)", "mcts(plies=-1)", "mcts(confidence=nan)", "mcts(temperature=0)"]
)
def test_out_of_range_options_are_refused_by_the_bot(text: str) -> None:
    # nan is not a literal: refused by the parser; the others by MCTSBot itself
    with pytest.raises(ValueError, match="mcts"):
        make_bot(text)


def test_options_reach_the_bot() -> None:
    bot = make_bot("mcts(width=8, plies=20, confidence=1.5)", seed=1)
    assert isinstance(bot, MCTSBot)
    assert (bot.width, bot.confidence) == (8, 1.5)
    assert bot.evaluator.plies == 20  # type: ignore[attr-defined]
    heuristic = make_bot("hard(jack_costs=(0, 0), threat_weight=0.5, reach=(1, 1, 1))", seed=1)
    assert isinstance(heuristic, HeuristicBot)
    assert (heuristic.jack_costs, heuristic.threat_weight, heuristic.reach) == (
        (0.0, 0.0),
        0.5,
        (1.0, 1.0, 1.0),
    )


def test_free_jacks_change_the_heuristics_play() -> None:
    """With jacks costing nothing, the heuristic spends a two-eyed jack where the tuned one keeps
    it: the option changes play, not only an attribute."""
    tuned, free = make_bot("heuristic", seed=1), make_bot("heuristic(jack_costs=(0, 0))", seed=1)
    for seed in range(200):
        state = new_game(GameConfig(players=2), seed=seed)
        seat = state.current_seat
        if not any(card in TWO_EYED for card in state.hand(seat)):
            continue
        view = state.view(seat)
        kept, spent = tuned.select_action(view), free.select_action(view)
        if WILD <= spent < REMOVE:
            assert not WILD <= kept < REMOVE
            return
    pytest.fail("no opening hand in 200 deals where a free two-eyed jack is worth playing")


def test_a_tournament_between_variants_of_one_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = "greedy(weights={'block': (0, 1, 3, 9, 60, 0)})"
    args = ["--bots", f"greedy,{variant}", "--games", "2", "--seed", "2", "--workers", "2"]
    code = main(["tournament", *args, "--json", "--quiet", "--records", str(tmp_path)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pairs"][0]["bots"] == ["greedy", variant]
    assert set(out["ratings"]) == {"greedy", variant}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    for path in files:
        assert "(" not in path.name and "'" not in path.name and " " not in path.name
        assert replay(path.read_text()).ok


@pytest.mark.parametrize(
    "bots, message",
    [
        ("greedy,mcts(widht=8)", "mcts has no option 'widht'"),
        ("greedy,heuristic(jack_costs=(1, 2)", "unbalanced parentheses"),
        ("greedy,mcts(width=0)", "mcts: width must be at least 1, not 0"),
    ],
)
def test_the_tournament_refuses_a_bad_spec_before_playing(bots: str, message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--bots", bots, "--quiet"])
    assert message in str(exc.value)
