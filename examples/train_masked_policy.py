"""Train a small masked policy for Sequence on the CPU, then measure it against ``greedy``.

Three phases, each optional, all on the batch stepper (``SequenceVectorEnv``):

1. **Imitation** (``--teacher-minutes``, optional): every seat of a batch of games is played by a
   teacher bot (``heuristic`` by default); the network learns its moves (cross-entropy) and the
   games' outcomes (value): a warm start (PPO from scratch, this example's earlier version,
   reached 23.5-28% against ``greedy`` in 3 minutes).
1b. **DAgger** (``--dagger-minutes``): the network plays every seat of its own games (the
   teacher's move instead with a probability halved each round), the teacher labels every
   position reached, and the network fits all labels so far: it learns to recover from its own
   mistakes, which plain imitation never shows it. This phase made the shipped weights.
2. **Self-play PPO** (``--minutes``): the learner plays one side of each game; the other side is
   drawn per game from an opponent pool (``--pool``): a bot by name, or ``self``, a frozen
   earlier copy of the learner. Rewards are the game's +1/-1/0 at the end; advantages are Monte-Carlo returns
   minus the value (gamma = 1).

The network (``MaskedPolicy``): the observation planes, the line planes of
``sequence_game.bots.policy.line_features`` (each cell's open windows of five, by chips held)
and the mask's per-cell legality as three planes (``policy_input``), ``--layers`` 3x3
convolutions of ``--channels``, per-cell logits for the 300 board actions, a linear head on the board's
mean features for the 105 card actions and a value head. Illegal actions get a logit of -1e9
from the mask. The weights save as ``.npz`` (``--save``), which
``sequence_game.bots.policy.PolicyBot`` plays with numpy.

Evaluation plays ``--eval-pairs`` pairs of games against each opponent: every deal twice, the
learner once in each seat, the argmax policy against the bot, and reports the win rate with a
95% Wilson interval over the games.

    .venv/bin/pip install torch==2.13.0          # or: pip install -e '.[rl]'
    nice -n 5 .venv/bin/python examples/train_masked_policy.py --dagger-minutes 17 --dagger-collect 50 \
        --dagger-fit 70 --minutes 0 --channels 48 --layers 4 --eval-pairs 0 --save policy.npz --json
    .venv/bin/python examples/eval_policy_bot.py --weights policy.npz --opponent greedy --pairs 400 --seed 1
    .venv/bin/python examples/train_masked_policy.py --smoke   # CI: seconds, checks it all runs
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy: BLAS threads crawl on a busy machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import math
import random
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from sequence_game.bots import BOTS, Bot, make_bot
from sequence_game.bots.policy import CELL_ACTIONS, INPUT_PLANES, policy_input
from sequence_game.config import GameConfig
from sequence_game.env import SequenceVectorEnv

NUM_ACTIONS = 405


class MaskedPolicy(nn.Module):
    """Conv trunk, per-cell action logits, card-action logits and a value (the layout that
    ``policy.PolicyNetwork`` reads back: keep the names)."""

    def __init__(self, channels: int = 32, layers: int = 3) -> None:
        super().__init__()
        trunk: list[nn.Module] = []
        for i in range(layers):
            trunk += [nn.Conv2d(INPUT_PLANES if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        self.trunk = nn.Sequential(*trunk)
        self.layers = layers
        self.cell_head = nn.Conv2d(channels, 3, 1)
        self.card_head = nn.Linear(channels, NUM_ACTIONS - CELL_ACTIONS)  # on the board's mean
        self.value_head = nn.Sequential(nn.Linear(channels * 100, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``x`` (B, 10, 10, INPUT_PLANES) and ``mask`` (B, 405) -> masked logits (B, 405), value (B,)."""
        h = self.trunk(x.permute(0, 3, 1, 2))
        flat = h.flatten(1)
        cells = self.cell_head(h).flatten(1)  # (B, 3 * 100): kind-major, then row-major cells
        logits = torch.cat([cells, self.card_head(h.mean(dim=(2, 3)))], dim=1)
        logits = logits.masked_fill(mask == 0, -1e9)
        return logits, self.value_head(flat).squeeze(1)

    def act(
        self, obs: np.ndarray, mask: np.ndarray, sample: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Actions, their log-probabilities and the values for a batch of raw planes."""
        with torch.no_grad():
            logits, value = self(torch.from_numpy(policy_input(obs, mask)), torch.from_numpy(mask))
            if sample:
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                return action.numpy(), dist.log_prob(action).numpy(), value.numpy()
            return logits.argmax(dim=1).numpy(), np.zeros(len(obs), np.float32), value.numpy()


@dataclass
class Settings:
    players: int = 2
    teams: int | None = None
    num_envs: int = 64
    teacher: str = "heuristic"
    teacher_seconds: float = 0.0
    dagger_seconds: float = 0.0
    dagger_collect_seconds: float = 60.0
    dagger_fit_seconds: float = 90.0
    dagger_buffer: int = 200_000
    dagger_lr: float = 1e-3
    imitation_epochs: int = 40
    fit_seconds: float = 300.0
    seconds: float = 180.0
    max_updates: int | None = None
    samples_per_update: int = 4096
    epochs: int = 3
    minibatch: int = 512
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.005
    pool: tuple[str, ...] = ("greedy", "self")
    snapshot_every: int = 10
    snapshots_kept: int = 5
    eval_pairs: int = 200
    eval_opponents: tuple[str, ...] = ("random", "greedy")
    seed: int = 0
    log: list[str] = field(default_factory=list)


def say(s: Settings, text: str) -> None:
    print(text, flush=True)
    s.log.append(text)


def sides_of(s: Settings) -> int:
    return GameConfig(players=s.players, teams=s.teams).sides


# --- phase 1: imitation -------------------------------------------------------------------------


def imitate(policy: MaskedPolicy, s: Settings) -> dict[str, float]:
    """Play games with the teacher in every seat, then fit its moves and the outcomes."""
    venv = SequenceVectorEnv(s.num_envs, s.players, s.teams, seed=s.seed + 100)
    rng = random.Random(s.seed)
    teachers = [make_bot(s.teacher, seed=rng.getrandbits(63)) for _ in range(s.num_envs)]
    batch = venv.reset()
    obs_store: list[np.ndarray] = []
    mask_store: list[np.ndarray] = []
    act_store: list[int] = []
    ret_store: list[float] = []
    pending: list[list[tuple[int, int]]] = [[] for _ in range(s.num_envs)]  # (sample, seat) per game
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < s.teacher_seconds or not games:  # at least one whole game
        actions = np.empty(s.num_envs, dtype=np.int64)
        for i, game in enumerate(venv.games):
            seat = int(batch.seat[i])
            actions[i] = teachers[i].select_action(game.view(seat))
            pending[i].append((len(act_store), seat))
            obs_store.append(batch.obs[i].astype(np.float16))
            mask_store.append(batch.mask[i])
            act_store.append(int(actions[i]))
            ret_store.append(0.0)
        batch = venv.step(actions)
        for i in np.flatnonzero(batch.terminated | batch.truncated):
            for sample, seat in pending[i]:
                ret_store[sample] = float(batch.rewards[i, seat])
            pending[i] = []
            games += 1
    unfinished = {k for q in pending for k, _ in q}
    done = [k for k in range(len(act_store)) if k not in unfinished]
    collect_seconds = time.perf_counter() - start
    obs = np.stack([obs_store[k] for k in done])
    masks = np.stack([mask_store[k] for k in done])
    acts = torch.tensor([act_store[k] for k in done])
    rets = torch.tensor([ret_store[k] for k in done], dtype=torch.float32)
    say(s, f"imitation: {len(done)} teacher moves from {games} games in {collect_seconds:.0f} s")
    # A tenth of the games' moves is held out to report how often the network agrees with the
    # teacher on moves it has not seen; fitting stops after the epochs or the time budget.
    held = np.zeros(len(done), dtype=bool)
    held[np.random.default_rng(s.seed).permutation(len(done))[: len(done) // 10]] = True
    train_idx, test_idx = np.flatnonzero(~held), np.flatnonzero(held)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    agree = 0.0
    fit_start = time.perf_counter()
    for epoch in range(s.imitation_epochs):
        for idx in torch.from_numpy(train_idx)[torch.randperm(len(train_idx))].split(s.minibatch // 2):
            x = torch.from_numpy(policy_input(obs[idx.numpy()].astype(np.float32), masks[idx.numpy()]))
            logits, value = policy(x, torch.from_numpy(masks[idx.numpy()]))
            loss = nn.functional.cross_entropy(logits, acts[idx]) + 0.5 * (value - rets[idx]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if len(test_idx):
            with torch.no_grad():
                x = torch.from_numpy(policy_input(obs[test_idx].astype(np.float32), masks[test_idx]))
                logits, _ = policy(x, torch.from_numpy(masks[test_idx]))
            agree = float((logits.argmax(1) == acts[torch.from_numpy(test_idx)]).float().mean())
        say(s, f"  epoch {epoch + 1}: agrees with {s.teacher} on {agree:.1%} of held-out moves")
        if time.perf_counter() - fit_start > s.fit_seconds:
            break
    return {"samples": len(done), "games": games, "seconds": time.perf_counter() - start, "agreement": agree}


# --- phase 1b: DAgger (imitation on the learner's own games) ---------------------------------------


def dagger(policy: MaskedPolicy, s: Settings) -> dict[str, float]:
    """DAgger: the learner plays every seat; the teacher labels each position it reaches.

    Plain imitation only shows the network the teacher's own games; once the network errs it
    reaches positions the teacher never shows it, and errs more. Here each round plays
    ``dagger_collect_seconds`` of batched games in which a move is the teacher's with probability
    ``beta`` (1 in the first round, halved each round) and the network's argmax otherwise, stores
    every position with the teacher's choice, then fits the network on all positions so far (a
    buffer of the last ``dagger_buffer``) for ``dagger_fit_seconds``. The learning rate falls
    linearly to a tenth over the phase."""
    venv = SequenceVectorEnv(s.num_envs, s.players, s.teams, seed=s.seed + 200)
    rng = random.Random(s.seed + 3)
    np_rng = np.random.default_rng(s.seed + 3)
    teachers = [make_bot(s.teacher, seed=rng.getrandbits(63)) for _ in range(s.num_envs)]
    cap = s.dagger_buffer
    inputs = np.zeros((cap, 10, 10, INPUT_PLANES), dtype=np.float16)
    masks = np.zeros((cap, NUM_ACTIONS), dtype=np.int8)
    labels = np.zeros(cap, dtype=np.int64)
    stored = 0  # positions ever stored; slot = stored % cap
    opt = torch.optim.Adam(policy.parameters(), lr=s.dagger_lr)
    batch = venv.reset()
    start = time.perf_counter()
    rounds = games = 0
    agreement = 0.0
    while time.perf_counter() - start < s.dagger_seconds or not rounds:
        beta = 0.5**rounds
        collect_start = time.perf_counter()
        agree = seen = 0
        while time.perf_counter() - collect_start < s.dagger_collect_seconds or not seen:
            label = np.array(
                [
                    t.select_action(g.view(int(batch.seat[i])))
                    for i, (t, g) in enumerate(zip(teachers, venv.games, strict=True))
                ]
            )
            x = policy_input(batch.obs, batch.mask)
            with torch.no_grad():
                logits, _ = policy(torch.from_numpy(x), torch.from_numpy(batch.mask))
            student = logits.argmax(dim=1).numpy()
            agree += int((student == label).sum())
            seen += len(label)
            slots = (stored + np.arange(len(label))) % cap
            inputs[slots], masks[slots], labels[slots] = x, batch.mask, label
            stored += len(label)
            played = np.where(np_rng.random(len(label)) < beta, label, student)
            batch = venv.step(played)
            games += int((batch.terminated | batch.truncated).sum())
        agreement = agree / seen
        size = min(stored, cap)
        fit_start = time.perf_counter()
        steps = 0
        losses: list[float] = []
        while time.perf_counter() - fit_start < s.dagger_fit_seconds or not steps:
            done = min(1.0, (time.perf_counter() - start) / max(s.dagger_seconds, 1.0))
            for group in opt.param_groups:
                group["lr"] = s.dagger_lr * (1.0 - 0.9 * done)
            idx = np_rng.integers(0, size, s.minibatch)
            logits, _ = policy(torch.from_numpy(inputs[idx].astype(np.float32)), torch.from_numpy(masks[idx]))
            loss = nn.functional.cross_entropy(logits, torch.from_numpy(labels[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
            steps += 1
        rounds += 1
        say(
            s,
            f"  round {rounds} (beta {beta:.2f}): the network chose {s.teacher}'s move in {agreement:.1%} "
            f"of {seen} positions; {size} stored, {steps} minibatches, loss {np.mean(losses[-50:]):.3f}, "
            f"{time.perf_counter() - start:.0f} s",
        )
    return {
        "rounds": rounds,
        "positions": stored,
        "games": games,
        "agreement": agreement,
        "seconds": time.perf_counter() - start,
    }


# --- phase 2: self-play PPO against a pool ------------------------------------------------------


class Pool:
    """The opponents of the learner: bots by name and frozen copies of the learner ("self")."""

    def __init__(self, s: Settings, policy: MaskedPolicy) -> None:
        self.names = s.pool
        self.kept = s.snapshots_kept
        self.rng = random.Random(s.seed + 7)
        self.snapshots: list[MaskedPolicy] = []
        self.bots: dict[str, Bot] = {
            n: make_bot(n, seed=self.rng.getrandbits(63)) for n in self.names if n != "self"
        }
        self.snapshot(policy)

    def snapshot(self, policy: MaskedPolicy) -> None:
        copy = MaskedPolicy(policy.cell_head.in_channels, policy.layers)
        copy.load_state_dict(policy.state_dict())
        self.snapshots = [*self.snapshots, copy][-self.kept :]

    def draw(self) -> int | str:
        """A bot name, or the index of a snapshot."""
        name = self.rng.choice(self.names)
        return self.rng.randrange(len(self.snapshots)) if name == "self" else name


def train(policy: MaskedPolicy, s: Settings) -> dict[str, float]:
    """PPO (clipped objective) on the learner's moves; the pool plays the other side."""
    venv = SequenceVectorEnv(s.num_envs, s.players, s.teams, seed=s.seed)
    sides = sides_of(s)
    pool = Pool(s, policy)
    rng = random.Random(s.seed + 1)
    learner_side = [rng.randrange(sides) for _ in range(s.num_envs)]
    opponent: list[int | str] = [pool.draw() for _ in range(s.num_envs)]
    opt = torch.optim.Adam(policy.parameters(), lr=s.lr)
    batch = venv.reset()
    start = time.perf_counter()
    updates = steps = episodes = wins = 0
    recent: list[float] = []
    # Each game's learner moves wait here until it ends, then join the update's data with its return.
    pending: list[list[tuple[np.ndarray, np.ndarray, int, float, float]]] = [[] for _ in range(s.num_envs)]
    while time.perf_counter() - start < s.seconds and (s.max_updates is None or updates < s.max_updates):
        done: list[tuple[np.ndarray, np.ndarray, int, float, float]] = []
        returns: list[float] = []
        while len(done) < s.samples_per_update:
            mine = np.array([int(batch.seat[i]) % sides == learner_side[i] for i in range(s.num_envs)])
            actions = np.empty(s.num_envs, dtype=np.int64)
            idx = np.flatnonzero(mine)
            if len(idx):
                act, logp, val = policy.act(batch.obs[idx], batch.mask[idx], sample=True)
                actions[idx] = act
                for j, i in enumerate(idx):
                    pending[i].append(
                        (batch.obs[i], batch.mask[i], int(act[j]), float(logp[j]), float(val[j]))
                    )
            by_snapshot: dict[int, list[int]] = {}
            for i in np.flatnonzero(~mine):
                who = opponent[i]
                if isinstance(who, str):
                    actions[i] = pool.bots[who].select_action(venv.games[i].view(int(batch.seat[i])))
                else:
                    by_snapshot.setdefault(who, []).append(int(i))
            for who, slots in by_snapshot.items():
                actions[slots] = pool.snapshots[who].act(batch.obs[slots], batch.mask[slots], sample=True)[0]
            batch = venv.step(actions)
            steps += len(idx)
            for i in np.flatnonzero(batch.terminated | batch.truncated):
                reward = float(batch.rewards[i, learner_side[i]])  # seat `side` plays for it (R2.3)
                done += pending[i]
                returns += [reward] * len(pending[i])
                pending[i] = []
                episodes += 1
                if opponent[i] == "greedy":
                    recent = [*recent, float(reward > 0)][-200:]
                wins += reward > 0
                learner_side[i] = rng.randrange(sides)
                opponent[i] = pool.draw()
        mask_np = np.stack([d[1] for d in done])
        obs = torch.from_numpy(policy_input(np.stack([d[0] for d in done]), mask_np))
        mask = torch.from_numpy(mask_np)
        act = torch.tensor([d[2] for d in done])
        old_logp = torch.tensor([d[3] for d in done], dtype=torch.float32)
        ret = torch.tensor(returns, dtype=torch.float32)
        adv = ret - torch.tensor([d[4] for d in done], dtype=torch.float32)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(s.epochs):
            for mb in torch.randperm(len(act)).split(s.minibatch):
                logits, value = policy(obs[mb], mask[mb])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(act[mb]) - old_logp[mb]).exp()
                clipped = torch.clamp(ratio, 1 - s.clip, 1 + s.clip) * adv[mb]
                loss = (
                    -torch.min(ratio * adv[mb], clipped).mean()
                    + 0.5 * (ret[mb] - value).pow(2).mean()
                    - s.entropy * dist.entropy().mean()
                )
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        updates += 1
        if updates % s.snapshot_every == 0:
            pool.snapshot(policy)
        if updates % 5 == 0:
            vs_greedy = f"{np.mean(recent):.2f} of the last {len(recent)}" if recent else "n/a"
            say(s, f"  update {updates}: {steps} learner moves, {episodes} games, wins vs greedy {vs_greedy}")
    return {"updates": updates, "steps": steps, "episodes": episodes, "seconds": time.perf_counter() - start}


