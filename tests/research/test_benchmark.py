"""The benchmark protocol: its schedule is the published one, agents enter as Python callables or
JSON-lines programs with the same results, a broken agent is stopped with a reason, and the
ratings move against fixed anchors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sequence_game.research import benchmark
from sequence_game.research.agents import AgentError, parse_agent
from sequence_game.research.ladder import RUNGS, TABLES, anchors, deal_seed

ROOT = Path(__file__).resolve().parents[2]
HELPERS = "tests.research.agents_for_tests"


def test_the_schedule_pairs_every_deal_and_interleaves_the_rungs() -> None:
    agent = parse_agent("random")
    games = benchmark.schedule(agent, ["2p", "4p-teams"], 4)
    assert len(games) == 2 * len(RUNGS) * 4
    first = games[: 2 * len(RUNGS)]
    assert [g.rung for g in first[::2]] == [r.name for r in RUNGS]  # deal 0 against every rung first
    for g, h in zip(games[::2], games[1::2], strict=True):
        assert (g.table, g.deal, g.rung) == (h.table, h.deal, h.rung)
        assert (g.agent_side, h.agent_side) == (0, 1)
    assert deal_seed("2p", 0) != deal_seed("4p-teams", 0)
    assert {g.deal for g in games if g.table == "4p-teams"} == {0, 1}
    assert TABLES["4p-teams"].players == 4


def test_python_and_json_lines_agents_play_the_same_games(tmp_path: Path) -> None:
    """The example agent in both forms: the same actions, so the same results, game for game."""
    kwargs = {"tables": ["2p", "4p-teams"], "games": 2, "rungs": ["random", "greedy"]}
    python = benchmark.run("python:examples.benchmark_agent:make", **kwargs)  # type: ignore[arg-type]
    program = benchmark.run(
        f"cmd:{sys.executable} {ROOT / 'examples' / 'benchmark_agent.py'}", workers=2, **kwargs
    )  # type: ignore[arg-type]
    for table in ("2p", "4p-teams"):
        assert python["tables"][table]["rungs"] == program["tables"][table]["rungs"]
        assert sum(r["games"] for r in python["tables"][table]["rungs"]) == 4


def test_the_ladder_repeats_exactly_whatever_the_workers() -> None:
    """Budgets in simulations, seeds from the protocol: the same games, game for game, including
    the expert's search (a rollout budget decides alike in any process)."""
    kwargs = {"tables": ["2p"], "games": 2, "rungs": ["hard", "expert@100"]}
    one = benchmark.run("greedy", workers=1, **kwargs)  # type: ignore[arg-type]
    two = benchmark.run("greedy", workers=2, **kwargs)  # type: ignore[arg-type]
    assert one["games"] == two["games"]
    assert [g["rung"] for g in one["games"]] == ["hard", "hard", "expert@100", "expert@100"]


def test_an_agent_object_is_told_the_game_ended() -> None:
    from tests.research import agents_for_tests

    agents_for_tests.Counting.closed.clear()
    result = benchmark.run(f"python:{HELPERS}:Counting", tables=["4p-teams"], games=2, rungs=["random"])
    assert result["tables"]["4p-teams"]["rungs"][0]["games"] == 2
    assert len(agents_for_tests.Counting.closed) == 4  # two seats a game, two games


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        (f"python:{HELPERS}:illegal", "refused, R"),
        (f"cmd:{sys.executable} -m {HELPERS} garbage", 'expected {"action": id}'),
        (f"cmd:{sys.executable} -m {HELPERS} exit", "exited"),
        (f"cmd:{sys.executable} -m {HELPERS} silent", "no answer within 2 s"),
    ],
)
def test_a_broken_agent_is_stopped_with_the_game_and_the_reason(agent: str, message: str) -> None:
    with pytest.raises(AgentError, match=r"^game 0 ") as caught:
        benchmark.run(agent, tables=["2p"], games=2, rungs=["random"], timeout=2.0)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [("python:nomodule", "python:package.module:factory"), ("cmd:", "needs a command"), ("nobot", "nobot")],
)
def test_bad_agent_names_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_agent(text)


def test_ratings_move_against_fixed_anchors() -> None:
    agent = parse_agent("random")
    games = benchmark.schedule(agent, ["2p"], 10, ["greedy"])
    fixed = {"greedy": {"mu": 25.0, "sigma": 1.0}}
    wins = [benchmark.BenchResult(g.index, 1.0, 50, 0.0, 1) for g in games]
    losses = [benchmark.BenchResult(g.index, 0.0, 50, 0.0, 1) for g in games]
    draws = [benchmark.BenchResult(g.index, 0.5, 50, 0.0, 1) for g in games]
    high, low, level = (benchmark.rate(games, r, fixed) for r in (wins, losses, draws))
    assert high["low"] > 25 > low["high"]
    assert abs(level["mu"] - 25) < 1.5
    assert high["sigma"] < 25 / 3  # more games, less doubt
    assert benchmark.rate(games, wins, fixed) == high  # the protocol's order: the same rating every time


def test_the_shipped_anchors_cover_the_ladder_and_order_it() -> None:
    fixed = anchors()
    if not fixed:
        pytest.skip("the ladder is not calibrated in this checkout")
    for table in TABLES:
        mus = [fixed[table][r.name]["mu"] for r in RUNGS]
        assert mus == sorted(mus), (table, mus)  # every rung above the one below


def test_the_command_prints_a_rating(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sequence_game",
            "benchmark",
            "greedy",
            "--games",
            "2",
            "--rungs",
            "random",
            "--tables",
            "2p",
            "--workers",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["protocol"] == "sequence-bench/1" and result["agent"] == "greedy"
    assert result["tables"]["2p"]["rungs"][0]["games"] == 2
    if anchors():
        assert set(result["tables"]["2p"]["rating"]) == {"mu", "sigma", "low", "high"}
    bad = subprocess.run(
        [sys.executable, "-m", "sequence_game", "benchmark", "greedy", "--tables", "5p"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert bad.returncode != 0 and "no table '5p'" in bad.stderr
