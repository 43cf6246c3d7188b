"""A position as a short vector of numbers, from one seat's view: what the evaluator judges.

Why these numbers: a Sequence position is decided by its windows of five (R3.4), by the cards
that can fill them (the seat's own hand; what the others may still hold, from the cards not yet
seen), by whose turn it is, and by what the history says of the other hands: a side that let a
winning cell pass on its turn did not hold its card then (a point the uniformly dealt worlds of
a rollout miss). Everything is read from a :class:`~sequence_game.views.PlayerView` only, so the
vector holds nothing the seat may not know, and is relative to the seat's side: "own", "next"
(the side that plays after it) and "third" (zeros with two sides).

The work is split in two: :func:`view_parts` reads a view into integers (bit sets, counts) in
Python, and :func:`features` turns a batch of those into the vector with numpy, a few matrix
products for the whole batch.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> x = features([view_parts(state.view(0)), view_parts(state.view(1))])
>>> x.shape == (2, NUM_FEATURES), float(x[0, FEATURE_NAMES.index("own_to_move")])
(True, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from ..actions import REMOVE
from ..board import CARD_MASK, CORNERS, LAYOUT, LINES, NUM_CELLS, WINDOW_CELLS
from ..cards import NUM_CARDS, ONE_EYED, TWO_EYED, Card, is_jack
from ..views import PlayerView

NUM_WINDOWS: Final = len(LINES)
_SIDES: Final = ("own", "next", "third")

#: Window ``w``'s bit set of the windows that share two cells or more with it: after a sequence in
#: ``w``, none of them can make a new sequence of that side (R3.4 lets two share one cell only).
_CROWDED: Final[tuple[int, ...]] = tuple(
    sum(1 << v for v in range(NUM_WINDOWS) if (LINES[w] & LINES[v]).bit_count() >= 2)
    for w in range(NUM_WINDOWS)
)
_WINDOWS: Final = np.zeros((NUM_WINDOWS, NUM_CELLS), dtype=np.float32)
for _w, _cells in enumerate(WINDOW_CELLS):
    _WINDOWS[_w, list(_cells)] = 1.0
#: Per cell, the bit set of the windows through it.
_THROUGH: Final[tuple[int, ...]] = tuple(
    sum(1 << w for w in range(NUM_WINDOWS) if LINES[w] >> c & 1) for c in range(NUM_CELLS)
)
_ALL_WINDOWS: Final = (1 << NUM_WINDOWS) - 1
#: Per direction of a line (its step between cells), windows by the cells they hold, start at and
#: end at: a cell that completes two windows of one direction at once (one ending there, one
#: starting there: nine in a row) makes two sequences with one chip (R3.4).
_STEPS: Final = sorted({cells[1] - cells[0] for cells in WINDOW_CELLS})
_ALONG: Final = np.zeros((len(_STEPS), 3, NUM_WINDOWS, NUM_CELLS), dtype=np.float32)
for _w, _cells in enumerate(WINDOW_CELLS):
    _d = _STEPS.index(_cells[1] - _cells[0])
    _ALONG[_d, 0, _w, list(_cells)] = 1.0
    _ALONG[_d, 1, _w, _cells[0]] = 1.0
    _ALONG[_d, 2, _w, _cells[-1]] = 1.0
_ALONG_FLAT: Final = np.ascontiguousarray(_ALONG.transpose(2, 0, 1, 3).reshape(NUM_WINDOWS, -1))
_CORNER_ROW: Final = np.array([CORNERS >> c & 1 for c in range(NUM_CELLS)], dtype=bool)
_CELL_CARD: Final = np.array([max(card, 0) for card in LAYOUT], dtype=np.intp)  # a corner reads card 0

PER_SIDE: Final = (
    "sequences",
    "open_1",
    "open_2",
    "open_3",
    "open_4",
    "threat_cells",
    "chips",
    "threats_passed",
    "threat_cards_unseen",
    "can_block",
)
"""Per side: its sequences / 2; its open windows (no other side's chip, not crowded by its own
sequences) holding 1-4 of its chips or corners, / 16; the empty cells that would complete one
(threats) / 4; its chips / 25; threat cells it let pass on a turn since they opened / 4; copies
of the threat cells' cards nobody has shown (not in the seat's hand or a discard pile) / 4; and
the threat cells the seat could fill now with a natural card / 2 (its own side: its winning plays)."""
GLOBAL: Final = (
    "own_to_move",
    "next_to_move",
    "third_to_move",
    "turns_to_own",
    "two_eyed_in_hand",
    "one_eyed_in_hand",
    "two_eyed_unseen",
    "one_eyed_unseen",
    "own_win_now",
    "own_extensions",
    "can_break",
    "dead_in_hand",
    "hand",
    "deck",
    "turn",
    "players",
    "three_sides",
    "sequences_to_win",
)
"""The rest: which side plays next (one-hot) and how many turns until the seat's own / players;
jacks in hand / 2 and jacks nobody has shown / 4; whether the seat can win with this move (a
threat cell it can fill and the last sequence it needs); the empty cells of its open 3-windows
it can fill / 4; whether it holds a one-eyed jack and another side has a threat with an unlocked
chip; dead cards in hand; its hand / the table's hand size; the draw pile / 104; the turn / 100;
players / 12; three sides; sequences a side needs / 2 (R3.1)."""
FEATURE_NAMES: Final = tuple(f"{side}_{name}" for side in _SIDES for name in PER_SIDE) + GLOBAL
NUM_FEATURES: Final = len(FEATURE_NAMES)


@dataclass(frozen=True, slots=True)
class ViewParts:
    """What :func:`features` needs of one view, as integers; sides relative to the seat's."""

    chips: tuple[int, int, int]
    locked: int
    crowded: tuple[int, int, int]
    """Per side, the windows its sequences crowd out (bit sets over windows)."""
    stale: tuple[int, int, int]
    """Per side, the windows that have not changed since that side last acted."""
    sequences: tuple[int, int, int]
    hand: tuple[int, ...]
    """Copies of each card in the seat's hand (52 counts)."""
    seen: tuple[int, ...]
    """Copies of each card the seat has seen: its hand and every discard pile (52 counts)."""
    to_move: int
    """Turns until the seat's own, 0 if it acts now; ``players`` once the game is over."""
    next_side: int
    """The relative side that acts now (0 own)."""
    hand_size: int
    table_hand: int
    deck: int
    turn: int
    players: int
    sides: int
    need: int
    dead: int