# --- evaluation ---------------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def evaluate(policy: MaskedPolicy, s: Settings, opponent: str, pairs: int) -> dict[str, object]:
    """The argmax policy against ``opponent`` on ``pairs`` deals, each played with the learner's
    side in the first and then the second seat (same deal, same bot seeds)."""
    results = []
    for side in range(2):
        seats = list(GameConfig(players=s.players, teams=s.teams).seats_of(side))
        venv = SequenceVectorEnv(
            pairs, s.players, s.teams, learner_seats=seats, opponents=opponent, seed=s.seed + 10_000
        )
        batch = venv.reset()
        result = np.full(pairs, np.nan)
        while np.isnan(result).any():
            batch = venv.step(policy.act(batch.obs, batch.mask, sample=False)[0])
            ended = (batch.terminated | batch.truncated) & np.isnan(result)
            result[ended] = batch.rewards[ended, seats[0]]
        results.append(result)
    both = np.concatenate(results)
    wins = int((both > 0).sum())
    low, high = wilson(wins, len(both))
    return {
        "games": len(both),
        "win": wins / len(both),
        "draw": float((both == 0).mean()),
        "loss": float((both < 0).mean()),
        "win_95": [round(low, 4), round(high, 4)],
        "win_first_seat": float((results[0] > 0).mean()),
        "win_second_seat": float((results[1] > 0).mean()),
    }


