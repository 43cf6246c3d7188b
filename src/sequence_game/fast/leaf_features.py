"""The evaluator's features of compiled rows, in one compiled pass: the leaves of a cut search.

A search that stops its rollouts after a few turns (``pimc(leaf=N)``) judges thousands of rows a
move. Read in Python (a view of each row, then :func:`~sequence_game.features.position.view_parts`)
that reading cost more than the rollouts themselves; here the same 48 numbers are computed from
the rows directly, for a whole ``[candidates, worlds]`` batch in one call. They are the Python
path's numbers bit for bit (``tests/evaluator/test_leaves.py`` checks it on many rows), so the
evaluator's network, trained on the Python features, reads them unchanged.

What a row does not hold is the history before the search's own view: each side's last action
and each cell's last change (:class:`~sequence_game.features.position.HistoryMarks`, which say
which windows are *stale*, the threats a side let pass). They are given as arrays (:func:`marks_arrays`)
and carried on through the actions each row logged after its world was dealt.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..actions import REMOVE
from ..board import CARD_MASK, CORNERS, LAYOUT, LINES, NUM_CELLS, WINDOW_CELLS
from ..cards import DECK_SIZE, NUM_CARDS, ONE_EYED, TWO_EYED
from ..features.position import CROWDED, FEATURE_NAMES, NUM_FEATURES, HistoryMarks
from . import kernels as k
from .compile import ensure_compiled, register_warm_up
from .kernels.jit import allocating_kernel, kernel

NUM_WINDOWS: Final = len(LINES)
_COL: Final = {name: i for i, name in enumerate(FEATURE_NAMES)}
_SIDE_COLUMNS: Final = np.array(
    [
        [_COL[f"{side}_{name}"] for name in ("sequences", "open_1", "open_2", "open_3", "open_4")]
        + [_COL[f"{side}_{name}"] for name in ("threat_cells", "chips", "threats_passed")]
        + [_COL[f"{side}_{name}"] for name in ("threat_cards_unseen", "can_block")]
        for side in ("own", "next", "third")
    ],
    dtype=np.int64,
)
"""Per relative side, its columns in :data:`PER_SIDE`'s order (rows of this table, read by index)."""
_C_TO_MOVE: Final = _COL["own_to_move"]
_C_TURNS_TO_OWN: Final = _COL["turns_to_own"]
_C_TWO_HAND: Final = _COL["two_eyed_in_hand"]
_C_ONE_HAND: Final = _COL["one_eyed_in_hand"]
_C_TWO_UNSEEN: Final = _COL["two_eyed_unseen"]
_C_ONE_UNSEEN: Final = _COL["one_eyed_unseen"]
_C_WIN_NOW: Final = _COL["own_win_now"]
_C_EXTENSIONS: Final = _COL["own_extensions"]
_C_CAN_BREAK: Final = _COL["can_break"]
_C_DEAD: Final = _COL["dead_in_hand"]
_C_HAND: Final = _COL["hand"]
_C_DECK: Final = _COL["deck"]
_C_TURN: Final = _COL["turn"]
_C_PLAYERS: Final = _COL["players"]
_C_THREE: Final = _COL["three_sides"]
_C_NEED: Final = _COL["sequences_to_win"]

_WINDOW_CELLS: Final = np.array(WINDOW_CELLS, dtype=np.int64)  # (192, 5)
_STEPS: Final = sorted({cells[1] - cells[0] for cells in WINDOW_CELLS})
_NUM_DIRECTIONS: Final = len(_STEPS)
_DIRECTION: Final = np.array([_STEPS.index(cells[1] - cells[0]) for cells in WINDOW_CELLS], dtype=np.int64)
_CROWDS: Final = np.array(
    [[CROWDED[w] >> v & 1 for v in range(NUM_WINDOWS)] for w in range(NUM_WINDOWS)], dtype=np.bool_
)
"""``[w, v]``: a sequence in window ``w`` crowds window ``v`` out (R3.4; ``CROWDED`` as a matrix)."""
_CORNER: Final = np.array([CORNERS >> c & 1 for c in range(NUM_CELLS)], dtype=np.bool_)
_CELL_CARD: Final = np.array([max(card, 0) for card in LAYOUT], dtype=np.int64)  # a corner reads card 0
_CARD_SPACES: Final = np.array(
    [[c for c in range(NUM_CELLS) if CARD_MASK[card] >> c & 1] or [-1, -1] for card in range(NUM_CARDS)],
    dtype=np.int64,
)
"""The two spaces printed with each card (``-1`` for a jack)."""
_TWO: Final = np.array(sorted(TWO_EYED), dtype=np.int64)
_ONE: Final = np.array(sorted(ONE_EYED), dtype=np.int64)
_IS_JACK: Final = np.array([c in TWO_EYED or c in ONE_EYED for c in range(NUM_CARDS)], dtype=np.bool_)
_CHIP_ACTIONS: Final = REMOVE + NUM_CELLS
"""Actions below this place or remove a chip (natural, wild, removal: the cell is ``action % 100``)."""


