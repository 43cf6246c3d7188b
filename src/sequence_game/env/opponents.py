"""Bots in the seats an agent does not control: built by name, seeded, and fed views only.

Their budget is a number of simulations (``DEFAULT_BOT_LIMIT`` unless given), so that a seeded
reset replays the same episode: a time budget lets the load of the machine choose the moves,
and a ``Limit`` with ``seconds`` draws a warning saying so.

>>> from sequence_game import GameConfig, new_game
>>> table = BotSeats(GameConfig(players=2), learner_seats=[0], names="random")
>>> table.reseat(seed=1)
>>> state = new_game(GameConfig(players=2), seed=5)
>>> table.play_until_learner(state, max_turns=1000)
>>> state.current_seat
0
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from ..bots import Bot, Limit, make_bot
from ..config import GameConfig
from ..state import GameState, new_game
from .table import DEFAULT_BOT_LIMIT

#: R7.1 can, very rarely, end a big game before a learner's first turn; then we deal again.
REDEALS: Final = 100


class BotSeats:
    """The bots of one table; ``names`` is one bot name (any of ``bots.BOTS``) for every other seat,
    or one per other seat in seat order; ``limit`` is each bot's budget per move (default
    ``DEFAULT_BOT_LIMIT``, a number of simulations)."""

    def __init__(
        self,
        config: GameConfig,
        learner_seats: Iterable[int],
        names: str | Sequence[str] = "random",
        limit: Limit | None = None,
    ) -> None:
        self.learner_seats = frozenset(learner_seats)
        if not self.learner_seats or any(
            not isinstance(s, int) or not 0 <= s < config.players for s in self.learner_seats
        ):
            raise ValueError(
                f"learner seats {sorted(self.learner_seats)!r} are not seats 0..{config.players - 1}"
            )
        self.bot_seats = tuple(s for s in range(config.players) if s not in self.learner_seats)
        if isinstance(names, str):
            names = [names] * len(self.bot_seats)
        names = list(names)
        if len(names) != len(self.bot_seats):
            raise ValueError(f"{len(names)} bot names for {len(self.bot_seats)} bot seats {self.bot_seats}")
        self.names = tuple(names)
        if limit is not None and limit.seconds is not None:
            warnings.warn(
                f"bot_limit={limit!r} gives the bots time, so a seeded reset no longer replays the same "
                "episode (how far a search gets depends on the machine); Limit(simulations=n) keeps it "
                "reproducible",
                stacklevel=3,
            )
        self.limit = DEFAULT_BOT_LIMIT if limit is None else limit
        self.bots: dict[int, Bot] = {}
        self.reseat(None)  # make_bot refuses an unknown name here, listing the known ones

    def reseat(self, seed: int | None) -> None:
        """Fresh bots for a new game, each seeded from ``seed`` (a game replays exactly)."""
        rng = random.Random(seed)
        self.bots = {
            seat: make_bot(name, seed=rng.getrandbits(63))
            for seat, name in zip(self.bot_seats, self.names, strict=True)
        }

    def play_until_learner(self, state: GameState, max_turns: int) -> None:
        """Let bots act until a learner seat is to act, the game ends or ``max_turns`` is reached."""
        while not state.is_terminal() and state.turn < max_turns:
            seat = state.current_seat
            bot = self.bots.get(seat)
            if bot is None:
                return
            state.apply(bot.select_action(state.view(seat), self.limit), seat)

    def deal(self, config: GameConfig, seeds: Callable[[], int], max_turns: int) -> GameState:
        """A new game with fresh bots, played up to a learner's first turn; ``seeds()`` gives the
        game's seed, then the bots'."""
        for _ in range(REDEALS):
            game = new_game(config, seed=seeds())
            self.reseat(seeds())
            self.play_until_learner(game, max_turns)
            if not game.is_terminal():
                return game
        raise RuntimeError(f"{REDEALS} deals in a row ended before a learner seat could play")
