"""Observation planes and action masks: one encoder for the environments, the policy bot and the
batched engine, from the engine's public accessors (numpy only, no Gymnasium).

An observation is what one seat may know (its own hand and everything public), from that seat's
side's point of view, as ``float32`` planes of shape ``(10, 10, NUM_PLANES)`` (rows and columns as
in ``board.txt``, channels last as in PettingZoo's board games), every value in ``[0, 1]``:

==  =========================  ==============================================================
ch  name                       value
==  =========================  ==============================================================
0   ``own_chips``              1 where the observer's side has a chip
1   ``next_side_chips``        1 where the side that plays after it has a chip (R2.3 order)
2   ``third_side_chips``       the remaining side's chips (always 0 with two sides)
3   ``locked``                 1 where a chip belongs to a completed sequence (R3.5)
4   ``corners``                1 on the four free corners (R1.1)
5   ``hand``                   copies in hand of the card printed on the cell, / 2
6   ``hand_two_eyed``          two-eyed jacks in hand / 4, on every cell (R1.3)
7   ``hand_one_eyed``          one-eyed jacks in hand / 4, on every cell
8   ``discards``               copies of the cell's card in all face-up discard piles, / 2
9   ``discards_two_eyed``      two-eyed jacks in the discard piles / 4, on every cell
10  ``discards_one_eyed``      one-eyed jacks in the discard piles / 4, on every cell
11  ``draw_pile``              cards left in the draw pile / 104, on every cell (R5.4)
12  ``last_move``              1 on the cell of the latest chip placed or removed (any seat)
13  ``recent_moves``           1 on the cells the other seats played since this seat last acted
14  ``own_side_discards``      plane 8 counted over the piles of the observer's side only
15  ``next_side_discards``     plane 8 over the next side's piles (R5.2: a seat's own pile)
16  ``own_sequences``          the observer's side's completed sequences / 2 (at most 1), every cell
17  ``next_side_sequences``    the next side's completed sequences / 2
18  ``third_side_sequences``   the third side's completed sequences / 2 (0 with two sides)
19  ``sequences_needed``       sequences a side needs to win / 2 (R7.1: 1 with two sides, 0.5 with 3)
20  ``players``                players at the table / 12 (R2.1)
21  ``three_sides``            1 when the table has three sides (R2.2)
22  ``turn``                   ``turn / max_turns``: 1 when the episode is truncated
23  ``hand_sizes``             per seat in turn order from the observer (cell ``k`` in reading
                               order: seat ``observer + k``), cards in hand / the table's hand size
==  =========================  ==============================================================

Every non-jack card is printed on exactly two cells (R1.1), so planes 5, 8, 14 and 15 hold the full
count per card; the third side's discards are plane 8 less planes 14 and 15. Planes 12 and 13 are
a short public history: what the seats between the observer's turns did. The action mask is
``int8`` over the engine's ``NUM_ACTIONS`` ids (see ``actions``). The encoder reads only the
engine's public accessors; :func:`encode_view` builds the same planes from a
:class:`PlayerView`, which proves they hold nothing a seat may not see.

:func:`encode_state_batch` adds the hidden cards (every side's hands) for a centralised critic.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> obs, mask = encode(state, state.current_seat)
>>> obs.shape, obs.dtype, mask.shape, int(mask.sum()) == len(state.legal_actions())
((10, 10, 24), dtype('float32'), (405,), True)
>>> from sequence_game.cards import is_jack
>>> float(obs[..., 5].sum()) == sum(1 for c in state.hand(state.current_seat) if not is_jack(c))
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from ..actions import DEAD, DISCARD, DRAW, NUM_ACTIONS
from ..board import CORNERS, LAYOUT, NUM_CELLS, SIZE
from ..cards import DECK_SIZE, JC, JD, JH, JS, NUM_CARDS
from ..config import GameConfig
from ..state import GameState
from ..views import PlayerView

#: The turn cap of the environments' episodes, which plane 22 (``turn``) divides by. The rules set
#: no bound on a game's length (R5.4 reshuffles), so episodes are cut off there; random games last
#: about 80-95 turns and the longest of 1,200 seeded random games took 249.
DEFAULT_MAX_TURNS: Final = 1000

PLANES: Final = (
    "own_chips",
    "next_side_chips",
    "third_side_chips",
    "locked",
    "corners",
    "hand",
    "hand_two_eyed",
    "hand_one_eyed",
    "discards",
    "discards_two_eyed",
    "discards_one_eyed",
    "draw_pile",
    "last_move",
    "recent_moves",
    "own_side_discards",
    "next_side_discards",
    "own_sequences",
    "next_side_sequences",
    "third_side_sequences",
    "sequences_needed",
    "players",
    "three_sides",
    "turn",
    "hand_sizes",
)
NUM_PLANES: Final = len(PLANES)
OBS_SHAPE: Final = (SIZE, SIZE, NUM_PLANES)
MAX_SIDES: Final = 3  # R2.2: at most three sides, so three chip planes serve every table
MAX_PLAYERS: Final = 12  # R2.1

#: What :func:`encode_state_batch` adds to the acting seat's planes: per side, from the acting
#: seat's side on (R2.3 order), the cards its seats hold.
HIDDEN_PLANES: Final = tuple(
    f"{side}_{what}"
    for side in ("own_side", "next_side", "third_side")
    for what in ("hand", "two_eyed", "one_eyed")
)
STATE_PLANES: Final = PLANES + HIDDEN_PLANES
STATE_SHAPE: Final = (SIZE, SIZE, len(STATE_PLANES))

_CORNER_PLANE: Final = np.array([CORNERS >> c & 1 for c in range(NUM_CELLS)], dtype=np.float32)
_CARD_PILES: Final = 1 + MAX_SIDES  # the hand, then the discard piles of each side

# Planes 5-10 (and 14-15) come from per-game card counts extended with three slots: 52 is always
# 0 (the "card" of a corner), 53 and 54 hold the two-eyed and one-eyed jacks (R1.3). Scaled so that
# every value lies in [0, 1] (two copies of a card, four jacks of a kind, R1.2), one gather then
# lays them out per cell. (Plain numpy: a matrix product would call BLAS, whose threads crawl on a
# busy machine.)
_EMPTY, _TWO_EYED, _ONE_EYED = NUM_CARDS, NUM_CARDS + 1, NUM_CARDS + 2
_SCALE: Final = np.array([0.5] * NUM_CARDS + [0.0, 0.25, 0.25], dtype=np.float32)
_CELL_CARD: Final = np.array([card if card >= 0 else _EMPTY for card in LAYOUT], dtype=np.intp)
_GATHER: Final = np.array([[card, _TWO_EYED, _ONE_EYED] for card in _CELL_CARD], dtype=np.intp)
_MASK_BYTES: Final = (NUM_CELLS + 7) // 8


QUANTUM: Final = 255
"""The compact ``uint8`` planes hold ``rint(value * QUANTUM)`` (:func:`quantize`): a quarter of the
memory of ``float32``, which is what bounds a batched step's speed; ``planes / QUANTUM`` is within
``1 / (2 * QUANTUM)`` of the ``float32`` value (exact for 0 and 1)."""


def quantize(planes: np.ndarray) -> np.ndarray:
    """The ``uint8`` form of ``float32`` planes (every value in ``[0, 1]``): ``rint(v * QUANTUM)``."""
    scaled = np.asarray(planes, dtype=np.float32) * np.float32(QUANTUM)
    out: np.ndarray = np.rint(scaled).astype(np.uint8)
    return out


def recent_cells(history: Sequence[tuple[Any, ...]], seat: int) -> tuple[int, list[int]]:
    """The cell of the latest chip placed or removed (-1 if none yet) and the cells the other
    seats played since ``seat`` last acted, newest first (planes 12 and 13)."""
    last = -1
    recent: list[int] = []
    collecting = True
    for event in reversed(history):
        who = event[0]
        if who < 0:  # reshuffles, passes, penalties: no cell
            continue
        action = event[1]
        board = action < DEAD
        if board and last < 0:
            last = action % NUM_CELLS
        if who == seat and (board or DISCARD <= action < DRAW):  # the seat's last turn (R5.1: an
            collecting = False  # exchange of a dead card does not end one)
        elif collecting and board:
            recent.append(action % NUM_CELLS)
        if not collecting and last >= 0:
            break
    return last, recent


_Layout = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[float, ...]]


@functools.cache
def _seat_layout(config: GameConfig, seat: int) -> _Layout:
    """Per table and seat, what ``_Games.add`` reorders by: the sides from the observer's on, each
    seat's side counted from the observer's, the seats from the observer's on, and the planes
    19-21 that depend on the table only."""
    sides, players = config.sides, config.players
    side = seat % sides
    return (
        tuple((side + k) % sides for k in range(sides)),
        tuple((other - side) % sides for other in range(players)),
        tuple((seat + k) % players for k in range(players)),
        (config.sequences_to_win / 2, players / MAX_PLAYERS, float(sides == MAX_SIDES)),
    )


class _Games:
    """Per-game items gathered as flat lists, so that the batch is one numpy pass."""

    def __init__(self) -> None:
        self.masks: list[int] = []
        # hand, then the discard piles of the observer's side, the next side and the third side
        self.cards: tuple[list[int], ...] = tuple([] for _ in range(_CARD_PILES))
        self.card_counts: tuple[list[int], ...] = tuple([] for _ in range(_CARD_PILES))
        self.legal: tuple[list[int], list[int]] = ([], [])
        self.recent: tuple[list[int], list[int]] = ([], [])
        self.last: list[int] = []
        self.sequences: list[int] = []
        self.scalars: list[float] = []
        self.hand_sizes: list[int] = []
        self.full_hands: list[int] = []
        self.deck_sizes: list[int] = []

    def add(
        self,
        config: GameConfig,
        seat: int,
        chips: Sequence[int],
        locked: int,
        hand: Sequence[int],
        discards: Sequence[Sequence[int]],
        deck_size: int,
        legal: Sequence[int],
        history: Sequence[tuple[Any, ...]],
        hand_sizes: Sequence[int],
        sequence_counts: Sequence[int],
        turn: int,
        max_turns: int,
    ) -> None:
        sides_from, pile_side, seats_from, table = _seat_layout(config, seat)
        pad = MAX_SIDES - len(sides_from)
        self.masks += [chips[s] for s in sides_from]
        self.masks += [0] * pad
        self.masks.append(locked)
        cards, counts = self.cards, self.card_counts
        cards[0].extend(hand)
        counts[0].append(len(hand))
        before = [len(cards[1]), len(cards[2]), len(cards[3])]
        for pile, rel in zip(discards, pile_side, strict=True):
            cards[1 + rel].extend(pile)
        for k in range(MAX_SIDES):
            counts[1 + k].append(len(cards[1 + k]) - before[k])
        self.legal[0].extend(legal)
        self.legal[1].append(len(legal))
        last, recent = recent_cells(history, seat)
        self.last.append(last)
        self.recent[0].extend(recent)
        self.recent[1].append(len(recent))
        self.sequences += [sequence_counts[s] for s in sides_from]
        self.sequences += [0] * pad
        self.scalars += table
        self.scalars.append(min(turn / max_turns, 1.0))
        self.hand_sizes += [hand_sizes[s] for s in seats_from]
        self.hand_sizes += [0] * (MAX_PLAYERS - len(seats_from))
        self.full_hands.append(config.hand_size)
        self.deck_sizes.append(deck_size)

    def encode(self) -> tuple[np.ndarray, np.ndarray]:
        """Planes ``(N, 10, 10, NUM_PLANES)`` and masks ``(N, NUM_ACTIONS)``: the layout of the
        module docstring, in one place."""
        n = len(self.deck_sizes)
        obs = np.zeros((n, NUM_CELLS, NUM_PLANES), dtype=np.float32)
        raw = np.frombuffer(b"".join(m.to_bytes(_MASK_BYTES, "little") for m in self.masks), dtype=np.uint8)
        bits = np.unpackbits(raw.reshape(n, MAX_SIDES + 1, _MASK_BYTES), axis=2, bitorder="little")
        obs[:, :, 0:4] = bits[:, :, :NUM_CELLS].transpose(0, 2, 1)
        obs[:, :, 4] = _CORNER_PLANE
        counts = np.zeros((n, 2 + MAX_SIDES, NUM_CARDS + 3), dtype=np.float32)
        for pile in range(_CARD_PILES):
            idx = _indices(self.cards[pile], self.card_counts[pile], NUM_CARDS)
            counts[:, pile, :NUM_CARDS] = np.bincount(idx, minlength=n * NUM_CARDS).reshape(n, NUM_CARDS)
        counts[:, _CARD_PILES] = counts[:, 1:_CARD_PILES].sum(axis=1)  # every discard pile
        counts[:, :, _TWO_EYED] = counts[:, :, JD] + counts[:, :, JC]
        counts[:, :, _ONE_EYED] = counts[:, :, JH] + counts[:, :, JS]
        counts *= _SCALE
        obs[:, :, 5:11] = (
            counts[:, [0, _CARD_PILES]][:, :, _GATHER].transpose(0, 2, 1, 3).reshape(n, NUM_CELLS, 6)
        )
        obs[:, :, 11] = (np.asarray(self.deck_sizes, dtype=np.float32) / DECK_SIZE)[:, None]
        games = np.arange(n)
        last = np.asarray(self.last, dtype=np.intp)
        played = last >= 0
        obs[games[played], last[played], 12] = 1.0
        obs.reshape(n * NUM_CELLS, NUM_PLANES)[_indices(*self.recent, NUM_CELLS), 13] = 1.0
        obs[:, :, 14:16] = counts[:, 1:3, _CELL_CARD].transpose(0, 2, 1)
        # R3.4: one chip can complete two sequences at once, so a side may end with 3 (capped: 1 is a win)
        sequences = np.minimum(np.asarray(self.sequences, dtype=np.float32) / 2, 1.0)
        obs[:, :, 16:19] = sequences.reshape(n, 1, MAX_SIDES)
        obs[:, :, 19:23] = np.asarray(self.scalars, dtype=np.float32).reshape(n, 1, 4)
        sizes = np.asarray(self.hand_sizes, dtype=np.float32).reshape(n, MAX_PLAYERS)
        full = np.asarray(self.full_hands, dtype=np.float32)[:, None]
        obs[:, :MAX_PLAYERS, 23] = np.minimum(sizes / full, 1.0)
        mask = np.zeros(n * NUM_ACTIONS, dtype=np.int8)
        mask[_indices(*self.legal, NUM_ACTIONS)] = 1
        return obs.reshape(n, SIZE, SIZE, NUM_PLANES), mask.reshape(n, NUM_ACTIONS)


def _indices(items: list[int], counts: list[int], stride: int) -> np.ndarray:
    """Flat indices ``game * stride + item`` of items listed game after game."""
    offsets = np.repeat(np.arange(len(counts), dtype=np.intp) * stride, counts)
    return offsets + np.asarray(items, dtype=np.intp)


def _add_state(games: _Games, state: GameState, seat: int, max_turns: int) -> None:
    sides = state.config.sides
    games.add(
        state.config,
        seat,
        [state.chips(s) for s in range(sides)],
        state.locked,
        state.hand(seat),
        [state.discard_pile(s) for s in range(state.players)],
        state.deck_size,
        state.legal_actions(seat),
        state.history,
        state.hand_sizes(),
        state.sequence_counts(),
        state.turn,
        max_turns,
    )


def encode_batch(
    states: Sequence[GameState], seats: Sequence[int], max_turns: int = DEFAULT_MAX_TURNS
) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``(N, 10, 10, NUM_PLANES)`` and masks ``(N, NUM_ACTIONS)`` for ``seats[i]`` of ``states[i]``.

    One numpy pass for the whole batch: the per-game work is reading the engine's accessors.
    ``max_turns`` is the environment's turn cap (plane 22 reaches 1 there).
    """
    if len(seats) != len(states):
        raise ValueError(f"{len(states)} states but {len(seats)} seats")
    games = _Games()
    for state, seat in zip(states, seats, strict=True):
        _add_state(games, state, seat, max_turns)
    return games.encode()