def marks_arrays(marks: HistoryMarks) -> tuple[int, np.ndarray, np.ndarray]:
    """A history's marks as the kernel reads them: its length, each side's last action (3, -1
    none) and each cell's last change (100, -1 never), as event indices."""
    last_act = np.full(3, -1, dtype=np.int64)
    last_act[: len(marks.last_act)] = marks.last_act
    change = np.full(NUM_CELLS, -1, dtype=np.int64)
    for cell, index in marks.changes.items():
        change[cell] = index
    return marks.length, last_act, change


@kernel
def _row_features(
    s: np.ndarray,
    seat: int,
    length: int,
    last_act0: np.ndarray,
    change0: np.ndarray,
    logged: int,
    out: np.ndarray,
    last_act: np.ndarray,
    change: np.ndarray,
    owner: np.ndarray,
    flags: np.ndarray,
    cells: np.ndarray,
    scratch: np.ndarray,
    hand: np.ndarray,
    seen: np.ndarray,
) -> None:
    """``out[:] =`` the features of ``seat``'s view of the open game ``s``, whose history is the
    view's (``length`` events, marks ``last_act0`` and ``change0``) and then the actions the row
    logged after its first ``logged``. The rest are work arrays: ``last_act`` (3), ``change`` (100),
    ``owner`` (100), ``flags`` (3 x 192: per relative side, its open windows' chips and corners, 5
    for none, 0 where not open), ``cells`` (4 x 100: per relative side its threat cells, 2 where
    let pass, then the seat's open-3 cells), ``scratch`` (192), ``hand`` and ``seen`` (52)."""
    players = s[k.I_PLAYERS]
    sides = s[k.I_SIDES]
    me = seat % sides
    for i in range(out.shape[0]):
        out[i] = 0.0
    # the history: the view's marks, carried through what the row logged since (as history_marks)
    for i in range(3):
        last_act[i] = last_act0[i]
    for c in range(NUM_CELLS):
        change[c] = change0[c]
    now = s[k.I_LOGGED]
    start = max(logged, now - k.LOG_SIZE)
    for i in range(start, now):
        at = k.O_LOG + 2 * (i % k.LOG_SIZE)
        who = s[at]
        if who < 0:
            continue
        index = length + i - start
        last_act[who % sides] = index
        action = s[at + 1]
        if action < _CHIP_ACTIONS:
            change[action % NUM_CELLS] = index
    for c in range(NUM_CELLS):
        owner[c] = s[k.O_OWNER + c]
    breakable = False
    for rel in range(sides):
        side = (me + rel) % sides
        cols = _SIDE_COLUMNS[rel]
        # windows crowded out by the side's sequences (R3.4)
        for w in range(NUM_WINDOWS):
            flags[rel, w] = 1  # 1: not crowded out, so far
        nseq = s[k.O_NSEQ + side]
        for q in range(nseq):
            w = s[k.O_SEQ + side * k.MAX_SEQS + q]
            for v in range(NUM_WINDOWS):
                if _CROWDS[w, v]:
                    flags[rel, v] = 0
        acted = last_act[side]
        opens = scratch  # the crowding is read: its counts of open windows now, by chips
        for j in range(5):
            opens[j] = 0
        for w in range(NUM_WINDOWS):
            if flags[rel, w] == 0:
                continue
            flags[rel, w] = 0
            mine = 0
            blocked = False
            for j in range(5):
                c = _WINDOW_CELLS[w, j]
                o = owner[c]
                if o == side or _CORNER[c]:
                    mine += 1
                elif o >= 0:
                    blocked = True
            if blocked:
                continue
            flags[rel, w] = mine if mine > 0 else 5  # 5: open but empty (no count of its own)
            if 1 <= mine <= 4:
                opens[mine] += 1
        for j in range(1, 5):
            out[cols[j]] = np.float32(opens[j] / 16.0)
        # threat cells (empty cells of open 4-windows), and those the side let pass
        n_threat = 0
        n_passed = 0
        for c in range(NUM_CELLS):
            cells[rel, c] = 0
        for w in range(NUM_WINDOWS):
            if flags[rel, w] != 4:
                continue
            stale = acted >= 0
            if stale:
                for j in range(5):
                    if change[_WINDOW_CELLS[w, j]] >= acted:
                        stale = False
                        break
            for j in range(5):
                c = _WINDOW_CELLS[w, j]
                if owner[c] < 0 and not _CORNER[c]:
                    if cells[rel, c] == 0:
                        cells[rel, c] = 1
                        n_threat += 1
                    if stale and cells[rel, c] == 1:
                        cells[rel, c] = 2  # a threat cell let pass
                        n_passed += 1
            if rel > 0 and not breakable:
                for j in range(5):
                    c = _WINDOW_CELLS[w, j]
                    if owner[c] == side and s[k.O_LOCKED + c] == 0:
                        breakable = True
                        break
        chips = 0
        for c in range(NUM_CELLS):
            if owner[c] == side:
                chips += 1
        out[cols[0]] = np.float32(nseq) / np.float32(2.0)
        out[cols[5]] = np.float32(n_threat / 4.0)
        out[cols[6]] = np.float32(chips / 25.0)
        out[cols[7]] = np.float32(n_passed / 4.0)
    # the seat's open 3-windows' empty cells, and its winning cells (R3.4, R7.1)
    for c in range(NUM_CELLS):
        cells[3, c] = 0
    for w in range(NUM_WINDOWS):
        if flags[0, w] == 3:
            for j in range(5):
                c = _WINDOW_CELLS[w, j]
                if owner[c] < 0 and not _CORNER[c]:
                    cells[3, c] = 1
    need = s[k.I_NEED]
    own_sequences = s[k.O_NSEQ + me]
    # the hand and the cards seen (the hand and every discard since the reshuffle)
    for card in range(NUM_CARDS):
        hand[card] = 0
        seen[card] = 0
    size = s[k.O_HLEN + seat]
    dead = 0
    for i in range(size):
        card = s[k.O_HAND + seat * k.MAX_HAND + i]
        hand[card] += 1
        seen[card] += 1
        if not _IS_JACK[card] and owner[_CARD_SPACES[card, 0]] >= 0 and owner[_CARD_SPACES[card, 1]] >= 0:
            dead += 1
    for i in range(s[k.I_DISCLEN]):
        seen[s[k.O_DISC + i]] += 1
    two_eyed = 0
    one_eyed = 0
    seen_two = 0
    seen_one = 0
    for card in _TWO:
        two_eyed += hand[card]
        seen_two += seen[card]
    for card in _ONE:
        one_eyed += hand[card]
        seen_one += seen[card]
    win_now = False
    extensions = 0
    for rel in range(sides):
        cols = _SIDE_COLUMNS[rel]
        unseen_sum = np.float32(0.0)
        block = 0
        for c in range(NUM_CELLS):
            if cells[rel, c] == 0:
                continue
            card = _CELL_CARD[c]
            unseen_sum += np.float32(min(max(2 - seen[card], 0), 2))
            if hand[card] > 0:
                block += 1
        out[cols[8]] = unseen_sum / np.float32(4.0)
        out[cols[9]] = np.float32(block / 2.0)
    for c in range(NUM_CELLS):
        natural = hand[_CELL_CARD[c]] > 0 and not _CORNER[c]
        if cells[3, c] and natural:
            extensions += 1
        if cells[0, c] and not win_now and (natural or two_eyed > 0):
            # the sequences a chip here would make: one per direction of a threat window through
            # the cell, two where it joins two of one direction (the middle of nine in a row)
            for d in range(_NUM_DIRECTIONS):
                scratch[d] = 0
            made = 0
            for w in range(NUM_WINDOWS):
                if flags[0, w] != 4:
                    continue
                d = _DIRECTION[w]
                for j in range(5):
                    if _WINDOW_CELLS[w, j] == c:
                        scratch[d] |= 1
                        if j == 0:
                            scratch[d] |= 2
                        if j == 4:
                            scratch[d] |= 4
            for d in range(_NUM_DIRECTIONS):
                if scratch[d] & 1:
                    made += 1
                if scratch[d] & 6 == 6:
                    made += 1
            if own_sequences + made >= need:
                win_now = True
    if s[k.I_END] == k.END_NONE:
        to_move = (seat - s[k.I_SEAT]) % players
        acting = (s[k.I_SEAT] % sides - me) % sides
        out[_C_TO_MOVE + acting] = 1.0
    else:
        to_move = players
    out[_C_TURNS_TO_OWN] = np.float32(to_move) / np.float32(players)
    out[_C_TWO_HAND] = np.float32(two_eyed) / np.float32(2.0)
    out[_C_ONE_HAND] = np.float32(one_eyed) / np.float32(2.0)
    out[_C_TWO_UNSEEN] = np.float32(min(max(4 - seen_two, 0), 4)) / np.float32(4.0)
    out[_C_ONE_UNSEEN] = np.float32(min(max(4 - seen_one, 0), 4)) / np.float32(4.0)
    out[_C_WIN_NOW] = 1.0 if win_now else 0.0
    out[_C_EXTENSIONS] = np.float32(extensions / 4.0)
    out[_C_CAN_BREAK] = 1.0 if breakable and one_eyed > 0 else 0.0
    out[_C_DEAD] = np.float32(dead)
    out[_C_HAND] = np.float32(size / k.HAND_SIZES[players])
    out[_C_DECK] = np.float32(s[k.I_DECKLEN]) / np.float32(104.0)
    out[_C_TURN] = np.float32(s[k.I_TURN]) / np.float32(100.0)
    out[_C_PLAYERS] = np.float32(players) / np.float32(12.0)
    out[_C_THREE] = 1.0 if sides == 3 else 0.0
    out[_C_NEED] = np.float32(need) / np.float32(2.0)


