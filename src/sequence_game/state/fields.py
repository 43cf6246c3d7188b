"""The game state's fields, the deal into them, and the read-only questions anyone may ask.

The lowest layer of :class:`~sequence_game.state.GameState`: every slot is declared here, so
the layers above (:mod:`~sequence_game.state_draw`, :mod:`~sequence_game.state_turns`,
:mod:`~sequence_game.state_legality`, :mod:`~sequence_game.state_apply`,
:mod:`~sequence_game.state_playout`) add behaviour only, with ``__slots__ = ()``, and a state
stays as small and as fast to read as one class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..board import COUNTER_START, LINES, cells_of
from ..cards import Card
from ..config import GameConfig
from .cells import ALL_OPEN, BIT_A, BIT_B
from .deal import check_deal, deal_hands
from .outcome import Outcome, Termination

__all__ = ["ReshuffleSource", "StateFields"]

ReshuffleSource = Callable[[list[Card]], Sequence[Card]]
"""Given the cards of all discard piles, the new draw pile top first (used to replay records)."""


class StateFields:
    """A game's fields and its read-only API; the rules live in the subclasses."""

    __slots__ = (
        "_chips",
        "_counters",
        "_dead_done",
        "_deck",
        "_discards",
        "_drawn_since",
        "_end",
        "_hands",
        "_history",
        "_last_player",
        "_locked",
        "_manual",
        "_n",
        "_need",
        "_occ",
        "_open",
        "_owed",
        "_owed_turn",
        "_penalty",
        "_prev_player",
        "_reshuffle_pool",
        "_reshuffle_seed",
        "_reshuffle_source",
        "_reshuffles",
        "_seat",
        "_seqs",
        "_sides",
        "_stuck_run",
        "_turn",
        "_winner",
        "config",
        "dealer",
        "initial_deck",
    )

    config: GameConfig
    dealer: int
    initial_deck: tuple[Card, ...]

    def __init__(
        self,
        config: GameConfig,
        deck: Sequence[Card],
        dealer: int,
        *,
        reshuffle_seed: int = 0,
        reshuffle_source: ReshuffleSource | None = None,
    ) -> None:
        """Deal ``deck`` (top card first, a permutation of the 104 cards) from ``dealer`` (R4.2).

        Most callers want :func:`~sequence_game.state.new_game`; this is the explicit form that
        records replay.
        """
        n = config.players
        check_deal(deck, dealer, n)
        self.config = config
        self.dealer = dealer
        self.initial_deck = tuple(deck)
        self._n = n
        self._sides = config.sides
        self._need = config.sequences_to_win
        self._manual = config.draw == "manual"
        self._chips = [0] * self._sides
        self._counters = [COUNTER_START] * self._sides
        self._occ = 0
        self._open = ALL_OPEN[:]  # per card, its open cells: dead when empty (R5.1)
        self._locked = 0
        self._seqs: list[list[int]] = [[] for _ in range(self._sides)]
        hands, pile, first = deal_hands(self.initial_deck, dealer, n, config.hand_size)
        self._hands = hands
        self._deck = pile
        self._discards: list[list[Card]] = [[] for _ in range(n)]
        self._seat = first  # R4.3
        self._dead_done = False
        self._turn = 0
        self._owed = [False] * n
        self._owed_turn = [-1] * n
        self._prev_player = [-1] * n
        self._last_player = -1
        self._penalty: list[int] = []
        self._stuck_run = 0
        self._winner: int | None = None
        self._end: Termination | None = None
        self._history: list[tuple[Any, ...]] = []
        self._reshuffle_seed = reshuffle_seed
        self._reshuffle_source = reshuffle_source
        self._reshuffles = 0
        self._reshuffle_pool: tuple[Card, ...] = ()
        self._drawn_since = [0] * n

    @property
    def players(self) -> int:
        return self._n

    @property
    def current_seat(self) -> int:
        """The seat that must act next: a seat paying a table-talk fine, else the seat to play.

        In manual-draw mode other seats may still owe a draw; see :meth:`seats_to_act`.
        """
        return self._penalty[0] if self._penalty else self._seat

    @property
    def seat_to_play(self) -> int:
        """Whose turn it is (R4.3), even while a fine is being paid."""
        return self._seat

    def seats_to_act(self) -> list[int]:
        """Every seat that may act now, the seat to play first (R5.3, R6.1)."""
        if self._end is not None:
            return []
        if self._penalty:
            return [self._penalty[0]]
        seat = self._seat
        if not self._manual:
            return [seat]
        return [seat] + [s for s in range(self._n) if self._owed[s] and s != seat]

    def side_of(self, seat: int) -> int:
        return seat % self._sides

    def hand(self, seat: int) -> list[Card]:
        """A copy of a seat's hand, sorted. Hidden information: show it only to that seat."""
        return sorted(self._hands[seat])

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._hands]

    def discard_pile(self, seat: int) -> list[Card]:
        """A seat's face-up discard pile, oldest first (R5.2)."""
        return self._discards[seat][:]

    @property
    def deck_size(self) -> int:
        return len(self._deck)

    def chips(self, side: int) -> int:
        """The cells holding the side's chips, as a bit mask."""
        return self._chips[side]

    @property
    def occupied(self) -> int:
        return self._occ

    @property
    def locked(self) -> int:
        """Cells whose chips belong to a completed sequence (R3.5)."""
        return self._locked

    def chip_at(self, cell: int) -> int | None:
        """The side whose chip is on ``cell``, or ``None``."""
        bit = 1 << cell
        for side in range(self._sides):
            if self._chips[side] & bit:
                return side
        return None

    def sequences(self, side: int) -> list[tuple[int, ...]]:
        """The side's completed sequences, each as its five cells."""
        return [tuple(cells_of(LINES[w])) for w in self._seqs[side]]

    def sequence_counts(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self._seqs)

    def owes_draw(self, seat: int) -> bool:
        """Manual-draw mode: the seat has played and not yet drawn (R5.3)."""
        return self._owed[seat]

    @property
    def penalty_due(self) -> tuple[int, ...]:
        """Seats that still owe a table-talk discard, in the order they pay (R6.1)."""
        return tuple(self._penalty)

    @property
    def dead_card_exchanged(self) -> bool:
        """Whether the seat to play has used its one dead-card exchange this turn (R5.1)."""
        return self._dead_done

    @property
    def turn(self) -> int:
        """Turns completed so far (plays, stuck discards and passes)."""
        return self._turn

    @property
    def history(self) -> list[tuple[Any, ...]]:
        """Everything that happened, including hidden reshuffle orders; see ``records``."""
        return self._history[:]

    def is_dead(self, card: Card) -> bool:
        """Both spaces of the card hold a chip (R5.1); jacks are never dead."""
        a = BIT_A[card]
        return a != 0 and self._occ & (a | BIT_B[card]) == a | BIT_B[card]

    def is_terminal(self) -> bool:
        return self._end is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        if self._end is None:
            return None
        return Outcome(self._end, self._winner, self.sequence_counts())

    def returns(self) -> list[float]:
        """Per seat: +1 for the winning side, -1 for the others, 0 for all in a draw."""
        if self._winner is None:
            return [0.0] * self._n
        return [1.0 if s % self._sides == self._winner else -1.0 for s in range(self._n)]
