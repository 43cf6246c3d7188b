"""The training example runs end to end in its reduced (CI) form when PyTorch is installed."""

from __future__ import annotations

import doctest
import runpy
from pathlib import Path

import pytest

from sequence_game.bots import BOTS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_train_masked_policy_smoke(capsys):
    pytest.importorskip("torch", reason="the rl extra (torch==2.13.0) is not installed")
    main = runpy.run_path(str(EXAMPLES / "train_masked_policy.py"))["main"]
    summary = main(["--smoke", "--teacher-minutes", "0.01"])
    assert summary["imitation"]["samples"] > 0 and summary["imitation"]["games"] >= 1
    assert summary["training"]["updates"] == 2
    opponents = {"random", "greedy"} & set(BOTS)
    assert set(summary["after"]) == opponents
    for rates in summary["after"].values():
        assert rates["win"] + rates["draw"] + rates["loss"] == pytest.approx(1.0)
    assert "win rate vs random" in capsys.readouterr().out


def test_bench_env_runs():
    main = runpy.run_path(str(EXAMPLES / "bench_env.py"))["main"]
    main(["--steps", "200", "--batch", "1", "8", "--repeat", "1", "--json"])


def test_the_worked_example_in_the_docs_runs_as_written():
    docs = Path(__file__).resolve().parents[2] / "docs" / "environment.md"
    result = doctest.testfile(str(docs), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8
    assert result.failed == 0


def test_eval_policy_bot_plays_paired_deals():
    main = runpy.run_path(str(EXAMPLES / "eval_policy_bot.py"))["main"]
    summary = main(["--pairs", "1", "--opponent", "random", "--max-turns", "40"])
    assert summary["games"] == 2
    low, high = summary["win_95"]
    assert 0 <= low <= summary["win"] <= high <= 1
