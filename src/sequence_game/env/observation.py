"""Observation planes and action masks: one encoder for every environment, batched.

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
==  =========================  ==============================================================

Every non-jack card is printed on exactly two cells (R1.1), so planes 5 and 8 hold the full count
per card. The action mask is ``int8`` over the engine's ``NUM_ACTIONS`` ids (see ``actions``).
The encoder reads only the engine's public accessors; :func:`encode_view` builds the same
planes from a :class:`PlayerView`, which proves they hold nothing a seat may not see.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> obs, mask = encode(state, state.current_seat)
>>> obs.shape, obs.dtype, mask.shape, int(mask.sum()) == len(state.legal_actions())
((10, 10, 12), dtype('float32'), (405,), True)
>>> from sequence_game.cards import is_jack
>>> float(obs[..., 5].sum()) == sum(1 for c in state.hand(state.current_seat) if not is_jack(c))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS
from ..board import CORNERS, LAYOUT, NUM_CELLS, SIZE
from ..cards import DECK_SIZE, JC, JD, JH, JS, NUM_CARDS
from ..state import GameState
from ..views import PlayerView

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
)
NUM_PLANES: Final = len(PLANES)
OBS_SHAPE: Final = (SIZE, SIZE, NUM_PLANES)
MAX_SIDES: Final = 3  # R2.2: at most three sides, so three chip planes serve every table

_CORNER_PLANE: Final = np.array([CORNERS >> c & 1 for c in range(NUM_CELLS)], dtype=np.float32)


# Planes 5-10 come from per-game card counts (hand, discards) extended with three slots: 52 is
# always 0 (the "card" of a corner), 53 and 54 hold the two-eyed and one-eyed jacks (R1.3).
# Scaled so that every value lies in [0, 1] (two copies of a card, four jacks of a kind, R1.2),
# one gather then lays them out per cell. (Plain numpy: a matrix product would call BLAS, whose
# threads crawl on a busy machine.)
_EMPTY, _TWO_EYED, _ONE_EYED = NUM_CARDS, NUM_CARDS + 1, NUM_CARDS + 2
_SCALE: Final = np.array([0.5] * NUM_CARDS + [0.0, 0.25, 0.25], dtype=np.float32)
_GATHER: Final = np.array(
    [[card if card >= 0 else _EMPTY, _TWO_EYED, _ONE_EYED] for card in LAYOUT], dtype=np.intp
)
_MASK_BYTES: Final = (NUM_CELLS + 7) // 8


def observation_space() -> spaces.Dict:
    """The space of one observation: planes plus action mask (a new object each call)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, OBS_SHAPE, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    """The engine's fixed action space (``NUM_ACTIONS`` ids, decoded by ``Action.decode``)."""
    return spaces.Discrete(NUM_ACTIONS)


def _side_masks(chips: Sequence[int], side: int, locked: int) -> list[int]:
    """Chip masks from the observer's side on, padded to three sides, then the locked mask."""
    sides = len(chips)
    return [chips[(side + k) % sides] if k < sides else 0 for k in range(MAX_SIDES)] + [locked]


def _indices(items: list[int], counts: list[int], stride: int) -> np.ndarray:
    """Flat indices ``game * stride + item`` of items listed game after game."""
    offsets = np.repeat(np.arange(len(counts), dtype=np.intp) * stride, counts)
    return offsets + np.asarray(items, dtype=np.intp)


def _encode(
    masks: list[int],
    hands: tuple[list[int], list[int]],
    discards: tuple[list[int], list[int]],
    deck_sizes: list[int],
    legal: tuple[list[int], list[int]],
) -> tuple[np.ndarray, np.ndarray]:
    """The batched core. Each pair is (items of all games, one after another; items per game),
    so that callers do only C-level list work per game and numpy does the rest."""
    n = len(deck_sizes)
    obs = np.empty((n, NUM_CELLS, NUM_PLANES), dtype=np.float32)
    raw = np.frombuffer(b"".join(m.to_bytes(_MASK_BYTES, "little") for m in masks), dtype=np.uint8)
    bits = np.unpackbits(raw.reshape(n, MAX_SIDES + 1, _MASK_BYTES), axis=2, bitorder="little")
    obs[:, :, 0:4] = bits[:, :, :NUM_CELLS].transpose(0, 2, 1)
    obs[:, :, 4] = _CORNER_PLANE
    counts = np.zeros((n, 2, NUM_CARDS + 3), dtype=np.float32)
    for pile, (cards, per_game) in enumerate((hands, discards)):
        idx = _indices(cards, per_game, NUM_CARDS)
        counts[:, pile, :NUM_CARDS] = np.bincount(idx, minlength=n * NUM_CARDS).reshape(n, NUM_CARDS)
    counts[:, :, _TWO_EYED] = counts[:, :, JD] + counts[:, :, JC]
    counts[:, :, _ONE_EYED] = counts[:, :, JH] + counts[:, :, JS]
    counts *= _SCALE
    obs[:, :, 5:11] = counts[:, :, _GATHER].transpose(0, 2, 1, 3).reshape(n, NUM_CELLS, 6)
    obs[:, :, 11] = (np.asarray(deck_sizes, dtype=np.float32) / DECK_SIZE)[:, None]
    mask = np.zeros(n * NUM_ACTIONS, dtype=np.int8)
    mask[_indices(*legal, NUM_ACTIONS)] = 1
    return obs.reshape(n, SIZE, SIZE, NUM_PLANES), mask.reshape(n, NUM_ACTIONS)


def encode_batch(states: Sequence[GameState], seats: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``(N, 10, 10, NUM_PLANES)`` and masks ``(N, NUM_ACTIONS)`` for ``seats[i]`` of ``states[i]``.

    One numpy pass for the whole batch: the per-game work is reading the engine's accessors.
    """
    if len(seats) != len(states):
        raise ValueError(f"{len(states)} states but {len(seats)} seats")
    masks: list[int] = []
    hands: tuple[list[int], list[int]] = ([], [])
    discards: tuple[list[int], list[int]] = ([], [])
    legal: tuple[list[int], list[int]] = ([], [])
    deck_sizes: list[int] = []
    for state, seat in zip(states, seats, strict=True):
        sides = state.config.sides
        masks += _side_masks([state.chips(s) for s in range(sides)], seat % sides, state.locked)
        _add(hands, state.hand(seat))
        before = len(discards[0])
        for other in range(state.players):
            discards[0].extend(state.discard_pile(other))
        discards[1].append(len(discards[0]) - before)
        _add(legal, state.legal_actions(seat))
        deck_sizes.append(state.deck_size)
    return _encode(masks, hands, discards, deck_sizes, legal)


def _add(pair: tuple[list[int], list[int]], items: list[int]) -> None:
    pair[0].extend(items)
    pair[1].append(len(items))


def encode(state: GameState, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``(10, 10, NUM_PLANES)`` and mask ``(NUM_ACTIONS,)`` of one seat (a batch of one)."""
    obs, mask = encode_batch([state], [seat])
    return obs[0], mask[0]


def encode_view(view: PlayerView) -> tuple[np.ndarray, np.ndarray]:
    """The same planes and mask built from a seat's :class:`PlayerView` alone."""
    masks = _side_masks(view.chips, view.side, view.locked)
    discards = [c for pile in view.discards for c in pile]
    legal = list(view.legal_actions)
    obs, mask = _encode(
        masks,
        (list(view.hand), [len(view.hand)]),
        (discards, [len(discards)]),
        [view.deck_size],
        (legal, [len(legal)]),
    )
    return obs[0], mask[0]