def view_parts(view: PlayerView) -> ViewParts:
    """Read one seat's view into :class:`ViewParts` (plain Python: a few dozen microseconds)."""
    config = view.config
    sides = config.sides
    me = view.side
    order = [(me + k) % sides for k in range(sides)] + [-1] * (3 - sides)
    chips = tuple(view.chips[s] if s >= 0 else 0 for s in order)
    crowded = []
    for s in order:
        bits = 0
        if s >= 0:
            for w in view.sequence_windows[s]:
                bits |= _CROWDED[w]
        crowded.append(bits)
    # the history: when each cell last changed, and when each side last acted
    last_change = [-1] * NUM_CELLS
    last_act = [-1] * sides
    for i, event in enumerate(view.history):
        seat = event[0]
        if seat < 0:
            continue
        action = event[1]
        last_act[seat % sides] = i
        if action < REMOVE + NUM_CELLS:  # a chip placed (natural or wild) or removed
            last_change[action % NUM_CELLS] = i
    stale = []
    for s in order:
        bits = 0
        if s >= 0 and last_act[s] >= 0:
            acted = last_act[s]
            bits = _ALL_WINDOWS
            for c in range(NUM_CELLS):
                if last_change[c] >= acted:
                    bits &= ~_THROUGH[c]
        stale.append(bits)
    hand = [0] * NUM_CARDS
    for card in view.hand:
        hand[card] += 1
    seen = list(hand)
    for pile in view.discards:
        for card in pile:
            seen[card] += 1
    occupied = 0
    for mask in view.chips:
        occupied |= mask
    dead = sum(1 for c in view.hand if not is_jack(c) and CARD_MASK[c] & ~occupied == 0)
    if view.is_over:
        to_move, acting = config.players, 0
    else:
        to_move = (view.seat - view.current_seat) % config.players
        acting = (view.current_seat % sides - me) % sides
    return ViewParts(
        chips=(chips[0], chips[1], chips[2]),
        locked=view.locked,
        crowded=(crowded[0], crowded[1], crowded[2]),
        stale=(stale[0], stale[1], stale[2]),
        sequences=tuple(len(view.sequence_windows[s]) if s >= 0 else 0 for s in order),  # type: ignore[arg-type]
        hand=tuple(hand),
        seen=tuple(seen),
        to_move=to_move,
        next_side=acting,
        hand_size=len(view.hand),
        table_hand=config.hand_size,
        deck=view.deck_size,
        turn=view.turn,
        players=config.players,
        sides=sides,
        need=config.sequences_to_win,
        dead=dead,
    )