def report(s: Settings, label: str, rates: dict[str, dict[str, object]]) -> None:
    for name, r in rates.items():
        low, high = r["win_95"]  # type: ignore[misc]
        say(
            s,
            f"{label} vs {name}: win rate {r['win']:.3f} [{low:.3f}, {high:.3f}] over {r['games']} games "
            f"(draws {r['draw']:.3f}; first seat {r['win_first_seat']:.3f}, second {r['win_second_seat']:.3f})",
        )


def save_npz(policy: MaskedPolicy, path: str) -> None:
    """The weights as ``.npz`` (what ``PolicyBot`` loads without torch), value head left out."""
    arrays = {k: v.detach().numpy() for k, v in policy.state_dict().items() if not k.startswith("value_head")}
    np.savez_compressed(path, **arrays)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="self-play PPO time")
    parser.add_argument("--teacher", default="heuristic", help="the bot imitated first")
    parser.add_argument("--teacher-minutes", type=float, default=0.0, help="time collecting its moves")
    parser.add_argument("--fit-minutes", type=float, default=5.0, help="most time fitting its moves")
    parser.add_argument("--dagger-minutes", type=float, default=0.0, help="DAgger time (teacher labels)")
    parser.add_argument("--dagger-collect", type=float, default=60.0, help="seconds of play per round")
    parser.add_argument("--dagger-fit", type=float, default=90.0, help="seconds of fitting per round")
    parser.add_argument("--dagger-buffer", type=int, default=200_000, help="positions kept")
    parser.add_argument("--pool", default="greedy,self", help="opponents: bot names and 'self'")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, default=None)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--layers", type=int, default=3, help="3x3 convolutions in the trunk")
    parser.add_argument("--eval-pairs", type=int, default=200, help="deals per opponent, played twice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: tiny everything (CI)")
    parser.add_argument("--save", help="write the trained weights here (.npz for PolicyBot, and .npz.pt)")
    parser.add_argument("--init", help="start from these PyTorch weights (a --save run's .npz.pt)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    pool = tuple(p.strip() for p in args.pool.split(",") if p.strip())
    for name in (*pool, args.teacher):
        if name != "self" and name not in BOTS:
            parser.error(f"unknown bot {name!r}; choose from {', '.join(BOTS)} (or 'self' in --pool)")
    s = Settings(
        players=args.players,
        teams=args.teams,
        num_envs=args.num_envs,
        teacher=args.teacher,
        teacher_seconds=args.teacher_minutes * 60,
        fit_seconds=args.fit_minutes * 60,
        dagger_seconds=args.dagger_minutes * 60,
        dagger_collect_seconds=args.dagger_collect,
        dagger_fit_seconds=args.dagger_fit,
        dagger_buffer=args.dagger_buffer,
        seconds=args.minutes * 60,
        pool=pool,
        eval_pairs=args.eval_pairs,
        seed=args.seed,
    )
    if args.smoke:
        s.num_envs, s.samples_per_update, s.epochs, s.max_updates = 4, 32, 1, 2
        s.teacher_seconds, s.imitation_epochs, s.eval_pairs = min(s.teacher_seconds, 1.0), 1, 2
        s.dagger_seconds = min(s.dagger_seconds, 1.0)
        s.dagger_collect_seconds, s.dagger_fit_seconds, s.dagger_buffer = 0.2, 0.2, 256
    policy = MaskedPolicy(args.channels, args.layers)
    if args.init:
        policy.load_state_dict(torch.load(args.init))
    summary: dict[str, object] = {
        "players": s.players,
        "teams": s.teams,
        "pool": list(pool),
        "init": args.init,
    }
    started = time.perf_counter()
    if s.teacher_seconds > 0:
        say(s, f"imitating {s.teacher} for {s.teacher_seconds:.0f} s of play ...")
        summary["imitation"] = imitate(policy, s)
        if args.save:  # a checkpoint: the imitation alone, before self-play
            save_npz(policy, args.save + ".imitation.npz")
            torch.save(policy.state_dict(), args.save + ".imitation.pt")
        if not args.smoke and s.eval_pairs:
            pairs = min(s.eval_pairs, 200)  # a first look, against greedy only: time is short
            summary["after_imitation"] = {"greedy": evaluate(policy, s, "greedy", pairs)}
            report(s, "after imitation", summary["after_imitation"])  # type: ignore[arg-type]
    if s.dagger_seconds > 0:
        say(s, f"DAgger with {s.teacher} labelling the network's own games for {s.dagger_seconds:.0f} s ...")
        summary["dagger"] = dagger(policy, s)
        if args.save:  # a checkpoint: before self-play
            save_npz(policy, args.save + ".dagger.npz")
            torch.save(policy.state_dict(), args.save + ".dagger.pt")
    if s.seconds > 0 or args.smoke:
        budget = f"{s.max_updates} updates" if s.max_updates else f"up to {s.seconds:.0f} s"
        say(s, f"self-play PPO against {', '.join(pool)} for {budget} ...")
        summary["training"] = train(policy, s)
    summary["training_seconds"] = time.perf_counter() - started
    summary["after"] = {n: evaluate(policy, s, n, s.eval_pairs) for n in s.eval_opponents if s.eval_pairs}
    report(s, "after training", summary["after"])  # type: ignore[arg-type]
    for name, rates in summary["after"].items():  # type: ignore[attr-defined]
        print(
            f"win rate vs {name}: {rates['win']:.2f} (draws {rates['draw']:.2f}) over {rates['games']} games"
        )
    if args.save:
        save_npz(policy, args.save)
        torch.save(policy.state_dict(), args.save + ".pt")
    if args.json:
        print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
