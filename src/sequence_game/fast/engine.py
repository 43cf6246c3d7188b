"""A game on the compiled kernels, with the pure engine's action ids and accessors.

The pure engine (:class:`~sequence_game.state.GameState`) stays the reference and the default; a
:class:`FastGame` is for playouts, search and batches. It plays auto-draw games (R5.3) without
table talk (R6.1): both are refused with a clear error, the pure engine plays them.

>>> from sequence_game import GameConfig
>>> game = FastGame.new(GameConfig(players=2), seed=7)
>>> game.current_seat in (0, 1), len(game.hand(game.current_seat))
(True, 7)
>>> game.apply(game.legal_actions()[0])
>>> game.turn
1
>>> game.playout() is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ..actions import DEAD, DISCARD, DRAW, NUM_ACTIONS, action_name
from ..board import NUM_CELLS
from ..cards import FULL_DECK, Card
from ..config import GameConfig
from ..errors import ConfigError, IllegalActionError
from ..state import GameState, Outcome, Termination
from . import kernels as k
from .compile import ensure_compiled

_SORTED_DECK = sorted(FULL_DECK)
_MAX_SEED = (1 << 63) - 1


def check_config(config: GameConfig) -> None:
    """Refuse what the compiled engine leaves to the pure one: manual draws (R5.3)."""
    if config.draw != "auto":
        raise ConfigError(
            "the fast engine plays auto-draw games only; use the pure engine (new_game) for manual draws",
            "R5.3",
        )


def _rule_of(action: int) -> str:
    if action < DEAD:
        return "R5.2"
    if action < DISCARD:
        return "R5.1"
    if action < DRAW:
        return "R5.5"
    return "R5.3"


class FastGame:
    """One game: an ``int32`` row of :data:`~.kernels.ROW` ints and a ``uint64`` random state.

    Randomness (reshuffles, R5.4; random play) comes from ``seed`` only, never global state.
    """

    __slots__ = ("config", "rng", "row")

    config: GameConfig
    row: np.ndarray
    rng: np.ndarray

    def __init__(self, config: GameConfig, deck: Sequence[Card], dealer: int, *, seed: int = 0) -> None:
        """Deal ``deck`` (top card first, the 104 cards) from ``dealer``, as ``GameState`` does."""
        check_config(config)
        if sorted(deck) != _SORTED_DECK:
            raise ValueError("R1.2: the deck must hold each of the 52 cards exactly twice")
        if not isinstance(dealer, int) or not 0 <= dealer < config.players:
            raise ValueError(f"R4.1: dealer {dealer!r} is not a seat 0..{config.players - 1}")
        ensure_compiled()
        self.config = config
        self.row = np.empty(k.ROW, dtype=np.int32)
        self.rng = np.array([k.seed_state(seed & _MAX_SEED)], dtype=np.uint64)
        k.deal(self.row, config.players, config.sides, dealer, np.asarray(deck, dtype=np.int32))

    @classmethod
    def new(cls, config: GameConfig | None = None, seed: int | None = None) -> FastGame:
        """A shuffled deck and a random dealer (each seat equally likely, as the cut of R4.1)."""
        config = config or GameConfig()
        rng = random.Random(seed)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return cls(config, deck, rng.randrange(config.players), seed=rng.getrandbits(63))

    @classmethod
    def from_state(cls, state: GameState, seed: int = 0) -> FastGame:
        """The same position as a pure-engine state (hands, draw pile order, discards, board,
        sequences, turn): what a search converts before its playouts."""
        check_config(state.config)
        if state.penalty_due:
            raise IllegalActionError("R6.1", "a table-talk fine is being paid: the fast engine plays none")
        ensure_compiled()
        config = state.config
        game = cls.__new__(cls)
        game.config = config
        game.rng = np.array([k.seed_state(seed & _MAX_SEED)], dtype=np.uint64)
        game.row = np.empty(k.ROW, dtype=np.int32)
        outcome = state.outcome()
        end, winner = k.END_NONE, -1
        if outcome is not None:
            end = k.END_SEQUENCES if outcome.termination is Termination.SEQUENCES else k.END_STUCK
            winner = -1 if outcome.winner is None else outcome.winner
        history = state._history
        head = (
            state.seat_to_play,
            int(state.dead_card_exchanged),
            state.turn,
            state._stuck_run,
            end,
            winner,
            max(state.dealer, 0),
        )
        parts = (state._hands, state._deck, state._discards)
        spec = position_spec(config, head, state._chips, state.locked, state._seqs, parts, history)
        k.load_position(game.row, spec)
        return game

    def copy(self) -> FastGame:
        """An independent copy (two small array copies)."""
        new = FastGame.__new__(FastGame)
        new.config = self.config
        new.row = self.row.copy()
        new.rng = self.rng.copy()
        return new

    def __repr__(self) -> str:
        status = f"over: {self.outcome()}" if self.is_terminal() else f"seat {self.current_seat} to act"
        return f"<FastGame {self.players} players, {self.sides} sides, turn {self.turn}, {status}>"

    # ------------------------------------------------------------- inspection

    def _get(self, index: int) -> int:
        return int(self.row[index])

    @property
    def players(self) -> int:
        return self._get(k.I_PLAYERS)

    @property
    def sides(self) -> int:
        return self._get(k.I_SIDES)

    @property
    def current_seat(self) -> int:
        return self._get(k.I_SEAT)

    @property
    def turn(self) -> int:
        return self._get(k.I_TURN)

    @property
    def dealer(self) -> int:
        return self._get(k.I_DEALER)

    @property
    def deck_size(self) -> int:
        return self._get(k.I_DECKLEN)

    @property
    def dead_card_exchanged(self) -> bool:
        return bool(self.row[k.I_DEAD_DONE])

    @property
    def stuck_run(self) -> int:
        return self._get(k.I_STUCK)

    @property
    def reshuffles(self) -> int:
        return self._get(k.I_RESHUFFLES)

    def last_reshuffle(self) -> list[Card]:
        """The draw pile the last reshuffle made (R5.4), top card first (as a record stores it)."""
        n = self._get(k.I_RESHUFFLED)
        return [int(c) for c in self.row[k.O_DECK : k.O_DECK + n][::-1]]

    def draw_pile(self) -> list[Card]:
        """The hidden draw pile, top card first."""
        return [int(c) for c in self.row[k.O_DECK : k.O_DECK + self.deck_size][::-1]]

    def hand(self, seat: int) -> list[Card]:
        """A copy of a seat's hand, sorted."""
        n = self._get(k.O_HLEN + seat)
        start = k.O_HAND + seat * k.MAX_HAND
        return sorted(int(c) for c in self.row[start : start + n])

    def hand_sizes(self) -> list[int]:
        return [self._get(k.O_HLEN + s) for s in range(self.players)]

    def discard_pile(self, seat: int) -> list[Card]:
        """A seat's face-up discard pile since the last reshuffle, oldest first (R5.2)."""
        n = self._get(k.I_DISCLEN)
        cards = self.row[k.O_DISC : k.O_DISC + n]
        seats = self.row[k.O_DSEAT : k.O_DSEAT + n]
        return [int(c) for c in cards[seats == seat]]

    def chips(self, side: int) -> int:
        """The cells holding the side's chips, as a bit mask (as ``GameState.chips``)."""
        return _mask(self.row[k.O_OWNER : k.O_OWNER + NUM_CELLS] == side)

    @property
    def occupied(self) -> int:
        return _mask(self.row[k.O_OWNER : k.O_OWNER + NUM_CELLS] >= 0)

    @property
    def locked(self) -> int:
        return _mask(self.row[k.O_LOCKED : k.O_LOCKED + NUM_CELLS] == 1)

    def sequence_windows(self, side: int) -> list[int]:
        """The side's sequences as window numbers (see ``board``), in the order declared."""
        n = self._get(k.O_NSEQ + side)
        start = k.O_SEQ + side * k.MAX_SEQS
        return [int(w) for w in self.row[start : start + n]]

    def sequence_counts(self) -> tuple[int, ...]:
        return tuple(self._get(k.O_NSEQ + s) for s in range(self.sides))

    def is_terminal(self) -> bool:
        return self._get(k.I_END) != k.END_NONE

    def outcome(self) -> Outcome | None:
        """How the game ended (the pure engine's :class:`Outcome`), or ``None``."""
        end = self._get(k.I_END)
        if end == k.END_NONE:
            return None
        winner = self._get(k.I_WINNER)
        termination = Termination.SEQUENCES if end == k.END_SEQUENCES else Termination.STUCK
        return Outcome(termination, None if winner < 0 else winner, self.sequence_counts())

    def returns(self) -> list[float]:
        """Per seat: +1 for the winning side, -1 for the others, 0 for all in a draw."""
        winner = self._get(k.I_WINNER) if self.is_terminal() else -1
        if winner < 0:
            return [0.0] * self.players
        return [1.0 if s % self.sides == winner else -1.0 for s in range(self.players)]

    # ------------------------------------------------------------ legal moves

    def legal_action_mask(self) -> np.ndarray:
        """``int8`` 0/1 over ``NUM_ACTIONS`` for the seat to play."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        k.legal_mask(self.row, mask)
        return mask

    def legal_actions(self) -> list[int]:
        """Legal action ids of the seat to play, ascending (the same ids as ``GameState``)."""
        return [int(a) for a in np.flatnonzero(self.legal_action_mask())]

    def apply(self, action: int) -> None:
        """Apply a legal action of the seat to play, or raise :class:`IllegalActionError` and
        change nothing (for the full diagnosis of an illegal action, ask the pure engine)."""
        if self.is_terminal():
            raise IllegalActionError("R7.1", "the game is over", action)
        if not isinstance(action, int | np.integer) or isinstance(action, bool) or not 0 <= action <= DRAW:
            raise IllegalActionError("R5.2", f"not an action id: {action!r}", action)
        action = int(action)
        if action == DRAW:
            raise IllegalActionError("R5.3", "draws are automatic in this game", action)
        if not self.legal_action_mask()[action]:
            raise IllegalActionError(
                _rule_of(action),
                f"{action_name(action)} is not legal for seat {self.current_seat} now",
                action,
            )
        k.apply(self.row, self.rng, 0, action)

    def call_table_talk(self, side: int) -> None:
        """Refused: table-talk fines (R6.1) are played by the pure engine only."""
        raise IllegalActionError("R6.1", "the fast engine plays no table-talk fines; use the pure engine")

    # --------------------------------------------------------------- playing

    def random_action(self) -> int:
        """A random legal action: a dead card exchanged first, else every action equally likely."""
        if self.is_terminal():
            raise IllegalActionError("R7.1", "the game is over")
        return int(k.random_action(self.row, self.rng, 0))

    def playout(self, max_turns: int | None = None) -> Outcome | None:
        """Random play to the end (``None`` if stopped at ``max_turns`` turns first)."""
        limit = (1 << 31) - 1 if max_turns is None else min(max_turns, (1 << 31) - 1)
        k.playout(self.row, self.rng, 0, limit)
        return self.outcome()


def position_spec(
    config: GameConfig,
    head: tuple[int, int, int, int, int, int, int],
    chips: Sequence[int],
    locked: int,
    seqs: Sequence[Sequence[int]],
    parts: tuple[Sequence[Sequence[Card]], Sequence[Card], Sequence[Sequence[Card]]],
    history: Sequence[tuple[int, ...]],
) -> np.ndarray:
    """The flat spec :func:`~.kernels.load_position` reads: ``head`` (seat to play, dead card
    exchanged, turn, stuck run, end, winner, dealer), per side its chips, the locked chips, the
    declared windows, ``parts`` (per seat its hand, the draw pile top card last, per seat its
    discard pile) and the latest actions of ``history``. A position need not be a whole game's:
    a search rebuilds a past one from the public history (:mod:`.posterior`)."""
    last_cell = -1
    for event in reversed(history):  # the latest chip placed or removed (observations)
        if event[0] >= 0 and event[1] < DEAD:
            last_cell = event[1] % NUM_CELLS
            break
    spec = [config.players, config.sides, config.sequences_to_win, *head, last_cell]
    for side in range(config.sides):
        spec += chips[side].to_bytes(k.MASK_BYTES, "little")
    spec += locked.to_bytes(k.MASK_BYTES, "little")
    for windows in seqs:  # declared order, as the view shows it
        spec.append(len(windows))
        spec += windows
    hands, pile, discards = parts
    for hand in hands:
        spec.append(len(hand))
        spec += sorted(hand)
    spec.append(len(pile))  # the hidden draw pile, top card last (as here): a search's own world
    spec += pile
    for pile_ in discards:
        spec.append(len(pile_))
        spec += pile_
    actions = [e for e in history[-4 * k.LOG_SIZE :] if e[0] >= 0][-k.LOG_SIZE :]
    spec.append(len(actions))
    for event in actions:
        spec += event[:2]
    return np.array(spec, dtype=np.int32)


def _mask(cells: np.ndarray) -> int:
    """A 100-bit int from a boolean array over cells."""
    return int.from_bytes(np.packbits(cells.astype(np.uint8), bitorder="little").tobytes(), "little")
