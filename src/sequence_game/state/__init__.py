"""The game state: legal actions, applying them, and the outcome.

``GameState`` is built in layers, one concern a module, each a class with empty ``__slots__``
over the one below (so a state has no ``__dict__`` and copies stay cheap):

- :mod:`.fields`: every field of a state, the deal into them, and the read-only accessors;
- :mod:`.draw`: drawing and reshuffling the discards (R5.4); :mod:`.turns`: passing the turn,
  stuck hands, lost draws, declaring sequences and the end (R5.3, R5.6, R3, R7);
- :mod:`.legality`: listing and checking legal actions (R5); :mod:`.apply`: applying them;
- :mod:`.playout`: uniform random actions and the inlined playout loop that search uses;
- :mod:`.deal` (the cut and the deal, R4), :mod:`.outcome`, :mod:`.cells` (per-card tables).

>>> state = new_game(GameConfig(players=2), seed=7)
>>> state.current_seat, len(state.hand(state.current_seat))
(0, 7)
>>> action = state.legal_actions()[0]
>>> state.apply(action)
>>> state.current_seat
1
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..actions import EV_LOST_DRAW, EV_PASS, EV_PENALTY, EV_RESHUFFLE
from ..cards import DECK_SIZE, Card
from ..config import GameConfig
from ..messages import M_
from ..notation import board_text
from ..views import PlayerView, public_history
from .deal import cut_for_deal, shuffled_deck
from .fields import ReshuffleSource
from .outcome import Outcome, Termination
from .playout import Playouts

# The rules engine in layers, each a module that imports only the ones below it (the developers'
# guide: imports flow one way): ``outcome``, ``deal`` and ``cell_tables``; ``state_fields`` (the
# slots, the deal into them, the read-only API); ``state_draw`` (draws, reshuffles);
# ``state_turns`` (the end of a turn and of the game); ``state_legality`` (listing and checking);
# ``state_apply`` (applying actions, table talk); ``state_playout`` (random play at speed); and
# this module, the class people use. ``views`` and ``notation`` know nothing of this module. The
# history's event kinds live in ``actions``, the ending's types in ``outcome``; they are
# re-exported here for the readers of history.
__all__ = [
    "EV_LOST_DRAW",
    "EV_PASS",
    "EV_PENALTY",
    "EV_RESHUFFLE",
    "GameState",
    "Outcome",
    "ReshuffleSource",
    "Termination",
    "cut_for_deal",
    "new_game",
]


class GameState(Playouts):
    """A game in progress. Mutable; :meth:`copy` is cheap and independent.

    Its fields are declared in :class:`~sequence_game.state_fields.StateFields`, its rules in the
    layers between (see this module's comments); it adds copying and the players' views.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        status = f"over: {self.outcome()}" if self._end is not None else f"seat {self.current_seat} to act"
        return f"<GameState {self._n} players, {self._sides} sides, turn {self._turn}, {status}>"

    def __str__(self) -> str:
        """The board: chips by side as B, G, R (lower case when locked), corners as ``*``."""
        return board_text(self)

    # ----------------------------------------------------------------- copying

    def copy(self) -> GameState:
        """An independent copy (hand-written: ``deepcopy`` is 15-25 times slower)."""
        new = GameState.__new__(GameState)
        new.config = self.config
        new.dealer = self.dealer
        new.initial_deck = self.initial_deck
        new._n = self._n
        new._sides = self._sides
        new._need = self._need
        new._manual = self._manual
        new._chips = self._chips[:]
        new._counters = self._counters[:]
        new._occ = self._occ
        new._open = self._open[:]
        new._locked = self._locked
        new._seqs = [s[:] for s in self._seqs]
        new._hands = [h[:] for h in self._hands]
        new._deck = self._deck[:]
        new._discards = [d[:] for d in self._discards]
        new._seat = self._seat
        new._dead_done = self._dead_done
        new._turn = self._turn
        new._owed = self._owed[:]
        new._owed_turn = self._owed_turn[:]
        new._prev_player = self._prev_player[:]
        new._last_player = self._last_player
        new._penalty = self._penalty[:]
        new._stuck_run = self._stuck_run
        new._winner = self._winner
        new._end = self._end
        new._history = self._history[:]
        new._reshuffle_seed = self._reshuffle_seed
        new._reshuffle_source = None
        new._reshuffles = self._reshuffles
        new._reshuffle_pool = self._reshuffle_pool
        new._drawn_since = self._drawn_since[:]
        return new

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know (its own hand and everything public).

        Built here, where the state's fields are, so that ``views`` need not import this module.
        """
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise ValueError(M_("no seat {seat} at this table", seat=repr(seat)))
        end = self._end
        return PlayerView(
            config=self.config,
            seat=seat,
            hand=tuple(sorted(self._hands[seat])),
            chips=tuple(self._chips),
            locked=self._locked,
            sequence_windows=tuple(tuple(w) for w in self._seqs),
            hand_sizes=tuple(len(h) for h in self._hands),
            deck_size=len(self._deck),
            discards=tuple(tuple(d) for d in self._discards),
            current_seat=self.current_seat,
            seat_to_play=self._seat,
            seats_to_act=tuple(self.seats_to_act()),
            owed_draws=tuple(self._owed),
            penalty_due=tuple(self._penalty),
            dead_card_exchanged=self._dead_done,
            turn=self._turn,
            stuck_run=self._stuck_run,
            history=public_history(self._history),
            reshuffles=self._reshuffles,
            reshuffle_pool=self._reshuffle_pool,
            drawn_since_reshuffle=tuple(self._drawn_since),
            manual_draw_order=(tuple(self._owed_turn), tuple(self._prev_player), (self._last_player,)),
            legal_actions=tuple(self.legal_actions(seat)),
            winner=self._winner if end is not None else None,
            termination=end.value if end is not None else None,
        )


def new_game(
    config: GameConfig | None = None,
    seed: int | None = None,
    *,
    rng: random.Random | None = None,
    dealer: int | None = None,
    deck: Iterable[Card] | None = None,
) -> GameState:
    """Start a game: cut for the deal (R4.1) unless ``dealer`` is given, shuffle (R1.2) unless
    ``deck`` (top card first) is given, and deal (R4.2).

    All randomness comes from ``rng``, or from a generator seeded with ``seed``; reshuffles later
    in the game (R5.4) follow from the same seed.
    """
    config = config or GameConfig()
    if rng is None:
        rng = random.Random(seed)
    if dealer is None:
        dealer = cut_for_deal(config.players, rng)
    cards = shuffled_deck(rng) if deck is None else list(deck)
    if len(cards) != DECK_SIZE:
        raise ValueError(f"R1.2: a deck holds {DECK_SIZE} cards, not {len(cards)}")
    return GameState(config, cards, dealer, reshuffle_seed=rng.getrandbits(63))
