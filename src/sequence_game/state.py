"""The game state: legal actions, applying them, and the outcome.

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from .actions import (
    DEAD,
    DISCARD,
    DRAW,
    EV_LOST_DRAW,
    EV_PASS,
    EV_PENALTY,
    EV_RESHUFFLE,
    NUM_ACTIONS,
    REMOVE,
    WILD,
    Action,
    action_name,
)
from .board import (
    CELLS_OF_CARD,
    CORNERS,
    COUNTER_FULL,
    COUNTER_START,
    COUNTER_STEP,
    LAYOUT,
    LINES,
    LINES_THROUGH,
    PLAYABLE,
    cell_name,
    cells_of,
)
from .cards import (
    DECK_SIZE,
    FULL_DECK,
    JC,
    JD,
    JH,
    JS,
    ONE_EYED,
    TWO_EYED,
    Card,
    card_code,
    is_jack,
    rank_of,
)
from .config import GameConfig
from .errors import IllegalActionError
from .messages import M_, message_of, with_rule
from .notation import board_text
from .sequences import declare
from .views import PlayerView, public_history

# Imports flow one way: ``views`` and ``notation`` know nothing of this module. The history's event
# kinds live in ``actions``; they are re-exported here for the readers of history.
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

_CELL_A: Final = tuple(cells[0] if cells else -1 for cells in CELLS_OF_CARD)
_CELL_B: Final = tuple(cells[1] if cells else -1 for cells in CELLS_OF_CARD)
_BIT_A: Final = tuple(1 << c if c >= 0 else 0 for c in _CELL_A)
_BIT_B: Final = tuple(1 << c if c >= 0 else 0 for c in _CELL_B)
# 0 normal card, 1 two-eyed jack, 2 one-eyed jack
_KIND: Final = tuple(1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(52))
#: The other cell showing the same card (-1 for corners).
_OTHER: Final = tuple(
    -1 if LAYOUT[c] < 0 else next(o for o in CELLS_OF_CARD[LAYOUT[c]] if o != c) for c in range(100)
)
#: Open cells per card on an empty board; ``None`` for jacks.
_ALL_OPEN: Final[list[tuple[int, ...] | None]] = [None if is_jack(c) else CELLS_OF_CARD[c] for c in range(52)]

ReshuffleSource = Callable[[list[Card]], Sequence[Card]]
"""Given the cards of all discard piles, the new draw pile top first (used to replay records)."""


class Termination(Enum):
    """Why a game ended."""

    SEQUENCES = "sequences"  # R7.1
    STUCK = "stuck"  # R7.2 via R5.5


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winner`` is a side, or ``None`` for a drawn game."""

    termination: Termination
    winner: int | None
    sequences: tuple[int, ...]


