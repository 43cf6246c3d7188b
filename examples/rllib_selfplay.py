"""Multi-agent self-play PPO with RLlib on the PettingZoo environment, with action masking.

Two seats, one policy: both agents (``player_0``, ``player_1``) map to the module ``shared``, so
every move of every game is training data for the same network (parameter-sharing self-play; the
game is symmetric and the planes are drawn from the acting seat's side, so one network serves both
seats). The environment is the project's AEC ``sequence_v0.raw_env`` in RLlib's own
``PettingZooEnv`` adapter; ``raw_env`` raises ``IllegalActionError`` on any action the rules
forbid, so a run that finishes has only ever sampled legal actions.

The network (``MaskedSequenceModule``, RLlib's new API stack: a ``TorchRLModule`` with the
``ValueFunctionAPI``) reads the 24 observation planes plus the mask's board actions as three planes
(place, two-eyed jack, one-eyed jack on each cell), then 3x3 convolutions, per-cell logits for the
300 board actions, a linear head on the board's mean for the 105 card actions, and a value head.
The environment's action mask sets every illegal logit to -1e9 in every forward pass (sampling,
inference and training), so the action distribution gives illegal actions zero probability.

After every ``--eval-every`` iterations (and before the first) the greedy policy (argmax of the
masked logits) plays ``--eval-games`` games (``--final-eval-games`` at the end) against each of ``random``, ``greedy`` and
``heuristic`` through the Gymnasium environment, on paired deals (each deal twice, the policy once
in each seat); the win rates with 95% Wilson intervals go to ``OUT/metrics.json``, the checkpoint
to ``OUT/checkpoint``.

    .venv/bin/python examples/rllib_selfplay.py --iterations 2 --out /tmp/rllib  # Ray on this machine
    .venv/bin/python examples/rllib_selfplay.py --address auto --env-runners 8 ...  # on a cluster's head

With ``--address`` the same script joins a running Ray cluster (``ray start --head`` on one
machine, ``ray start --address=HEAD:6379`` on the others, the package installed on every node;
``auto`` finds the cluster this machine belongs to) and samples on ``--env-runners`` remote
workers while learning in this process; without it Ray starts locally on ``--num-cpus`` CPUs.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy/torch: BLAS threads crawl on a busy machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no prompt, no network call

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import ray
import torch
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env
from torch import nn

from sequence_game.env import sequence_v0

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared evaluation, beside this file
from rl_evaluation import evaluate

#: The one module both seats play (parameter sharing).
MODULE_ID = "shared"
ENV_NAME = "sequence_v0_2p"
NUM_ACTIONS = 405
BOARD_ACTIONS = 300  # ids 0-299: place, two-eyed jack, one-eyed jack, 100 cells each
#: The logit of an illegal action: far below any real one, yet finite, so that the entropy term
#: (p * log p with p == 0) stays 0 rather than NaN.
MASKED_LOGIT = -1e9


class MaskedSequenceModule(TorchRLModule, ValueFunctionAPI):
    """Policy and value network for the Sequence planes; illegal actions get ``MASKED_LOGIT``."""

    def setup(self) -> None:
        """Build the layers (``model_config``: ``channels``, ``layers``)."""
        config = self.model_config if isinstance(self.model_config, dict) else {}
        channels, layers = int(config.get("channels", 32)), int(config.get("layers", 3))
        space = self.observation_space
        assert isinstance(space, gymnasium.spaces.Dict) and space["observation"].shape is not None
        planes = int(space["observation"].shape[-1])
        trunk: list[nn.Module] = []
        for i in range(layers):
            trunk += [nn.Conv2d(planes + 3 if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        self.trunk = nn.Sequential(*trunk)
        self.cell_head = nn.Conv2d(channels, 3, 1)
        self.card_head = nn.Linear(channels, NUM_ACTIONS - BOARD_ACTIONS)
        self.value_head = nn.Sequential(nn.Linear(2 * channels, 64), nn.ReLU(), nn.Linear(64, 1))

    def _features(self, obs: Mapping[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """The trunk's output (B, C, 10, 10) and the mask as a bool tensor (B, 405)."""
        mask = obs["action_mask"] > 0
        planes = obs["observation"].float().permute(0, 3, 1, 2)
        mask_planes = mask[:, :BOARD_ACTIONS].float().reshape(-1, 3, 10, 10)
        return self.trunk(torch.cat([planes, mask_planes], dim=1)), mask

    def _logits(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        cells = self.cell_head(h).flatten(1)  # kind-major, then the cells row by row: ids 0-299
        logits = torch.cat([cells, self.card_head(h.mean(dim=(2, 3)))], dim=1)
        return logits.masked_fill(~mask, MASKED_LOGIT)

    @staticmethod
    def _pooled(h: torch.Tensor) -> torch.Tensor:
        return torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3))], dim=1)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        h, mask = self._features(batch[Columns.OBS])
        return {Columns.ACTION_DIST_INPUTS: self._logits(h, mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        h, mask = self._features(batch[Columns.OBS])
        return {Columns.ACTION_DIST_INPUTS: self._logits(h, mask), Columns.EMBEDDINGS: self._pooled(h)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """The value of each observation (PPO's critic and GAE); reuses the train pass' features."""
        if embeddings is None:
            embeddings = self._pooled(self._features(batch[Columns.OBS])[0])
        values: torch.Tensor = self.value_head(embeddings).squeeze(-1)
        return values


def make_env(config: Mapping[str, Any]) -> PettingZooEnv:
    """The project's AEC environment (2 players, illegal actions raise) as an RLlib MultiAgentEnv."""
    aec = sequence_v0.raw_env(players=2, max_turns=int(config.get("max_turns", 1000)))
    return PettingZooEnv(aec)  # type: ignore[no-untyped-call]


def build_config(args: argparse.Namespace) -> PPOConfig:
    """PPO, one shared module for both seats, sampling on ``--env-runners`` workers (0: in this process)."""
    register_env(ENV_NAME, make_env)  # by name: a cluster's workers build it from the registry
    probe = sequence_v0.raw_env(players=2)
    spec = RLModuleSpec(
        module_class=MaskedSequenceModule,
        observation_space=probe.observation_space("player_0"),
        action_space=probe.action_space("player_0"),
        model_config={"channels": args.channels, "layers": args.layers},
    )
    return (
        PPOConfig()  # type: ignore[no-untyped-call]
        .environment(env=ENV_NAME, env_config={"max_turns": args.max_turns}, disable_env_checking=True)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=lambda agent_id, episode, **kw: MODULE_ID)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MODULE_ID: spec}))
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=1.0,  # the only reward is the game's +1/-1/0 at the end
            lambda_=0.95,
            entropy_coeff=args.entropy,
            vf_loss_coeff=0.5,
        )
        .debugging(seed=args.seed)
    )


