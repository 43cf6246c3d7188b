"""Train a small masked policy for Sequence on the CPU (PPO-lite), then measure its win rate.

The policy is a little fully convolutional network over the observation planes: per cell it
scores "place the printed card here", "two-eyed jack here" and "one-eyed jack removes here"
(action ids 0-299, cell-major as in ``actions``), and a linear head scores the 105 card actions
(dead-card exchange, discard, draw). Illegal actions get a logit of -inf from the action mask,
so the policy never picks one. Training plays the seats of side 0 against bots (``random`` by
default) in the batch stepper; evaluation plays fresh games against ``random`` and, when the bots
package has it, ``greedy``.

    .venv/bin/pip install torch==2.13.0          # or: pip install -e '.[rl]'
    .venv/bin/python examples/train_masked_policy.py --minutes 3
    .venv/bin/python examples/train_masked_policy.py --smoke   # CI: seconds, checks it all runs
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from sequence_game.bots import BOTS
from sequence_game.config import GameConfig
from sequence_game.env import NUM_PLANES, SequenceVectorEnv

NUM_ACTIONS = 405
CELL_ACTIONS = 300  # place, two-eyed jack, one-eyed jack: three per cell


class MaskedPolicy(nn.Module):
    """Conv trunk, per-cell action logits, card-action logits and a value."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(NUM_PLANES, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
        )
        self.cell_head = nn.Conv2d(channels, 3, 1)
        self.card_head = nn.Linear(channels * 100, NUM_ACTIONS - CELL_ACTIONS)
        self.value_head = nn.Sequential(nn.Linear(channels * 100, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs`` (B, 10, 10, C) planes and ``mask`` (B, 405) -> masked logits (B, 405), value (B,)."""
        h = self.trunk(obs.permute(0, 3, 1, 2))
        flat = h.flatten(1)
        cells = self.cell_head(h).flatten(1)  # (B, 3 * 100): kind-major, then row-major cells
        logits = torch.cat([cells, self.card_head(flat)], dim=1)
        logits = logits.masked_fill(mask == 0, -1e9)
        return logits, self.value_head(flat).squeeze(1)


@dataclass
class Settings:
    players: int = 2
    teams: int | None = None
    opponent: str = "random"
    num_envs: int = 32
    rollout: int = 64
    epochs: int = 3
    minibatch: int = 512
    lr: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    seconds: float = 180.0
    max_updates: int | None = None
    eval_games: int = 200
    seed: int = 0


def learner_seats(settings: Settings) -> list[int]:
    return list(GameConfig(players=settings.players, teams=settings.teams).seats_of(0))


def train(policy: MaskedPolicy, s: Settings) -> dict[str, float]:
    """PPO with a clipped objective and GAE over rollouts of the batch stepper."""
    venv = SequenceVectorEnv(
        s.num_envs, s.players, s.teams, learner_seats=learner_seats(s), opponents=s.opponent, seed=s.seed
    )
    opt = torch.optim.Adam(policy.parameters(), lr=s.lr)
    batch = venv.reset()
    start = time.perf_counter()
    updates = episodes = wins = 0
    steps = 0
    while time.perf_counter() - start < s.seconds and (s.max_updates is None or updates < s.max_updates):
        obs_buf, mask_buf, act_buf, logp_buf, val_buf, rew_buf, done_buf = [], [], [], [], [], [], []
        for _ in range(s.rollout):
            obs, mask = torch.from_numpy(batch.obs), torch.from_numpy(batch.mask)
            with torch.no_grad():
                logits, value = policy(obs, mask)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            batch_next = venv.step(action.numpy())
            obs_buf.append(obs)
            mask_buf.append(mask)
            act_buf.append(action)
            logp_buf.append(dist.log_prob(action))
            val_buf.append(value)
            rew_buf.append(torch.from_numpy(batch_next.rewards[:, 0].copy()))
            done = batch_next.terminated | batch_next.truncated
            done_buf.append(torch.from_numpy(done.astype(np.float32)))
            episodes += int(done.sum())
            wins += int((batch_next.rewards[:, 0] > 0).sum())
            batch = batch_next
        steps += s.rollout * s.num_envs
        with torch.no_grad():
            _, next_value = policy(torch.from_numpy(batch.obs), torch.from_numpy(batch.mask))
        advantages = torch.zeros(s.rollout, s.num_envs)
        gae = torch.zeros(s.num_envs)
        for t in reversed(range(s.rollout)):
            following = next_value if t == s.rollout - 1 else val_buf[t + 1]
            live = 1.0 - done_buf[t]
            delta = rew_buf[t] + s.gamma * following * live - val_buf[t]
            gae = delta + s.gamma * s.lam * live * gae
            advantages[t] = gae
        returns = advantages + torch.stack(val_buf)
        flat_obs, flat_mask = torch.cat(obs_buf), torch.cat(mask_buf)
        flat_act, flat_logp = torch.cat(act_buf), torch.cat(logp_buf)
        flat_adv, flat_ret = advantages.flatten(), returns.flatten()
        flat_adv = (flat_adv - flat_adv.mean()) / (flat_adv.std() + 1e-8)
        for _ in range(s.epochs):
            for idx in torch.randperm(len(flat_act)).split(s.minibatch):
                logits, value = policy(flat_obs[idx], flat_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(flat_act[idx]) - flat_logp[idx]).exp()
                adv = flat_adv[idx]
                clipped = torch.clamp(ratio, 1 - s.clip, 1 + s.clip) * adv
                loss = (
                    -torch.min(ratio * adv, clipped).mean()
                    + 0.5 * (flat_ret[idx] - value).pow(2).mean()
                    - s.entropy * dist.entropy().mean()
                )
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        updates += 1
        if updates % 10 == 0:
            print(
                f"  update {updates}: {steps} steps, training win rate {wins / max(episodes, 1):.2f}",
                flush=True,
            )
    return {"updates": updates, "steps": steps, "episodes": episodes, "seconds": time.perf_counter() - start}


def evaluate(policy: MaskedPolicy, s: Settings, opponent: str, games: int) -> dict[str, float]:
    """Win/draw/loss rates of the greedy (argmax) policy over ``games`` fresh games, one per slot
    of the batch stepper, so that short games do not crowd out long ones."""
    venv = SequenceVectorEnv(
        games, s.players, s.teams, learner_seats=learner_seats(s), opponents=opponent, seed=s.seed + 1
    )
    batch = venv.reset()
    result = np.full(games, np.nan)
    while np.isnan(result).any():
        with torch.no_grad():
            logits, _ = policy(torch.from_numpy(batch.obs), torch.from_numpy(batch.mask))
        batch = venv.step(logits.argmax(dim=1).numpy())
        ended = (batch.terminated | batch.truncated) & np.isnan(result)
        result[ended] = batch.rewards[ended, 0]
    return {
        "win": float((result > 0).mean()),
        "draw": float((result == 0).mean()),
        "loss": float((result < 0).mean()),
    }


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, default=None)
    parser.add_argument("--opponent", default="random", help=f"bot to train against ({', '.join(BOTS)})")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument(
        "--smoke", action="store_true", help="a few seconds: tiny training and evaluation (CI)"
    )
    parser.add_argument("--save", help="write the trained weights to this file")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    s = Settings(
        players=args.players,
        teams=args.teams,
        opponent=args.opponent,
        num_envs=args.num_envs,
        seconds=args.minutes * 60,
        eval_games=args.eval_games,
        seed=args.seed,
    )
    if args.smoke:
        s.num_envs, s.rollout, s.epochs, s.max_updates, s.eval_games = 4, 8, 1, 2, 4
    policy = MaskedPolicy()
    opponents = ["random"] + (["greedy"] if "greedy" in BOTS else [])
    if "greedy" not in BOTS:
        print("skipping greedy: no 'greedy' bot in sequence_game.bots.BOTS yet")
    summary: dict[str, object] = {"players": s.players, "teams": s.teams, "trained_against": s.opponent}
    summary["before"] = {name: evaluate(policy, s, name, s.eval_games) for name in opponents}
    print(f"untrained policy: {summary['before']}", flush=True)
    budget = f"{s.max_updates} updates" if s.max_updates else f"up to {s.seconds:.0f} s"
    print(f"training against {s.opponent} for {budget} ...", flush=True)
    summary["training"] = train(policy, s)
    summary["after"] = {name: evaluate(policy, s, name, s.eval_games) for name in opponents}
    for name, rates in summary["after"].items():  # type: ignore[attr-defined]
        print(f"win rate vs {name}: {rates['win']:.2f} (draws {rates['draw']:.2f}) over {s.eval_games} games")
    if args.save:
        torch.save(policy.state_dict(), args.save)
    if args.json:
        print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
