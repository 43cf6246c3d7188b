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
products for the whole batch. Judging every play of a move over every card it may draw (the
post-game analysis, hints) gives thousands of rows that differ only in the hand, so
:func:`draw_features` computes the board's part once a view and adds each drawn card's
difference (the same numbers, bit for bit), and :func:`history_marks` lets the views after each
play of one position read the shared history once.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> x = features([view_parts(state.view(0)), view_parts(state.view(1))])
>>> x.shape == (2, NUM_FEATURES), float(x[0, FEATURE_NAMES.index("own_to_move")])
(True, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add, sub
from typing import Any, Final, Protocol

import numpy as np

from ..actions import REMOVE
from ..board import CARD_MASK, CORNERS, LAYOUT, LINES, NUM_CELLS, WINDOW_CELLS
from ..cards import NUM_CARDS, ONE_EYED, TWO_EYED, Card, is_jack
from ..config import GameConfig

NUM_WINDOWS: Final = len(LINES)
_SIDES: Final = ("own", "next", "third")

#: Window ``w``'s bit set of the windows that share two cells or more with it: after a sequence in
#: ``w``, none of them can make a new sequence of that side (R3.4 lets two share one cell only).
CROWDED: Final[tuple[int, ...]] = tuple(
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


class SeatView(Protocol):
    """What :func:`view_parts` reads of a seat's view: a :class:`~sequence_game.views.PlayerView`,
    or anything that answers the same for one seat (the evaluator's reader of a state after a
    play, which skips building the whole view)."""

    @property
    def config(self) -> GameConfig: ...
    @property
    def seat(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def chips(self) -> Sequence[int]: ...
    @property
    def locked(self) -> int: ...
    @property
    def sequence_windows(self) -> Sequence[Sequence[int]]: ...
    @property
    def history(self) -> Sequence[tuple[Any, ...]]: ...
    @property
    def hand(self) -> Sequence[Card]: ...
    @property
    def discards(self) -> Sequence[Sequence[Card]]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def current_seat(self) -> int: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def turn(self) -> int: ...


@dataclass(frozen=True, slots=True)
class HistoryMarks:
    """A history's first ``length`` events read for :func:`view_parts`: when each side last acted
    and each cell last changed (event indices). The views after the plays of one position share
    their history but for the event or two each play adds, so the reading of the position's
    history is made once and carried on (:func:`history_marks`)."""

    length: int
    last_act: tuple[int, ...]
    """Per side, -1 if it has not acted."""
    changes: dict[int, int]
    """The cells that have changed, each with its last change, oldest first (read only): a side's
    stale windows need only the changes since it acted, the last few."""


def history_marks(
    history: Sequence[tuple[Any, ...]], sides: int, since: HistoryMarks | None = None
) -> HistoryMarks:
    """Read ``history`` (a seat's view's, or the state's: only the seats' own actions count, never
    a reshuffled pile's order), going on from ``since``, the marks of its first events."""
    if since is None:
        start, last_act, changes = 0, [-1] * sides, {}
    else:
        start, last_act, changes = since.length, list(since.last_act), dict(since.changes)
    for i in range(start, len(history)):
        event = history[i]
        seat = event[0]
        if seat < 0:
            continue
        action = event[1]
        last_act[seat % sides] = i
        if action < REMOVE + NUM_CELLS:  # a chip placed (natural or wild) or removed
            cell = action % NUM_CELLS
            changes.pop(cell, None)  # to the end: the changes stay in order
            changes[cell] = i
    return HistoryMarks(len(history), tuple(last_act), changes)


def view_parts(view: SeatView, marks: HistoryMarks | None = None) -> ViewParts:
    """Read one seat's view into :class:`ViewParts` (plain Python: a few dozen microseconds);
    ``marks``, when given, are :func:`history_marks` of the first events of the view's history."""
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
                bits |= CROWDED[w]
        crowded.append(bits)
    # the history: when each cell last changed, and when each side last acted
    read = history_marks(view.history, sides, marks)
    changes, last_act = read.changes, read.last_act
    stale = []
    for s in order:
        bits = 0
        if s >= 0 and last_act[s] >= 0:
            acted = last_act[s]
            bits = _ALL_WINDOWS
            for c in reversed(changes):  # the cells changed since the side acted, newest first
                if changes[c] < acted:
                    break
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
    seen = tuple(map(add, parts.seen, map(sub, hand, parts.hand)))  # seen - old hand + new
    occupied = parts.chips[0] | parts.chips[1] | parts.chips[2]
    dead = sum(1 for c in cards if not is_jack(c) and CARD_MASK[c] & ~occupied == 0)
    return ViewParts(  # dataclasses.replace, spelled out: it is called for every play judged
        chips=parts.chips,
        locked=parts.locked,
        crowded=parts.crowded,
        stale=parts.stale,
        sequences=parts.sequences,
        hand=tuple(hand),
        seen=seen,
        to_move=parts.to_move,
        next_side=parts.next_side,
        hand_size=len(cards),
        table_hand=parts.table_hand,
        deck=parts.deck,
        turn=parts.turn,
        players=parts.players,
        sides=parts.sides,
        need=parts.need,
        dead=dead,
    )


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


@dataclass(frozen=True, slots=True)
class _Boards:
    """What the features of a batch of views read of everything but the hand, per view: the rows
    of one play's draws differ only in the hand, so they share it (computed once a play, not once
    a row, which was most of the analysis' time)."""

    out: np.ndarray
    """``(M, NUM_FEATURES)``: the columns the hand does not change; the others zero."""
    cells: tuple[np.ndarray, np.ndarray, np.ndarray]
    """Per relative side, its threat cells ``(M, NUM_CELLS)`` (the third's all off with two sides)."""
    open3: np.ndarray
    """The empty cells of the seat's own open 3-windows."""
    win: np.ndarray
    """The seat's threat cells whose chip would make the sequences it needs."""
    breakable: np.ndarray
    """``(M,)``: another side has a threat with an unlocked chip (a one-eyed jack breaks it)."""
    dead: np.ndarray
    """``(M, NUM_CARDS)``: the cards that would be dead there (no jack; both spaces taken)."""
    hand: np.ndarray
    seen: np.ndarray
    hand_size: np.ndarray
    table_hand: np.ndarray
    dead_count: np.ndarray


_COL: Final = {name: i for i, name in enumerate(FEATURE_NAMES)}
_TWO: Final = sorted(TWO_EYED)
_ONE: Final = sorted(ONE_EYED)
_JACK: Final = np.array([is_jack(c) for c in range(NUM_CARDS)], dtype=bool)
_IS_TWO: Final = np.array([c in TWO_EYED for c in range(NUM_CARDS)], dtype=np.float32)
_IS_ONE: Final = np.array([c in ONE_EYED for c in range(NUM_CARDS)], dtype=np.float32)
#: ``(NUM_CARDS, NUM_CELLS)``: the spaces printed with each card (none for a jack).
_CARD_CELLS: Final = np.array(
    [[CARD_MASK[c] >> cell & 1 for cell in range(NUM_CELLS)] for c in range(NUM_CARDS)], dtype=np.float32
)


def _boards(parts: Sequence[ViewParts]) -> _Boards:
    """The hand-free part of :func:`features` for each view (its arithmetic, step for step)."""
    n = len(parts)
    col = _COL
    out = np.zeros((n, NUM_FEATURES), dtype=np.float32)
    chips = [_bits([p.chips[k] for p in parts], NUM_CELLS) for k in range(3)]
    locked = _bits([p.locked for p in parts], NUM_CELLS)
    anyone = chips[0] | chips[1] | chips[2]
    empty = ~anyone & ~_CORNER_ROW
    sequences = np.array([p.sequences for p in parts], dtype=np.float32).reshape(n, 3)
    need = np.array([p.need for p in parts], dtype=np.float32)
    breakable = np.zeros(n, dtype=bool)
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
        if k == 2:  # no third side at two: its columns stay zero
            absent = sides < 3
            out[absent, col[f"{side}sequences"] : col[f"{side}can_block"] + 1] = 0.0
            cells[absent] = False
            threats[absent] = False
        if k > 0:
            unlocked = (chips[k] & ~locked).astype(np.float32)
            breakable |= (threats & ((unlocked @ _WINDOWS.T) > 0)).any(axis=1)
    open3 = ((own_threes.astype(np.float32) @ _WINDOWS) > 0) & empty
    # the sequences one chip on each cell would make: per direction one, or two for the middle of
    # nine in a row; a win in one is a cell the seat can fill that makes enough of them (R7.1)
    own_threats = own_threat_windows.astype(np.float32)
    along = (own_threats @ _ALONG_FLAT).reshape(n, len(_STEPS), 3, NUM_CELLS) > 0
    made = along[:, :, 0].sum(axis=1) + (along[:, :, 1] & along[:, :, 2]).sum(axis=1)
    enough = (sequences[:, 0:1] + made) >= need[:, None]
    acting = np.array([p.next_side for p in parts])
    to_move = np.array([p.to_move for p in parts], dtype=np.float32)
    players = np.array([p.players for p in parts], dtype=np.float32)
    for k in range(3):
        out[:, col[f"{_SIDES[k]}_to_move"]] = (acting == k) & (to_move < players)
    out[:, col["turns_to_own"]] = to_move / players
    out[:, col["deck"]] = np.array([p.deck for p in parts], dtype=np.float32) / 104.0
    out[:, col["turn"]] = np.array([p.turn for p in parts], dtype=np.float32) / 100.0
    out[:, col["players"]] = players / 12.0
    out[:, col["three_sides"]] = np.array([p.sides == 3 for p in parts], dtype=np.float32)
    out[:, col["sequences_to_win"]] = need / 2.0
    free = (~anyone).astype(np.float32) @ _CARD_CELLS.T  # (N, 52): each card's spaces still free
    return _Boards(
        out=out,
        cells=(threat_cells[0], threat_cells[1], threat_cells[2]),
        open3=open3,
        win=threat_cells[0] & enough,
        breakable=breakable,
        dead=(free == 0) & ~_JACK,
        hand=np.array([p.hand for p in parts], dtype=np.float32).reshape(n, NUM_CARDS),
        seen=np.array([p.seen for p in parts], dtype=np.float32).reshape(n, NUM_CARDS),
        hand_size=np.array([p.hand_size for p in parts], dtype=np.int64),
        table_hand=np.array([p.table_hand for p in parts], dtype=np.int64),
        dead_count=np.array([p.dead for p in parts], dtype=np.int64),
    )


def _rows(boards: _Boards) -> np.ndarray:
    """The features of each view of ``boards``, its hand's columns added to the board's."""
    col = _COL
    hand, seen = boards.hand, boards.seen
    out = boards.out.copy()
    natural = hand[:, _CELL_CARD] > 0  # (N, 100): the seat holds the card printed there
    natural[:, _CORNER_ROW] = False
    unseen = np.clip(2.0 - seen, 0.0, 2.0)[:, _CELL_CARD]
    two_eyed = hand[:, _TWO].sum(axis=1)
    one_eyed = hand[:, _ONE].sum(axis=1)
    for k in range(3):
        side = f"{_SIDES[k]}_"
        cells = boards.cells[k]
        out[:, col[f"{side}threat_cards_unseen"]] = (unseen * cells).sum(axis=1) / 4.0
        out[:, col[f"{side}can_block"]] = (natural & cells).sum(axis=1) / 2.0
    own_open3 = boards.open3 & natural
    fillable = natural | (two_eyed > 0)[:, None]
    winnable = (fillable & boards.win).any(axis=1)
    out[:, col["two_eyed_in_hand"]] = two_eyed / 2.0
    out[:, col["one_eyed_in_hand"]] = one_eyed / 2.0
    out[:, col["two_eyed_unseen"]] = np.clip(4.0 - seen[:, _TWO].sum(axis=1), 0, 4) / 4.0
    out[:, col["one_eyed_unseen"]] = np.clip(4.0 - seen[:, _ONE].sum(axis=1), 0, 4) / 4.0
    out[:, col["own_win_now"]] = winnable
    out[:, col["own_extensions"]] = own_open3.sum(axis=1) / 4.0
    out[:, col["can_break"]] = boards.breakable & (one_eyed > 0)
    out[:, col["dead_in_hand"]] = boards.dead_count.astype(np.float32)
    out[:, col["hand"]] = (boards.hand_size / boards.table_hand).astype(np.float32)
    return out


def _add_draws(
    out: np.ndarray, rows: np.ndarray, boards: _Boards, kept: np.ndarray, views: np.ndarray, cards: np.ndarray
) -> None:
    """Fill the hand's columns of ``out[rows]``: view ``views[i]``, whose features as it is are
    ``kept[views[i]]``, with card ``cards[i]`` added to its hand. One card changes each count by
    what that card's spaces add, so a row costs a few numbers, not :func:`_rows`' passes over the
    board; the sums are small integers, exact in float32, so the result is :func:`_rows`' bit
    for bit (``tests/features`` checks it against the first code)."""
    col = _COL
    mine = kept[views]
    held = boards.hand[views, cards] > 0  # the card's spaces were already the seat's to fill
    new = (~held).astype(np.float64)
    s = boards.seen[views, cards]
    fewer = np.clip(2.0 - s, 0.0, 2.0) - np.clip(2.0 - (s + 1.0), 0.0, 2.0)  # unseen copies lost
    for k in range(3):
        side = f"{_SIDES[k]}_"
        spaces = (boards.cells[k].astype(np.float32) @ _CARD_CELLS.T)[views, cards]  # its threat cells
        unseen = mine[:, col[f"{side}threat_cards_unseen"]] * 4.0 - fewer * spaces
        out[rows, col[f"{side}threat_cards_unseen"]] = unseen / 4.0
        block = mine[:, col[f"{side}can_block"]].astype(np.float64) * 2.0 + new * spaces
        out[rows, col[f"{side}can_block"]] = block / 2.0
    threes = (boards.open3.astype(np.float32) @ _CARD_CELLS.T)[views, cards]
    extensions = mine[:, col["own_extensions"]].astype(np.float64) * 4.0 + new * threes
    out[rows, col["own_extensions"]] = extensions / 4.0
    two = _IS_TWO[cards]
    two_eyed = mine[:, col["two_eyed_in_hand"]] * 2.0 + two
    one_eyed = mine[:, col["one_eyed_in_hand"]] * 2.0 + _IS_ONE[cards]
    wins = (boards.win.astype(np.float32) @ _CARD_CELLS.T)[views, cards] > 0
    any_win = np.asarray(boards.win.any(axis=1))
    out[rows, col["two_eyed_in_hand"]] = two_eyed / 2.0
    out[rows, col["one_eyed_in_hand"]] = one_eyed / 2.0
    seen_two = boards.seen[:, _TWO].sum(axis=1)[views] + two
    seen_one = boards.seen[:, _ONE].sum(axis=1)[views] + _IS_ONE[cards]
    out[rows, col["two_eyed_unseen"]] = np.clip(4.0 - seen_two, 0, 4) / 4.0
    out[rows, col["one_eyed_unseen"]] = np.clip(4.0 - seen_one, 0, 4) / 4.0
    out[rows, col["own_win_now"]] = (mine[:, col["own_win_now"]] > 0) | wins | ((two > 0) & any_win[views])
    out[rows, col["can_break"]] = boards.breakable[views] & (one_eyed > 0)
    dead = boards.dead_count[views] + boards.dead[views, cards]
    out[rows, col["dead_in_hand"]] = dead.astype(np.float32)
    out[rows, col["hand"]] = ((boards.hand_size[views] + 1) / boards.table_hand[views]).astype(np.float32)


def features(parts: Sequence[ViewParts]) -> np.ndarray:
    """The ``(N, NUM_FEATURES)`` float32 vectors of a batch of views (numpy, whole batch at once)."""
    n = len(parts)
    out = np.zeros((n, NUM_FEATURES), dtype=np.float32)
    if n == 0:
        return out
    return _rows(_boards(parts))


def draw_features(
    parts: Sequence[ViewParts], index: Sequence[int] | np.ndarray, cards: Sequence[int] | np.ndarray
) -> np.ndarray:
    """The features of rows that each add one card to a view's hand: row ``i`` is
    ``features([with_hand(p, p's hand + [cards[i]])])[0]`` for ``p = parts[index[i]]``, or
    ``features([p])[0]`` when ``cards[i]`` is -1. What judging every play over every possible
    draw needs: the board's part is computed once a view, and a draw only adds its card."""
    index = np.asarray(index, dtype=np.intp)
    cards = np.asarray(cards, dtype=np.intp)
    if len(index) == 0:
        return np.zeros((0, NUM_FEATURES), dtype=np.float32)
    boards = _boards(parts)
    kept = _rows(boards)
    out: np.ndarray = kept[index]
    rows = np.flatnonzero(cards >= 0)
    if len(rows):
        _add_draws(out, rows, boards, kept, index[rows], cards[rows])
    return out


def view_features(views: Sequence[SeatView]) -> np.ndarray:
    """:func:`features` of :func:`view_parts` of each view."""
    return features([view_parts(v) for v in views])


__all__ = [
    "CROWDED",
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "HistoryMarks",
    "SeatView",
    "ViewParts",
    "draw_features",
    "features",
    "history_marks",
    "threat_cells",
    "unseen_cards",
    "view_features",
    "view_parts",
    "with_hand",
]
