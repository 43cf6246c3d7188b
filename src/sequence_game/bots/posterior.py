"""Worlds weighted by how well they explain the other seats' last plays.

A sampled world gives every other seat a hand. That seat has just played, and a player who plays
about as the ``heuristic`` bot does would have played what it did only with some hands: a line
toward spaces it holds cards for scores higher, a four it can fill is a threat worth building, a
dead card would have been exchanged first (R5.1). :class:`PosteriorDealer` asks the compiled
heuristic, for each candidate world, how far the seat's actual last play falls short of its own
choice with the hand the world rebuilds for that moment (the cards dealt as held since then plus
the card played), and keeps worlds in proportion to ``exp(-regret / temperature)``: importance
resampling from the reading's worlds toward the posterior under that model of the other players.
Measured (``docs/research/bots-log.md``, twentieth pass): the last play says about a tenth of a natural card
more than the reading, and the ``pimc`` bot's ``posterior`` option gains nothing in games.

It reads only the public history and the view's own cards, so it is as fair as the view; against a
player who is not the heuristic it only weights worlds by a model that is off, never by the truth.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..actions import DEAD, DRAW
from ..state import GameState
from ..views import PlayerView
from .determinize import Determinizer
from .inference import boards_before, exchanged_before, taken_since

if TYPE_CHECKING:  # numpy comes with the fast extra: imported where a dealer is used, not here
    import numpy as np


def last_plays(view: PlayerView) -> dict[int, int]:
    """Per other seat, the history index of its last R5.2 play, where that play can be rebuilt:
    auto draws, no reshuffle (R5.4) or table event since, no dead-card exchange of its own since."""
    if view.config.draw != "auto":
        return {}
    out: dict[int, int] = {}
    done: set[int] = set()
    for i in range(len(view.history) - 1, -1, -1):
        seat, action = view.history[i][0], view.history[i][1]
        if seat < 0:
            break  # a reshuffle or table event: the piles before it are not rebuilt
        if seat == view.seat or seat in done:
            continue
        done.add(seat)
        if action < DEAD:
            out[seat] = i
    return out


def past_row(view: PlayerView, i: int) -> np.ndarray:
    """The compiled engine's row of the position just before ``view.history[i]``, its mover to play:
    the board, discard piles and log then, the hand sizes of now (auto draws keep them). Every hand
    holds placeholder cards: the caller writes the mover's guessed hand in
    (:func:`~sequence_game.fast.posterior.play_regrets`)."""
    import numpy as np

    from ..fast import kernels as k
    from ..fast.engine import position_spec

    mover = view.history[i][0]
    boards = boards_before(view, {i})
    if boards is None:
        raise ValueError("a position set up without its history: its past cannot be rebuilt")
    board = boards[i]
    piles = [list(p) for p in view.discards]
    for later in view.history[i:]:
        if later[0] >= 0 and later[1] < DRAW:
            piles[later[0]].pop()
    hands = [[0] * size for size in view.hand_sizes]
    head = (mover, int(exchanged_before(view.history, i)), i, 0, k.END_NONE, -1, 0)
    parts = (hands, [0] * view.deck_size, piles)
    spec = position_spec(view.config, head, board.chips, board.locked, board.windows, parts, view.history[:i])
    row = np.empty(k.ROW, dtype=np.int32)
    k.load_position(row, spec)
    return row


class PosteriorDealer:
    """A :class:`~sequence_game.bots.mcts.Determinizer`'s worlds, resampled by the likelihood of
    each other seat's last play under the heuristic (``exp(-regret / temperature)``), from
    ``proposals`` candidate worlds per world kept."""

    def __init__(
        self,
        source: Determinizer,
        view: PlayerView,
        rng: random.Random,
        temperature: float,
        proposals: int = 4,
    ) -> None:
        from ..fast import posterior

        self.source = source
        self.rng = rng
        self.temperature = temperature
        self.proposals = proposals
        self.regrets = posterior.play_regrets
        self.evidence: list[tuple[int, np.ndarray, int, int, int]] = []
        """Per other seat with a play to explain: its seat, the row before the play, the action,
        the card played and how many of its cards it has taken in since."""
        for seat, i in last_plays(view).items():
            action, card = view.history[i][1], view.history[i][2]
            taken = taken_since(view.history, i, seat, True)
            if taken > view.hand_sizes[seat]:
                continue
            self.evidence.append((seat, past_row(view, i), action, card, taken))
        self.last_ess = 0.0
        """The effective number of distinct proposals behind the last batch (a diagnostic)."""

    def sample_batch(self, n: int) -> list[GameState]:
        """``n`` worlds, drawn with replacement from ``proposals * n`` candidates by their weights; a
        world drawn again gets its draw pile shuffled afresh (the hands are what was weighed)."""
        import numpy as np

        if not self.evidence:
            return [self.source.sample() for _ in range(n)]
        pool = [self.source.sample() for _ in range(self.proposals * n)]
        logw = np.zeros(len(pool))
        for seat, row, action, card, taken in self.evidence:
            size = len(pool[0]._hands[seat]) - taken + 1
            hands = np.zeros((len(pool), size), dtype=np.int32)
            for w, world in enumerate(pool):
                held = world._hands[seat]
                hands[w, : size - 1] = held[: size - 1]
                hands[w, size - 1] = card
            logw -= self.regrets(row, hands, seat, action) / self.temperature
        weights = np.exp(logw - logw.max())
        total = float(weights.sum())
        self.last_ess = total * total / float((weights * weights).sum())
        # systematic resampling: n evenly spaced points on the cumulative weights
        cumulative = np.cumsum(weights) / total
        u = (self.rng.random() + np.arange(n)) / n
        picks = np.minimum(np.searchsorted(cumulative, u), len(pool) - 1)
        out: list[GameState] = []
        used: set[int] = set()
        for j in picks.tolist():
            world = pool[j]
            if j in used:
                world = world.copy()
                self.rng.shuffle(world._deck)
                world._reshuffle_seed = self.rng.getrandbits(63)
            used.add(j)
            out.append(world)
        return out
