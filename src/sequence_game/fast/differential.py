"""Lock-step play of the fast engine against the pure one (the reference).

Both engines deal the same deck from the same dealer; every action is chosen once and applied to
both; a reshuffle (R5.4) made by the fast engine is handed to the pure one through its
``reshuffle_source``, after checking that both shuffle the same cards. After every action the two
must agree on the whole state (board, locks, sequences, hands, discard piles, draw pile order,
turn, seat, stuck run), on the legal action set and, at the end, on the outcome.

>>> from sequence_game import GameConfig
>>> result = play_lockstep(GameConfig(players=2), seed=1)
>>> result.actions > 0 and result.outcome is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from ..cards import FULL_DECK, Card
from ..config import TEAM_OPTIONS, GameConfig
from ..state import GameState, Outcome
from . import kernels as k
from .engine import FastGame

CONFIGS: Final = tuple(
    GameConfig(players=p, teams=t) for p, options in sorted(TEAM_OPTIONS.items()) for t in options
)
"""Every table the rules allow (R2.1, R2.2): ten configurations."""


class Mismatch(AssertionError):
    """The engines disagree: the message says where, with the seed to replay it."""


@dataclass(frozen=True)
class LockstepResult:
    actions: int
    outcome: Outcome | None
    reshuffles: int
    dead_exchanges: int
    stuck_discards: int


def _discard_counts(piles: list[list[Card]], sides: int) -> list[list[int]]:
    """Face-up discards per card, by side and all: what the fast row keeps up to date (``O_DCOUNT``)."""
    counts = [[0] * k.COLUMNS for _ in range(4)]
    for seat, pile in enumerate(piles):
        for card in pile:
            counts[seat % sides][card] += 1
            counts[3][card] += 1
    return counts


def _pure_snapshot(pure: GameState) -> tuple[object, ...]:
    sides, players = pure.config.sides, pure.players
    piles = [pure.discard_pile(s) for s in range(players)]
    return (
        pure.current_seat,
        pure.turn,
        pure.dead_card_exchanged,
        pure.outcome(),
        pure.locked,
        pure._deck[::-1],
        pure._stuck_run,
        [pure.chips(s) for s in range(sides)],
        [list(w) for w in pure._seqs],
        [pure.hand(s) for s in range(players)],
        piles,
        _discard_counts(piles, sides),
        pure.legal_actions(),
    )


def _fast_snapshot(fast: FastGame) -> tuple[object, ...]:
    sides, players = fast.sides, fast.players
    piles: list[list[Card]] = [[] for _ in range(players)]
    n = fast._get(k.I_DISCLEN)
    for card, seat in zip(
        fast.row[k.O_DISC : k.O_DISC + n].tolist(), fast.row[k.O_DSEAT : k.O_DSEAT + n].tolist(), strict=True
    ):
        piles[seat].append(card)
    return (
        fast.current_seat,
        fast.turn,
        fast.dead_card_exchanged,
        fast.outcome(),
        fast.locked,
        fast.draw_pile(),
        fast.stuck_run,
        [fast.chips(s) for s in range(sides)],
        [fast.sequence_windows(s) for s in range(sides)],
        [fast.hand(s) for s in range(players)],
        piles,
        fast.row[k.O_DCOUNT : k.O_DCOUNT + 4 * k.COLUMNS].reshape(4, k.COLUMNS).tolist(),
        fast.legal_actions(),
    )


_PARTS: Final = (
    "seat",
    "turn",
    "dead card exchanged",
    "outcome",
    "locked",
    "draw pile",
    "stuck run",
    "chips by side",
    "sequence windows by side",
    "hands",
    "discard piles",
    "discard counts",
    "legal actions",
)


def compare(pure: GameState, fast: FastGame, where: str) -> None:
    """Raise :class:`Mismatch` unless the two states are the same in every observable part."""
    want, got = _pure_snapshot(pure), _fast_snapshot(fast)
    if want != got:
        for name, a, b in zip(_PARTS, want, got, strict=True):
            if a != b:
                raise Mismatch(f"{where}: {name}: pure {a!r} != fast {b!r}")


def play_lockstep(
    config: GameConfig, seed: int, *, fast_choices: float = 0.5, max_actions: int = 5000
) -> LockstepResult:
    """Play one game on both engines from ``seed`` and compare after every action.

    Each action is, with probability ``fast_choices``, the fast engine's own
    :meth:`FastGame.random_action` (which must be legal for the pure engine too), else uniform
    over the pure engine's legal actions.
    """
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    dealer = rng.randrange(config.players)
    fast = FastGame(config, deck, dealer, seed=rng.getrandbits(63))

    def fast_order(pool: list[Card]) -> list[Card]:
        order = fast.last_reshuffle()
        if sorted(order) != sorted(pool):
            raise Mismatch(f"seed {seed}: the engines reshuffle different cards: {pool} vs {order}")
        return order

    pure = GameState(config, deck, dealer, reshuffle_source=fast_order)
    where = f"{config}, seed {seed}, before any action"
    compare(pure, fast, where)
    actions = dead = stuck = 0
    while not pure.is_terminal() and actions < max_actions:
        legal = pure.legal_actions()
        if rng.random() < fast_choices:
            action = fast.random_action()
            if action not in legal:
                raise Mismatch(f"{where}: the fast random action {action} is not legal")
        else:
            action = legal[rng.randrange(len(legal))]
        dead += 300 <= action < 352
        stuck += 352 <= action < 404
        fast.apply(action)
        pure.apply(action)
        actions += 1
        where = f"{config}, seed {seed}, after action {actions} ({pure.action_name(action)})"
        compare(pure, fast, where)
    return LockstepResult(actions, pure.outcome(), fast.reshuffles, dead, stuck)


def seeds(start: int, count: int) -> Iterator[tuple[GameConfig, int]]:
    """``count`` games spread over :data:`CONFIGS` in turn, seeds from ``start``."""
    for i in range(count):
        yield CONFIGS[i % len(CONFIGS)], start + i