@allocating_kernel
def _batch_features(
    ends: np.ndarray,
    logged: np.ndarray,
    seat: int,
    length: int,
    last_act0: np.ndarray,
    change0: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[c, w] =`` :func:`_row_features` of ``ends[c, w]`` (its world logged ``logged[w]``
    actions), for the rows of open games; finished ones are left as they are."""
    last_act = np.empty(3, dtype=np.int64)
    change = np.empty(NUM_CELLS, dtype=np.int64)
    owner = np.empty(NUM_CELLS, dtype=np.int64)
    flags = np.empty((3, NUM_WINDOWS), dtype=np.int64)
    cells = np.empty((4, NUM_CELLS), dtype=np.int64)
    scratch = np.empty(NUM_WINDOWS, dtype=np.int64)
    hand = np.empty(NUM_CARDS, dtype=np.int64)
    seen = np.empty(NUM_CARDS, dtype=np.int64)
    for c in range(ends.shape[0]):
        for w in range(ends.shape[1]):
            s = ends[c, w]
            if s[k.I_END] != k.END_NONE:
                continue
            _row_features(
                s, seat, length, last_act0, change0, logged[w], out[c, w],
                last_act, change, owner, flags, cells, scratch, hand, seen,
            )  # fmt: skip


def row_features(ends: np.ndarray, worlds: np.ndarray, seat: int, marks: HistoryMarks) -> np.ndarray:
    """``float32[C, W, NUM_FEATURES]``: the evaluator's features of ``seat``'s view of each row
    ``ends[c, w]`` (a cut rollout of ``worlds[w]``, :func:`~.pimc.cut_rollouts`), its history
    being the one ``marks`` read (the search's view's) and then what the row logged; zeros for
    the rows of finished games (their result is their value)."""
    ensure_compiled(GROUP)
    ends = np.ascontiguousarray(ends, dtype=np.int32)
    if ends.ndim != 3 or ends.shape[2] != k.ROW or worlds.shape[0] != ends.shape[1]:
        raise ValueError(f"ends must be int32[candidates, worlds, {k.ROW}] rolled from the worlds given")
    length, last_act, change = marks_arrays(marks)
    logged = np.ascontiguousarray(worlds[:, k.I_LOGGED], dtype=np.int64)
    out = np.zeros((ends.shape[0], ends.shape[1], NUM_FEATURES), dtype=np.float32)
    _batch_features(ends, logged, seat, length, last_act, change, out)
    return out


def _warm_up() -> None:
    row = np.empty(k.ROW, dtype=np.int32)
    rng = np.array([k.seed_state(1)], dtype=np.uint64)
    k.deal_random(row, rng, 0, 2, 2, np.empty(DECK_SIZE, dtype=np.int32))
    ends = row.reshape(1, 1, k.ROW).copy()
    out = np.zeros((1, 1, NUM_FEATURES), dtype=np.float32)
    none = np.full(3, -1, dtype=np.int64)
    _batch_features(
        ends, np.zeros(1, dtype=np.int64), 0, 0, none, np.full(NUM_CELLS, -1, dtype=np.int64), out
    )


GROUP: Final = "leaf_features"
"""The name :func:`~.compile.ensure_compiled` knows this module's kernels by."""
register_warm_up(GROUP, _warm_up)