def with_hand(parts: ViewParts, cards: Sequence[Card]) -> ViewParts:
    """The same view with another hand: what the seat would know had it drawn other cards (for
    luck, the expected value over the draws, and the chances of a move before its draw)."""
    hand = [0] * NUM_CARDS
    for card in cards:
        hand[card] += 1
    seen = tuple(s - old + new for s, old, new in zip(parts.seen, parts.hand, hand, strict=True))
    occupied = parts.chips[0] | parts.chips[1] | parts.chips[2]
    dead = sum(1 for c in cards if not is_jack(c) and CARD_MASK[c] & ~occupied == 0)
    return replace(parts, hand=tuple(hand), seen=seen, hand_size=len(cards), dead=dead)


def threat_cells(parts: ViewParts, side: int) -> set[int]:
    """The empty cells that would complete an open window of the relative ``side`` (0 the
    seat's own): the cells it needs for five (R3.4)."""
    mine = parts.chips[side] | CORNERS
    if not parts.chips[side]:
        return set()
    others = (parts.chips[0] | parts.chips[1] | parts.chips[2]) & ~parts.chips[side]
    cells: set[int] = set()
    for w, line in enumerate(LINES):
        if line & others or parts.crowded[side] >> w & 1:
            continue
        rest = line & ~mine
        if rest and rest & (rest - 1) == 0:  # exactly one cell left
            cells.add(rest.bit_length() - 1)
    return cells


def unseen_cards(parts: ViewParts) -> list[int]:
    """Copies of each card the seat has not seen (not in its hand or a discard pile), by card:
    the cards another hand or the draw pile may hold."""
    return [max(0, 2 - s) for s in parts.seen]


def _bits(values: Sequence[int], width: int) -> np.ndarray:
    """Bit sets as rows of booleans: ``(len(values), width)``."""
    size = (width + 7) // 8
    raw = np.frombuffer(b"".join(v.to_bytes(size, "little") for v in values), dtype=np.uint8)
    return np.unpackbits(raw.reshape(len(values), size), axis=1, bitorder="little")[:, :width].astype(bool)


