"""The RLlib and Stable-Baselines3 examples run end to end at a tiny budget (CI smoke tests).

Each trains for a moment, then the test checks what a user relies on: the metrics file holds a win
rate with its interval against every evaluation bot, the policy never chose an illegal action
(in evaluation, counted; in training, the environments raise on one), and the saved
checkpoint loads in this process and plays a whole game through the Gymnasium environment.
Skipped when the ``ray`` or ``rl`` extra is not installed.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest

from sequence_game.env import SequenceEnv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPPONENTS = {"random", "greedy", "heuristic"}


def check_metrics(metrics: dict[str, Any], path: Path, evaluations: int) -> None:
    """The returned metrics are the file's, with every field the plot script reads."""
    assert json.loads(path.read_text()) == metrics
    assert len(metrics["evaluations"]) == evaluations
    assert metrics["evaluations"][0]["env_steps"] == 0
    assert metrics["evaluations"][-1]["env_steps"] > 0
    assert metrics["train_seconds"] > 0
    for entry in metrics["evaluations"]:
        assert entry["train_seconds"] >= 0 and entry["wall_seconds"] >= 0
        assert set(entry["opponents"]) == OPPONENTS
        for rates in entry["opponents"].values():
            assert rates["games"] == 2
            assert rates["wins"] + rates["draws"] + rates["losses"] == 2
            assert rates["win_rate"] == rates["wins"] / 2
            low, high = rates["win_95"]
            assert 0 <= low <= rates["win_rate"] <= high <= 1
            assert rates["illegal_actions"] == 0


def play_full_game(policy: Any, seat: int) -> int:
    """A whole game of ``policy`` (obs -> action) against ``random``; the number of its moves, each
    checked against the mask (``illegal_action="raise"`` would stop an illegal one anyway)."""
    env = SequenceEnv(players=2, seat=seat, opponents="random", illegal_action="raise")
    obs, _ = env.reset(seed=7)
    moves = 0
    while True:
        action = policy(obs)
        assert obs["action_mask"][action] == 1
        obs, _, terminated, truncated, info = env.step(action)
        moves += 1
        if terminated or truncated:
            assert terminated and "winner" in info
            return moves


def test_rllib_selfplay_smoke(tmp_path: Path) -> None:
    pytest.importorskip("ray.rllib", reason="the ray extra (ray[rllib]) is not installed")
    pytest.importorskip("torch", reason="the rl extra (torch) is not installed")
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # another test of this process left its Ray running: the example starts its own
        ray.shutdown()
    example = runpy.run_path(str(EXAMPLES / "rllib_selfplay.py"))
    args = ["--iterations", "1", "--eval-every", "1", "--eval-games", "2", "--batch", "200"]
    args += ["--minibatch", "100", "--epochs", "1", "--channels", "8", "--layers", "1", "--num-cpus", "1"]
    metrics = example["main"]([*args, "--seed", "3", "--out", str(tmp_path)])
    assert not ray.is_initialized()  # the example shuts down the Ray it started
    check_metrics(metrics, tmp_path / "metrics.json", evaluations=2)
    assert metrics["evaluations"][-1]["iteration"] == 1
    # a run that finished sampled no illegal action: raw_env raises IllegalActionError on one
    module = example["load_policy"](tmp_path / "checkpoint")
    assert play_full_game(lambda obs: example["greedy_action"](module, obs), seat=1) > 0


def test_sb3_maskable_ppo_smoke(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the rl extra (sb3-contrib) is not installed")
    example = runpy.run_path(str(EXAMPLES / "sb3_maskable_ppo.py"))
    args = ["--timesteps", "64", "--eval-every", "64", "--eval-games", "2", "--n-envs", "2"]
    args += ["--n-steps", "32", "--batch-size", "32", "--epochs", "1", "--channels", "8"]
    metrics = example["main"]([*args, "--seed", "3", "--out", str(tmp_path)])
    check_metrics(metrics, tmp_path / "metrics.json", evaluations=2)
    assert metrics["evaluations"][-1]["env_steps"] >= 64
    # training envs raise on an illegal action, so this run played legal moves only
    model = example["load_policy"](tmp_path / "model.zip")
    assert play_full_game(lambda obs: example["greedy_action"](model, obs), seat=0) > 0
