"""Training positions from self-play: ``hard`` against ``hard`` on the compiled engine.

Why this way: the evaluator answers "who wins from here if both sides play like ``hard``", so
its examples are positions of such games labelled with how they ended. The moves come from the
compiled heuristic with inference (``fast.heuristic.INFERRING``, move for move the scoring of
the ``heuristic`` bot that plays ``hard``), a few microseconds each; the same deal is replayed in
lock step on the pure engine, whose :class:`~sequence_game.views.PlayerView` gives the features
exactly as they are computed at play time. The replay stops at the first reshuffle (R5.4: the
two engines shuffle with different generators); the fast game goes on to its end for the label.

At every turn two views are kept: the seat to move's and a random seat of another side (the
evaluator judges from any seat, on its turn or not).

**Explored games** (``explore=True``). Positions of ``hard`` against ``hard`` alone teach the
network only what follows the plays ``hard`` makes; the analysis also judges the plays it would
not make (the alternatives of every decision, and whole games of other players). Measured: on
games of ``heuristic`` against ``greedy``, the plays the first evaluator called clear mistakes of
``heuristic`` (most of them "use a jack now") lost 0.025 of a chance in rollouts of ``hard`` from
there, against the 0.110 it claimed. An explored game therefore deviates before a random turn
``T``: each move there is, with :data:`EXPLORE_GREEDY` and :data:`EXPLORE_RANDOM`, the ``greedy``
bot's or a random legal one. From ``T`` on both sides play ``hard``, and only those positions are
kept, so their labels still mean "``hard`` from here", now from positions ``hard`` would not reach.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from ..cards import FULL_DECK
from ..config import GameConfig
from ..fast import heuristic as h
from ..fast import kernels as k
from ..fast.engine import FastGame
from ..features.position import NUM_FEATURES, ViewParts, features, view_parts
from ..state import new_game

#: Tables and how often each is dealt: every layout the rules allow (R2), two players most.
TABLES: Final[tuple[tuple[GameConfig, float], ...]] = (
    (GameConfig(players=2), 0.40),
    (GameConfig(players=3), 0.14),
    (GameConfig(players=4, teams=2), 0.14),
    (GameConfig(players=6, teams=2), 0.06),
    (GameConfig(players=6, teams=3), 0.06),
    (GameConfig(players=8, teams=2), 0.04),
    (GameConfig(players=9, teams=3), 0.05),
    (GameConfig(players=10, teams=2), 0.04),
    (GameConfig(players=12, teams=2), 0.03),
    (GameConfig(players=12, teams=3), 0.04),
)
MAX_TURNS: Final = 400
"""A game still going after this many turns is dropped (none did in the measurements)."""
EXPLORE_GREEDY: Final = 0.2
"""In an explored game, the share of moves before its turn ``T`` that ``greedy`` chooses."""
EXPLORE_RANDOM: Final = 0.1
"""... and the share chosen uniformly among the legal ones."""
EXPLORE_TURNS: Final = 2.0
"""``T`` is uniform over the first ``EXPLORE_TURNS * players * 10`` turns (about a game's length)."""


@dataclass
class Positions:
    """Examples: features, the viewer side's result (1 win, 0.5 drawn game, 0 loss) and where
    each comes from (for held-out splits by game and for reports by stage of the game)."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray
    turn: np.ndarray
    length: np.ndarray
    players: np.ndarray
    sides: np.ndarray
    mover: np.ndarray

    @classmethod
    def concat(cls, parts: Sequence[Positions]) -> Positions:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in cls.__dataclass_fields__))

    def save(self, path: str) -> None:
        np.savez_compressed(path, **{f: getattr(self, f) for f in self.__dataclass_fields__})

    @classmethod
    def load(cls, path: str) -> Positions:
        with np.load(path) as data:
            return cls(*(data[f] for f in cls.__dataclass_fields__))

    def __len__(self) -> int:
        return len(self.y)


def pick_table(rng: random.Random, tables: Sequence[tuple[GameConfig, float]] = TABLES) -> GameConfig:
    return rng.choices([t for t, _ in tables], weights=[w for _, w in tables])[0]


def play_game(
    config: GameConfig, seed: int, explore: bool = False
) -> tuple[list[tuple[ViewParts, int, bool]], int | None, int]:
    """One ``hard`` vs ``hard`` game: the kept views ``(parts, turn, is_mover)`` with their
    seats' sides, the winning side (``None``: drawn, or cut off), and its length in turns.
    ``explore``: the moves before a random turn deviate, and only the views from it are kept."""
    rng = random.Random(seed)
    until = rng.randrange(int(EXPLORE_TURNS * config.players * 10)) if explore else 0
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    dealer = rng.randrange(config.players)
    game = FastGame(config, deck, dealer, seed=rng.getrandbits(62))
    state = new_game(config, dealer=dealer, deck=deck)
    rs = np.array([k.seed_state(rng.getrandbits(62) | 1)], dtype=np.uint64)
    iw, fw = h.new_work()
    kept: list[tuple[ViewParts, int, bool]] = []
    following = True
    turns = 0
    while not game.is_terminal() and turns < MAX_TURNS:
        seat = game.current_seat
        if following and turns >= until:
            other = rng.choice([s for s in range(config.players) if s % config.sides != seat % config.sides])
            kept.append((view_parts(state.view(seat)), seat, True))
            kept.append((view_parts(state.view(other)), other, False))
        action = _explored(game, rng, rs, iw, fw) if turns < until else -1
        if action < 0:
            action = int(h.choose_policy_with(game.row, rs, 0, iw, fw, h.INFERRING))
        game.apply(action)
        if following:
            state.apply(action, seat)
            following = state._reshuffles == 0 and game.reshuffles == 0
        turns += 1
    outcome = game.outcome()
    return kept, None if outcome is None else outcome.winner, turns


def _explored(game: FastGame, rng: random.Random, rs: np.ndarray, iw: np.ndarray, fw: np.ndarray) -> int:
    """A deviating move of an explored game, or -1 where ``hard`` moves."""
    roll = rng.random()
    if roll < EXPLORE_GREEDY:
        return int(h.choose_policy_with(game.row, rs, 0, iw, fw, h.GREEDY))
    if roll < EXPLORE_GREEDY + EXPLORE_RANDOM:
        return rng.choice(game.legal_actions())
    return -1


def generate(
    seeds: Sequence[int], tables: Sequence[tuple[GameConfig, float]] = TABLES, explore: bool = False
) -> Positions:
    """The positions of one game per seed (the table drawn from the seed), labelled."""
    xs: list[ViewParts] = []
    ys: list[float] = []
    meta: list[tuple[int, int, int, int, int, bool]] = []
    for seed in seeds:
        config = pick_table(random.Random(seed ^ 0x5EED), tables)
        kept, winner, length = play_game(config, seed, explore)
        if length >= MAX_TURNS:
            continue
        for parts, seat, mover in kept:
            side = seat % config.sides
            xs.append(parts)
            ys.append(0.5 if winner is None else float(winner == side))
            meta.append((seed, parts.turn, length, config.players, config.sides, mover))
    x = features(xs) if xs else np.zeros((0, NUM_FEATURES), dtype=np.float32)
    m = np.array(meta, dtype=np.int64).reshape(-1, 6)
    return Positions(
        x=x,
        y=np.array(ys, dtype=np.float32),
        game=m[:, 0],
        turn=m[:, 1].astype(np.int16),
        length=m[:, 2].astype(np.int16),
        players=m[:, 3].astype(np.int8),
        sides=m[:, 4].astype(np.int8),
        mover=m[:, 5].astype(bool),
    )


def chunks(start: int, count: int, size: int) -> Iterator[range]:
    for first in range(start, start + count, size):
        yield range(first, min(first + size, start + count))