def features(parts: Sequence[ViewParts]) -> np.ndarray:
    """The ``(N, NUM_FEATURES)`` float32 vectors of a batch of views (numpy, whole batch at once)."""
    n = len(parts)
    out = np.zeros((n, NUM_FEATURES), dtype=np.float32)
    if n == 0:
        return out
    col = {name: i for i, name in enumerate(FEATURE_NAMES)}
    chips = [_bits([p.chips[k] for p in parts], NUM_CELLS) for k in range(3)]
    locked = _bits([p.locked for p in parts], NUM_CELLS)
    anyone = chips[0] | chips[1] | chips[2]
    empty = ~anyone & ~_CORNER_ROW
    hand = np.array([p.hand for p in parts], dtype=np.float32)
    seen = np.array([p.seen for p in parts], dtype=np.float32)
    natural = hand[:, _CELL_CARD] > 0  # (N, 100): the seat holds the card printed there
    natural[:, _CORNER_ROW] = False
    unseen = np.clip(2.0 - seen, 0.0, 2.0)[:, _CELL_CARD]
    two_eyed = hand[:, sorted(TWO_EYED)].sum(axis=1)
    one_eyed = hand[:, sorted(ONE_EYED)].sum(axis=1)
    sequences = np.array([p.sequences for p in parts], dtype=np.float32)
    need = np.array([p.need for p in parts], dtype=np.float32)
    can_break = np.zeros(n, dtype=bool)
    threat_cells = []
    sides = np.array([p.sides for p in parts])
    for k in range(3):
        side = f"{_SIDES[k]}_"
        mine = (chips[k] | _CORNER_ROW).astype(np.float32)
        others = (anyone & ~chips[k]).astype(np.float32)
        counts = mine @ _WINDOWS.T  # (N, 192)
        blocked = (others @ _WINDOWS.T) > 0
        crowded = _bits([p.crowded[k] for p in parts], NUM_WINDOWS)
        stale = _bits([p.stale[k] for p in parts], NUM_WINDOWS)
        open_ = ~blocked & ~crowded
        for j in range(1, 5):
            out[:, col[f"{side}open_{j}"]] = (open_ & (counts == j)).sum(axis=1) / 16.0
        threats = open_ & (counts == 4)
        cells = ((threats.astype(np.float32) @ _WINDOWS) > 0) & empty
        passed = ((threats & stale).astype(np.float32) @ _WINDOWS > 0) & cells
        threat_cells.append(cells)
        if k == 0:
            own_threat_windows = threats
            own_threes = open_ & (counts == 3)
        out[:, col[f"{side}sequences"]] = sequences[:, k] / 2.0
        out[:, col[f"{side}threat_cells"]] = cells.sum(axis=1) / 4.0
        out[:, col[f"{side}chips"]] = chips[k].sum(axis=1) / 25.0
        out[:, col[f"{side}threats_passed"]] = passed.sum(axis=1) / 4.0
        out[:, col[f"{side}threat_cards_unseen"]] = (unseen * cells).sum(axis=1) / 4.0
        out[:, col[f"{side}can_block"]] = (natural & cells).sum(axis=1) / 2.0
        if k == 2:  # no third side at two: its columns stay zero
            absent = sides < 3
            out[absent, col[f"{side}sequences"] : col[f"{side}can_block"] + 1] = 0.0
            cells[absent] = False
            threats[absent] = False
        if k > 0:
            unlocked = (chips[k] & ~locked).astype(np.float32)
            breakable = threats & ((unlocked @ _WINDOWS.T) > 0)
            can_break |= breakable.any(axis=1)
    own_open3 = ((own_threes.astype(np.float32) @ _WINDOWS) > 0) & empty & natural
    # the sequences one chip on each cell would make: per direction one, or two for the middle of
    # nine in a row; a win in one is a cell the seat can fill that makes enough of them (R7.1)
    own_threats = own_threat_windows.astype(np.float32)
    along = (own_threats @ _ALONG_FLAT).reshape(n, len(_STEPS), 3, NUM_CELLS) > 0
    made = along[:, :, 0].sum(axis=1) + (along[:, :, 1] & along[:, :, 2]).sum(axis=1)
    fillable = natural | (two_eyed > 0)[:, None]
    enough = (sequences[:, 0:1] + made) >= need[:, None]
    winnable = (fillable & threat_cells[0] & enough).any(axis=1)
    acting = np.array([p.next_side for p in parts])
    to_move = np.array([p.to_move for p in parts], dtype=np.float32)
    players = np.array([p.players for p in parts], dtype=np.float32)
    for k in range(3):
        out[:, col[f"{_SIDES[k]}_to_move"]] = (acting == k) & (to_move < players)
    out[:, col["turns_to_own"]] = to_move / players
    out[:, col["two_eyed_in_hand"]] = two_eyed / 2.0
    out[:, col["one_eyed_in_hand"]] = one_eyed / 2.0
    out[:, col["two_eyed_unseen"]] = np.clip(4.0 - seen[:, sorted(TWO_EYED)].sum(axis=1), 0, 4) / 4.0
    out[:, col["one_eyed_unseen"]] = np.clip(4.0 - seen[:, sorted(ONE_EYED)].sum(axis=1), 0, 4) / 4.0
    out[:, col["own_win_now"]] = winnable
    out[:, col["own_extensions"]] = own_open3.sum(axis=1) / 4.0
    out[:, col["can_break"]] = can_break & (one_eyed > 0)
    out[:, col["dead_in_hand"]] = np.array([p.dead for p in parts], dtype=np.float32)
    out[:, col["hand"]] = np.array([p.hand_size / p.table_hand for p in parts], dtype=np.float32)
    out[:, col["deck"]] = np.array([p.deck for p in parts], dtype=np.float32) / 104.0
    out[:, col["turn"]] = np.array([p.turn for p in parts], dtype=np.float32) / 100.0
    out[:, col["players"]] = players / 12.0
    out[:, col["three_sides"]] = np.array([p.sides == 3 for p in parts], dtype=np.float32)
    out[:, col["sequences_to_win"]] = need / 2.0
    return out


def view_features(views: Sequence[PlayerView]) -> np.ndarray:
    """:func:`features` of :func:`view_parts` of each view."""
    return features([view_parts(v) for v in views])


__all__ = [
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "ViewParts",
    "features",
    "threat_cells",
    "unseen_cards",
    "view_features",
    "view_parts",
    "with_hand",
]
