"""What the plain line mode says besides the board: one space, the threats, the card just drawn.

A screen reader reads the board as a hundred codes, which nobody can keep in mind; a player asks
about one space (``space e4``) or the open threats (``threats``) instead. Everything here is read
from the seat's own view of the game, so it never tells more than the board and the hand show.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=3)
>>> threats_text(state)
'Threats: none (no side is one chip away from a sequence).'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..actions import DRAW, REMOVE, WILD
from ..board import CORNERS, LAYOUT, NUM_CELLS, cell_name
from ..cards import Card, card_name, is_one_eyed, is_two_eyed
from ..i18n import _
from ..sequences import complete_windows, declare
from ..state import GameState
from .controller import side_name

#: Cells a line of text lists before it wraps (a two-eyed jack may go to some 60 spaces).
CELLS_A_LINE = 12


def completing_cells(state: GameState, side: int) -> list[int]:
    """The open spaces where one more chip of ``side`` makes a new sequence (R3.2-R3.4)."""
    chips = [state.chips(s) for s in range(state.config.sides)]
    taken = 0
    for mask in chips:
        taken |= mask
    existing = state.view(state.current_seat).sequence_windows[side]
    cells = []
    for cell in range(NUM_CELLS):
        bit = 1 << cell
        if bit & (taken | CORNERS):
            continue
        windows = complete_windows(cell, chips[side] | CORNERS | bit)
        if windows and declare(windows, list(existing)):
            cells.append(cell)
    return cells


def threats_text(state: GameState) -> str:
    """``Threats: Blue completes a sequence on e4 or f5.`` for every side one chip away."""
    parts = []
    for side in range(state.config.sides):
        cells = completing_cells(state, side)
        if cells:
            parts.append(
                _("{side} makes a sequence with a chip on {cells}").format(
                    side=side_name(side), cells=", ".join(cell_name(c) for c in cells)
                )
            )
    if not parts:
        return _("Threats: none (no side is one chip away from a sequence).")
    return _("Threats: {threats}.").format(threats="; ".join(parts))


def space_text(state: GameState, seat: int, cell: int) -> str:
    """One space in words: its card, its chip, and which of ``seat``'s cards may go there now."""
    printed = LAYOUT[cell]
    if printed < 0:
        return _("{cell}: a free corner; it counts for every side (R1.1).").format(cell=cell_name(cell))
    owner = state.chip_at(cell)
    if owner is None:
        chip = _("open")
    elif state.locked >> cell & 1:
        chip = _("a {side} chip, locked in a sequence (R3.5)").format(side=side_name(owner))
    else:
        chip = _("a {side} chip").format(side=side_name(owner))
    legal = set(state.legal_actions(seat)) if seat in state.seats_to_act() else set()
    usable = [card_name(c) for c in sorted(set(state.hand(seat))) if _may_go(c, cell, legal)]
    text = _("{cell}: {card}, {chip}.").format(cell=cell_name(cell), card=card_name(printed), chip=chip)
    if usable:
        text += " " + _("Your cards for it now: {cards}.").format(cards=" ".join(usable))
    return text


def _may_go(card: Card, cell: int, legal: set[int]) -> bool:
    if is_two_eyed(card):
        return WILD + cell in legal
    if is_one_eyed(card):
        return REMOVE + cell in legal
    return LAYOUT[cell] == card and cell in legal


def drawn_cards(before: Sequence[Card], state: GameState, seat: int, since: int) -> list[Card]:
    """The cards ``seat`` drew since history entry ``since``, given its hand ``before`` then: what
    arrived, counting a card given up and drawn again (play the 7♥, draw the other 7♥)."""
    kept = Counter(before)
    for event in state.history[since:]:
        if len(event) == 3 and event[0] == seat and event[1] < DRAW and kept[event[2]] > 0:
            kept[event[2]] -= 1
    return sorted((Counter(state.hand(seat)) - kept).elements())


def wrapped_moves(line: str, width: int = CELLS_A_LINE) -> list[str]:
    """A move line of many spaces (``jd@ a1 a2 ...``) as several short lines, ``width`` cells each."""
    head, sep, cells = line.partition("@ ")
    names = cells.split()
    if not sep or len(names) <= width:
        return [line]
    lines = [f"{head}@ {' '.join(names[:width])}"]
    pad = " " * (len(head) + 2)
    lines += [pad + " ".join(names[start : start + width]) for start in range(width, len(names), width)]
    return lines
