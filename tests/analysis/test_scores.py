"""Luck-adjusted scores of a tournament's pairs (``analysis.scores``, ``sequence tournament --luck``)."""

from __future__ import annotations

import json

import pytest

from sequence_game import GameConfig
from sequence_game.analysis import analyze_record
from sequence_game.analysis.scores import (
    first_bot_sides,
    luck_adjusted_scores,
    mean_interval,
    t_critical,
    weighted_interval,
)
from sequence_game.bots.tournament import run_games, schedule
from sequence_game.cli import main


def test_each_game_gives_the_first_bot_the_adjusted_results_of_its_sides() -> None:
    specs = schedule(["heuristic", "greedy"], GameConfig(players=2), 4, seed=2, record=True)
    results = run_games(specs, workers=1)
    scores = luck_adjusted_scores(specs, results, workers=2)
    expected, weights = [], []
    for spec, result in zip(specs, results, strict=True):
        assert result.record is not None
        side = analyze_record(result.record).sides_summary[spec.bots.index("heuristic")]
        assert side.adjusted_error is not None and side.adjusted_error > 0
        expected.append(side.adjusted)
        weights.append(side.adjusted_error**-2)
    score = scores[("heuristic", "greedy")]
    assert score["games"] == 4
    assert score["mean"] == pytest.approx(sum(expected) / 4)
    low, high = score["ci95"]
    assert low < score["mean"] < high
    # and each game weighed by its inverse squared standard error (2 players)
    weighted = score["weighted"]
    mean = sum(w * v for w, v in zip(weights, expected, strict=True)) / sum(weights)
    assert weighted["mean"] == pytest.approx(mean)
    assert 1.0 <= weighted["effective_games"] <= 4.0


def test_the_weighted_interval() -> None:
    # equal errors: the plain mean and Student's interval
    plain = mean_interval([0.2, 0.9, 0.6, 0.3])
    same = weighted_interval([0.2, 0.9, 0.6, 0.3], [0.1] * 4)
    assert same is not None and same["mean"] == pytest.approx(plain["mean"])
    assert same["ci95"] == pytest.approx(plain["ci95"]) and same["effective_games"] == pytest.approx(4.0)
    # only the errors' ratios matter, and a surer game counts for more
    one = weighted_interval([0.0, 1.0, 0.0], [0.1, 0.2, 0.1])
    scaled = weighted_interval([0.0, 1.0, 0.0], [1.0, 2.0, 1.0])
    assert one is not None and scaled is not None
    assert one["mean"] == pytest.approx(1 / 9)
    assert scaled["mean"] == pytest.approx(one["mean"]) and scaled["ci95"] == pytest.approx(one["ci95"])
    # fewer effective games than games: Student's t on those
    assert one["effective_games"] == pytest.approx(81 / 33)
    # an unknown error (3 or more players): no weighted figure
    assert weighted_interval([0.0, 1.0], [0.1, None]) is None
    lone = weighted_interval([0.7], [0.1])
    assert lone is not None and lone["ci95"] is None


def test_the_first_bot_may_play_two_sides_of_three() -> None:
    specs = schedule(["heuristic", "greedy"], GameConfig(players=3), 6, seed=0)
    sides = [first_bot_sides(spec) for spec in specs]
    assert sorted(len(s) for s in sides) == [1, 1, 1, 2, 2, 2]
    for spec, played in zip(specs, sides, strict=True):
        assert all(spec.bots[side] == "heuristic" for side in played)
    four = schedule(["heuristic", "greedy"], GameConfig(players=4, teams=2), 2, seed=0)
    assert {first_bot_sides(spec) for spec in four} == {(0,), (1,)}  # seats 0 and 2 are side 0


def test_a_game_without_its_record_is_refused() -> None:
    specs = schedule(["greedy", "random"], GameConfig(players=2), 2, seed=0)
    with pytest.raises(ValueError, match="without its record"):
        luck_adjusted_scores(specs, run_games(specs, workers=1))


def test_the_interval_is_students() -> None:
    assert t_critical(1) == 12.706 and t_critical(3) == 3.182
    for df, exact in ((4, 2.7764), (9, 2.2622), (49, 2.0096), (1000, 1.9623)):
        assert t_critical(df) == pytest.approx(exact, abs=0.008)
    assert mean_interval([0.5])["ci95"] is None
    low, high = mean_interval([0.0, 1.0, 1.0, 0.0])["ci95"]
    assert (low + high) / 2 == pytest.approx(0.5)
    assert high - 0.5 == pytest.approx(3.182 * (1 / 3) ** 0.5 / 2, rel=1e-3)


def test_tournament_luck_reports_each_pair(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--bots", "heuristic,greedy", "--games", "2", "--workers", "1", "--seed", "4"]
    assert main([*args, "--luck", "--json", "--quiet"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert pair["luck_adjusted"]["games"] == 2
    assert main([*args, "--luck", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "luck-adjusted score of the first" in text
    assert "each game weighed by how surely" in text
    assert main([*args, "--quiet"]) == 0
    assert "luck-adjusted" not in capsys.readouterr().out


def test_tournament_luck_without_numpy_stops_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sequence_game.commands import tournament

    monkeypatch.setattr(tournament, "find_spec", lambda name: None)
    with pytest.raises(SystemExit, match="--luck needs NumPy"):
        main(["tournament", "--bots", "greedy,random", "--games", "2", "--luck", "--quiet"])
