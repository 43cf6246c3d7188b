"""The bot levels' fixed ratings at 3 sides (``scripts/bot_league.py``): its Plackett-Luce fit
recovers known strengths, its games repeat from their seeds, and the server reads the shipped
anchors for ``3p`` and ``3t``."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from sequence_game.server.ratings import bot_anchors, plays_like

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bot_league.py"


@pytest.fixture(scope="module")
def league() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_league", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_league"] = module
    spec.loader.exec_module(module)
    return module


def test_the_fit_recovers_known_strengths(league: ModuleType) -> None:
    rng = np.random.default_rng(7)
    names = ["a", "b", "c", "d"]
    true = np.array([0.0, 1.5, 2.0, -0.5])
    games: list[tuple[list[str], str | None]] = []
    for n in range(6000):
        # three of the four a game (every subset), so the fit must combine different tables
        players = [names[i] for i in range(4) if i != n % 4]
        t = true[[names.index(p) for p in players]]
        p = np.exp(t) / np.exp(t).sum()
        games.append((players, players[rng.choice(len(players), p=p)]))
    games.append((names[:3], None))  # a game nobody won counts as a shared win
    strengths, errors = league.plackett_luce_winners(names, games)
    assert strengths["a"] == 0.0 and errors["a"] == 0.0
    for i, name in enumerate(names[1:], 1):
        assert 0.02 < errors[name] < 0.15
        assert abs(strengths[name] - true[i]) < 4 * errors[name], (name, strengths[name], true[i])


def test_a_level_that_never_wins_stays_finite(league: ModuleType) -> None:
    games = [(["random", "greedy", "hard"], "hard")] * 50 + [(["random", "greedy", "hard"], "greedy")] * 50
    strengths, _errors = league.plackett_luce_winners(["random", "greedy", "hard"], games)
    assert math.isfinite(strengths["greedy"]) and strengths["greedy"] > 3
    assert abs(strengths["greedy"] - strengths["hard"]) < 1e-6
    # equal wins, one virtual game shared three ways: greedy's chance 50.33/101 against random's 0.33/101
    assert strengths["greedy"] == pytest.approx(math.log(50 + 1 / 3) - math.log(1 / 3), abs=1e-5)


def test_the_scale_is_the_ladders_at_two_sides_and_openskills_at_three(league: ModuleType) -> None:
    two = league.to_openskill({"x": 0.0, "y": 1.0}, {"x": 0.0, "y": 0.1}, 2, "x")
    assert two["x"]["mu"] == 25.0
    d = two["y"]["mu"] - 25.0
    # the ladder's Bradley-Terry scale: 1 / (1 + exp(-d / (sqrt(2) beta))), beta = 25/6
    assert 1 / (1 + math.exp(-d / (math.sqrt(2) * 25 / 6))) == pytest.approx(1 / (1 + math.exp(-1.0)))
    three = league.to_openskill({"x": 0.5, "y": 1.5}, {"x": 0.0, "y": 0.1}, 3, "x")
    assert three["y"]["mu"] - 25.0 == pytest.approx(math.sqrt(3) * 25 / 6)
    assert three["y"]["sigma"] == pytest.approx(0.1 * math.sqrt(3) * 25 / 6)


def test_a_small_league_repeats_from_its_seed(league: ModuleType, tmp_path: Path) -> None:
    args = ["--games", "6", "--seed", "5", "--table", "3-teams", "--out", str(tmp_path / "a.json")]
    assert league.main(args) == 0
    first = json.loads((tmp_path / "a.json").read_text())
    assert first["games_per_table"] == 6 and first["scores"]["3-teams"]["games"] == 6
    assert set(first["ratings"]["3-teams"]) == {"random", "greedy", "hard"}
    log = (tmp_path / "a.games.jsonl").read_text().splitlines()
    assert len(log) == 6  # every seating of the three levels on deal 0
    assert league.main(args) == 0  # resumed: nothing played again
    assert (tmp_path / "a.games.jsonl").read_text().splitlines() == log
    assert league.play("3-teams", 5, 0, ("hard", "random", "greedy")) == league.play(
        "3-teams", 5, 0, ("hard", "random", "greedy")
    )


def test_the_server_has_anchors_at_three_sides() -> None:
    anchors = bot_anchors()
    for fmt in ("3p", "3t"):
        levels = anchors[fmt]
        assert set(levels) == {"easy", "medium", "hard"}  # expert: not measured, not shown
        assert levels["easy"] == 25.0
        assert levels["easy"] < levels["medium"] < levels["hard"], (fmt, levels)
        assert plays_like(fmt, levels["hard"] + 0.1, anchors) == "hard"
        assert plays_like(fmt, 20.0, anchors) is None
    assert {"2p", "2t"} <= set(anchors)  # the ladder's formats are still there
