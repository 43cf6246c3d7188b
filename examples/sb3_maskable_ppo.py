"""MaskablePPO (sb3-contrib) on the Gymnasium environment: one seat against bots, with action masking.

The agent plays one seat of a two-player game; the other seat is a bot (``--opponents``, one name
per training environment in turn, ``random,greedy`` by default), and the agent's seat alternates
between the environments (0, 1, 0, 1, ...) so that it learns to play first and second.
sb3-contrib's ``ActionMasker`` gives MaskablePPO the legal actions of the seat (the engine's
``legal_actions``, the same ids as the observation's ``action_mask``), and MaskablePPO samples only
among them. The training environments are made with ``illegal_action="raise"``, so a run that
finishes has only ever played legal actions.

The policy reads the observation dict with a small convolutional feature extractor
(``PlanesExtractor``: the 24 planes plus the mask's board actions as three planes, 3x3
convolutions, a linear layer), then SB3's policy and value heads.

After every ``--eval-every`` environment steps (and before the first) the deterministic policy (the
most likely legal action) plays ``--eval-games`` games (``--final-eval-games`` at the end) against each of ``random``, ``greedy`` and
``heuristic`` on paired deals (each deal twice, the agent once in each seat); the win rates with
95% Wilson intervals go to ``OUT/metrics.json``, the model to ``OUT/model.zip``
(``MaskablePPO.load``).

    .venv/bin/python examples/sb3_maskable_ppo.py --timesteps 20000 --out /tmp/sb3
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy/torch: BLAS threads crawl on a busy machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from sequence_game.env import SequenceEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared evaluation, beside this file
from rl_evaluation import evaluate

NUM_ACTIONS = 405
BOARD_ACTIONS = 300  # ids 0-299: place, two-eyed jack, one-eyed jack, 100 cells each


class PlanesExtractor(BaseFeaturesExtractor):
    """Convolutions over the planes and the mask's board actions, then one linear layer."""

    def __init__(
        self, observation_space: gymnasium.spaces.Dict, channels: int = 32, features: int = 256
    ) -> None:
        super().__init__(observation_space, features)
        shape = observation_space["observation"].shape
        assert shape is not None
        planes = int(shape[-1])
        self.trunk = nn.Sequential(
            nn.Conv2d(planes + 3, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(channels * 100, features),
            nn.ReLU(),
        )

    def forward(self, obs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        planes = obs["observation"].float().permute(0, 3, 1, 2)
        mask_planes = obs["action_mask"][:, :BOARD_ACTIONS].float().reshape(-1, 3, 10, 10)
        features: torch.Tensor = self.trunk(torch.cat([planes, mask_planes], dim=1))
        return features


def legal_mask(env: gymnasium.Env[Any, Any]) -> np.ndarray:
    """The agent's legal actions as a bool vector (what ``ActionMasker`` hands MaskablePPO)."""
    inner = env.unwrapped
    assert isinstance(inner, SequenceEnv) and inner.game is not None
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[inner.game.legal_actions(inner.seat)] = True
    return mask


def train_env(seat: int, opponent: str, max_turns: int) -> Callable[[], gymnasium.Env[Any, Any]]:
    """A factory for one training environment (DummyVecEnv builds them)."""

    def make() -> gymnasium.Env[Any, Any]:
        env = SequenceEnv(
            players=2, seat=seat, opponents=opponent, max_turns=max_turns, illegal_action="raise"
        )
        return ActionMasker(env, legal_mask)

    return make


def greedy_action(model: MaskablePPO, obs: Mapping[str, np.ndarray]) -> int:
    """The model's most likely legal action for one observation."""
    action, _ = model.predict(dict(obs), action_masks=obs["action_mask"].astype(bool), deterministic=True)
    return int(action)


def load_policy(path: str | Path) -> MaskablePPO:
    """A saved model (``OUT/model.zip``), on the CPU."""
    return MaskablePPO.load(str(path), device="cpu")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--timesteps", type=int, default=200_000, help="agent steps of training")
    p.add_argument("--minutes", type=float, default=None, help="also stop after this much training time")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="sb3_maskable_ppo_out", help="folder for metrics.json and model.zip")
    p.add_argument("--eval-games", type=int, default=100, help="games against each bot per evaluation")
    p.add_argument("--final-eval-games", type=int, default=None, help="games a bot at the end (--eval-games)")
    p.add_argument("--eval-every", type=int, default=20_000, help="agent steps between evaluations")
    p.add_argument("--opponents", default="random,greedy", help="training bots, one per env in turn")
    p.add_argument("--n-envs", type=int, default=4)
    p.add_argument("--n-steps", type=int, default=512, help="steps per env per rollout")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--max-turns", type=int, default=1000)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, evaluating as it goes; returns (and writes to ``OUT/metrics.json``) the metrics."""
    args = parse_args(argv)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    venv = DummyVecEnv(
        [train_env(i % 2, opponents[i % len(opponents)], args.max_turns) for i in range(args.n_envs)]
    )
    venv.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=1.0,  # the only reward is the game's +1/-1/0 at the end
        gae_lambda=0.95,
        ent_coef=args.entropy,
        policy_kwargs={
            "features_extractor_class": PlanesExtractor,
            "features_extractor_kwargs": {"channels": args.channels},
            "net_arch": {"pi": [], "vf": [64]},
        },
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    metrics: dict[str, Any] = {
        "example": "sb3_maskable_ppo",
        "command": " ".join(["examples/sb3_maskable_ppo.py", *(sys.argv[1:] if argv is None else argv)]),
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "policy": "one seat against the training bots, deterministic (most likely legal action) in evaluation",
        "evaluations": [],
    }
    wall_start = time.perf_counter()
    train_seconds = 0.0

    def record(games: int) -> None:
        eval_start = time.perf_counter()
        rates = evaluate(lambda obs: greedy_action(model, obs), games, args.seed + 1, args.max_turns)
        entry = {
            "env_steps": int(model.num_timesteps),
            "train_seconds": round(train_seconds, 1),
            "eval_seconds": round(time.perf_counter() - eval_start, 1),
            "wall_seconds": round(time.perf_counter() - wall_start, 1),
            "opponents": rates,
        }
        metrics["evaluations"].append(entry)
        summary = ", ".join(f"{n} {r['win_rate']:.3f} {r['win_95']}" for n, r in rates.items())
        print(f"{model.num_timesteps} steps, {train_seconds:.0f} s training; win rate {summary}")
        model.save(str(out / "model.zip"))
        metrics["model"] = str((out / "model.zip").resolve())
        (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")

    def done() -> bool:
        out_of_time = args.minutes is not None and train_seconds >= 60 * args.minutes
        return model.num_timesteps >= args.timesteps or out_of_time

    record(args.eval_games)
    while not done():
        tick = time.perf_counter()
        model.learn(
            total_timesteps=min(args.eval_every, args.timesteps - model.num_timesteps),
            reset_num_timesteps=False,
        )
        train_seconds += time.perf_counter() - tick
        record((args.final_eval_games or args.eval_games) if done() else args.eval_games)
    metrics["train_seconds"] = round(train_seconds, 1)
    metrics["wall_seconds"] = round(time.perf_counter() - wall_start, 1)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    venv.close()
    return metrics


if __name__ == "__main__":
    main()
