"""The evaluator's features as first written: one numpy pass over whole rows, one Python
``view_parts`` per view. Kept verbatim (renamed) as the reference that the fast paths of
``sequence_game.features.position`` must match bit for bit (``test_fast_features.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from sequence_game.actions import REMOVE
from sequence_game.board import CARD_MASK, CORNERS, LAYOUT, LINES, NUM_CELLS, WINDOW_CELLS
from sequence_game.cards import NUM_CARDS, ONE_EYED, TWO_EYED, is_jack
from sequence_game.features.position import FEATURE_NAMES, NUM_FEATURES, ViewParts
from sequence_game.views import PlayerView

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


def reference_view_parts(view: PlayerView) -> ViewParts:
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


def _bits(values: Sequence[int], width: int) -> np.ndarray:
    """Bit sets as rows of booleans: ``(len(values), width)``."""
    size = (width + 7) // 8
    raw = np.frombuffer(b"".join(v.to_bytes(size, "little") for v in values), dtype=np.uint8)
    return np.unpackbits(raw.reshape(len(values), size), axis=1, bitorder="little")[:, :width].astype(bool)


def reference_features(parts: Sequence[ViewParts]) -> np.ndarray:
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