class GameState:
    """A game in progress. Mutable; :meth:`copy` is cheap and independent."""

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

        Most callers want :func:`new_game`; this is the explicit form that records replay.
        """
        n = config.players
        if sorted(deck) != _SORTED_DECK:
            raise ValueError(with_rule("R1.2", M_("the deck must hold each of the 52 cards exactly twice")))
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            wrong = M_("dealer {dealer} is not a seat 0..{last}", dealer=repr(dealer), last=n - 1)
            raise ValueError(with_rule("R4.1", wrong))
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
        self._open = _ALL_OPEN[:]  # per card, its open cells: dead when empty (R5.1)
        self._locked = 0
        self._seqs: list[list[int]] = [[] for _ in range(self._sides)]
        pile = list(reversed(self.initial_deck))
        hands: list[list[Card]] = [[] for _ in range(n)]
        first = (dealer + 1) % n
        for i in range(config.hand_size * n):  # one card at a time from the dealer's left
            hands[(first + i) % n].append(pile.pop())
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

    # ------------------------------------------------------------- inspection

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
        a = _BIT_A[card]
        return a != 0 and self._occ & (a | _BIT_B[card]) == a | _BIT_B[card]

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

    # ------------------------------------------------------------ legal moves

    def _play_actions(self, seat: int) -> set[int]:
        """R5.2 plays open to the seat."""
        occ = self._occ
        out: set[int] = set()
        wild = remove = False
        for card in self._hands[seat]:
            kind = _KIND[card]
            if kind == 0:
                if not occ & _BIT_A[card]:
                    out.add(_CELL_A[card])
                if not occ & _BIT_B[card]:
                    out.add(_CELL_B[card])
            elif kind == 1:
                wild = True
            else:
                remove = True
        if wild:
            out.update(WILD + c for c in cells_of(PLAYABLE & ~occ))
        if remove:
            mine = self._chips[seat % self._sides]
            out.update(REMOVE + c for c in cells_of(occ & ~mine & ~self._locked))
        return out

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Legal action ids for ``seat`` (default :attr:`current_seat`), ascending.

        Never empty for a seat in :meth:`seats_to_act`.
        """
        if self._end is not None:
            return []
        if self._penalty:
            payer = self._penalty[0]
            if seat is not None and seat != payer:
                return []
            return sorted({DISCARD + c for c in self._hands[payer]})
        if seat is None:
            seat = self._seat
        if seat != self._seat:
            return [DRAW] if self._owed[seat] else []
        acts = self._play_actions(seat)
        hand = self._hands[seat]
        if not self._dead_done:
            acts.update(DEAD + c for c in hand if self.is_dead(c))
        if not any(a < DEAD for a in acts):
            acts.update(DISCARD + c for c in hand)  # R5.5
        if self._owed[seat]:
            acts.add(DRAW)
        return sorted(acts)

    def legal_action_mask(self, seat: int | None = None) -> list[bool]:
        """A mask over all ``NUM_ACTIONS`` ids."""
        mask = [False] * NUM_ACTIONS
        for a in self.legal_actions(seat):
            mask[a] = True
        return mask

    def is_legal(self, action: int, seat: int | None = None) -> bool:
        return action in self.legal_actions(seat)

    def action_name(self, action: int) -> str:
        """The notation of an action id (``"7h@e4"``)."""
        return action_name(action)

    # ------------------------------------------------------------ validation

    def check(self, action: int, seat: int | None = None, card: Card | None = None) -> None:
        """Raise :class:`IllegalActionError` naming the broken rule if the action is illegal.

        The rules are checked in a fixed order, so that one illegal action always names the same
        rule: the end (R7.1), the seat (R2.1), a table-talk fine owed (R6.1), whose turn it is
        (R4.3), and only then the card and the cell.
        """
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action <= DRAW:
            self._check_actor(seat, None, action)
            raise IllegalActionError("R5.2", M_("not an action id: {what}", what=repr(action)), action)
        actor = self._check_actor(seat, action, action)
        if self._penalty:
            if action - DISCARD not in self._hands[actor]:
                raise IllegalActionError(
                    "R6.1",
                    M_("seat {seat} holds no {card}", seat=actor, card=card_code(action - DISCARD)),
                    action,
                )
            return
        if action == DRAW:
            if not self._manual:
                raise IllegalActionError("R5.3", M_("draws are automatic in this game"), action)
            if not self._owed[actor]:
                raise IllegalActionError("R5.3", M_("seat {seat} owes no draw", seat=actor), action)
            return
        hand = self._hands[actor]
        if action < WILD:
            printed = LAYOUT[action]
            if card is not None and card != printed:
                raise IllegalActionError(
                    "R5.2",
                    M_("{card} is not printed on {cell}", card=card_code(card), cell=cell_name(action)),
                    action,
                )
            if printed < 0:
                raise IllegalActionError(
                    "R5.2", M_("{cell} is a corner and holds no chip", cell=cell_name(action)), action
                )
            if printed not in hand:
                raise IllegalActionError(
                    "R5.2", M_("seat {seat} holds no {card}", seat=actor, card=card_code(printed)), action
                )
            self._check_open(action, action)
        elif action < REMOVE:
            self._check_jack(actor, action, card, TWO_EYED, two_eyed=True)
            self._check_open(action - WILD, action)
        elif action < DEAD:
            self._check_jack(actor, action, card, ONE_EYED, two_eyed=False)
            cell = action - REMOVE
            owner = self.chip_at(cell)
            if owner is None:
                raise IllegalActionError(
                    "R5.2", M_("{cell} holds no chip to remove", cell=cell_name(cell)), action
                )
            if owner == actor % self._sides:
                raise IllegalActionError(
                    "R5.2", M_("the chip on {cell} is your own side's", cell=cell_name(cell)), action
                )
            if self._locked >> cell & 1:
                raise IllegalActionError(
                    "R3.5", M_("the chip on {cell} is part of a sequence", cell=cell_name(cell)), action
                )
        elif action < DISCARD:
            dead = action - DEAD
            if is_jack(dead):
                raise IllegalActionError("R5.1", M_("jacks are never dead"), action)
            if dead not in hand:
                raise IllegalActionError(
                    "R5.1", M_("seat {seat} holds no {card}", seat=actor, card=card_code(dead)), action
                )
            if not self.is_dead(dead):
                raise IllegalActionError(
                    "R5.1", M_("{card} is not dead: a space for it is open", card=card_code(dead)), action
                )
            if self._dead_done:
                raise IllegalActionError("R5.1", M_("only one dead card may be exchanged per turn"), action)
        else:
            discard = action - DISCARD
            if any(a < DEAD for a in self._play_actions(actor)):
                raise IllegalActionError(
                    "R5.5", M_("a card may be discarded only when no play is possible"), action
                )
            if discard not in hand:
                raise IllegalActionError(
                    "R5.5", M_("seat {seat} holds no {card}", seat=actor, card=card_code(discard)), action
                )

    def _check_actor(self, seat: int | None, action: int | None, shown: object) -> int:
        """The checks that come before any card or cell: the game goes on (R7.1), the seat exists
        (R2.1), it is not held up by a table-talk fine (R6.1), and it is its turn (R4.3; another
        seat may only draw). ``action`` is ``None`` when it could not be read. Returns the seat."""
        if self._end is not None:
            raise IllegalActionError("R7.1", M_("the game is over"), shown)
        actor = self.current_seat if seat is None else seat
        if not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < self._n:
            raise IllegalActionError("R2.1", M_("no seat {seat} at this table", seat=repr(actor)), shown)
        if self._penalty:
            payer = self._penalty[0]
            if actor != payer:
                raise IllegalActionError(
                    "R6.1",
                    M_("seat {seat} must first discard for the table-talk penalty", seat=payer),
                    shown,
                )
            if action is None:
                raise IllegalActionError(
                    "R6.1", M_("seat {seat} owes a table-talk discard", seat=actor), shown
                )
            if not DISCARD <= action < DRAW:
                owed = M_(
                    "seat {seat} owes a table-talk discard, not '{what}'",
                    seat=actor,
                    what=action_name(action),
                )
                raise IllegalActionError("R6.1", owed, shown)
        elif actor != self._seat and action != DRAW:
            raise IllegalActionError(
                "R4.3",
                M_("it is seat {seat}'s turn, not seat {actor}'s", seat=self._seat, actor=actor),
                shown,
            )
        return actor

    def _check_open(self, cell: int, action: int) -> None:
        if CORNERS >> cell & 1:
            raise IllegalActionError(
                "R5.2", M_("{cell} is a corner and holds no chip", cell=cell_name(cell)), action
            )
        if self._occ >> cell & 1:
            raise IllegalActionError("R5.2", M_("{cell} already holds a chip", cell=cell_name(cell)), action)

    def _check_jack(
        self, actor: int, action: int, card: Card | None, kinds: frozenset[Card], two_eyed: bool
    ) -> None:
        hand = self._hands[actor]
        if card is not None:
            if card not in kinds:
                not_kind = (
                    M_("{card} is not a two-eyed jack", card=card_code(card))
                    if two_eyed
                    else M_("{card} is not a one-eyed jack", card=card_code(card))
                )
                raise IllegalActionError("R5.2", not_kind, action)
            if card not in hand:
                raise IllegalActionError(
                    "R5.2", M_("seat {seat} holds no {card}", seat=actor, card=card_code(card)), action
                )
        elif not any(c in kinds for c in hand):
            none_held = (
                M_("seat {seat} holds no two-eyed jack", seat=actor)
                if two_eyed
                else M_("seat {seat} holds no one-eyed jack", seat=actor)
            )
            raise IllegalActionError("R5.2", none_held, action)

    # ------------------------------------------------------------- applying

    def apply(self, action: int | str | Action, seat: int | None = None, *, card: Card | None = None) -> None:
        """Apply a legal action, or raise :class:`IllegalActionError` and change nothing.

        ``seat`` defaults to :attr:`current_seat` (give it for a manual draw by another seat);
        ``card`` names which jack to play when the hand holds both of a kind.
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError as exc:
                self._check_actor(seat, None, action)  # whose turn and a fine owed come first
                raise IllegalActionError("R5.2", message_of(exc), action) from None
        if isinstance(action, Action):
            if card is None and action.kind in ("wild", "remove"):
                card = action.card
            action = int(action)
        self.check(action, seat, card)
        self._apply(action, self.current_seat if seat is None else seat, card)

    def _apply(self, action: int, seat: int, card: Card | None = None) -> None:
        """Apply an action known to be legal for ``seat``: the trusted path for search."""
        if action < REMOVE:
            hand = self._hands[seat]
            if action < WILD:
                cell = action
                card = LAYOUT[cell]
            else:
                cell = action - WILD
                if card is None:
                    card = JD if JD in hand else JC
            hand.remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            side = seat % self._sides
            bit = 1 << cell
            self._chips[side] |= bit
            occ = self._occ | bit
            self._occ = occ
            other = _OTHER[cell]
            self._open[LAYOUT[cell]] = () if occ >> other & 1 else (other,)
            counters = self._counters[side] + COUNTER_STEP[cell]
            self._counters[side] = counters
            self._stuck_run = 0
            if counters & COUNTER_FULL[cell]:
                self._declare(side, cell)
                if self._end is not None:
                    return
            self._end_turn(seat)
        elif action < DEAD:
            hand = self._hands[seat]
            cell = action - REMOVE
            if card is None:
                card = JS if JS in hand else JH
            hand.remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            bit = 1 << cell
            for side in range(self._sides):
                if self._chips[side] & bit:
                    self._chips[side] ^= bit
                    self._counters[side] -= COUNTER_STEP[cell]
                    break
            self._occ ^= bit
            other = _OTHER[cell]
            self._open[LAYOUT[cell]] = (cell,) if self._occ >> other & 1 else (cell, other)
            self._stuck_run = 0
            self._end_turn(seat)
        elif action < DISCARD:
            card = action - DEAD
            self._hands[seat].remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            self._dead_done = True
            self._draw(seat)  # the replacement, in both draw modes (R5.1)
        elif action < DRAW:
            card = action - DISCARD
            self._hands[seat].remove(card)
            self._discards[seat].append(card)
            self._history.append((seat, action, card))
            if self._penalty:
                self._penalty.pop(0)  # R6.1: no replacement
                if not self._penalty:
                    self._skip_passes()
            else:
                self._stuck_run += 1  # R5.5
                self._end_turn(seat)
        else:
            self._history.append((seat, action, -1))
            self._owed[seat] = False
            self._draw(seat)
            prev = self._prev_player[seat]
            if (
                prev >= 0
                and prev != seat
                and self._owed[prev]
                and self._owed_turn[prev] == self._owed_turn[seat] - 1
            ):
                self._lose_draw(prev)  # the next player has played and drawn (R5.3)
                if prev == self._seat and not self._hands[prev]:
                    self._skip_passes()

    def _lose_draw(self, seat: int) -> None:
        self._owed[seat] = False
        self._history.append((EV_LOST_DRAW, seat))

    def _end_turn(self, seat: int) -> None:
        if self._stuck_run >= self._n:
            # R5.5, R7.2: the game ends with the stuck round's last discard; nobody draws after it
            # (a draw here could reshuffle after the end and put that into the record).
            self._turn += 1
            self._finish(Termination.STUCK, None)
            return
        if self._manual:
            if self._owed[seat]:
                self._lose_draw(seat)  # played again before drawing (R5.3)
            self._owed[seat] = True
            self._owed_turn[seat] = self._turn
            self._prev_player[seat] = self._last_player
            self._last_player = seat
        else:
            self._draw(seat)
        self._turn += 1
        self._seat = (seat + 1) % self._n
        self._dead_done = False
        if not self._hands[self._seat]:
            self._skip_passes()

    def _skip_passes(self) -> None:
        """A seat with an empty hand and no draw owed passes; a full round of that draws (R5.5)."""
        while self._end is None and not self._hands[self._seat] and not self._owed[self._seat]:
            seat = self._seat
            self._history.append((EV_PASS, seat))
            self._stuck_run += 1
            self._prev_player[seat] = self._last_player
            self._last_player = seat
            self._turn += 1
            if self._stuck_run >= self._n:
                self._finish(Termination.STUCK, None)
                return
            self._seat = (seat + 1) % self._n
            self._dead_done = False

    def _draw(self, seat: int) -> None:
        deck = self._deck
        if not deck:
            self._reshuffle()
            if not deck:
                return  # every card is in a hand: nothing to draw
        self._hands[seat].append(deck.pop())
        self._drawn_since[seat] += 1

    def _reshuffle(self) -> None:
        """R5.4: all discard piles become the new draw pile."""
        pool = [c for pile in self._discards for c in pile]
        if not pool and self._reshuffle_source is None:
            return
        if self._reshuffle_source is not None:
            order = list(self._reshuffle_source(pool))
        else:
            order = pool
            random.Random(self._reshuffle_seed * 1_000_003 + self._reshuffles).shuffle(order)
        if not order:
            return
        self._reshuffles += 1
        for pile in self._discards:
            pile.clear()
        self._deck[:] = order[::-1]
        self._reshuffle_pool = tuple(sorted(order))
        self._drawn_since[:] = [0] * self._n  # in place: playout holds a reference
        self._history.append((EV_RESHUFFLE, tuple(order)))

    def _declare(self, side: int, cell: int) -> None:
        full = self._counters[side] & COUNTER_FULL[cell]
        candidates = [w for w in LINES_THROUGH[cell] if full >> (4 * w + 3) & 1]
        seqs = self._seqs[side]
        for w in declare(candidates, seqs):
            seqs.append(w)
            self._locked |= LINES[w] & ~CORNERS  # R3.5
        if len(seqs) >= self._need:
            self._finish(Termination.SEQUENCES, side)

    def _finish(self, termination: Termination, winner: int | None) -> None:
        self._end = termination
        self._winner = winner
        self._penalty.clear()

    # ---------------------------------------------------------- table events

    def call_table_talk(self, side: int) -> None:
        """Uphold a table-talk call against ``side`` (R6.1): each member with cards owes a
        discard, in ascending seat order, before play goes on."""
        if self._end is not None:
            raise IllegalActionError("R7.1", M_("the game is over"))
        if not isinstance(side, int) or not 0 <= side < self._sides:
            raise IllegalActionError("R6.1", M_("no side {side} in this game", side=repr(side)))
        if self.config.team_size < 2:
            raise IllegalActionError(
                "R6.1", M_("the table-talk penalty applies only to teams of two or more")
            )
        if self._penalty:
            raise IllegalActionError("R6.1", M_("a table-talk penalty is already being paid"))
        self._history.append((EV_PENALTY, side))
        self._penalty = [s for s in range(side, self._n, self._sides) if self._hands[s]]

    # ------------------------------------------------------------ fast play

    def random_action(self, rng: random.Random, exchange_dead: bool = True) -> int:
        """A uniformly random legal action of :attr:`current_seat`, without listing them all.

        With ``exchange_dead`` a dead card is always exchanged first when allowed, and draws are
        never chosen (the auto-draw rollouts of search and the benchmark).
        """
        if self._end is not None or self._penalty or self._manual:
            acts = self.legal_actions()
            if exchange_dead:
                exchanges = [a for a in acts if DEAD <= a < DISCARD]
                if exchanges:
                    return exchanges[int(rng.random() * len(exchanges))]
            return acts[int(rng.random() * len(acts))]
        seat = self._seat
        occ = self._occ
        opens = self._open
        cells: list[int] = []
        wild = remove = False
        dead = -1
        for card in self._hands[seat]:
            open_cells = opens[card]
            if open_cells:
                cells += open_cells
            elif open_cells is None:
                if card in TWO_EYED:
                    wild = True
                else:
                    remove = True
            else:
                dead = card
        if dead >= 0 and exchange_dead and not self._dead_done:
            return DEAD + dead
        n_cells = len(cells)
        free = PLAYABLE & ~occ if wild else 0
        n_free = free.bit_count()
        targets = occ & ~self._chips[seat % self._sides] & ~self._locked if remove else 0
        n_targets = targets.bit_count()
        total = n_cells + n_free + n_targets
        if total == 0:
            return self._stuck_choice(rng)  # R5.5: rare
        r = int(rng.random() * total)
        while r < n_cells:
            m = cells.count(cells[r])  # listed twice when both copies are held: see playout
            if m == 1 or rng.random() * m < 1.0:
                return cells[r]
            r = int(rng.random() * total)
        r -= n_cells
        if r < n_free:
            return WILD + _nth_bit(free, r)
        return REMOVE + _nth_bit(targets, r - n_free)

    def playout(self, rng: random.Random, max_turns: int | None = None) -> Outcome | None:
        """Play uniformly random legal actions (dead cards always exchanged) to the end.

        The trusted fast path of rollouts and the benchmark: the common turn is inlined here and
        every rare case (a sequence, a dead card, a stuck hand, a reshuffle, manual draws, fines)
        goes through :meth:`random_action` and :meth:`_apply`. Stops early, returning ``None``,
        once :attr:`turn` reaches ``max_turns``.
        """
        limit = (1 << 62) if max_turns is None else max_turns
        if self._manual or self._penalty:
            while self._end is None and self._turn < limit:
                self._apply(self.random_action(rng), self.current_seat)
            return self.outcome()
        rand = rng.random
        hands, chips, counters = self._hands, self._chips, self._counters
        discards, deck, history, opens = self._discards, self._deck, self._history, self._open
        drawn = self._drawn_since
        sides, n = self._sides, self._n
        step, full, layout, other_of = COUNTER_STEP, COUNTER_FULL, LAYOUT, _OTHER
        two_eyed = TWO_EYED
        occ = self._occ
        seat = self._seat
        turn = self._turn
        while turn < limit:
            hand = hands[seat]
            cells: list[int] = []
            wild = remove = False
            dead = -1
            for card in hand:
                open_cells = opens[card]
                if open_cells:
                    cells += open_cells
                elif open_cells is None:
                    if card in two_eyed:
                        wild = True
                    else:
                        remove = True
                else:
                    dead = card
            side = seat % sides
            n_cells = len(cells)
            free = PLAYABLE & ~occ if wild else 0
            n_free = free.bit_count()
            targets = occ & ~chips[side] & ~self._locked if remove else 0
            total = n_cells + n_free + targets.bit_count()
            r = int(rand() * total)
            while r < n_cells:
                # Two copies of a card list its cells twice: keep a cell listed m times with
                # probability 1/m, so that every distinct action stays equally likely.
                m = cells.count(cells[r])
                if m == 1 or rand() * m < 1.0:
                    break
                r = int(rand() * total)
            if r >= n_cells + n_free or not deck or (dead >= 0 and not self._dead_done):
                # rare: a removal, a dead card, a stuck hand or an empty draw pile
                self._occ, self._seat, self._turn = occ, seat, turn
                if dead >= 0 and not self._dead_done:
                    self._apply(DEAD + dead, seat)
                elif total == 0:
                    self._apply(self._stuck_choice(rng), seat)
                elif r >= n_cells + n_free:
                    self._apply(REMOVE + _nth_bit(targets, r - n_cells - n_free), seat)
                else:
                    self._apply(cells[r] if r < n_cells else WILD + _nth_bit(free, r - n_cells), seat)
                if self._end is not None:
                    return self.outcome()
                occ = self._occ
                seat = self._seat
                turn = self._turn
                continue
            if r < n_cells:
                cell = cells[r]
                card = layout[cell]
                history.append((seat, cell, card))
            else:
                cell = _nth_bit(free, r - n_cells)
                card = JD if JD in hand else JC
                history.append((seat, WILD + cell, card))
            hand.remove(card)
            discards[seat].append(card)
            bit = 1 << cell
            chips[side] |= bit
            occ |= bit
            other = other_of[cell]
            opens[layout[cell]] = () if occ >> other & 1 else (other,)
            count = counters[side] + step[cell]
            counters[side] = count
            if self._stuck_run:
                self._stuck_run = 0
            if count & full[cell]:
                self._occ, self._seat, self._turn = occ, seat, turn
                self._declare(side, cell)
                if self._end is not None:
                    return self.outcome()
            hand.append(deck.pop())
            drawn[seat] += 1
            turn += 1
            seat = (seat + 1) % n
            self._dead_done = False
            if not hands[seat]:
                self._occ, self._seat, self._turn = occ, seat, turn
                self._skip_passes()
                if self._end is not None:
                    return self.outcome()
                seat, turn = self._seat, self._turn
        self._occ, self._seat, self._turn = occ, seat, turn
        return None

    def _stuck_choice(self, rng: random.Random) -> int:
        acts = self.legal_actions()
        return acts[int(rng.random() * len(acts))]


def _nth_bit(mask: int, n: int) -> int:
    """The cell of the ``n``-th set bit of ``mask`` (0-based, ascending)."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


_SORTED_DECK: Final = sorted(FULL_DECK)


def cut_for_deal(players: int, rng: random.Random) -> int:
    """R4.1: every player cuts a card; the lowest deals (aces high), ties among the lowest cut again."""
    contenders = list(range(players))
    rand = rng.random
    while True:
        taken: set[int] = set()
        ranks = []
        for _ in contenders:  # distinct cards of the 104, by position
            pos = int(rand() * DECK_SIZE)
            while pos in taken:
                pos = int(rand() * DECK_SIZE)
            taken.add(pos)
            ranks.append(rank_of(FULL_DECK[pos]))
        low = min(ranks)
        contenders = [s for s, r in zip(contenders, ranks, strict=True) if r == low]
        if len(contenders) == 1:
            return contenders[0]


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
    if deck is None:
        rand = rng.random
        cards = sorted(FULL_DECK, key=lambda _: rand())  # a uniform shuffle, twice as fast
    else:
        cards = list(deck)
    if len(cards) != DECK_SIZE:
        raise ValueError(f"R1.2: a deck holds {DECK_SIZE} cards, not {len(cards)}")
    return GameState(config, cards, dealer, reshuffle_seed=rng.getrandbits(63))