def greedy_action(module: RLModule, obs: Mapping[str, np.ndarray]) -> int:
    """The module's most likely action for one observation (its masked argmax)."""
    batch = {
        Columns.OBS: {
            "observation": torch.from_numpy(obs["observation"][None]),
            "action_mask": torch.from_numpy(obs["action_mask"][None]),
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    return int(logits[0].argmax())


def load_policy(checkpoint: str | Path) -> RLModule:
    """The shared module of an algorithm checkpoint (``OUT/checkpoint``), ready for inference."""
    path = Path(checkpoint) / "learner_group" / "learner" / "rl_module" / MODULE_ID
    module: RLModule = RLModule.from_checkpoint(str(path))
    return module


def env_steps(result: Mapping[str, Any]) -> int:
    """Environment steps sampled so far, from a result of ``Algorithm.train``."""
    runners = result.get("env_runners", {})
    for key in ("num_env_steps_sampled_lifetime", "num_agent_steps_sampled_lifetime"):
        value = runners.get(key, result.get(key))
        if isinstance(value, Mapping):
            value = sum(value.values())
        if value is not None:
            return int(value)
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--address", default=None, help="Ray cluster address (default: start Ray locally)")
    p.add_argument("--iterations", type=int, default=20, help="PPO training iterations")
    p.add_argument("--minutes", type=float, default=None, help="also stop after this much training time")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="rllib_selfplay_out", help="folder for metrics.json and the checkpoint")
    p.add_argument("--eval-games", type=int, default=100, help="games against each bot per evaluation")
    p.add_argument("--final-eval-games", type=int, default=None, help="games a bot at the end (--eval-games)")
    p.add_argument("--eval-every", type=int, default=5, help="iterations between evaluations")
    p.add_argument("--env-runners", type=int, default=0, help="remote sampling workers (0: this process)")
    p.add_argument("--num-cpus", type=int, default=1, help="CPUs for a local Ray (ignored with --address)")
    p.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch", type=int, default=500)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--max-turns", type=int, default=1000)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, evaluating as it goes; returns (and writes to ``OUT/metrics.json``) the metrics."""
    args = parse_args(argv)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started_ray = not ray.is_initialized()
    if started_ray:
        if args.address:
            ray.init(address=args.address)
        else:
            # "local": a fresh instance of our own, even if another job's Ray runs on this machine
            ray.init(
                address="local",
                num_cpus=args.num_cpus,
                include_dashboard=False,
                object_store_memory=100 * 2**20,
            )
    metrics: dict[str, Any] = {
        "example": "rllib_selfplay",
        "command": " ".join(["examples/rllib_selfplay.py", *(sys.argv[1:] if argv is None else argv)]),
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "policy": "one shared module for both seats, greedy (argmax of masked logits) in evaluation",
        "evaluations": [],
    }
    wall_start = time.perf_counter()
    algo: Algorithm | None = None
    try:
        algo = build_config(args).build_algo()
        train_seconds, steps, iteration = 0.0, 0, 0

        def record(games: int) -> None:
            module = algo.get_module(MODULE_ID)
            assert module is not None
            eval_start = time.perf_counter()
            rates = evaluate(lambda obs: greedy_action(module, obs), games, args.seed + 1, args.max_turns)
            entry = {
                "iteration": iteration,
                "env_steps": steps,
                "train_seconds": round(train_seconds, 1),
                "eval_seconds": round(time.perf_counter() - eval_start, 1),
                "wall_seconds": round(time.perf_counter() - wall_start, 1),
                "opponents": rates,
            }
            metrics["evaluations"].append(entry)
            summary = ", ".join(f"{n} {r['win_rate']:.3f} {r['win_95']}" for n, r in rates.items())
            print(
                f"iteration {iteration}: {steps} env steps, {train_seconds:.0f} s training; win rate {summary}"
            )
            metrics["checkpoint"] = str(Path(algo.save_to_path(str((out / "checkpoint").resolve()))))
            (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")

        def done() -> bool:
            out_of_time = args.minutes is not None and train_seconds >= 60 * args.minutes
            return iteration >= args.iterations or out_of_time

        record(args.eval_games)
        while not done():
            tick = time.perf_counter()
            result = algo.train()  # type: ignore[no-untyped-call]
            train_seconds += time.perf_counter() - tick
            iteration += 1
            steps = env_steps(result)
            if done():
                record(args.final_eval_games or args.eval_games)
            elif iteration % args.eval_every == 0:
                record(args.eval_games)
        metrics["train_seconds"] = round(train_seconds, 1)
        metrics["wall_seconds"] = round(time.perf_counter() - wall_start, 1)
        (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
        return metrics
    finally:
        if algo is not None:
            algo.stop()  # type: ignore[no-untyped-call]
        if started_ray:
            ray.shutdown()


if __name__ == "__main__":
    main()
