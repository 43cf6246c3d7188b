"""What a spectator sees (no hidden hand): the text board of ``render_mode="ansi"`` and the
picture of ``render_mode="rgb_array"``.

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=1)
>>> print(board_text(state).splitlines()[1])
0  **  2s  3s  4s  5s  6s  7s  8s  9s  **
>>> image = board_image(state)
>>> image.shape, image.dtype
((336, 320, 3), dtype('uint8'))
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..actions import DEAD, action_name
from ..board import COLUMN_LETTERS, CORNERS, LAYOUT, NUM_CELLS, SIZE, card_at
from ..config import SIDE_COLOURS
from ..state import EV_RESHUFFLE, GameState

RENDER_MODES: Final = ("ansi", "human", "rgb_array")

CELL_PIXELS: Final = 32
STATUS_PIXELS: Final = 16
CHIP_RGB: Final = ((40, 90, 210), (30, 150, 60), (205, 45, 45))  # SIDE_COLOURS (R1.4)
_RED_SUIT_RGB: Final = (246, 226, 222)  # hearts and diamonds: a warm cell
_BLACK_SUIT_RGB: Final = (226, 232, 240)  # spades and clubs: a cool one
_CORNER_RGB: Final = (70, 70, 70)
_GRID_RGB: Final = (120, 120, 120)
_LAST_RGB: Final = (250, 200, 0)
_half = (CELL_PIXELS - 1) / 2
_yy, _xx = np.mgrid[0:CELL_PIXELS, 0:CELL_PIXELS]
_DISC: Final = (_yy - _half) ** 2 + (_xx - _half) ** 2 <= (CELL_PIXELS * 0.38) ** 2
_DOT: Final = (_yy - _half) ** 2 + (_xx - _half) ** 2 <= (CELL_PIXELS * 0.14) ** 2
_GRID: Final = np.zeros((CELL_PIXELS, CELL_PIXELS), dtype=bool)
_GRID[[0, -1], :] = True
_GRID[:, [0, -1]] = True
_FRAME: Final = np.zeros((CELL_PIXELS, CELL_PIXELS), dtype=bool)
_FRAME[[0, 1, 2, -3, -2, -1], :] = True
_FRAME[:, [0, 1, 2, -3, -2, -1]] = True


def _cell_text(state: GameState, cell: int) -> str:
    """A chip as its colour's initial (capital when locked, R3.5), else the printed card."""
    if CORNERS >> cell & 1:
        return "**"
    side = state.chip_at(cell)
    if side is None:
        return card_at(cell)
    letter = SIDE_COLOURS[side][0]
    return (letter.upper() if state.locked >> cell & 1 else letter) + " "


def board_text(state: GameState) -> str:
    """The board, then one line each of score, turn and the last action."""
    lines = ["   " + "   ".join(COLUMN_LETTERS)]
    for row in range(SIZE):
        cells = "  ".join(_cell_text(state, row * SIZE + col) for col in range(SIZE))
        lines.append(f"{row}  {cells}".rstrip())
    counts = state.sequence_counts()
    lines.append(
        "sequences: "
        + ", ".join(f"{SIDE_COLOURS[s]} {counts[s]}" for s in range(state.config.sides))
        + f" (need {state.config.sequences_to_win})"
    )
    lines.append(f"turn {state.turn}, draw pile {state.deck_size}, hand sizes {state.hand_sizes()}")
    outcome = state.outcome()
    if outcome is not None:
        winner = "drawn" if outcome.winner is None else f"{SIDE_COLOURS[outcome.winner]} wins"
        lines.append(f"game over ({outcome.termination.value}): {winner}")
    else:
        seat = state.current_seat
        lines.append(f"to act: seat {seat} ({SIDE_COLOURS[state.side_of(seat)]})")
    last = next((e for e in reversed(state.history) if e[0] >= 0 or e[0] == EV_RESHUFFLE), None)
    if last is not None and last[0] >= 0:
        lines.append(f"last: seat {last[0]} {action_name(last[1])}")
    return "\n".join(lines)


def last_cell(state: GameState) -> int | None:
    """The cell of the latest chip placed or removed, if any."""
    for event in reversed(state.history):
        if event[0] >= 0 and event[1] < DEAD:
            return int(event[1]) % NUM_CELLS
    return None


def board_image(state: GameState) -> np.ndarray:
    """The board as an ``(H, W, 3)`` ``uint8`` picture: cells tinted by the colour of their printed
    card's suit, dark corners, chips as discs of their side's colour (a white dot when locked in a
    sequence, R3.5), the latest move framed in yellow; below, a strip in the colour of the side to
    act (grey when the game is over) with one white mark per completed sequence."""
    px = CELL_PIXELS
    image = np.empty((SIZE * px + STATUS_PIXELS, SIZE * px, 3), dtype=np.uint8)
    last = last_cell(state)
    for cell in range(NUM_CELLS):
        tile = image[cell // SIZE * px : (cell // SIZE + 1) * px, cell % SIZE * px : (cell % SIZE + 1) * px]
        card = LAYOUT[cell]
        if card < 0:
            tile[:] = _CORNER_RGB
            tile[_GRID] = _GRID_RGB
            continue
        tile[:] = _RED_SUIT_RGB if card % 4 in (1, 2) else _BLACK_SUIT_RGB  # suits "shdc"
        side = state.chip_at(cell)
        if side is not None:
            tile[_DISC] = CHIP_RGB[side]
            if state.locked >> cell & 1:
                tile[_DOT] = (255, 255, 255)
        tile[_GRID] = _GRID_RGB
        if cell == last:
            tile[_FRAME] = _LAST_RGB
    strip = image[SIZE * px :]
    over = state.is_terminal()
    strip[:] = (150, 150, 150) if over else CHIP_RGB[state.side_of(state.current_seat)]
    for side, count in enumerate(state.sequence_counts()):
        for k in range(count):
            left = (side * 3 + k) * STATUS_PIXELS + 4
            strip[4:-4, left : left + STATUS_PIXELS - 8] = (255, 255, 255)
            strip[6:-6, left + 2 : left + STATUS_PIXELS - 10] = CHIP_RGB[side]
    return image


def render(state: GameState, mode: str | None) -> str | np.ndarray | None:
    """What an environment's ``render()`` gives: the text for ``"ansi"``, printed for ``"human"``
    (then ``None``), the picture for ``"rgb_array"``, nothing without a render mode."""
    if mode is None:
        return None
    if mode == "rgb_array":
        return board_image(state)
    text = board_text(state)
    if mode == "human":
        print(text)
        return None
    return text