def encode(state: GameState, seat: int, max_turns: int = DEFAULT_MAX_TURNS) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``(10, 10, NUM_PLANES)`` and mask ``(NUM_ACTIONS,)`` of one seat (a batch of one)."""
    obs, mask = encode_batch([state], [seat], max_turns)
    return obs[0], mask[0]


def encode_view(view: PlayerView, max_turns: int = DEFAULT_MAX_TURNS) -> tuple[np.ndarray, np.ndarray]:
    """The same planes and mask built from a seat's :class:`PlayerView` alone."""
    games = _Games()
    games.add(
        view.config,
        view.seat,
        view.chips,
        view.locked,
        view.hand,
        view.discards,
        view.deck_size,
        view.legal_actions,
        view.history,
        view.hand_sizes,
        [len(w) for w in view.sequence_windows],
        view.turn,
        max_turns,
    )
    obs, mask = games.encode()
    return obs[0], mask[0]


def encode_state_batch(states: Sequence[GameState], max_turns: int = DEFAULT_MAX_TURNS) -> np.ndarray:
    """Planes ``(N, 10, 10, len(STATE_PLANES))`` for a centralised critic: the observation of the
    seat to act in each game, then (``HIDDEN_PLANES``) the cards held by each side's seats, from
    that seat's side on: copies of the cell's card / 2, two-eyed and one-eyed jacks / 4."""
    seats = [state.current_seat for state in states]
    obs, _ = encode_batch(states, seats, max_turns)
    n = len(states)
    cards: list[int] = []
    per_slot: list[int] = []
    for state, seat in zip(states, seats, strict=True):
        sides = state.config.sides
        for k in range(MAX_SIDES):
            held = [c for s in range(state.players) if s % sides == (seat + k) % sides for c in state.hand(s)]
            held = held if k < sides else []
            cards += held
            per_slot.append(len(held))
    counts = np.zeros((n * MAX_SIDES, NUM_CARDS + 3), dtype=np.float32)
    idx = _indices(cards, per_slot, NUM_CARDS)
    counts[:, :NUM_CARDS] = np.bincount(idx, minlength=n * MAX_SIDES * NUM_CARDS).reshape(-1, NUM_CARDS)
    counts[:, _TWO_EYED] = counts[:, JD] + counts[:, JC]
    counts[:, _ONE_EYED] = counts[:, JH] + counts[:, JS]
    counts *= _SCALE
    hidden = counts.reshape(n, MAX_SIDES, -1)[:, :, _GATHER]  # (n, sides, cells, 3)
    hidden = hidden.transpose(0, 2, 1, 3).reshape(n, SIZE, SIZE, len(HIDDEN_PLANES))
    return np.concatenate([obs, hidden], axis=3)
